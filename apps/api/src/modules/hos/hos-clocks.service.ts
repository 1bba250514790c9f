import { and, eq, sql } from 'drizzle-orm';
import { clocksAt, type ClocksResult, type DutyPeriod, type RulesetId } from '@fleet/hos';
import type { Availability, HosViolation, Page } from '@fleet/api-contract';
import type { z } from 'zod';
import type { availabilityQuery, violationsQuery } from '@fleet/api-contract';
import { VIOLATION_RULES, VIOLATIONS_MAX_RANGE_DAYS } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, driverSearchDoc } from '../../db/schema/index.ts';
import { invalidField } from '../../lib/errors.ts';
import { likeTerm, toPage } from '../../lib/paging.ts';
import { driverInGroup } from '../groups/groups.filter.ts';
import { dutyPeriods } from './hos.periods.ts';
import { optionsAt, violationsOf } from './hos-audit.ts';
import { driverHosColumns, dutyEventsOf, ensureLogDays, logFactsOf, periodStartOf, type DriverHos, type LogFacts } from './hos.repository.ts';
import { DAY_MS, logDateOf, logDatesAround } from './hos.time.ts';

interface ReadScope {
  db: DbOrTx;
  orgId: string;
  /** The clock (tests pin it). */
  now?: number;
}

/**
 * How far back the engine reads before the range it judges: the longest cycle (Canada cycle 2,
 * 14 days) plus a day, so cycle totals, restarts and 24-hours-off-in-14-days are right.
 */
export const LOOKBACK_MS = 15 * DAY_MS;

const H = 3_600_000;
/** Off-duty time that restarts the cycle, per ruleset; null where there is no restart (US passenger). */
const RESTART_MS: Record<RulesetId, number | null> = {
  US_PROPERTY_70_8: 34 * H,
  US_PROPERTY_60_7: 34 * H,
  US_PASSENGER_70_8: null,
  US_PASSENGER_60_7: null,
  CA_SOUTH_CYCLE_1: 36 * H,
  CA_SOUTH_CYCLE_2: 72 * H,
  TX_INTRASTATE: 34 * H,
  CA_INTRASTATE: 34 * H,
};

const driverRef = (d: DriverHos) => ({ id: d.id, firstName: d.firstName, lastName: d.lastName });

/** Active drivers of the organization (one driver, a group, or a search), with what the engine needs. */
async function driversFor(db: DbOrTx, orgId: string, f: { driverId?: string; groupId?: string; search?: string }) {
  return db
    .select({ ...driverHosColumns, vehicle: { id: assets.id, unitNumber: assets.unitNumber, type: assets.type } })
    .from(drivers)
    .leftJoin(assets, eq(assets.currentDriverId, drivers.id))
    .where(
      and(
        eq(drivers.organizationId, orgId),
        f.driverId ? eq(drivers.id, f.driverId) : eq(drivers.status, 'ACTIVE'),
        f.groupId ? driverInGroup(orgId, f.groupId, drivers.id) : undefined,
        f.search ? sql`${driverSearchDoc} like ${likeTerm(f.search)}` : undefined,
      ),
    )
    .orderBy(sql`lower(${drivers.lastName})`, sql`lower(${drivers.firstName})`, drivers.id);
}

type ViolationFilter = z.output<typeof violationsQuery>;

/**
 * The engine's violations of every driver (or one) that intersect [from, to): each driver's log is
 * read from LOOKBACK_MS before `from`, in one query for all drivers, and audited once.
 */
export async function listViolations({ db, orgId, now = Date.now() }: ReadScope, q: ViolationFilter): Promise<Page<HosViolation>> {
  const toMs = q.to ? Date.parse(q.to) : now;
  const fromMs = q.from ? Date.parse(q.from) : toMs - 7 * DAY_MS;
  if (fromMs >= toMs) throw invalidField('to', 'To must be after From');
  if (toMs - fromMs > VIOLATIONS_MAX_RANGE_DAYS * DAY_MS) throw invalidField('to', `The range may cover at most ${VIOLATIONS_MAX_RANGE_DAYS} days`);
  const [periodStart, list] = await Promise.all([periodStartOf(db, orgId), driversFor(db, orgId, { driverId: q.driverId })]);
  if (list.length === 0) return toPage([], 0, q);
  const who = q.driverId ? [q.driverId] : null;
  const [events, facts] = await Promise.all([dutyEventsOf(db, orgId, who, fromMs - LOOKBACK_MS, toMs), logFactsOf(db, orgId, who, ...logDatesAround(fromMs - LOOKBACK_MS, toMs))]);
  const until = Math.min(toMs, now);
  const out: Array<Omit<HosViolation, 'logId'>> = [];
  for (const d of list) {
    const periods = dutyPeriods(events.get(d.id) ?? [], until);
    if (periods.length === 0) continue;
    for (const v of violationsOf(periods, d, periodStart, facts.get(d.id))) {
      const s = Date.parse(v.start);
      const e = Date.parse(v.end);
      if (e <= fromMs || s >= toMs) continue;
      if ((q.rule && v.rule !== q.rule) || (q.severity && v.severity !== q.severity)) continue;
      out.push({ driver: driverRef(d), rule: v.rule, start: v.start, end: v.end, durationMs: e - s, severity: v.severity, logDate: logDateOf(s, d.homeTimeZone, periodStart), ruleset: d.ruleset });
    }
  }
  // Newest first; drivers by name (the list order) and rules in the engine's order within one instant.
  const rank = new Map(list.map((d, i) => [d.id, i]));
  const ruleRank = (r: string) => (VIOLATION_RULES as readonly string[]).indexOf(r);
  out.sort((x, y) => Date.parse(y.start) - Date.parse(x.start) || (rank.get(x.driver.id) ?? 0) - (rank.get(y.driver.id) ?? 0) || ruleRank(x.rule) - ruleRank(y.rule));
  const page = out.slice(q.page * q.size, (q.page + 1) * q.size);
  const logIds = await ensureLogDays(db, orgId, page.map((v) => ({ driverId: v.driver.id, logDate: v.logDate })));
  return toPage(page.map((v) => ({ ...v, logId: logIds.get(`${v.driver.id}|${v.logDate}`)! })), out.length, q);
}

/** The clocks of one driver at `at` from their periods (a driver without records is fully rested). */
export function availabilityOf(d: DriverHos & { vehicle: Availability['vehicle'] }, periods: DutyPeriod[], atMs: number, periodStart: string, facts?: LogFacts): Availability {
  const opts = optionsAt(atMs, d, periodStart, facts);
  const last = periods[periods.length - 1];
  const rested: DutyPeriod[] = [{ status: 'OFF', start: new Date(atMs - LOOKBACK_MS).toISOString(), end: new Date(atMs).toISOString() }];
  const c: ClocksResult = clocksAt(last ? periods : rested, new Date(atMs).toISOString(), opts);
  // The off-duty stretch (OFF or SB, personal conveyance included) running at `at`, for the restart.
  let offSince = atMs;
  for (let i = periods.length - 1; i >= 0; i--) {
    const p = periods[i]!;
    if ((p.status !== 'OFF' && p.status !== 'SB') || Date.parse(p.end) < offSince) break;
    offSince = Date.parse(p.start);
  }
  const restart = RESTART_MS[d.ruleset];
  const s = c.strict;
  return {
    driver: driverRef(d),
    vehicle: d.vehicle?.id ? d.vehicle : null,
    ruleset: d.ruleset,
    status: last?.status ?? null,
    special: last?.special === 'PC' || last?.special === 'YM' ? last.special : null,
    since: last?.start ?? null,
    strict: c.strict,
    provisional: c.provisional,
    cycleUsedMs: c.cycleUsedMs,
    restartCompleteAt: restart === null ? null : new Date(Math.max(offSince + restart, atMs)).toISOString(),
    availableDriveMs: Math.min(s.driveMs, s.windowMs, s.breakMs ?? Infinity, s.cycleMs),
  };
}

const AVAILABILITY_SORTS: Record<string, (a: Availability) => number | string> = {
  lastName: (a) => `${a.driver.lastName.toLowerCase()}\u0000${a.driver.firstName.toLowerCase()}`,
  availableDriveMs: (a) => a.availableDriveMs,
  cycleUsedMs: (a) => a.cycleUsedMs,
};

/** Per active driver at `at` (default now): status and since when, the clocks, the restart, the time to drive now. */
export async function listAvailability({ db, orgId, now = Date.now() }: ReadScope, q: z.output<typeof availabilityQuery>): Promise<Page<Availability>> {
  const [field = 'lastName', dir = 'asc'] = (q.sort ?? 'lastName').split(',');
  const key = AVAILABILITY_SORTS[field];
  if (!key) throw invalidField('sort', `sort must be one of ${Object.keys(AVAILABILITY_SORTS).join(', ')}`);
  const atMs = q.at ? Date.parse(q.at) : now;
  const [periodStart, list] = await Promise.all([periodStartOf(db, orgId), driversFor(db, orgId, { groupId: q.groupId, search: q.search })]);
  if (list.length === 0) return toPage([], 0, q);
  const [events, facts] = await Promise.all([dutyEventsOf(db, orgId, null, atMs - LOOKBACK_MS, atMs), logFactsOf(db, orgId, null, ...logDatesAround(atMs - LOOKBACK_MS, atMs))]);
  const rows = list.map((d) => availabilityOf(d, dutyPeriods(events.get(d.id) ?? [], atMs), atMs, periodStart, facts.get(d.id)));
  const sign = dir.toLowerCase() === 'desc' ? -1 : 1;
  // Stable sort: equal keys keep the name order of the query.
  rows.sort((x, y) => {
    const a = key(x);
    const b = key(y);
    return sign * (a < b ? -1 : a > b ? 1 : 0);
  });
  return toPage(rows.slice(q.page * q.size, (q.page + 1) * q.size), rows.length, q);
}
