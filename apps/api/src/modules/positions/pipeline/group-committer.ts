import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../../db/client.ts';
import { failureKind } from '../../../db/sql/database-error.ts';
import { pgError } from '../../../db/sql/pg-error.ts';
import { FixError, storableProblem } from './fix-check.ts';
import type { LatePositionsOptions, PositionRow } from './position-row.ts';
import { storedAt, writeOrganization, type WriteResult } from './position-store.ts';

// The group commit: what every way in writes through. Rows arriving together are stored one
// statement per organization (position-store.ts) and each request is answered once its rows'
// statement has committed; the followers of a commit (follower.ts) are handed the rows after that.

/** How long a commit keeps trying while the database is unavailable before its requests fail (the devices send again). */
export const UNAVAILABLE_RETRY_MS = 10_000;

/**
 * Rows that make a group worth writing at once, whoever else is expected: a statement's fixed cost
 * (about a millisecond on the embedded database) is then under 2 µs a row.
 */
const ENOUGH_ROWS = 500;

/** SQLSTATE lock_not_available: a lock wait ran out its lock_timeout. */
const LOCK_TIMEOUT = '55P03';

/** What happened to one commit: counted by the ingest's health (ingest-health.ts). */
export interface CommitReport {
  /** Rows stored or found stored. */
  rows: number;
  /** Organizations whose rows failed, with why (a SQLSTATE, "unavailable: …", or the error's name). */
  failures: Array<{ orgId: string; cause: string; rows: number; err: unknown }>;
  /** Statements run again (a deadlock, the database unavailable for a moment). */
  retries: number;
  /** Organizations whose rows were written. */
  succeeded: string[];
}

/** The cause a failed commit is counted under: its SQLSTATE, else its kind and message. */
export function failureCause(err: unknown): string {
  const code = pgError(err)?.code;
  if (code) return code;
  const kind = failureKind(err);
  const message = err instanceof Error ? err.message : String(err);
  return kind === 'other' ? (err instanceof Error ? err.name : 'error') : `${kind}: ${message.slice(0, 80)}`;
}

let lastCommitAt = 0;
/**
 * The time a commit stores as its rows' server time: never the same twice in this process, so a
 * commit run again after its session died can tell its own rows from a resend's (storedAt).
 */
function commitTime(): Date {
  lastCommitAt = Math.max(Date.now(), lastCommitAt + 1);
  return new Date(lastCommitAt);
}

/** Per input row of a commit: stored, refused for good (and why), or failed (and the error: the request is not answered 200). */
interface Outcome {
  stored: boolean[];
  refused: Array<FixError | null>;
  failed: unknown[];
}

/**
 * Writes a group: rows a column cannot hold are refused first (storableProblem), then each
 * organization's rows in a statement and transaction of their own, so organizations never share a
 * failure. Within an organization:
 * - a deadlock or serialisation failure runs the statement again at once (nothing was committed);
 * - the database unavailable (the embedded thread stopped, a connection cut, the server busy or
 *   shutting down) runs it again with a growing pause for up to UNAVAILABLE_RETRY_MS; whether the
 *   first run committed is unknown, so rows the later run finds stored are checked against this
 *   commit's server time (storedAt): stored once, and told to the followers once;
 * - a value the database refuses splits the rows in halves, down to the one row that fails, which
 *   is refused for good and counted; the rest are stored.
 */
async function commitGroup(db: Db, rows: readonly PositionRow[], report: CommitReport): Promise<Outcome> {
  const now = commitTime();
  const out: Outcome = { stored: rows.map(() => false), refused: rows.map(() => null), failed: rows.map(() => undefined) };
  const groups = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const problem = storableProblem(r);
    if (problem) return void (out.refused[i] = problem);
    const list = groups.get(r.organizationId);
    if (list) list.push(i);
    else groups.set(r.organizationId, [i]);
  });
  for (const [orgId, index] of groups) {
    const own = index.map((i) => rows[i]!);
    try {
      const o = await commitOrganization(db, orgId, own, now, Date.now() + UNAVAILABLE_RETRY_MS, report);
      index.forEach((i, k) => {
        out.stored[i] = o.stored[k]!;
        out.refused[i] = o.refused[k]!;
      });
      report.rows += o.stored.filter(Boolean).length;
      report.succeeded.push(orgId);
    } catch (err) {
      for (const i of index) out.failed[i] = err;
      report.failures.push({ orgId, cause: failureCause(err), rows: index.length, err });
    }
  }
  return out;
}

async function commitOrganization(
  db: Db,
  orgId: string,
  rows: readonly PositionRow[],
  now: Date,
  deadline: number,
  report: CommitReport,
): Promise<Omit<Outcome, 'failed'>> {
  let uncertain = false;
  for (let attempt = 1; ; attempt++) {
    try {
      let stored = await writeOrganization(db, orgId, rows, now);
      if (uncertain && stored.includes(false)) {
        const mine = await storedAt(db, orgId, rows, now);
        stored = stored.map((s, i) => s || mine[i]!);
      }
      return { stored, refused: rows.map(() => null) };
    } catch (err) {
      const kind = failureKind(err);
      if (kind === 'retry' && attempt < 5) {
        report.retries++;
        continue;
      }
      // A lock wait that timed out (on Citus, the organization's shards being moved: the write
      // function's lock_timeout, decision 0203): nothing was committed and the lane answers its
      // devices now with a retryable status (503) rather than holding them while the move runs.
      if (pgError(err)?.code === LOCK_TIMEOUT) throw err;
      if (kind === 'unavailable' && Date.now() < deadline) {
        report.retries++;
        uncertain = true;
        await sleep(Math.min(2000, 100 * 2 ** (attempt - 1), Math.max(0, deadline - Date.now())));
        continue;
      }
      if (kind !== 'data') throw err;
      if (rows.length === 1) {
        const why = pgError(err)?.message ?? 'a value it cannot hold';
        return { stored: [false], refused: [new FixError('position', `the database refused it: ${why}`, 'database')] };
      }
      const half = rows.length >> 1;
      const a = await commitOrganization(db, orgId, rows.slice(0, half), now, deadline, report);
      const b = await commitOrganization(db, orgId, rows.slice(half), now, deadline, report);
      return { stored: [...a.stored, ...b.stored], refused: [...a.refused, ...b.refused] };
    }
  }
}

interface Pending {
  rows: PositionRow[];
  /** When the request handed its rows over (Date.now()). */
  at: number;
  resolve: (r: WriteResult) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: rows that arrive within `windowMs` of each other (or while a write is running) are
 * written in one transaction, and every request is answered only after that transaction commits. A
 * group goes before its window ends once ENOUGH_ROWS rows wait, or once as many requests wait as
 * the last commit answered plus those that waited behind it (the same devices, back again).
 * One writer at a time per process keeps vehicles' latest rows from deadlocking each other.
 */
export class GroupCommitter {
  private queue: Pending[] = [];
  private queuedRows = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** Requests the next group waits for: those the last commit answered and those already waiting then. */
  private expected = 0;
  /** The oldest handover of the group being written. */
  private runningSince: number | null = null;
  private closed = false;
  /** Transactions committed so far (tests and benchmarks read it). */
  transactions = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: CommitterOptions = {},
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
      return Promise.all(parts).then((r) => ({ stored: r.flatMap((x) => x.stored), refused: r.flatMap((x) => x.refused ?? x.stored.map(() => null)) }));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ rows, resolve, reject, at: Date.now() });
      this.queuedRows += rows.length;
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running) return;
    const max = this.opts.maxRows ?? 2000;
    const crowdBack = this.expected > 1 && this.queue.length >= this.expected;
    if (this.queuedRows >= Math.min(max, ENOUGH_ROWS) || crowdBack) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      void this.flush();
      return;
    }
    if (this.timer) return;
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
    this.runningSince = Math.min(...batch.map((p) => p.at));
    const run = (async () => {
      const report: CommitReport = { rows: 0, failures: [], retries: 0, succeeded: [] };
      try {
        const result = await commitGroup(
          this.db,
          batch.flatMap((p) => p.rows),
          report,
        );
        this.transactions++;
        let offset = 0;
        for (const p of batch) {
          const end = offset + p.rows.length;
          // A request's rows are one device's, so one organization's: they failed together or not at all.
          const failed = result.failed.slice(offset, end).find((e) => e !== undefined);
          if (failed !== undefined) p.reject(failed);
          else p.resolve({ stored: result.stored.slice(offset, end), refused: result.refused.slice(offset, end) });
          offset = end;
        }
      } catch (err) {
        // Not a statement's failure (commitGroup catches those per organization): a bug; nothing is acknowledged.
        report.failures.push({ orgId: '', cause: failureCause(err), rows: batch.reduce((a, p) => a + p.rows.length, 0), err });
        for (const p of batch) p.reject(err);
      }
      this.opts.onCommit?.(report);
    })();
    this.running = run;
    await run;
    this.running = null;
    this.runningSince = null;
    // The devices just answered send again within moments (each waits for its answer before its
    // next fix): the next group waits for them too, up to the window, so a steady crowd of devices
    // is written in one statement a round instead of two half groups taking turns (issue 74).
    this.expected = batch.length + this.queue.length;
    if (this.queue.length) this.schedule();
  }

  /** Since when the oldest rows not yet answered have waited (ms since the epoch), or null when none wait. */
  waitingSince(): number | null {
    const queued = this.queue[0]?.at ?? null;
    if (this.runningSince === null) return queued;
    return queued === null ? this.runningSince : Math.min(queued, this.runningSince);
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

export interface CommitterOptions {
  windowMs?: number;
  maxRows?: number;
  /** Told after every commit, failed or not (the ingest's health counts them). */
  onCommit?: (report: CommitReport) => void;
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
 * The writer lanes (docs/decisions/0072, 0203): a group committer per organization and device lane
 * (INGEST_WRITERS lanes per organization, one by default), made on the first write of each. One
 * lane caps single-position ingest at (connections waiting) / (one commit's latency): at 50
 * connections and ~6 ms per commit (fsync on) about 4,000 positions a second, with the server's CPU
 * mostly idle while it waits for the disk. Each device belongs to one lane of its organization (by
 * its id), so a device's fixes stay in order and two lanes never touch the same device's rows or,
 * while the device stays paired, the same vehicle's latest row; both lock latest rows in key order
 * (an index scan over `= any(array)`), and a deadlock that slips through (a vehicle re-paired to a
 * second device mid-burst) is retried, since a group is one statement. A lane never holds two
 * organizations' rows: one organization's commit stalled (a lock held, its shard being moved on
 * Citus) holds back only that organization's devices, while the other lanes go on. PGlite has one
 * connection: the lanes' statements take turns on it.
 */
export class ShardedCommitter implements PositionWriter {
  private readonly lanes = new Map<string, GroupCommitter>();
  /** Lanes per organization. */
  private readonly writers: number;

  constructor(
    private readonly db: Db,
    writers: number,
    private readonly opts: CommitterOptions = {},
  ) {
    this.writers = Math.max(1, writers);
  }

  get transactions(): number {
    let n = 0;
    for (const l of this.lanes.values()) n += l.transactions;
    return n;
  }

  /** How many lanes were made (one per organization and device lane written to). */
  get laneCount(): number {
    return this.lanes.size;
  }

  waitingSince(): number | null {
    let oldest: number | null = null;
    for (const l of this.lanes.values()) {
      const t = l.waitingSince();
      if (t !== null && (oldest === null || t < oldest)) oldest = t;
    }
    return oldest;
  }

  private lane(orgId: string, gatewayId: string): GroupCommitter {
    const key = this.writers === 1 ? orgId : `${orgId} ${laneOf(gatewayId, this.writers)}`;
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = new GroupCommitter(this.db, this.opts)));
    return lane;
  }

  /** Rows of one device (every ingest request's rows are) go to that device's lane in its organization. */
  write(rows: PositionRow[]): Promise<WriteResult> {
    if (rows.length === 0) return Promise.resolve({ stored: [], refused: [] });
    const first = rows[0]!;
    const key = (r: PositionRow) => `${r.organizationId} ${this.writers === 1 ? '' : laneOf(r.gatewayId, this.writers)}`;
    const k0 = key(first);
    if (rows.every((r) => key(r) === k0)) return this.lane(first.organizationId, first.gatewayId).write(rows);
    // Mixed lanes (a caller's own batch): split by lane, answer in the input order.
    const parts = new Map<string, number[]>();
    rows.forEach((r, i) => {
      const k = key(r);
      const list = parts.get(k);
      if (list) list.push(i);
      else parts.set(k, [i]);
    });
    return Promise.all(
      [...parts.values()].map(async (idx) => {
        const r0 = rows[idx[0]!]!;
        const r = await this.lane(r0.organizationId, r0.gatewayId).write(idx.map((i) => rows[i]!));
        return { idx, r };
      }),
    ).then((results) => {
      const stored = new Array<boolean>(rows.length);
      const refused = new Array<FixError | null>(rows.length).fill(null);
      for (const { idx, r } of results) idx.forEach((i, j) => ((stored[i] = r.stored[j]!), (refused[i] = r.refused?.[j] ?? null)));
      return { stored, refused };
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((l) => l.close()));
  }
}

/** A device's lane within its organization: the last 4 hex digits of its id (random in a v4 or v7 UUID). */
const laneOf = (gatewayId: string, n: number) => (parseInt(gatewayId.slice(-4), 16) || 0) % n;
