import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';

/** Monthly partitions kept ready: last month (late buffered fixes, the demo's 7 days) to three months ahead. */
export async function ensurePositionPartitions(db: Db): Promise<number> {
  const r = rowsOf<{ n: number }>(await db.execute(sql`select positions_ensure_partitions(1, 3) as n`));
  return Number(r[0]?.n ?? 0);
}

/** Runs the partition check now and twice a day; returns the stop function. */
export function schedulePartitionMaintenance(db: Db, log: (err: unknown) => void): () => void {
  const timer = setInterval(() => void ensurePositionPartitions(db).catch(log), 12 * 3600 * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
