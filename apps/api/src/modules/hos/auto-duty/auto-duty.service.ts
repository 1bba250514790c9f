import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/client.ts';
import { latestPositions } from '../../../db/schema/index.ts';
import type { PositionRow, PositionWriter, WriteResult } from '../../positions/ingest.service.ts';
import { rowsOf } from '../../positions/sql-rows.ts';
import { fixesOf, insertEvents, lastDerivedEvent, lockVehicle, storedState, type Watermark } from './auto-duty.repository.ts';
import { deriveDutyEvents, initialDutyState, type DutyFix, type DutyState } from './derive.ts';

// Automatic duty status behind ingest (decision 0095): positions are committed and acknowledged
// first; their rows then go to an in-process queue per vehicle, derived in memory, and only when
// a derivation yields events is a transaction opened (vehicle advisory lock, driver row locks).

/** How far back a restart or a cold vehicle re-derives when its last derived event is older. */
export const CATCH_UP_MS = 8 * 86_400_000;

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

/**
 * The automatic-duty pipeline of one process. `enqueue` is synchronous and cheap; one drain loop
 * works the queue, so a vehicle's fixes are derived in order and ingest never waits for it.
 */
export class AutoDuty {
  private readonly cache = new Map<string, Cached>();
  private pending = new Map<string, { orgId: string; fixes: DutyFix[] }>();
  private draining: Promise<void> | null = null;
  private closed = false;
  readonly stats: AutoDutyStats = { lateFixes: 0, eventsWritten: 0, rebuilt: 0, failures: 0 };

  private readonly onError: (err: unknown) => void;
  private readonly maxCached: number;
  private readonly verifyAfterMs: number;

  constructor(
    private readonly db: Db,
    opts: AutoDutyOptions = {},
  ) {
    this.onError = opts.onError ?? (() => undefined);
    this.maxCached = opts.maxCached ?? 100_000;
    this.verifyAfterMs = opts.verifyAfterMs ?? 60_000;
  }

  /** Hands newly stored rows to the queue (rows of vehicles only; duplicates are not derived twice). */
  enqueue(rows: readonly PositionRow[], stored: readonly boolean[]): void {
    if (this.closed) return;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (!stored[i] || r.assetId === null) continue;
      let p = this.pending.get(r.assetId);
      if (!p) this.pending.set(r.assetId, (p = { orgId: r.organizationId, fixes: [] }));
      p.fixes.push({ time: r.fixTime.getTime(), speedKmh: r.speed, lat: r.latitude, lon: r.longitude, odometerM: r.odometer, driverId: r.driverId });
    }
    if (this.pending.size && !this.draining) this.draining = this.drain();
  }

  /** Resolves when everything queued so far is derived and written (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  async close(): Promise<void> {
    await this.idle();
    this.closed = true;
  }

  private async drain(): Promise<void> {
    // Let the acknowledgements go out first: the queue works between requests, not before them.
    await new Promise((r) => setImmediate(r));
    while (this.pending.size) {
      const batch = this.pending;
      this.pending = new Map();
      for (const [vehicleId, p] of batch) {
        try {
          await this.process(vehicleId, p.orgId, p.fixes);
        } catch (err) {
          // The fixes are stored; the vehicle is re-derived from them on its next fix or restart.
          this.stats.failures++;
          this.cache.delete(vehicleId);
          this.onError(err);
        }
      }
    }
    this.draining = null;
  }

  private async process(vehicleId: string, orgId: string, fixes: DutyFix[]): Promise<void> {
    fixes.sort((a, b) => a.time - b.time);
    let cached = this.cache.get(vehicleId);
    if (cached && Date.now() - cached.verifiedAt >= this.verifyAfterMs) {
      const stored = await lastDerivedEvent(this.db, vehicleId);
      if ((stored?.id ?? null) !== (cached.watermark?.id ?? null)) {
        this.stats.rebuilt++;
        cached = undefined;
      } else cached.verifiedAt = Date.now();
    }
    if (!cached || cached.orgId !== orgId) {
      await this.rederive(vehicleId, orgId, fixes[fixes.length - 1]!.time, fixes[0]!.time);
      return;
    }
    this.cache.delete(vehicleId); // re-inserted below: most recently used last
    const before = cached.state.skipped;
    const { events, state } = deriveDutyEvents(cached.state, fixes);
    this.stats.lateFixes += state.skipped - before;
    if (events.length === 0) {
      this.remember(vehicleId, { ...cached, state });
      return;
    }
    const done = await this.db.transaction(async (tx) => {
      await lockVehicle(tx, vehicleId);
      const stored = await storedState(tx, vehicleId);
      if ((stored?.watermark.id ?? null) !== (cached.watermark?.id ?? null)) return false;
      this.stats.eventsWritten += await insertEvents(tx, orgId, events);
      const last = events[events.length - 1]!;
      this.remember(vehicleId, { orgId, state, watermark: { id: await lastId(tx, vehicleId), time: last.time }, verifiedAt: Date.now() });
      return true;
    });
    if (!done) {
      // Another instance derived this vehicle meanwhile: start again from what it stored.
      this.stats.rebuilt++;
      await this.rederive(vehicleId, orgId, fixes[fixes.length - 1]!.time, fixes[0]!.time);
    }
  }

  /**
   * Derives a vehicle from the database: the state after its last derived event, then its stored
   * fixes after that event (at most CATCH_UP_MS back) up to `toMs`. A vehicle never derived starts
   * at `firstNewMs`, the first fix handed in (its older history is not turned into records).
   */
  async rederive(vehicleId: string, orgId: string, toMs: number, firstNewMs = toMs): Promise<number> {
    return this.db.transaction(async (tx) => {
      await lockVehicle(tx, vehicleId);
      const stored = await storedState(tx, vehicleId);
      const fromMs = stored ? Math.max(stored.watermark.time, toMs - CATCH_UP_MS) : firstNewMs - 1;
      const fixes = await fixesOf(tx, vehicleId, fromMs, toMs);
      const { events, state } = deriveDutyEvents(stored?.state ?? initialDutyState(vehicleId), fixes);
      const n = await insertEvents(tx, orgId, events);
      this.stats.eventsWritten += n;
      const watermark = events.length ? { id: await lastId(tx, vehicleId), time: events[events.length - 1]!.time } : (stored?.watermark ?? null);
      this.remember(vehicleId, { orgId, state, watermark, verifiedAt: Date.now() });
      return n;
    });
  }

  /**
   * Start-up catch-up: every vehicle whose newest stored fix is newer than its last derived event
   * is re-derived from its positions (nothing ingested before a restart is lost).
   */
  async catchUp(now = Date.now()): Promise<number> {
    const rows = rowsOf<{ asset_id: string; organization_id: string; fix_time: Date | string }>(
      await this.db.execute(sql`
        select lp.asset_id, lp.organization_id, lp.fix_time from ${latestPositions} lp
        where lp.fix_time > ${new Date(now - CATCH_UP_MS)}
          and lp.fix_time > coalesce((select max(e.event_time) from hos_events e where e.vehicle_id = lp.asset_id and e.record_origin = 1 and e.event_type in (1, 2)), '-infinity')
          and exists (select 1 from hos_events e where e.vehicle_id = lp.asset_id and e.record_origin = 1)`),
    );
    let n = 0;
    for (const r of rows) n += await this.rederive(r.asset_id, r.organization_id, new Date(r.fix_time).getTime());
    return n;
  }

  private remember(vehicleId: string, c: Cached): void {
    this.cache.set(vehicleId, c);
    if (this.cache.size > this.maxCached) this.cache.delete(this.cache.keys().next().value!);
  }
}

async function lastId(tx: DbOrTx, vehicleId: string): Promise<string> {
  const s = await storedState(tx, vehicleId);
  return s!.watermark.id;
}

/** Wraps the ingest writer: rows reach the queue only once committed (and answered). */
export function withAutoDuty(writer: PositionWriter, auto: AutoDuty): PositionWriter {
  return {
    async write(rows: PositionRow[]): Promise<WriteResult> {
      const r = await writer.write(rows);
      auto.enqueue(rows, r.stored);
      return r;
    },
    close: () => writer.close(),
    get transactions() {
      return writer.transactions;
    },
  };
}
