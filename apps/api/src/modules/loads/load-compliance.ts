import type { DbOrTx } from '../../db/client.ts';
import { conflictOn } from '../../http/errors.ts';
import { dispatchRefusals, loadEndsAt } from '../compliance/index.ts';
import type { StopRow } from './load-present.ts';

// A driver whose licence or medical certificate, or a tractor or trailer whose annual inspection or
// registration, has expired by the load's dates is not given the load (issue 71, decision 0302): 409
// naming who and which paper. Only papers that have run out refuse; a missing one does not.

/**
 * 409 on `driverIds.<i>` (`loads.driver_not_qualified`) or on `assetId` / `trailerId`
 * (`loads.vehicle_not_compliant`) for the first of those named whose paper has expired by the load's end.
 */
export async function refuseNonCompliant(
  tx: DbOrTx,
  orgId: string,
  stops: ReadonlyArray<Pick<StopRow, 'windowStart' | 'windowEnd'>>,
  who: { driverIds: readonly string[]; assetId: string | null; trailerId: string | null },
  now = Date.now(),
): Promise<void> {
  const assetIds = [who.assetId, who.trailerId].filter((a): a is string => !!a);
  if (who.driverIds.length === 0 && assetIds.length === 0) return;
  const refused = await dispatchRefusals(tx, orgId, { driverIds: who.driverIds, assetIds }, loadEndsAt(stops, now), now);
  if (refused.size === 0) return;
  const named: Array<[string, string | null]> = [
    ...who.driverIds.map((id, i): [string, string] => [`driverIds.${i}`, id]),
    ['assetId', who.assetId],
    ['trailerId', who.trailerId],
  ];
  for (const [path, id] of named) {
    const r = id ? refused.get(id) : undefined;
    if (r) throw conflictOn(path, r.message, r.code).withParams(r.params);
  }
}
