import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { withClient } from '../../../../scripts/citus-setup.ts';

// The Citus pass (TEST_CITUS_URL = the coordinator): a database per test file cannot be copied from a
// template there (Citus creates databases from template1 only, without the extension or the nodes),
// and distributing one costs seconds. So a fixed pool of distributed databases, made once and kept
// between runs; a test file leases one and empties it (decision 0171).

const root = path.resolve(import.meta.dirname, '../../../..');
const migrationsDir = path.join(root, 'apps/api/src/db/migrations');
const distributeScript = path.join(root, 'scripts/db-distribute.ts');

/** The pool's database names: TEST_CITUS_PREFIX + a number (`fleet_test_0`, …). */
export const poolPrefix = (): string => process.env.TEST_CITUS_PREFIX || 'fleet_test_';

/**
 * Shards per distributed table in the pool (TEST_CITUS_SHARDS, default 4: two per worker). Every
 * statement still crosses shards unless it names its organization; Citus' default of 32 makes each
 * file's TRUNCATE and each cross-organization job 8 times the work for nothing a test can see.
 */
const shardCount = (): number => Number(process.env.TEST_CITUS_SHARDS || 4);

/** The coordinator table listing the tables a pool database was made with (kept by resets). */
const SCHEMA_TABLE = 'fleet_test_pool_tables';
/** Coordinator bookkeeping tables a reset leaves alone. */
const KEPT = ['fleet_pending_foreign_keys', SCHEMA_TABLE];

/** Key of the coordinator-wide lock that makes pool databases one at a time (CPU, catalog). */
const CREATE_LOCK_KEY = 724_311_171;

/** What a pool database was made from: a changed migration or distribution step remakes it. */
export function poolFingerprint(): string {
  const hash = createHash('sha256');
  for (const f of fs.readdirSync(migrationsDir, { recursive: true }).map(String).sort()) {
    const file = path.join(migrationsDir, f);
    if (fs.statSync(file).isFile()) hash.update(f).update(fs.readFileSync(file));
  }
  // The pool's own layout (its bookkeeping table): bump when it changes.
  hash
    .update(fs.readFileSync(distributeScript))
    .update(fs.readFileSync(path.join(root, 'scripts/citus-setup.ts')))
    .update(fs.readFileSync(path.join(root, 'apps/api/src/modules/positions/pipeline/citus-write-function.ts')))
    .update(fs.readFileSync(path.join(root, 'apps/api/src/modules/positions/pipeline/position-write-sql.ts')))
    .update(`shards=${shardCount()} pool=2`);
  return `fleet-test-pool ${hash.digest('hex').slice(0, 16)}`;
}

function urlFor(base: string, host: string, port: number, database: string): string {
  const u = new URL(base);
  u.hostname = host;
  u.port = String(port);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The coordinator then the active workers, as postgres:// URLs of their maintenance database. */
async function nodes(coordinatorUrl: string): Promise<string[]> {
  const workers = await withClient(coordinatorUrl, async (c) => {
    const hasCitus = (await c.query(`select 1 from pg_extension where extname = 'citus'`)).rowCount;
    if (!hasCitus) throw new Error(`TEST_CITUS_URL: no citus extension in ${new URL(coordinatorUrl).pathname.slice(1)} (scripts/citus-cluster.sh makes one)`);
    return (await c.query<{ node_name: string; node_port: number }>('select node_name, node_port from citus_get_active_worker_nodes() order by 1, 2')).rows;
  });
  if (workers.length === 0) throw new Error('TEST_CITUS_URL: the coordinator has no active worker');
  const maintenance = new URL(coordinatorUrl).pathname.slice(1) || 'postgres';
  return [coordinatorUrl, ...workers.map((w) => urlFor(coordinatorUrl, w.node_name, w.node_port, maintenance))];
}

function runDistribute(url: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', distributeScript], {
      cwd: root,
      env: { ...process.env, ...env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`db:distribute failed on ${new URL(url).pathname} (exit ${code}):\n${output}`))));
  });
}

/**
 * Makes the pool database `name` on every node unless it is there from the same migrations and
 * distribution step (the database's comment holds the fingerprint): created on the coordinator with
 * the pool's shard count, then `db:distribute` makes it on each worker, with the citus extension in
 * each and the workers registered (scripts/citus-setup.ts).
 * Returns how long it took (0 when the database was already there).
 */
export async function ensurePoolDatabase(coordinatorUrl: string, name: string, remake = false): Promise<number> {
  const fingerprint = poolFingerprint();
  if (remake) await withClient(coordinatorUrl, (c) => c.query(`comment on database ${pg.escapeIdentifier(name)} is null`));
  const current = async () =>
    withClient(
      coordinatorUrl,
      async (c) =>
        (await c.query<{ d: string | null }>(`select shobj_description(oid, 'pg_database') as d from pg_database where datname = $1`, [name])).rows[0]?.d ??
        null,
    );
  if ((await current()) === fingerprint) return 0;
  const started = Date.now();
  // One maker at a time across processes; whoever waited finds the database made.
  const lock = new pg.Client({ connectionString: coordinatorUrl });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [CREATE_LOCK_KEY]);
    if ((await current()) === fingerprint) return 0;
    const all = await nodes(coordinatorUrl);
    const ident = pg.escapeIdentifier(name);
    // Stale (other migrations) or half made: made again from nothing, the coordinator first so a
    // failure below leaves no comment behind.
    for (const node of all) await withClient(node, (c) => c.query(`drop database if exists ${ident} with (force)`));
    // The coordinator's database first, for its shard count; db:distribute makes it on the workers,
    // with the extension everywhere, the coordinator's host and the workers registered.
    await withClient(coordinatorUrl, (c) => c.query(`create database ${ident}`));
    const url = poolUrl(coordinatorUrl, name);
    await withClient(url, (c) => c.query(`alter database ${ident} set citus.shard_count = ${shardCount()}`));
    await runDistribute(url, {
      CITUS_WORKERS: all
        .slice(1)
        .map((n) => new URL(n).host)
        .join(','),
      CITUS_MAINTENANCE_DB: new URL(coordinatorUrl).pathname.slice(1) || 'postgres',
    });
    // The tables as made: a test that drops one (to see the error a broken database gives) spoils
    // the database for the next file, which then makes it again (resetPoolDatabase).
    await withClient(url, (c) =>
      c.query(
        `create table ${SCHEMA_TABLE} as select format('%I', relname) as name from pg_class
         where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') and not relispartition`,
      ),
    );
    await withClient(coordinatorUrl, (c) => c.query(`comment on database ${ident} is ${pg.escapeLiteral(fingerprint)}`));
    return Date.now() - started;
  } finally {
    await lock.end();
  }
}

export function poolUrl(coordinatorUrl: string, name: string): string {
  const u = new URL(coordinatorUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * The tables of the database whose files hold data, asked of every node at once: a shard
 * (`assets_102073`) stands for its table, a partition for its root. A table whose files are empty
 * has no rows, so only the tables a test file wrote are emptied.
 */
async function tablesWithData(c: pg.Client): Promise<string[]> {
  const { rows } = await c.query<{ result: string }>(
    `select result from run_command_on_all_nodes($$select coalesce(string_agg(relname, ' '), '') from pg_class
       where relnamespace = 'public'::regnamespace and relkind = 'r' and pg_relation_size(oid) > 0$$)`,
  );
  const names = rows.flatMap((r) => r.result.split(' ').filter(Boolean));
  const { rows: tables } = await c.query<{ t: string }>(
    `select distinct format('%I', r.relname) as t
     from unnest($1::text[]) n(name)
     cross join lateral (
       select coalesce(
         (select coalesce(pg_partition_root(s.logicalrelid), s.logicalrelid) from pg_dist_shard s where s.shardid::text = substring(n.name from '_([0-9]+)$')),
         (select coalesce(pg_partition_root(c.oid), c.oid) from pg_class c where c.relname = n.name and c.relnamespace = 'public'::regnamespace)) as oid
     ) t
     join pg_class r on r.oid = t.oid
     where r.relname <> all ($2)`,
    [names, KEPT],
  );
  return tables.map((t) => t.t);
}

/**
 * Empties a pool database to what a migrated template holds (no rows: the migrations insert
 * none), sequences restarted. Sessions a previous file left open on it are ended first, as DROP
 * DATABASE … FORCE does for the PostgreSQL pass.
 *
 * DELETE, not TRUNCATE: every table refers to `organizations`, so a TRUNCATE of it cascades to all
 * 67 tables and their shards (3-4 s on this machine, most of a file's time); deleting a test
 * file's few thousand rows takes tens of milliseconds. Foreign keys and the app's triggers are
 * off for it (`session_replication_role = replica`, sent to the workers' connections too); Citus
 * wants one connection per node when reference tables are written in the transaction.
 * Returns the milliseconds it took, or null when a table it was made with is gone (a test dropped
 * it) or its shards are no longer the pool's (a test split a group): the database must be made again.
 */
export async function resetPoolDatabase(url: string): Promise<number | null> {
  const started = Date.now();
  let emptied = 0;
  const spoiled = await withClient(url, async (c) => {
    await c.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    const missing = await c.query(`select 1 from ${SCHEMA_TABLE} where to_regclass(name) is null limit 1`);
    if (missing.rowCount) return true;
    // A test that split a shard group (isolate_tenant_to_new_shard) leaves more shards than the pool's.
    const split = await c.query(`select 1 from pg_dist_shard where logicalrelid = 'positions'::regclass having count(*) <> $1`, [shardCount()]);
    if (split.rowCount) return true;
    const tables = await tablesWithData(c);
    emptied = tables.length;
    await c.query(`set citus.propagate_set_commands = 'local'`);
    await c.query('begin');
    try {
      await c.query('set local session_replication_role = replica');
      await c.query(`set local citus.multi_shard_modify_mode = 'sequential'`);
      for (const t of tables) await c.query(`delete from ${t}`);
      await c.query('commit');
    } catch (err) {
      await c.query('rollback');
      throw err;
    }
    // setval, not ALTER SEQUENCE … RESTART: Citus refuses to alter a distributed sequence (one a distributed table's column owns).
    await c.query(`select setval(format('%I.%I', schemaname, sequencename)::regclass, start_value, false) from pg_sequences where schemaname = 'public'`);
    return false;
  });
  if (spoiled) return null;
  const ms = Date.now() - started;
  if (process.env.TEST_CITUS_TIMINGS) fs.appendFileSync(process.env.TEST_CITUS_TIMINGS, `reset ${new URL(url).pathname.slice(1)} ${emptied} ${ms}\n`);
  return ms;
}

/**
 * Leases a pool database for one test app: the first `<prefix>N` no other process holds (a session
 * advisory lock on the coordinator, held until release), made if missing (global-setup makes one per
 * vitest worker beforehand), then emptied. Files in a worker run one after another, so a file that
 * opens two apps at once is what needs a second database.
 */
export async function leasePoolDatabase(coordinatorUrl: string): Promise<{ url: string; release: () => Promise<void> }> {
  const holder = new pg.Client({ connectionString: coordinatorUrl });
  await holder.connect();
  try {
    for (let n = 0; n < 64; n++) {
      const name = `${poolPrefix()}${n}`;
      const { rows } = await holder.query<{ ok: boolean }>(`select pg_try_advisory_lock(hashtext('fleet-test-pool'), hashtext($1)) as ok`, [name]);
      if (!rows[0]?.ok) continue;
      await ensurePoolDatabase(coordinatorUrl, name);
      const url = poolUrl(coordinatorUrl, name);
      if ((await resetPoolDatabase(url)) === null) {
        await ensurePoolDatabase(coordinatorUrl, name, true);
        await resetPoolDatabase(url);
      }
      return { url, release: () => holder.end() };
    }
    throw new Error('TEST_CITUS_URL: 64 pool databases are all leased');
  } catch (err) {
    await holder.end();
    throw err;
  }
}
