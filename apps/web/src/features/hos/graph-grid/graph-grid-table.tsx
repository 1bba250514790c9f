import { VisuallyHidden } from '@mantine/core';
import type { DaySpan, DayViolation, LogDay } from './graph-grid-geometry.ts';
import { clockTime, ruleName, spanDuration, statusName } from './graph-grid-text.ts';

interface GraphGridTableProps {
  day: LogDay;
  spans: readonly DaySpan[];
  violations: readonly DayViolation[];
  timeZone?: string;
}

/** The grid's content as tables for screen readers (the SVG itself is one image). */
export function GraphGridTable({ day, spans, violations, timeZone }: GraphGridTableProps) {
  return (
    <VisuallyHidden>
      <table>
        <caption>Duty statuses on {day.date}</caption>
        <thead>
          <tr>
            <th scope="col">Start</th>
            <th scope="col">End</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
          </tr>
        </thead>
        <tbody>
          {spans.map((s) => (
            <tr key={`${s.from}-${s.status}`}>
              <td>{clockTime(s.from, day, timeZone)}</td>
              <td>{clockTime(s.to, day, timeZone)}</td>
              <td>{statusName(s)}</td>
              <td>{spanDuration(s)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {violations.length > 0 && (
        <table>
          <caption>Violations on {day.date}</caption>
          <thead>
            <tr>
              <th scope="col">Start</th>
              <th scope="col">End</th>
              <th scope="col">Rule</th>
              <th scope="col">Severity</th>
            </tr>
          </thead>
          <tbody>
            {violations.map((v) => (
              <tr key={`${v.start}-${v.rule}`}>
                <td>{clockTime(v.from, day, timeZone)}</td>
                <td>{clockTime(v.to, day, timeZone)}</td>
                <td>{ruleName(v.rule)}</td>
                <td>{ruleName(v.severity)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </VisuallyHidden>
  );
}
