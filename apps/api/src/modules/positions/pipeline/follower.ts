import type { Config } from '../../../config.ts';
import type { Database } from '../../../db/client.ts';
import type { PositionWriter } from './group-committer.ts';
import type { LatePositionsOptions, PositionRow } from './position-row.ts';
import type { WriteResult } from './position-store.ts';

// A follower of a commit: work that follows committed positions (automatic duty status, IFTA
// miles, daily statistics, notification checks). Each is declared in the module whose facts it
// derives (`<x>.follower.ts`) and listed once above the modules (apps/api/src/pipeline/followers.ts);
// the group commit hands every follower the rows it stored, after they are stored
// and answered, so a follower's failure or pace never reaches a device.

/** What a follower is started with. */
export interface FollowerContext {
  database: Database;
  config: Config;
  /** Where a follower reports what failed (its positions are stored: it catches up later). */
  onError(what: string): (err: unknown) => void;
  /** Where a follower says what its catch-up did. */
  info(message: string): void;
  /** Resolves when the follower of that name has worked what it was handed (notifications wait for duty status). */
  idle(name: string): Promise<void>;
}

/** A started follower. */
export interface Following<T> {
  /** The follower's own object (the app exposes it under the follower's name: catch-ups, tests, benchmarks). */
  it: T;
  /** Whether it follows commits (a setting turns some off to measure ingest without them; the object exists either way). */
  follows: boolean;
  /** Rows just committed; `stored[i]` false: a duplicate, not stored again. Synchronous and cheap: it runs on ingest's path. */
  committed(rows: readonly PositionRow[], stored: readonly boolean[]): void;
  /** Positions stored earlier that now belong to a vehicle (a pairing with a past start, an import). */
  late?(rows: readonly PositionRow[], opts: LatePositionsOptions): void;
  /** At start-up (main.ts, every follower that has one): works the positions stored before this start (a restart, the demo history). */
  catchUp?(): Promise<unknown>;
  idle(): Promise<void>;
  /** Works what it holds, then takes nothing more (the server's close, after the group commit's). */
  close(): Promise<void>;
}

export interface Follower<N extends string, T> {
  name: N;
  start(ctx: FollowerContext): Following<T>;
}

/** Declares a follower: its name (the app's name for its object) and how it starts. */
export const follower = <N extends string, T>(name: N, start: (ctx: FollowerContext) => Following<T>): Follower<N, T> => ({ name, start });

type Started<L extends ReadonlyArray<Follower<string, unknown>>> = { [F in L[number] as F['name']]: F extends Follower<string, infer T> ? T : never };

/** Every follower of the list started, in its order: their objects by name, and the list to hand the group commit. */
export function startFollowers<const L extends ReadonlyArray<Follower<string, unknown>>>(
  list: L,
  ctx: Omit<FollowerContext, 'idle'>,
): { byName: Started<L>; following: ReadonlyArray<Following<unknown>> } {
  const started = new Map<string, Following<unknown>>();
  const idle = (name: string) => started.get(name)?.idle() ?? Promise.resolve();
  for (const f of list) started.set(f.name, f.start({ ...ctx, idle }));
  const byName = Object.fromEntries([...started].map(([name, s]) => [name, s.it])) as Started<L>;
  return { byName, following: [...started.values()] };
}

/**
 * The group commit with its followers behind it: each write's rows reach every follower, in the
 * list's order, once committed (before the writer is answered: a push per row, nothing more).
 */
export function behindCommit(writer: PositionWriter, followers: ReadonlyArray<Following<unknown>>): PositionWriter {
  const on = followers.filter((f) => f.follows);
  return {
    async write(rows: PositionRow[]): Promise<WriteResult> {
      const r = await writer.write(rows);
      for (const f of on) f.committed(rows, r.stored);
      return r;
    },
    late(rows, opts) {
      for (const f of on) f.late?.(rows, opts);
    },
    close: () => writer.close(),
    get transactions() {
      return writer.transactions;
    },
  };
}

/** What a follower that keeps a vehicle queue (vehicle-queue.ts) offers. */
export interface QueueOwner {
  enqueue(rows: readonly PositionRow[], stored: readonly boolean[]): void;
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** A follower that keeps a vehicle queue: committed rows are queued, and late ones too where `takesLate` says so (default: all). */
export function queueFollowing<T extends QueueOwner>(it: T, follows: boolean, takesLate: (opts: LatePositionsOptions) => boolean = () => true): Following<T> {
  return {
    it,
    follows,
    committed: (rows, stored) => it.enqueue(rows, stored),
    late: (rows, opts) => {
      if (takesLate(opts))
        it.enqueue(
          rows,
          rows.map(() => true),
        );
    },
    idle: () => it.idle(),
    close: () => it.close(),
  };
}
