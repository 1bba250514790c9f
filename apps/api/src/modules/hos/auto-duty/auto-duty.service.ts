import { inArray, sql } from 'drizzle-orm';
import { HOS_RECORD_ORIGINS } from '@fleet/api-contract';
import type { Db } from '../../../db/client.ts';
import { latestPositions } from '../../../db/schema/index.ts';
import { QueuedFollower, type Round, VehicleQueue } from '../../positions/index.ts';
import { rowsOf } from '../../../db/sql/rows.ts';
import {
  CATCH_UP_DAYS,
  fixesOfMany,
  insertEvents,
  lastDerivedEvents,
  lockVehicles,
  newestOf,
  stateOf,
  withoutOverridden,
  type Watermark,
} from './auto-duty.repository.ts';
import { deriveDutyEvents, initialDutyState, type DerivedEvent, type DutyFix, type DutyState } from './derive.ts';

// Automatic duty status behind ingest (decision 0095), a follower of the position commit:
// positions are committed and acknowledged first; their rows then go to the vehicle queue, are
// derived in memory, and only when a derivation yields events is a transaction opened (vehicle
// advisory lock, driver row locks).

/** How far back a restart or a cold vehicle re-derives when its last derived event is older. */
export const CATCH_UP_MS = CATCH_UP_DAYS * 86_400_000;

interface Cached {
  orgId: string;
  state: DutyState;
  /** The newest derived event in the database as this instance last saw or wrote it. */
  watermark: Watermark | null;
  /** When the watermark was last read or written (ms). */
  verifiedAt: number;
}

export interface AutoDutyOptions {
  onError?: (err: unknown) => void;
  /** Most vehicles whose state is kept in memory; the least recently used is dropped first. */
  maxCached?: number;
  /**
   * How long a vehicle's cached state is trusted without reading its watermark: another instance
   * may have derived fixes of the same vehicle (a load balancer spreads a device's posts).
   */
  verifyAfterMs?: number;
}

export interface AutoDutyStats {
  /** Fixes skipped because they were older than the vehicle's state (late or out of order). */
  lateFixes: number;
  eventsWritten: number;
  /** Derivations redone from the database because another instance had written the vehicle. */
  rebuilt: number;
  failures: number;
}

/** Vehicles taken from the queue per round: one transaction writes all their events. */
const ROUND_VEHICLES = 500;
/**
 * Pause before each round: fixes gather meanwhile, so under load a round (and its one
 * transaction) covers many vehicles instead of each group commit's few. Records appear this much
 * later, which no reader notices.
 */
const ROUND_PAUSE_MS = 100;

interface Derived {
  vehicleId: string;
  state: DutyState;
  events: DerivedEvent[];
  watermark: Watermark | null;
}

/**
 * The automatic-duty pipeline of one process. `enqueue` is synchronous and cheap; the vehicle
 * queue works it in rounds, so a vehicle's fixes are derived in order and ingest never waits for
 * it. A round costs the database nothing when no vehicle's status changes, and otherwise one
 * transaction of a fixed number of statements for all the round's vehicles of an organization.
 */
export class AutoDuty extends QueuedFollower<DutyFix> {
  private readonly cache = new Map<string, Cached>();
  /**
   * Vehicles of a failed round, not derived since: the round's first fix, and the state this
   * instance had of a vehicle with no derived event yet. Their next round derives them from the
   * database from there (decision 0328).
   */
  private readonly owed = new Map<string, { orgId: string; fromMs: number; state: DutyState | null }>();
  protected readonly queue: VehicleQueue<DutyFix>;
  readonly stats: AutoDutyStats = { lateFixes: 0, eventsWritten: 0, rebuilt: 0, failures: 0 };
  private readonly onError: (err: unknown) => void;
  private readonly maxCached: number;
  private readonly verifyAfterMs: number;

  constructor(
    private readonly db: Db,
    opts: AutoDutyOptions = {},
  ) {
    super();
    this.onError = opts.onError ?? (() => undefined);
    this.maxCached = opts.maxCached ?? 100_000;
    this.verifyAfterMs = opts.verifyAfterMs ?? 60_000;
    this.queue = new VehicleQueue<DutyFix>({
      fixOf: (r) => ({
        time: r.fixTime.getTime(),
        speedKmh: speedOfRow(r.speed, r.attributes),
        lat: r.latitude,
        lon: r.longitude,
        odometerM: r.odometer,
        engineHours: r.engineHours,
        ignition: r.ignition,
        driverId: r.driverId,
      }),
      // Let acknowledgements and group commits go first, and fixes gather for one round.
      pauseMs: (waiting) => (waiting >= ROUND_VEHICLES ? 0 : ROUND_PAUSE_MS),
      roundVehicles: ROUND_VEHICLES,
      byOrganization: true,
      round: (items) => this.round(items[0]![1].orgId, items),
      failed: (items, err) => {
        // The fixes are stored; these vehicles are re-derived from them on their next fix or restart,
        // from their last derived event, or (never derived) from the failed round's first fix on
        // (decision 0328): without it a vehicle whose first round failed started at its next fixes.
        this.stats.failures++;
        for (const [v, { orgId, fixes }] of items) {
          const c = this.cache.get(v);
          this.cache.delete(v);
          const first = fixes.reduce((m, f) => Math.min(m, f.time), Infinity);
          const owed = this.owed.get(v);
          if (owed) owed.fromMs = Math.min(owed.fromMs, first);
          // What this instance had derived of it without writing anything (idle so far) is where it goes on.
          else if (Number.isFinite(first)) this.owed.set(v, { orgId, fromMs: first, state: c && c.orgId === orgId && c.watermark === null ? c.state : null });
        }
        this.onError(err);
      },
    });
  }

  private async round(orgId: string, items: Round<DutyFix>): Promise<void> {
    const now = Date.now();
    const fromDb = new Set<string>();
    const unsure = items.filter(([v]) => {
      const c = this.cache.get(v);
      return !c || c.orgId !== orgId || now - c.verifiedAt >= this.verifyAfterMs;
    });
    if (unsure.length) {
      const marks = await lastDerivedEvents(
        this.db,
        orgId,
        unsure.map(([v]) => v),
      );
      for (const [v] of unsure) {
        if (this.owed.has(v)) {
          // A failed round's fixes are not in this one: derived from the database.
          this.cache.delete(v);
          fromDb.add(v);
          continue;
        }
        const c = this.cache.get(v);
        const m = marks.get(v);
        if (c && c.orgId === orgId && (m?.id ?? null) === (c.watermark?.id ?? null)) {
          c.verifiedAt = now;
          continue;
        }
        if (c) this.stats.rebuilt++;
        // Never derived: it starts at these fixes. Derived before: from its last event on.
        if (!m) this.cache.set(v, { orgId, state: initialDutyState(v), watermark: null, verifiedAt: now });
        else {
          this.cache.delete(v);
          fromDb.add(v);
        }
      }
    }
    const changed: Derived[] = [];
    for (const [v, { fixes }] of items) {
      if (fromDb.has(v)) continue;
      const c = this.cache.get(v)!;
      if (fixes.length > 1) fixes.sort((a, b) => a.time - b.time);
      const { events, state } = deriveDutyEvents(c.state, fixes);
      this.stats.lateFixes += state.skipped - c.state.skipped;
      if (events.length) changed.push({ vehicleId: v, state, events, watermark: c.watermark });
      // Nothing to write (most rounds): the cached entry moves on in place, its recency unchanged
      // (an evicted vehicle only costs a read of its watermark when it comes back).
      else c.state = state;
    }
    if (changed.length) {
      const conflicts = await this.db.transaction(async (tx) => {
        const ids = changed.map((d) => d.vehicleId);
        await lockVehicles(tx, ids);
        const marks = await lastDerivedEvents(tx, orgId, ids);
        const ok = changed.filter((d) => (marks.get(d.vehicleId)?.id ?? null) === (d.watermark?.id ?? null));
        const written = await insertEvents(
          tx,
          orgId,
          await withoutOverridden(
            tx,
            orgId,
            ok.flatMap((d) => d.events),
          ),
        );
        this.stats.eventsWritten += written.length;
        const newest = newestByVehicle(written);
        for (const d of ok) this.remember(d.vehicleId, { orgId, state: d.state, watermark: newest.get(d.vehicleId) ?? d.watermark, verifiedAt: Date.now() });
        return changed.filter((d) => !ok.includes(d));
      });
      for (const d of conflicts) {
        // Another instance derived this vehicle meanwhile: start again from what it stored.
        this.stats.rebuilt++;
        this.cache.delete(d.vehicleId);
        fromDb.add(d.vehicleId);
      }
    }
    // Vehicles new here (or written by another instance meanwhile), derived from the database together.
    const again = items
      .filter(([v]) => fromDb.has(v))
      .map(([vehicleId, { fixes, until }]) => {
        const owed = this.owed.get(vehicleId);
        const toMs = Math.max(until, ...fixes.map((f) => f.time), owed?.fromMs ?? -Infinity);
        return owed ? { vehicleId, toMs, firstNewMs: owed.fromMs, ...(owed.state ? { state: owed.state } : {}) } : { vehicleId, toMs };
      });
    if (again.length) await this.rederiveMany(orgId, again);
  }

  /**
   * Derives a vehicle from the database: the state after its last derived event, then its stored
   * fixes after that event (at most CATCH_UP_MS back) up to `toMs`. A vehicle never derived starts
   * at `firstNewMs` (its older history is not turned into records).
   */
  async rederive(vehicleId: string, orgId: string, toMs: number, firstNewMs = toMs): Promise<number> {
    return this.rederiveMany(orgId, [{ vehicleId, toMs, firstNewMs }]);
  }

  /**
   * `rederive` for several vehicles of one organization in one transaction of a fixed number of
   * statements (their locks, their last events, their fixes, the drivers' states, the insert),
   * however many: a round of vehicles new to this instance (a restart, a second instance) cost five
   * statements a vehicle, which on Citus is most of what a position costs (issue 49). `state`: what
   * this instance had derived of a vehicle with no derived event (its fixes up to `state.last`, which
   * gave none); it goes on from there instead of starting blank at `firstNewMs`.
   */
  async rederiveMany(orgId: string, vehicles: ReadonlyArray<{ vehicleId: string; toMs: number; firstNewMs?: number; state?: DutyState }>): Promise<number> {
    const ids = vehicles.map((v) => v.vehicleId);
    const n = await this.db.transaction(async (tx) => {
      await lockVehicles(tx, ids);
      const lasts = await lastDerivedEvents(tx, orgId, ids);
      const plans = vehicles.map(({ vehicleId, toMs, firstNewMs = toMs, state }) => {
        const last = lasts.get(vehicleId);
        const stored = last ? stateOf(last) : null;
        const start = stored?.state ?? (state?.last ? state : initialDutyState(vehicleId));
        const fromMs = stored ? Math.max(stored.watermark.time, toMs - CATCH_UP_MS) : start.last ? start.last.time : firstNewMs - 1;
        return { vehicleId, toMs, stored, start, fromMs };
      });
      const fixes = await fixesOfMany(tx, orgId, plans);
      const derived = plans.map((p) => ({ ...p, ...deriveDutyEvents(p.start, fixes.get(p.vehicleId) ?? []) }));
      const written = await insertEvents(
        tx,
        orgId,
        await withoutOverridden(
          tx,
          orgId,
          derived.flatMap((d) => d.events),
        ),
      );
      this.stats.eventsWritten += written.length;
      const newest = newestByVehicle(written);
      for (const d of derived)
        this.remember(d.vehicleId, { orgId, state: d.state, watermark: newest.get(d.vehicleId) ?? d.stored?.watermark ?? null, verifiedAt: Date.now() });
      return written.length;
    });
    // Derived from the database up to their newest fixes: nothing of a failed round is owed any more.
    for (const v of vehicles) if ((this.owed.get(v.vehicleId)?.fromMs ?? Infinity) <= v.toMs) this.owed.delete(v.vehicleId);
    return n;
  }

  /**
   * Start-up catch-up: every vehicle whose newest stored fix is newer than its last derived event
   * (of the last CATCH_UP_DAYS) is re-derived from its positions, so nothing ingested before a
   * restart is lost.
   */
  async catchUp(now = Date.now()): Promise<number> {
    const since = new Date(now - (CATCH_UP_DAYS + 1) * 86_400_000).toISOString().slice(0, 10);
    const marks = rowsOf<{ vehicle_id: string; t: Date | string }>(
      await this.db.execute(sql`select vehicle_id, max(event_time) as t from hos_events
        where log_date >= ${since} and vehicle_id is not null and record_origin = 1 and event_type in (1, 2) group by vehicle_id`),
    );
    if (marks.length === 0) return 0;
    const derivedUntil = new Map(marks.map((m) => [m.vehicle_id, new Date(m.t).getTime()]));
    const latest = await this.db
      .select({ v: latestPositions.assetId, o: latestPositions.organizationId, t: latestPositions.fixTime })
      .from(latestPositions)
      .where(inArray(latestPositions.assetId, [...derivedUntil.keys()]));
    let n = 0;
    for (const r of latest) if (r.t.getTime() > derivedUntil.get(r.v)!) n += await this.rederive(r.v, r.o, r.t.getTime());
    return n;
  }

  private remember(vehicleId: string, c: Cached): void {
    this.cache.delete(vehicleId); // most recently used last
    this.cache.set(vehicleId, c);
    if (this.cache.size > this.maxCached) this.cache.delete(this.cache.keys().next().value!);
  }
}

/** A fix's speed: the GNSS one, else the engine's (`vehicleSpeed`, km/h) when the device sends only that (decision 0155). */
export function speedOfRow(speed: number | null, attributes: Readonly<Record<string, unknown>>): number | null {
  if (speed !== null && Number.isFinite(speed)) return speed;
  const v = attributes.vehicleSpeed;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

/** Each vehicle's newest automatic event among rows just written. */
function newestByVehicle(written: ReadonlyArray<{ id: string; vehicleId: string; time: number; origin: number }>): Map<string, Watermark> {
  const groups = new Map<string, Array<{ id: string; time: number }>>();
  for (const w of written) {
    if (w.origin !== HOS_RECORD_ORIGINS.AUTOMATIC) continue;
    const g = groups.get(w.vehicleId);
    if (g) g.push(w);
    else groups.set(w.vehicleId, [w]);
  }
  const out = new Map<string, Watermark>();
  for (const [v, g] of groups) out.set(v, newestOf(g)!);
  return out;
}
