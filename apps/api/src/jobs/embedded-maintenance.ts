import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rowsOf } from '../db/sql/rows.ts';

// The embedded database (PGlite) runs no autovacuum: nothing refreshes the planner's statistics or
// marks pages all-visible after the tables change, so plans drift as data grows (a table created
// empty keeps "10 rows" estimates for ever) and counts cannot be index-only scans. This job does
// what autovacuum's thresholds would (scale factor 0.1 over a base of 50 rows for ANALYZE, 0.2 over
// 50 for VACUUM), for the embedded database only: a PostgreSQL server has its own autovacuum.

const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;
/** Pages a table may grow beyond ANALYZE_SCALE of its size at the last ANALYZE before it is due again. */
const GROWTH_BASE_PAGES = 8;

interface TableStats {
  relname: string;
  /** Live rows counted since the embedded database opened (its activity counters start again at every open). */
  live: number;
  /** The planner's row estimate (pg_class.reltuples, kept on disk; -1 before the first ANALYZE). */
  estimate: number;
  modified: number;
  dead: number;
  /** Statistics exist (or the table is empty). */
  analyzed: boolean;
  /** The table's size now, and at its last ANALYZE or VACUUM (pg_class.relpages), in pages. */
  pages?: number;
  statPages?: number;
}

/** Tables of the public schema needing ANALYZE or VACUUM by autovacuum's default thresholds. */
export function dueTables(stats: readonly TableStats[]): Array<{ table: string; vacuum: boolean }> {
  const out: Array<{ table: string; vacuum: boolean }> = [];
  for (const t of stats) {
    // autovacuum's base is the estimate too: counted from the counters alone, a table of a million
    // rows with 600 new since the open was due at the first pass (an ANALYZE of a full sample).
    const rows = Math.max(t.live, t.estimate);
    const vacuum = t.dead > VACUUM_BASE + VACUUM_SCALE * rows;
    // The activity counters start again at every open; the size does not: a table that grew by a
    // tenth since its statistics is due, whichever life of the process wrote the rows (a soak's
    // 1,000 new vehicles written before a SIGKILL kept the demo's "25 vehicles" statistics, and a
    // vehicle's fixes were read by a skip scan of the whole month: 50 ms a vehicle).
    const grown = t.pages !== undefined && t.statPages !== undefined && t.pages > t.statPages * (1 + ANALYZE_SCALE) + GROWTH_BASE_PAGES;
    const analyze = !t.analyzed || grown || t.modified > ANALYZE_BASE + ANALYZE_SCALE * rows;
    if (vacuum || analyze) out.push({ table: t.relname, vacuum });
  }
  return out;
}

/** One pass: ANALYZE (and VACUUM where dead rows piled up) the tables that are due. Returns their names. */
export async function runEmbeddedMaintenance(database: Database): Promise<string[]> {
  if (database.kind !== 'pglite') return [];
  // The counters of the last second's writes wait in this backend until the next flush: an ANALYZE
  // before them would find them arriving after it, and the table due again at the next pass.
  await database.db.execute(sql`select pg_stat_force_next_flush()`);
  const stats = rowsOf<{
    relname: string;
    live: string | number;
    estimate: string | number;
    modified: string | number;
    dead: string | number;
    analyzed: boolean;
    pages: string | number;
    stat_pages: string | number;
  }>(
    // Never analyzed: reltuples -1 (the activity counters start again at every start of the
    // embedded database, so they cannot tell; pg_class keeps the statistics' row estimate).
    await database.db.execute(sql`
      select s.relname, s.n_live_tup as live, c.reltuples as estimate, s.n_mod_since_analyze as modified, s.n_dead_tup as dead,
             (c.reltuples >= 0 or pg_relation_size(c.oid) = 0) as analyzed,
             pg_relation_size(c.oid) / current_setting('block_size')::int as pages, c.relpages as stat_pages
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.schemaname = 'public'`),
  ).map((r) => ({
    relname: r.relname,
    live: Number(r.live),
    estimate: Number(r.estimate),
    modified: Number(r.modified),
    dead: Number(r.dead),
    analyzed: r.analyzed,
    pages: Number(r.pages),
    statPages: Number(r.stat_pages),
  }));
  const due = dueTables(stats);
  for (const { table, vacuum } of due) {
    // Identifiers from the catalogue, quoted: VACUUM and ANALYZE take no parameters.
    const name = sql.identifier(table);
    await database.db.execute(vacuum ? sql`vacuum (analyze) ${name}` : sql`analyze ${name}`);
  }
  return due.map((d) => d.table);
}

/**
 * Runs the maintenance a minute after start and then every minute, on the embedded database only
 * (autovacuum's own nap; a pass that finds nothing due is one catalogue read); returns the function
 * that stops it. Errors are logged, never thrown (the next pass retries). Every ten minutes let a
 * fleet of 1,000 new vehicles run on statistics of the 25 before it, each vehicle's first reads
 * planned as if its fixes were a twenty-fifth of the month.
 */
export function scheduleEmbeddedMaintenance(
  database: Database,
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void },
  firstMs = 60_000,
  everyMs = 60_000,
): () => void {
  if (database.kind !== 'pglite') return () => undefined;
  let timer: NodeJS.Timeout | null = null;
  const pass = async () => {
    try {
      const tables = await runEmbeddedMaintenance(database);
      if (tables.length) log.info({ tables }, 'embedded database: statistics refreshed');
    } catch (err) {
      log.warn({ err }, 'embedded database maintenance failed');
    }
    timer = setTimeout(() => void pass(), everyMs).unref();
  };
  timer = setTimeout(() => void pass(), firstMs).unref();
  return () => {
    if (timer) clearTimeout(timer);
  };
}
