import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  DEFAULT_SAFETY_SETTINGS,
  SAFETY_STATUSES_OUT_OF_SCORE,
  SPEEDING_BANDS,
  safetySettingsSchema,
  type SafetyEventHistory,
  type SafetyEventType,
  type SafetyGroupBy,
  type SafetySettings,
  type SpeedingBand,
  type safetyEventListQuery,
} from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { assets, drivers, roles, safetyEvents, safetyMarks, safetySettings, users } from '../../db/schema/index.ts';
import { likePattern, orderBy } from '../../http/paging.ts';
import type { ScoredEvent } from './score.ts';
import type { EventDraft, SafetyFix } from './safety-machine.ts';
import { SIGNAL_KEYS, signalsOf } from './signals.ts';

// The safety follower's queries (decision 0194): fixes read back for a replay, events upserted by their
// key (a review survives), marks for the start-up catch-up, and the organization's settings.

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (v: number | string) => Math.round(Number(v));

/** The organization's settings, the defaults filled in for anything a stored copy lacks. */
export async function readSettings(db: DbOrTx, orgId: string): Promise<SafetySettings> {
  const [r] = rowsOf<{ settings: SafetySettings | string }>(await db.execute(sql`select settings from safety_settings where organization_id = ${orgId}`));
  if (!r) return DEFAULT_SAFETY_SETTINGS;
  const stored = typeof r.settings === 'string' ? (JSON.parse(r.settings) as SafetySettings) : r.settings;
  const merged = { ...DEFAULT_SAFETY_SETTINGS, ...stored, weights: { ...DEFAULT_SAFETY_SETTINGS.weights, ...stored.weights } };
  const ok = safetySettingsSchema.safeParse(merged);
  return ok.success ? ok.data : DEFAULT_SAFETY_SETTINGS;
}

export interface StoredFix extends SafetyFix {
  protocol: string;
}

/** The safety signals of the positions row `p` as one JSON object. */
const SIGNALS = sql.raw(`jsonb_strip_nulls(jsonb_build_object(${SIGNAL_KEYS.map((k) => `'${k}', p.attributes->'${k}'`).join(', ')}))`);
/** A positions row `p` as the JSON array `storedFixOf` reads (a fix with its protocol and safety signals). */
export const STORED_FIX_TUPLE = sql`json_build_array(extract(epoch from p.fix_time)::float8 * 1000, p.latitude, p.longitude, p.speed, p.ignition, p.driver_id, p.protocol, ${SIGNALS})`;

/**
 * A vehicle's stored fixes from `fromMs` on, in fix-time order, with their safety signals, and
 * whether it has any fix before `fromMs` (a replay looking further back finds nothing new without one).
 */
export async function readFixes(db: DbOrTx, orgId: string, assetId: string, fromMs: number): Promise<{ fixes: StoredFix[]; older: boolean }> {
  const from = iso(fromMs);
  const [r] = rowsOf<{ j: string | null; older: boolean }>(
    await db.execute(sql`select json_agg(${STORED_FIX_TUPLE} order by p.fix_time)::text as j,
        exists (select 1 from positions o where o.organization_id = ${orgId} and o.asset_id = ${assetId} and o.fix_time < ${from}::timestamptz) as older
      from positions p where p.organization_id = ${orgId} and p.asset_id = ${assetId} and p.fix_time >= ${from}::timestamptz`),
  );
  const fixes = r?.j ? (JSON.parse(r.j) as unknown[][]).map(storedFixOf) : [];
  return { fixes, older: r?.older === true };
}

/**
 * `readFixes` for several vehicles in one statement, each from its own `fromMs`. The organization is
 * named in every subquery, so Citus routes the whole to its shard.
 */
export async function readFixesMany(
  db: DbOrTx,
  orgId: string,
  asks: ReadonlyArray<{ assetId: string; fromMs: number }>,
): Promise<Map<string, { fixes: StoredFix[]; older: boolean }>> {
  const out = new Map<string, { fixes: StoredFix[]; older: boolean }>(asks.map((a) => [a.assetId, { fixes: [], older: false }]));
  if (asks.length === 0) return out;
  // One vehicle (the embedded database's way): its id as a value the planner sees (trips-stops.service.ts's recomputeReads says why).
  if (asks.length === 1) return out.set(asks[0]!.assetId, await readFixes(db, orgId, asks[0]!.assetId, asks[0]!.fromMs));
  const keys = JSON.stringify(asks.map((a) => ({ a: a.assetId, f: iso(a.fromMs) })));
  const rows = rowsOf<{ v: string; j: string | null; older: boolean }>(
    await db.execute(sql`select k.a as v,
        (select json_agg(${STORED_FIX_TUPLE} order by p.fix_time) from positions p where p.organization_id = ${orgId} and p.asset_id = k.a and p.fix_time >= k.f)::text as j,
        exists (select 1 from positions o where o.organization_id = ${orgId} and o.asset_id = k.a and o.fix_time < k.f) as older
      from json_to_recordset(${keys}::json) as k(a uuid, f timestamptz)`),
  );
  for (const r of rows)
    out.set(r.v, { fixes: r.j ? (JSON.parse(r.j) as unknown[][]).map(storedFixOf) : [], older: r.older === true || String(r.older) === 'true' });
  return out;
}

/** A fix read back as STORED_FIX_TUPLE built it. */
export function storedFixOf(tuple: unknown[]): StoredFix {
  const [t, lat, lon, speed, ignition, driverId, protocol, attrs] = tuple as [
    number,
    number,
    number,
    number | null,
    boolean | null,
    string | null,
    string,
    Record<string, unknown>,
  ];
  const s = signalsOf(attrs, protocol === 'traccar');
  return { t: Math.round(t), lat, lon, speed, ignition, driverId, protocol, signals: s.signals, idling: s.idling, fuelUsedL: s.fuelUsedL };
}

/** The fixes around an event (its trace). */
export async function readTrace(
  db: DbOrTx,
  orgId: string,
  assetId: string,
  fromMs: number,
  toMs: number,
): Promise<Array<{ t: number; lat: number; lon: number; speed: number | null }>> {
  const rows = rowsOf<{ t: number | string; latitude: number; longitude: number; speed: number | null }>(
    await db.execute(sql`select extract(epoch from fix_time)::float8 * 1000 as t, latitude, longitude, speed from positions
      where organization_id = ${orgId} and asset_id = ${assetId} and fix_time >= ${iso(fromMs)}::timestamptz and fix_time <= ${iso(toMs)}::timestamptz order by fix_time limit 2000`),
  );
  return rows.map((r) => ({ t: ms(r.t), lat: Number(r.latitude), lon: Number(r.longitude), speed: r.speed === null ? null : Number(r.speed) }));
}

export interface WrittenEvent {
  id: string;
  assetId: string;
  inserted: boolean;
  draft: EventDraft;
}

/** Events an upsert statement carries at most (20 parameters each). */
const EVENTS_PER_STATEMENT = 500;

/**
 * Upserts events by their key: derived fields follow the fixes, the review (status, coach, notes)
 * stays. A multi-row VALUES naming the organization in every row: on Citus one task on its shard
 * (an INSERT … SELECT from a JSON document went through the coordinator and could not be planned
 * with the parameters of its DO UPDATE), and a round's events are few. The start comes back as an
 * interval from the epoch: Citus takes only immutable functions in RETURNING, and extract from a
 * timestamptz is not.
 */
export async function upsertEvents(db: DbOrTx, orgId: string, unordered: ReadonlyArray<{ assetId: string; draft: EventDraft }>): Promise<WrittenEvent[]> {
  if (unordered.length === 0) return [];
  // In key order: a statement locks its rows in the order of its VALUES, and two instances writing
  // the same vehicles' events in two orders deadlocked (safety-lock-order.test.ts).
  const events = [...unordered].sort(byEventKey);
  const updatedAt = new Date().toISOString();
  const rows: Array<{ id: string; asset_id: string; type: string; source: string; t: number | string; inserted: boolean }> = [];
  for (let i = 0; i < events.length; i += EVENTS_PER_STATEMENT) {
    const values = events.slice(i, i + EVENTS_PER_STATEMENT).map(
      ({ assetId, draft: d }) =>
        sql`(${orgId}::uuid, ${assetId}::uuid, ${d.driverId}::uuid, ${d.type}, ${d.source}, ${d.severity}, ${iso(d.startedAt)}::timestamptz, ${iso(d.endedAt)}::timestamptz,
          ${d.lat}::float8, ${d.lon}::float8, ${d.speedBeforeKph}::real, ${d.speedAfterKph}::real, ${d.maxSpeedKph}::real, ${d.limitKph}::real, ${d.limitSource}::text, ${d.heldSpeedKph}::real,
          ${d.band}::text, ${d.bandSeconds === null ? null : JSON.stringify(d.bandSeconds)}::jsonb, ${d.strengthMps2}::real, ${d.fuelBurnedL}::real, ${d.open}::boolean)`,
    );
    rows.push(
      ...rowsOf<(typeof rows)[number]>(
        await db.execute(sql`insert into safety_events (organization_id, asset_id, driver_id, type, source, severity, started_at, ended_at, latitude, longitude,
            speed_before_kph, speed_after_kph, max_speed_kph, limit_kph, limit_source, held_speed_kph, band, band_seconds, strength_mps2, fuel_burned_l, open)
          values ${sql.join(values, sql`, `)}
          on conflict (organization_id, asset_id, type, source, started_at) do update set
            driver_id = excluded.driver_id, severity = excluded.severity, ended_at = excluded.ended_at, latitude = excluded.latitude, longitude = excluded.longitude,
            speed_before_kph = excluded.speed_before_kph, speed_after_kph = excluded.speed_after_kph, max_speed_kph = excluded.max_speed_kph,
            limit_kph = excluded.limit_kph, limit_source = excluded.limit_source, held_speed_kph = excluded.held_speed_kph, band = excluded.band, band_seconds = excluded.band_seconds,
            strength_mps2 = excluded.strength_mps2, fuel_burned_l = excluded.fuel_burned_l, open = excluded.open,
            -- Found again the same (a restart's catch-up): the event is not touched (decision 0238).
            updated_at = case when (${sql.raw(EVENT_VALUES.map((c) => `safety_events.${c}`).join(', '))}) is not distinct from (${sql.raw(EVENT_VALUES.map((c) => `excluded.${c}`).join(', '))})
              then safety_events.updated_at else ${updatedAt}::timestamptz end
          returning id, asset_id, type, source, extract(epoch from started_at - to_timestamp(0))::float8 * 1000 as t, (xmax = 0) as inserted`),
      ),
    );
  }
  // In the caller's order (its webhooks follow it), not the statement's.
  const byKey = new Map(rows.map((r) => [`${r.asset_id}|${r.type}|${r.source}|${ms(r.t)}`, r]));
  return unordered.flatMap((e) => {
    const r = byKey.get(`${e.assetId}|${e.draft.type}|${e.draft.source}|${e.draft.startedAt}`);
    return r ? [{ id: r.id, assetId: e.assetId, inserted: r.inserted === true || String(r.inserted) === 'true', draft: e.draft }] : [];
  });
}

/** The values an upsert sets: unchanged, the event keeps its updated_at. */
const EVENT_VALUES = [
  'driver_id',
  'severity',
  'ended_at',
  'latitude',
  'longitude',
  'speed_before_kph',
  'speed_after_kph',
  'max_speed_kph',
  'limit_kph',
  'limit_source',
  'held_speed_kph',
  'band',
  'band_seconds',
  'strength_mps2',
  'fuel_burned_l',
  'open',
];

/** The conflict key's order after the organization (one here): vehicle, type, source, start. */
function byEventKey(a: { assetId: string; draft: EventDraft }, b: { assetId: string; draft: EventDraft }): number {
  if (a.assetId !== b.assetId) return a.assetId < b.assetId ? -1 : 1;
  if (a.draft.type !== b.draft.type) return a.draft.type < b.draft.type ? -1 : 1;
  if (a.draft.source !== b.draft.source) return a.draft.source < b.draft.source ? -1 : 1;
  return a.draft.startedAt - b.draft.startedAt;
}

/**
 * A replay's result for several vehicles of one organization: each vehicle's events after its cut (and
 * GPS-estimated ones starting at it, whose central difference the replay recomputed) become exactly its
 * drafts; those no longer made are deleted (one delete for all of them), then every draft is upserted.
 */
export async function replaceEventsMany(
  db: DbOrTx,
  orgId: string,
  replays: ReadonlyArray<{ assetId: string; cutMs: number; drafts: readonly EventDraft[] }>,
): Promise<WrittenEvent[]> {
  if (replays.length === 0) return [];
  const cuts = JSON.stringify(replays.map((r) => ({ asset_id: r.assetId, cut: Number.isFinite(r.cutMs) ? iso(r.cutMs) : iso(0) })));
  const keep = JSON.stringify(
    replays.flatMap((r) => r.drafts.map((d) => ({ asset_id: r.assetId, type: d.type, source: d.source, started_at: iso(d.startedAt) }))),
  );
  const ids = `{${replays.map((r) => r.assetId).join(',')}}`;
  // The vehicles named (the index on organization and vehicle), then each one's own cut.
  await db.execute(sql`delete from safety_events e where e.organization_id = ${orgId} and e.asset_id = any(${ids}::uuid[])
    and exists (select 1 from json_to_recordset(${cuts}::json) as c(asset_id uuid, cut timestamptz)
      where c.asset_id = e.asset_id and (e.started_at > c.cut or (e.source = 'GPS_ESTIMATED' and e.started_at = c.cut)))
    and not exists (select 1 from json_to_recordset(${keep}::json) as k(asset_id uuid, type text, source text, started_at timestamptz)
      where k.asset_id = e.asset_id and k.type = e.type and k.source = e.source and k.started_at = e.started_at)`);
  return upsertEvents(
    db,
    orgId,
    replays.flatMap((r) => r.drafts.map((draft) => ({ assetId: r.assetId, draft }))),
  );
}

export async function writeMarks(db: DbOrTx, orgId: string, marks: ReadonlyMap<string, number>): Promise<void> {
  if (marks.size === 0) return;
  // VALUES naming the organization: Citus routes it to its shard (an INSERT … SELECT from a JSON
  // document went through the coordinator, a round of every organization every second). In vehicle
  // order, so two instances writing the same vehicles' marks lock them in the same order.
  const rows = [...marks]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([assetId, t]) => ({ organizationId: orgId, assetId, coveredUntil: new Date(t) }));
  for (let i = 0; i < rows.length; i += MARKS_PER_STATEMENT) {
    await db
      .insert(safetyMarks)
      .values(rows.slice(i, i + MARKS_PER_STATEMENT))
      .onConflictDoUpdate({
        target: [safetyMarks.organizationId, safetyMarks.assetId],
        set: { coveredUntil: sql`greatest(${safetyMarks.coveredUntil}, excluded.covered_until)` },
      });
  }
}

/** Marks an upsert writes at most (3 parameters each). */
const MARKS_PER_STATEMENT = 5000;

/** Vehicles whose newest fix is past their mark (null: never worked). */
export async function vehiclesBehindMarks(db: DbOrTx): Promise<Array<{ assetId: string; orgId: string; mark: number | null }>> {
  const rows = rowsOf<{ asset_id: string; organization_id: string; covered: number | string | null }>(
    await db.execute(sql`select lp.asset_id, lp.organization_id, extract(epoch from m.covered_until) * 1000 as covered
      from latest_positions lp left join safety_marks m on m.asset_id = lp.asset_id and m.organization_id = lp.organization_id
      where m.covered_until is null or m.covered_until < lp.fix_time`),
  );
  return rows.map((r) => ({ assetId: r.asset_id, orgId: r.organization_id, mark: r.covered === null ? null : ms(r.covered) }));
}

/** The organization's yards (idling there is left out when the settings say so) and its vehicles' names. */
export async function readYards(db: DbOrTx, orgId: string): Promise<Array<{ id: string; geometry: unknown; radius_m: number | null }>> {
  return rowsOf(await db.execute(sql`select id, geometry, radius_m from places where organization_id = ${orgId} and category = 'YARD'`));
}

// ---------------------------------------------------------------------------------------------------
// The office's reads and writes (decision 0255): the inbox, an event and its review, the scores'
// totals, the settings. safety.service.ts holds the rules and the wording; these hold the statements.

type ListQuery = z.output<typeof safetyEventListQuery>;
type EventRow = typeof safetyEvents.$inferSelect;

/** An event with the names the office shows beside it (vehicle, driver, coach). */
export interface Named {
  row: EventRow;
  assetName: string | null;
  driverFirst: string | null;
  driverLast: string | null;
  coachFirst: string | null;
  coachLast: string | null;
  coachEmail: string | null;
}

const SEVERITY_RANK = sql`case ${safetyEvents.severity} when 'CRITICAL' then 4 when 'HIGH' then 3 when 'MEDIUM' then 2 else 1 end`;

const coach = sql`coach`;
const selection = {
  row: safetyEvents,
  assetName: assets.unitNumber,
  driverFirst: drivers.firstName,
  driverLast: drivers.lastName,
  coachFirst: sql<string | null>`${coach}.first_name`,
  coachLast: sql<string | null>`${coach}.last_name`,
  coachEmail: sql<string | null>`${coach}.email`,
};

function named(db: DbOrTx) {
  return db
    .select(selection)
    .from(safetyEvents)
    .leftJoin(assets, and(eq(assets.id, safetyEvents.assetId), eq(assets.organizationId, safetyEvents.organizationId)))
    .leftJoin(drivers, and(eq(drivers.id, safetyEvents.driverId), eq(drivers.organizationId, safetyEvents.organizationId)))
    .leftJoin(sql`users as coach`, sql`coach.id = ${safetyEvents.coachId} and coach.organization_id = ${safetyEvents.organizationId}`);
}

function groupFilter(orgId: string, groupId: string): SQL {
  return sql`(${safetyEvents.assetId} in (select asset_id from group_assets where organization_id = ${orgId} and group_id = ${groupId})
    or ${safetyEvents.driverId} in (select member_id from group_members where organization_id = ${orgId} and group_id = ${groupId} and member_type = 'DRIVER'))`;
}

const SORTS = {
  severity: SEVERITY_RANK,
  startedAt: safetyEvents.startedAt,
  type: safetyEvents.type,
  status: safetyEvents.status,
  durationS: sql`${safetyEvents.endedAt} - ${safetyEvents.startedAt}`,
};

function listFilters(orgId: string, q: Omit<ListQuery, 'page' | 'size' | 'sort'>, driverId?: string): SQL | undefined {
  return and(
    eq(safetyEvents.organizationId, orgId),
    q.from ? sql`${safetyEvents.startedAt} >= ${q.from}::timestamptz` : undefined,
    q.to ? sql`${safetyEvents.startedAt} < ${q.to}::timestamptz` : undefined,
    (driverId ?? q.driverId) ? eq(safetyEvents.driverId, (driverId ?? q.driverId)!) : undefined,
    q.assetId ? eq(safetyEvents.assetId, q.assetId) : undefined,
    q.groupId ? groupFilter(orgId, q.groupId) : undefined,
    q.type?.length
      ? sql`${safetyEvents.type} in (${sql.join(
          q.type.map((t) => sql`${t}`),
          sql`, `,
        )})`
      : undefined,
    q.status?.length
      ? sql`${safetyEvents.status} in (${sql.join(
          q.status.map((t) => sql`${t}`),
          sql`, `,
        )})`
      : undefined,
    q.severity?.length
      ? sql`${safetyEvents.severity} in (${sql.join(
          q.severity.map((t) => sql`${t}`),
          sql`, `,
        )})`
      : undefined,
    q.search
      ? sql`(${assets.unitNumber} ilike ${likePattern(q.search)} or (${drivers.firstName} || ' ' || ${drivers.lastName}) ilike ${likePattern(q.search)})`
      : undefined,
  );
}

/** A page of the organization's events and how many match (two statements), severity first then newest unless `sort` says otherwise. */
export async function readEventPage(db: DbOrTx, orgId: string, q: ListQuery): Promise<{ total: number; rows: Named[] }> {
  const where = listFilters(orgId, q);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(safetyEvents)
    .leftJoin(assets, and(eq(assets.id, safetyEvents.assetId), eq(assets.organizationId, safetyEvents.organizationId)))
    .leftJoin(drivers, and(eq(drivers.id, safetyEvents.driverId), eq(drivers.organizationId, safetyEvents.organizationId)))
    .where(where);
  const rows = await named(db)
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, sql`${SEVERITY_RANK} desc, ${safetyEvents.startedAt} desc`, sql`${safetyEvents.id}`))
    .limit(q.size)
    .offset(q.page * q.size);
  return { total: Number(total?.n ?? 0), rows };
}

/** One event of the organization with its names. */
export async function readNamedEvent(db: DbOrTx, orgId: string, eventId: string): Promise<Named | undefined> {
  const [r] = await named(db).where(and(eq(safetyEvents.organizationId, orgId), eq(safetyEvents.id, eventId)));
  return r;
}

/** The organization's events among `ids`, with their names. */
export async function readNamedEvents(db: DbOrTx, orgId: string, ids: readonly string[]): Promise<Named[]> {
  return named(db).where(
    and(
      eq(safetyEvents.organizationId, orgId),
      sql`${safetyEvents.id} in (${sql.join(
        ids.map((x) => sql`${x}::uuid`),
        sql`, `,
      )})`,
    ),
  );
}

/** A driver's events in the period but those dismissed: coaching asked first, then newest (200 at most). */
export async function readDriverEvents(db: DbOrTx, orgId: string, driverId: string, from: string, to: string): Promise<Named[]> {
  return named(db)
    .where(
      and(
        eq(safetyEvents.organizationId, orgId),
        eq(safetyEvents.driverId, driverId),
        sql`${safetyEvents.startedAt} >= ${from}::timestamptz`,
        sql`${safetyEvents.startedAt} < ${to}::timestamptz`,
        sql`${safetyEvents.status} <> 'DISMISSED'`,
      ),
    )
    .orderBy(sql`(${safetyEvents.status} = 'NEEDS_COACHING') desc, ${safetyEvents.startedAt} desc`)
    .limit(200);
}

/** A user's name parts (any organization: the id comes from the signed-in actor). */
export async function readUserNameParts(db: DbOrTx, userId: string): Promise<{ f: string | null; l: string | null; e: string } | undefined> {
  const [u] = await db.select({ f: users.firstName, l: users.lastName, e: users.email }).from(users).where(eq(users.id, userId));
  return u;
}

/**
 * Who may coach (issue 66): an active user holding SAFETY_UPDATE, as the sign-in reads a role (an
 * administrator holds every code, the built-in Driver role none of the office's). Joined with roles.
 */
const mayCoach = sql`${users.status} = 'ACTIVE' and (${users.role} = 'ADMIN' or (${roles.systemRole} is distinct from 'DRIVER' and 'SAFETY_UPDATE' = any(${roles.permissions})))`;

/** The organization's users who may coach, by last name, first name, e-mail. */
export async function readCoaches(db: DbOrTx, orgId: string): Promise<Array<{ id: string; first: string | null; last: string | null; email: string }>> {
  return db
    .select({ id: users.id, first: users.firstName, last: users.lastName, email: users.email })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.organizationId, orgId), mayCoach))
    .orderBy(users.lastName, users.firstName, users.email);
}

/** The user `coachId` when they are the organization's and may coach. */
export async function findCoach(db: DbOrTx, orgId: string, coachId: string): Promise<{ id: string } | undefined> {
  const [c] = await db
    .select({ id: users.id })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.id, coachId), eq(users.organizationId, orgId), mayCoach));
  return c;
}

/** What a review, an acknowledgement or a dispute sets on an event (its history entry is appended). */
export type EventChange = Partial<Pick<EventRow, 'status' | 'note' | 'coachId' | 'dueAt' | 'acknowledgedAt' | 'disputeNote' | 'disputedAt'>> & {
  updatedAt: Date;
};

/** Sets `change` on the organization's event and appends `entry` to its history. */
export async function updateEvent(db: DbOrTx, orgId: string, eventId: string, change: EventChange, entry: SafetyEventHistory): Promise<void> {
  const { updatedAt, ...values } = change;
  await db
    .update(safetyEvents)
    .set({ ...values, history: sql`${safetyEvents.history} || ${JSON.stringify([entry])}::jsonb`, updatedAt })
    .where(and(eq(safetyEvents.organizationId, orgId), eq(safetyEvents.id, eventId)));
}

/** The driver record of a user in the organization. */
export async function readDriverOfUser(db: DbOrTx, orgId: string, userId: string): Promise<{ id: string; f: string; l: string } | undefined> {
  const [d] = await db
    .select({ id: drivers.id, f: drivers.firstName, l: drivers.lastName })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.userId, userId)));
  return d;
}

const DAY = 86_400_000;
const subjectKey = (groupBy: SafetyGroupBy) => (groupBy === 'driver' ? sql.raw('driver_id') : sql.raw('asset_id'));

/**
 * Each driver's (or vehicle's) distance (km) and driving time (s) in the period (trips by their
 * start): the whole UTC days from the daily totals, the partial days at either end from the trips
 * (decision 0199). One statement.
 */
export async function readSubjectTotals(
  db: DbOrTx,
  orgId: string,
  groupBy: SafetyGroupBy,
  from: number,
  to: number,
  only?: string,
  groupId?: string,
): Promise<Array<{ id: string; km: number | string; s: number | string }>> {
  const key = subjectKey(groupBy);
  const group = groupId
    ? groupBy === 'driver'
      ? sql`and driver_id in (select member_id from group_members where organization_id = ${orgId} and group_id = ${groupId} and member_type = 'DRIVER')`
      : sql`and asset_id in (select asset_id from group_assets where organization_id = ${orgId} and group_id = ${groupId})`
    : sql``;
  const one = only ? sql`and ${key} = ${only}` : sql``;
  const firstDay = Math.ceil(from / DAY) * DAY;
  const lastDay = Math.floor(to / DAY) * DAY;
  const trips = (a: number, b: number) =>
    sql`select ${key} as id, sum(distance_m) as m, sum(extract(epoch from ended_at - started_at))::float8 as s from trips
      where organization_id = ${orgId} and started_at >= ${iso(a)}::timestamptz and started_at < ${iso(b)}::timestamptz and ${key} is not null ${group} ${one} group by 1`;
  const parts =
    firstDay < lastDay
      ? [
          sql`select ${key} as id, sum(distance_m) as m, sum(driving_s) as s from safety_daily_totals
            where organization_id = ${orgId} and day >= ${iso(firstDay).slice(0, 10)}::date and day < ${iso(lastDay).slice(0, 10)}::date and ${key} is not null ${group} ${one} group by 1`,
          ...(from < firstDay ? [trips(from, firstDay)] : []),
          ...(lastDay < to ? [trips(lastDay, to)] : []),
        ]
      : [trips(from, to)];
  return rowsOf<{ id: string; km: number | string; s: number | string }>(
    await db.execute(sql`select id, sum(m) / 1000 as km, sum(s) as s from (${sql.join(parts, sql` union all `)}) x group by id`),
  );
}

/** The organization's active drivers (or vehicles), by id and name: `only` the one, `groupId` the group's. */
export async function readSubjectNames(
  db: DbOrTx,
  orgId: string,
  groupBy: SafetyGroupBy,
  only?: string,
  groupId?: string,
): Promise<Array<{ id: string; name: string }>> {
  return groupBy === 'driver'
    ? rowsOf<{ id: string; name: string }>(
        await db.execute(sql`select id, first_name || ' ' || last_name as name from drivers where organization_id = ${orgId} and status = 'ACTIVE' ${only ? sql`and id = ${only}` : sql``}
            ${groupId ? sql`and id in (select member_id from group_members where organization_id = ${orgId} and group_id = ${groupId} and member_type = 'DRIVER')` : sql``}`),
      )
    : rowsOf<{ id: string; name: string }>(
        await db.execute(sql`select id, unit_number as name from assets where organization_id = ${orgId} and type = 'VEHICLE' and status = 'ACTIVE' ${only ? sql`and id = ${only}` : sql``}
            ${groupId ? sql`and id in (select asset_id from group_assets where organization_id = ${orgId} and group_id = ${groupId})` : sql``}`),
      );
}

const OUT_SQL = sql.raw(SAFETY_STATUSES_OUT_OF_SCORE.map((x) => `'${x}'`).join(', '));
const BAND_SUMS = sql.raw(
  SPEEDING_BANDS.map(
    (b) => `sum((band_seconds->>'${b}')::float8) filter (where status not in (${SAFETY_STATUSES_OUT_OF_SCORE.map((x) => `'${x}'`).join(', ')})) as "${b}"`,
  ).join(', '),
);

/** Per driver (or vehicle), type and band: the events the score counts, those new, those to coach, and the seconds per speeding band. */
export type TallyRow = { id: string; type: SafetyEventType; band: SpeedingBand | null; n: number | string; nw: number | string; nc: number | string } & Partial<
  Record<SpeedingBand, number | string | null>
>;

/** The events of each driver (or vehicle) in the period counted by SQL per type and band (decision 0199). */
export async function readTallies(db: DbOrTx, orgId: string, groupBy: SafetyGroupBy, from: number, to: number): Promise<TallyRow[]> {
  const key = subjectKey(groupBy);
  return rowsOf<TallyRow>(
    await db.execute(sql`select ${key} as id, type, band, count(*) filter (where status not in (${OUT_SQL})) as n, count(*) filter (where status = 'NEW') as nw,
        count(*) filter (where status = 'NEEDS_COACHING') as nc, ${BAND_SUMS}
      from safety_events where organization_id = ${orgId} and started_at >= ${iso(from)}::timestamptz and started_at < ${iso(to)}::timestamptz and ${key} is not null
      group by 1, 2, 3`),
  );
}

/** An event as the score weighs it, with its driver (or vehicle) and start. */
export interface ScoredEventRow extends ScoredEvent {
  subject: string | null;
  startedAt: number;
}

/** The events in the period (of `only` when given), as the score weighs them. */
export async function readScoredEvents(db: DbOrTx, orgId: string, groupBy: SafetyGroupBy, from: number, to: number, only?: string): Promise<ScoredEventRow[]> {
  const key = subjectKey(groupBy);
  const rows = rowsOf<{
    id: string;
    s: string | null;
    type: ScoredEvent['type'];
    status: ScoredEvent['status'];
    band: ScoredEvent['band'];
    bs: ScoredEvent['bandSeconds'] | string | null;
    t: number | string;
  }>(
    await db.execute(sql`select id, ${key} as s, type, status, band, band_seconds as bs, extract(epoch from started_at)::float8 * 1000 as t from safety_events
      where organization_id = ${orgId} and started_at >= ${new Date(from).toISOString()}::timestamptz and started_at < ${new Date(to).toISOString()}::timestamptz ${only ? sql`and ${key} = ${only}` : sql``}`),
  );
  return rows.map((r) => ({
    id: r.id,
    subject: r.s,
    type: r.type,
    status: r.status,
    band: r.band,
    bandSeconds: typeof r.bs === 'string' ? (JSON.parse(r.bs) as ScoredEvent['bandSeconds']) : r.bs,
    startedAt: Math.round(Number(r.t)),
  }));
}

/** A driver's (or vehicle's) trips per UTC week from `from` to `to`: the week's start (ms), km and driving seconds. */
export async function readWeeklyTrips(
  db: DbOrTx,
  orgId: string,
  groupBy: SafetyGroupBy,
  id: string,
  from: number,
  to: number,
): Promise<Array<{ w: number | string; km: number | string; s: number | string }>> {
  return rowsOf<{ w: number | string; km: number | string; s: number | string }>(
    await db.execute(sql`select extract(epoch from date_trunc('week', started_at at time zone 'UTC'))::float8 * 1000 as w, sum(distance_m) / 1000 as km, sum(extract(epoch from ended_at - started_at)) as s
      from trips where organization_id = ${orgId} and ${subjectKey(groupBy)} = ${id}
      and started_at >= ${new Date(from).toISOString()}::timestamptz and started_at < ${new Date(to).toISOString()}::timestamptz group by 1`),
  );
}

/** The dashboard's counts: events to review (idling only when `idlingWeight` > 0), coaching asked, coaching overdue. */
export async function readOpenCounts(
  db: DbOrTx,
  orgId: string,
  idlingWeight: number,
  groupId?: string,
): Promise<{ n: number | string; c: number | string; o: number | string } | undefined> {
  const [c] = rowsOf<{ n: number | string; c: number | string; o: number | string }>(
    await db.execute(sql`select count(*) filter (where status = 'NEW' and (type <> 'IDLING' or ${idlingWeight} > 0)) as n, count(*) filter (where status = 'NEEDS_COACHING') as c,
      count(*) filter (where status = 'NEEDS_COACHING' and due_at < now()) as o from safety_events where organization_id = ${orgId}
      ${groupId ? sql`and ${groupFilter(orgId, groupId)}` : sql``}`),
  );
  return c;
}

/** Which of `ids` are the organization's vehicles. */
export async function organizationVehicleIds(db: DbOrTx, orgId: string, ids: readonly string[]): Promise<string[]> {
  const found = rowsOf<{ id: string }>(
    await db.execute(
      sql`select id from assets where organization_id = ${orgId} and type = 'VEHICLE' and id in (${sql.join(
        ids.map((x) => sql`${x}::uuid`),
        sql`, `,
      )})`,
    ),
  );
  return found.map((f) => f.id);
}

/** Stores the organization's settings (inserted or replaced). */
export async function writeSettings(db: DbOrTx, orgId: string, settings: SafetySettings): Promise<void> {
  await db
    .insert(safetySettings)
    .values({ organizationId: orgId, settings, updatedAt: new Date() })
    .onConflictDoUpdate({ target: safetySettings.organizationId, set: { settings, updatedAt: new Date() } });
}
