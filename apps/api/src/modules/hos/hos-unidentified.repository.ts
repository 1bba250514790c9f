import { and, asc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import { distanceM } from '@fleet/geo';
import { HOS_EVENT_TYPES, HOS_RECORD_STATUSES } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, hosEditRequests, hosEvents, hosUnidentifiedAnnotations, positions, users } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { isAutomaticDriving } from './hos.periods.ts';
import { inForceAt } from './hos.repository.ts';

// Unidentified driving (Appendix A 4.6.1.6, decision 0113): the records automatic duty status writes
// without a driver (driver_id null) when a vehicle moves with nobody assigned. A segment is one of
// them with Driving, up to the next unidentified duty status of the same vehicle (the ON the
// derivation writes 5 minutes after the stop, or when a driver is assigned mid-drive), with the
// intermediate logs between. Its id is its Driving record's id.

export type SegmentState = 'UNASSIGNED' | 'PROPOSED' | 'ASSIGNED' | 'ANNOTATED';

export interface Segment {
  id: string;
  vehicle: { id: string; unitNumber: string; type: 'VEHICLE' | 'TRAILER' } | null;
  vehicleId: string;
  start: number;
  end: number | null;
  startPlace: { latitude: number | null; longitude: number | null; description: string | null; odometerM: number | null };
  endPlace: { latitude: number | null; longitude: number | null; description: string | null; odometerM: number | null } | null;
  /** Record status of its Driving record: 1 unassigned, 2 assigned (claimed or an accepted proposal). */
  recordStatus: number;
  state: SegmentState;
  annotation: { reason: string; at: string; by: string | null } | null;
  driver: { id: string; firstName: string; lastName: string } | null;
  proposalId: string | null;
}

type Raw = {
  id: string;
  vehicle_id: string;
  t: Date | string;
  lat: number | null;
  lon: number | null;
  loc: string | null;
  odo: number | null;
  record_status: number;
  end_t: Date | string | null;
  end_lat: number | null;
  end_lon: number | null;
  end_loc: string | null;
  end_odo: number | null;
  unit_number: string | null;
  asset_type: 'VEHICLE' | 'TRAILER' | null;
};

const ms = (v: Date | string) => new Date(v).getTime();

/**
 * The unidentified segments that start in [fromMs, toMs) on the organization's vehicles (or the
 * listed ones, or the one `segmentId`), newest first, with their state: assigned (its records were
 * taken over by a driver), proposed (an edit request waits for a driver), annotated as nobody's, or
 * unassigned.
 */
export async function readSegments(
  db: DbOrTx,
  orgId: string,
  f: { fromMs?: number; toMs?: number; vehicleIds?: readonly string[]; segmentId?: string },
): Promise<Segment[]> {
  if (f.vehicleIds && f.vehicleIds.length === 0) return [];
  const conds = [
    sql`d.organization_id = ${orgId}::uuid and d.driver_id is null and d.event_type = ${HOS_EVENT_TYPES.DUTY_STATUS} and d.event_code = 3 and d.record_status in (1, 2)`,
    f.fromMs !== undefined ? sql`d.event_time >= ${new Date(f.fromMs).toISOString()}::timestamptz` : sql`true`,
    f.toMs !== undefined ? sql`d.event_time < ${new Date(f.toMs).toISOString()}::timestamptz` : sql`true`,
    f.vehicleIds ? sql`d.vehicle_id = any(${`{${f.vehicleIds.join(',')}}`}::uuid[])` : sql`d.vehicle_id is not null`,
    f.segmentId ? sql`d.id = ${f.segmentId}::uuid` : sql`true`,
  ];
  const rows = rowsOf<Raw>(
    await db.execute(sql`
      select d.id, d.vehicle_id, d.event_time as t, d.latitude as lat, d.longitude as lon, d.location_description as loc, d.odometer_m as odo, d.record_status,
             e.event_time as end_t, e.latitude as end_lat, e.longitude as end_lon, e.location_description as end_loc, e.odometer_m as end_odo,
             a.unit_number, a.type as asset_type
      from hos_events d
      left join assets a on a.id = d.vehicle_id and a.organization_id = d.organization_id
      left join lateral (
        select x.event_time, x.latitude, x.longitude, x.location_description, x.odometer_m from hos_events x
        where x.organization_id = d.organization_id and x.driver_id is null and x.vehicle_id = d.vehicle_id and x.event_type = ${HOS_EVENT_TYPES.DUTY_STATUS}
          and x.record_status in (1, 2) and x.event_time > d.event_time
        order by x.event_time asc limit 1) e on true
      where ${sql.join(conds, sql` and `)}
      order by d.event_time desc, d.id`),
  );
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [notes, takers] = await Promise.all([
    db
      .select({
        id: hosUnidentifiedAnnotations.segmentEventId,
        reason: hosUnidentifiedAnnotations.reason,
        at: hosUnidentifiedAnnotations.annotatedAt,
        by: users.email,
      })
      .from(hosUnidentifiedAnnotations)
      .leftJoin(users, eq(users.id, hosUnidentifiedAnnotations.annotatedByUserId))
      .where(and(eq(hosUnidentifiedAnnotations.organizationId, orgId), inArray(hosUnidentifiedAnnotations.segmentEventId, ids))),
    db
      .select({
        replaces: hosEvents.replacesEventId,
        status: hosEvents.recordStatus,
        requestId: hosEvents.editRequestId,
        requestState: hosEditRequests.state,
        driver: { id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName },
      })
      .from(hosEvents)
      .innerJoin(drivers, and(eq(drivers.id, hosEvents.driverId), eq(drivers.organizationId, hosEvents.organizationId)))
      .leftJoin(hosEditRequests, and(eq(hosEditRequests.id, hosEvents.editRequestId), eq(hosEditRequests.organizationId, hosEvents.organizationId)))
      .where(
        and(
          eq(hosEvents.organizationId, orgId),
          inArray(hosEvents.replacesEventId, ids),
          inArray(hosEvents.recordStatus, [HOS_RECORD_STATUSES.ACTIVE, HOS_RECORD_STATUSES.INACTIVE_CHANGE_REQUESTED]),
        ),
      ),
  ]);
  const noteOf = new Map(notes.map((n) => [n.id, n]));
  return rows.map((r): Segment => {
    const taken = takers.filter((t) => t.replaces === r.id);
    const assigned = taken.find((t) => t.status === HOS_RECORD_STATUSES.ACTIVE);
    const proposed = taken.find((t) => t.status === HOS_RECORD_STATUSES.INACTIVE_CHANGE_REQUESTED && t.requestState === 'PENDING');
    const note = noteOf.get(r.id);
    const state: SegmentState =
      Number(r.record_status) === HOS_RECORD_STATUSES.INACTIVE_CHANGED || assigned ? 'ASSIGNED' : proposed ? 'PROPOSED' : note ? 'ANNOTATED' : 'UNASSIGNED';
    return {
      id: r.id,
      vehicleId: r.vehicle_id,
      vehicle: r.unit_number && r.asset_type ? { id: r.vehicle_id, unitNumber: r.unit_number, type: r.asset_type } : null,
      start: ms(r.t),
      end: r.end_t === null ? null : ms(r.end_t),
      startPlace: { latitude: r.lat, longitude: r.lon, description: r.loc, odometerM: r.odo },
      endPlace: r.end_t === null ? null : { latitude: r.end_lat, longitude: r.end_lon, description: r.end_loc, odometerM: r.end_odo },
      recordStatus: Number(r.record_status),
      state,
      annotation: note ? { reason: note.reason, at: note.at.toISOString(), by: note.by } : null,
      driver: (assigned ?? proposed)?.driver ?? null,
      proposalId: assigned?.requestId ?? proposed?.requestId ?? null,
    };
  });
}

/** One segment of the organization, 404 "Segment" otherwise. */
export async function segmentOf(db: DbOrTx, orgId: string, segmentId: string): Promise<Segment> {
  const [s] = await readSegments(db, orgId, { segmentId });
  if (!s) throw notFound('Segment');
  return s;
}

/** The unidentified records a segment is made of (its Driving, intermediate logs and closing status), active ones. */
export async function segmentRecords(db: DbOrTx, orgId: string, s: Segment) {
  return db
    .select()
    .from(hosEvents)
    .where(
      and(
        eq(hosEvents.organizationId, orgId),
        isNull(hosEvents.driverId),
        eq(hosEvents.vehicleId, s.vehicleId),
        inArray(hosEvents.eventType, [HOS_EVENT_TYPES.DUTY_STATUS, HOS_EVENT_TYPES.INTERMEDIATE_LOG]),
        eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE),
        gte(hosEvents.eventTime, new Date(s.start)),
        lte(hosEvents.eventTime, new Date(s.end ?? s.start)),
      ),
    )
    .orderBy(asc(hosEvents.eventTime), asc(hosEvents.sequenceId));
}

/**
 * Refuses to give a driver a segment that collides with their records: a duty status of theirs
 * inside it, or automatically recorded driving (on another vehicle) running when it starts.
 */
export async function checkAssign(tx: DbOrTx, driverId: string, s: Pick<Segment, 'start' | 'end'>, field: string): Promise<void> {
  const end = s.end ?? s.start;
  const [inside] = await tx
    .select({ at: hosEvents.eventTime })
    .from(hosEvents)
    .where(
      and(
        eq(hosEvents.driverId, driverId),
        eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE),
        eq(hosEvents.eventType, HOS_EVENT_TYPES.DUTY_STATUS),
        gte(hosEvents.eventTime, new Date(s.start)),
        lte(hosEvents.eventTime, new Date(end)),
      ),
    )
    .limit(1);
  if (inside)
    throw conflict(`The driver has a duty status recorded at ${inside.at.toISOString()}, during this driving`, `${field}: overlaps the driver's records`);
  const running = await inForceAt(tx, driverId, HOS_EVENT_TYPES.DUTY_STATUS, new Date(s.start));
  if (running && isAutomaticDriving(running))
    throw conflict('The driver was already driving another vehicle when this driving started', `${field}: overlaps automatic driving`);
}

/** Metres driven in a segment: its odometer readings, else the length of the vehicle's track. */
export async function segmentDistance(db: DbOrTx, s: Segment): Promise<number | null> {
  const a = s.startPlace.odometerM;
  const b = s.endPlace?.odometerM ?? null;
  if (a !== null && b !== null && b >= a) return b - a;
  const end = s.end ?? Date.now();
  const fixes = await db
    .select({ lat: positions.latitude, lon: positions.longitude })
    .from(positions)
    .where(and(eq(positions.assetId, s.vehicleId), gte(positions.fixTime, new Date(s.start)), lte(positions.fixTime, new Date(end))))
    .orderBy(asc(positions.fixTime))
    .limit(20_000);
  if (fixes.length < 2) return null;
  let m = 0;
  for (let i = 1; i < fixes.length; i++) m += distanceM(fixes[i - 1]!, fixes[i]!);
  return Math.round(m);
}

/** The vehicles a driver may see unidentified driving on: the one assigned now and those in their records of the last 8 days. */
export async function vehiclesOfDriver(db: DbOrTx, orgId: string, driverId: string, sinceMs: number): Promise<string[]> {
  const [current, recent] = await Promise.all([
    db
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.organizationId, orgId), eq(assets.currentDriverId, driverId), eq(assets.type, 'VEHICLE'))),
    db
      .selectDistinct({ id: hosEvents.vehicleId })
      .from(hosEvents)
      .where(and(eq(hosEvents.driverId, driverId), eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE), gte(hosEvents.eventTime, new Date(sinceMs)))),
  ]);
  return [...new Set([...current.map((r) => r.id), ...recent.map((r) => r.id).filter((v): v is string => !!v)])];
}
