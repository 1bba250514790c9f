import type { DbOrTx } from '../../db/client.ts';
import type { AppError } from '../../http/errors.ts';
import { conflict, forbidden } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { AuthContext, Scope } from '../auth/index.ts';
import { findCustomer } from '../customers/index.ts';
import { stopHasDocument } from './load-documents.repository.ts';
import type { LoadRow, StopRow } from './load-present.ts';

// A customer may require a proof of delivery (issue 70, decision 0289): a delivery stop is not
// completed (departed by the driver or the office, or the load marked delivered by hand) until a
// POD document is attached to it, unless the office lets it, which the load's status history and
// the activity log record. A departure read from the truck's place visits is a fact and is kept.

/** What a refusal or a waiver names: the customer, and each delivery stop without its POD (its number from 1). */
export interface PodMissing {
  customer: string;
  stops: Array<{ stop: StopRow; n: number }>;
}

/** The delivery stops among `check` without a POD, when the load's customer requires one; null otherwise. */
export async function podMissing(db: DbOrTx, load: LoadRow, all: readonly StopRow[], check: readonly StopRow[]): Promise<PodMissing | null> {
  if (!load.customerId) return null;
  const customer = await findCustomer(db, load.organizationId, load.customerId);
  if (!customer?.requiresPod) return null;
  const stops: PodMissing['stops'] = [];
  for (const stop of check) {
    if (stop.kind !== 'DELIVERY') continue;
    if (!(await stopHasDocument(db, load.organizationId, load.id, stop.id, 'POD'))) stops.push({ stop, n: all.findIndex((s) => s.id === stop.id) + 1 });
  }
  return stops.length ? { customer: customer.name, stops } : null;
}

/** The 409 the driver's phone words in the driver's language by its code and the stop's number. */
export const podRequired = (missing: PodMissing, office: boolean): AppError => {
  const n = missing.stops[0]!.n;
  const then = office ? 'photograph it first, or let it be completed without one' : 'photograph it first, or ask the office';
  return conflict(
    `Stop ${n} needs a proof of delivery before it is completed (${missing.customer} requires one): ${then}`,
    `stops.${n - 1}: no POD document, and the customer requires one`,
    'loads.pod_required',
  ).withParams({ stop: n });
};

/** Only the office lets a delivery be completed without its POD. */
export function refuseDriverWaiver(ctx: AuthContext, waived: boolean | undefined): void {
  if (waived && !ctx.permissions.has('LOAD_UPDATE'))
    throw forbidden('Only the office can let a delivery be completed without its proof of delivery', 'podWaived needs LOAD_UPDATE');
}

/** The status-history note of a waiver. */
export const waiverNote = (missing: PodMissing): string =>
  `${missing.stops.length === 1 ? `Stop ${missing.stops[0]!.n}` : `Stops ${missing.stops.map((m) => m.n).join(', ')}`} completed without the proof of delivery ${missing.customer} requires (allowed by the office)`;

/** The activity-log row of a waiver, in the transaction that completes the stop. */
export async function recordWaiver(tx: DbOrTx, s: Scope, loadId: string, missing: PodMissing): Promise<void> {
  await recordActivity(tx, {
    orgId: s.orgId,
    actor: s.actor,
    action: 'POD_WAIVED',
    entityType: 'LOAD',
    entityId: loadId,
    after: { stops: missing.stops.map((m) => ({ stopId: m.stop.id, seq: m.stop.seq })), customer: missing.customer },
  });
}
