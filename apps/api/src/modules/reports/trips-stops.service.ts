import { sql } from 'drizzle-orm';
import { describeLocation } from '@fleet/geo/places';
import type { Db, DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { refreshTripDailyTotals } from '../../db/sql/trip-daily-totals.ts';
import { fixesElsewhere, QueuedFollower, type Round, VehicleQueue, type WorkedSpan } from '../positions/index.ts';
import { recordActivityBatch } from '../activity-log/index.ts';
import type { Actor } from '../auth/index.ts';
import { reconcileDerived, type ColumnKind, type DerivedRow } from './derived-rows.ts';
import { TripFolder, type FoldedStop, type FoldedTrip, type TripFix } from './trip-fold.ts';

// Trips and stops kept behind ingest (issue 32, decision 0163), a follower of the position commit
// like the daily statistics: committed fixes go to the vehicle queue and are folded into each
// vehicle's fold every couple of seconds; the rows from the vehicle's open stop on are then
// replaced. A fix older than what the fold holds (a late or out-of-order upload, positions given
// to a vehicle after the fact) makes the vehicle's trips and stops be computed again from its
// stored positions, from the start of the stop before the one the fix falls in: every trip and
// stop that fix could change, and nothing before. Both ways give the same rows (a test checks).

/** How far back a vehicle with no trips or stops yet is computed from its positions (the catch-up's reach, as the daily statistics'). */
export const CATCH_UP_DAYS = 8;

export interface TripsStopsOptions {
  onError?: (err: unknown) => void;
  /** Pause before each round, while fixes gather. */
  flushMs?: number;
  /** A database other instances write positions to (a server, not the embedded one): each round checks for their fixes. */
  shared?: boolean;
}

interface VehicleFold {
  folder: TripFolder;
  /** Rows of the vehicle from this instant on are replaced at the next write (a recomputation's start). */
  replaceFrom: number | null;
  /** Start of the open stop as last written (its row is replaced as it grows or ends). */
  openWrittenAt: number | null;
  /** What the open stop's row said when written: unchanged, it is not written again. */
  openSig: string | null;
}

interface VehicleWrite {
  orgId: string;
  assetId: string;
  from: number;
  trips: FoldedTrip[];
  stops: FoldedStop[];
}

export class TripsStops extends QueuedFollower<TripFix> {
  protected readonly queue: VehicleQueue<TripFix>;
  private readonly folds = new Map<string, VehicleFold>();
  readonly stats = { rounds: 0, recomputed: 0, written: 0, failures: 0 };
  private readonly onError: (err: unknown) => void;
  private readonly shared: boolean;
  private hurry = false;

  constructor(
    private readonly db: Db,
    opts: TripsStopsOptions = {},
  ) {
    super();
    this.onError = opts.onError ?? (() => undefined);
    this.shared = opts.shared ?? false;
    this.queue = new VehicleQueue<TripFix>({
      fixOf: (r) => ({ t: r.fixTime.getTime(), lat: r.latitude, lon: r.longitude, speed: r.speed, ignition: r.ignition, driverId: r.driverId }),
      pauseMs: () => (this.hurry ? 0 : (opts.flushMs ?? 2000)),
      // A catch-up's rounds stay short: the embedded database answers requests in between.
      roundVehicles: 200,
      byOrganization: true,
      round: (items) => this.round(items),
      failed: (items, err) => {
        // The fixes are stored: the vehicles are computed again from positions at their next fix.
        for (const [assetId] of items) this.folds.delete(assetId);
        this.stats.failures++;
        this.onError(err);
      },
    });
  }

  /** Queues a vehicle with nothing new, to be computed up to `untilMs` from its stored positions (positions written in bulk). */
  touch(assetId: string, orgId: string, untilMs: number): void {
    this.folds.delete(assetId);
    this.queue.touch(assetId, orgId, untilMs);
  }

  private async round(items: Round<TripFix>): Promise<void> {
    this.stats.rounds++;
    const writes: VehicleWrite[] = [];
    for (const [, w] of items) w.fixes.sort((a, b) => a.t - b.t);
    const elsewhere = this.shared ? await this.othersFixes(items) : new Map<string, TripFix[]>();
    // Vehicles without a fold here, or with a fix older than its last: computed again from positions, together.
    const again: Array<{ assetId: string; at: number }> = [];
    for (const [assetId, w] of items) {
      const first = w.fixes[0]?.t ?? w.until;
      const lastT = this.folds.get(assetId)?.folder.lastT ?? null;
      if (lastT === null || first <= lastT) again.push({ assetId, at: Math.min(first, lastT ?? first) });
    }
    const recomputed = await this.recomputeMany(items[0]![1].orgId, again);
    for (const [assetId, w] of items) {
      let vf = recomputed.get(assetId);
      // With another instance's fixes among them: every stored fix since the fold's last, in order.
      if (!vf) {
        vf = this.folds.get(assetId)!;
        for (const f of elsewhere.get(assetId) ?? w.fixes) vf.folder.add(f);
      }
      this.folds.set(assetId, vf);
      const write = this.pending(w.orgId, assetId, vf);
      if (write) writes.push(write);
    }
    await this.write(writes);
  }

  /**
   * The round's vehicles another instance stored fixes of since the fold's last (a device behind a
   * load balancer, vehiclesWithFixesElsewhere), with every stored fix of theirs from there to the
   * round's newest: folding those instead of the round's own keeps the fold the in-order one, where
   * computing again from the open stop would read hours of a moving vehicle's fixes every round.
   * Two statements for the round (it holds one organization), the second only when some vehicle has
   * such fixes.
   */
  private async othersFixes(items: Round<TripFix>): Promise<Map<string, TripFix[]>> {
    const spans: WorkedSpan[] = [];
    for (const [assetId, w] of items) {
      const lastT = this.folds.get(assetId)?.folder.lastT ?? null;
      if (lastT === null || w.fixes.length === 0 || w.fixes[0]!.t <= lastT) continue;
      spans.push({ assetId, fromMs: lastT, toMs: w.fixes[w.fixes.length - 1]!.t, n: new Set(w.fixes.map((f) => f.t)).size });
    }
    if (spans.length === 0) return new Map();
    const stored = await fixesElsewhere(this.db, items[0]![1].orgId, spans, FIX_TUPLE);
    return new Map([...stored].map(([assetId, tuples]) => [assetId, tuples.map(tripFixOf)]));
  }

  /**
   * The folds of vehicles from their stored positions, each from where a fix at its `at` can change
   * its trips and stops, to its newest position (every row from there on is replaced). One statement
   * for up to RECOMPUTE_CHUNK vehicles on a server, where every statement costs a plan and a round
   * trip (on Citus, the coordinator's and the worker's: a second instance behind a load balancer
   * recomputes each vehicle it meets, issue 49); one a vehicle on the embedded database, whose
   * statements hold ingest while they run.
   */
  private async recomputeMany(orgId: string, asks: ReadonlyArray<{ assetId: string; at: number }>, now = Date.now()): Promise<Map<string, VehicleFold>> {
    const out = new Map<string, VehicleFold>();
    const chunk = this.shared ? RECOMPUTE_CHUNK : 1;
    for (let i = 0; i < asks.length; i += chunk) {
      for (const r of await recomputeReads(this.db, orgId, asks.slice(i, i + chunk), now)) {
        this.stats.recomputed++;
        const folder = new TripFolder(r.anchored);
        for (const tuple of r.j ? (JSON.parse(r.j) as unknown[][]) : []) folder.add(tripFixOf(tuple));
        out.set(r.v, { folder, replaceFrom: new Date(r.from_t).getTime(), openWrittenAt: null, openSig: null });
      }
    }
    return out;
  }

  /** What the vehicle's rows need now: null when nothing changed. */
  private pending(orgId: string, assetId: string, vf: VehicleFold): VehicleWrite | null {
    const done = vf.folder.take();
    const open = vf.folder.openStop();
    const trips = done.flatMap((d) => (d.kind === 'trip' ? [d.trip] : []));
    const stops = done.flatMap((d) => (d.kind === 'stop' ? [d.stop] : []));
    const sig = open ? `${open.start.t}|${Math.round(open.idleMs / 1000)}|${engineOn(open)}` : null;
    if (vf.replaceFrom === null && done.length === 0 && sig === vf.openSig) return null;
    const firstStart = done.length ? (done[0]!.kind === 'trip' ? done[0]!.trip.start.t : done[0]!.stop.start.t) : (open?.start.t ?? Infinity);
    const from = Math.min(vf.replaceFrom ?? Infinity, vf.openWrittenAt ?? Infinity, firstStart);
    if (open) stops.push(open);
    vf.openSig = sig;
    vf.openWrittenAt = open?.start.t ?? null;
    vf.replaceFrom = null;
    return Number.isFinite(from) ? { orgId, assetId, from, trips, stops } : null;
  }

  /** Every vehicle's changed rows in one transaction of four statements (the embedded database answers on ingest's thread). */
  private async write(writes: VehicleWrite[]): Promise<void> {
    if (writes.length === 0) return;
    await writeRows(this.db, writes);
    this.stats.written += writes.length;
  }

  /**
   * One vehicle's trips and stops computed again from its positions, from where a fix at `atMs`
   * could change them (tests). Through the queue, as every write: one writer per vehicle here.
   */
  async recomputeVehicle(orgId: string, assetId: string, atMs: number): Promise<void> {
    await this.hurried(() => this.touch(assetId, orgId, atMs));
  }

  /** Queues vehicles and waits for the queue, its pauses skipped meanwhile (a catch-up is not fixes gathering). */
  private async hurried(queue: () => void): Promise<void> {
    this.hurry = true;
    try {
      queue();
      await this.queue.idle();
    } finally {
      this.hurry = false;
    }
  }

  /**
   * At start-up: every vehicle with a latest position is computed again from the stop before its
   * latest (or, with none yet, from CATCH_UP_DAYS back), so positions stored while no instance
   * followed them (a restart, the demo's history) have their trips and stops. Returns the vehicles.
   */
  async catchUp(): Promise<number> {
    const rows = rowsOf<{ asset_id: string; organization_id: string; fix_time: string | Date }>(
      await this.db.execute(sql`select asset_id, organization_id, fix_time from latest_positions order by organization_id, asset_id`),
    );
    // Through the queue, so a live round and the catch-up never write one vehicle from two folds.
    await this.hurried(() => {
      for (const r of rows) this.touch(r.asset_id, r.organization_id, new Date(r.fix_time).getTime());
    });
    return rows.length;
  }
}

/** Engine on at a stop: now for the open one; for one that ended, for most of it. Null: the device reports no ignition. */
export function engineOn(s: FoldedStop): boolean | null {
  if (!s.ignitionKnown) return null;
  if (s.endedAt === null) return s.lastIgnition === true;
  return s.idleMs * 2 >= s.endedAt - s.start.t;
}

const iso = (ms: number) => new Date(ms).toISOString();
/** The first key of the per-vehicle advisory locks of the writes (the second is the vehicle's). */
const TRIPS_LOCK_CLASS = 724_311_163;
const addressOf = (lat: number, lon: number) => describeLocation(lat, lon).text;
const SYSTEM: Actor = { userId: null, email: null, role: 'SYSTEM', ip: null };
/** The columns a recompute compares (besides the vehicle and the start, which name a row). */
const TRIP_COLUMNS: Record<string, ColumnKind> = {
  driver_id: 'text',
  ended_at: 'time',
  start_lat: 'float8',
  start_lon: 'float8',
  end_lat: 'float8',
  end_lon: 'float8',
  start_address: 'text',
  end_address: 'text',
  distance_m: 'float8',
  max_speed_kmh: 'real',
  avg_speed_kmh: 'real',
};
const STOP_COLUMNS: Record<string, ColumnKind> = {
  driver_id: 'text',
  ended_at: 'time',
  lat: 'float8',
  lon: 'float8',
  address: 'text',
  idle_s: 'int',
  engine_on: 'bool',
};

async function writeRows(db: Db, writes: VehicleWrite[]): Promise<void> {
  const byOrg = new Map<string, VehicleWrite[]>();
  for (const w of writes) byOrg.set(w.orgId, [...(byOrg.get(w.orgId) ?? []), w]);
  const assets = [...new Set(writes.map((w) => w.assetId))].sort();
  await db.transaction(async (tx) => {
    // Two instances replacing one vehicle's rows at once would both delete, then both insert: each
    // takes the vehicle's lock for the transaction first (in one order, so never a deadlock).
    await tx.execute(sql`select pg_advisory_xact_lock(${TRIPS_LOCK_CLASS}, hashtext(a)) from unnest(${`{${assets.join(',')}}`}::text[]) as a order by a`);
    // Statements per organization (a round holds one), naming it: on Citus each goes to its worker.
    for (const [orgId, list] of byOrg) await writeOrganization(tx, orgId, list);
  });
}

async function writeOrganization(tx: DbOrTx, orgId: string, writes: VehicleWrite[]): Promise<void> {
  const cut = JSON.stringify(writes.map((w) => ({ asset_id: w.assetId, from_at: iso(w.from) })));
  const trips = writes.flatMap((w) =>
    w.trips.map((t) => {
      const hours = (t.end.t - t.start.t) / 3_600_000;
      return {
        asset_id: w.assetId,
        driver_id: t.start.driverId,
        started_at: iso(t.start.t),
        ended_at: iso(t.end.t),
        start_lat: t.start.lat,
        start_lon: t.start.lon,
        end_lat: t.end.lat,
        end_lon: t.end.lon,
        start_address: addressOf(t.start.lat, t.start.lon),
        end_address: addressOf(t.end.lat, t.end.lon),
        distance_m: t.distanceM,
        max_speed_kmh: t.maxSpeedKmh,
        avg_speed_kmh: hours > 0 ? t.distanceM / 1000 / hours : 0,
      };
    }),
  );
  const stops = writes.flatMap((w) =>
    w.stops.map((s) => ({
      asset_id: w.assetId,
      driver_id: s.start.driverId,
      started_at: iso(s.start.t),
      ended_at: s.endedAt === null ? null : iso(s.endedAt),
      lat: s.start.lat,
      lon: s.start.lon,
      address: addressOf(s.start.lat, s.start.lon),
      idle_s: Math.round(s.idleMs / 1000),
      engine_on: engineOn(s),
    })),
  );
  // Drivers deleted meanwhile are left out, read apart: Citus refuses the correlated subquery that
  // did it beside json_to_recordset (decision 0169).
  const driverIds = [...new Set([...trips, ...stops].flatMap((r) => (r.driver_id ? [r.driver_id] : [])))];
  const known = new Set(
    driverIds.length
      ? rowsOf<{ id: string }>(
          await tx.execute(sql`select id from drivers where organization_id = ${orgId} and id = any(${`{${driverIds.join(',')}}`}::uuid[])`),
        ).map((d) => d.id)
      : [],
  );
  const withKnown = <T extends { driver_id: string | null }>(rows: readonly T[]) =>
    rows.map((r) => ({ ...r, driver_id: r.driver_id && known.has(r.driver_id) ? r.driver_id : null }));
  // A vehicle's rows from its cut on are brought to the fold's: the same fixes always give the same
  // rows, and a row found again keeps its id and is not written (a restart rewrites nothing); a
  // finished one found different, or no longer, is a correction (decision 0238).
  const stored = async (table: 'trips' | 'vehicle_stops') =>
    rowsOf<DerivedRow>(
      await tx.execute(sql`select row_to_json(x)::text as j from ${sql.raw(table)} x join json_to_recordset(${cut}::json) as c(asset_id uuid, from_at timestamptz) on x.asset_id = c.asset_id
        where x.organization_id = ${orgId} and x.started_at >= c.from_at`),
    );
  const tripRows = reconcileDerived(await stored('trips'), withKnown(trips), TRIP_COLUMNS);
  const stopRows = reconcileDerived(await stored('vehicle_stops'), withKnown(stops), STOP_COLUMNS);
  const ids = (list: readonly string[]) => `{${list.join(',')}}`;
  if (tripRows.deletes.length) await tx.execute(sql`delete from trips where organization_id = ${orgId} and id = any(${ids(tripRows.deletes)}::uuid[])`);
  if (stopRows.deletes.length) await tx.execute(sql`delete from vehicle_stops where organization_id = ${orgId} and id = any(${ids(stopRows.deletes)}::uuid[])`);
  if (tripRows.updates.length)
    await tx.execute(sql`update trips t set driver_id = x.driver_id, ended_at = x.ended_at, start_lat = x.start_lat, start_lon = x.start_lon, end_lat = x.end_lat, end_lon = x.end_lon,
        start_address = x.start_address, end_address = x.end_address, distance_m = x.distance_m, max_speed_kmh = x.max_speed_kmh, avg_speed_kmh = x.avg_speed_kmh
      from json_to_recordset(${JSON.stringify(tripRows.updates)}::json) as x(id uuid, driver_id uuid, ended_at timestamptz,
        start_lat float8, start_lon float8, end_lat float8, end_lon float8, start_address text, end_address text, distance_m float8, max_speed_kmh real, avg_speed_kmh real)
      where t.organization_id = ${orgId} and t.id = x.id`);
  if (stopRows.updates.length)
    await tx.execute(sql`update vehicle_stops s set driver_id = x.driver_id, ended_at = x.ended_at, lat = x.lat, lon = x.lon, address = x.address, idle_s = x.idle_s, engine_on = x.engine_on
      from json_to_recordset(${JSON.stringify(stopRows.updates)}::json) as x(id uuid, driver_id uuid, ended_at timestamptz, lat float8, lon float8, address text, idle_s int, engine_on boolean)
      where s.organization_id = ${orgId} and s.id = x.id`);
  if (tripRows.inserts.length)
    await tx.execute(sql`insert into trips (organization_id, asset_id, driver_id, started_at, ended_at, start_lat, start_lon, end_lat, end_lon, start_address, end_address,
        distance_m, max_speed_kmh, avg_speed_kmh)
      select ${orgId}::uuid, x.asset_id, x.driver_id, x.started_at, x.ended_at, x.start_lat, x.start_lon, x.end_lat, x.end_lon,
        x.start_address, x.end_address, x.distance_m, x.max_speed_kmh, x.avg_speed_kmh
      from json_to_recordset(${JSON.stringify(tripRows.inserts)}::json) as x(asset_id uuid, driver_id uuid, started_at timestamptz, ended_at timestamptz,
        start_lat float8, start_lon float8, end_lat float8, end_lon float8, start_address text, end_address text, distance_m float8, max_speed_kmh real, avg_speed_kmh real)`);
  // The per-day totals the safety scores read (decision 0199), from the same cut, in the same transaction.
  await refreshTripDailyTotals(tx, orgId, cut);
  if (stopRows.inserts.length)
    await tx.execute(sql`insert into vehicle_stops (organization_id, asset_id, driver_id, started_at, ended_at, lat, lon, address, idle_s, engine_on)
      select ${orgId}::uuid, x.asset_id, x.driver_id, x.started_at, x.ended_at, x.lat, x.lon, x.address, x.idle_s, x.engine_on
      from json_to_recordset(${JSON.stringify(stopRows.inserts)}::json) as x(asset_id uuid, driver_id uuid, started_at timestamptz, ended_at timestamptz,
        lat float8, lon float8, address text, idle_s int, engine_on boolean)`);
  const corrections = [...tripRows.corrections.map((c) => ({ ...c, type: 'TRIP' })), ...stopRows.corrections.map((c) => ({ ...c, type: 'VEHICLE_STOP' }))];
  if (corrections.length)
    await recordActivityBatch(
      tx,
      corrections.map((c) => ({ orgId, actor: SYSTEM, action: 'CORRECTION', entityType: c.type, entityId: c.before.id, before: c.before, after: c.after })),
    );
}

/** Vehicles a server's recomputation reads in one statement (each read may hold hours of fixes). */
const RECOMPUTE_CHUNK = 10;

/**
 * What recomputing each vehicle starts from, in one statement: the anchor is the last stop started
 * by `at`, or the one before when a fix within that stop can undo the trip before it (movement that
 * makes the stop too short); without one, the vehicle's first trip or stop (at the latest `at`; with
 * neither, CATCH_UP_DAYS back). Then its fixes from there, as one JSON text: on the embedded database
 * three times quicker than a row per fix (the demo's week, 120,000 fixes, reads in 0.4 s instead of
 * 1.2-1.9 s). Every table is read for the organization, so Citus routes the whole to its shard.
 */
async function recomputeReads(db: DbOrTx, orgId: string, asks: ReadonlyArray<{ assetId: string; at: number }>, now: number) {
  // One vehicle (the embedded database's way): its id and time as values the planner sees. Through
  // json_to_recordset they are unknown until run, and on statistics older than the fleet (1,000 new
  // vehicles since the last ANALYZE) the embedded database read a vehicle's fixes by a skip scan of
  // the month's primary key: 50 ms a vehicle instead of 0.1.
  const keys =
    asks.length === 1
      ? sql`(select ${asks[0]!.assetId}::uuid as a, ${new Date(asks[0]!.at).toISOString()}::timestamptz as at) as k`
      : sql`json_to_recordset(${JSON.stringify(asks.map((a) => ({ a: a.assetId, at: new Date(a.at).toISOString() })))}::json) as k(a uuid, at timestamptz)`;
  const floor = new Date(now - CATCH_UP_DAYS * 86_400_000).toISOString();
  const lastStops = (offset: number) =>
    sql`(select started_at from vehicle_stops where organization_id = ${orgId} and asset_id = k.a and started_at <= k.at order by started_at desc offset ${offset} limit 1)`;
  return rowsOf<{ v: string; anchored: boolean; from_t: string | Date; j: string | null }>(
    await db.execute(sql`select k.a as v, x.anchor is not null as anchored, x.from_t,
        (select json_agg(${FIX_TUPLE} order by p.fix_time) from positions p where p.organization_id = ${orgId} and p.asset_id = k.a
          and p.fix_time >= x.from_t - ${HALF_MS})::text as j
      from ${keys}
      cross join lateral (
        select y.anchor, coalesce(y.anchor, least(k.at, coalesce(least(
            (select min(started_at) from trips where organization_id = ${orgId} and asset_id = k.a),
            (select min(started_at) from vehicle_stops where organization_id = ${orgId} and asset_id = k.a)), ${floor}::timestamptz))) as from_t
        from (select case when exists (select 1 from vehicle_stops s where s.organization_id = ${orgId} and s.asset_id = k.a and s.started_at = ${lastStops(0)} and (s.ended_at is null or s.ended_at >= k.at))
          then ${lastStops(1)} else ${lastStops(0)} end as anchor) y) x`),
  );
}

/**
 * An anchor is a stored stop's start, the millisecond its first fix rounds to (tripFixOf): a fix
 * stored with a finer time (a row written in bulk from fractional seconds) lies up to half a
 * millisecond before it, and read from the anchor itself the stop would begin at the next fix and
 * be rewritten (decision 0298).
 */
const HALF_MS = sql`interval '500 microseconds'`;

/** A positions row `p` as the JSON array `tripFixOf` reads: [epoch ms, lat, lon, speed, ignition, driver]. */
const FIX_TUPLE = sql`json_build_array(extract(epoch from p.fix_time)::float8 * 1000, p.latitude, p.longitude, p.speed, p.ignition, p.driver_id)`;
function tripFixOf(tuple: unknown[]): TripFix {
  const [t, lat, lon, speed, ignition, driverId] = tuple as [number, number, number, number | null, boolean | null, string | null];
  return { t: Math.round(t), lat, lon, speed, ignition, driverId };
}
