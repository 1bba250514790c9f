import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loadStops, loads, placeVisits } from '../../db/schema/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { Actor } from '../auth/index.ts';
import { findLoadRow, stopsOf, type StopRow } from './load-present.ts';
import { emitStopEvents, settleStatus } from './load-settle.ts';

// Stop arrivals and departures from place visits (decision 0166). The geofence follower tells this
// after every round with the vehicles it worked; for each running load of those vehicles the stops
// are walked in order and the next stop not yet reached takes the first visit of the truck to its
// place that began after the previous stop was left (the first stop: from a day before its window).
// It is a sync, not an event handler: run twice it writes nothing new, and when a late fix makes the
// follower recompute a visit, the stop follows the new visit. Times a driver or dispatcher gave are
// never replaced; a departure may still come from the visit that holds a person's arrival.

/** How long before its window a truck's visit to the first stop's place may count as the arrival. */
const FIRST_STOP_LEAD_MS = 24 * 3_600_000;
const SYSTEM: Actor = { userId: null, email: null, role: 'SYSTEM', ip: null };
const manual = (source: string | null) => source === 'DRIVER' || source === 'DISPATCHER';

interface Visit {
  id: string;
  placeId: string;
  arrivedAt: Date;
  departedAt: Date | null;
}

type StopChange = Partial<Pick<StopRow, 'arrivedAt' | 'departedAt' | 'arrivalSource' | 'departureSource' | 'placeVisitId'>>;

/** The changes the visits make to the stops (pure): by stop id. */
export function stopsFromVisits(stops: readonly StopRow[], visits: readonly Visit[]): Map<string, StopChange> {
  const out = new Map<string, StopChange>();
  const first = stops[0];
  if (!first) return out;
  let floor = first.windowStart.getTime() - FIRST_STOP_LEAD_MS;
  for (const stop of stops) {
    const atPlace = stop.placeId ? visits.filter((v) => v.placeId === stop.placeId && v.arrivedAt.getTime() >= floor) : [];
    if (manual(stop.arrivalSource) || (!stop.placeId && stop.arrivedAt)) {
      let departed = stop.departedAt;
      if (!departed && stop.arrivedAt) {
        // The visit the person's arrival falls in may say when the truck left.
        const held = atPlace.find((v) => v.departedAt && v.departedAt > stop.arrivedAt!);
        if (held?.departedAt) {
          out.set(stop.id, { departedAt: held.departedAt, departureSource: 'PLACE' });
          departed = held.departedAt;
        }
      }
      if (!departed) break;
      floor = departed.getTime();
      continue;
    }
    if (!stop.placeId) break;
    // A stop keeps the visit it came from (its id survives a recompute, decision 0238); one whose
    // visit was withdrawn takes the visit holding its recorded arrival, else the first after the floor.
    const arrived = stop.arrivedAt?.getTime() ?? null;
    const visit =
      visits.find((v) => stop.placeVisitId !== null && v.id === stop.placeVisitId) ??
      (arrived === null ? undefined : atPlace.find((v) => v.arrivedAt.getTime() <= arrived && (v.departedAt === null || v.departedAt.getTime() >= arrived))) ??
      atPlace[0];
    if (!visit) {
      // The visit it came from was recomputed away: the stop waits again.
      if (stop.arrivalSource === 'PLACE')
        out.set(stop.id, {
          arrivedAt: null,
          arrivalSource: null,
          placeVisitId: null,
          ...(manual(stop.departureSource) ? {} : { departedAt: null, departureSource: null }),
        });
      break;
    }
    const departedAt = manual(stop.departureSource) ? stop.departedAt : visit.departedAt;
    const change: StopChange = {};
    if (stop.arrivedAt?.getTime() !== visit.arrivedAt.getTime() || stop.arrivalSource !== 'PLACE' || stop.placeVisitId !== visit.id) {
      Object.assign(change, { arrivedAt: visit.arrivedAt, arrivalSource: 'PLACE', placeVisitId: visit.id });
    }
    if (!manual(stop.departureSource) && (stop.departedAt?.getTime() ?? null) !== (visit.departedAt?.getTime() ?? null)) {
      Object.assign(change, { departedAt: visit.departedAt, departureSource: visit.departedAt ? 'PLACE' : null });
    }
    if (Object.keys(change).length) out.set(stop.id, change);
    if (!departedAt) break;
    floor = departedAt.getTime();
  }
  return out;
}

export class LoadStopsFromVisits {
  constructor(private readonly db: Db) {}

  /** Brings the running loads of these vehicles up to date with their visits. Returns the loads changed. */
  async sync(orgId: string, assetIds: readonly string[]): Promise<number> {
    if (assetIds.length === 0) return 0;
    const running = await this.db
      .select({ id: loads.id })
      .from(loads)
      .where(and(eq(loads.organizationId, orgId), inArray(loads.status, ['ASSIGNED', 'EN_ROUTE', 'AT_STOP']), inArray(loads.assetId, [...assetIds])));
    let changed = 0;
    for (const { id } of running) if (await syncLoadStops(this.db, orgId, id)) changed++;
    return changed;
  }
}

/** One running load's stops brought up to date with its truck's visits (also run when a load is assigned); true when it changed. */
export async function syncLoadStops(db: Db, orgId: string, loadId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const load = await findLoadRow(tx, orgId, loadId, true);
    if (!load?.assetId || !['ASSIGNED', 'EN_ROUTE', 'AT_STOP'].includes(load.status)) return false;
    const stops = (await stopsOf(tx, [loadId])).get(loadId) ?? [];
    const placeIds = [...new Set(stops.flatMap((st) => (st.placeId ? [st.placeId] : [])))];
    if (!stops[0] || placeIds.length === 0) return false;
    const visits = await tx
      .select({ id: placeVisits.id, placeId: placeVisits.placeId, arrivedAt: placeVisits.arrivedAt, departedAt: placeVisits.departedAt })
      .from(placeVisits)
      .where(
        and(
          eq(placeVisits.assetId, load.assetId),
          inArray(placeVisits.placeId, placeIds),
          gte(placeVisits.arrivedAt, new Date(stops[0].windowStart.getTime() - FIRST_STOP_LEAD_MS)),
        ),
      )
      .orderBy(asc(placeVisits.arrivedAt));
    const changes = stopsFromVisits(stops, visits);
    if (changes.size === 0) return false;
    const after = [];
    for (const [stopId, change] of changes) {
      const [row] = await tx.update(loadStops).set(change).where(eq(loadStops.id, stopId)).returning();
      after.push(row!);
    }
    await emitStopEvents(tx, load, stops, after);
    await settleStatus(tx, load, null, new Date(), 'From place visits');
    await recordActivity(tx, {
      orgId,
      actor: SYSTEM,
      action: 'STOPS_FROM_PLACES',
      entityType: 'LOAD',
      entityId: loadId,
      before: stops.filter((st) => changes.has(st.id)),
      after,
    });
    return true;
  });
}
