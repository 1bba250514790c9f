import { describeLocation } from '@fleet/geo/places';
import { HOS_EVENT_TYPES } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../../db/client.ts';
import { QueuedFollower, type Round, VehicleQueue } from '../../positions/index.ts';
import { CATCH_UP_DAYS, insertEvents, lockVehicles, type EventToWrite } from '../auto-duty/auto-duty.repository.ts';
import { engineChanges, engineCode, type EngineChange, type IgnitionFix } from './derive.ts';
import { inPersonalConveyance, lastEngineEvents, reconcileReadsMany, reportingVehicles } from './engine-events.repository.ts';

// Engine power-up and shut-down records (type 6) behind ingest, a follower of the position commit
// (decision 0155). Committed fixes are worked per vehicle in rounds: a vehicle whose ignition did not
// change since the last fix costs nothing; a change (or a fix older than what was seen, or a vehicle
// not seen since the start) is reconciled with the stored records under the vehicle's derivation lock,
// so a restart, a late fix or two instances never record one change twice.

interface Cached {
  /** The engine state after the newest fix seen (null: unknown). */
  on: boolean | null;
  /** The newest fix seen (ms). */
  lastFix: number;
  verifiedAt: number;
  /**
   * Whether the fixes up to `lastFix` were worked here. False when the state was read from the stored
   * records: fixes stored after the newest record may never have been worked (a process killed
   * between their commit and its round), so the next change is reconciled from that record on.
   */
  worked: boolean;
}

export interface EngineEventsOptions {
  onError?: (err: unknown) => void;
  /** How long a vehicle's state is trusted without reading the records (another instance may write the vehicle). */
  verifyAfterMs?: number;
  maxCached?: number;
}

export interface EngineEventsStats {
  eventsWritten: number;
  reconciled: number;
  failures: number;
}

const ROUND_VEHICLES = 500;
const ROUND_PAUSE_MS = 100;
const CATCH_UP_MS = CATCH_UP_DAYS * 86_400_000;

export class EngineEvents extends QueuedFollower<IgnitionFix> {
  protected readonly queue: VehicleQueue<IgnitionFix>;
  private readonly cache = new Map<string, Cached>();
  readonly stats: EngineEventsStats = { eventsWritten: 0, reconciled: 0, failures: 0 };
  private readonly onError: (err: unknown) => void;
  private readonly verifyAfterMs: number;
  private readonly maxCached: number;

  constructor(
    private readonly db: Db,
    opts: EngineEventsOptions = {},
  ) {
    super();
    this.onError = opts.onError ?? (() => undefined);
    this.verifyAfterMs = opts.verifyAfterMs ?? 60_000;
    this.maxCached = opts.maxCached ?? 100_000;
    this.queue = new VehicleQueue<IgnitionFix>({
      fixOf: (r) => ({
        time: r.fixTime.getTime(),
        ignition: r.ignition,
        lat: r.latitude,
        lon: r.longitude,
        odometerM: r.odometer,
        engineHours: r.engineHours,
        driverId: r.driverId,
      }),
      pauseMs: (waiting) => (waiting >= ROUND_VEHICLES ? 0 : ROUND_PAUSE_MS),
      roundVehicles: ROUND_VEHICLES,
      byOrganization: true,
      round: (items) => this.round(items[0]![1].orgId, items),
      failed: (items, err) => {
        // The fixes are stored: the vehicle is reconciled from them on its next fix or the next start.
        this.stats.failures++;
        for (const [v] of items) this.cache.delete(v);
        this.onError(err);
      },
    });
  }

  private async round(orgId: string, items: Round<IgnitionFix>): Promise<void> {
    const now = Date.now();
    const work: Array<{ v: string; known: IgnitionFix[] }> = [];
    for (const [v, { fixes }] of items) {
      const known = fixes.filter((f) => f.ignition !== null);
      if (known.length === 0) continue;
      known.sort((a, b) => a.time - b.time);
      work.push({ v, known });
    }
    // Vehicles not known here (or not lately): their newest records, for all of them in one statement.
    const unsure = work.filter(({ v }) => {
      const c = this.cache.get(v);
      return !c || now - c.verifiedAt >= this.verifyAfterMs;
    });
    const stored = await lastEngineEvents(
      this.db,
      orgId,
      unsure.map((w) => w.v),
    );
    for (const { v } of unsure) {
      const last = stored.get(v);
      const c = this.cache.get(v);
      // The state after the newest record; fixes older than it are late and go to the reconciliation.
      if (!last) this.remember(v, { on: c?.on ?? null, lastFix: c?.lastFix ?? -Infinity, verifiedAt: now, worked: c?.worked ?? false });
      else if (!c || last.time > c.lastFix) this.remember(v, { on: last.on, lastFix: last.time, verifiedAt: now, worked: false });
      else {
        if (last.time === c.lastFix) c.on = last.on;
        c.verifiedAt = now;
      }
    }
    const again: Array<{ vehicleId: string; fromMs: number; toMs: number }> = [];
    for (const { v, known } of work) {
      const c = this.cache.get(v)!;
      const first = known[0]!.time;
      const last = known[known.length - 1]!.time;
      if (first > c.lastFix && c.worked) {
        const { changes, state } = engineChanges(c.on, known, []);
        if (changes.length === 0) {
          c.on = state;
          c.lastFix = last;
          continue;
        }
      }
      // A change, a late fix, or a vehicle whose fixes since its newest record were not worked here
      // (a restart: the soak found a power-up recorded 10 s late, from the first fix after a SIGKILL
      // instead of the stored one before it): the stored records decide, from that record on.
      const from = c.worked ? first : Math.min(first, Number.isFinite(c.lastFix) ? c.lastFix : now - CATCH_UP_MS);
      again.push({ vehicleId: v, fromMs: from, toMs: last });
    }
    if (again.length) await this.reconcileMany(orgId, again);
  }

  /**
   * Records the engine changes of the vehicle's stored fixes from `fromMs` up to `toMs` (and on to
   * its next record, which a late fix may have seen first) that its records do not hold yet.
   * Returns how many were written.
   */
  async reconcile(vehicleId: string, orgId: string, fromMs: number, toMs: number): Promise<number> {
    return this.reconcileMany(orgId, [{ vehicleId, fromMs, toMs }]);
  }

  /**
   * `reconcile` for several vehicles of one organization in one transaction of a fixed number of
   * statements (their locks, their records and fixes, the drivers' personal conveyance, the insert):
   * a round's vehicles new to this instance cost four statements each before (issue 49).
   */
  async reconcileMany(orgId: string, vehicles: ReadonlyArray<{ vehicleId: string; fromMs: number; toMs: number }>): Promise<number> {
    this.stats.reconciled += vehicles.length;
    return this.db.transaction(async (tx) => {
      await lockVehicles(
        tx,
        vehicles.map((v) => v.vehicleId),
      );
      const reads = await reconcileReadsMany(tx, orgId, vehicles);
      const work = vehicles.map(({ vehicleId, toMs }) => {
        const { start, stored, fixes } = reads.get(vehicleId)!;
        return { vehicleId, toMs, start, stored, fixes, changes: engineChanges(start, fixes, stored).changes };
      });
      const written = await this.write(
        tx,
        orgId,
        work.flatMap((w) => w.changes.map((change) => ({ vehicleId: w.vehicleId, change }))),
      );
      for (const { vehicleId, toMs, start, stored, fixes, changes } of work) {
        const next = stored.find((s) => s.time > toMs);
        const c = this.cache.get(vehicleId);
        if (!next) {
          const records = [...stored, ...changes.map((x) => ({ time: x.time, on: x.on }))].sort((a, b) => a.time - b.time);
          const on = engineChanges(start, fixes, records).state;
          this.remember(vehicleId, { on, lastFix: Math.max(toMs, fixes.at(-1)?.time ?? toMs), verifiedAt: Date.now(), worked: true });
        } else if (c && c.lastFix >= next.time) c.verifiedAt = Date.now();
        // Fixes after the next record were not read: the vehicle's next round reads the records again.
        else this.cache.delete(vehicleId);
      }
      return written;
    });
  }

  /** Several vehicles' changes as type-6 records, in time order (a driver's sequence ids follow it). */
  private async write(tx: DbOrTx, orgId: string, items: ReadonlyArray<{ vehicleId: string; change: EngineChange }>): Promise<number> {
    if (items.length === 0) return 0;
    const ordered = [...items].sort((a, b) => a.change.time - b.change.time);
    const withDriver = ordered.filter((c) => c.change.fix.driverId !== null);
    const pc = await inPersonalConveyance(
      tx,
      orgId,
      withDriver.map(({ change: c }) => ({ driverId: c.fix.driverId!, time: c.time })),
    );
    const reduced = new Set(withDriver.filter((_, i) => pc[i]));
    const events: EventToWrite[] = ordered.map((item) => {
      const { vehicleId, change: c } = item;
      const r = reduced.has(item);
      // Reduced precision: one decimal, as the driver's other records in personal conveyance (4.7.3).
      const round = (x: number) => (r ? Math.round(x * 10) / 10 : x);
      return {
        driverId: c.fix.driverId,
        vehicleId,
        eventType: HOS_EVENT_TYPES.ENGINE_POWER,
        eventCode: engineCode(c.on, r),
        time: c.time,
        lat: round(c.fix.lat),
        lon: round(c.fix.lon),
        odometerM: c.fix.odometerM,
        engineHours: c.fix.engineHours,
        location: describeLocation(c.fix.lat, c.fix.lon, { reduced: r }).text,
      };
    });
    const written = await insertEvents(tx, orgId, events);
    this.stats.eventsWritten += written.length;
    return written.length;
  }

  /**
   * Start-up catch-up: every vehicle that reported in the last CATCH_UP_DAYS is reconciled from its
   * last engine record (or the start of that window) to its newest fix, so the changes in positions
   * stored before this start (a restart, the demo history) are recorded once.
   */
  async catchUp(now = Date.now()): Promise<number> {
    const since = now - CATCH_UP_MS;
    let n = 0;
    for (const v of await reportingVehicles(this.db, since)) {
      if (v.lastEvent !== null && v.lastEvent >= v.newest) continue;
      n += await this.reconcile(v.vehicleId, v.orgId, Math.max(since, v.lastEvent ?? since), v.newest);
    }
    return n;
  }

  private remember(vehicleId: string, c: Cached): void {
    this.cache.delete(vehicleId);
    this.cache.set(vehicleId, c);
    if (this.cache.size > this.maxCached) this.cache.delete(this.cache.keys().next().value!);
  }
}
