import { and, eq, inArray } from 'drizzle-orm';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS } from '@fleet/api-contract';
import { describeLocation } from '@fleet/geo/places';
import type { Db } from '../../db/client.ts';
import { assets, drivers, hosEvents, hosLogs } from '../../db/schema/index.ts';
import { fixesOf, insertEvents, lockVehicles, type EventToWrite } from '../../modules/hos/auto-duty/auto-duty.repository.ts';
import { deriveDutyEvents, DUTY_CODES, initialDutyState, type DerivedEvent } from '../../modules/hos/auto-duty/derive.ts';
import { periodStartOf } from '../../modules/hos/hos.repository.ts';
import { dayStartMs, logDateOf, nextDate } from '../../modules/hos/hos.time.ts';
import type { DemoTruck } from './demo-fleet.ts';

// The demo fleet's HoS logs for the backfilled week (decision 0095): the automatic records derived
// from the simulator's positions by the same deriveDutyEvents as live ingest, plus what drivers
// record themselves (OFF or sleeper berth after a shift, certifications), a few deliberate
// breaches of the limits, and the form-and-manner facts of the log rows.

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Truck plans whose drivers break a rule on purpose (index of demo-truck-NN). */
export const DEMO_SHORT_REST_TRUCK = 3;
export const DEMO_LONG_WINDOW_TRUCK = 5;

const CALLED_IN = 'Called in: trailer swap at the yard';
const LOADING = 'Loading at the shipper';

const driverEvent = (e: DerivedEvent, code: number, time: number, annotation: string | null = null): EventToWrite => ({
  ...e,
  eventType: HOS_EVENT_TYPES.DUTY_STATUS,
  eventCode: code,
  time,
  location: describeLocation(e.lat, e.lon).text,
  origin: HOS_RECORD_ORIGINS.DRIVER,
  annotation,
});

/**
 * The driver's own records around the derived ones: OFF from the first fix, and after each
 * automatic ON followed by an hour or more without driving, OFF 15 minutes later (post-trip
 * inspection), or sleeper berth when the stop lasts 8 hours or more (the 10-hour rests).
 */
export function driverRecords(derived: readonly DerivedEvent[], firstFix: DerivedEvent, untilMs: number): EventToWrite[] {
  const out: EventToWrite[] = [driverEvent(firstFix, DUTY_CODES.OFF, firstFix.time)];
  for (let i = 0; i < derived.length; i++) {
    const e = derived[i]!;
    if (e.eventType !== HOS_EVENT_TYPES.DUTY_STATUS || e.eventCode !== DUTY_CODES.ON) continue;
    const nextD = derived.slice(i + 1).find((x) => x.eventType === HOS_EVENT_TYPES.DUTY_STATUS && x.eventCode === DUTY_CODES.D);
    const stopMs = (nextD?.time ?? untilMs) - e.time;
    if (stopMs < HOUR) continue;
    const code = stopMs >= 8 * HOUR ? DUTY_CODES.SB : DUTY_CODES.OFF;
    out.push(driverEvent(e, code, e.time + 15 * MIN));
    // Back on duty for the pre-trip inspection 15 minutes before driving again.
    if (nextD) out.push(driverEvent(nextD, DUTY_CODES.ON, nextD.time - 15 * MIN, 'Pre-trip inspection'));
  }
  return out;
}

/** A truck moved by someone not logged in (the shop's test drive) during a rest of its driver: unidentified driving to review (decision 0113). */
export const DEMO_UNIDENTIFIED_TRUCK = 25;

/**
 * 40 minutes of unidentified driving two hours into the driver's second-to-last 10-hour rest, as
 * automatic duty status records it for a vehicle with nobody assigned: Driving, then On duty five
 * minutes into the stop, no driver.
 */
function unidentifiedDrive(events: readonly EventToWrite[], vehicleId: string): EventToWrite[] {
  const rests = events.filter((e) => e.origin === HOS_RECORD_ORIGINS.DRIVER && e.eventType === HOS_EVENT_TYPES.DUTY_STATUS && e.eventCode === DUTY_CODES.SB);
  const rest = rests[rests.length - 2];
  if (!rest) return [];
  const at = (e: EventToWrite, ms: number, code: number): EventToWrite => ({
    ...e,
    driverId: null,
    vehicleId,
    eventType: HOS_EVENT_TYPES.DUTY_STATUS,
    eventCode: code,
    time: ms,
    origin: HOS_RECORD_ORIGINS.AUTOMATIC,
    annotation: null,
  });
  // Out to a road test and back near the yard: about 25 km on the odometer, ending a few miles off.
  const back = { ...rest, lat: rest.lat + 0.06, lon: rest.lon + 0.05 };
  return [
    at(rest, rest.time + 2 * HOUR, DUTY_CODES.D),
    {
      ...at(back, rest.time + 2 * HOUR + 40 * MIN, DUTY_CODES.ON),
      location: describeLocation(back.lat, back.lon).text,
      odometerM: rest.odometerM === null ? null : rest.odometerM + 25_000,
    },
  ];
}

/** Adds the deliberate breaches: a rest cut short by yard work, a pre-trip that stretches the window. */
function breaches(truck: number, events: EventToWrite[]): EventToWrite[] {
  const rests = events.filter((e) => e.origin === HOS_RECORD_ORIGINS.DRIVER && e.eventCode === DUTY_CODES.SB);
  // The second-to-last rest of the week (an earlier day, certified or not, shows the violation).
  const rest = rests[rests.length - 2];
  if (!rest) return events;
  if (truck === DEMO_SHORT_REST_TRUCK) {
    // Called back 4 hours into the rest for two hours of yard work: the next shift starts short of 10 hours off.
    events.push(driverEvent(rest, DUTY_CODES.ON, rest.time + 4 * HOUR, CALLED_IN));
    events.push(driverEvent(rest, DUTY_CODES.SB, rest.time + 6 * HOUR));
  }
  if (truck === DEMO_LONG_WINDOW_TRUCK) {
    // Loading started 5 hours before the pre-trip: the 14-hour window runs out before the driving ends.
    const preTrip = events.find((e) => e.origin === HOS_RECORD_ORIGINS.DRIVER && e.eventCode === DUTY_CODES.ON && e.time > rest.time);
    if (preTrip) events.push(driverEvent(preTrip, DUTY_CODES.ON, preTrip.time - 5 * HOUR, LOADING));
  }
  return events;
}

/**
 * Writes the demo drivers' records from `fromMs` to `untilMs` once (nothing for a driver who has
 * records already), reporting the fraction of drivers done. Returns the events written.
 */
export async function seedDemoHos(
  db: Db,
  orgId: string,
  trucks: readonly DemoTruck[],
  fromMs: number,
  untilMs: number,
  onProgress: (fraction: number) => void = () => undefined,
): Promise<number> {
  const withDriver = trucks.filter((t): t is DemoTruck & { assetId: string; driverId: string } => t.assetId !== null && t.driverId !== null);
  if (withDriver.length === 0) return 0;
  // A driver at a time, each in one transaction: a start after a kill goes on with the drivers that have no records yet.
  const done = new Set(
    (
      await db
        .selectDistinct({ d: hosEvents.driverId })
        .from(hosEvents)
        .where(
          inArray(
            hosEvents.driverId,
            withDriver.map((t) => t.driverId),
          ),
        )
    ).map((r) => r.d),
  );
  const periodStart = await periodStartOf(db, orgId);
  const trailerIds = (
    await db
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.organizationId, orgId), eq(assets.type, 'TRAILER')))
  ).map((r) => r.id);
  let written = 0;
  for (const [i, truck] of withDriver.entries()) {
    onProgress(i / withDriver.length);
    if (done.has(truck.driverId)) continue;
    const fixes = await fixesOf(db, orgId, truck.assetId, fromMs, untilMs);
    if (fixes.length === 0) continue;
    const derived = deriveDutyEvents(initialDutyState(truck.assetId), fixes).events;
    const first = fixes[0]!;
    const firstFix: DerivedEvent = {
      driverId: truck.driverId,
      vehicleId: truck.assetId,
      eventType: 1,
      eventCode: DUTY_CODES.OFF,
      time: first.time,
      lat: first.lat,
      lon: first.lon,
      odometerM: first.odometerM,
      location: null,
    };
    const events = breaches(truck.index, [...derived, ...driverRecords(derived, firstFix, untilMs)]).sort((a, b) => a.time - b.time);
    const [driver] = await db.select({ zone: drivers.homeTimeZone }).from(drivers).where(eq(drivers.id, truck.driverId));
    const zone = driver?.zone ?? 'America/Chicago';
    const dayOf = (ms: number) => logDateOf(ms, zone, periodStart);
    const today = dayOf(untilMs);
    const driven = new Set(events.filter((e) => e.eventType === HOS_EVENT_TYPES.DUTY_STATUS && e.eventCode === DUTY_CODES.D).map((e) => dayOf(e.time)));
    const breachDays = new Set(events.filter((e) => e.annotation === CALLED_IN || e.annotation === LOADING).map((e) => dayOf(e.time)));
    const days: string[] = [];
    for (let d = dayOf(first.time); d <= today; d = nextDate(d)) days.push(d);
    const yesterday = days[days.length - 2];
    const certified = days.filter((d) => d < today && !breachDays.has(d) && !(truck.index % 4 === 0 && d === yesterday));
    const at = new Map(certified.map((d) => [d, dayStartMs(nextDate(d), zone, periodStart) + 20 * MIN]));
    for (const d of certified) {
      // Made 20 minutes into the next day; a certification carries no location (4.5.1.4).
      // Its log day is the day it certifies (the ELD file's "date of the certified record").
      events.push({
        ...firstFix,
        eventType: HOS_EVENT_TYPES.CERTIFICATION,
        eventCode: 1,
        time: Math.min(at.get(d)!, untilMs - MIN),
        location: null,
        noLocation: true,
        odometerM: null,
        origin: HOS_RECORD_ORIGINS.DRIVER,
        annotation: null,
        logDate: d,
      });
    }
    events.sort((a, b) => a.time - b.time);
    written += await db.transaction(async (tx) => {
      await lockVehicles(tx, [truck.assetId]);
      const rows = await insertEvents(tx, orgId, [...events, ...(truck.index === DEMO_UNIDENTIFIED_TRUCK ? unidentifiedDrive(events, truck.assetId) : [])]);
      const logs = await tx.select({ id: hosLogs.id, date: hosLogs.logDate }).from(hosLogs).where(eq(hosLogs.driverId, truck.driverId));
      for (const log of logs) {
        const n = Number(log.date.slice(8, 10));
        const docs =
          driven.has(log.date) && (n + truck.index) % 6 !== 0 ? [`BOL-${String(truck.index).padStart(2, '0')}${log.date.replace(/-/g, '').slice(2)}`] : [];
        const trailer = driven.has(log.date) && trailerIds.length && (n + truck.index) % 7 !== 0 ? [trailerIds[(truck.index + n) % trailerIds.length]!] : [];
        const when = at.get(log.date);
        await tx
          .update(hosLogs)
          .set({
            shippingDocuments: docs,
            trailerIds: trailer,
            ...(when ? { certifiedAt: new Date(Math.min(when, untilMs - MIN)), certificationCount: 1 } : {}),
          })
          .where(eq(hosLogs.id, log.id));
      }
      return rows.length;
    });
  }
  return written;
}
