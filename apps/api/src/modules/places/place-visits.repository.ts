import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { DEFAULT_ORGANIZATION_SETTINGS, type PlaceCategory, type UnitSystem } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { recordActivityBatch } from '../activity-log/index.ts';
import type { Actor } from '../auth/index.ts';
import type { IndexedPlace } from './place-index.ts';
import { reconcileVisits, type StoredVisitRow, type VisitValues } from './visit-reconcile.ts';
import type { VisitFix } from './visit-machine.ts';

// The geofence follower's statements (decision 0162): what it reads of places, positions, visits
// and marks, and how it writes visits. Several rows travel as one JSON or array parameter, so a
// round costs a fixed number of statements whatever its number of vehicles.

const iso = (ms: number) => new Date(ms).toISOString();
const uuids = (ids: readonly string[]) => `{${ids.join(',')}}`;
const ms = (v: number | string) => Math.round(Number(v));

/** A version of the organization's places: it changes with every insert, update or delete. */
export async function placesVersion(db: DbOrTx, orgId: string): Promise<string> {
  const [v] = rowsOf<{ n: number | string; at: string | Date | null }>(
    await db.execute(sql`select count(*) as n, max(updated_at) as at from places where organization_id = ${orgId}`),
  );
  return `${v?.n ?? 0}|${v?.at ? new Date(v.at).getTime() : ''}`;
}

export interface OrgPlaceRows {
  places: IndexedPlace[];
  /** Each vehicle's groups (read only when a place has a group). */
  assetGroups: Map<string, Set<string>>;
  freeMinutes: number;
  units: UnitSystem;
  timeZone: string;
}

/** The organization's places, its vehicles' groups, its detention free time, units and zone. */
export async function readOrgPlaces(db: DbOrTx, orgId: string): Promise<OrgPlaceRows> {
  const rows = rowsOf<{
    id: string;
    name: string;
    category: PlaceCategory;
    group_id: string | null;
    geometry: IndexedPlace['geometry'] | string;
    radius_m: number | null;
    arrival_dwell_s: number;
    departure_dwell_s: number;
  }>(
    await db.execute(
      sql`select id, name, category, group_id, geometry, radius_m, arrival_dwell_s, departure_dwell_s from places where organization_id = ${orgId} order by id`,
    ),
  );
  const places = rows.map((r) => ({
    id: r.id,
    name: r.name,
    category: r.category,
    groupId: r.group_id,
    geometry: typeof r.geometry === 'string' ? (JSON.parse(r.geometry) as IndexedPlace['geometry']) : r.geometry,
    radiusM: r.radius_m === null ? null : Number(r.radius_m),
    arrivalDwellS: Number(r.arrival_dwell_s),
    departureDwellS: Number(r.departure_dwell_s),
  }));
  const assetGroups = new Map<string, Set<string>>();
  if (places.some((p) => p.groupId)) {
    for (const r of rowsOf<{ asset_id: string; group_id: string }>(
      await db.execute(sql`select asset_id, group_id from group_assets where organization_id = ${orgId}`),
    )) {
      let s = assetGroups.get(r.asset_id);
      if (!s) assetGroups.set(r.asset_id, (s = new Set()));
      s.add(r.group_id);
    }
  }
  const [o] = rowsOf<{ settings: Record<string, unknown> | string | null; time_zone: string }>(
    await db.execute(sql`select settings, time_zone from organizations where id = ${orgId}`),
  );
  const settings = (typeof o?.settings === 'string' ? JSON.parse(o.settings) : o?.settings) as {
    detention?: { freeMinutes?: unknown };
    units?: UnitSystem;
  } | null;
  const free = settings?.detention?.freeMinutes;
  return {
    places,
    assetGroups,
    freeMinutes: typeof free === 'number' && free >= 0 ? free : DEFAULT_ORGANIZATION_SETTINGS.detention.freeMinutes,
    units: settings?.units ?? DEFAULT_ORGANIZATION_SETTINGS.units,
    timeZone: o?.time_zone ?? 'UTC',
  };
}

/**
 * The vehicle's stored fixes from `fromMs` on, in fix-time order. One JSON text, not a row per fix:
 * on the embedded database a week of a truck reads about three times quicker (decision 0163's
 * measure), and a request waiting behind the read waits that much less.
 */
export async function readFixes(db: DbOrTx, orgId: string, assetId: string, fromMs: number): Promise<VisitFix[]> {
  const [r] = rowsOf<{ j: string | null }>(
    await db.execute(sql`select json_agg(json_build_array(extract(epoch from fix_time)::float8 * 1000, latitude, longitude, driver_id) order by fix_time)::text as j
      from positions where organization_id = ${orgId} and asset_id = ${assetId} and fix_time >= ${iso(fromMs)}::timestamptz`),
  );
  const fixes = r?.j ? (JSON.parse(r.j) as Array<[number, number, number, string | null]>) : [];
  return fixes.map(([t, lat, lon, driverId]) => ({ t: Math.round(t), lat, lon, driverId }));
}

/** A stored visit as the blank-point checks read it (ms). */
export interface StoredVisit {
  assetId: string;
  placeId: string;
  arrivedAt: number;
  departedAt: number | null;
}

const visitOf = (r: { asset_id: string; place_id: string; a: number | string; d: number | string | null }): StoredVisit => ({
  assetId: r.asset_id,
  placeId: r.place_id,
  arrivedAt: ms(r.a),
  departedAt: r.d === null ? null : ms(r.d),
});

/** The vehicle's visits that began before `beforeMs` and were open or departed after `sinceMs`. */
export async function readVisitsAround(db: DbOrTx, orgId: string, assetId: string, beforeMs: number, sinceMs: number): Promise<StoredVisit[]> {
  return rowsOf<{ asset_id: string; place_id: string; a: number | string; d: number | string | null }>(
    await db.execute(sql`select asset_id, place_id, extract(epoch from arrived_at) * 1000 as a, extract(epoch from departed_at) * 1000 as d from place_visits
      where organization_id = ${orgId} and asset_id = ${assetId} and arrived_at < ${iso(beforeMs)}::timestamptz and (departed_at is null or departed_at >= ${iso(sinceMs)}::timestamptz)`),
  ).map(visitOf);
}

/** Visits of these vehicles still open or departed in the last two days. */
export async function readRecentVisits(db: DbOrTx, orgId: string, assetIds: readonly string[]): Promise<StoredVisit[]> {
  return rowsOf<{ asset_id: string; place_id: string; a: number | string; d: number | string | null }>(
    await db.execute(sql`select asset_id, place_id, extract(epoch from arrived_at) * 1000 as a, extract(epoch from departed_at) * 1000 as d from place_visits
      where organization_id = ${orgId} and asset_id = any(${uuids(assetIds)}::uuid[]) and (departed_at is null or departed_at > now() - interval '2 days')`),
  ).map(visitOf);
}

/**
 * For each vehicle: its last stored fix before `firsts[i]` (null: none), and its newest stored fix
 * time. Every positions read names the organization (a parameter): Citus then routes the statement,
 * the sub-select and the lateral with its LIMIT over the unnest included, to one shard.
 */
export async function readColdStarts(
  db: DbOrTx,
  orgId: string,
  assetIds: readonly string[],
  firsts: readonly number[],
): Promise<Map<string, { last: VisitFix | null; newest: number | null }>> {
  const rows = rowsOf<{ asset_id: string; t: number | string | null; lat: number | null; lon: number | null; stored: number | string | null }>(
    await db.execute(sql`select k.asset_id, extract(epoch from p.fix_time) * 1000 as t, p.latitude as lat, p.longitude as lon,
        extract(epoch from (select max(y.fix_time) from positions y where y.organization_id = ${orgId} and y.asset_id = k.asset_id)) * 1000 as stored
      from unnest(${uuids(assetIds)}::uuid[], ${`{${firsts.map(iso).join(',')}}`}::timestamptz[]) as k(asset_id, first)
      left join lateral (select fix_time, latitude, longitude from positions x where x.organization_id = ${orgId} and x.asset_id = k.asset_id and x.fix_time < k.first order by x.fix_time desc limit 1) p on true`),
  );
  return new Map(
    rows.map((r) => [
      r.asset_id,
      { last: r.t === null ? null : { t: ms(r.t), lat: Number(r.lat), lon: Number(r.lon), driverId: null }, newest: r.stored === null ? null : ms(r.stored) },
    ]),
  );
}

/**
 * Which of these places still exist, as a uuid[] literal. Read apart from the insert: Citus refuses a
 * correlated subquery beside json_to_recordset (decision 0169).
 */
async function livePlaces(tx: DbOrTx, orgId: string, placeIds: readonly string[]): Promise<string> {
  const ids = rowsOf<{ id: string }>(
    await tx.execute(sql`select id from places where organization_id = ${orgId} and id = any(${`{${[...new Set(placeIds)].join(',')}}`}::uuid[])`),
  );
  return `{${ids.map((r) => r.id).join(',')}}`;
}

/** A round's arrivals (new rows with their ids) and departures (by id), in one transaction. */
export async function writeRound(
  db: Db,
  orgId: string,
  arrivals: ReadonlyArray<{ id: string; placeId: string; assetId: string; driverId: string | null; arrivedAt: number }>,
  departures: ReadonlyArray<{ id: string; departedAt: number }>,
): Promise<void> {
  if (arrivals.length === 0 && departures.length === 0) return;
  await db.transaction(async (tx) => {
    if (arrivals.length) {
      // A place deleted meanwhile takes no visit.
      const live = await livePlaces(
        tx,
        orgId,
        arrivals.map((a) => a.placeId),
      );
      await tx.execute(sql`insert into place_visits (id, organization_id, place_id, asset_id, driver_id, arrived_at)
        select x.id, ${orgId}::uuid, x.place_id, x.asset_id, x.driver_id, x.arrived_at
        from json_to_recordset(${JSON.stringify(arrivals.map((a) => ({ id: a.id, place_id: a.placeId, asset_id: a.assetId, driver_id: a.driverId, arrived_at: iso(a.arrivedAt) })))}::json)
          as x(id uuid, place_id uuid, asset_id uuid, driver_id uuid, arrived_at timestamptz)
        where x.place_id = any(${live}::uuid[])`);
    }
    if (departures.length) {
      await tx.execute(sql`update place_visits v set departed_at = x.departed_at, updated_at = now()
        from json_to_recordset(${JSON.stringify(departures.map((d) => ({ id: d.id, departed_at: iso(d.departedAt) })))}::json) as x(id uuid, departed_at timestamptz)
        where v.organization_id = ${orgId} and v.id = x.id`);
    }
  });
}

/**
 * The vehicle's visits that began after `cutMs` brought to `visits` (a recompute's), under a lock on
 * the vehicle: a stored visit the recompute finds again keeps its id and, unchanged, is not written;
 * one it finds different is updated and one it no longer finds is removed, each a correction in the
 * activity log naming before and after (decision 0238). Returns the visits' ids, in their order.
 */
export async function replaceVisits(db: Db, orgId: string, assetId: string, cutMs: number, visits: readonly VisitValues[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`place-visits:${assetId}`}))`);
    const stored = rowsOf<{ id: string; place_id: string; driver_id: string | null; a: number | string; d: number | string | null }>(
      await tx.execute(sql`select id, place_id, driver_id, extract(epoch from arrived_at) * 1000 as a, extract(epoch from departed_at) * 1000 as d from place_visits
        where organization_id = ${orgId} and asset_id = ${assetId} and arrived_at > ${iso(cutMs)}::timestamptz`),
    ).map((r) => ({ id: r.id, placeId: r.place_id, driverId: r.driver_id, arrivedAt: ms(r.a), departedAt: r.d === null ? null : ms(r.d) }));
    // A place deleted meanwhile takes no visit.
    const live = visits.length
      ? new Set(
          parseUuids(
            await livePlaces(
              tx,
              orgId,
              visits.map((v) => v.placeId),
            ),
          ),
        )
      : new Set<string>();
    const kept = visits.filter((v) => live.has(v.placeId));
    const r = reconcileVisits(stored, kept, randomUUID);
    if (r.deletes.length) await tx.execute(sql`delete from place_visits where organization_id = ${orgId} and id = any(${uuids(r.deletes)}::uuid[])`);
    if (r.updates.length) {
      await tx.execute(sql`update place_visits v set place_id = x.place_id, driver_id = x.driver_id, arrived_at = x.arrived_at, departed_at = x.departed_at, updated_at = now()
        from json_to_recordset(${JSON.stringify(r.updates.map(visitJson))}::json) as x(id uuid, place_id uuid, driver_id uuid, arrived_at timestamptz, departed_at timestamptz)
        where v.organization_id = ${orgId} and v.id = x.id`);
    }
    if (r.inserts.length) {
      await tx.execute(sql`insert into place_visits (id, organization_id, place_id, asset_id, driver_id, arrived_at, departed_at)
        select x.id, ${orgId}::uuid, x.place_id, ${assetId}::uuid, x.driver_id, x.arrived_at, x.departed_at
        from json_to_recordset(${JSON.stringify(r.inserts.map(visitJson))}::json)
          as x(id uuid, place_id uuid, driver_id uuid, arrived_at timestamptz, departed_at timestamptz)`);
    }
    if (r.corrections.length) {
      const shown = (v: StoredVisitRow) => ({
        id: v.id,
        placeId: v.placeId,
        assetId,
        driverId: v.driverId,
        arrivedAt: iso(v.arrivedAt),
        departedAt: v.departedAt === null ? null : iso(v.departedAt),
      });
      await recordActivityBatch(
        tx,
        r.corrections.map((c) => ({
          orgId,
          actor: SYSTEM,
          action: 'CORRECTION',
          entityType: 'PLACE_VISIT',
          entityId: c.before.id,
          before: shown(c.before),
          after: c.after ? shown(c.after) : null,
        })),
      );
    }
    // The ids of the replayed visits of places still there; a visit of a deleted place has none.
    let k = 0;
    return visits.map((v) => (live.has(v.placeId) ? r.ids[k++]! : ''));
  });
}

const visitJson = (v: StoredVisitRow) => ({
  id: v.id,
  place_id: v.placeId,
  driver_id: v.driverId,
  arrived_at: iso(v.arrivedAt),
  departed_at: v.departedAt === null ? null : iso(v.departedAt),
});
const parseUuids = (literal: string) => literal.slice(1, -1).split(',').filter(Boolean);
const SYSTEM: Actor = { userId: null, email: null, role: 'SYSTEM', ip: null };

/** The vehicles' marks (ms). */
export async function readMarks(db: DbOrTx, orgId: string, assetIds: readonly string[]): Promise<Map<string, number>> {
  const rows = rowsOf<{ asset_id: string; t: number | string }>(
    await db.execute(
      sql`select asset_id, extract(epoch from covered_until) * 1000 as t from place_visit_marks where organization_id = ${orgId} and asset_id = any(${uuids(assetIds)}::uuid[])`,
    ),
  );
  return new Map(rows.map((r) => [r.asset_id, ms(r.t)]));
}

/** Moves the vehicles' marks forward (never back). */
export async function writeMarks(db: DbOrTx, orgId: string, marks: ReadonlyMap<string, number>): Promise<void> {
  if (marks.size === 0) return;
  const json = JSON.stringify([...marks].map(([assetId, t]) => ({ asset_id: assetId, t: iso(t) })));
  await db.execute(sql`insert into place_visit_marks (asset_id, organization_id, covered_until)
    select x.asset_id, ${orgId}::uuid, x.t from json_to_recordset(${json}::json) as x(asset_id uuid, t timestamptz)
    on conflict (asset_id, organization_id) do update set covered_until = greatest(place_visit_marks.covered_until, excluded.covered_until)`);
}

/** Vehicles of organizations with places whose newest fix is past their mark (null: no mark). */
export async function vehiclesBehindMarks(db: DbOrTx): Promise<Array<{ assetId: string; orgId: string; mark: number | null }>> {
  const rows = rowsOf<{ asset_id: string; organization_id: string; covered: number | string | null }>(
    await db.execute(sql`select lp.asset_id, lp.organization_id, extract(epoch from m.covered_until) * 1000 as covered
      from latest_positions lp left join place_visit_marks m on m.asset_id = lp.asset_id and m.organization_id = lp.organization_id
      where exists (select 1 from places p where p.organization_id = lp.organization_id)
        and (m.covered_until is null or m.covered_until < lp.fix_time)`),
  );
  return rows.map((r) => ({ assetId: r.asset_id, orgId: r.organization_id, mark: r.covered === null ? null : ms(r.covered) }));
}
