import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { DbOrTx } from '../client.ts';

const dialect = new PgDialect();

// Date and time values stay text, as Drizzle's node-postgres session leaves them (timestamptz,
// timestamp, date, interval and their arrays); every other type as node-postgres parses it.
const TEXT_TYPES = new Set([1184, 1114, 1082, 1186, 1231, 1115, 1185, 1187, 1182]);
const identity = (v: string) => v;
const pgTypes = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (TEXT_TYPES.has(oid) ? identity : pg.types.getTypeParser(oid, format)) };

/** The node-postgres pool or pooled client a Db or Tx runs on; undefined on PGlite. */
function nodePgClient(db: DbOrTx): pg.Pool | pg.ClientBase | undefined {
  const client = (db._.session as unknown as { client?: unknown }).client;
  return client instanceof pg.Pool || client instanceof pg.Client ? client : undefined;
}

/**
 * A hand-written statement rendered to text once and executed by name with `sql.placeholder`
 * values. Hot list queries use it: building a Drizzle query and mapping its nested result cost
 * more CPU per request than the database spent answering (docs/decisions/0043). On a PostgreSQL
 * server the name makes it a prepared statement per connection, so planning is skipped too;
 * PGlite prepares it once it sees it a second time (like every statement, db/pglite-prepared.ts). Rows come back as the driver gives them
 * (timestamps as text: select them pre-formatted).
 */
export interface PreparedSql<Row> {
  readonly name: string;
  readonly text: string;
  run(db: DbOrTx, values: Record<string, unknown>): Promise<Row[]>;
}

/**
 * `name` undefined: an unnamed statement, rendered once but parsed and planned by PostgreSQL on
 * every run, for a query whose best plan depends on its values (a search term matching 3 rows or
 * all of them); a named statement may switch to one generic plan after five runs.
 */
export function preparedSql<Row>(name: string | undefined, query: SQL): PreparedSql<Row> {
  const rendered = dialect.sqlToQuery(query);
  // On node-postgres the query goes straight to the driver with one config made here: Drizzle's
  // prepareQuery built two configs and a wrapper per call, about 120 µs of CPU per hot query.
  const config = { name, text: rendered.sql, types: pgTypes };
  return {
    name: name ?? '',
    text: rendered.sql,
    async run(db, values) {
      const client = nodePgClient(db);
      if (client) return (await client.query<Row & pg.QueryResultRow>(config, fillPlaceholders(rendered.params, values))).rows;
      // `_.session` is the connection (PGlite, or its transaction) the Db or Tx runs on.
      const result = (await db._.session.prepareQuery(rendered, undefined, name, false).execute(values)) as { rows: Row[] };
      return result.rows;
    },
  };
}

/**
 * Runs a statement already rendered (text and values), unnamed: a statement whose text changes
 * with its rows. Rows come back as the driver gives them, as preparedSql's do.
 */
export async function runRendered<Row>(db: DbOrTx, query: { sql: string; params: unknown[] }): Promise<Row[]> {
  const client = nodePgClient(db);
  if (client) return (await client.query<Row & pg.QueryResultRow>({ text: query.sql, types: pgTypes }, query.params)).rows;
  return ((await db._.session.prepareQuery(query, undefined, undefined, false).execute()) as { rows: Row[] }).rows;
}

/** Prepared statements by shape: each distinct shape (filters present, sort) is rendered once. */
export class PreparedCache<Row> {
  private readonly byKey = new Map<string, PreparedSql<Row>>();
  /** `named: false` renders once but runs unnamed (planned per run, see preparedSql). */
  constructor(
    private readonly prefix: string,
    private readonly named = true,
  ) {}

  get(key: string, build: () => SQL): PreparedSql<Row> {
    let p = this.byKey.get(key);
    if (!p) {
      p = preparedSql<Row>(this.named ? `${this.prefix}_${this.byKey.size}` : undefined, build());
      this.byKey.set(key, p);
    }
    return p;
  }
}

/** ISO-8601 UTC text of a timestamptz column, exactly as Date.toISOString() writes it (milliseconds, Z). */
export const isoText = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
