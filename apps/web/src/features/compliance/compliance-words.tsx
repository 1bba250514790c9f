import { Badge, Text } from '@mantine/core';
import { COMPLIANCE_KIND_LABELS, type ComplianceApproval, type ComplianceKind, type ComplianceStatus } from '@fleet/api-contract/compliance';
import tones from '../../components/badge-tones.module.css';

// The office's words and badges of compliance (issue 71); the driver's are in the catalogues.

export const kindLabel = (kind: ComplianceKind) => COMPLIANCE_KIND_LABELS[kind];

export const STATUS_WORDS: Record<ComplianceStatus, string> = { VALID: 'Valid', EXPIRING: 'Expiring', EXPIRED: 'Expired', MISSING: 'Missing' };

/** The status colours the issue asks for: valid green, expiring yellow, expired red, missing gray (text darkened for contrast on both themes). */
const STATUS_LOOK: Record<ComplianceStatus, { color: string; tone: string | undefined }> = {
  VALID: { color: 'green', tone: tones.ok },
  EXPIRING: { color: 'yellow', tone: tones.warn },
  EXPIRED: { color: 'red', tone: tones.danger },
  MISSING: { color: 'gray', tone: tones.muted },
};

export function ComplianceStatusBadge({ status }: { status: ComplianceStatus }) {
  const look = STATUS_LOOK[status];
  return (
    <Badge variant="light" color={look.color} radius="sm" className={look.tone} data-status={status}>
      {STATUS_WORDS[status]}
    </Badge>
  );
}

const APPROVAL_WORDS: Record<ComplianceApproval, string> = { APPROVED: 'Approved', PENDING: 'Waiting for approval', REJECTED: 'Rejected' };

export function ApprovalBadge({ approval }: { approval: ComplianceApproval }) {
  if (approval === 'APPROVED') return null;
  return (
    <Badge variant="outline" radius="sm" className={approval === 'PENDING' ? tones.warn : tones.danger} data-approval={approval}>
      {APPROVAL_WORDS[approval]}
    </Badge>
  );
}

const DAY_TEXT = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
/** A calendar date as the office reads it ("Dec 5, 2026"); a date is a day, in no zone. */
export const dayText = (day: string) => DAY_TEXT.format(new Date(`${day}T12:00:00Z`));

/** "in 5 days", "today", "3 days ago". */
export function daysLeftText(daysLeft: number): string {
  if (daysLeft === 0) return 'today';
  if (daysLeft === 1) return 'tomorrow';
  if (daysLeft === -1) return 'yesterday';
  return daysLeft > 0 ? `in ${daysLeft} days` : `${-daysLeft} days ago`;
}

/** The due date and how far off it is; "No expiry" for a paper that never runs out, "—" for a missing one. */
export function DueText({
  dueDate,
  daysLeft,
  status,
  size = 'sm',
}: {
  dueDate: string | null;
  daysLeft: number | null;
  status: ComplianceStatus;
  /** The date's size (default sm); how far off it is stays xs. */
  size?: 'sm' | 'xs';
}) {
  if (status === 'MISSING' && !dueDate)
    return (
      <Text span size={size} c="dimmed">
        —
      </Text>
    );
  if (!dueDate || daysLeft === null)
    return (
      <Text span size={size} c="dimmed">
        No expiry
      </Text>
    );
  return (
    <Text span size={size} style={{ whiteSpace: 'nowrap' }}>
      {dayText(dueDate)}
      <Text span size="xs" c="dimmed">
        {' '}
        · {daysLeftText(daysLeft)}
      </Text>
    </Text>
  );
}
