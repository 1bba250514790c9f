import { VisuallyHidden } from '@mantine/core';
import type { DaySpan, DayViolation, LogDay } from './graph-grid-geometry.ts';
import { clockTime, spanDuration, statusName, type GridWords } from './graph-grid-text.ts';

interface GraphGridTableProps {
  day: LogDay;
  spans: readonly DaySpan[];
  violations: readonly DayViolation[];
  timeZone?: string;
  words: GridWords;
}

/** The grid's content as tables for screen readers (the SVG itself is one image). */
export function GraphGridTable({ day, spans, violations, timeZone, words: w }: GraphGridTableProps) {
  const clock = (offset: number) => clockTime(offset, day, timeZone, w.clockLocale);
  return (
    <VisuallyHidden>
      <table>
        <caption>{`${w.table.statusesOn} ${day.date}`}</caption>
        <thead>
          <tr>
            <th scope="col">{w.table.start}</th>
            <th scope="col">{w.table.end}</th>
            <th scope="col">{w.table.status}</th>
            <th scope="col">{w.table.duration}</th>
          </tr>
        </thead>
        <tbody>
          {spans.map((s) => (
            <tr key={`${s.from}-${s.status}`}>
              <td>{clock(s.from)}</td>
              <td>{clock(s.to)}</td>
              <td>{statusName(s, w)}</td>
              <td>{spanDuration(s)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {violations.length > 0 && (
        <table>
          <caption>{`${w.table.violationsOn} ${day.date}`}</caption>
          <thead>
            <tr>
              <th scope="col">{w.table.start}</th>
              <th scope="col">{w.table.end}</th>
              <th scope="col">{w.table.rule}</th>
              <th scope="col">{w.table.severity}</th>
            </tr>
          </thead>
          <tbody>
            {violations.map((v) => (
              <tr key={`${v.start}-${v.rule}`}>
                <td>{clock(v.from)}</td>
                <td>{clock(v.to)}</td>
                <td>{w.rule(v.rule)}</td>
                <td>{w.rule(v.severity)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </VisuallyHidden>
  );
}
