import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, max, sql } from 'drizzle-orm';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS, HOS_RECORD_STATUSES } from '@fleet/api-contract';
import type { DbOrTx } from '../../../db/client.ts';
import { drivers, hosEvents, organizations, positions } from '../../../db/schema/index.ts';
import { emitDutyChanges } from '../hos-webhooks.ts';
import { periodStartOf } from '../hos.repository.ts';
import { rowsOf } from '../../../db/sql/rows.ts';
import { logDateOf, nextDate } from '../hos.time.ts';
import { stateAfterEvent, type DerivedEvent, type DutyFix, type DutyState } from './derive.ts';
import { notifyHosChange } from '../../../db/sql/notify.ts';

/** Class of the advisory locks (first key), one lock per vehicle (second key): hashtext of its id. */
export const AUTO_DUTY_LOCK_CLASS = 724_311_095;

const DERIVED = [HOS_EVENT_TYPES.DUTY_STATUS, HOS_EVENT_TYPES.INTERMEDIATE_LOG];
/** How far back the newest derived event is looked for (and so how far a restart catches up). */
export const CATCH_UP_DAYS = 8;

export interface Watermark {
  id: string;
  time: number;
}

export interface DerivedRow {
  id: string;
  vehicleId: string;
  driverId: string | null;
  eventType: number;
  eventCode: number;
  eventTime: Date;
  lat: number | null;
  lon: number | null;
  odometerM: number | null;
}

/**
 * Each listed vehicle's newest automatically recorded event of the last CATCH_UP_DAYS log days
 * (any record status: an edited one was still derived), in one query. Ties on time are broken by
 * id, the same order `newestOf` uses for rows just written. The organization's log-day index
 * bounds the scan (hos_events has no vehicle index).
 */
export async function lastDerivedEvents(tx: DbOrTx, orgId: string, vehicleIds: readonly string[]): Promise<Map<string, DerivedRow>> {
  const out = new Map<string, DerivedRow>();
  if (vehicleIds.length === 0) return out;
  const since = new Date(Date.now() - (CATCH_UP_DAYS + 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await tx
    .selectDistinctOn([hosEvents.vehicleId], {
      id: hosEvents.id,
      vehicleId: sql<string>`${hosEvents.vehicleId}`,
      driverId: hosEvents.driverId,
      eventType: hosEvents.eventType,
      eventCode: hosEvents.eventCode,
      eventTime: hosEvents.eventTime,
      lat: hosEvents.latitude,
      lon: hosEvents.longitude,
      odometerM: hosEvents.odometerM,
    })
    .from(hosEvents)
    .where(
      and(
        eq(hosEvents.organizationId, orgId),
        gte(hosEvents.logDate, since),
        inArray(hosEvents.vehicleId, [...vehicleIds]),
        eq(hosEvents.recordOrigin, HOS_RECORD_ORIGINS.AUTOMATIC),
        inArray(hosEvents.eventType, DERIVED),
      ),
    )
    .orderBy(asc(hosEvents.vehicleId), desc(hosEvents.eventTime), desc(hosEvents.id));
  for (const r of rows) out.set(r.vehicleId, r);
  return out;
}

/** The newest of rows just written, in `lastDerivedEvents`' order (time, then id). */
export function newestOf(rows: ReadonlyArray<{ id: string; time: number }>): Watermark | null {
  let best: Watermark | null = null;
  for (const r of rows) if (!best || r.time > best.time || (r.time === best.time && r.id > best.id)) best = { id: r.id, time: r.time };
  return best;
}

/** The derivation's state after the vehicle's newest derived event, and that event as the watermark. */
export function stateOf(e: DerivedRow): { state: DutyState; watermark: Watermark } {
  const time = e.eventTime.getTime();
  return { state: stateAfterEvent(e.vehicleId, { ...e, time }), watermark: { id: e.id, time } };
}

/** Takes the derivation locks of several vehicles, always in the same order (no deadlock between instances). */
export async function lockVehicles(tx: DbOrTx, vehicleIds: readonly string[]): Promise<void> {
  if (vehicleIds.length === 0) return;
  await tx.execute(
    sql`select count(pg_advisory_xact_lock(${AUTO_DUTY_LOCK_CLASS}::int, k)) from (select distinct hashtext(v) as k from unnest(${`{${vehicleIds.join(',')}}`}::text[]) v order by 1) x`,
  );
}

/** The vehicle's stored fixes after `fromMs` up to `toMs`, in time order (at most `limit`). */
export async function fixesOf(tx: DbOrTx, orgId: string, vehicleId: string, fromMs: number, toMs: number, limit = 100_000): Promise<DutyFix[]> {
  const rows = await tx
    .select({
      t: positions.fixTime,
      // The GNSS speed, else the engine's (decision 0155).
      speed: sql<
        number | null
      >`coalesce(${positions.speed}::float8, case when jsonb_typeof(${positions.attributes}->'vehicleSpeed') = 'number' then (${positions.attributes}->>'vehicleSpeed')::float8 end)`,
      lat: positions.latitude,
      lon: positions.longitude,
      odo: positions.odometer,
      hours: positions.engineHours,
      ignition: positions.ignition,
      driverId: positions.driverId,
    })
    .from(positions)
    // The organization named: on Citus its shard alone (issue 49).
    .where(
      and(
        eq(positions.organizationId, orgId),
        eq(positions.assetId, vehicleId),
        gt(positions.fixTime, new Date(fromMs)),
        lte(positions.fixTime, new Date(toMs)),
      ),
    )
    .orderBy(asc(positions.fixTime))
    .limit(limit);
  return rows.map((r) => ({
    time: r.t.getTime(),
    speedKmh: r.speed === null ? null : Number(r.speed),
    lat: r.lat,
    lon: r.lon,
    odometerM: r.odo,
    engineHours: r.hours,
    ignition: r.ignition,
    driverId: r.driverId,
  }));
}

/** A vehicle's stretch of stored fixes to read: after `fromMs`, up to `toMs`. */
export interface FixSpan {
  vehicleId: string;
  fromMs: number;
  toMs: number;
}

/**
 * Several vehicles' stored fixes (each as `fixesOf` reads one: after its `fromMs` up to its `toMs`, in
 * time order, at most `limit`) in one statement: a round's vehicles new to this instance are derived
 * together (issue 49: on Citus every statement costs the coordinator and the worker a plan and a round
 * trip). The organization is named in the lateral, so Citus routes the whole to its shard.
 */
export async function fixesOfMany(tx: DbOrTx, orgId: string, spans: readonly FixSpan[], limit = 100_000): Promise<Map<string, DutyFix[]>> {
  const out = new Map<string, DutyFix[]>(spans.map((s) => [s.vehicleId, []]));
  if (spans.length === 0) return out;
  const keys = JSON.stringify(spans.map((s) => ({ a: s.vehicleId, f: new Date(s.fromMs).toISOString(), t: new Date(s.toMs).toISOString() })));
  const rows = rowsOf<{
    v: string;
    t: number | string;
    speed: number | string | null;
    lat: number;
    lon: number;
    odo: number | null;
    hours: number | null;
    ignition: boolean | null;
    driver_id: string | null;
  }>(
    await tx.execute(sql`select k.a as v, l.* from json_to_recordset(${keys}::json) as k(a uuid, f timestamptz, t timestamptz)
      cross join lateral (
        select (extract(epoch from p.fix_time) * 1000)::float8 as t,
          coalesce(p.speed::float8, case when jsonb_typeof(p.attributes->'vehicleSpeed') = 'number' then (p.attributes->>'vehicleSpeed')::float8 end) as speed,
          p.latitude as lat, p.longitude as lon, p.odometer as odo, p.engine_hours as hours, p.ignition, p.driver_id
        from positions p where p.organization_id = ${orgId} and p.asset_id = k.a and p.fix_time > k.f and p.fix_time <= k.t
        order by p.fix_time limit ${limit}) l
      order by k.a, l.t`),
  );
  for (const r of rows) {
    out.get(r.v)?.push({
      time: Math.round(Number(r.t)),
      speedKmh: r.speed === null ? null : Number(r.speed),
      lat: Number(r.lat),
      lon: Number(r.lon),
      odometerM: r.odo === null ? null : Number(r.odo),
      engineHours: r.hours === null ? null : Number(r.hours),
      ignition: r.ignition,
      driverId: r.driver_id,
    });
  }
  return out;
}

type NewEvent = typeof hosEvents.$inferInsert;

/**
 * Drops derived events the drivers' own choices make void (decision 0112): motion while the driver
 * is in personal conveyance (OFF + PC) or yard moves (ON + YM) is not Driving (4.4.1: the ELD sets D
 * unless the driver chose PC or YM before moving), so its D and intermediate logs are not recorded;
 * and the ON that ends automatic driving after 5 stopped minutes is not recorded once the driver has
 * answered the stop with a status of their own. Reads each driver's last active duty status and
 * special category at the first event's time, then follows the events in time order. The
 * organization is named so that Citus routes the statement, lateral and all, to its one shard (it
 * refuses a LIMIT in a lateral over an unnest it would have to push down to every shard).
 */
export async function withoutOverridden(tx: DbOrTx, orgId: string, events: readonly DerivedEvent[]): Promise<DerivedEvent[]> {
  const driverIds = [...new Set(events.map((e) => e.driverId).filter((d): d is string => d !== null))];
  if (driverIds.length === 0) return [...events];
  const rows = rowsOf<{ driver_id: string; event_type: number; event_code: number; record_origin: number; t: Date | string }>(
    await tx.execute(sql`
      select l.* from unnest(${`{${driverIds.join(',')}}`}::uuid[]) as d(id) cross join (values (1::int2), (3::int2)) as k(type)
      cross join lateral (
        select e.driver_id, e.event_type, e.event_code, e.record_origin, e.event_time as t from hos_events e
        where e.organization_id = ${orgId} and e.driver_id = d.id and e.event_type = k.type and e.record_status = ${HOS_RECORD_STATUSES.ACTIVE}
        order by e.event_time desc, e.sequence_id desc limit 1) l`),
  );
  const state = new Map<string, { code: number; origin: number; at: number; special: number }>();
  for (const id of driverIds) state.set(id, { code: 0, origin: 0, at: 0, special: 0 });
  for (const r of rows) {
    const s = state.get(r.driver_id)!;
    if (Number(r.event_type) === HOS_EVENT_TYPES.DUTY_STATUS)
      Object.assign(s, { code: Number(r.event_code), origin: Number(r.record_origin), at: new Date(r.t).getTime() });
    else s.special = Number(r.event_code);
  }
  const out: DerivedEvent[] = [];
  for (const e of [...events].sort((a, b) => a.time - b.time)) {
    const s = e.driverId ? state.get(e.driverId) : undefined;
    if (!s) {
      out.push(e);
      continue;
    }
    // A record of the driver's own after this derived one was computed keeps its place: nothing to check then.
    const special = (s.code === 1 && s.special === 1) || (s.code === 4 && s.special === 2);
    if (e.eventType === HOS_EVENT_TYPES.DUTY_STATUS && e.eventCode === 3 && special) continue;
    if (e.eventType === HOS_EVENT_TYPES.INTERMEDIATE_LOG && special) continue;
    if (e.eventType === HOS_EVENT_TYPES.DUTY_STATUS && e.eventCode === 4 && !(s.code === 3 && s.origin === HOS_RECORD_ORIGINS.AUTOMATIC)) continue;
    if (e.eventType === HOS_EVENT_TYPES.DUTY_STATUS) Object.assign(s, { code: e.eventCode, origin: HOS_RECORD_ORIGINS.AUTOMATIC, at: e.time });
    out.push(e);
  }
  return out;
}

/** Extra columns a caller sets on some events (the demo seed: the driver's own OFF/SB records). */
export interface EventToWrite extends DerivedEvent {
  origin?: number;
  annotation?: string | null;
  /** Stored without coordinates (certifications). */
  noLocation?: boolean;
  /** The log day when it is not the day of `time`: a certification's is the day it certifies (decision 0112). */
  logDate?: string;
}

/**
 * Inserts events of several vehicles of one organization with their drivers' next sequence ids
 * and log days, creating the log rows of every day from each driver's previous event to the last
 * new one; a fixed number of statements whatever the count. Callers hold the vehicles' locks;
 * this takes the drivers' row locks (in id order) for their sequence ids. Returns the rows
 * written (id, vehicle, time, origin).
 */
export async function insertEvents(
  tx: DbOrTx,
  orgId: string,
  events: readonly EventToWrite[],
): Promise<Array<{ id: string; vehicleId: string; time: number; origin: number }>> {
  if (events.length === 0) return [];
  const periodStart = await periodStartOf(tx, orgId);
  const byDriver = new Map<string | null, EventToWrite[]>();
  for (const e of events) {
    const list = byDriver.get(e.driverId);
    if (list) list.push(e);
    else byDriver.set(e.driverId, [e]);
  }
  const driverIds = [...byDriver.keys()].filter((d): d is string => d !== null).sort();
  const zones = new Map<string | null, string>();
  const seqs = new Map<string, number>();
  const prevs = new Map<string, number>();
  if (driverIds.length) {
    // NO KEY UPDATE: it serializes the drivers' record writers as FOR UPDATE did, but not the key
    // checks of rows that refer to the drivers (the group commit's positions, safety events). Under
    // FOR UPDATE, a group commit holding one driver's key lock and waiting for another's closed a
    // cycle with this statement: "distributed deadlock" on Citus, and ingest waited on HoS rounds.
    const rows = await tx
      .select({ id: drivers.id, zone: drivers.homeTimeZone })
      .from(drivers)
      .where(and(inArray(drivers.id, driverIds), eq(drivers.organizationId, orgId)))
      .orderBy(asc(drivers.id))
      .for('no key update');
    for (const r of rows) zones.set(r.id, r.zone);
    // Each driver's highest sequence id and last active event, one index probe each (however long
    // the driver's history), in one statement.
    const heads = rowsOf<{ d: string; n: number | null; t: number | string | null }>(
      await tx.execute(sql`
        select d.id as d,
          (select e.sequence_id from hos_events e where e.organization_id = ${orgId} and e.driver_id = d.id order by e.sequence_id desc limit 1) as n,
          (select extract(epoch from e.event_time) * 1000 from hos_events e where e.organization_id = ${orgId} and e.driver_id = d.id and e.record_status = ${HOS_RECORD_STATUSES.ACTIVE} order by e.event_time desc limit 1)::float8 as t
        from unnest(${arr(driverIds, (id) => id)}::uuid[]) as d(id)`),
    );
    for (const r of heads) {
      seqs.set(r.d, Number(r.n ?? 0));
      if (r.t !== null) prevs.set(r.d, Math.round(Number(r.t)));
    }
  }
  const nullSeqs = new Map<string, number>();
  if (byDriver.has(null)) {
    const [org] = await tx.select({ zone: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
    zones.set(null, org?.zone ?? 'America/Chicago');
    const vehicles = [...new Set(byDriver.get(null)!.map((e) => e.vehicleId))];
    const rows = await tx
      .select({ v: hosEvents.vehicleId, n: max(hosEvents.sequenceId) })
      .from(hosEvents)
      .where(and(eq(hosEvents.organizationId, orgId), isNull(hosEvents.driverId), inArray(hosEvents.vehicleId, vehicles)))
      .groupBy(hosEvents.vehicleId);
    for (const r of rows) if (r.v) nullSeqs.set(r.v, Number(r.n ?? 0));
  }
  const rows: NewEvent[] = [];
  const days: Array<{ driverId: string; logDate: string }> = [];
  for (const [driverId, list] of byDriver) {
    const zone = zones.get(driverId);
    // A driver of another organization (re-paired meanwhile) or deleted: nothing to record for them.
    if (zone === undefined) continue;
    const dayOf = (ms: number) => logDateOf(ms, zone, periodStart);
    if (driverId !== null) {
      const firstMs = list[0]!.time;
      const first = dayOf(Math.min(prevs.get(driverId) ?? firstMs, firstMs));
      const last = dayOf(list[list.length - 1]!.time);
      for (let d = first; d <= last; d = nextDate(d)) days.push({ driverId, logDate: d });
    }
    for (const e of list) {
      let sequenceId: number;
      if (driverId === null) nullSeqs.set(e.vehicleId, (sequenceId = (nullSeqs.get(e.vehicleId) ?? 0) + 1));
      else seqs.set(driverId, (sequenceId = (seqs.get(driverId) ?? 0) + 1));
      rows.push({
        organizationId: orgId,
        driverId,
        vehicleId: e.vehicleId,
        sequenceId,
        eventType: e.eventType,
        eventCode: e.eventCode,
        recordStatus: HOS_RECORD_STATUSES.ACTIVE,
        recordOrigin: e.origin ?? HOS_RECORD_ORIGINS.AUTOMATIC,
        eventTime: new Date(e.time),
        logDate: e.logDate ?? dayOf(e.time),
        latitude: e.noLocation ? null : e.lat,
        longitude: e.noLocation ? null : e.lon,
        locationDescription: e.location,
        odometerM: e.odometerM,
        engineHours: e.engineHours ?? null,
        annotation: e.annotation ?? null,
      });
    }
  }
  const written: Array<{ id: string; vehicleId: string; time: number; origin: number }> = [];
  for (let i = 0; i < rows.length; i += 2000) written.push(...(await insertRows(tx, orgId, rows.slice(i, i + 2000))));
  // Their webhooks (issue 48): the returned ids follow the rows' order.
  if (written.length === rows.length) {
    await emitDutyChanges(
      tx,
      orgId,
      rows.flatMap((r, i) =>
        r.driverId && r.eventType === HOS_EVENT_TYPES.DUTY_STATUS
          ? [{ eventId: written[i]!.id, driverId: r.driverId, code: r.eventCode, at: r.eventTime!, origin: r.recordOrigin, assetId: r.vehicleId ?? null }]
          : [],
      ),
    );
  }
  await insertLogDays(tx, orgId, days);
  // A driver's records changed (the triggers' NOTIFY does not reach the API on Citus).
  if (rows.some((r) => r.driverId)) await notifyHosChange(tx, orgId);
  return written;
}

// Array literals for unnest (the ingest statement's technique, decision 0055): one parameter a
// column instead of one a value. Drizzle's multi-row VALUES cost about 0.4 ms a row on PGlite.
const nul = (v: string | number | null | undefined) => (v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v)) ? 'NULL' : String(v));
const quoted = (v: string | null | undefined) => (v === null || v === undefined ? 'NULL' : `"${v.replace(/[\\"]/g, '\\$&')}"`);
const arr = <T>(rows: readonly T[], f: (r: T) => string) => `{${rows.map(f).join(',')}}`;

/** Inserts event rows in one statement; returns their ids, vehicles, times (ms) and origins. */
async function insertRows(
  tx: DbOrTx,
  orgId: string,
  rows: readonly NewEvent[],
): Promise<Array<{ id: string; vehicleId: string; time: number; origin: number }>> {
  if (rows.length === 0) return [];
  const res = rowsOf<{ id: string; vehicle_id: string; t: number | string; record_origin: number }>(
    await tx.execute(sql`
      insert into hos_events (organization_id, driver_id, vehicle_id, sequence_id, event_type, event_code, record_status, record_origin, event_time, log_date,
                              latitude, longitude, location_description, odometer_m, engine_hours, annotation)
      select ${orgId}::uuid, u.driver_id, u.vehicle_id, u.seq, u.type, u.code, ${HOS_RECORD_STATUSES.ACTIVE}, u.origin, to_timestamp(u.t / 1000), u.day,
             u.lat, u.lon, u.loc, u.odo, u.hours, u.ann
      from unnest(${arr(rows, (r) => nul(r.driverId))}::uuid[], ${arr(rows, (r) => nul(r.vehicleId))}::uuid[], ${arr(rows, (r) => nul(r.sequenceId))}::int[],
                  ${arr(rows, (r) => nul(r.eventType))}::int2[], ${arr(rows, (r) => nul(r.eventCode))}::int2[], ${arr(rows, (r) => nul(r.recordOrigin))}::int2[],
                  ${arr(rows, (r) => nul(r.eventTime!.getTime()))}::float8[], ${arr(rows, (r) => nul(r.logDate))}::date[], ${arr(rows, (r) => nul(r.latitude))}::float8[],
                  ${arr(rows, (r) => nul(r.longitude))}::float8[], ${arr(rows, (r) => quoted(r.locationDescription))}::text[], ${arr(rows, (r) => nul(r.odometerM))}::float8[],
                  ${arr(rows, (r) => nul(r.engineHours))}::float8[], ${arr(rows, (r) => quoted(r.annotation))}::text[])
        as u(driver_id, vehicle_id, seq, type, code, origin, t, day, lat, lon, loc, odo, hours, ann)
      returning id, vehicle_id, round(extract(epoch from event_time) * 1000)::float8 as t, record_origin`),
  );
  return res.map((r) => ({ id: r.id, vehicleId: r.vehicle_id, time: Number(r.t), origin: Number(r.record_origin) }));
}

/** Creates the missing log rows of these driver days in one statement (what ensureLogDays does, without reading the ids back). */
async function insertLogDays(tx: DbOrTx, orgId: string, days: ReadonlyArray<{ driverId: string; logDate: string }>): Promise<void> {
  if (days.length === 0) return;
  await tx.execute(sql`
    insert into hos_logs (organization_id, driver_id, log_date)
    select distinct ${orgId}::uuid, u.d, u.day from unnest(${arr(days, (d) => d.driverId)}::uuid[], ${arr(days, (d) => d.logDate)}::date[]) as u(d, day)
    on conflict do nothing`);
}
