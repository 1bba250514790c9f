import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { HosOptions, RulesetId } from '@fleet/hos';
import { HOS_EVENT_TYPES, HOS_RECORD_STATUSES } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, driverSearchDoc, hosBorderCrossings, hosDriverVersions, hosEvents, hosLogs, organizations } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { likeTerm } from '../../http/paging.ts';
import { driverInGroup } from '../groups/index.ts';
import { getOrganizationSettings, readSettings } from '../organizations/index.ts';
import { extendEvents, hosMemoryOf, packEvents, sliceEvents, sliceFacts, windowPeriods, type DriverEvents, type HosMemory } from './hos.events-cache.ts';
import { dutyPeriods, type DutyEventFacts, type MsPeriod } from './hos.periods.ts';
import type { DeclarationFact, DriverHos, FleetDriver, LogFacts } from './hos.types.ts';
import { DAY_MS, logDatesAround } from './hos.time.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { declarationsOfDrivers } from './hos-declarations.repository.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';

const DUTY_TYPES = [HOS_EVENT_TYPES.DUTY_STATUS, HOS_EVENT_TYPES.SPECIAL_CATEGORY];

export type { DriverHos, FleetDriver, LogFacts } from './hos.types.ts';

export const driverHosColumns = {
  id: drivers.id,
  firstName: drivers.firstName,
  lastName: drivers.lastName,
  ruleset: sql<RulesetId>`${drivers.ruleset}`,
  homeTimeZone: drivers.homeTimeZone,
  shortHaul150: drivers.shortHaul150,
  sixteenHour: drivers.sixteenHour,
  oilfield: drivers.oilfield,
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
export const nonCdlShortHaul = (d: Pick<DriverHos, 'shortHaul150' | 'licenseClass'>): boolean =>
  d.shortHaul150 && d.licenseClass !== null && !isCdlClass(d.licenseClass);

/** Canada south of 60 (the rulesets with the C6 deferral and the C7 team split). */
export const isCanadian = (ruleset: RulesetId): boolean => ruleset === 'CA_SOUTH_CYCLE_1' || ruleset === 'CA_SOUTH_CYCLE_2';

/**
 * The engine's options for a driver: ruleset, zone, period start and the exemptions of the driver
 * record; P15 from the licence class (a non-CDL short-haul driver is not eligible for the 16-hour
 * exception, so it replaces it); the C6 deferrals declared on log rows; `team` when asked (C7).
 */
export function engineOptions(d: DriverHos, periodStart: string, facts?: LogFacts, team = false): HosOptions {
  const nonCdl = nonCdlShortHaul(d);
  const { cycleSwitches, adverseDriving, emergencies } = declarationOptions(facts?.declarations);
  return {
    ruleset: d.ruleset,
    timeZone: d.homeTimeZone,
    cycleDayStart: periodStart,
    exemptions: {
      shortHaul150: d.shortHaul150,
      sixteenHour: d.sixteenHour && !nonCdl,
      ...(nonCdl ? { nonCdlShortHaul: true } : {}),
      // §395.1(d): the engine applies it on the US property rulesets only.
      ...(d.oilfield ? { oilfield: true } : {}),
      // Adverse driving conditions the driver declared (395.1(b)(1); SOR/2005-313 s. 76(2) and (3)).
      ...(adverseDriving ? { adverseDriving } : {}),
    },
    ...(facts?.deferrals.length ? { deferrals: facts.deferrals.map((day) => ({ day })) } : {}),
    ...(team ? { team: true } : {}),
    // Canada's cycle switches (s. 29) the log declares; the engine ignores them on other rulesets.
    ...(cycleSwitches ? { cycleSwitches } : {}),
    // s. 76(1) emergencies; the engine applies them on Canadian rulesets only.
    ...(emergencies ? { emergencies } : {}),
  };
}

/**
 * The engine's options from the log's declarations (decisions 0314, 0315): the cycle switches
 * (s. 29; the engine applies them on Canadian rulesets only), the adverse driving conditions, each
 * claimed from its instant for the rest of the shift holding it (the engine extends a shift whose
 * claim starts by then and ends after the shift began), and the emergencies (s. 76(1), Canada only).
 */
export function declarationOptions(list: DeclarationFact[] | undefined): {
  cycleSwitches?: NonNullable<HosOptions['cycleSwitches']>;
  adverseDriving?: Array<{ start: string; end: string }>;
  emergencies?: Array<{ start: number; end: number }>;
} {
  if (!list?.length) return {};
  const cycleSwitches = list.flatMap((x) => (x.kind === 'CYCLE_SWITCH' && x.cycle ? [{ at: x.atMs, to: x.cycle }] : []));
  const adverseDriving = list.flatMap((x) =>
    x.kind === 'ADVERSE_DRIVING' ? [{ start: new Date(x.atMs).toISOString(), end: new Date(x.atMs + 1).toISOString() }] : [],
  );
  const emergencies = list.flatMap((x) => (x.kind === 'EMERGENCY' && x.untilMs !== null ? [{ start: x.atMs, end: x.untilMs }] : []));
  return {
    ...(cycleSwitches.length ? { cycleSwitches } : {}),
    ...(adverseDriving.length ? { adverseDriving } : {}),
    ...(emergencies.length ? { emergencies } : {}),
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
  // Border crossings (issue 72): all of a driver's, whatever the days asked (a crossing before the
  // range says which rules are in force at its start; a driver crosses a few times a week).
  const crossings = await db
    .select({ driverId: hosBorderCrossings.driverId, at: hosBorderCrossings.at, from: hosBorderCrossings.fromCountry, to: hosBorderCrossings.toCountry })
    .from(hosBorderCrossings)
    .where(
      and(
        eq(hosBorderCrossings.organizationId, orgId),
        isNull(hosBorderCrossings.removedAt),
        driverIds ? inArray(hosBorderCrossings.driverId, driverIds) : undefined,
      ),
    )
    .orderBy(asc(hosBorderCrossings.at), asc(hosBorderCrossings.createdAt));
  for (const c of crossings) {
    let f = out.get(c.driverId);
    if (!f) out.set(c.driverId, (f = { deferrals: [], teamDays: new Set() }));
    (f.crossings ??= []).push({ atMs: c.at.getTime(), from: c.from, to: c.to });
  }
  // Personal conveyance's distances (issue 72, decision 0319): Canada's 75 km a day.
  for (const x of await pcDistancesOf(db, orgId, driverIds, fromDate, toDate)) {
    let f = out.get(x.driverId);
    if (!f) out.set(x.driverId, (f = { deferrals: [], teamDays: new Set() }));
    (f.pcDistances ??= []).push({ startMs: x.startMs, endMs: x.endMs, km: x.km });
  }
  // Declarations (issue 72, decisions 0314/0315): all of a driver's, as the crossings (a few a month).
  for (const x of await declarationsOfDrivers(db, orgId, driverIds)) {
    let f = out.get(x.driverId);
    if (!f) out.set(x.driverId, (f = { deferrals: [], teamDays: new Set() }));
    (f.declarations ??= []).push({
      kind: x.kind,
      atMs: x.at.getTime(),
      untilMs: x.until ? x.until.getTime() : null,
      cycle: x.cycle === 1 || x.cycle === 2 ? x.cycle : null,
    });
  }
  return out;
}

/**
 * The personal-conveyance stretches of the log days `fromDate`..`toDate`: each active PC event
 * (special category, code 1) with the driver's next active duty-status or special-category event,
 * and the km the odometer moved between them (both readings on the same vehicle). PC events are a
 * few a week, so each finds its next event on the driver's index.
 */
export async function pcDistancesOf(
  db: DbOrTx,
  orgId: string,
  driverIds: string[] | null,
  fromDate: string,
  toDate: string,
): Promise<Array<{ driverId: string; startMs: number; endMs: number; km: number }>> {
  if (driverIds && driverIds.length === 0) return [];
  const rows = rowsOf<{ driver_id: string; start_at: Date | string; end_at: Date | string; km: number | string }>(
    await db.execute(sql`
      select s.driver_id, s.event_time as start_at, n.event_time as end_at, (n.odometer_m - s.odometer_m) / 1000.0 as km
      from hos_events s
      cross join lateral (
        select x.event_time, x.odometer_m, x.vehicle_id from hos_events x
        where x.organization_id = ${orgId} and x.driver_id = s.driver_id and x.record_status = ${HOS_RECORD_STATUSES.ACTIVE}
          and x.event_type in (${HOS_EVENT_TYPES.DUTY_STATUS}, ${HOS_EVENT_TYPES.SPECIAL_CATEGORY}) and x.event_time > s.event_time
        order by x.event_time limit 1
      ) n
      where s.organization_id = ${orgId} and s.log_date between ${fromDate} and ${toDate}
        and s.event_type = ${HOS_EVENT_TYPES.SPECIAL_CATEGORY} and s.event_code = 1 and s.record_status = ${HOS_RECORD_STATUSES.ACTIVE}
        and s.odometer_m is not null and n.odometer_m is not null and n.odometer_m >= s.odometer_m
        and n.vehicle_id is not distinct from s.vehicle_id
        ${
          driverIds
            ? sql`and s.driver_id in (${sql.join(
                driverIds.map((id) => sql`${id}`),
                sql`, `,
              )})`
            : sql``
        }
      order by s.event_time`),
  );
  return rows.map((r) => ({ driverId: r.driver_id, startMs: new Date(r.start_at).getTime(), endMs: new Date(r.end_at).getTime(), km: Number(r.km) }));
}

/**
 * The organization's HoS read state, in one statement: the carrier's period start, the version of its
 * drivers list (list_versions, decision 0083: any change to a driver row or a vehicle assignment moves
 * it) and the fingerprint of its drivers' HoS versions (sum and count of hos_driver_versions rows:
 * every commit that writes a driver's records raises one of them, so the sum only ever grows).
 */
export interface FleetState {
  periodStart: string;
  driversVersion: string;
  fingerprint: string;
}

/**
 * The columns of a FleetState, to add to a query that has `organizations` in its FROM clause. The
 * subqueries name the organization `org` (a parameter), not `organizations.id`: on Citus a reference
 * table correlated into a distributed one is refused ("complex joins"), a parameter routes to a shard.
 */
export const fleetStateColumnsOf = (org: SQL | string) => ({
  orgSettings: organizations.settings,
  driversVersion: sql<string | null>`(select version::text from list_versions where organization_id = ${org} and list = 'drivers')`,
  fingerprint: sql<string>`(select coalesce(sum(version), 0)::text || '/' || count(*) from hos_driver_versions where organization_id = ${org})`,
});

type FleetStateRow = { orgSettings: (typeof organizations.$inferSelect)['settings']; driversVersion: string | null; fingerprint: string };
export const fleetStateFrom = (row: FleetStateRow): FleetState => ({
  periodStart: readSettings(row.orgSettings).periodStartTime ?? '00:00',
  driversVersion: row.driversVersion ?? '0',
  fingerprint: row.fingerprint,
});

export async function fleetStateOf(db: DbOrTx, orgId: string): Promise<FleetState> {
  const [row] = await db.select(fleetStateColumnsOf(orgId)).from(organizations).where(eq(organizations.id, orgId));
  if (!row) throw notFound('Organization');
  return fleetStateFrom(row);
}

const fleetDriverColumns = { ...driverHosColumns, vehicle: { id: assets.id, unitNumber: assets.unitNumber, type: assets.type } };

/** Active drivers in name order (a one-driver read takes any status), with what the engine needs and their vehicle. */
function readFleetDrivers(db: DbOrTx, orgId: string, f: DriverFilter): Promise<FleetDriver[]> {
  return db
    .select(fleetDriverColumns)
    .from(drivers)
    .leftJoin(assets, and(eq(assets.currentDriverId, drivers.id), eq(assets.organizationId, drivers.organizationId)))
    .where(
      and(
        eq(drivers.organizationId, orgId),
        f.driverId ? eq(drivers.id, f.driverId) : eq(drivers.status, 'ACTIVE'),
        f.groupId ? driverInGroup(orgId, f.groupId, drivers.id) : undefined,
        f.search ? sql`${driverSearchDoc} like ${likeTerm(f.search)}` : undefined,
      ),
    )
    .orderBy(sql`lower(${drivers.lastName})`, sql`lower(${drivers.firstName})`, drivers.id) as Promise<FleetDriver[]>;
}

export interface DriverFilter {
  driverId?: string;
  groupId?: string;
  search?: string;
}

/**
 * The organization's active drivers (or one driver, a group, a search) in name order. Outside a
 * transaction the whole list comes from memory while the drivers list version is the one it was read
 * at; a group or a search then costs one query for the matching ids only.
 */
export async function fleetDriversOf(db: DbOrTx, orgId: string, state: FleetState, f: DriverFilter = {}): Promise<FleetDriver[]> {
  const client = (db as { $client?: object }).$client;
  if (!client || f.driverId) return readFleetDrivers(db, orgId, f);
  const memory = hosMemoryOf(client);
  let entry = memory.drivers.get(orgId);
  if (!entry || entry.version !== state.driversVersion) {
    // The version was read before the rows: a write in between makes the next request read again.
    entry = { version: state.driversVersion, rows: await readFleetDrivers(db, orgId, {}) };
    memory.drivers.set(orgId, entry);
  }
  if (!f.groupId && !f.search) return [...entry.rows];
  const ids = new Set(
    (
      await db
        .select({ id: drivers.id })
        .from(drivers)
        .where(
          and(
            eq(drivers.organizationId, orgId),
            eq(drivers.status, 'ACTIVE'),
            f.groupId ? driverInGroup(orgId, f.groupId, drivers.id) : undefined,
            f.search ? sql`${driverSearchDoc} like ${likeTerm(f.search)}` : undefined,
          ),
        )
    ).map((r) => r.id),
  );
  return entry.rows.filter((d) => ids.has(d.id));
}

/**
 * Drivers' records of one window [fromMs, toMs): their active duty events (the last of each type
 * before the window, then the window's), the duty periods they make, and their log facts. Built
 * by driverRecordsOf; slices and periods are made on demand, per driver asked for.
 */
export class DriverRecords {
  constructor(
    private readonly fromMs: number,
    private readonly toMs: number,
    /** In-memory entries (outside a transaction), or the plain read (inside one). */
    private readonly source: { entries: Map<string, DriverEvents> } | { plain: Map<string, DutyEventFacts[]> },
    private readonly facts: Map<string, LogFacts>,
  ) {}

  /** The driver's events of the window, sorted by time then sequence (empty without records). */
  eventsOf(driverId: string): DutyEventFacts[] {
    if ('plain' in this.source) return this.source.plain.get(driverId) ?? [];
    const e = this.source.entries.get(driverId);
    return e ? sliceEvents(e, this.fromMs, this.toMs) : [];
  }

  /** dutyPeriods(eventsOf(driverId), untilMs), for untilMs <= toMs; from memory without a new object per period. */
  periodsOf(driverId: string, untilMs: number): MsPeriod[] {
    if ('plain' in this.source) return dutyPeriods(this.eventsOf(driverId), untilMs);
    const e = this.source.entries.get(driverId);
    return e ? windowPeriods(e, this.fromMs, Math.min(untilMs, this.toMs)) : [];
  }

  factsOf(driverId: string): LogFacts | undefined {
    return this.facts.get(driverId);
  }
}

/**
 * Every listed driver's (all when null) records of [fromMs, toMs) (see DriverRecords): active
 * duty-status and special-category events, the periods they make, and the log facts (deferrals,
 * co-driver days) of the log days around the range. Outside a transaction they come from the
 * in-memory copy of each driver whose version is unchanged (hos.events-cache.ts, decisions
 * 0098-0099): when the organization's fingerprint is the one last seen no query is needed at all,
 * otherwise one reads the versions, and only changed drivers are read again. Inside a transaction
 * (which may see its own unfinished writes) they are read as readDutyEvents and logFactsOf do.
 */
export async function driverRecordsOf(
  db: DbOrTx,
  orgId: string,
  driverIds: string[] | null,
  fromMs: number,
  toMs: number,
  state?: FleetState,
): Promise<DriverRecords> {
  // A Drizzle transaction has no $client: only a pool or the embedded database gets a memory.
  const client = (db as { $client?: object }).$client;
  const [fromDate, toDate] = logDatesAround(fromMs, toMs);
  if (!client) {
    const [plain, facts] = await Promise.all([readDutyEvents(db, orgId, driverIds, fromMs, toMs), logFactsOf(db, orgId, driverIds, fromDate, toDate)]);
    return new DriverRecords(fromMs, toMs, { plain }, facts);
  }
  const memory = hosMemoryOf(client);
  const versions = await versionsOf(db, orgId, driverIds, state ?? (await fleetStateOf(db, orgId)), memory);
  const cache = memory.events;
  // Changed or missing drivers are read again from a day before the range; drivers whose memory
  // starts too late are extended backwards, a week further than asked (fleet screens step back a day
  // at a time: the daily list over the last two weeks reads each older day once, not every time).
  const stale: Array<{ id: string; version: number }> = [];
  const extend = new Map<number, Array<{ id: string; entry: DriverEvents }>>();
  for (const [id, version] of versions) {
    const e = cache.get(id);
    if (!e || e.version !== version) stale.push({ id, version });
    else if (e.from > fromMs) {
      const group = extend.get(e.from);
      if (group) group.push({ id, entry: e });
      else extend.set(e.from, [{ id, entry: e }]);
    }
  }
  const loadFrom = fromMs - DAY_MS;
  // Entries are held here as well: the cache may drop one while the caller awaits something else.
  const entries = new Map<string, DriverEvents>();
  const load = async (ids: string[], from: number, to: number | null) => {
    const [factsFrom] = logDatesAround(from, from);
    const factsTo = to === null ? '9999-12-31' : logDatesAround(to, to)[1];
    const [read, facts] = await Promise.all([readDutyEvents(db, orgId, ids, from, to), logFactsOf(db, orgId, ids, factsFrom, factsTo)]);
    return { read, facts };
  };
  for (let i = 0; i < stale.length; i += 1000) {
    const chunk = stale.slice(i, i + 1000);
    const { read, facts } = await load(
      chunk.map((s) => s.id),
      loadFrom,
      null,
    );
    for (const s of chunk) {
      const e = packEvents(read.get(s.id) ?? [], s.version, loadFrom, facts.get(s.id));
      cache.set(s.id, e);
      entries.set(s.id, e);
    }
  }
  const extendFrom = loadFrom - 7 * DAY_MS;
  for (const [oldFrom, group] of extend) {
    for (let i = 0; i < group.length; i += 1000) {
      const chunk = group.slice(i, i + 1000);
      const { read, facts } = await load(
        chunk.map((c) => c.id),
        extendFrom,
        oldFrom,
      );
      for (const { id, entry } of chunk) {
        const e = extendEvents(entry, read.get(id) ?? [], extendFrom, facts.get(id));
        cache.set(id, e);
        entries.set(id, e);
      }
    }
  }
  const facts = new Map<string, LogFacts>();
  for (const id of versions.keys()) {
    const e = entries.get(id) ?? cache.get(id);
    if (!e) continue;
    entries.set(id, e);
    const f = sliceFacts(e.facts, fromDate, toDate);
    if (f) facts.set(id, f);
  }
  return new DriverRecords(fromMs, toMs, { entries }, facts);
}

/** The listed drivers' (all when null) HoS versions; drivers without records have none. */
async function versionsOf(db: DbOrTx, orgId: string, driverIds: string[] | null, state: FleetState, memory: HosMemory): Promise<Map<string, number>> {
  let org = memory.orgVersions.get(orgId);
  if (!org || org.fingerprint !== state.fingerprint) {
    if (driverIds && driverIds.length <= 50) {
      // A driver's own screens: their rows only (the organization's map is refreshed by fleet reads).
      const rows = await db
        .select({ id: hosDriverVersions.driverId, version: hosDriverVersions.version })
        .from(hosDriverVersions)
        .where(and(eq(hosDriverVersions.organizationId, orgId), inArray(hosDriverVersions.driverId, driverIds)));
      return new Map(rows.map((r) => [r.id, Number(r.version)]));
    }
    // The fingerprint was read before the versions: a commit in between changes the next fingerprint.
    const rows = await db
      .select({ id: hosDriverVersions.driverId, version: hosDriverVersions.version })
      .from(hosDriverVersions)
      .where(eq(hosDriverVersions.organizationId, orgId));
    org = { fingerprint: state.fingerprint, versions: new Map(rows.map((r) => [r.id, Number(r.version)])) };
    memory.orgVersions.set(orgId, org);
  }
  if (!driverIds) return org.versions;
  const out = new Map<string, number>();
  for (const id of driverIds) {
    const v = org.versions.get(id);
    if (v !== undefined) out.set(id, v);
  }
  return out;
}

/** Active duty events only (see driverRecordsOf), as a map of the drivers that have some. */
export async function dutyEventsOf(
  db: DbOrTx,
  orgId: string,
  driverIds: string[] | null,
  fromMs: number,
  toMs: number,
): Promise<Map<string, DutyEventFacts[]>> {
  const records = await driverRecordsOf(db, orgId, driverIds, fromMs, toMs);
  const ids = driverIds ?? (await db.select({ id: drivers.id }).from(drivers).where(eq(drivers.organizationId, orgId))).map((d) => d.id);
  const out = new Map<string, DutyEventFacts[]>();
  for (const id of ids) {
    const list = records.eventsOf(id);
    if (list.length) out.set(id, list);
  }
  return out;
}

/**
 * The plain read behind driverRecordsOf, one statement for all listed drivers (or the organization's):
 * events in [fromMs, toMs) (no end when toMs is null) and, per driver, the last event of each type
 * before `fromMs` (the status and special category the range starts in), each found through the
 * (driver, type, time) index however long the history behind it.
 */
export async function readDutyEvents(
  db: DbOrTx,
  orgId: string,
  driverIds: string[] | null,
  fromMs: number,
  toMs: number | null,
): Promise<Map<string, Array<DutyEventFacts & { seq: number }>>> {
  if (driverIds && driverIds.length === 0) return new Map();
  const ids = driverIds ? sql`${`{${driverIds.join(',')}}`}::uuid[]` : null;
  const who = ids ? sql`e.driver_id = any(${ids})` : sql`e.driver_id is not null`;
  const listed = ids ? sql`unnest(${ids})` : sql`(select id from drivers where organization_id = ${orgId}::uuid)`;
  const from = fromMs / 1000;
  const cols = sql`e.driver_id, e.event_type, e.event_code, (extract(epoch from e.event_time) * 1000)::float8 as at, e.sequence_id`;
  const rows = rowsOf<{ driver_id: string; event_type: number; event_code: number; at: number | string; sequence_id: number }>(
    await db.execute(sql`
      select ${cols} from hos_events e
      where e.organization_id = ${orgId}::uuid and e.record_status = ${HOS_RECORD_STATUSES.ACTIVE} and e.event_type in (${DUTY_TYPES[0]}, ${DUTY_TYPES[1]}) and ${who}
        and e.event_time >= to_timestamp(${from}) ${toMs === null ? sql`` : sql`and e.event_time < to_timestamp(${toMs / 1000})`}
      union all
      select l.* from ${listed} as d(id) cross join (values (${DUTY_TYPES[0]}::int2), (${DUTY_TYPES[1]}::int2)) as t(type)
      cross join lateral (
        select ${cols} from hos_events e
        where e.driver_id = d.id and e.event_type = t.type and e.record_status = ${HOS_RECORD_STATUSES.ACTIVE} and e.event_time < to_timestamp(${from}) and e.organization_id = ${orgId}::uuid
        order by e.event_time desc, e.sequence_id desc limit 1) l`),
  );
  const out = new Map<string, Array<DutyEventFacts & { seq: number }>>();
  for (const r of rows) {
    let list = out.get(r.driver_id);
    if (!list) out.set(r.driver_id, (list = []));
    list.push({ eventType: Number(r.event_type), eventCode: Number(r.event_code), at: Math.round(Number(r.at)), seq: Number(r.sequence_id) });
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
  const read = async (chunk: typeof unique) => {
    const rows = await db
      .select({ id: hosLogs.id, driverId: hosLogs.driverId, logDate: hosLogs.logDate })
      .from(hosLogs)
      .where(
        and(
          eq(hosLogs.organizationId, orgId),
          inArray(hosLogs.driverId, [...new Set(chunk.map((d) => d.driverId))]),
          inArray(hosLogs.logDate, [...new Set(chunk.map((d) => d.logDate))]),
        ),
      );
    for (const r of rows) out.set(`${r.driverId}|${r.logDate}`, r.id);
  };
  for (let i = 0; i < unique.length; i += 1000) {
    const chunk = unique.slice(i, i + 1000);
    // Read first: the rows usually exist, and a read writes nothing (no WAL, no row locks).
    await read(chunk);
    const missing = chunk.filter((d) => !out.has(`${d.driverId}|${d.logDate}`));
    if (missing.length === 0) continue;
    await db
      .insert(hosLogs)
      .values(missing.map((d) => ({ organizationId: orgId, driverId: d.driverId, logDate: d.logDate })))
      .onConflictDoNothing();
    await notifyHosChange(db, orgId);
    await read(missing);
  }
  return out;
}

/** The next free sequence id of a driver's events (callers hold the driver row lock). */
export async function nextSequenceId(db: DbOrTx, driverId: string): Promise<number> {
  const [seq] = await db
    .select({ n: sql<number | null>`max(${hosEvents.sequenceId})` })
    .from(hosEvents)
    .where(eq(hosEvents.driverId, driverId));
  return Number(seq?.n ?? 0) + 1;
}

/** The latest active event of a type at or before `at` (the status or special category in force then). */
export async function inForceAt(tx: DbOrTx, driverId: string, eventType: number, at: Date) {
  const [row] = await tx
    .select()
    .from(hosEvents)
    .where(
      and(
        eq(hosEvents.driverId, driverId),
        eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE),
        eq(hosEvents.eventType, eventType),
        lte(hosEvents.eventTime, at),
      ),
    )
    .orderBy(desc(hosEvents.eventTime), desc(hosEvents.sequenceId))
    .limit(1);
  return row;
}
