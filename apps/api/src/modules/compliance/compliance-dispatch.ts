import type { BlockingComplianceItem, ErrorCode, ErrorParams } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { blockingItems } from './compliance-calendar.ts';
import { dayWords, paperWords, possessive, subjectWords } from './compliance-notices.ts';
import { clockOf } from './compliance.service.ts';

// Dispatch's rule (issue 71, decision 0302): a driver whose licence or medical certificate, or a
// tractor or trailer whose annual inspection or registration, has expired by the load's dates is not
// given the load. Loads answer 409 with these words; the candidates list gives the reason.

/** When a load is over by its appointments: its last stop's window end (else its first stop's opening), never before now. */
export function loadEndsAt(stops: ReadonlyArray<{ windowStart: Date; windowEnd?: Date | null }>, now: number): number {
  const last = stops[stops.length - 1];
  const end = last?.windowEnd?.getTime() ?? stops[0]?.windowStart.getTime() ?? now;
  return Math.max(end, now);
}

/** What dispatch answers for a paper that keeps a driver or unit off a load: the 409's code, words and params, and the candidates list's reason. */
export interface DispatchRefusal {
  code: ErrorCode;
  message: string;
  params: ErrorParams;
  /** The candidates list's reason, of the driver it is about: "medical certificate expired on Nov 20, 2026". */
  reason: string;
}

/**
 * A blocking paper in dispatch's words (decision 0302), on the organization's `today` and the load's
 * last day `on`: "Dana Driver's medical certificate expired on Nov 20, 2026" (or "expires on …, before
 * this load ends" when still ahead); a failed annual inspection ("failed its annual inspection").
 */
export function dispatchRefusal(b: BlockingComplianceItem, today: string, on: string): DispatchRefusal {
  const driver = b.subject.type === 'DRIVER';
  const who = subjectWords(b.subject);
  const paper = paperWords(b.kind);
  // An inspection that keeps its unit off a load before its due date has failed.
  const failed = b.kind === 'ANNUAL_INSPECTION' && (b.dueDate === null || b.dueDate >= on);
  const ran = b.dueDate === null ? '' : b.dueDate < today ? `expired on ${dayWords(b.dueDate)}` : `expires on ${dayWords(b.dueDate)}, before this load ends`;
  const reason = failed ? 'failed its annual inspection' : `${paper} ${ran}`;
  const then = driver
    ? 'add the renewed one to their qualification file first, or choose another driver'
    : failed
      ? 'record a passed inspection first, or choose another unit'
      : 'add the renewed one to its papers first, or choose another unit';
  const message = failed ? `${who} failed its annual inspection: ${then}` : `${possessive(who)} ${reason}: ${then}`;
  const params: ErrorParams = driver
    ? { driver: b.subject.name, kind: b.kind, date: b.dueDate ?? '' }
    : { unit: b.subject.name, kind: b.kind, date: b.dueDate ?? '', failed: failed ? 1 : 0 };
  return { code: driver ? 'loads.driver_not_qualified' : 'loads.vehicle_not_compliant', message, params, reason };
}

/**
 * The papers keeping these drivers and units off a load that ends at `endsAt` (an instant; its date
 * in the organization's zone is the day checked), in dispatch's words: the first per driver or unit,
 * by its id. Call it with the caller's transaction.
 */
export async function dispatchRefusals(
  db: DbOrTx,
  orgId: string,
  who: { driverIds?: readonly string[]; assetIds?: readonly string[] },
  endsAt: number,
  now = Date.now(),
): Promise<Map<string, DispatchRefusal>> {
  const out = new Map<string, DispatchRefusal>();
  if (!who.driverIds?.length && !who.assetIds?.length) return out;
  // In turn: a transaction is one connection.
  const { today } = await clockOf(db, orgId, now);
  const { today: on } = await clockOf(db, orgId, Math.max(endsAt, now));
  for (const b of await blockingItems(db, orgId, { driverIds: who.driverIds ?? [], assetIds: who.assetIds ?? [], on })) {
    if (!out.has(b.subject.id)) out.set(b.subject.id, dispatchRefusal(b, today, on));
  }
  return out;
}
