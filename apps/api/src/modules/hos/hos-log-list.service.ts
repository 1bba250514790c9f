import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { dailyTotals } from '@fleet/hos';
import { HOS_EVENT_TYPES, HOS_RECORD_STATUSES, type HosLogRow, type Page, type hosLogListQuery } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, hosEvents, hosLogs } from '../../db/schema/index.ts';
import { invalidField } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import { LOOKBACK_MS } from './hos-clocks.service.ts';
import { dayTotals } from './hos-day-totals.ts';
import { DRIVEN_EVENT_TYPES } from './hos-distance.ts';
import { statusOfCode } from './hos.periods.ts';
import { startsInVehicle, vehiclesAtDayStart, type DayStartVehicle } from './hos-day-start-vehicle.ts';
import { violationsOf } from './hos-audit.ts';
import { driverRecordsOf, engineOptions, ensureLogDays, fleetDriversOf, fleetStateOf } from './hos.repository.ts';
import { DAY_MS, dayStartMs, nextDate } from './hos.time.ts';
import type { ReadScope } from '../auth/index.ts';

const SORTS: Record<string, (r: HosLogRow) => number | string> = {
  lastName: (r) => `${r.driver.lastName.toLowerCase()}\u0000${r.driver.firstName.toLowerCase()}`,
  violationCount: (r) => r.violationCount,
  driving: (r) => r.totals.D,
};

/**
 * One row per active driver for a log day: vehicles, hours per status, distance, violations,
 * certification, last event and form-and-manner problems. For the whole fleet: the drivers and
 * their duty events from memory (hos.repository.ts), the day's log rows, and the day's vehicles and
 * odometer spans summed up in the database.
 */
export async function listLogDays({ db, orgId, now = Date.now() }: ReadScope, q: z.output<typeof hosLogListQuery>): Promise<Page<HosLogRow>> {
  const [field = 'lastName', dir = 'asc'] = (q.sort ?? 'lastName').split(',');
  const key = SORTS[field];
  if (!key) throw invalidField('sort', `sort must be one of ${Object.keys(SORTS).join(', ')}`);
  const state = await fleetStateOf(db, orgId);
  const { periodStart } = state;
  const list = await fleetDriversOf(db, orgId, state, { groupId: q.groupId, search: q.search });
  if (list.length === 0) return toPage([], 0, q);
  // Wide enough for every home zone (UTC-12 to UTC+14) and period start.
  const utcDay = Date.parse(`${q.date}T00:00:00Z`);
  const [records, logs, spans] = await Promise.all([
    driverRecordsOf(db, orgId, null, utcDay - DAY_MS - LOOKBACK_MS, utcDay + 3 * DAY_MS, state),
    db
      .select({
        id: hosLogs.id,
        driverId: hosLogs.driverId,
        certifiedAt: hosLogs.certifiedAt,
        shippingDocuments: hosLogs.shippingDocuments,
        trailerIds: hosLogs.trailerIds,
      })
      .from(hosLogs)
      .where(and(eq(hosLogs.organizationId, orgId), eq(hosLogs.logDate, q.date))),
    vehicleSpansOf(db, orgId, q.date),
  ]);
  type LogRow = Pick<(typeof logs)[number], 'id' | 'certifiedAt' | 'shippingDocuments' | 'trailerIds'>;
  const logOf = new Map<string, LogRow>(logs.map((l) => [l.driverId, l]));
  const spansOf = new Map<string, VehicleSpan[]>();
  for (const v of spans) {
    let mine = spansOf.get(v.driverId);
    if (!mine) spansOf.set(v.driverId, (mine = []));
    mine.push(v);
  }
  // A begun day the driver is on the records for (a record before its end) gets a log row the screen can open.
  const started = list.filter(
    (d) =>
      !logOf.has(d.id) &&
      dayStartMs(q.date, d.homeTimeZone, periodStart) < now &&
      records.eventsOf(d.id).some((e) => e.at < dayStartMs(nextDate(q.date), d.homeTimeZone, periodStart)),
  );
  if (started.length) {
    const ids = await ensureLogDays(
      db,
      orgId,
      started.map((d) => ({ driverId: d.id, logDate: q.date })),
    );
    for (const d of started) {
      const logId = ids.get(`${d.id}|${q.date}`);
      if (logId) logOf.set(d.id, { id: logId, certifiedAt: null, shippingDocuments: [], trailerIds: [] });
    }
  }
  // A drive or on-duty period carried over the day's start used its vehicle this day too.
  const carried = await vehiclesAtDayStart(
    db,
    orgId,
    list.flatMap((d) => {
      const startMs = dayStartMs(q.date, d.homeTimeZone, periodStart);
      return startMs < now && startsInVehicle(records.eventsOf(d.id), startMs) ? [{ driverId: d.id, startMs }] : [];
    }),
  );
  const rows = list.map((d): HosLogRow => {
    const startMs = dayStartMs(q.date, d.homeTimeZone, periodStart);
    const endMs = dayStartMs(nextDate(q.date), d.homeTimeZone, periodStart);
    const mineEvents = records.eventsOf(d.id);
    const periods = startMs < now ? records.periodsOf(d.id, Math.min(endMs, now)) : [];
    const opts = engineOptions(d, periodStart, records.factsOf(d.id));
    const t = periods.length ? dailyTotals(periods, opts).find((x) => x.date === q.date) : undefined;
    const violationCount = periods.length
      ? violationsOf(periods, d, periodStart, records.factsOf(d.id)).filter((v) => Date.parse(v.end) > startMs && Date.parse(v.start) < endMs).length
      : 0;
    let last: (typeof mineEvents)[number] | undefined;
    for (const e of mineEvents) if (e.eventType === HOS_EVENT_TYPES.DUTY_STATUS && e.at >= startMs && e.at < endMs) last = e;
    const lastStatus = last ? statusOfCode(last.eventCode) : null;
    const log = logOf.get(d.id);
    const totals = dayTotals(t, startMs, endMs, now, startMs < now && mineEvents.some((e) => e.at < endMs));
    const problems: HosLogRow['problems'] = [];
    if (log && endMs <= now && !log.certifiedAt) problems.push('UNCERTIFIED');
    if (totals.D > 0 && !log?.shippingDocuments.length) problems.push('NO_SHIPPING_DOCUMENT');
    if (totals.D > 0 && !log?.trailerIds.length) problems.push('NO_TRAILER');
    const mine = spansOf.get(d.id) ?? [];
    const driven = mine.filter((v) => v.minM !== null && v.maxM !== null);
    return {
      driver: { id: d.id, firstName: d.firstName, lastName: d.lastName },
      date: q.date,
      logId: log?.id ?? null,
      vehicles: dayVehicles(carried.get(d.id), mine),
      totals,
      distanceM: driven.length ? driven.reduce((sum, v) => sum + v.maxM! - v.minM!, 0) : null,
      violationCount,
      certified: !!log?.certifiedAt,
      lastEvent: last && lastStatus ? { at: new Date(last.at).toISOString(), status: lastStatus } : null,
      problems,
      timeZone: d.homeTimeZone,
    };
  });
  const sign = dir.toLowerCase() === 'desc' ? -1 : 1;
  if (q.problem) {
    const problem = q.problem;
    rows.splice(0, rows.length, ...rows.filter((r) => r.problems.includes(problem)));
  }
  rows.sort((x, y) => {
    const a = key(x);
    const b = key(y);
    return sign * (a < b ? -1 : a > b ? 1 : 0) || SORTS.lastName!(x).toString().localeCompare(SORTS.lastName!(y).toString());
  });
  return toPage(rows.slice(q.page * q.size, (q.page + 1) * q.size), rows.length, q);
}

/** The vehicle carried over the day's start first, then the day's own in order of first use, each once. */
function dayVehicles(carried: DayStartVehicle | undefined, spans: readonly VehicleSpan[]): DayStartVehicle[] {
  const all = [...(carried ? [carried] : []), ...spans.flatMap((v) => (v.vehicle?.id ? [v.vehicle] : []))];
  return [...new Map(all.map((v) => [v.id, v])).values()];
}

interface VehicleSpan {
  driverId: string;
  vehicle: { id: string; unitNumber: string; type: 'VEHICLE' | 'TRAILER' } | null;
  /** Lowest and highest odometer of the day's driving-type events in this vehicle (dayDistance's rule), null without one. */
  minM: number | null;
  maxM: number | null;
}

/**
 * Per driver and vehicle, the log day's active events summed up in the database: which vehicles
 * the driver was in (in order of first use) and their odometer span over the event types whose
 * odometer counts (hos-distance.ts), so a 2,000-driver day is 2,000-odd rows, not every event.
 */
async function vehicleSpansOf(db: DbOrTx, orgId: string, date: string): Promise<VehicleSpan[]> {
  const driven = sql.join(
    DRIVEN_EVENT_TYPES.map((t) => sql.raw(String(t))),
    sql`, `,
  );
  const rows = await db
    .select({
      driverId: sql<string>`${hosEvents.driverId}`,
      vehicle: { id: assets.id, unitNumber: assets.unitNumber, type: assets.type },
      minM: sql<number | null>`min(${hosEvents.odometerM}) filter (where ${hosEvents.eventType} in (${driven}))`,
      maxM: sql<number | null>`max(${hosEvents.odometerM}) filter (where ${hosEvents.eventType} in (${driven}))`,
      firstAt: sql<string>`min(${hosEvents.eventTime})`,
    })
    .from(hosEvents)
    .leftJoin(assets, and(eq(assets.organizationId, hosEvents.organizationId), eq(assets.id, hosEvents.vehicleId)))
    .where(
      and(
        eq(hosEvents.organizationId, orgId),
        eq(hosEvents.logDate, date),
        eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE),
        isNotNull(hosEvents.driverId),
      ),
    )
    // The asset's key is (id, organization_id) (migration 0034): both, so its other columns may be selected.
    .groupBy(hosEvents.driverId, hosEvents.vehicleId, assets.id, assets.organizationId)
    .orderBy(hosEvents.driverId, sql`min(${hosEvents.eventTime})`);
  return rows.map((r) => ({
    driverId: r.driverId,
    vehicle: r.vehicle?.id ? r.vehicle : null,
    minM: r.minM === null ? null : Number(r.minM),
    maxM: r.maxM === null ? null : Number(r.maxM),
  }));
}
