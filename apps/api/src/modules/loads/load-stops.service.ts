import { eq } from 'drizzle-orm';
import type { Load, LoadStatus, StopEventSource, StopStatusInput } from '@fleet/api-contract';
import { loadStops } from '../../db/schema/index.ts';
import { conflict, invalidField, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { AuthContext, Scope } from '../auth/index.ts';
import { lockedInReach, reachOf } from './load-access.ts';
import { stopsOf } from './load-present.ts';
import { podMissing, podRequired, recordWaiver, refuseDriverWaiver, waiverNote } from './load-pod.ts';
import { stopEventProblem } from './load-status.ts';
import { emitStopEvents, settleStatus } from './load-settle.ts';
import { fullLoad } from './loads.service.ts';

// What the driver (LOAD_SELF_WRITE, their own loads) or the office (LOAD_UPDATE) does at a stop
// (decision 0166): arrive and depart (the papers: load-documents.service.ts). Events out of order
// are refused with the stop they wait for; a time a person gives replaces one taken from a place visit.

const MOVING: readonly LoadStatus[] = ['ASSIGNED', 'EN_ROUTE', 'AT_STOP'];

export async function stopEvent(s: Scope, ctx: AuthContext, loadId: string, stopId: string, input: StopStatusInput): Promise<Load> {
  refuseDriverWaiver(ctx, input.podWaived);
  const reach = await reachOf(s.db, s.orgId, ctx, 'LOAD_UPDATE');
  await s.db.transaction(async (tx) => {
    const load = await lockedInReach(tx, s, reach, loadId);
    const stops = (await stopsOf(tx, [loadId])).get(loadId) ?? [];
    const stop = stops.find((st) => st.id === stopId);
    if (!stop) throw notFound('Stop');
    // The same arrival or departure at the same time sent again (a phone resending, decision 0184) is
    // the one recorded, even once the load it delivered no longer moves.
    const recorded = input.event === 'ARRIVE' ? stop.arrivedAt : stop.departedAt;
    if (input.at && recorded && new Date(recorded).getTime() === Date.parse(input.at)) return;
    if (!MOVING.includes(load.status)) {
      throw conflict(
        load.status === 'PLANNED'
          ? `Load ${load.number} has no driver yet: assign it before marking its stops`
          : `Load ${load.number} is ${load.status.toLowerCase()}: its stops can no longer change`,
      );
    }
    const now = new Date(s.now ?? Date.now());
    const at = input.at ? new Date(input.at) : now;
    const problem = stopEventProblem(stops, stopId, input.event, at, now);
    if (problem) throw invalidField(problem.field, problem.message);
    // A delivery whose customer requires a proof of delivery waits for it, unless the office lets it
    // (the load is locked: a paper added meanwhile is seen).
    const missing = input.event === 'DEPART' ? await podMissing(tx, load, stops, [stop]) : null;
    if (missing && !input.podWaived) throw podRequired(missing, reach.all);
    const source: StopEventSource = reach.all ? 'DISPATCHER' : 'DRIVER';
    const set = input.event === 'ARRIVE' ? { arrivedAt: at, arrivalSource: source, placeVisitId: null } : { departedAt: at, departureSource: source };
    const [after] = await tx.update(loadStops).set(set).where(eq(loadStops.id, stopId)).returning();
    await emitStopEvents(tx, load, [stop], [after!]);
    await settleStatus(tx, load, s.actor, at, missing ? waiverNote(missing) : null);
    if (missing) await recordWaiver(tx, s, loadId, missing);
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: input.event === 'ARRIVE' ? 'STOP_ARRIVE' : 'STOP_DEPART',
      entityType: 'LOAD',
      entityId: loadId,
      before: stop,
      after,
    });
  });
  return fullLoad(s.db, s.orgId, loadId);
}
