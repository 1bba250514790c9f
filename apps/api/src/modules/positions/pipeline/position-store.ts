import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.ts';
import { rowsOf } from '../../../db/sql/rows.ts';
import { pgliteOf, runBound, type EmbeddedPg } from '../../../db/pglite-copy.ts';
import { BindWriter } from '../../../db/pglite-bind.ts';
import { execNamed, withPrepared, type NamedStatement } from '../../../db/pglite-prepared.ts';
import { failureKind } from '../../../db/sql/database-error.ts';
import { citusOf, isPlainServer } from '../../../db/database-kind.ts';
import { POSITIONS_WRITE_FUNCTION } from './citus-write-function.ts';
import { MOVING_SPEED_KMH } from '../vehicle-status.ts';
import type { FixError } from './fix-check.ts';
import type { PositionRow } from './position-row.ts';
import { oneFixAVehicle, PARAM_TYPES, WRITE_SQL } from './position-write-sql.ts';

// Storing positions: the group commit's one statement per organization (positions, the vehicles' latest rows, the
// live map's NOTIFY), prepared on the embedded database. The devices' last-seen time follows it (last-seen.ts).

/** NOTIFY channel: a JSON `{o: orgId, a: [assetId…]}` after each commit that moved vehicles. */
export const POSITIONS_CHANNEL = 'positions_changed';

export interface WriteResult {
  /** For each input row: true when newly stored, false when it was not (already stored, or refused). */
  stored: boolean[];
  /** For each input row the group commit refused (a value its columns cannot hold): why; absent when none was. */
  refused?: Array<FixError | null>;
}

// The statement's text is split once at its $n placeholders; each call only binds the values.
const WRITE_PARTS = WRITE_SQL.split(/\$(\d+)/);
function writeQuery(params: readonly unknown[]): SQL {
  const chunks: SQL[] = [];
  for (let k = 0; k < WRITE_PARTS.length; k++) chunks.push(k % 2 === 0 ? sql.raw(WRITE_PARTS[k]!) : sql`${params[Number(WRITE_PARTS[k]) - 1]}`);
  return sql.join(chunks);
}

// Postgres array literals, built by hand: every element is an id, a number, a boolean, our own
// protocol name, or (attributes) JSON quoted for the literal.
const num = (v: number | null) => (v === null || !Number.isFinite(v) ? 'NULL' : String(v));
const id = (v: string | null) => v ?? 'NULL';
const bool = (v: boolean | null) => (v === null ? 'NULL' : v ? 't' : 'f');
function json(o: Record<string, unknown>): string {
  for (const _ in o) return `"${JSON.stringify(o).replace(/[\\"]/g, '\\$&')}"`;
  return 'NULL';
}
/** The distinct non-null ids as an array literal: a 1,000-fix batch of one device locks one row, not 1,000 array elements per row scanned. */
function distinctLiteral(rows: readonly PositionRow[], f: (r: PositionRow) => string | null): string {
  const seen = new Set<string>();
  for (const r of rows) {
    const v = f(r);
    if (v !== null) seen.add(v);
  }
  return `{${[...seen].join(',')}}`;
}
const literal = <T>(rows: readonly PositionRow[], f: (r: PositionRow) => T, fmt: (v: T) => string) => {
  let out = '{';
  for (let i = 0; i < rows.length; i++) out += (i ? ',' : '') + fmt(f(rows[i]!));
  return `${out}}`;
};

/** The rows of each organization, in input order, with their indexes in the input. */
function byOrganization(rows: readonly PositionRow[]): Array<{ orgId: string; rows: PositionRow[]; index: number[] }> {
  const groups = new Map<string, { orgId: string; rows: PositionRow[]; index: number[] }>();
  rows.forEach((r, i) => {
    let g = groups.get(r.organizationId);
    if (!g) groups.set(r.organizationId, (g = { orgId: r.organizationId, rows: [], index: [] }));
    g.rows.push(r);
    g.index.push(i);
  });
  return [...groups.values()];
}

/** The live map's NOTIFY payloads of an organization's moved vehicles: 150 a payload (payloads are capped at 8,000 bytes). */
export function movedPayloads(orgId: string, assetIds: readonly string[]): string[] {
  const sorted = [...assetIds].sort();
  const out: string[] = [];
  for (let i = 0; i < sorted.length; i += 150) out.push(JSON.stringify({ o: orgId, a: sorted.slice(i, i + 150) }));
  return out;
}
const NOTIFY_SQL = `select count(pg_notify('${POSITIONS_CHANNEL}', p))::int as n from unnest($1::text[]) as p`;

/**
 * Writes rows: one statement per organization in the group, each its own transaction (on Citus
 * each lands on the organization's worker, decision 0169), so one organization's failure is never
 * another's; positions idempotent on gateway and fix time, the latest position and status inputs
 * per vehicle; then the live map's NOTIFY (PGlite and a plain PostgreSQL server: inside the
 * statement; Citus: sent by the API on the same connection after the commit, since a statement
 * routed to a worker would notify there, where nobody listens). Throws at the first
 * organization that fails, the ones before it stored: the group commit (group-committer.ts) writes
 * organization by organization itself, and retries.
 */
export async function writePositions(db: DbOrTx, rows: readonly PositionRow[], now = new Date()): Promise<WriteResult> {
  const stored = new Array<boolean>(rows.length).fill(true);
  for (const g of byOrganization(rows)) {
    const s = await writeOrganization(db, g.orgId, g.rows, now);
    g.index.forEach((i, k) => (stored[i] = s[k]!));
  }
  return { stored };
}

/** One organization's rows in one statement (its own transaction, unless `db` is a caller's): for each row, whether it was newly stored. */
export async function writeOrganization(db: DbOrTx, orgId: string, rows: readonly PositionRow[], now: Date): Promise<boolean[]> {
  if (rows.length === 0) return [];
  const client = (db as { $client?: unknown }).$client;
  const embedded = pgliteOf(db);
  let result: WriteRow;
  if (embedded) result = await writeEmbedded(embedded, orgId, rows, now);
  else if (client instanceof pg.Pool) {
    const mode = citusOf(db)?.writeFunction === true ? 'citus' : isPlainServer(db) ? 'plain' : 'server';
    // In binary on a server (issue 74): no array literals to build and escape, none for the server to parse.
    // On Citus as text: its write function's binary input is not checked here.
    const params = mode === 'citus' ? writeParams(rows, orgId, now) : BindWriter.values(20, (w) => bindValues(w, rows, orgId, now));
    result = await executePooled(client, orgId, params, mode);
  } else {
    // A transaction handle (callers that write inside their own transaction): the NOTIFY is sent at its commit.
    result = rowsOf<WriteRow>(await db.execute(writeQuery(writeParams(rows, orgId, now))))[0]!;
    const payloads = movedPayloads(orgId, JSON.parse(result.moved ?? '[]') as string[]);
    if (payloads.length)
      await db.execute(sql`select pg_notify(${POSITIONS_CHANNEL}, p) from unnest(${`{${payloads.map(quoteElement).join(',')}}`}::text[]) as p`);
  }
  return storedFrom(result.dups, rows.length);
}

/**
 * Which of an organization's rows are stored with this server time: after a write whose outcome is
 * unknown (the session died before answering) was run again, a row the second run found already
 * stored was stored by the first run if it carries the first run's time (each group commit has its
 * own), and by an earlier request (a resend) otherwise.
 */
export async function storedAt(db: DbOrTx, orgId: string, rows: readonly PositionRow[], now: Date): Promise<boolean[]> {
  if (rows.length === 0) return [];
  const found = rowsOf<{ g: string; t: number | string }>(
    await db.execute(sql`select gateway_id as g, (extract(epoch from fix_time) * 1000)::float8 as t from positions
      where organization_id = ${orgId} and server_time = ${now.toISOString()}::timestamptz and gateway_id = any(${distinctLiteral(rows, (r) => r.gatewayId)}::uuid[])`),
  );
  const keys = new Set(found.map((f) => `${f.g} ${Number(f.t)}`));
  return rows.map((r) => keys.has(`${r.gatewayId} ${r.fixTime.getTime()}`));
}

/** For each of `n` rows, whether it was newly stored: all but the statement's `dups` (1-based indexes, as JSON). */
function storedFrom(dups: string, n: number): boolean[] {
  const stored = new Array<boolean>(n).fill(true);
  for (const i of JSON.parse(dups) as number[]) stored[i - 1] = false;
  return stored;
}

interface WriteRow {
  /** The vehicles whose latest row moved, as JSON (null from the embedded statement, which notifies itself). */
  moved: string | null;
  dups: string;
}

const quoteElement = (v: string) => `"${v.replace(/[\\"]/g, '\\$&')}"`;

/**
 * On a PostgreSQL server (or a Citus coordinator): node-postgres prepares a named statement once per
 * pooled connection and reuses it (5 ms of planning saved per group commit, measured on PostgreSQL
 * 15). The statement is its own transaction; its NOTIFY is inside it on a plain server ('plain'),
 * and follows its commit on the same connection on a Citus coordinator or a server not known to be
 * plain ('server': a handle openDatabase did not make).
 */
async function executePooled(pool: pg.Pool, orgId: string, params: readonly unknown[], mode: 'citus' | 'plain' | 'server'): Promise<WriteRow> {
  const c = await pool.connect();
  // A connection terminated while checked out also emits 'error': its statement's failure says it all.
  const ignore = () => undefined;
  c.on('error', ignore);
  let lost: Error | undefined;
  try {
    // A statement name per text: a connection prepares each once (the Citus call and WRITE_SQL never share a pool).
    const row =
      mode === 'citus'
        ? citusRow(
            (await c.query<{ w: { moved: string[]; dups: number[] } }>({ name: 'positions_write', text: CITUS_CALL, values: params as unknown[] })).rows[0]!.w,
          )
        : mode === 'plain'
          ? (await c.query<WriteRow>({ name: 'positions_write_notify', text: SERVER_SQL, values: params as unknown[] })).rows[0]!
          : (await c.query<WriteRow>({ name: 'positions_write', text: WRITE_SQL, values: params as unknown[] })).rows[0]!;
    const payloads = movedPayloads(orgId, JSON.parse(row.moved ?? '[]') as string[]);
    if (payloads.length) {
      // The rows are committed: a lost NOTIFY only delays the live map to the vehicle's next fix.
      await c.query({ name: 'positions_notify', text: NOTIFY_SQL, values: [`{${payloads.map(quoteElement).join(',')}}`] }).catch((err: unknown) => {
        if (failureKind(err) === 'unavailable') lost = err as Error;
        console.warn(`positions: the live map's notification after a commit failed (${err instanceof Error ? err.message : String(err)})`);
      });
    }
    return row;
  } catch (err) {
    if (failureKind(err) === 'unavailable') lost = err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    c.off('error', ignore);
    // A connection whose session is gone is not given back to the pool.
    c.release(lost);
  }
}

const PARAM_TYPE_LIST = PARAM_TYPES.split(', ');

/**
 * On Citus (decision 0203): the group commit is one call of the distributed write function
 * (citus-write-function.ts, made by db:distribute), which the coordinator hands whole to the worker
 * holding the organization; WRITE_SQL's INSERT CTEs are not routable and ran as subplans through
 * the coordinator. Its parameters are the statement's. Prepared like it: Citus sees the
 * organization as a constant in each execution's custom plan, which is what it delegates on.
 */
const CITUS_CALL = `select ${POSITIONS_WRITE_FUNCTION}(${Array.from({ length: PARAM_TYPE_LIST.length }, (_, i) => `$${i + 1}::${PARAM_TYPE_LIST[i]}`).join(', ')}) as w`;
const citusRow = (w: { moved: string[]; dups: number[] }): WriteRow => ({ moved: JSON.stringify(w.moved), dups: JSON.stringify(w.dups) });

const literalOf = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);

/**
 * The statement with the live map's NOTIFY inside it (a `notes` CTE, its count returned instead of
 * the moved vehicles): delivered at the statement's commit like the separate NOTIFY, one round trip
 * (and on PGlite one call into WebAssembly) fewer a group. Not on Citus: a statement routed to a
 * worker would notify there, where nobody listens.
 */
const withNotify = (text: string) =>
  text
    .replace(
      '\n), dups as (',
      `\n), notes as (
  select pg_notify('${POSITIONS_CHANNEL}', json_build_object('o', $1::uuid, 'a', json_agg(asset_id order by asset_id))::text)
  from (select asset_id, (row_number() over (order by asset_id) - 1) / 150 as chunk from up) u
  group by chunk
), dups as (`,
    )
    .replace(
      "select (select coalesce(json_agg(asset_id), '[]'::json) from up)::text as moved,",
      'select (select count(*) from notes)::int as notes, null::text as moved,',
    );

/** On a PostgreSQL server known not to be Citus: the statement with its NOTIFY inside (issue 74). */
const SERVER_SQL = withNotify(WRITE_SQL);

/**
 * The statement as PGlite runs it (docs/decisions/0073): the embedded database is one session in
 * one process, so no other transaction can touch a latest row and the `FOR UPDATE` lock (a heap
 * write and a WAL record per vehicle, undone by the update right after) protects nothing. Its
 * NOTIFY stays inside (no Citus here).
 */
const EMBEDDED_SQL = withNotify(WRITE_SQL.replace('\n  for update', ''));

/**
 * On PGlite, parsing and planning this statement cost about as much as running it for 50 rows
 * (WebAssembly), so it is prepared once per session and then bound with binary parameters
 * (decision 0331). It runs with a generic plan: PostgreSQL's plan cache otherwise re-plans it for
 * some executions, and planning it costs more than running it for a small group. The setting is
 * made by a statement of its own bound just before, local to the message's implicit transaction,
 * so it ends with it whatever happens. On a PostgreSQL server the planning runs in the server's
 * process, not the API's.
 */
const POSITIONS_WRITE: NamedStatement = { name: 'positions_write', paramTypes: PARAM_TYPES, text: EMBEDDED_SQL };
/** The same for a group in which no vehicle has two fixes (oneFixAVehicle). */
const POSITIONS_WRITE_ONE_EACH: NamedStatement = { name: 'positions_write_one_each', paramTypes: PARAM_TYPES, text: oneFixAVehicle(EMBEDDED_SQL) };
const GENERIC_PLAN: NamedStatement = {
  name: 'positions_generic_plan',
  paramTypes: '',
  text: "select set_config('plan_cache_mode', 'force_generic_plan', true)",
};

/**
 * One organization's rows on the embedded database, bound with binary parameters. A session that
 * does not have the statements (the first write, or a worker thread opened again) answers 26000:
 * they are prepared and the write is sent again.
 */
async function writeEmbedded(embedded: EmbeddedPg, orgId: string, rows: readonly PositionRow[], now: Date): Promise<WriteRow> {
  const statement = oneFixEach(rows) ? POSITIONS_WRITE_ONE_EACH : POSITIONS_WRITE;
  return withPrepared(embedded, [GENERIC_PLAN, statement], async () => {
    // A new message each time: the worker thread takes its buffer.
    const data = await runBound(embedded, embeddedWriteMessage(statement.name, rows, orgId, now));
    const last = data[data.length - 1]!;
    return { moved: last[1] ?? null, dups: last[2]! };
  });
}

/** Whether no vehicle has two of the rows. */
function oneFixEach(rows: readonly PositionRow[]): boolean {
  const seen = new Set<string>();
  for (const r of rows) {
    if (r.assetId === null) continue;
    if (seen.has(r.assetId)) return false;
    seen.add(r.assetId);
  }
  return true;
}

/** The embedded write as one message: the generic-plan setting, then the statement bound with the group's values in binary. */
function embeddedWriteMessage(statement: string, rows: readonly PositionRow[], orgId: string, now: Date): Uint8Array {
  const w = new BindWriter().bind(GENERIC_PLAN.name, 0).execute().bind(statement, 20);
  return bindValues(w, rows, orgId, now).execute().sync();
}

/** The statement's twenty values in binary, in order (writeParams' values as text literals are its plain reference). */
function bindValues(w: BindWriter, rows: readonly PositionRow[], orgId: string, now: Date): BindWriter {
  const col = <T>(f: (r: PositionRow) => T) => rows.map(f);
  const assets = new Set<string>();
  for (const r of rows) if (r.assetId !== null) assets.add(r.assetId);
  return w
    .uuid(orgId)
    .uuidArray(col((r) => r.gatewayId))
    .uuidArray(col((r) => r.assetId))
    .uuidArray(col((r) => r.driverId))
    .float8Array(col((r) => r.fixTime.getTime()))
    .float8Array(col((r) => r.latitude))
    .float8Array(col((r) => r.longitude))
    .float4Array(col((r) => r.speed))
    .float4Array(col((r) => r.course))
    .float4Array(col((r) => r.altitude))
    .float4Array(col((r) => r.accuracy))
    .float8Array(col((r) => r.odometer))
    .boolArray(col((r) => r.ignition))
    .textArray(col((r) => r.protocol))
    .jsonbArray(col((r) => jsonText(r.attributes)))
    .timestamptz(now.getTime())
    .float4(MOVING_SPEED_KMH)
    .uuidArray([...assets])
    .textArray(col((r) => r.odometerSource))
    .float8Array(col((r) => r.engineHours));
}

/** Attributes as JSON text, or null when there are none (the statement stores `{}`). */
function jsonText(o: Record<string, unknown>): string | null {
  for (const _ in o) return JSON.stringify(o);
  return null;
}

/**
 * The plain reference of the embedded write (the test compares the two on random rows): the same
 * statement run with `execute name(…)`, its values as text array literals, between the setting and
 * its reset in one simple-protocol exec. This was the write before decision 0331.
 */
export async function writeEmbeddedReference(embedded: EmbeddedPg, orgId: string, rows: readonly PositionRow[], now: Date): Promise<boolean[]> {
  const st: NamedStatement = { ...POSITIONS_WRITE, name: 'positions_write_reference' };
  const params = writeParams(rows, orgId, now);
  const result = (await execNamed(embedded, st, params.map(literalOf), { before: 'set plan_cache_mode = force_generic_plan', after: 'reset plan_cache_mode' }))
    .rows[0] as WriteRow;
  return storedFrom(result.dups, rows.length);
}

/**
 * The plain reference of the server's write (the test compares the two on random rows): the same
 * statement with its values as text array literals (writeParams), as before issue 74's binary values.
 */
export async function writeServerReference(db: DbOrTx, orgId: string, rows: readonly PositionRow[], now: Date): Promise<boolean[]> {
  const client = (db as { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) throw new Error('writeServerReference: not a PostgreSQL pool');
  const result = await executePooled(client, orgId, writeParams(rows, orgId, now), isPlainServer(db) ? 'plain' : 'server');
  return storedFrom(result.dups, rows.length);
}

/** The two texts a server runs for one organization's group commit (bench/citus-write.ts compares them on a cluster). */
export const GROUP_COMMIT_TEXTS = { statement: WRITE_SQL, citusCall: CITUS_CALL } as const;

/** The group commit's statement for one organization's rows (exported so the benchmark can EXPLAIN it). */
export function writeStatement(rows: readonly PositionRow[], now: Date): SQL {
  return writeQuery(writeParams(rows, rows[0]!.organizationId, now));
}

/** The statement's parameters, $1… in order. */
export function writeParams(rows: readonly PositionRow[], orgId: string, now: Date): unknown[] {
  return [
    // Every row is of this organization (writePositions groups them).
    orgId,
    literal(rows, (r) => r.gatewayId, id),
    literal(rows, (r) => r.assetId, id),
    literal(rows, (r) => r.driverId, id),
    literal(rows, (r) => r.fixTime.getTime(), num),
    literal(rows, (r) => r.latitude, num),
    literal(rows, (r) => r.longitude, num),
    literal(rows, (r) => r.speed, num),
    literal(rows, (r) => r.course, num),
    literal(rows, (r) => r.altitude, num),
    literal(rows, (r) => r.accuracy, num),
    literal(rows, (r) => r.odometer, num),
    literal(rows, (r) => r.ignition, bool),
    literal(
      rows,
      (r) => r.protocol,
      (p) => p,
    ),
    literal(rows, (r) => r.attributes, json),
    now.toISOString(),
    MOVING_SPEED_KMH,
    distinctLiteral(rows, (r) => r.assetId),
    // Added after the first eighteen, so that their numbers stay.
    literal(
      rows,
      (r) => r.odometerSource,
      (v) => v ?? 'NULL',
    ),
    literal(rows, (r) => r.engineHours, num),
  ];
}
