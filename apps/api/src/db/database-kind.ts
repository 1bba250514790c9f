// What the database is, found once when it opens (decision 0254): the embedded PGlite or a
// PostgreSQL server, on a server whether it is a Citus coordinator and whether db:distribute made
// the group commit's write function there. Everything that behaves differently on Citus reads this
// answer; nothing asks the database again.

/**
 * The group commit's distributed function (modules/positions/pipeline/citus-write-function.ts makes
 * it, position-store.ts calls it). Named here because the database is asked for it when it opens.
 */
export const CITUS_WRITE_FUNCTION = 'fleet_positions_write';

/** On a Citus coordinator: what is there beside the extension. */
export interface CitusKind {
  /** db:distribute made CITUS_WRITE_FUNCTION: each organization's group commit is one call handed to its worker (decision 0203). */
  writeFunction: boolean;
}

/** Connections per instance on a Citus coordinator when DATABASE_POOL_SIZE is not set (docs/deploy.md 7.4). */
export const CITUS_POOL_SIZE = 40;

/**
 * The pool's size when none is configured: 10, or CITUS_POOL_SIZE on a Citus coordinator. There the
 * followers of the organization whose shards a block_writes move holds keep their connections for
 * the whole copy; with 10, the other organizations' requests queued behind them (2.8 s without a
 * success during a 3 s move; 0.1-0.25 s with 40, issue 49).
 */
export const defaultPoolSize = (citus: CitusKind | null): number => (citus ? CITUS_POOL_SIZE : 10);

/**
 * One statement on a server's first connection: the setting the literal quoting relies on, and
 * whether it is Citus with the write function. A new database has the write function only after
 * db:distribute, which deploy.md runs before the API starts.
 */
export const SERVER_KIND_SQL = `select current_setting('standard_conforming_strings') as scs,
  exists (select 1 from pg_extension where extname = 'citus') as citus,
  to_regproc('${CITUS_WRITE_FUNCTION}') is not null as write_function`;

export interface ServerKindRow {
  scs: string;
  citus: boolean;
  write_function: boolean;
}

/**
 * Refuses a session with standard_conforming_strings off. Values written into statement text as
 * literals (the embedded database's prepared statements, run by EXECUTE with their values inlined:
 * pglite-prepared.ts; COPY's select: pglite-copy.ts) double their quotes and leave backslashes
 * alone: with the setting off a backslash in a value escapes the quote after it, and the literal
 * ends somewhere else.
 */
export function assertStandardStrings(value: string | undefined, where: string): void {
  if (value === 'on') return;
  throw new Error(
    `database: standard_conforming_strings is ${value ?? 'unknown'} on ${where}; Fleetline quotes literals for it being on. ` +
      'Remove what turns it off (postgresql.conf or ALTER SYSTEM, ALTER DATABASE or ALTER ROLE … SET, the connection options) and start again.',
  );
}

/** The Citus facts of each database handle openDatabase returned, set once there. */
const carried = new WeakMap<object, CitusKind | null>();

export function carryCitusKind(db: object, citus: CitusKind | null): void {
  carried.set(db, citus);
}

/**
 * The Citus facts the database behind `db` was opened with (Database.citus); null on PostgreSQL
 * and PGlite, and for a handle openDatabase did not return (a transaction, a session's connection,
 * a test's own Drizzle handle).
 */
export function citusOf(db: object): CitusKind | null {
  return carried.get(db) ?? null;
}

/** Whether `db` is a handle openDatabase returned for a PostgreSQL server known not to be a Citus coordinator. */
export const isPlainServer = (db: object): boolean => carried.has(db) && carried.get(db) === null;
