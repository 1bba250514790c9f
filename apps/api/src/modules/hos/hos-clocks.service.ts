import { clocksAt, RESTART_MS, severityOf, type ClocksResult, type HosOptions } from '@fleet/hos';
import type { Availability, HosViolation, Page } from '@fleet/api-contract';
import type { z } from 'zod';
import type { availabilityQuery, violationsQuery } from '@fleet/api-contract';
import { VIOLATION_RULES, VIOLATIONS_MAX_RANGE_DAYS } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { invalidField } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import type { MsPeriod } from './hos.periods.ts';
import { auditOf, clockPeriods, optionsAt } from './hos-audit.ts';
import { driverRecordsOf, ensureLogDays, fleetDriversOf, fleetStateOf, type FleetDriver, type FleetState, type LogFacts } from './hos.repository.ts';
import { LruMap } from '../../lib/lru-map.ts';
import { NextRun } from '../../lib/next-run.ts';
import { DAY_MS, dayStartMs, logDateOf, nextDate } from './hos.time.ts';
import type { ReadScope } from '../auth/index.ts';

/**
 * How far back the engine reads before the range it judges: the longest cycle (Canada cycle 2,
 * 14 days) plus a day, so cycle totals, restarts and 24-hours-off-in-14-days are right.
 */
export const LOOKBACK_MS = 15 * DAY_MS;

const driverRef = (d: FleetDriver) => ({ id: d.id, firstName: d.firstName, lastName: d.lastName });

type ViolationFilter = z.output<typeof violationsQuery>;

type ViolationRow = Omit<HosViolation, 'logId'>;

/**
 * What one database client keeps for the fleet reads that judge every driver: concurrent requests
 * for the same answer share one computation (lib/next-run.ts), and answers about a window wholly
 * in the past are kept while the organization's HoS state is unchanged (they cannot change unless
 * the records do: the key holds the drivers list version, the drivers' fingerprint, the period start).
 */
interface FleetComputations {
  runs: NextRun<readonly unknown[]>;
  past: LruMap<readonly unknown[]>;
}
const computations = new WeakMap<object, FleetComputations>();
function computationsOf(db: DbOrTx): FleetComputations | undefined {
  const client = (db as { $client?: object }).$client;
  if (!client) return undefined;
  let c = computations.get(client);
  if (!c) computations.set(client, (c = { runs: new NextRun(), past: new LruMap(20) }));
  return c;
}

/**
 * All rows of a fleet computation: shared with concurrent identical requests (a transaction
 * computes alone), and kept while the organization's HoS state holds when `pastUntil` says the
 * answer is about the past only.
 */
async function fleetRows<T>(
  db: DbOrTx,
  orgId: string,
  key: string,
  compute: (state: FleetState, now: number) => Promise<T[]>,
  pastOnly: (now: number) => boolean,
  pinnedNow?: number,
): Promise<readonly T[]> {
  const run = async (): Promise<T[]> => {
    const now = pinnedNow ?? Date.now();
    const state = await fleetStateOf(db, orgId);
    const c = computationsOf(db);
    if (!c || !pastOnly(now)) return compute(state, now);
    const stateKey = `${key}|${state.driversVersion}|${state.fingerprint}|${state.periodStart}`;
    const kept = c.past.get(stateKey) as T[] | undefined;
    if (kept) return kept;
    const rows = await compute(state, now);
    c.past.set(stateKey, rows);
    return rows;
  };
  const c = computationsOf(db);
  return c ? ((await c.runs.run(`${orgId}|${key}`, run)) as readonly T[]) : run();
}

/**
 * The engine's violations of every driver (or one) that intersect [from, to) (default the 7 days
 * to now): each driver's log from LOOKBACK_MS before `from`, audited once, newest first.
 */
export async function listViolations({ db, orgId, now }: ReadScope, q: ViolationFilter): Promise<Page<HosViolation>> {
  const asked = now ?? Date.now();
  const range = (at: number) => {
    const toMs = q.to ? Date.parse(q.to) : at;
    return { toMs, fromMs: q.from ? Date.parse(q.from) : toMs - 7 * DAY_MS };
  };
  const { fromMs, toMs } = range(asked);
  if (fromMs >= toMs) throw invalidField('to', 'To must be after From');
  if (toMs - fromMs > VIOLATIONS_MAX_RANGE_DAYS * DAY_MS) throw invalidField('to', `The range may cover at most ${VIOLATIONS_MAX_RANGE_DAYS} days`);
  const key = JSON.stringify(['violations', q.from ?? null, q.to ?? null, q.driverId ?? null, q.groupId ?? null, q.rule ?? null, q.severity ?? null]);
  const all = await fleetRows<ViolationRow>(
    db,
    orgId,
    key,
    (state, at) => violationRows(db, orgId, state, q, range(at), at),
    (at) => q.to !== undefined && range(at).toMs <= at,
    now,
  );
  const page = all.slice(q.page * q.size, (q.page + 1) * q.size);
  const logIds = await ensureLogDays(
    db,
    orgId,
    page.map((v) => ({ driverId: v.driver.id, logDate: v.logDate })),
  );
  return toPage(
    page.map((v) => ({ ...v, logId: logIds.get(`${v.driver.id}|${v.logDate}`)! })),
    all.length,
    q,
  );
}

async function violationRows(
  db: DbOrTx,
  orgId: string,
  state: FleetState,
  q: ViolationFilter,
  { fromMs, toMs }: { fromMs: number; toMs: number },
  now: number,
): Promise<ViolationRow[]> {
  const { periodStart } = state;
  const list = await fleetDriversOf(db, orgId, state, { driverId: q.driverId, groupId: q.groupId });
  if (list.length === 0) return [];
  const records = await driverRecordsOf(db, orgId, q.driverId ? [q.driverId] : null, fromMs - LOOKBACK_MS, toMs, state);
  const until = Math.min(toMs, now);
  const out: Array<ViolationRow & { startMs: number; rank: number; ruleRank: number }> = [];
  for (let i = 0; i < list.length; i++) {
    const d = list[i]!;
    const periods = records.periodsOf(d.id, until);
    if (periods.length === 0) continue;
    const facts = records.factsOf(d.id);
    const audit = auditOf(periods, d, periodStart, facts);
    for (const v of audit.violations) {
      const s = Date.parse(v.start);
      const e = Date.parse(v.end);
      if (e <= fromMs || s >= toMs) continue;
      if ((q.rule && v.rule !== q.rule) || (q.severity && v.severity !== q.severity)) continue;
      out.push({
        driver: driverRef(d),
        rule: v.rule,
        start: v.start,
        end: v.end,
        durationMs: e - s,
        severity: v.severity,
        logDate: logDateOf(s, d.homeTimeZone, periodStart),
        // The ruleset in force where the violation is (the other side's after a border crossing).
        ruleset: facts?.crossings ? optionsAt(s, d, periodStart, facts).ruleset : d.ruleset,
        timeZone: d.homeTimeZone,
        shortMs: null,
        startMs: s,
        rank: i,
        ruleRank: (VIOLATION_RULES as readonly string[]).indexOf(v.rule),
      });
    }
    // A day's own finding (s. 14) is a row spanning the log day, measured by the shortfall.
    for (const f of audit.dayFindings) {
      // The list's rules are the violations'; a cycle switch's finding is shown on its log day only.
      if (f.rule !== 'DAILY_OFF_DUTY') continue;
      const s = dayStartMs(f.day, d.homeTimeZone, periodStart);
      const e = dayStartMs(nextDate(f.day), d.homeTimeZone, periodStart);
      const severity = severityOf(f.shortMs);
      if (e <= fromMs || s >= toMs) continue;
      if ((q.rule && f.rule !== q.rule) || (q.severity && severity !== q.severity)) continue;
      out.push({
        driver: driverRef(d),
        rule: f.rule,
        start: new Date(s).toISOString(),
        end: new Date(e).toISOString(),
        durationMs: f.shortMs,
        severity,
        logDate: f.day,
        ruleset: d.ruleset,
        timeZone: d.homeTimeZone,
        shortMs: f.shortMs,
        startMs: s,
        rank: i,
        ruleRank: (VIOLATION_RULES as readonly string[]).indexOf(f.rule),
      });
    }
  }
  // Newest first; drivers by name (the list order) and rules in the engine's order within one instant.
  out.sort((x, y) => y.startMs - x.startMs || x.rank - y.rank || x.ruleRank - y.ruleRank);
  return out.map(({ startMs: _s, rank: _r, ruleRank: _k, ...v }) => v);
}

/** What the engine is called with for one driver's clocks at `at` (the driver's phone repeats the call offline). */
export function engineInputOf(
  d: FleetDriver,
  periods: MsPeriod[],
  atMs: number,
  periodStart: string,
  facts?: LogFacts,
): { periods: MsPeriod[]; options: HosOptions } {
  return {
    periods: periods.length ? clockPeriods(periods, d, periodStart, facts) : [{ status: 'OFF', start: atMs - LOOKBACK_MS, end: atMs }],
    options: optionsAt(atMs, d, periodStart, facts),
  };
}

/** The clocks of one driver at `at` from their periods (a driver without records is fully rested). */
export function availabilityOf(d: FleetDriver, periods: MsPeriod[], atMs: number, periodStart: string, facts?: LogFacts): Availability {
  const { periods: input, options } = engineInputOf(d, periods, atMs, periodStart, facts);
  const last = periods[periods.length - 1];
  const c: ClocksResult = clocksAt(input, atMs, options);
  // The off-duty stretch (OFF or SB, personal conveyance included) running at `at`, for the restart.
  let offSince = atMs;
  for (let i = periods.length - 1; i >= 0; i--) {
    const p = periods[i]!;
    if ((p.status !== 'OFF' && p.status !== 'SB') || p.end < offSince) break;
    offSince = p.start;
  }
  // The ruleset in force at `at`: the driver's own, or the other side's after a border crossing.
  const restart = RESTART_MS[options.ruleset];
  const s = c.strict;
  return {
    driver: driverRef(d),
    vehicle: d.vehicle?.id ? d.vehicle : null,
    ruleset: options.ruleset,
    timeZone: d.homeTimeZone,
    status: last?.status ?? null,
    special: last?.special ?? null,
    since: last ? new Date(last.start).toISOString() : null,
    strict: c.strict,
    provisional: c.provisional,
    cycleUsedMs: c.cycleUsedMs,
    restartCompleteAt: restart === null ? null : new Date(Math.max(offSince + restart, atMs)).toISOString(),
    availableDriveMs: Math.min(s.driveMs, s.windowMs, s.breakMs ?? Infinity, s.cycleMs),
  };
}

const nameKey = (d: { firstName: string; lastName: string }) => `${d.lastName.toLowerCase()}\u0000${d.firstName.toLowerCase()}`;

const AVAILABILITY_SORTS: Record<string, (a: Availability) => number | string> = {
  lastName: (a) => nameKey(a.driver),
  availableDriveMs: (a) => a.availableDriveMs,
  cycleUsedMs: (a) => a.cycleUsedMs,
};

/** Stable sort by a key (equal keys keep their order), ascending or descending. */
function sortBy<T>(rows: T[], key: (r: T) => number | string, dir: string): T[] {
  const sign = dir.toLowerCase() === 'desc' ? -1 : 1;
  return rows.sort((x, y) => {
    const a = key(x);
    const b = key(y);
    return sign * (a < b ? -1 : a > b ? 1 : 0);
  });
}

/** Whether a driver's clocks pass the availability list's duty and time-left filters (the dashboard counts with it). */
export function availabilityMatches(a: Availability, duty: 'DRIVING' | 'ON_DUTY' | 'OFF_DUTY' | undefined, underMinutes: number | undefined): boolean {
  if (duty === 'DRIVING' && a.status !== 'D') return false;
  if (duty === 'ON_DUTY' && a.status !== 'ON') return false;
  if (duty === 'OFF_DUTY' && a.status !== null && a.status !== 'OFF' && a.status !== 'SB') return false;
  if (underMinutes !== undefined && a.availableDriveMs >= underMinutes * 60_000) return false;
  return true;
}

/** Per active driver at `at` (default now): status and since when, the clocks, the restart, the time to drive now. */
export async function listAvailability({ db, orgId, now }: ReadScope, q: z.output<typeof availabilityQuery>): Promise<Page<Availability>> {
  const [field = 'lastName', dir = 'asc'] = (q.sort ?? 'lastName').split(',');
  const key = AVAILABILITY_SORTS[field];
  if (!key) throw invalidField('sort', `sort must be one of ${Object.keys(AVAILABILITY_SORTS).join(', ')}`);
  const atOf = (at: number) => (q.at ? Date.parse(q.at) : at);
  const pageOf = <T>(rows: readonly T[]) => rows.slice(q.page * q.size, (q.page + 1) * q.size);
  const judge = async (state: FleetState, list: FleetDriver[], atMs: number) => {
    const records = await driverRecordsOf(db, orgId, null, atMs - LOOKBACK_MS, atMs, state);
    return list.map((d) => availabilityOf(d, records.periodsOf(d.id, atMs), atMs, state.periodStart, records.factsOf(d.id)));
  };
  const filtered = q.duty !== undefined || q.underMinutes !== undefined;
  // By name the order needs no clocks: only the page's drivers are judged. Equal keys keep the query's order.
  if (field === 'lastName' && !filtered) {
    const state = await fleetStateOf(db, orgId);
    const list = await fleetDriversOf(db, orgId, state, { groupId: q.groupId, search: q.search });
    if (list.length === 0) return toPage([], 0, q);
    return toPage(await judge(state, pageOf(sortBy(list, nameKey, dir)), atOf(now ?? Date.now())), list.length, q);
  }
  // Sorted by a clock or filtered by duty and time left (the dashboard's counters), everyone is
  // judged: concurrent requests for the same order share one run.
  const runKey = JSON.stringify(['availability', field, dir, q.groupId ?? null, q.search ?? null, q.at ?? null, q.duty ?? null, q.underMinutes ?? null]);
  const all = await fleetRows<Availability>(
    db,
    orgId,
    runKey,
    async (state, at) => {
      const list = await fleetDriversOf(db, orgId, state, { groupId: q.groupId, search: q.search });
      if (list.length === 0) return [];
      const judged = await judge(state, list, atOf(at));
      return sortBy(filtered ? judged.filter((a) => availabilityMatches(a, q.duty, q.underMinutes)) : judged, key, dir);
    },
    (at) => q.at !== undefined && atOf(at) <= at,
    now,
  );
  return toPage(pageOf(all), all.length, q);
}
