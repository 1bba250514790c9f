import { Badge, Table, Text } from '@mantine/core';
import type { HosLogDay } from '@fleet/api-contract';
import { formatTime } from '../../../lib/dates.ts';
import { formatHours, words } from './log-format.ts';
import tones from '../../../components/badge-tones.module.css';
import classes from './log-page.module.css';
import { ScrollBox } from './scroll-box.tsx';

type DayViolation = HosLogDay['violations'][number];
type DayFinding = HosLogDay['dayFindings'][number];

/** A day-level finding in a safety manager's words (Canada, SOR/2005-313 s. 14). */
export const DAY_FINDING_WORDS: Record<DayFinding['rule'], string> = {
  DAILY_OFF_DUTY: 'Less than 10 hours off duty in the day (Canada)',
  CYCLE_SWITCH: 'Cycle switched after too little off-duty time (Canada: 36 h from cycle 1, 72 h from cycle 2)',
};

/** The day's own findings: a day short of a rule whatever work took the time, and by how much. */
export function LogDayFindings({ findings }: { findings: DayFinding[] }) {
  if (findings.length === 0) return null;
  return (
    <ul aria-label="Findings of the day" className={classes.dayFindings}>
      {findings.map((f) => (
        <li key={f.rule} data-rule={f.rule}>
          <Text size="sm" fw={500} span>
            {DAY_FINDING_WORDS[f.rule]}
          </Text>
          <Text size="sm" span>{`: short by ${formatHours(f.shortMs)}`}</Text>
        </li>
      ))}
    </ul>
  );
}

export interface LogViolationsProps {
  violations: DayViolation[];
  timeZone: string;
  /** `?at=`: the violation holding this instant is highlighted and scrolled to. */
  at?: number;
}

const SEVERITY_COLOR = { NOMINAL: 'gray', VIOLATION: 'red', EGREGIOUS: 'grape' } as const;
const SEVERITY_TONE = { NOMINAL: tones.muted, VIOLATION: tones.danger, EGREGIOUS: tones.severe } as const;

/** Whether an instant falls in a violation's interval (its end included: a link may name the end). */
export const holds = (v: Pick<DayViolation, 'start' | 'end'>, at: number | undefined) =>
  at !== undefined && at >= Date.parse(v.start) && at <= Date.parse(v.end);

/** The day's violations: rule, severity, interval in the home zone (labelled, decision 0140) and how long. */
export function LogViolations({ violations, timeZone, at }: LogViolationsProps) {
  if (violations.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No violations on this day.
      </Text>
    );
  }
  return (
    <ScrollBox label="Violations" minWidth={520}>
      <Table aria-label="Violation list" verticalSpacing={6} className={classes.table}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Rule</Table.Th>
            <Table.Th>Severity</Table.Th>
            <Table.Th>From</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th ta="right">Over by</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {violations.map((v) => {
            const hit = holds(v, at);
            return (
              <Table.Tr key={`${v.rule}-${v.start}`} data-highlight={hit || undefined} aria-current={hit ? 'true' : undefined} className={classes.row}>
                <Table.Td fw={500}>{words(v.rule)}</Table.Td>
                <Table.Td>
                  <Badge color={SEVERITY_COLOR[v.severity]} variant="light" size="sm" className={SEVERITY_TONE[v.severity]}>
                    {words(v.severity)}
                  </Badge>
                </Table.Td>
                <Table.Td className={classes.num}>{formatTime(v.start, timeZone)}</Table.Td>
                <Table.Td className={classes.num}>{formatTime(v.end, timeZone)}</Table.Td>
                <Table.Td ta="right" className={classes.num}>
                  {formatHours(v.durationMs)}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollBox>
  );
}
