import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';

// Inserts Citus routes to one shard (decisions 0206, 0207); whether the database is Citus is
// citusOf(db) (database-kind.ts).
// Citus plans an INSERT … SELECT whose SELECT reads no distributed table (unnest,
// json_to_recordset) "via coordinator": the rows are pulled to the coordinator and copied out
// again, and the statement locks the metadata of every shard of the table, so it waits for any
// organization's block_writes move. A multi-row INSERT … VALUES whose rows all name one
// organization is one task on that organization's shard. PostgreSQL and PGlite keep their array
// statements, which cost them less.

/** Rows a statement carries at most (PostgreSQL takes at most 65,535 parameters in one). */
const ROWS_PER_STATEMENT = 500;

/**
 * `<head> values (…), (…) <tail>` for each chunk of rows (each row a list of SQL values, casts
 * included), in order; nothing when there are no rows.
 */
export async function insertValues(tx: DbOrTx, head: SQL, rows: ReadonlyArray<readonly SQL[]>, tail: SQL = sql``): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT).map((r) => sql`(${sql.join(r as SQL[], sql`, `)})`);
    await tx.execute(sql`${head} values ${sql.join(chunk, sql`, `)} ${tail}`);
  }
}
