import { sql } from 'drizzle-orm';
import { DEFAULT_SAFETY_SETTINGS, safetySettingsSchema, type SafetySettings } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { safetyMarks } from '../../db/schema/index.ts';
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
