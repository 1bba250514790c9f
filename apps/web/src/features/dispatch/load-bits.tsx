import { Badge, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { LOAD_STATUS_LABELS, type LoadStatus } from '@fleet/api-contract/loads';
import tones from '../../components/badge-tones.module.css';
import { formatShortDateTime } from '../../lib/dates.ts';

const STATUS_TONES: Record<LoadStatus, string> = {
  PLANNED: tones.muted!,
  ASSIGNED: tones.muted!,
  EN_ROUTE: tones.ok!,
  AT_STOP: tones.ok!,
  DELIVERED: tones.ok!,
  CANCELLED: tones.danger!,
};
const STATUS_COLORS: Record<LoadStatus, string> = {
  PLANNED: 'gray',
  ASSIGNED: 'blue',
  EN_ROUTE: 'teal',
  AT_STOP: 'cyan',
  DELIVERED: 'green',
  CANCELLED: 'red',
};

export function LoadStatusBadge({ status }: { status: LoadStatus }) {
  return (
    <Badge variant="outline" radius="sm" color={STATUS_COLORS[status]} className={STATUS_TONES[status]} data-status={status}>
      {LOAD_STATUS_LABELS[status]}
    </Badge>
  );
}

/** The at-risk mark: the badge, its reason on hover and focus, and in words for screen readers. */
export function AtRiskBadge({ reason, focusable = true }: { reason: string | null; focusable?: boolean }) {
  const badge = (
    <Badge
      variant="outline"
      radius="sm"
      className={tones.danger}
      leftSection={<IconAlertTriangle size={12} aria-hidden />}
      tabIndex={focusable ? 0 : undefined}
      aria-label={focusable ? `At risk: ${reason ?? 'the ETA passes an appointment window'}` : undefined}
    >
      At risk
    </Badge>
  );
  // Inside a link (a board card) nothing may take focus: the card shows the reason in words instead.
  if (!focusable) return badge;
  return (
    <Tooltip label={reason ?? 'The ETA passes an appointment window'} multiline w={260} withArrow events={{ hover: true, focus: true, touch: true }}>
      {badge}
    </Tooltip>
  );
}

/** "Nov 24, 6:00 AM – 8:00 AM CST" (the second date only when the window crosses a day). */
export function windowText(start: string, end: string): string {
  const a = formatShortDateTime(start);
  const b = formatShortDateTime(end);
  if (a === b) return a;
  const [dayA] = a.split(', ');
  const [dayB, timeB] = b.split(', ');
  // Drop the first zone label when both ends share it.
  const zoneA = a.split(' ').pop();
  const zoneB = b.split(' ').pop();
  const head = zoneA === zoneB ? a.slice(0, a.lastIndexOf(' ')) : a;
  return dayA === dayB ? `${head} – ${timeB}` : `${head} – ${b}`;
}

export function WindowText({ start, end, label }: { start: string; end: string; label: string }) {
  return (
    <Text span size="xs">
      <Text span size="xs" c="dimmed">
        {label}{' '}
      </Text>
      {windowText(start, end)}
    </Text>
  );
}
