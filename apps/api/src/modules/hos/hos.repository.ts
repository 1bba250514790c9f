import { and, asc, eq, gte, inArray, isNotNull, lt, lte, or, sql } from 'drizzle-orm';
import type { HosOptions, RulesetId } from '@fleet/hos';
import { HOS_EVENT_TYPES, HOS_RECORD_STATUSES } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, hosEvents, hosLogs } from '../../db/schema/index.ts';
import { getOrganizationSettings } from '../organizations/organizations.service.ts';
import { eventsCacheOf, packEvents, sliceEvents } from './hos.events-cache.ts';
import type { DutyEventFacts } from './hos.periods.ts';
import { DAY_MS } from './hos.time.ts';

const DUTY_TYPES = [HOS_EVENT_TYPES.DUTY_STATUS, HOS_EVENT_TYPES.SPECIAL_CATEGORY];

/** What the engine needs of a driver: ruleset, home zone and exemptions (from the driver record). */
export interface DriverHos {
  id: string;
  firstName: string;
  lastName: string;
  ruleset: RulesetId;
  homeTimeZone: string;
  shortHaul150: boolean;
  sixteenHour: boolean;
  licenseClass: string | null;
}

export const driverHosColumns = {
  id: drivers.id,
  firstName: drivers.firstName,
  lastName: drivers.lastName,
  ruleset: sql<RulesetId>`${drivers.ruleset}`,
  homeTimeZone: drivers.homeTimeZone,
  shortHaul150: drivers.shortHaul150,
  sixteenHour: drivers.sixteenHour,
  licenseClass: drivers.licenseClass,
};

/** The carrier's 24-hour period start time (organization setting, default midnight). */
export async function periodStartOf(db: DbOrTx, orgId: string): Promise<string> {
  return (await getOrganizationSettings(db, orgId)).periodStartTime ?? '00:00';
}

/**
 * Whether a licence class is a commercial driver's licence: classes A, B and C, however written
 * ("A", "cdl-b", "Class C", "CDL Class A"). Anything else ("NON_CDL", "D", "G") is not.
 */
export function isCdlClass(licenseClass: string): boolean {
  const bare = licenseClass.toUpperCase().replace(/\bCDL\b|\bCLASS\b|[^A-Z]/g, '');
  return bare === 'A' || bare === 'B' || bare === 'C';
}

/**
 * The non-CDL 150 air-mile exception (P15, §395.1(e)(2)) applies to a short-haul driver whose
 * licence is known not to be a CDL; an unknown (null) licence class is not taken as non-CDL.
 */
export const nonCdlShortHaul = (d: Pick<DriverHos, 'shortHaul150' | 'licenseClass'>): boolean => d.shortHaul150 && d.licenseClass !== null && !isCdlClass(d.licenseClass);

/** Canada south of 60 (the rulesets with the C6 deferral and the C7 team split). */
export const isCanadian = (ruleset: RulesetId): boolean => ruleset === 'CA_SOUTH_CYCLE_1' || ruleset === 'CA_SOUTH_CYCLE_2';

/** What the driver's log rows add to the engine's options: declared deferral days, co-driver days. */
export interface LogFacts {
  deferrals: string[];
  teamDays: Set<string>;
}

/**
 * The engine's options for a driver: ruleset, zone, period start and the exemptions of the driver
 * record; P15 from the licence class (a non-CDL short-haul driver is not eligible for the 16-hour
 * exception, so it replaces it); the C6 deferrals declared on log rows; `team` when asked (C7).
 */
export function engineOptions(d: DriverHos, periodStart: string, facts?: LogFacts, team = false): HosOptions {
  const nonCdl = nonCdlShortHaul(d);
  return {
    ruleset: d.ruleset,
    timeZone: d.homeTimeZone,
    cycleDayStart: periodStart,
    exemptions: { shortHaul150: d.shortHaul150, sixteenHour: d.sixteenHour && !nonCdl, ...(nonCdl ? { nonCdlShortHaul: true } : {}) },
    ...(facts?.deferrals.length ? { deferrals: facts.deferrals.map((day) => ({ day })) } : {}),
    ...(team ? { team: true } : {}),
  };
}

/**
 * Deferral declarations and co-driver days of the listed drivers' (all when null) log rows from
 * `fromDate` to `toDate` (inclusive), in one query on the (organization, log day) index.
 */
export async function logFactsOf(db: DbOrTx, orgId: string, driverIds: string[] | null, fromDate: string, toDate: string): Promise<Map<string, LogFacts>> {
  const rows = await db
    .select({ driverId: hosLogs.driverId, logDate: hosLogs.logDate, coDriverId: hosLogs.coDriverId, deferral: hosLogs.deferralDeclaredAt })
    .from(hosLogs)
    .where(
      and(
        eq(hosLogs.organizationId, orgId),
        gte(hosLogs.logDate, fromDate),
        lte(hosLogs.logDate, toDate),
        driverIds ? inArray(hosLogs.driverId, driverIds) : undefined,
        or(isNotNull(hosLogs.coDriverId), isNotNull(hosLogs.deferralDeclaredAt)),
      ),
    )
    .orderBy(asc(hosLogs.logDate));
  const out = new Map<string, LogFacts>();
  for (const r of rows) {
    let f = out.get(r.driverId);
    if (!f) out.set(r.driverId, (f = { deferrals: [], teamDays: new Set() }));
    if (r.deferral) f.deferrals.push(r.logDate);
    if (r.coDriverId) f.teamDays.add(r.logDate);
  }
  return out;
}

/**
 * Every listed driver's active duty-status and special-category events from `fromMs` to `toMs`,
 * plus each driver's last one of each type before `fromMs` (the status the range starts in):
 * grouped by driver, sorted by time then sequence. Outside a transaction the events come from the
 * in-memory copy of each driver whose highest sequence id is unchanged (hos.events-cache.ts,
 * decision 0098), so one query checks 2,000 drivers and only changed drivers are read again;
 * inside one (a transaction may see its own unfinished writes) they are read as readDutyEvents does.
 */
export async function dutyEventsOf(db: DbOrTx, orgId: string, driverIds: string[] | null, fromMs: number, toMs: number): Promise<Map<string, DutyEventFacts[]>> {
  // A Drizzle transaction has no $client: only a pool or the embedded database gets a cache.
  const client = (db as { $client?: object }).$client;
  if (!client) return readDutyEvents(db, orgId, driverIds, fromMs, toMs);
  const cache = eventsCacheOf(client);
  const versions = await db
    .select({ id: drivers.id, version: sql<number | null>`(select max(e.sequence_id) from hos_events e where e.driver_id = "drivers"."id")` })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), driverIds ? inArray(drivers.id, driverIds) : undefined));
  const stale: Array<{ id: string; version: number }> = [];
  for (const v of versions) {
    if (v.version === null) continue;
    const e = cache.get(v.id);
    if (!e || e.version !== Number(v.version) || e.from > fromMs) stale.push({ id: v.id, version: Number(v.version) });
  }
  // A day earlier than asked, so the log day before this one is answered from memory too.
  const loadFrom = fromMs - DAY_MS;
  for (let i = 0; i < stale.length; i += 1000) {
    const chunk = stale.slice(i, i + 1000);
    const read = await readDutyEvents(db, orgId, chunk.map((s) => s.id), loadFrom, null);
    for (const s of chunk) cache.set(s.id, packEvents(read.get(s.id) ?? [], s.version, loadFrom));
  }
  const out = new Map<string, DutyEventFacts[]>();
  for (const v of versions) {
    const e = v.version === null ? undefined : cache.get(v.id);
    if (!e) continue;
    const list = sliceEvents(e, fromMs, toMs);
    if (list.length) out.set(v.id, list);
  }
  return out;
}

/**
 * The plain read behind dutyEventsOf, in one query for all listed drivers (or the organization's):
 * events in [fromMs, toMs) (no end when toMs is null) and the last of each type before `fromMs`.
 */
export async function readDutyEvents(db: DbOrTx, orgId: string, driverIds: string[] | null, fromMs: number, toMs: number | null): Promise<Map<string, Array<DutyEventFacts & { seq: number }>>> {
  const from = new Date(fromMs);
  const who = driverIds ? inArray(hosEvents.driverId, driverIds) : isNotNull(hosEvents.driverId);
  const base = and(eq(hosEvents.organizationId, orgId), eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE), inArray(hosEvents.eventType, DUTY_TYPES), who);
  const cols = { driverId: hosEvents.driverId, eventType: hosEvents.eventType, eventCode: hosEvents.eventCode, eventTime: hosEvents.eventTime, sequenceId: hosEvents.sequenceId };
  const [inRange, before] = await Promise.all([
    db.select(cols).from(hosEvents).where(and(base, gte(hosEvents.eventTime, from), toMs === null ? undefined : lt(hosEvents.eventTime, new Date(toMs)))),
    db
      .selectDistinctOn([hosEvents.driverId, hosEvents.eventType], cols)
      .from(hosEvents)
      .where(and(base, lt(hosEvents.eventTime, from)))
      .orderBy(asc(hosEvents.driverId), asc(hosEvents.eventType), sql`${hosEvents.eventTime} desc`, sql`${hosEvents.sequenceId} desc`),
  ]);
  const out = new Map<string, Array<DutyEventFacts & { seq: number }>>();
  for (const r of [...before, ...inRange]) {
    if (!r.driverId) continue;
    let list = out.get(r.driverId);
    if (!list) out.set(r.driverId, (list = []));
    list.push({ eventType: r.eventType, eventCode: r.eventCode, at: r.eventTime.getTime(), seq: r.sequenceId });
  }
  for (const list of out.values()) list.sort((x, y) => x.at - y.at || x.seq - y.seq);
  return out;
}

/**
 * The log rows (one per driver per log day) for these driver days, created when missing, as a map
 * "driverId|date" -> log id. Writers call it for every day their records touch and readers for the
 * days they link to, so every day from a driver's first record on has an id the screens can open.
 */
export async function ensureLogDays(db: DbOrTx, orgId: string, days: Array<{ driverId: string; logDate: string }>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (days.length === 0) return out;
  const unique = [...new Map(days.map((d) => [`${d.driverId}|${d.logDate}`, d])).values()];
  for (let i = 0; i < unique.length; i += 1000) {
    const chunk = unique.slice(i, i + 1000);
    await db.insert(hosLogs).values(chunk.map((d) => ({ organizationId: orgId, driverId: d.driverId, logDate: d.logDate }))).onConflictDoNothing();
    const rows = await db
      .select({ id: hosLogs.id, driverId: hosLogs.driverId, logDate: hosLogs.logDate })
      .from(hosLogs)
      .where(and(eq(hosLogs.organizationId, orgId), inArray(hosLogs.driverId, [...new Set(chunk.map((d) => d.driverId))]), inArray(hosLogs.logDate, [...new Set(chunk.map((d) => d.logDate))])));
    for (const r of rows) out.set(`${r.driverId}|${r.logDate}`, r.id);
  }
  return out;
}

/** The next free sequence id of a driver's events (callers hold the driver row lock). */
export async function nextSequenceId(db: DbOrTx, driverId: string): Promise<number> {
  const [seq] = await db.select({ n: sql<number | null>`max(${hosEvents.sequenceId})` }).from(hosEvents).where(eq(hosEvents.driverId, driverId));
  return Number(seq?.n ?? 0) + 1;
}
