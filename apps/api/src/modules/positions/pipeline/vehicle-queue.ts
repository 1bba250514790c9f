import type { PositionRow } from './position-row.ts';

// The queue every follower of a commit keeps (decision 0095 set the pattern): committed rows are
// pushed per vehicle (synchronous and cheap, nothing else on ingest's path), and one drain loop
// works the vehicles in rounds after a pause in which fixes gather, so a vehicle's fixes are worked
// in order and ingest never waits for a follower.

/** A vehicle's queued work. */
export interface Waiting<F> {
  orgId: string;
  /** What its committed rows became, in the order handed in. */
  fixes: F[];
  /** The newest fix time handed in or asked for (ms). */
  until: number;
}

/** A round's vehicles, each with what waited for it (off the queue while the round works). */
export type Round<F> = Array<[vehicleId: string, waiting: Waiting<F>]>;

export interface VehicleQueueOptions<F> {
  /** What a committed row becomes in the queue. */
  fixOf(row: PositionRow): F;
  /** The pause before a round while fixes gather (ms), given how many vehicles wait. */
  pauseMs(waiting: number): number;
  /** Vehicles a round takes at the most (default: every one waiting). */
  roundVehicles?: number;
  /** For each round, whether a waiting vehicle may join it (asked in queue order); default: all. */
  admit?(): (vehicleId: string) => boolean;
  /** One round per organization (the round's vehicles grouped by theirs), or one for all. */
  byOrganization: boolean;
  /**
   * Rounds in passes: a pause, then every vehicle waiting when it ended is served in rounds back to
   * back (with `again`, vehicles a round put back count in the pass), then the next pause; `idle()`
   * ends a pause at once. Otherwise every round pauses first and `idle()` waits the pause out.
   */
  passes?: boolean;
  /** After a round of a pass: whether this vehicle of it is waiting again within the same pass. */
  again?(vehicleId: string): boolean;
  /** Works one round. */
  round(items: Round<F>): Promise<void>;
  /** A round failed: its fixes are stored, so the follower forgets what it kept for these vehicles and recomputes them later. */
  failed(items: Round<F>, err: unknown): void;
}

export class VehicleQueue<F> {
  private pending = new Map<string, Waiting<F>>();
  private draining: Promise<void> | null = null;
  /** Ends the current pause of a pass early. */
  private wake: (() => void) | null = null;
  /** Callers waiting in idle(): a pass starts without its pause meanwhile. */
  private hurry = 0;
  private isClosed = false;

  constructor(private readonly o: VehicleQueueOptions<F>) {}

  get closed(): boolean {
    return this.isClosed;
  }

  /** Whether a drain loop is running (something is queued or being worked). */
  get busy(): boolean {
    return this.draining !== null;
  }

  get size(): number {
    return this.pending.size;
  }

  has(vehicleId: string): boolean {
    return this.pending.has(vehicleId);
  }

  /** Committed rows of vehicles (`stored[i]` false: a duplicate, which was not stored and is skipped). */
  enqueue(rows: readonly PositionRow[], stored: readonly boolean[]): void {
    if (this.isClosed) return;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (!stored[i] || r.assetId === null) continue;
      const t = r.fixTime.getTime();
      let p = this.pending.get(r.assetId);
      if (!p) this.pending.set(r.assetId, (p = { orgId: r.organizationId, fixes: [], until: t }));
      p.fixes.push(this.o.fixOf(r));
      if (t > p.until) p.until = t;
    }
    this.kick();
  }

  /** Queues a vehicle with no new fixes, to be worked up to `untilMs` (what is stored of it). */
  touch(vehicleId: string, orgId: string, untilMs: number): void {
    if (this.isClosed) return;
    const p = this.pending.get(vehicleId);
    if (p) p.until = Math.max(p.until, untilMs);
    else this.pending.set(vehicleId, { orgId, fixes: [], until: untilMs });
    this.kick();
  }

  /** From a round: a vehicle's work goes back on the queue, ahead of what was handed in meanwhile. */
  putBack(vehicleId: string, w: Waiting<F>): void {
    const later = this.pending.get(vehicleId);
    this.pending.set(vehicleId, {
      orgId: w.orgId,
      fixes: later ? [...w.fixes, ...later.fixes] : [...w.fixes],
      until: Math.max(w.until, later?.until ?? -Infinity),
    });
  }

  /**
   * Resolves when everything queued so far is worked (tests, benchmarks, shutdown); then, while
   * `more` (the follower's own after-work) says there was more, again.
   */
  async idle(more?: () => Promise<boolean>): Promise<void> {
    this.hurry++;
    try {
      for (;;) {
        while (this.draining) {
          this.wake?.();
          await this.draining;
        }
        if (!more || !(await more())) return;
      }
    } finally {
      this.hurry--;
    }
  }

  /** Works what is queued, then takes nothing more. */
  async close(): Promise<void> {
    await this.idle();
    this.isClosed = true;
  }

  private kick(): void {
    if (this.pending.size && !this.draining) this.draining = this.drain();
  }

  private async drain(): Promise<void> {
    let passLeft = 0;
    while (this.pending.size) {
      if (!this.o.passes) await new Promise((r) => setTimeout(r, this.o.pauseMs(this.pending.size)));
      else if (passLeft <= 0 && this.hurry === 0) await this.pause(this.o.pauseMs(this.pending.size));
      if (passLeft <= 0) passLeft = this.pending.size;
      const items = this.take();
      if (items.length === 0) continue;
      passLeft -= items.length;
      if (!this.o.byOrganization) {
        if (await this.run(items)) for (const [v] of items) if (this.o.again?.(v)) passLeft++;
        continue;
      }
      const byOrg = new Map<string, Round<F>>();
      for (const item of items) {
        const list = byOrg.get(item[1].orgId);
        if (list) list.push(item);
        else byOrg.set(item[1].orgId, [item]);
      }
      for (const group of byOrg.values()) if (await this.run(group)) for (const [v] of group) if (this.o.again?.(v)) passLeft++;
    }
    this.draining = null;
  }

  private async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
    this.wake = null;
  }

  /** The round's vehicles, off the queue in queue order. */
  private take(): Round<F> {
    const max = this.o.roundVehicles ?? Infinity;
    const admit = this.o.admit?.();
    const items: Round<F> = [];
    for (const [vehicleId, w] of this.pending) {
      if (items.length >= max) break;
      if (admit && !admit(vehicleId)) continue;
      this.pending.delete(vehicleId);
      items.push([vehicleId, w]);
    }
    return items;
  }

  private async run(items: Round<F>): Promise<boolean> {
    try {
      await this.o.round(items);
      return true;
    } catch (err) {
      this.o.failed(items, err);
      return false;
    }
  }
}

/**
 * A follower whose work is its vehicle queue (automatic duty status, daily statistics): committed
 * rows go to the queue, and waiting for it or closing it is waiting for or closing the follower.
 */
export abstract class QueuedFollower<F> {
  protected abstract readonly queue: VehicleQueue<F>;

  /** Hands committed rows to the queue (rows of vehicles only; duplicates, `stored[i]` false, are not worked twice). */
  enqueue(rows: readonly PositionRow[], stored: readonly boolean[]): void {
    this.queue.enqueue(rows, stored);
  }

  /** Resolves when everything queued so far is worked (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
