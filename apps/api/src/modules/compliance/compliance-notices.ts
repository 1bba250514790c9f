import {
  ANNUAL_COMPLIANCE_KINDS,
  BLOCKING_ASSET_KINDS,
  BLOCKING_DRIVER_KINDS,
  DRIVER_RENEWABLE_KINDS,
  complianceChecklist,
  type ComplianceKind,
  type ComplianceSubjectType,
  type DriverComplianceKind,
} from '@fleet/api-contract';
import type { ReadScope } from '../auth/index.ts';
import type { NotifyInput } from '../notifications/index.ts';
import * as repo from './compliance.repository.ts';
import { driverUsers } from './compliance-notices.repository.ts';
import { clockOf } from './compliance.service.ts';

// The notices of papers running out (issue 71, decision 0302): 60, 30 and 7 days before an item's
// due date (COMPLIANCE_EXPIRING) and once it has expired (COMPLIANCE_EXPIRED: the first day its
// status is EXPIRED, or the day an annual inspection is recorded as failed). Each (item, step) is a
// fact of its own, so repeated runs, several instances and restarts notify it once; a run that
// missed a day (the server was down) sends the step reached, never the steps already passed.

/** Days before the due date a notice is sent, nearest last. */
export const COMPLIANCE_NOTICE_DAYS = [60, 30, 7] as const;
export type ComplianceNoticeStep = (typeof COMPLIANCE_NOTICE_DAYS)[number] | 'EXPIRED';

/** One paper of a file as the notices read it: the current item of its kind (or a due limited Clearinghouse query without one). */
export interface NoticeRow {
  itemId: string | null;
  subject: { type: ComplianceSubjectType; id: string; name: string };
  /** The driver's own sign-in account (drivers only): they hear of their own licence and medical certificate. */
  driverUserId: string | null;
  kind: ComplianceKind;
  /** A permit's name. */
  title: string | null;
  dueDate: string | null;
  daysLeft: number | null;
  /** An annual inspection recorded as failed: out of compliance whatever its date. */
  failed: boolean;
  issuedOn: string | null;
  failedItems: readonly string[];
}

/**
 * The step a paper has reached on its day: EXPIRED past its due date (or failed), else the nearest of
 * 7, 30, 60 days its days left are within; null further out or without a due date.
 */
export function noticeStep(row: Pick<NoticeRow, 'daysLeft' | 'failed'>): ComplianceNoticeStep | null {
  if (row.failed) return 'EXPIRED';
  if (row.daysLeft === null) return null;
  if (row.daysLeft < 0) return 'EXPIRED';
  for (const days of [...COMPLIANCE_NOTICE_DAYS].reverse()) if (row.daysLeft <= days) return days;
  return null;
}

/** Each kind in a sentence ("Dana Driver's medical certificate …"). */
const PAPER_WORDS: Record<ComplianceKind, string> = {
  CDL: 'CDL',
  MEDICAL_CERTIFICATE: 'medical certificate',
  MVR: 'motor vehicle record',
  ANNUAL_REVIEW: 'annual review of driving record',
  ROAD_TEST: 'road test certificate',
  EMPLOYMENT_APPLICATION: 'employment application',
  EMPLOYER_INQUIRY: 'previous employer inquiry',
  CLEARINGHOUSE_FULL: 'Clearinghouse full query',
  CLEARINGHOUSE_LIMITED: 'Clearinghouse limited query',
  REGISTRATION: 'registration',
  IRP_CAB_CARD: 'IRP cab card',
  INSURANCE: 'insurance',
  ANNUAL_INSPECTION: 'annual inspection',
  PERMIT: 'permit',
};

/** The paper in words: a permit by its name. */
export const paperWords = (kind: ComplianceKind, title?: string | null): string => (kind === 'PERMIT' && title ? `${title} permit` : PAPER_WORDS[kind]);

/** "Dana Driver", "Vehicle 101", "Trailer T-9". */
export const subjectWords = (s: NoticeRow['subject']): string => (s.type === 'DRIVER' ? s.name : `${s.type === 'VEHICLE' ? 'Vehicle' : 'Trailer'} ${s.name}`);

/** A calendar date in words ("Nov 20, 2026"): a date, not an instant, so no zone moves it. */
export const dayWords = (day: string): string =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' }).format(Date.parse(`${day}T00:00:00Z`));

const inDays = (n: number) => (n === 0 ? 'today' : n === 1 ? 'tomorrow' : `in ${n} days`);
export const possessive = (who: string) => (who.endsWith('s') ? `${who}’` : `${who}’s`);

/** Papers due a year after they were obtained are "due"; the others "expire". */
const isAnnual = (kind: ComplianceKind) => ANNUAL_COMPLIANCE_KINDS.includes(kind);
const blocks = (row: NoticeRow) => (row.subject.type === 'DRIVER' ? BLOCKING_DRIVER_KINDS : BLOCKING_ASSET_KINDS).includes(row.kind);

const factOf = (row: NoticeRow, step: ComplianceNoticeStep) =>
  `${row.itemId ?? `${row.subject.id}:${row.kind}`}:${row.failed ? `fail:${row.issuedOn ?? ''}` : row.dueDate}:${step}`;

/** The office's link: the calendar narrowed to the driver or unit. */
const officeLink = (row: NoticeRow) => `/compliance?subjectId=${row.subject.id}`;

/** The notice to those who keep the files (COMPLIANCE_LIST, by their choice), or null when the paper has reached no step. */
export function officeNotice(orgId: string, row: NoticeRow): NotifyInput | null {
  const step = noticeStep(row);
  if (step === null) return null;
  const who = subjectWords(row.subject);
  const paper = paperWords(row.kind, row.title);
  const them = row.subject.type === 'DRIVER' ? row.subject.name : 'it';
  let title: string;
  let body: string;
  if (row.failed) {
    title = `${who} failed its annual inspection${row.issuedOn ? ` of ${dayWords(row.issuedOn)}` : ''}`;
    body = `${row.failedItems.length ? `Failed: ${row.failedItems.join(', ')}. ` : ''}Until it passes an inspection, dispatch does not assign it to loads.`;
  } else if (step === 'EXPIRED') {
    title = isAnnual(row.kind)
      ? `${possessive(who)} ${paper} is overdue: it was due on ${dayWords(row.dueDate!)}`
      : `${possessive(who)} ${paper} expired on ${dayWords(row.dueDate!)}`;
    body = `Add the renewed ${paper} to the file.${blocks(row) ? ` Until then, dispatch does not assign ${them} to loads.` : ''}`;
  } else {
    title = `${possessive(who)} ${paper} ${isAnnual(row.kind) ? 'is due' : 'expires'} ${inDays(row.daysLeft!)}`;
    body = `${isAnnual(row.kind) ? 'Due' : 'Expires'} on ${dayWords(row.dueDate!)}. Add the renewed ${paper} to the file before then.${
      blocks(row) ? ` Once it has expired, dispatch does not assign ${them} to loads.` : ''
    }`;
  }
  return {
    organizationId: orgId,
    kind: step === 'EXPIRED' ? 'COMPLIANCE_EXPIRED' : 'COMPLIANCE_EXPIRING',
    factKey: `compliance:${factOf(row, step)}`,
    title,
    body,
    link: officeLink(row),
    linkLabel: 'Open the file',
    about: row.subject.type === 'DRIVER' ? { driverId: row.subject.id } : { assetId: row.subject.id },
  };
}

/**
 * The notice to the driver themself, of their own licence or medical certificate (the papers they
 * hold and renew), whatever their role's codes; null for other papers, a driver without an account,
 * or a paper that has reached no step.
 */
export function driverNotice(orgId: string, row: NoticeRow): NotifyInput | null {
  if (row.subject.type !== 'DRIVER' || !row.driverUserId || !DRIVER_RENEWABLE_KINDS.includes(row.kind as DriverComplianceKind)) return null;
  const step = noticeStep(row);
  if (step === null) return null;
  const paper = paperWords(row.kind);
  const expired = step === 'EXPIRED';
  return {
    organizationId: orgId,
    kind: expired ? 'COMPLIANCE_EXPIRED' : 'COMPLIANCE_EXPIRING',
    factKey: `compliance-own:${factOf(row, step)}`,
    title: expired ? `Your ${paper} expired on ${dayWords(row.dueDate!)}` : `Your ${paper} expires ${inDays(row.daysLeft!)}`,
    body: expired
      ? `You cannot be assigned loads until the office has your renewed ${paper}: photograph it in the app, or hand it to the office.`
      : `It expires on ${dayWords(row.dueDate!)}. Photograph your renewed ${paper} in the app, or hand it to the office, before then.`,
    link: '/driver',
    linkLabel: 'Open',
    userIds: [row.driverUserId],
    own: true,
  };
}

/** Every notice the rows call for today (the notify step records each fact once). */
export function complianceNotices(orgId: string, rows: readonly NoticeRow[]): NotifyInput[] {
  return rows.flatMap((row) => [officeNotice(orgId, row), driverNotice(orgId, row)].filter((n): n is NotifyInput => n !== null));
}

/**
 * The papers of the organization's active drivers and units on its today (the clock's `now`), as the
 * notices read them: the current approved item of each kind with its due date, in four statements.
 */
export async function noticeRows(s: ReadScope): Promise<NoticeRow[]> {
  const clock = await clockOf(s.db, s.orgId, s.now);
  // In turn: the job's database is one session (a connection runs one statement at a time).
  const subjects = await repo.activeSubjects(s.db, s.orgId);
  const items = await repo.approvedItemsOfActive(s.db, s.orgId);
  const users = await driverUsers(s.db, s.orgId);
  const bySubject = new Map<string, typeof items>();
  for (const i of items) {
    const key = (i.driverId ?? i.assetId)!;
    bySubject.set(key, [...(bySubject.get(key) ?? []), i]);
  }
  const out: NoticeRow[] = [];
  for (const subject of subjects) {
    const own = (bySubject.get(subject.id) ?? []).map((i) => ({ ...i, createdAt: i.createdAt.toISOString() }));
    for (const row of complianceChecklist(subject.type, own, clock.today, clock.expiringDays)) {
      if (row.dueDate === null && row.current?.result !== 'FAIL') continue;
      out.push({
        itemId: row.current?.id ?? null,
        subject: { type: subject.type, id: subject.id, name: subject.name },
        driverUserId: subject.type === 'DRIVER' ? (users.get(subject.id) ?? null) : null,
        kind: row.kind,
        title: row.current?.title ?? null,
        dueDate: row.dueDate,
        daysLeft: row.daysLeft,
        failed: row.kind === 'ANNUAL_INSPECTION' && row.current?.result === 'FAIL',
        issuedOn: row.current?.issuedOn ?? null,
        failedItems: row.current?.failedItems ?? [],
      });
    }
  }
  return out;
}

/** The notices the organization's papers call for on the scope's day (the job's `now`); each a fact notify records once. */
export async function complianceNoticesOf(s: ReadScope): Promise<NotifyInput[]> {
  return complianceNotices(s.orgId, await noticeRows(s));
}
