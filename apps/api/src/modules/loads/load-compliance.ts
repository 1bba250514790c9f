import type { DbOrTx } from '../../db/client.ts';
import { conflictOn } from '../../http/errors.ts';
import { blockingItems, dispatchRefusal, type BlockingComplianceItem } from '../compliance/index.ts';
import type { StopRow } from './load-present.ts';

// A driver whose licence or medical certificate, or a tractor or trailer whose annual inspection or
// registration, has expired by the load's dates is not given the load (issue 71, decision 0302): 409
// naming who and which paper. Only papers that have run out refuse; a missing one does not.

type WindowStop = Pick<StopRow, 'windowStart' | 'windowEnd'>;

/** When the load is over by its appointments: its last stop's window end (else its first stop's opening), never before now. */
export function loadEndsAt(stops: readonly WindowStop[], now: number): number {
  const last = stops[stops.length - 1];
  const end = last?.windowEnd?.getTime() ?? stops[0]?.windowStart.getTime() ?? now;
  return Math.max(end, now);
}

/**
 * 409 on `driverIds.<i>` (`loads.driver_not_qualified`) or on `assetId` / `trailerId`
 * (`loads.vehicle_not_compliant`) for the first of those named whose paper has expired by the load's end.
 */
export async function refuseNonCompliant(
  tx: DbOrTx,
  orgId: string,
  stops: readonly WindowStop[],
  who: { driverIds: readonly string[]; assetId: string | null; trailerId: string | null },
  now = Date.now(),
): Promise<void> {
  const assetIds = [who.assetId, who.trailerId].filter((a): a is string => !!a);
  if (who.driverIds.length === 0 && assetIds.length === 0) return;
  const blocking = await blockingItems(tx, orgId, { driverIds: who.driverIds, assetIds, on: loadEndsAt(stops, now) });
  if (blocking.length === 0) return;
  const first = (pick: (b: BlockingComplianceItem) => boolean) => blocking.find(pick);
  for (const [i, driverId] of who.driverIds.entries()) {
    const b = first((x) => x.subject.type === 'DRIVER' && x.subject.id === driverId);
    if (b) throw refusal(`driverIds.${i}`, b);
  }
  for (const [path, id] of [
    ['assetId', who.assetId],
    ['trailerId', who.trailerId],
  ] as const) {
    const b = id ? first((x) => x.subject.type !== 'DRIVER' && x.subject.id === id) : undefined;
    if (b) throw refusal(path, b);
  }
}

function refusal(path: string, b: BlockingComplianceItem) {
  const r = dispatchRefusal(b);
  return conflictOn(path, r.message, r.code).withParams(r.params);
}
