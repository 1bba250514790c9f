import {
  BLOCKING_ASSET_KINDS,
  BLOCKING_DRIVER_KINDS,
  COMPLIANCE_KIND_LABELS,
  addDays,
  complianceChecklist,
  complianceStatus,
  daysBetween,
  newestComplianceFirst,
  type BlockingComplianceItem,
  type ComplianceCalendarQuery,
  type ComplianceCalendarRow,
  type ComplianceStatus,
  type ComplianceSummary,
  type Page,
} from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import type { ReadScope } from '../auth/index.ts';
import * as repo from './compliance.repository.ts';
import type { ItemRow, SubjectRow } from './compliance.repository.ts';
import { clockOf, type ComplianceClock } from './compliance.service.ts';

// The compliance calendar (issue 71, decision 0300): every active driver's and unit's file on today's
// date, one row per current paper and per required paper missing, computed here from the approved
// papers (statuses depend on today in the organization's zone and on its expiring window, so they
// are not stored). The dashboard tile counts the same rows; dispatch asks which papers keep a driver
// or a unit off a load.

const STATUS_ORDER: Record<ComplianceStatus, number> = { EXPIRED: 0, MISSING: 1, EXPIRING: 2, VALID: 3 };

/** The calendar rows of these subjects on the clock's today (every status). */
export function calendarRows(subjects: readonly SubjectRow[], items: readonly ItemRow[], clock: ComplianceClock): ComplianceCalendarRow[] {
  const bySubject = new Map<string, ItemRow[]>();
  for (const i of items) {
    const key = (i.driverId ?? i.assetId)!;
    const list = bySubject.get(key) ?? [];
    list.push(i);
    bySubject.set(key, list);
  }
  const out: ComplianceCalendarRow[] = [];
  for (const subject of subjects) {
    const own = (bySubject.get(subject.id) ?? []).map((i) => ({ ...i, createdAt: i.createdAt.toISOString() }));
    for (const row of complianceChecklist(subject.type, own, clock.today, clock.expiringDays)) {
      out.push({
        itemId: row.current?.id ?? null,
        subject: { type: subject.type, id: subject.id, name: subject.name },
        kind: row.kind,
        status: row.status,
        dueDate: row.dueDate,
        daysLeft: row.daysLeft,
        number: row.current?.number ?? null,
        title: row.current?.title ?? null,
      });
    }
  }
  return out;
}

/** EXPIRED first, then MISSING, EXPIRING, VALID; within a status the soonest due date first, then the subject's name and the kind. */
export function calendarOrder(a: ComplianceCalendarRow, b: ComplianceCalendarRow): number {
  return (
    STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
    (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') ||
    a.subject.name.localeCompare(b.subject.name) ||
    a.kind.localeCompare(b.kind) ||
    (a.itemId ?? '').localeCompare(b.itemId ?? '')
  );
}

/** Every calendar row of the organization's active drivers and units (every status), soonest first. */
export async function allCalendarRows(db: DbOrTx, orgId: string, clock: ComplianceClock): Promise<ComplianceCalendarRow[]> {
  const [subjects, items] = await Promise.all([repo.activeSubjects(db, orgId), repo.approvedItemsOfActive(db, orgId)]);
  return calendarRows(subjects, items, clock).sort(calendarOrder);
}

/** GET `compliance/items`: the calendar filtered by status (default EXPIRING, EXPIRED, MISSING), kind, subject type, subject and search, a page of it. */
export async function calendar(s: ReadScope, q: ComplianceCalendarQuery): Promise<Page<ComplianceCalendarRow>> {
  const clock = await clockOf(s.db, s.orgId, s.now);
  const search = (q.q ?? q.search ?? '').trim().toLowerCase();
  const rows = (await allCalendarRows(s.db, s.orgId, clock)).filter(
    (r) =>
      q.status.includes(r.status) &&
      (!q.kind || q.kind.includes(r.kind)) &&
      (!q.subject || q.subject.includes(r.subject.type)) &&
      (!q.subjectId || r.subject.id === q.subjectId) &&
      (!search || r.subject.name.toLowerCase().includes(search) || (r.number ?? '').toLowerCase().includes(search)),
  );
  return {
    content: rows.slice(q.page * q.size, (q.page + 1) * q.size),
    page: q.page,
    size: q.size,
    totalElements: rows.length,
    totalPages: Math.ceil(rows.length / q.size),
  };
}

/** GET `compliance/summary`: the dashboard tile's counts of calendar rows, and the renewals waiting. */
export async function summary(s: ReadScope): Promise<ComplianceSummary> {
  const clock = await clockOf(s.db, s.orgId, s.now);
  const [rows, pendingApproval] = await Promise.all([allCalendarRows(s.db, s.orgId, clock), repo.pendingCount(s.db, s.orgId)]);
  const count = (st: ComplianceStatus) => rows.filter((r) => r.status === st).length;
  return { expiring: count('EXPIRING'), expired: count('EXPIRED'), missing: count('MISSING'), pendingApproval };
}

/**
 * The papers that keep these drivers or units off work on `on` (a calendar date, `YYYY-MM-DD`): a
 * driver's current CDL or medical certificate due before it, a vehicle's or trailer's current annual
 * inspection or registration due before it, or an annual inspection that failed. MISSING papers do
 * not block (issue 71). Inactive subjects count too (dispatch asked for them by id). Call it with the
 * caller's transaction; an id of no driver or unit of the organization is ignored.
 */
export async function blockingItems(
  db: DbOrTx,
  orgId: string,
  who: { driverIds?: readonly string[]; assetIds?: readonly string[]; on: string },
): Promise<BlockingComplianceItem[]> {
  const driverIds = [...new Set(who.driverIds ?? [])];
  const assetIds = [...new Set(who.assetIds ?? [])];
  if (driverIds.length === 0 && assetIds.length === 0) return [];
  // One after another: `db` is often the caller's transaction, one connection.
  const subjects = await repo.subjectsByIds(db, orgId, driverIds, assetIds);
  const kindsBlocking = [...BLOCKING_DRIVER_KINDS, ...BLOCKING_ASSET_KINDS];
  const items = (await repo.itemsOfSubjects(db, orgId, { driverIds, assetIds }, { approvedOnly: true, kinds: kindsBlocking })).sort((a, b) =>
    newestComplianceFirst({ issuedOn: a.issuedOn, createdAt: a.createdAt.toISOString() }, { issuedOn: b.issuedOn, createdAt: b.createdAt.toISOString() }),
  );
  const clock = await clockOf(db, orgId);
  const out: BlockingComplianceItem[] = [];
  for (const subject of subjects) {
    const kinds = subject.type === 'DRIVER' ? BLOCKING_DRIVER_KINDS : BLOCKING_ASSET_KINDS;
    for (const kind of kinds) {
      // The newest approved paper of the kind is the current one, chosen as the checklist chooses it.
      const current = items.find((i) => (i.driverId ?? i.assetId) === subject.id && i.kind === kind);
      if (!current) continue;
      // Due before `on` is EXPIRED on `on`: the status of the day the load runs to.
      const st = complianceStatus({ kind, issuedOn: current.issuedOn, expiresOn: current.expiresOn, result: current.result }, who.on, 0);
      if (st.status !== 'EXPIRED') continue;
      out.push({
        subject: { type: subject.type, id: subject.id, name: subject.name },
        kind,
        itemId: current.id,
        dueDate: st.dueDate,
        message: blockingWords(subject.name, kind, current, st.dueDate, clock.today),
      });
    }
  }
  return out;
}

/** "Dana Driver's medical certificate expired on 2026-11-20" (or "expires on", when that is still ahead). */
function blockingWords(name: string, kind: ItemRow['kind'], item: ItemRow, dueDate: string | null, today: string): string {
  const paper = COMPLIANCE_KIND_LABELS[kind].toLowerCase();
  if (kind === 'ANNUAL_INSPECTION' && item.result === 'FAIL') return `${name}'s annual inspection failed on ${item.issuedOn ?? dueDate}`;
  if (dueDate === null) return `${name}'s ${paper} is not valid`;
  // The last valid day is the due date: it expired on the day after, said as the due date people read on the paper.
  return daysBetween(today, dueDate) < 0 ? `${name}'s ${paper} expired on ${dueDate}` : `${name}'s ${paper} expires on ${dueDate}, before the load ends`;
}

/** Today's date plus `days` in the organization's zone (helpers of the notices and tests). */
export async function organizationDay(db: DbOrTx, orgId: string, days = 0, now?: number): Promise<string> {
  return addDays((await clockOf(db, orgId, now)).today, days);
}
