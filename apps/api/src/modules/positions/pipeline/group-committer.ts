import type { Db } from '../../../db/client.ts';
import type { LatePositionsOptions, PositionRow } from './position-row.ts';
import { writePositions, type WriteResult } from './position-store.ts';

// The group commit: what every way in writes through. Rows arriving together are stored in one
// statement (position-store.ts) and each request is answered once that statement has committed;
// the followers of a commit (follower.ts) are handed the rows after that.

/**
 * A group's statement is its whole transaction, so when PostgreSQL aborts it to break a deadlock
 * (two writers inserting the same new vehicles' latest rows in opposite order: rare, see
 * ShardedCommitter) or a serialisation failure, nothing of it was committed and running it again is
 * safe; storing is idempotent on (device, fix time) anyway.
 */
async function writeRetrying(db: Db, rows: readonly PositionRow[]): Promise<WriteResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writePositions(db, rows);
    } catch (err) {
      const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      if (attempt >= 5 || (code !== '40P01' && code !== '40001')) throw err;
    }
  }
}

interface Pending {
  rows: PositionRow[];
  resolve: (r: WriteResult) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: rows that arrive within `windowMs` of each other (or while a write is running) are
 * written in one transaction, and every request is answered only after that transaction commits.
 * One writer at a time per process keeps vehicles' latest rows from deadlocking each other.
 */
export class GroupCommitter {
  private queue: Pending[] = [];
  private queuedRows = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  /** Transactions committed so far (tests and benchmarks read it). */
  transactions = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: { windowMs?: number; maxRows?: number } = {},
  ) {}

  /**
   * Resolves once the rows are committed. More rows than one group holds are written as several
   * groups (one statement's parameters are limited); a retry after a failure is safe, since storing
   * is idempotent on (device, fix time).
   */
  write(rows: PositionRow[]): Promise<WriteResult> {
    if (this.closed) return Promise.reject(new Error('ingest is shutting down'));
    const max = this.opts.maxRows ?? 2000;
    if (rows.length > max) {
      const parts: Promise<WriteResult>[] = [];
      for (let i = 0; i < rows.length; i += max) parts.push(this.write(rows.slice(i, i + max)));
      return Promise.all(parts).then((r) => ({ stored: r.flatMap((x) => x.stored) }));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      this.queuedRows += rows.length;
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.timer) return;
    if (this.queuedRows >= (this.opts.maxRows ?? 2000)) {
      void this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.opts.windowMs ?? 2);
  }

  private async flush(): Promise<void> {
    if (this.running || this.queue.length === 0) return;
    const max = this.opts.maxRows ?? 2000;
    const batch: Pending[] = [];
    let n = 0;
    while (this.queue.length && (batch.length === 0 || n + this.queue[0]!.rows.length <= max)) {
      const p = this.queue.shift()!;
      batch.push(p);
      n += p.rows.length;
    }
    this.queuedRows -= n;
    const run = (async () => {
      try {
        const all = batch.flatMap((p) => p.rows);
        const result = await writeRetrying(this.db, all);
        this.transactions++;
        let offset = 0;
        for (const p of batch) {
          p.resolve({ stored: result.stored.slice(offset, offset + p.rows.length) });
          offset += p.rows.length;
        }
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    })();
    this.running = run;
    await run;
    this.running = null;
    if (this.queue.length) {
      // Whatever arrived during the write goes now: it already waited one transaction.
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      void this.flush();
    }
  }

  /** Waits for queued writes, then refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.queue.length || this.running) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      if (!this.running) void this.flush();
      await this.running;
    }
  }
}

/** What the ingest routes write through: one group committer, or several (ShardedCommitter), with the followers of a commit behind it. */
export interface PositionWriter {
  write(rows: PositionRow[]): Promise<WriteResult>;
  /**
   * Positions already stored that now belong to a vehicle (a pairing with a past start, an import):
   * the followers of a commit take them as late positions.
   */
  late?(rows: readonly PositionRow[], opts: LatePositionsOptions): void;
  close(): Promise<void>;
  /** Transactions committed so far (tests and benchmarks read it). */
  readonly transactions: number;
}

/**
 * Several group committers for a PostgreSQL server (docs/decisions/0072; one by default, the INGEST_WRITERS setting). One writer caps
 * single-position ingest at (connections waiting) / (one commit's latency): at 50 connections and
 * ~6 ms per commit (fsync on) about 4,000 positions a second, with the server's CPU mostly idle
 * while it waits for the disk. Each device belongs to one writer (by its id), so a device's fixes
 * stay in order and two writers never touch the same device's rows or, while the device stays
 * paired, the same vehicle's latest row; both lock latest rows in key order (an index scan over
 * `= any(array)`), and a deadlock that slips through (a vehicle re-paired to a second device
 * mid-burst) is retried, since a group is one statement. PGlite has one connection: one writer.
 */
export class ShardedCommitter implements PositionWriter {
  readonly lanes: GroupCommitter[];

  constructor(db: Db, writers: number, opts: { windowMs?: number; maxRows?: number } = {}) {
    this.lanes = Array.from({ length: Math.max(1, writers) }, () => new GroupCommitter(db, opts));
  }

  get transactions(): number {
    let n = 0;
    for (const l of this.lanes) n += l.transactions;
    return n;
  }

  /** Rows of one device (every ingest request's rows are) go to that device's writer. */
  write(rows: PositionRow[]): Promise<WriteResult> {
    const lanes = this.lanes;
    if (lanes.length === 1 || rows.length === 0) return lanes[0]!.write(rows);
    const first = rows[0]!.gatewayId;
    if (rows.every((r) => r.gatewayId === first)) return lanes[laneOf(first, lanes.length)]!.write(rows);
    // Mixed devices (a caller's own batch): split by writer, answer in the input order.
    const parts = new Map<number, number[]>();
    rows.forEach((r, i) => {
      const k = laneOf(r.gatewayId, lanes.length);
      const list = parts.get(k);
      if (list) list.push(i);
      else parts.set(k, [i]);
    });
    return Promise.all(
      [...parts].map(async ([k, idx]) => {
        const r = await lanes[k]!.write(idx.map((i) => rows[i]!));
        return { idx, stored: r.stored };
      }),
    ).then((results) => {
      const stored = new Array<boolean>(rows.length);
      for (const { idx, stored: s } of results) idx.forEach((i, j) => (stored[i] = s[j]!));
      return { stored };
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.lanes.map((l) => l.close()));
  }
}

/** A device's writer: the last 4 hex digits of its id (random in a v4 or v7 UUID). */
const laneOf = (gatewayId: string, n: number) => (parseInt(gatewayId.slice(-4), 16) || 0) % n;
