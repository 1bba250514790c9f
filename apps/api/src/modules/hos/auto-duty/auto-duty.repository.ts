import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, max, sql } from 'drizzle-orm';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS, HOS_RECORD_STATUSES } from '@fleet/api-contract';
import type { DbOrTx } from '../../../db/client.ts';
import { drivers, hosEvents, organizations, positions } from '../../../db/schema/index.ts';
import { ensureLogDays, nextSequenceId, periodStartOf } from '../hos.repository.ts';
import { logDateOf, nextDate } from '../hos.time.ts';
import { stateAfterEvent, type DerivedEvent, type DutyFix, type DutyState } from './derive.ts';

/** Class of the advisory locks (first key), one lock per vehicle (second key): hashtext of its id. */
export const AUTO_DUTY_LOCK_CLASS = 724_311_095;

/**
 * Takes the vehicle's derivation lock until the transaction ends: every instance writing a
 * vehicle's automatic records takes it first, so one vehicle is derived in one place at a time.
 */
export async function lockVehicle(tx: DbOrTx, vehicleId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUTO_DUTY_LOCK_CLASS}::int, hashtext(${vehicleId}))`);
}

const DERIVED = [HOS_EVENT_TYPES.DUTY_STATUS, HOS_EVENT_TYPES.INTERMEDIATE_LOG];

export interface Watermark {
  id: string;
  time: number;
}

/** The vehicle's newest automatically recorded event (any record status: an edited one was still derived). */
export async function lastDerivedEvent(tx: DbOrTx, vehicleId: string) {
  const [e] = await tx
    .select({
      id: hosEvents.id,
      driverId: hosEvents.driverId,
      eventType: hosEvents.eventType,
      eventCode: hosEvents.eventCode,
      eventTime: hosEvents.eventTime,
      lat: hosEvents.latitude,
      lon: hosEvents.longitude,
      odometerM: hosEvents.odometerM,
    })
    .from(hosEvents)
    .where(and(eq(hosEvents.vehicleId, vehicleId), eq(hosEvents.recordOrigin, HOS_RECORD_ORIGINS.AUTOMATIC), inArray(hosEvents.eventType, DERIVED)))
    .orderBy(desc(hosEvents.eventTime), desc(hosEvents.sequenceId))
    .limit(1);
  return e ?? null;
}

/** The derivation's state after the vehicle's newest derived event, and that event as the watermark. */
export async function storedState(tx: DbOrTx, vehicleId: string): Promise<{ state: DutyState; watermark: Watermark } | null> {
  const e = await lastDerivedEvent(tx, vehicleId);
  if (!e) return null;
  const time = e.eventTime.getTime();
  return { state: stateAfterEvent(vehicleId, { ...e, time }), watermark: { id: e.id, time } };
}

/** The vehicle's stored fixes after `fromMs` up to `toMs`, in time order (at most `limit`). */
export async function fixesOf(tx: DbOrTx, vehicleId: string, fromMs: number, toMs: number, limit = 100_000): Promise<DutyFix[]> {
  const rows = await tx
    .select({ t: positions.fixTime, speed: positions.speed, lat: positions.latitude, lon: positions.longitude, odo: positions.odometer, driverId: positions.driverId })
    .from(positions)
    .where(and(eq(positions.assetId, vehicleId), gt(positions.fixTime, new Date(fromMs)), lte(positions.fixTime, new Date(toMs))))
    .orderBy(asc(positions.fixTime))
    .limit(limit);
  return rows.map((r) => ({ time: r.t.getTime(), speedKmh: r.speed, lat: r.lat, lon: r.lon, odometerM: r.odo, driverId: r.driverId }));
}

type NewEvent = typeof hosEvents.$inferInsert;

/** Extra columns a caller sets on some events (the demo seed: the driver's own OFF/SB records). */
export interface EventToWrite extends DerivedEvent {
  origin?: number;
  annotation?: string | null;
}

/**
 * Inserts events of one vehicle with their drivers' next sequence ids and log days, creating the
 * log rows of every day from each driver's previous event to the last new one. Callers hold the
 * vehicle lock; this takes the drivers' row locks (in id order) for their sequence ids.
 */
export async function insertEvents(tx: DbOrTx, orgId: string, events: readonly EventToWrite[]): Promise<number> {
  if (events.length === 0) return 0;
  const periodStart = await periodStartOf(tx, orgId);
  const byDriver = new Map<string | null, EventToWrite[]>();
  for (const e of events) {
    const list = byDriver.get(e.driverId);
    if (list) list.push(e);
    else byDriver.set(e.driverId, [e]);
  }
  const driverIds = [...byDriver.keys()].filter((d): d is string => d !== null).sort();
  const zones = new Map<string | null, string>();
  if (driverIds.length) {
    const rows = await tx
      .select({ id: drivers.id, zone: drivers.homeTimeZone })
      .from(drivers)
      .where(and(inArray(drivers.id, driverIds), eq(drivers.organizationId, orgId)))
      .orderBy(asc(drivers.id))
      .for('update');
    for (const r of rows) zones.set(r.id, r.zone);
  }
  if (byDriver.has(null)) {
    const [org] = await tx.select({ zone: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
    zones.set(null, org?.zone ?? 'America/Chicago');
  }
  const rows: NewEvent[] = [];
  const days: Array<{ driverId: string; logDate: string }> = [];
  for (const [driverId, list] of byDriver) {
    const zone = zones.get(driverId);
    // A driver of another organization (re-paired meanwhile) or deleted: nothing to record for them.
    if (zone === undefined) continue;
    const dayOf = (ms: number) => logDateOf(ms, zone, periodStart);
    let seq: number;
    if (driverId === null) {
      const [r] = await tx
        .select({ n: max(hosEvents.sequenceId) })
        .from(hosEvents)
        .where(and(isNull(hosEvents.driverId), eq(hosEvents.vehicleId, list[0]!.vehicleId)));
      seq = Number(r?.n ?? 0) + 1;
    } else {
      seq = await nextSequenceId(tx, driverId);
      const [prev] = await tx
        .select({ t: hosEvents.eventTime })
        .from(hosEvents)
        .where(and(eq(hosEvents.driverId, driverId), eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE), lt(hosEvents.eventTime, new Date(list[0]!.time))))
        .orderBy(desc(hosEvents.eventTime))
        .limit(1);
      const first = dayOf(prev ? prev.t.getTime() : list[0]!.time);
      const last = dayOf(list[list.length - 1]!.time);
      for (let d = first; d <= last; d = nextDate(d)) days.push({ driverId, logDate: d });
    }
    for (const e of list) {
      rows.push({
        organizationId: orgId,
        driverId,
        vehicleId: e.vehicleId,
        sequenceId: seq++,
        eventType: e.eventType,
        eventCode: e.eventCode,
        recordStatus: HOS_RECORD_STATUSES.ACTIVE,
        recordOrigin: e.origin ?? HOS_RECORD_ORIGINS.AUTOMATIC,
        eventTime: new Date(e.time),
        logDate: dayOf(e.time),
        latitude: e.lat,
        longitude: e.lon,
        locationDescription: e.location,
        odometerM: e.odometerM,
        annotation: e.annotation ?? null,
      });
    }
  }
  for (let i = 0; i < rows.length; i += 1000) await tx.insert(hosEvents).values(rows.slice(i, i + 1000));
  await ensureLogDays(tx, orgId, days);
  return rows.length;
}
