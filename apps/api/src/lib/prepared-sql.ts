import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';

const dialect = new PgDialect();

/**
 * A hand-written statement rendered to text once and executed by name with `sql.placeholder`
 * values. Hot list queries use it: building a Drizzle query and mapping its nested result cost
 * more CPU per request than the database spent answering (docs/decisions/0043). On a PostgreSQL
 * server the name makes it a prepared statement per connection, so planning is skipped too;
 * PGlite runs it as an ordinary parameterised query. Rows come back as the driver gives them
 * (timestamps as text: select them pre-formatted).
 */
export interface PreparedSql<Row> {
  readonly name: string;
  readonly text: string;
  run(db: DbOrTx, values: Record<string, unknown>): Promise<Row[]>;
}

export function preparedSql<Row>(name: string, query: SQL): PreparedSql<Row> {
  const rendered = dialect.sqlToQuery(query);
  return {
    name,
    text: rendered.sql,
    async run(db, values) {
      // `_.session` is the connection (pool, client or transaction) the Db or Tx runs on.
      const result = (await db._.session.prepareQuery(rendered, undefined, name, false).execute(values)) as { rows: Row[] };
      return result.rows;
    },
  };
}

/** Prepared statements by shape: each distinct shape (filters present, sort) is rendered once. */
export class PreparedCache<Row> {
  private readonly byKey = new Map<string, PreparedSql<Row>>();
  constructor(private readonly prefix: string) {}

  get(key: string, build: () => SQL): PreparedSql<Row> {
    let p = this.byKey.get(key);
    if (!p) {
      p = preparedSql<Row>(`${this.prefix}_${this.byKey.size}`, build());
      this.byKey.set(key, p);
    }
    return p;
  }
}

/** ISO-8601 UTC text of a timestamptz column, exactly as Date.toISOString() writes it (milliseconds, Z). */
export const isoText = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
