import { sql } from 'drizzle-orm';
import type { TrackFix } from '@fleet/geo/ifta';
import { locateJurisdiction } from '@fleet/geo/jurisdictions';
import type { Db, DbOrTx } from '../../db/client.ts';
import { type PositionRow, type Round, VehicleQueue, type Waiting } from '../positions/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { nextDate } from '../hos/index.ts';
import { accumulateDays, type DayClock, type DayRecords } from './distance-days.ts';
import { iftaClockOf } from './ifta-zone.ts';
import { citusOf } from '../../db/database-kind.ts';
import { rebuildRuns, widenedDays } from './ifta-recompute.ts';
import { deleteDirtyMarks } from './ifta-recompute.repository.ts';
import {
  fixesAfterMany,
  fixesBetween,
  lockVehicles,
  neighbours,
  readStates,
  replaceDays,
  writeRound,
  type VehicleDays,
  type VehicleState,
} from './ifta-miles.repository.ts';

// IFTA miles behind ingest (decision 0121), a follower of the position commit like automatic duty
// status (decision 0095): committed rows go to the vehicle queue, worked in rounds, each one
// transaction for all its vehicles (lock, read their last counted fix, one write statement).
// Positions are the durable input: a restart continues every vehicle from its stored state, and
// days that received late fixes are marked in the round's transaction and recomputed from the
// stored positions shortly after.

export interface IftaMilesOptions {
  onError?: (err: unknown) => void;
  /**
   * Pause before each round, so a vehicle's fixes gather and each round writes one row per vehicle,
   * day and jurisdiction for many fixes (default 5 s; the return is read minutes or days later).
   */
  roundPauseMs?: number;
  /** Vehicles per round (default 1,000); a pass over more runs several rounds back to back. */
  roundVehicles?: number;
  /** A dirty day is recomputed this long after it was marked, so a burst of late fixes costs one recompute (default 2 s). */
  dirtyDelayMs?: number;
  /**
   * Whether other processes may write the same vehicles (PostgreSQL with several instances): then
   * every round locks its vehicles and reads their states; otherwise (PGlite) states are kept in memory.
   */
  shared: boolean;
  /**
   * Stored fixes one cold read may return, all vehicles together (default 2,500,000: 500 vehicles x
   * 5,000). On PGlite the read runs on the API's own thread: 50,000 rows held every request for 1-3 s
   * after a first start, so there it is 10,000 (decision 0151).
   */
  coldReadFixes?: number;
}

export interface IftaMilesStats {
  rounds: number;
  fixes: number;
  lateFixes: number;
  /** Stored fixes read back for cold vehicles (fixes handed in are not read back). */
  storedFixesRead: number;
  recomputedDays: number;
  failures: number;
  /** Time spent handing rows to the queue, on the ingest path (synchronous, so it is this thread's CPU). */
  enqueueMs: number;
}

/**
 * The embedded database answers on the API's thread: a recompute's read holds every request while
 * it runs, so there it returns fewer fixes at a time (a day of a fix every 20 s).
 */
const EMBEDDED_FIXES_PER_READ = 5_000;

/** Vehicles a recompute transaction rebuilds together (their locks held for its length). */
const RECOMPUTE_VEHICLES = 100;

/** Vehicles per round, by default. */
const ROUND_VEHICLES = 1000;
/** Cold vehicles (never seen by this process) read their stored fixes, all in one statement, up to this many a round ... */
const COLD_PER_ROUND = 500;
/** ... and this many fixes each (a long history is counted over several rounds). */
const COLD_CHUNK_FIXES = 5_000;
const COLD_READ_FIXES = COLD_PER_ROUND * COLD_CHUNK_FIXES;

/** A vehicle's queued fixes; `until`, the newest fix time handed in (the catch-up reads stored fixes up to it). */
type Pending = Waiting<TrackFix>;

export class IftaMiles {
  private readonly queue: VehicleQueue<TrackFix>;
  /** Vehicles whose stored fixes up to their state are all counted, as far as this process knows. */
  private readonly warm = new Set<string>();
  /** Last counted fix per vehicle, trusted only when the database is not shared. */
  private readonly states = new Map<string, VehicleState>();
  private dirtyTimer: NodeJS.Timeout | null = null;
  /**
   * Organizations with days marked dirty by this process's rounds or found at its catch-up:
   * recomputeDirty reads each one's marks by name (on Citus its shard alone, decision 0204).
   */
  private readonly dirtyOrgs = new Set<string>();
  /** Each organization's IFTA calendar (its base jurisdiction's zone), read again after a minute. */
  private readonly clocks = new Map<string, { clock: DayClock; readAt: number }>();
  readonly stats: IftaMilesStats = { rounds: 0, fixes: 0, lateFixes: 0, storedFixesRead: 0, recomputedDays: 0, failures: 0, enqueueMs: 0 };
  private readonly onError: (err: unknown) => void;
  private readonly dirtyDelayMs: number;
  /** Fixes a cold vehicle reads per round, and cold vehicles per round (coldReadFixes split). */
  private readonly coldChunk: number;
  private readonly coldPerRound: number;

  constructor(
    private readonly db: Db,
    private readonly opts: IftaMilesOptions,
  ) {
    this.onError = opts.onError ?? (() => undefined);
    this.dirtyDelayMs = opts.dirtyDelayMs ?? 2000;
    const coldRead = opts.coldReadFixes ?? COLD_READ_FIXES;
    this.coldChunk = Math.min(COLD_CHUNK_FIXES, Math.max(1, Math.floor(coldRead / 4)));
    this.coldPerRound = Math.max(1, Math.min(COLD_PER_ROUND, Math.floor(coldRead / this.coldChunk)));
    const roundPauseMs = opts.roundPauseMs ?? 5000;
    this.queue = new VehicleQueue<TrackFix>({
      fixOf: (r) => ({ time: r.fixTime.getTime(), lat: r.latitude, lon: r.longitude, speedKmh: r.speed ?? 0, odometerM: r.odometer }),
      pauseMs: () => roundPauseMs,
      roundVehicles: opts.roundVehicles ?? ROUND_VEHICLES,
      // A cold vehicle reads its stored fixes: a few per round, the rest wait their turn.
      admit: () => {
        let cold = 0;
        return (v) => this.warm.has(v) || cold++ < this.coldPerRound;
      },
      // One round per organization: its statements name it (on Citus, its shard alone) and its
      // transaction never spans two organizations (decision 0204).
      byOrganization: true,
      // A pass serves every vehicle pending when its pause ended, then pauses again: a fleet larger
      // than one round still gathers each vehicle's fixes for the pause (rounds of a fix or two per
      // vehicle back to back would write a row per fix).
      passes: true,
      // A cold vehicle with more stored history than a round reads came back still cold: its next
      // chunk belongs to this pass (a catch-up after a long stop runs without pauses).
      again: (v) => !this.warm.has(v) && this.queue.has(v),
      round: async (items) => {
        if (await this.round(items)) this.scheduleDirty();
      },
      failed: (items, err) => {
        // The fixes are stored: these vehicles are recounted from the database on their next fix or at restart.
        this.stats.failures++;
        for (const [v] of items) {
          this.warm.delete(v);
          this.states.delete(v);
        }
        this.onError(err);
      },
    });
  }

  /**
   * Loads the bundled boundaries and builds their index (0.5-0.9 s, decision 0101) now rather than
   * in the first round after start-up, which would hold that round's vehicles back as long.
   */
  loadBoundaries(): void {
    locateJurisdiction(39, -95);
  }

  /** Hands newly stored rows to the queue (vehicles only; duplicates are never counted twice). */
  enqueue(rows: readonly PositionRow[], stored: readonly boolean[]): void {
    if (this.queue.closed) return;
    const started = performance.now();
    this.queue.enqueue(rows, stored);
    this.stats.enqueueMs += performance.now() - started;
  }

  /** Asks for a vehicle's stored fixes after its state to be counted (start-up catch-up, history written in bulk). */
  touch(vehicleId: string, orgId: string, untilMs: number): void {
    if (this.queue.closed) return;
    this.warm.delete(vehicleId);
    this.queue.touch(vehicleId, orgId, untilMs);
  }

  /** Resolves when everything queued so far is counted and no dirty day is waiting (tests, benchmarks, shutdown). */
  idle(opts: { dirty?: boolean } = {}): Promise<void> {
    return this.queue.idle(opts.dirty ? async () => (await this.recomputeDirty(0)) > 0 || this.queue.busy : undefined);
  }

  async close(): Promise<void> {
    await this.queue.close();
    if (this.dirtyTimer) clearTimeout(this.dirtyTimer);
  }

  /** The organizations' IFTA calendars (decision 0189), from memory when read in the last minute. */
  private async clocksOf(db: DbOrTx, orgIds: Iterable<string>): Promise<(orgId: string) => DayClock> {
    const now = Date.now();
    for (const orgId of new Set(orgIds)) {
      const known = this.clocks.get(orgId);
      if (known && now - known.readAt < 60_000) continue;
      this.clocks.set(orgId, { clock: await iftaClockOf(db, orgId), readAt: now });
    }
    return (orgId) => this.clocks.get(orgId)!.clock;
  }

  /** One round: returns whether days were marked dirty. */
  private async round(items: Round<TrackFix>): Promise<boolean> {
    this.stats.rounds++;
    const ids = items.map(([v]) => v);
    // The queue hands rounds of one organization (byOrganization).
    const orgId = items[0]![1].orgId;
    const shared = this.opts.shared;
    const clockOf = await this.clocksOf(this.db, [orgId]);
    const routed = citusOf(this.db) !== null;
    const run = async (tx: DbOrTx) => {
      if (shared) await lockVehicles(tx, ids);
      const unknown = shared ? ids : ids.filter((v) => !this.states.has(v));
      const read = unknown.length ? await readStates(tx, orgId, unknown) : new Map<string, VehicleState>();
      const records: VehicleDays[] = [];
      const newStates: VehicleState[] = [];
      const dirty: Array<{ vehicleId: string; orgId: string; day: string }> = [];
      const stateOf = (v: string) => (shared ? (read.get(v) ?? null) : (this.states.get(v) ?? read.get(v) ?? null));
      // Cold: count what is stored after the state (what a restart or a bulk write left), in chunks.
      // The fixes handed in are stored too and are not read back when the table holds nothing else
      // after the oldest of them (a busy new vehicle would otherwise read its stream back each round).
      const cold = await fixesAfterMany(
        tx,
        items
          .filter(([v]) => !this.warm.has(v))
          .map(([v, p]) => ({ vehicleId: v, orgId: p.orgId, afterMs: stateOf(v)?.fix.time ?? null, untilMs: p.until, ...inMemory(p) })),
        this.coldChunk,
      );
      for (const [vehicleId, p] of items) {
        let state = stateOf(vehicleId);
        let fixes: TrackFix[];
        let more = false;
        if (!this.warm.has(vehicleId)) {
          fixes = cold.get(vehicleId) ?? [];
          this.stats.storedFixesRead += fixes.length;
          more = fixes.length === this.coldChunk;
          // Fixes handed in after the read are newer than it and still count; older ones are in `fixes`.
          const last = fixes.length ? fixes[fixes.length - 1]!.time : (state?.fix.time ?? -Infinity);
          if (!more) for (const f of p.fixes) if (f.time > last) fixes.push(f);
        } else fixes = p.fixes;
        fixes.sort((a, b) => a.time - b.time);
        const days: DayRecords = new Map();
        const fresh: TrackFix[] = [];
        for (const f of fixes) {
          if (state && f.time <= state.fix.time) {
            // Late: its day (and the pair around it) is recomputed from the stored fixes.
            if (!(f.time === state.fix.time && f.lat === state.fix.lat && f.lon === state.fix.lon)) {
              this.stats.lateFixes++;
              dirty.push({ vehicleId, orgId: p.orgId, day: clockOf(p.orgId).dayOf(f.time) });
            }
            continue;
          }
          if (fresh.length && f.time === fresh[fresh.length - 1]!.time) continue;
          fresh.push(f);
        }
        this.stats.fixes += fresh.length;
        const last = accumulateDays(days, state?.fix ?? null, fresh, { clock: clockOf(p.orgId) });
        if (last && last !== state?.fix) {
          state = { vehicleId, orgId: p.orgId, fix: last };
          newStates.push(state);
        }
        records.push({ vehicleId, orgId: p.orgId, days });
        if (more) {
          // The rest next round, with whatever was handed in meanwhile.
          this.queue.putBack(vehicleId, p);
        } else this.warm.add(vehicleId);
        if (state && !shared) this.states.set(vehicleId, state);
      }
      await writeRound(tx, records, newStates, dirty, routed);
      if (dirty.length > 0) this.dirtyOrgs.add(orgId);
      return dirty.length > 0;
    };
    return shared ? this.db.transaction(run) : run(this.db);
  }

  private scheduleDirty(): void {
    if (this.dirtyTimer || this.queue.closed) return;
    this.dirtyTimer = setTimeout(() => {
      this.dirtyTimer = null;
      this.recomputeDirty(this.dirtyDelayMs)
        .then((n) => {
          if (n > 0) this.scheduleDirty();
        })
        .catch((err) => {
          this.stats.failures++;
          this.onError(err);
        });
    }, this.dirtyDelayMs);
    this.dirtyTimer.unref();
  }

  /**
   * Recomputes the vehicle-days marked dirty at least `olderThanMs` ago (a batch of them): each
   * vehicle's run of dirty days is widened to the days the pairs around them touch, and those days
   * are rebuilt from the stored fixes up to the vehicle's state. Returns how many days were rebuilt;
   * marks newer than the delay are left for the next call.
   */
  async recomputeDirty(olderThanMs: number): Promise<number> {
    let rebuilt = 0;
    for (const orgId of [...this.dirtyOrgs]) rebuilt += await this.recomputeOrganization(orgId, olderThanMs);
    return rebuilt;
  }

  /** recomputeDirty for one organization (a batch of its marks, those due first); forgets it once it has none. */
  private async recomputeOrganization(orgId: string, olderThanMs: number): Promise<number> {
    const marks = rowsOf<{ vehicle_id: string; day: string | Date; due: boolean }>(
      await this.db.execute(sql`select vehicle_id, day, marked_at <= now() - make_interval(secs => ${olderThanMs / 1000}) as due from ifta_dirty_days
        where organization_id = ${orgId} order by 3 desc, vehicle_id, day limit 500`),
    );
    if (marks.length === 0) {
      this.dirtyOrgs.delete(orgId);
      return 0;
    }
    const byVehicle = new Map<string, { orgId: string; days: string[] }>();
    for (const m of marks) {
      if (!m.due) continue;
      const day = typeof m.day === 'string' ? m.day.slice(0, 10) : m.day.toISOString().slice(0, 10);
      const e = byVehicle.get(m.vehicle_id);
      if (e) e.days.push(day);
      else byVehicle.set(m.vehicle_id, { orgId, days: [day] });
    }
    if (byVehicle.size === 0) return 0;
    let rebuilt = 0;
    const clock = (await this.clocksOf(this.db, [orgId]))(orgId);
    const routed = citusOf(this.db) !== null;
    const vehicles = [...byVehicle];
    // A batch of vehicles a transaction, each step one statement for all of them (ifta-recompute.ts).
    for (let i = 0; i < vehicles.length; i += RECOMPUTE_VEHICLES) {
      const batch = vehicles.slice(i, i + RECOMPUTE_VEHICLES);
      rebuilt += await this.db.transaction(async (tx) => {
        const ids = batch.map(([v]) => v);
        if (this.opts.shared) await lockVehicles(tx, ids);
        const states = await readStates(tx, orgId, ids);
        await deleteDirtyMarks(
          tx,
          orgId,
          batch.map(([vehicleId, { days }]) => ({ vehicleId, days })),
        );
        const dirtyRuns = batch.flatMap(([vehicleId, { days }]) => {
          const state = states.get(vehicleId);
          return state ? runs(days).map(([from, to]) => ({ vehicleId, from, to, watermarkMs: state.fix.time })) : [];
        });
        const { days, alone } = await rebuildRuns(tx, orgId, dirtyRuns, clock, {
          routed,
          fixesPerRead: this.opts.shared ? undefined : EMBEDDED_FIXES_PER_READ,
        });
        let n = days;
        // Runs whose widened days overlap another of the vehicle's: one after the other, as the plain path.
        for (const r of alone) n += await this.rebuild(tx, r.vehicleId, orgId, r.from, r.to, r.watermarkMs, clock);
        return n;
      });
    }
    this.stats.recomputedDays += rebuilt;
    return rebuilt;
  }

  /**
   * The plain recompute of one vehicle's dirty days, a transaction of its own (the reference the
   * batched recompute is compared with in ifta-recompute.test.ts).
   */
  async recomputeVehiclePlain(orgId: string, vehicleId: string, days: readonly string[]): Promise<number> {
    const clock = (await this.clocksOf(this.db, [orgId]))(orgId);
    return this.db.transaction(async (tx) => {
      if (this.opts.shared) await lockVehicles(tx, [vehicleId]);
      const state = (await readStates(tx, orgId, [vehicleId])).get(vehicleId);
      await tx.execute(
        sql`delete from ifta_dirty_days where vehicle_id = ${vehicleId} and organization_id = ${orgId} and day = any(${`{${days.join(',')}}`}::date[])`,
      );
      if (!state) return 0;
      let n = 0;
      for (const [from, to] of runs(days)) n += await this.rebuild(tx, vehicleId, orgId, from, to, state.fix.time, clock);
      return n;
    });
  }

  /** Rebuilds days [from, to] of the organization's calendar (widened to the pairs around them) from the stored fixes ≤ watermark. */
  private async rebuild(tx: DbOrTx, vehicleId: string, orgId: string, from: string, to: string, watermark: number, clock: DayClock): Promise<number> {
    const start = clock.startOf(from);
    const end = clock.startOf(nextDate(to));
    const around = await neighbours(tx, orgId, vehicleId, start, end, watermark);
    const { fromDay, toDay } = widenedDays(from, to, around, clock);
    const s = clock.startOf(fromDay);
    const e = clock.startOf(nextDate(toDay));
    const wide = fromDay === from && toDay === to ? around : await neighbours(tx, orgId, vehicleId, s, e, watermark);
    const inside = await fixesBetween(tx, orgId, vehicleId, s, e, watermark);
    const fixes = [...inside, ...(wide.after ? [wide.after] : [])];
    const days: DayRecords = new Map();
    accumulateDays(days, wide.before, fixes, { fromDay, toDay, clock });
    await replaceDays(tx, orgId, [{ vehicleId, fromDay, toDay, days }], citusOf(this.db) !== null);
    return Math.round((e - s) / 86_400_000);
  }

  /**
   * Start-up: every vehicle whose newest stored fix is newer than its counted state (or that has
   * none yet) is queued, and dirty days left by a stop are scheduled. Returns the vehicles queued.
   */
  async catchUp(): Promise<number> {
    // Organization by organization, each statement naming it (on Citus, its shard alone).
    const orgs = rowsOf<{ id: string }>(await this.db.execute(sql`select id from organizations order by id`));
    let queued = 0;
    for (const { id: orgId } of orgs) {
      const rows = rowsOf<{ asset_id: string; t: number | string; dirty: boolean }>(
        await this.db.execute(sql`select l.asset_id, extract(epoch from l.fix_time) * 1000 as t, false as dirty
          from latest_positions l left join ifta_vehicle_state s on s.vehicle_id = l.asset_id and s.organization_id = l.organization_id
          where l.organization_id = ${orgId} and (s.fix_time is null or l.fix_time > s.fix_time)
          union all select null, null, true where exists (select 1 from ifta_dirty_days where organization_id = ${orgId})`),
      );
      for (const r of rows) {
        if (r.dirty) this.dirtyOrgs.add(orgId);
        else {
          this.touch(r.asset_id, orgId, Number(r.t));
          queued++;
        }
      }
    }
    this.scheduleDirty();
    return queued;
  }
}

/** A queue's oldest fix and how many distinct later fixes it holds up to `until` (for the cold read). */
function inMemory(p: Pending): { knownFromMs?: number; knownCount?: number } {
  if (p.fixes.length === 0) return {};
  let from = Infinity;
  for (const f of p.fixes) if (f.time < from) from = f.time;
  const later = new Set<number>();
  for (const f of p.fixes) if (f.time > from && f.time <= p.until) later.add(f.time);
  return { knownFromMs: from, knownCount: later.size };
}

/** Sorted days grouped into runs of consecutive days. */
function runs(days: readonly string[]): Array<[string, string]> {
  const sorted = [...new Set(days)].sort();
  const out: Array<[string, string]> = [];
  for (const d of sorted) {
    const last = out[out.length - 1];
    if (last && nextDate(last[1]) === d) last[1] = d;
    else out.push([d, d]);
  }
  return out;
}
