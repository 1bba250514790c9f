import { and, eq, gte, lte } from 'drizzle-orm';
import { dailyTotals } from '@fleet/hos';
import { HOS_PERIOD_MAX_DAYS, type HosLogDay, type HosPeriod } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, hosLogs } from '../../db/schema/index.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { LOOKBACK_MS } from './hos-clocks.service.ts';
import { dayTotals } from './hos-day-totals.ts';
import { getLogDay } from './hos-log-day.service.ts';
import { violationsOf } from './hos-audit.ts';
import { driverHosColumns, driverRecordsOf, engineOptions, ensureLogDays, fleetStateOf, periodStartOf } from './hos.repository.ts';
import { DAY_MS, dayStartMs, logDateOf, nextDate } from './hos.time.ts';
import type { ReadScope } from '../auth/index.ts';

async function driverOf(db: DbOrTx, orgId: string, driverId: string) {
  const [d] = await db
    .select(driverHosColumns)
    .from(drivers)
    .where(and(eq(drivers.id, driverId), eq(drivers.organizationId, orgId)));
  if (!d) throw notFound('Driver');
  return d;
}

/** The driver whose sign-in account is `userId` (the spec's `users/{userId}/hos_log/...` paths); 404 "Driver" when the user drives for nobody here. */
export async function driverIdOfUser(db: DbOrTx, orgId: string, userId: string): Promise<string> {
  const [d] = await db
    .select({ id: drivers.id })
    .from(drivers)
    .where(and(eq(drivers.userId, userId), eq(drivers.organizationId, orgId)));
  if (!d) throw notFound('Driver');
  return d.id;
}

/** Today's log day in the driver's home zone (from the carrier's period start), its row created on first need. */
export async function currentDay({ db, orgId, now = Date.now() }: ReadScope, driverId: string): Promise<HosLogDay> {
  const [d, periodStart] = await Promise.all([driverOf(db, orgId, driverId), periodStartOf(db, orgId)]);
  const date = logDateOf(now, d.homeTimeZone, periodStart);
  const ids = await ensureLogDays(db, orgId, [{ driverId: d.id, logDate: date }]);
  return getLogDay({ db, orgId, now }, ids.get(`${d.id}|${date}`)!);
}

/**
 * A driver's log days from `from` to `to` (at most 31): totals, violation count and certification
 * of each, from one read of the driver's events and log rows and one audit. Every begun day from
 * the driver's first record on gets a log row (as the daily list does), so each day has an id.
 */
export async function logsForPeriod({ db, orgId, now = Date.now() }: ReadScope, driverId: string, q: { from: string; to: string }): Promise<HosPeriod> {
  if (q.to < q.from) throw invalidField('to', 'To must not be before From');
  const span = Math.round((Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / DAY_MS) + 1;
  if (span > HOS_PERIOD_MAX_DAYS) throw invalidField('to', `The range may cover at most ${HOS_PERIOD_MAX_DAYS} days`);
  const [d, state] = await Promise.all([driverOf(db, orgId, driverId), fleetStateOf(db, orgId)]);
  const { periodStart } = state;
  const fromMs = dayStartMs(q.from, d.homeTimeZone, periodStart);
  const toMs = dayStartMs(nextDate(q.to), d.homeTimeZone, periodStart);
  const [records, rows] = await Promise.all([
    driverRecordsOf(db, orgId, [d.id], fromMs - LOOKBACK_MS, toMs, state),
    db
      .select({ id: hosLogs.id, date: hosLogs.logDate, certifiedAt: hosLogs.certifiedAt })
      .from(hosLogs)
      .where(and(eq(hosLogs.driverId, d.id), gte(hosLogs.logDate, q.from), lte(hosLogs.logDate, q.to))),
  ]);
  const events = records.eventsOf(d.id);
  const firstMs = events[0]?.at ?? Infinity;
  const dates: string[] = [];
  for (let date = q.from; date <= q.to; date = nextDate(date)) dates.push(date);
  const bounds = new Map(
    dates.map((date) => [date, { startMs: dayStartMs(date, d.homeTimeZone, periodStart), endMs: dayStartMs(nextDate(date), d.homeTimeZone, periodStart) }]),
  );
  const onRecords = (date: string) => bounds.get(date)!.startMs < now && firstMs < bounds.get(date)!.endMs;
  const logOf = new Map(rows.map((r) => [r.date, r]));
  const missing = dates.filter((date) => !logOf.has(date) && onRecords(date));
  if (missing.length) {
    const ids = await ensureLogDays(
      db,
      orgId,
      missing.map((logDate) => ({ driverId: d.id, logDate })),
    );
    for (const date of missing) logOf.set(date, { id: ids.get(`${d.id}|${date}`)!, date, certifiedAt: null });
  }
  const periods = records.periodsOf(d.id, Math.min(toMs, Math.max(now, fromMs)));
  const opts = engineOptions(d, periodStart, records.factsOf(d.id));
  const totals = new Map(periods.length ? dailyTotals(periods, opts).map((t) => [t.date, t]) : []);
  const violations = violationsOf(periods, d, periodStart, records.factsOf(d.id)).map((v) => [Date.parse(v.start), Date.parse(v.end)] as const);
  const days = dates
    .filter((date) => logOf.has(date))
    .map((date) => {
      const { startMs, endMs } = bounds.get(date)!;
      const log = logOf.get(date)!;
      return {
        id: log.id,
        date,
        totals: dayTotals(totals.get(date), startMs, endMs, now, onRecords(date)),
        violationCount: violations.filter(([s, e]) => e > startMs && s < endMs).length,
        certified: log.certifiedAt !== null,
      };
    });
  return { driver: { id: d.id, firstName: d.firstName, lastName: d.lastName }, from: q.from, to: q.to, days };
}
