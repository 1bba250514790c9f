import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rowsOf } from '../db/sql/rows.ts';

// The embedded database (PGlite) is PostgreSQL's single-user backend: no checkpointer process runs,
// so nothing ends a stretch of write-ahead log. The log grew without end (292 MB after five bulk
// loads), every segment stayed on disk, and a restart after a kill replayed all of it (57 MB: 5 s
// before the first request). This job does what the checkpointer's two triggers would: enough log
// written (max_wal_size's role, smaller here: the replay is what a crash costs), or enough time
// since the last checkpoint with something written (checkpoint_timeout's). A checkpoint of a
// minute's ingest costs some 40 ms on the one session. A server has its own checkpointer.

/** Log since the last checkpoint that calls for one at once. */
export const CHECKPOINT_WAL_BYTES = 32 * 1024 * 1024;
/** Age of the last checkpoint that calls for one when anything was written since. */
export const CHECKPOINT_EVERY_SECONDS = 300;
/** Less log than this is the checkpoint's own record and the job's bookkeeping: nothing to end. */
const IDLE_WAL_BYTES = 64 * 1024;

export interface WalState {
  /** Bytes of log since the last checkpoint's redo point. */
  walBytes: number;
  /** Seconds since the last checkpoint. */
  ageSeconds: number;
}

/** Whether a checkpoint is due, by the checkpointer's rules with the thresholds above. */
export function checkpointDue(s: WalState, limits = { walBytes: CHECKPOINT_WAL_BYTES, everySeconds: CHECKPOINT_EVERY_SECONDS }): boolean {
  if (s.walBytes >= limits.walBytes) return true;
  return s.ageSeconds >= limits.everySeconds && s.walBytes > IDLE_WAL_BYTES;
}

/** Where the log stands against the last checkpoint. */
export async function walState(database: Database): Promise<WalState> {
  const [row] = rowsOf<{ wal_bytes: string | number; age_seconds: string | number }>(
    await database.db.execute(sql`
      select pg_current_wal_lsn() - c.redo_lsn as wal_bytes, extract(epoch from now() - c.checkpoint_time) as age_seconds
      from pg_control_checkpoint() c`),
  );
  return { walBytes: Number(row!.wal_bytes), ageSeconds: Number(row!.age_seconds) };
}

/** One pass on the embedded database: a CHECKPOINT when one is due. Returns whether it ran (false on a server). */
export async function runEmbeddedCheckpoint(database: Database, limits?: { walBytes: number; everySeconds: number }): Promise<boolean> {
  if (database.kind !== 'pglite') return false;
  if (!checkpointDue(await walState(database), limits)) return false;
  await database.db.execute(sql`checkpoint`);
  return true;
}

/** Looks every minute (embedded database only); returns the function that stops it. Errors are logged, never thrown. */
export function scheduleEmbeddedCheckpoint(database: Database, log: { warn: (o: object, m: string) => void }, everyMs = 60_000): () => void {
  if (database.kind !== 'pglite') return () => undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const pass = async () => {
    try {
      // Not while the database is being opened again (a stopped worker thread): the next pass comes.
      if (!database.unavailable()) await runEmbeddedCheckpoint(database);
    } catch (err) {
      log.warn({ err }, 'embedded database checkpoint failed');
    }
    if (!stopped) timer = setTimeout(() => void pass(), everyMs).unref();
  };
  timer = setTimeout(() => void pass(), everyMs).unref();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
