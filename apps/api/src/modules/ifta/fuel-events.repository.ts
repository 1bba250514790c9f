import { and, asc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { FuelEventType } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, fuelEvents, fuelLevelMarks } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { recordActivityBatch } from '../activity-log/index.ts';
import type { Actor } from '../auth/index.ts';
import { FUEL_MACHINE, type FuelFix } from './fuel-level-machine.ts';

// The SQL of fuel-level events (issue 68, decision 0276): the follower's reads of stored fixes for a
// replay, its writes of events by their key and of its marks; the office's reads. Every statement
// names the organization, so Citus routes it to the organization's shard (decision 0169).

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (v: number | string) => Math.round(Number(v));

/** A level attribute only when it is a JSON number (the live path reads `typeof … === 'number'` the same). */
const LEVEL = (key: 'fuelLevel' | 'fuelLevelLitres') => sql.raw(`case when jsonb_typeof(p.attributes->'${key}') = 'number' then p.attributes->'${key}' end`);

/** A positions row `p`'s fuel level in percent of the tank `u.cap` (the transactions' probe, as the machine's levelPctOf reads it); null without one. */
export const FUEL_LEVEL_PCT = sql`case when jsonb_typeof(p.attributes->'fuelLevel') = 'number' then (p.attributes->>'fuelLevel')::float8
  when jsonb_typeof(p.attributes->'fuelLevelLitres') = 'number' then (p.attributes->>'fuelLevelLitres')::float8 / u.cap * 100 end`;
/** The machine's standing speed, for the statements that read standing fixes. */
export const STANDING_KMH = sql.raw(String(FUEL_MACHINE.standingKmh));

/** A positions row `p` as the JSON array `storedFuelFixOf` reads. */
export const FUEL_FIX_TUPLE = sql`json_build_array(extract(epoch from p.fix_time)::float8 * 1000, p.latitude, p.longitude, p.speed, p.ignition, p.driver_id, ${LEVEL('fuelLevel')}, ${LEVEL('fuelLevelLitres')})`;

export function storedFuelFixOf(tuple: unknown[]): FuelFix {
  const [t, lat, lon, speed, ignition, driverId, levelPct, levelL] = tuple as [
    number,
    number,
    number,
    number | null,
    boolean | null,
    string | null,
    number | null,
    number | null,
  ];
  return { t: Math.round(t), lat, lon, speed, ignition, driverId, levelPct, levelL };
}

/**
 * A vehicle's stored fixes from `fromMs` on, in fix-time order, and whether it has any fix before
 * `fromMs` (a replay looking further back finds nothing without one).
 */
export async function readFuelFixes(db: DbOrTx, orgId: string, assetId: string, fromMs: number): Promise<{ fixes: FuelFix[]; older: boolean }> {
  const from = iso(fromMs);
  const [r] = rowsOf<{ j: string | null; older: boolean | string }>(
    await db.execute(sql`select json_agg(${FUEL_FIX_TUPLE} order by p.fix_time)::text as j,
        exists (select 1 from positions o where o.organization_id = ${orgId} and o.asset_id = ${assetId} and o.fix_time < ${from}::timestamptz) as older
      from positions p where p.organization_id = ${orgId} and p.asset_id = ${assetId} and p.fix_time >= ${from}::timestamptz`),
  );
  return { fixes: r?.j ? (JSON.parse(r.j) as unknown[][]).map(storedFuelFixOf) : [], older: r?.older === true || String(r?.older) === 'true' };
}

/** The organization's vehicles' tanks (litres; null: not set). */
export async function readTanks(db: DbOrTx, orgId: string): Promise<Map<string, number | null>> {
  const rows = await db
    .select({ id: assets.id, tank: assets.tankCapacityL })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE')));
  return new Map(rows.map((r) => [r.id, r.tank]));
}

/** An event as the follower writes it: the machine's draft with its litres. */
export interface FuelEventValues {
  assetId: string;
  driverId: string | null;
  type: FuelEventType;
  startedAt: number;
  endedAt: number;
  lat: number;
  lon: number;
  quantityL: number;
  levelBeforePct: number;
  levelAfterPct: number;
  levelBeforeL: number;
  levelAfterL: number;
  tankCapacityL: number;
  capacityAssumed: boolean;
  ignitionOff: boolean;
}

export interface WrittenFuelEvent extends FuelEventValues {
  id: string;
  /** First written now (not found again by a replay). */
  inserted: boolean;
}

/** The columns an upsert sets; found again the same, the row is not written at all. */
const VALUE_COLUMNS = [
  'driver_id',
  'ended_at',
  'latitude',
  'longitude',
  'quantity_l',
  'level_before_pct',
  'level_after_pct',
  'level_before_l',
  'level_after_l',
  'tank_capacity_l',
  'capacity_assumed',
  'ignition_off',
];

/**
 * Writes events by their key (vehicle, type, start): a new one is inserted; one found again with
 * other values is updated; one found again the same is left as it is (a restart's catch-up rewrites
 * nothing, decision 0238). Answers the rows inserted or changed, in the statement's key order (two
 * instances writing the same vehicles lock them in one order).
 */
export async function upsertFuelEvents(db: DbOrTx, orgId: string, events: readonly FuelEventValues[]): Promise<WrittenFuelEvent[]> {
  if (events.length === 0) return [];
  const sorted = [...events].sort((a, b) =>
    a.assetId !== b.assetId ? (a.assetId < b.assetId ? -1 : 1) : a.type !== b.type ? (a.type < b.type ? -1 : 1) : a.startedAt - b.startedAt,
  );
  const out: WrittenFuelEvent[] = [];
  // The time as a value, not now(): Citus refuses a non-immutable function in DO UPDATE SET.
  const now = new Date().toISOString();
  for (let i = 0; i < sorted.length; i += 500) {
    const part = sorted.slice(i, i + 500);
    const values = part.map(
      (e) =>
        sql`(${orgId}::uuid, ${e.assetId}::uuid, ${e.driverId}::uuid, ${e.type}, ${iso(e.startedAt)}::timestamptz, ${iso(e.endedAt)}::timestamptz, ${e.lat}::float8, ${e.lon}::float8,
          ${e.quantityL}::float8, ${e.levelBeforePct}::float8, ${e.levelAfterPct}::float8, ${e.levelBeforeL}::float8, ${e.levelAfterL}::float8, ${e.tankCapacityL}::float8,
          ${e.capacityAssumed}::boolean, ${e.ignitionOff}::boolean)`,
    );
    const rows = rowsOf<{ id: string; asset_id: string; type: string; t: number | string; inserted: boolean | string }>(
      await db.execute(sql`insert into fuel_events (organization_id, asset_id, driver_id, type, started_at, ended_at, latitude, longitude,
          quantity_l, level_before_pct, level_after_pct, level_before_l, level_after_l, tank_capacity_l, capacity_assumed, ignition_off)
        values ${sql.join(values, sql`, `)}
        on conflict (organization_id, asset_id, type, started_at) do update set
          ${sql.raw(VALUE_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', '))}, updated_at = ${now}::timestamptz
        where (${sql.raw(VALUE_COLUMNS.map((c) => `fuel_events.${c}`).join(', '))}) is distinct from (${sql.raw(VALUE_COLUMNS.map((c) => `excluded.${c}`).join(', '))})
        returning id, asset_id, type, extract(epoch from started_at - to_timestamp(0))::float8 * 1000 as t, (xmax = 0) as inserted`),
    );
    const byKey = new Map(part.map((e) => [`${e.assetId}|${e.type}|${e.startedAt}`, e]));
    for (const r of rows) {
      const e = byKey.get(`${r.asset_id}|${r.type}|${ms(r.t)}`);
      if (e) out.push({ ...e, id: r.id, inserted: r.inserted === true || String(r.inserted) === 'true' });
    }
  }
  return out;
}

/**
 * A replay's result for one vehicle: its events starting after `cutMs` become exactly `events` (those
 * no longer found are deleted, the others upserted as above). A finished event the replay found
 * different, or no longer, is a correction (before and after) in the activity log (decision 0238):
 * a replay never rewrites a recorded event silently.
 */
export async function replaceFuelEvents(
  db: DbOrTx,
  orgId: string,
  assetId: string,
  cutMs: number,
  events: readonly FuelEventValues[],
): Promise<WrittenFuelEvent[]> {
  const cut = iso(Number.isFinite(cutMs) ? cutMs : 0);
  const stored = rowsOf<{ id: string; j: string }>(
    await db.execute(sql`select e.id, row_to_json(e)::text as j from fuel_events e
      where e.organization_id = ${orgId} and e.asset_id = ${assetId} and e.started_at > ${cut}::timestamptz`),
  );
  const keep = JSON.stringify(events.map((e) => ({ type: e.type, started_at: iso(e.startedAt) })));
  await db.execute(sql`delete from fuel_events e where e.organization_id = ${orgId} and e.asset_id = ${assetId} and e.started_at > ${cut}::timestamptz
    and not exists (select 1 from json_to_recordset(${keep}::json) as k(type text, started_at timestamptz) where k.type = e.type and k.started_at = e.started_at)`);
  const written = await upsertFuelEvents(db, orgId, events);
  const corrections = fuelEventCorrections(
    stored.map((r) => JSON.parse(r.j) as StoredFuelEvent),
    events,
    written,
  );
  if (corrections.length)
    await recordActivityBatch(
      db,
      corrections.map((c) => ({
        orgId,
        actor: SYSTEM,
        action: 'CORRECTION',
        entityType: 'FUEL_EVENT',
        entityId: c.before.id,
        before: c.before,
        after: c.after,
      })),
    );
  return written;
}

/** A stored event as `row_to_json` gives it (the columns the corrections compare). */
interface StoredFuelEvent {
  id: string;
  type: string;
  started_at: string;
  [column: string]: unknown;
}

const SYSTEM: Actor = { userId: null, email: null, role: 'SYSTEM', ip: null };

/** The stored events a replay changed (found again with other values) or withdrew (not found again: `after` null). */
export function fuelEventCorrections(
  stored: readonly StoredFuelEvent[],
  events: readonly FuelEventValues[],
  written: readonly WrittenFuelEvent[],
): Array<{ before: StoredFuelEvent; after: WrittenFuelEvent | null }> {
  const key = (type: string, t: number) => `${type}|${t}`;
  const found = new Set(events.map((e) => key(e.type, e.startedAt)));
  const changed = new Map(written.filter((w) => !w.inserted).map((w) => [w.id, w]));
  const out: Array<{ before: StoredFuelEvent; after: WrittenFuelEvent | null }> = [];
  for (const s of stored) {
    if (!found.has(key(s.type, new Date(s.started_at).getTime()))) out.push({ before: s, after: null });
    else {
      const after = changed.get(s.id);
      if (after) out.push({ before: s, after });
    }
  }
  return out;
}

/** How far each vehicle was worked (never back). */
export async function writeFuelMarks(db: DbOrTx, orgId: string, marks: ReadonlyMap<string, number>): Promise<void> {
  if (marks.size === 0) return;
  const rows = [...marks]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([assetId, t]) => ({ organizationId: orgId, assetId, coveredUntil: new Date(t) }));
  for (let i = 0; i < rows.length; i += 5000)
    await db
      .insert(fuelLevelMarks)
      .values(rows.slice(i, i + 5000))
      .onConflictDoUpdate({
        target: [fuelLevelMarks.organizationId, fuelLevelMarks.assetId],
        set: { coveredUntil: sql`greatest(${fuelLevelMarks.coveredUntil}, excluded.covered_until)` },
      });
}

/** The organization's vehicles the follower has marks for: those that report a fuel level. */
export async function markedVehicles(db: DbOrTx, orgId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ a: fuelLevelMarks.assetId, t: fuelLevelMarks.coveredUntil })
    .from(fuelLevelMarks)
    .where(eq(fuelLevelMarks.organizationId, orgId));
  return new Map(rows.map((r) => [r.a, r.t.getTime()]));
}

/**
 * Vehicles to catch up at a start: those with a mark whose newest fix is past it, and those without
 * one whose newest fix carries a fuel level (a sensor first heard of while nothing followed).
 */
export async function vehiclesBehindFuelMarks(db: DbOrTx): Promise<Array<{ assetId: string; orgId: string; mark: number | null }>> {
  const rows = rowsOf<{ asset_id: string; organization_id: string; covered: number | string | null }>(
    await db.execute(sql`select lp.asset_id, lp.organization_id, extract(epoch from m.covered_until) * 1000 as covered
      from latest_positions lp left join fuel_level_marks m on m.asset_id = lp.asset_id and m.organization_id = lp.organization_id
      where m.covered_until < lp.fix_time or (m.covered_until is null and (lp.attributes ? 'fuelLevel' or lp.attributes ? 'fuelLevelLitres'))`),
  );
  return rows.map((r) => ({ assetId: r.asset_id, orgId: r.organization_id, mark: r.covered === null ? null : ms(r.covered) }));
}

/** A vehicle's fuel-level mark (null: none). */
export async function fuelMarkOf(db: DbOrTx, orgId: string, assetId: string): Promise<number | null> {
  const [r] = await db
    .select({ t: fuelLevelMarks.coveredUntil })
    .from(fuelLevelMarks)
    .where(and(eq(fuelLevelMarks.organizationId, orgId), eq(fuelLevelMarks.assetId, assetId)));
  return r ? r.t.getTime() : null;
}

// ---------------------------------------------------------------------------------------------------
// The office's reads: the list with its matched card transaction (read-time: a transaction posted
// after the refuel matches it as well), and the transactions' probes of refuels and levels.

export type FuelEventRow = typeof fuelEvents.$inferSelect;

export interface EventListFilter {
  type?: FuelEventType;
  from?: Date;
  to?: Date;
  vehicleId?: string;
  unmatched?: boolean;
  id?: string;
  /** A LIKE term over the unit number. */
  search?: string;
}

export interface NamedFuelEvent {
  e: FuelEventRow;
  unit: string | null;
  driverFirst: string | null;
  driverLast: string | null;
  /** The matched card transaction (refuels). */
  tx: {
    id: string;
    transaction_id: string;
    time: string;
    merchant: string | null;
    quantity_milli: number | string;
    unit: 'GAL' | 'L';
    verification: string;
  } | null;
}

/**
 * The card transaction a refuel of `e` matches: the vehicle's transactions within [start − window,
 * end + window], one verified by place before one that is not (a second card used elsewhere at the
 * same time), then the closest in time to where the level settled.
 */
const MATCH = (windowMs: number) => sql`(select t.id from fuel_transactions t where t.organization_id = e.organization_id and t.vehicle_id = e.asset_id
    and t.time between e.started_at - ${`${windowMs} milliseconds`}::interval and e.ended_at + ${`${windowMs} milliseconds`}::interval
    order by t.verification <> 'VERIFIED', abs(extract(epoch from t.time - e.ended_at)), t.id limit 1)`;

function eventConditions(orgId: string, f: EventListFilter, windowMs: number, withType: boolean): SQL {
  const where: SQL[] = [sql`e.organization_id = ${orgId}`];
  if (f.id) where.push(sql`e.id = ${f.id}::uuid`);
  if (withType && f.type) where.push(sql`e.type = ${f.type}`);
  if (withType && f.unmatched) where.push(sql`e.type = 'REFUEL' and ${MATCH(windowMs)} is null`);
  if (f.from) where.push(sql`e.started_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) where.push(sql`e.started_at < ${f.to.toISOString()}::timestamptz`);
  if (f.vehicleId) where.push(sql`e.asset_id = ${f.vehicleId}::uuid`);
  if (f.search) where.push(sql`lower(coalesce(a.unit_number, '')) like ${f.search}`);
  return sql.join(where, sql` and `);
}

export const EVENT_SORTS: Record<string, SQL> = {
  startedAt: sql`e.started_at`,
  endedAt: sql`e.ended_at`,
  type: sql`e.type`,
  quantityL: sql`e.quantity_l`,
  unitNumber: sql`lower(a.unit_number)`,
};
export const DEFAULT_EVENT_ORDER = sql`e.started_at desc`;
export const EVENT_TIE_BREAK = sql`e.id asc`;

/** A page of events with their names and matched transaction, and the counts per type over the other filters. */
export async function listFuelEventRows(
  db: DbOrTx,
  orgId: string,
  f: EventListFilter,
  windowMs: number,
  page: { size: number; offset: number; order: SQL[] },
): Promise<{ rows: NamedFuelEvent[]; total: number; counts: { REFUEL: number; DROP: number; UNMATCHED: number } }> {
  const [c] = rowsOf<{ refuel: number; drop: number; unmatched: number }>(
    await db.execute(sql`select count(*) filter (where e.type = 'REFUEL')::int as refuel, count(*) filter (where e.type = 'DROP')::int as drop,
        count(*) filter (where e.type = 'REFUEL' and ${MATCH(windowMs)} is null)::int as unmatched
      from fuel_events e left join assets a on a.organization_id = e.organization_id and a.id = e.asset_id
      where ${eventConditions(orgId, f, windowMs, false)}`),
  );
  const counts = { REFUEL: Number(c?.refuel ?? 0), DROP: Number(c?.drop ?? 0), UNMATCHED: Number(c?.unmatched ?? 0) };
  const total = f.unmatched ? counts.UNMATCHED : f.type ? counts[f.type] : counts.REFUEL + counts.DROP;
  const rows = rowsOf<{ e: FuelEventRow & Record<string, unknown>; unit: string | null; df: string | null; dl: string | null; tx: string | null }>(
    await db.execute(sql`select to_jsonb(e) as e, a.unit_number as unit, d.first_name as df, d.last_name as dl,
        (select to_jsonb(x) from (select t.id, t.transaction_id, t.time, t.merchant, t.quantity_milli, t.unit, t.verification from fuel_transactions t
          where e.type = 'REFUEL' and t.organization_id = e.organization_id and t.id = ${MATCH(windowMs)}) x)::text as tx
      from fuel_events e
      left join assets a on a.organization_id = e.organization_id and a.id = e.asset_id
      left join drivers d on d.organization_id = e.organization_id and d.id = e.driver_id
      where ${eventConditions(orgId, f, windowMs, true)}
      order by ${sql.join(page.order, sql`, `)} limit ${page.size} offset ${page.offset}`),
  );
  return {
    total,
    counts,
    rows: rows.map((r) => ({
      e: eventRowOf(r.e),
      unit: r.unit,
      driverFirst: r.df,
      driverLast: r.dl,
      tx: r.tx ? (JSON.parse(r.tx) as NamedFuelEvent['tx']) : null,
    })),
  };
}

/** A row read back as JSON (snake_case, times as text) in the schema's shape. */
function eventRowOf(j: Record<string, unknown>): FuelEventRow {
  const d = (k: string) => new Date(j[k] as string);
  return {
    organizationId: j.organization_id as string,
    id: j.id as string,
    assetId: j.asset_id as string,
    driverId: (j.driver_id as string | null) ?? null,
    type: j.type as FuelEventType,
    startedAt: d('started_at'),
    endedAt: d('ended_at'),
    latitude: Number(j.latitude),
    longitude: Number(j.longitude),
    quantityL: Number(j.quantity_l),
    levelBeforePct: Number(j.level_before_pct),
    levelAfterPct: Number(j.level_after_pct),
    levelBeforeL: Number(j.level_before_l),
    levelAfterL: Number(j.level_after_l),
    tankCapacityL: Number(j.tank_capacity_l),
    capacityAssumed: j.capacity_assumed === true,
    ignitionOff: j.ignition_off === true,
    createdAt: d('created_at'),
    updatedAt: d('updated_at'),
  };
}

/** Refuels of these vehicles within [from, to) (the transactions' matching). */
export async function refuelsBetween(db: DbOrTx, orgId: string, vehicleIds: readonly string[], from: Date, to: Date): Promise<FuelEventRow[]> {
  if (vehicleIds.length === 0) return [];
  return db
    .select()
    .from(fuelEvents)
    .where(
      and(
        eq(fuelEvents.organizationId, orgId),
        eq(fuelEvents.type, 'REFUEL'),
        sql`${fuelEvents.assetId} = any(${`{${vehicleIds.join(',')}}`}::uuid[])`,
        gte(fuelEvents.endedAt, from),
        lt(fuelEvents.startedAt, to),
      ),
    )
    .orderBy(asc(fuelEvents.startedAt));
}

/** Unit numbers of vehicles (notices, webhooks). */
export async function unitNumbers(db: DbOrTx, orgId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: assets.id, unit: assets.unitNumber })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), sql`${assets.id} = any(${`{${[...new Set(ids)].join(',')}}`}::uuid[])`));
  return new Map(rows.map((r) => [r.id, r.unit]));
}
