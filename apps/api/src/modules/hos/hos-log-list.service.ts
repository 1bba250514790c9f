import { and, eq, sql } from 'drizzle-orm';
import { dailyTotals } from '@fleet/hos';
import { HOS_EVENT_TYPES, HOS_RECORD_STATUSES, type HosLogRow, type Page, type hosLogListQuery } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, driverSearchDoc, hosEvents, hosLogs } from '../../db/schema/index.ts';
import { invalidField } from '../../lib/errors.ts';
import { likeTerm, toPage } from '../../lib/paging.ts';
import { driverInGroup } from '../groups/groups.filter.ts';
import { LOOKBACK_MS } from './hos-clocks.service.ts';
import { dayTotals } from './hos-day-totals.ts';
import { dayDistance } from './hos-distance.ts';
import { dutyPeriods, statusOfCode } from './hos.periods.ts';
import { violationsOf } from './hos-audit.ts';
import { driverHosColumns, dutyEventsOf, engineOptions, ensureLogDays, logFactsOf, periodStartOf } from './hos.repository.ts';
import { DAY_MS, dayStartMs, logDatesAround, nextDate } from './hos.time.ts';

const SORTS: Record<string, (r: HosLogRow) => number | string> = {
  lastName: (r) => `${r.driver.lastName.toLowerCase()}\u0000${r.driver.firstName.toLowerCase()}`,
  violationCount: (r) => r.violationCount,
  driving: (r) => r.totals.D,
};

/**
 * One row per active driver for a log day: vehicles, hours per status, distance, violations,
 * certification, last event and form-and-manner problems. Three queries for the whole fleet
 * (drivers, the log rows and the day's events, the duty events of the look-back window).
 */
export async function listLogDays({ db, orgId, now = Date.now() }: { db: DbOrTx; orgId: string; now?: number }, q: z.output<typeof hosLogListQuery>): Promise<Page<HosLogRow>> {
  const [field = 'lastName', dir = 'asc'] = (q.sort ?? 'lastName').split(',');
  const key = SORTS[field];
  if (!key) throw invalidField('sort', `sort must be one of ${Object.keys(SORTS).join(', ')}`);
  const [periodStart, list] = await Promise.all([
    periodStartOf(db, orgId),
    db
      .select(driverHosColumns)
      .from(drivers)
      .where(
        and(
          eq(drivers.organizationId, orgId),
          eq(drivers.status, 'ACTIVE'),
          q.groupId ? driverInGroup(orgId, q.groupId, drivers.id) : undefined,
          q.search ? sql`${driverSearchDoc} like ${likeTerm(q.search)}` : undefined,
        ),
      ),
  ]);
  if (list.length === 0) return toPage([], 0, q);
  // Wide enough for every home zone (UTC-12 to UTC+14) and period start.
  const utcDay = Date.parse(`${q.date}T00:00:00Z`);
  const [byDriver, facts, logs, dayEvents] = await Promise.all([
    dutyEventsOf(db, orgId, null, utcDay - DAY_MS - LOOKBACK_MS, utcDay + 3 * DAY_MS),
    logFactsOf(db, orgId, null, ...logDatesAround(utcDay - DAY_MS - LOOKBACK_MS, utcDay + 3 * DAY_MS)),
    db.select().from(hosLogs).where(and(eq(hosLogs.organizationId, orgId), eq(hosLogs.logDate, q.date))),
    db
      .select({ driverId: hosEvents.driverId, eventType: hosEvents.eventType, eventCode: hosEvents.eventCode, at: hosEvents.eventTime, odometerM: hosEvents.odometerM, vehicleId: hosEvents.vehicleId, vehicle: { id: assets.id, unitNumber: assets.unitNumber, type: assets.type } })
      .from(hosEvents)
      .leftJoin(assets, eq(assets.id, hosEvents.vehicleId))
      .where(and(eq(hosEvents.organizationId, orgId), eq(hosEvents.logDate, q.date), eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE)))
      .orderBy(hosEvents.eventTime, hosEvents.sequenceId),
  ]);
  const eventsOf = new Map<string, typeof dayEvents>();
  for (const e of dayEvents) {
    if (!e.driverId) continue;
    let list = eventsOf.get(e.driverId);
    if (!list) eventsOf.set(e.driverId, (list = []));
    list.push(e);
  }
  type LogFacts = Pick<(typeof logs)[number], 'id' | 'certifiedAt' | 'shippingDocuments' | 'trailerIds'>;
  const logOf = new Map<string, LogFacts>(logs.map((l) => [l.driverId, l]));
  // A begun day the driver is on the records for (a record before its end) gets a log row the screen can open.
  const started = list.filter((d) => !logOf.has(d.id) && dayStartMs(q.date, d.homeTimeZone, periodStart) < now && (byDriver.get(d.id) ?? []).some((e) => e.at < dayStartMs(nextDate(q.date), d.homeTimeZone, periodStart)));
  if (started.length) {
    const ids = await ensureLogDays(db, orgId, started.map((d) => ({ driverId: d.id, logDate: q.date })));
    for (const d of started) {
      const logId = ids.get(`${d.id}|${q.date}`);
      if (logId) logOf.set(d.id, { id: logId, certifiedAt: null, shippingDocuments: [], trailerIds: [] });
    }
  }
  const rows = list.map((d): HosLogRow => {
    const startMs = dayStartMs(q.date, d.homeTimeZone, periodStart);
    const endMs = dayStartMs(nextDate(q.date), d.homeTimeZone, periodStart);
    const periods = startMs < now ? dutyPeriods(byDriver.get(d.id) ?? [], Math.min(endMs, now)) : [];
    const opts = engineOptions(d, periodStart, facts.get(d.id));
    const t = periods.length ? dailyTotals(periods, opts).find((x) => x.date === q.date) : undefined;
    const violationCount = periods.length ? violationsOf(periods, d, periodStart, facts.get(d.id)).filter((v) => Date.parse(v.end) > startMs && Date.parse(v.start) < endMs).length : 0;
    const mine = eventsOf.get(d.id) ?? [];
    const last = mine.filter((e) => e.eventType === HOS_EVENT_TYPES.DUTY_STATUS).at(-1);
    const lastStatus = last ? statusOfCode(last.eventCode) : null;
    const log = logOf.get(d.id);
    const totals = dayTotals(t, startMs, endMs, now, startMs < now && (byDriver.get(d.id) ?? []).some((e) => e.at < endMs));
    const problems: HosLogRow['problems'] = [];
    if (log && endMs <= now && !log.certifiedAt) problems.push('UNCERTIFIED');
    if (totals.D > 0 && !log?.shippingDocuments.length) problems.push('NO_SHIPPING_DOCUMENT');
    if (totals.D > 0 && !log?.trailerIds.length) problems.push('NO_TRAILER');
    return {
      driver: { id: d.id, firstName: d.firstName, lastName: d.lastName },
      date: q.date,
      logId: log?.id ?? null,
      vehicles: [...new Map(mine.filter((e) => e.vehicle?.id).map((e) => [e.vehicle!.id, e.vehicle!])).values()],
      totals,
      distanceM: dayDistance(mine).distanceM,
      violationCount,
      certified: !!log?.certifiedAt,
      lastEvent: last && lastStatus ? { at: last.at.toISOString(), status: lastStatus } : null,
      problems,
    };
  });
  const sign = dir.toLowerCase() === 'desc' ? -1 : 1;
  rows.sort((x, y) => {
    const a = key(x);
    const b = key(y);
    return sign * (a < b ? -1 : a > b ? 1 : 0) || SORTS.lastName!(x).toString().localeCompare(SORTS.lastName!(y).toString());
  });
  return toPage(rows.slice(q.page * q.size, (q.page + 1) * q.size), rows.length, q);
}
