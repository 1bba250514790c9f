// One PostgreSQL server vs the Citus cluster, same workload, same run (issue 34).
//   CITUS_URL=postgres://postgres@127.0.0.1:41677/postgres node --import tsx bench/citus.ts [seconds]
//   (npm run bench:citus). `seconds` is each ingest test's length (default 8); reads get
//   BENCH_READ_SECONDS each (default 5). BENCH_ONLY=pg|citus runs one side; BENCH_MOVE=0 skips the
//   shard move; BENCH_KEEP=1 keeps the cluster's database for a look afterwards; BENCH_CACHED_CONNS=n
//   sets citus.max_cached_conns_per_worker on the cluster's database (Citus's default: 1);
//   BENCH_TESTS=singles,paced,batches,reads picks the tests (default all four); paced: the singles at
//   BENCH_PACED_RATE requests a second (default 250), the same load on both databases. Before and
//   after each ingest test the bench waits for BENCH_SETTLE_QUIET_S quiet seconds in a row (default 6).
//   The scaling run (issue 49): BENCH_SPREAD=1 spreads the organizations evenly over the workers
//   before the APIs start, and BENCH_WORKER_CPU=<cores> caps each worker's CPU (as root: a cgroup
//   quota), so that a cluster of two and one of four workers (CITUS_WORKER_COUNT=4
//   CITUS_CLUSTER_DIR=… scripts/citus-cluster.sh start) stand in for machines of that size.
// For each database:
//   (a) PostgreSQL 15: a throwaway server this bench starts in /tmp on a free port (Debian's
//       /usr/lib/postgresql/15/bin, the cluster's settings: fsync and synchronous_commit off),
//       stopped and removed at the end;
//   (b) Citus: a database c3_bench_<pid> made on the coordinator and every worker (extension,
//       nodes), distributed with `npm run db:distribute`, dropped at the end.
// Seeds BENCH_ORGS organizations (default 4), each with BENCH_VEHICLES vehicles with drivers and
// OsmAnd devices (default 250), a batch device, a 1 Hz day of history (bench/history-day.ts),
// BENCH_HOS_DRIVERS drivers with 14 days of logs (bench/hos-data.ts, default 100) and a quarter of
// IFTA data for 100 vehicles (as bench/ifta-report.ts), then VACUUM ANALYZE; starts two API instances on free ports and
// measures, spreading every load over both instances:
//   ingest  OsmAnd single positions (BENCH_CONNECTIONS keep-alive connections, default 20; each
//           device's fixes to both instances in turn, as round robin sends them, or with
//           BENCH_STICKY=1 to one, as the guide's nginx does: decision 0218) and JSON batches of
//           1,000 (one client per organization): positions/s, latency p50/p99, every acknowledged
//           position counted in the table afterwards;
//   reads   live map, a history day, a registry page, HoS availability, IFTA quarter: 4 connections,
//           p50/p99 and errors (the first error's text is printed: a refused query shows here);
// and prints the CPU each process spent in each test: both API instances, the load generator, and
// each database node (postmaster utime+stime+cutime+cstime plus its live children: backends that
// exited are in cutime/cstime). On the shared cluster a node's CPU includes other databases' work,
// so the CPU of this database's own backends is printed beside it.
// Then, on the cluster (bench/citus-move.ts): one organization's shards moved to the other worker
// and back while OsmAnd ingest runs, counting acknowledged vs stored positions and the longest
// stretch without a successful answer.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import type { Actor } from '../apps/api/src/modules/auth/auth-context.ts';
import { hashPassword } from '../apps/api/src/modules/auth/crypto.ts';
import { accessTokens } from '../apps/api/src/modules/auth/jwt.ts';
import { putDeviceIds } from '../apps/api/src/modules/gateways/device-ids.ts';
import { createOrganizationWithAdmin } from '../apps/api/src/modules/organizations/organizations.service.ts';
import { hashIngestToken } from '../apps/api/src/modules/positions/pipeline/gateway-directory.ts';
import { freePort, signIn, type ServerProcess } from '../apps/api/src/test/server-process.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { benchEntry, startBenchServer } from './bench-server.ts';
import { withClient } from '../scripts/citus-setup.ts';
import type { LoadResult } from './citus-load.ts';
import { runLoad } from './citus-run-load.ts';
import { spreadOrganizations } from './citus-spread.ts';
import { capProcessTree, type CpuCap } from './cpu-cap.ts';
import { moveUnderIngest } from './citus-move.ts';
import { HISTORY_DAY, insertHistoryDay } from './history-day.ts';
import { seedHosFleet } from './hos-data.ts';

const root = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.argv[2] ?? 8);
const readSeconds = Number(process.env.BENCH_READ_SECONDS ?? 5);
const ORGS = Number(process.env.BENCH_ORGS ?? 4);
const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 250);
const HOS_DRIVERS = Number(process.env.BENCH_HOS_DRIVERS ?? 100);
const IFTA_VEHICLES = Math.min(100, VEHICLES);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PASSWORD = 'C3bench#2026';
const PG_BIN = process.env.BENCH_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const only = process.env.BENCH_ONLY;
const tests = new Set((process.env.BENCH_TESTS ?? 'singles,paced,batches,reads').split(','));
/** The paced singles' offered load, the same on both databases (below what either takes at most). */
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 250);
// BENCH_STICKY=1: each device's singles to one instance, as the guide's nginx (hash on the id) sends
// them; by default to both in turn, as round robin does.
const STICKY = process.env.BENCH_STICKY === '1';
/** Quiet seconds in a row that end a settle (longer than the longest follower pause, IFTA's 5 s). */
const SETTLE_QUIET_S = Number(process.env.BENCH_SETTLE_QUIET_S ?? 6);
/** Each worker's CPU cap in cores (0: none), for the scaling run (bench/cpu-cap.ts). */
const WORKER_CPU = Number(process.env.BENCH_WORKER_CPU ?? 0);
const citusUrl = process.env.CITUS_URL;
const entry = benchEntry('source');
const SYSTEM: Actor = { userId: null, email: 'system', role: 'SYSTEM', ip: null };
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const started = Date.now();
const log = (m: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s, load ${load()}] ${m}`);

// ---- processes and their CPU -------------------------------------------------------------------

interface Stat {
  ppid: number;
  own: number;
  children: number;
}
/** Every process's parent and CPU seconds (own utime+stime; cutime+cstime of its reaped children). */
function allStats(): Map<number, Stat> {
  const out = new Map<number, Stat>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      out.set(Number(d), { ppid: Number(f[1]), own: (Number(f[11]) + Number(f[12])) / 100, children: (Number(f[13]) + Number(f[14])) / 100 });
    } catch {
      // ended meanwhile
    }
  }
  return out;
}
/** A database node: its postmaster (pid read from the data directory) and an admin connection to this bench's database on it. */
interface DbNode {
  name: string;
  port: number;
  postmaster: number;
  client: pg.Client;
}
/** A node's CPU: postmaster utime+stime+cutime+cstime plus its live children's utime+stime. */
function nodeCpu(stats: Map<number, Stat>, postmaster: number): number {
  const pm = stats.get(postmaster);
  if (!pm) return 0;
  let t = pm.own + pm.children;
  for (const s of stats.values()) if (s.ppid === postmaster) t += s.own;
  return t;
}
interface Snapshot {
  at: number;
  stats: Map<number, Stat>;
  /** Per node: this database's backends and their CPU seconds. */
  own: Map<string, Map<number, number>>;
}
async function snapshot(nodes: DbNode[]): Promise<Snapshot> {
  const own = new Map<string, Map<number, number>>();
  const pids = await Promise.all(
    nodes.map(async (n) =>
      (await n.client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map(
        (r) => r.pid,
      ),
    ),
  );
  const stats = allStats();
  nodes.forEach((n, i) => own.set(n.name, new Map(pids[i]!.map((p) => [p, stats.get(p)?.own ?? 0]))));
  return { at: performance.now(), stats, own };
}
interface CpuSpent {
  wallS: number;
  apis: number[];
  nodes: Array<{ name: string; all: number; own: number }>;
}
function spent(a: Snapshot, b: Snapshot, apis: ServerProcess[], nodes: DbNode[]): CpuSpent {
  const proc = (s: Snapshot, pid: number) => s.stats.get(pid)?.own ?? 0;
  return {
    wallS: (b.at - a.at) / 1000,
    apis: apis.map((x) => proc(b, x.pid) - proc(a, x.pid)),
    nodes: nodes.map((n) => {
      let own = 0;
      const before = a.own.get(n.name)!;
      // A backend that appeared meanwhile counts from zero; one that ended is lost from "own" (not from "all").
      for (const [pid, t] of b.own.get(n.name)!) own += t - (before.get(pid) ?? 0);
      return { name: n.name, all: nodeCpu(b.stats, n.postmaster) - nodeCpu(a.stats, n.postmaster), own };
    }),
  };
}

// ---- the databases -----------------------------------------------------------------------------

const asPostgres = (cmd: string, args: string[]) =>
  (process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]) as [string, string[]];
function run(cmd: string, args: string[], env?: Record<string, string>): string {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}
const urlOf = (port: number, db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
async function postmasterOf(c: pg.Client): Promise<number> {
  const dir = (await c.query<{ d: string }>('select current_setting($1) as d', ['data_directory'])).rows[0]!.d;
  return Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}
/**
 * BENCH_STATEMENTS=1, with pg_stat_statements loaded on every node (BENCH_PG_OPTS='-c
 * shared_preload_libraries=pg_stat_statements' for the one server): each ingest test prints its
 * busiest statements on each node, to see what the work behind a position is made of.
 */
const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
async function statementsReset(nodes: DbNode[]): Promise<void> {
  if (!STATEMENTS) return;
  // Made on the coordinator, Citus makes it on the workers (which refuse it themselves).
  await nodes[0]!.client.query('create extension if not exists pg_stat_statements');
  for (const n of nodes) await n.client.query('select pg_stat_statements_reset()');
}
async function statementsTop(nodes: DbNode[], test: string, positions: number): Promise<void> {
  if (!STATEMENTS) return;
  for (const n of nodes) {
    const { rows } = await n.client.query<{ calls: string; ms: string; q: string }>(
      `select calls, round(total_exec_time::numeric, 1) as ms, regexp_replace(left(query, 140), '\\s+', ' ', 'g') as q
       from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()) order by total_exec_time desc limit 12`,
    );
    log(`${test}, ${n.name}: busiest statements for ${positions} positions (calls, ms)`);
    for (const r of rows) log(`  ${r.calls.padStart(7)} ${r.ms.padStart(9)}  ${r.q}`);
  }
}

async function connectNode(name: string, port: number, db: string): Promise<DbNode> {
  const client = new pg.Client({ connectionString: urlOf(port, db) });
  await client.connect();
  return { name, port, postmaster: await postmasterOf(client), client };
}

interface Target {
  label: string;
  url: string;
  nodes: DbNode[];
  cleanup: () => Promise<void>;
  /** Seconds spent making the database (initdb or create + db:distribute). */
  setupS: number;
  coordinatorUrl?: string;
  workers?: Array<{ host: string; port: number }>;
  /** Lines printed under the section's heading (the scaling run's spread and caps). */
  notes: string[];
}

/** A throwaway PostgreSQL 15 in /tmp on a free port, with the cluster's settings. */
async function plainPostgres(): Promise<Target> {
  const t = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-pg-'));
  if (process.getuid?.() === 0) run('chown', ['postgres', dir]);
  const port = await freePort();
  run(...asPostgres(path.join(PG_BIN, 'initdb'), ['-D', `${dir}/data`, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']));
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c shared_buffers=128MB -c max_connections=300${process.env.BENCH_PG_OPTS ? ` ${process.env.BENCH_PG_OPTS}` : ''}`;
  run(...asPostgres(path.join(PG_BIN, 'pg_ctl'), ['-D', `${dir}/data`, '-l', `${dir}/server.log`, '-w', '-o', opts, 'start']));
  await withClient(urlOf(port, 'postgres'), (c) => c.query('create database c3_bench'));
  const node = await connectNode('postgres', port, 'c3_bench');
  return {
    label: 'PostgreSQL 15 (one server)',
    url: urlOf(port, 'c3_bench'),
    nodes: [node],
    notes: [],
    setupS: (performance.now() - t) / 1000,
    cleanup: async () => {
      await node.client.end();
      run(...asPostgres(path.join(PG_BIN, 'pg_ctl'), ['-D', `${dir}/data`, '-m', 'fast', '-w', 'stop']));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A database c3_bench_<pid> on every node of the cluster, distributed by `npm run db:distribute`. */
async function citusDatabase(coordinator: string): Promise<Target> {
  const t = performance.now();
  const coordPort = Number(new URL(coordinator).port);
  const workers = await withClient(
    coordinator,
    async (c) =>
      (
        await c.query<{ host: string; port: number }>(
          `select nodename as host, nodeport as port from pg_dist_node where groupid <> 0 and noderole = 'primary' and isactive order by nodeport`,
        )
      ).rows,
  );
  const db = `c3_bench_${process.pid}`;
  const url = urlOf(coordPort, db);
  // db:distribute makes the database on every node (extension, coordinator host, workers) itself.
  const ports = [coordPort, ...workers.map((w) => w.port)];
  const drop = async () => {
    for (const p of ports) await withClient(urlOf(p, 'postgres'), (c) => c.query(`drop database if exists ${db} with (force)`));
  };
  try {
    const out = run('npm', ['run', '--silent', 'db:distribute'], { DATABASE_URL: url });
    log(`db:distribute: ${out.trim().split('\n').pop()}`);
  } catch (err) {
    await drop();
    throw err;
  }
  // BENCH_CACHED_CONNS=n: the coordinator keeps n connections to each worker open between
  // statements (Citus's default is 1: a request beside another opens and closes its own).
  const cached = process.env.BENCH_CACHED_CONNS;
  if (cached) await withClient(url, (c) => c.query(`alter database ${db} set citus.max_cached_conns_per_worker = ${Number(cached)}`));
  const nodes = [
    await connectNode('coordinator', coordPort, db),
    ...(await Promise.all(workers.map((w, i) => connectNode(`worker ${i + 1} (:${w.port})`, w.port, db)))),
  ];
  // What the API's connections get: the cluster's own setting unless BENCH_CACHED_CONNS set one.
  const conns = await withClient(
    url,
    async (c) => (await c.query<{ n: string }>(`select current_setting('citus.max_cached_conns_per_worker') as n`)).rows[0]!.n,
  );
  return {
    label: `Citus 13.2 (coordinator + ${workers.length} workers, citus.max_cached_conns_per_worker = ${conns}${cached ? ' (BENCH_CACHED_CONNS)' : ''})`,
    url,
    nodes,
    notes: [],
    setupS: (performance.now() - t) / 1000,
    coordinatorUrl: url,
    workers,
    cleanup: async () => {
      for (const n of nodes) await n.client.end();
      if (process.env.BENCH_KEEP === '1') return log(`kept ${db} on the cluster`);
      await drop();
    },
  };
}

// ---- the fleet ---------------------------------------------------------------------------------

interface Org {
  id: string;
  index: number;
  email: string;
  devices: string[];
  /** The OsmAnd devices' rows, for the shard move's direct writer. */
  rows: Array<{ uid: string; orgId: string; gatewayId: string; assetId: string }>;
  historyAsset: string;
  batchToken: string;
}

async function seedFleet(url: string): Promise<{ orgs: Org[]; seconds: number }> {
  const t = performance.now();
  const database = await openDatabase({ databaseUrl: url, dataDir: 'memory', poolSize: 4 });
  const db = database.db;
  try {
    await seed(db, { ...testConfig({ logLevel: 'silent' }), demo: false }, () => undefined);
    const passwordHash = await hashPassword(PASSWORD);
    const orgs: Org[] = [];
    const endMs = Math.floor(Date.now() / 60_000) * 60_000;
    for (let k = 0; k < ORGS; k++) {
      const email = `admin${k}@c3bench.test`;
      const created = await db.transaction((tx) =>
        createOrganizationWithAdmin(
          tx,
          { name: `Bench carrier ${k}`, timeZone: 'America/Chicago', admin: { email, firstName: 'Bench', lastName: `Admin ${k}`, passwordHash } },
          SYSTEM,
        ),
      );
      const orgId = created.org.id;
      // Vehicles 0..V-1 report over OsmAnd (device c3-<k>-<i>); vehicle V owns the batch device.
      const token = randomBytes(24).toString('base64url');
      const rows = Array.from({ length: VEHICLES + 1 }, (_, i) => ({
        asset: randomUUID(),
        driver: randomUUID(),
        gateway: randomUUID(),
        unit: `C3-${k}-${String(i).padStart(4, '0')}`,
        uid: i < VEHICLES ? `c3-${k}-${String(i).padStart(4, '0')}` : `c3-${k}-batch`,
        hash: i < VEHICLES ? null : hashIngestToken(token),
      }));
      const json = JSON.stringify(rows);
      const x = sql`json_to_recordset(${json}::json) as x(asset uuid, driver uuid, gateway uuid, unit text, uid text, hash text)`;
      await db.execute(
        sql`insert into drivers (id, organization_id, first_name, last_name) select x.driver, ${orgId}::uuid, 'Dana', 'Driver ' || x.unit from ${x}`,
      );
      await db.execute(
        sql`insert into assets (id, organization_id, type, unit_number, fuel_type, ifta_qualified, current_driver_id) select x.asset, ${orgId}::uuid, 'VEHICLE', x.unit, 'DIESEL', true, x.driver from ${x}`,
      );
      await db.execute(
        sql`insert into gateways (id, organization_id, unique_id, name, asset_id, ingest_token_hash) select x.gateway, ${orgId}::uuid, x.uid, 'Device ' || x.uid, x.asset, x.hash from ${x}`,
      );
      // The device-id directory ingest looks devices up in, as the gateway service writes it.
      await putDeviceIds(
        db,
        rows.map((r) => ({ id: r.gateway, organizationId: orgId, uniqueId: r.uid, ingestTokenHash: r.hash })),
      );
      const h = rows[1]!;
      await insertHistoryDay(db, orgId, { gatewayId: h.gateway, assetId: h.asset, driverId: h.driver });
      await seedHosFleet(db, orgId, HOS_DRIVERS, endMs, []);
      await seedIfta(db, orgId);
      const osmandRows = rows.slice(0, VEHICLES);
      orgs.push({
        id: orgId,
        index: k,
        email,
        devices: osmandRows.map((r) => r.uid),
        rows: osmandRows.map((r) => ({ uid: r.uid, orgId, gatewayId: r.gateway, assetId: r.asset })),
        historyAsset: h.asset,
        batchToken: token,
      });
    }
    // The seed is a bulk load: every table vacuumed and analysed now, as in a database that has been
    // running, so that autovacuum's catch-up on it (on Citus, on every shard of every node) is not
    // counted to the ingest measured next. On Citus an unqualified VACUUM runs on every worker.
    await db.execute(sql.raw('vacuum analyze'));
    return { orgs, seconds: (performance.now() - t) / 1000 };
  } finally {
    await database.close();
  }
}

/** A quarter (2026Q2) of IFTA days for the organization's first IFTA_VEHICLES vehicles, as bench/ifta-report.ts writes them. */
async function seedIfta(db: Awaited<ReturnType<typeof openDatabase>>['db'], orgId: string): Promise<void> {
  const states = `{IL,IN,OH,PA,NY,TX,OK,KS,MO,IA,NE,WY}`;
  const v = sql`v as (select id, row_number() over (order by unit_number) as n from assets where organization_id = ${orgId}::uuid and unit_number like 'C3-%' order by unit_number limit ${IFTA_VEHICLES})`;
  await db.execute(sql`with ${v}
    insert into ifta_distance_days (organization_id, vehicle_id, day, jurisdiction, metres, interpolated_metres)
    select ${orgId}::uuid, v.id, d::date, (${states}::text[])[1 + ((v.n + k) % 12)], 50000 + ((v.n * 7919 + k * 104729 + extract(doy from d)::int * 31) % 100000),
           case when (v.n + extract(doy from d)::int) % 37 = 0 then 8000 else 0 end
    from v, generate_series('2026-04-01'::date, '2026-06-30'::date, '1 day') d, generate_series(0, 2) k`);
  await db.execute(sql`insert into ifta_distance_months (organization_id, vehicle_id, month, jurisdiction, metres, interpolated_metres)
    select organization_id, vehicle_id, date_trunc('month', day)::date, jurisdiction, sum(metres), sum(interpolated_metres) from ifta_distance_days where organization_id = ${orgId}::uuid group by 1, 2, 3, 4`);
  await db.execute(sql`insert into ifta_vehicle_days (organization_id, vehicle_id, day, first_fix_at, last_fix_at, odometer_start_m, odometer_end_m, fixes, metres, odometer_travel_m, odometer_metres)
    select d.organization_id, d.vehicle_id, d.day, d.day + time '06:00', d.day + time '18:00', 1e8 + (d.day - '2026-04-01'::date) * 300000, 1e8 + (d.day - '2026-04-01'::date) * 300000 + sum(d.metres), 1440,
           sum(d.metres), sum(d.metres) * 1.01, sum(d.metres)
    from ifta_distance_days d where d.organization_id = ${orgId}::uuid group by d.organization_id, d.vehicle_id, d.day`);
  await db.execute(sql`insert into ifta_vehicle_months (organization_id, vehicle_id, month, metres, odometer_travel_m, odometer_metres)
    select organization_id, vehicle_id, date_trunc('month', day)::date, sum(metres), sum(odometer_travel_m), sum(odometer_metres) from ifta_vehicle_days where organization_id = ${orgId}::uuid group by 1, 2, 3`);
  await db.execute(sql`insert into ifta_crossings (organization_id, vehicle_id, day, crossed_at, latitude, longitude, odometer_m, from_jurisdiction, to_jurisdiction)
    select organization_id, vehicle_id, day, day + time '12:00', 40, -90, null, 'IL', 'IN' from ifta_vehicle_days where organization_id = ${orgId}::uuid`);
  await db.execute(sql`with ${v}
    insert into ifta_fuel_purchases (organization_id, vehicle_id, purchased_at, jurisdiction, fuel_type, quantity_milli, volume_unit, total_cents, receipt_number, tax_paid, location_check)
    select ${orgId}::uuid, v.id, '2026-04-01'::timestamptz + (p * 7 || ' days')::interval, (${states}::text[])[1 + ((v.n + p) % 12)], 'DIESEL', 400000 + (v.n * p) % 200000, 'GAL', 150000,
           'B-' || v.n || '-' || p, true, case when (v.n + p) % 97 = 0 then 'FAR' else 'OK' end
    from v, generate_series(0, 12) p`);
}

/** An access token as sign-in issues it (auth/jwt.ts), signed with the database's own secret. */
async function mintToken(c: pg.Client, o: Org): Promise<string> {
  const secret = (await c.query<{ value: string }>(`select value from app_meta where key = 'jwt_secret'`)).rows[0]!.value;
  const user = (await c.query<{ id: string }>('select id from users where email = $1', [o.email])).rows[0]!;
  return accessTokens(secret).sign({ sub: user.id, org: o.id });
}

// ---- load ---------------------------------------------------------------------------------------

/** The API instances' warnings and errors since `from` (characters of their output), by message. */
function warnings(apis: ServerProcess[], from: number[]): string[] {
  const seen = new Map<string, number>();
  apis.forEach((a, i) => {
    for (const line of a.output().slice(from[i]).split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const j = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string; cause?: { message?: string } } };
        if ((j.level ?? 0) < 40) continue;
        // The refused query's text starts the error's message ("Failed query: …"); Citus's reason is its cause.
        const query = (j.err?.message ?? '')
          .replace(/^Failed query: /, '')
          .replace(/\s+/g, ' ')
          .slice(0, 160);
        const key = `${j.msg ?? ''}: ${j.err?.cause?.message ?? ''} [${query}]`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      } catch {
        // not a log line
      }
    }
  });
  return [...seen].map(([k, n]) => `${n}× ${k}`);
}

interface IngestFigure {
  test: string;
  r: LoadResult;
  stored: number;
  cpu: CpuSpent;
  loadAvg: string;
}
interface ReadFigure {
  read: string;
  r: LoadResult;
  cpu: CpuSpent;
}
interface Side {
  target: Target;
  seedS: number;
  apiStartS: number;
  ingest: IngestFigure[];
  reads: ReadFigure[];
  warnings: string[];
  move: string[];
  signInError: string | null;
}

async function measure(target: Target): Promise<Side> {
  log(`${target.label}: database ready in ${target.setupS.toFixed(1)} s; seeding ${ORGS} organizations`);
  const fleet = await seedFleet(target.url);
  log(`seeded in ${fleet.seconds.toFixed(1)} s; starting two API instances`);
  // The scaling run (issue 49): BENCH_SPREAD=1 spreads the organizations evenly over the workers;
  // BENCH_WORKER_CPU=<cores> caps each worker, as if each were a machine of that size.
  const caps: CpuCap[] = [];
  if (target.workers) {
    if (process.env.BENCH_SPREAD === '1')
      target.notes.push(
        `Organizations per worker (BENCH_SPREAD): ${await spreadOrganizations(
          target.nodes[0]!.client,
          fleet.orgs.map((o) => o.id),
          log,
        )}.`,
      );
    if (WORKER_CPU > 0) {
      for (const [i, n] of target.nodes.slice(1).entries()) caps.push(capProcessTree(`fleet-bench-${process.pid}-w${i + 1}`, n.postmaster, WORKER_CPU));
      target.notes.push(`Each worker capped at ${WORKER_CPU} of a core (BENCH_WORKER_CPU: a cgroup's CFS quota over ${caps.length} workers).`);
    }
  }
  const t = performance.now();
  const apis: ServerProcess[] = [];
  const env = { DATABASE_URL: target.url, DEMO: '0', SIMULATOR: '0', LOG_LEVEL: 'warn' };
  try {
    // BENCH_NODE_ARGS: Node's own flags for the API instances (e.g. `--cpu-prof --cpu-prof-dir=<dir>`: NODE_OPTIONS refuses them).
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    for (let i = 0; i < 2; i++) apis.push(await startBenchServer({ entry, env, readyTimeoutMs: 180_000, nodeArgs }));
    const apiStartS = (performance.now() - t) / 1000;
    const outputFrom = apis.map((a) => a.output().length);
    const tokens = new Map<string, string>();
    let signInError: string | null = null;
    for (const o of fleet.orgs) {
      try {
        tokens.set(o.id, `Bearer ${(await signIn(apis[o.index % 2]!, { email: o.email, password: PASSWORD })).accessToken}`);
      } catch (err) {
        // Sign-in is not what this bench measures: when the API refuses it on the cluster, the
        // reads run with a token signed by the database's own JWT secret, as sign-in would issue.
        signInError ??= err instanceof Error ? err.message.slice(0, 300) : String(err);
        tokens.set(o.id, `Bearer ${await mintToken(target.nodes[0]!.client, o)}`);
      }
    }
    const nodes = target.nodes;
    const side: Side = { target, seedS: fleet.seconds, apiStartS, ingest: [], reads: [], warnings: [], move: [], signInError };
    const devices = fleet.orgs.flatMap((o) => o.devices);
    const osmandPorts = apis.map((a) => a.osmandPort);

    // Warm-up: every device reports twice before the count, two and one minute before it, once to
    // each instance (a truck already on the road behind the load balancer); the work behind ingest
    // it causes settles before the count. With one fix to one instance, half of each device's
    // counted fixes were its first at the other instance: a directory look-up and every follower's
    // first read of the vehicle, work a device costs an instance once, not once a fix (decision 0214).
    const t0 = Math.floor(Date.now() / 1000) - 86_400;
    for (const [ago, turn] of [
      [120, 0],
      [60, 1],
    ] as const) {
      for (let i = 0; i < devices.length; i += 50) {
        await Promise.all(
          devices
            .slice(i, i + 50)
            .map((d, k) =>
              fetch(
                `http://127.0.0.1:${osmandPorts[STICKY ? (i + k) % 2 : (k + turn) % 2]}/?id=${d}&timestamp=${t0 - ago}&lat=35&lon=-97&speed=30&ignition=true`,
              ).then((r) => r.arrayBuffer()),
            ),
        );
      }
    }
    const count = async (q: string, params: unknown[]) => Number((await nodes[0]!.client.query<{ n: string }>(q, params)).rows[0]!.n);
    /**
     * Waits until the work behind ingest (auto duty, IFTA miles, trips, safety…) has settled:
     * SETTLE_QUIET_S seconds in a row in which the APIs and the nodes together spend under a fifth
     * of a core each second (idle, their timers and daemons take about a tenth), at most 120 s. Its
     * CPU is the positions' cost, so the ingest figure counts it, up to the snapshot where the quiet
     * stretch began: the idle seconds after it are no position's cost, and counting them charged
     * the slower database more a position. A fixed wait let a slower database's followers run on
     * into the reads measured next. The quiet stretch is longer than the longest follower pause
     * (IFTA miles' 5 s round): one quiet second ended the warm-up before IFTA's first round, whose
     * catch-up of the seeded history day (4 × 86,400 fixes) then fell inside the singles' count on
     * both databases (decision 0221).
     */
    const settle = async (): Promise<{ seconds: number; end: Snapshot }> => {
      const started = performance.now();
      let quietFrom: Snapshot | null = null;
      let quiet = 0;
      let x = await snapshot(nodes);
      for (;;) {
        await new Promise((r) => setTimeout(r, 1000));
        const y = await snapshot(nodes);
        const c = spent(x, y, apis, nodes);
        const total = c.apis.reduce((p, q) => p + q, 0) + c.nodes.reduce((p, n) => p + n.all, 0);
        // Capped workers (BENCH_WORKER_CPU): work waiting on a throttled worker spends little
        // elsewhere, so a second is quiet only if each worker also spent under half its cap.
        const workersQuiet = WORKER_CPU <= 0 || c.nodes.slice(1).every((n) => n.all < 0.5 * WORKER_CPU * c.wallS);
        if (total < 0.2 * c.wallS && workersQuiet) {
          quietFrom ??= x;
          quiet++;
        } else {
          quietFrom = null;
          quiet = 0;
        }
        x = y;
        const timedOut = performance.now() - started > 120_000;
        if (quiet >= SETTLE_QUIET_S || timedOut) return { seconds: ((quietFrom ?? y).at - started) / 1000, end: quietFrom ?? y };
      }
    };

    // Ingest: OsmAnd singles.
    log(`warm-up: the work behind it settled after ${(await settle()).seconds.toFixed(1)} s`);
    if (tests.has('singles')) {
      log('OsmAnd singles');
      await statementsReset(nodes);
      const a = await snapshot(nodes);
      const o = await runLoad({ mode: 'osmand', seconds, ports: osmandPorts, connections: CONNECTIONS, devices, t0, sticky: STICKY });
      const settled = await settle(); // their cost too
      log(`OsmAnd singles: the work behind them settled after ${settled.seconds.toFixed(1)} s`);
      const b = settled.end;
      const storedO = await count(`select count(*) as n from positions where protocol = 'osmand' and fix_time >= to_timestamp($1)`, [t0]);
      await statementsTop(nodes, 'OsmAnd singles', storedO);
      side.ingest.push({
        test: `OsmAnd GET, 1 position a request, ${CONNECTIONS} connections over both instances, ${devices.length} devices${STICKY ? ', each to one instance' : ''}`,
        r: o,
        stored: storedO,
        cpu: spent(a, b, apis, nodes),
        loadAvg: load(),
      });
    }

    // Ingest: the same single positions at a rate both databases keep up with. At full speed the
    // faster database shares each second's rounds of the followers (pauses of 0.1-5 s) among more
    // positions, so its CPU a position is lower for throughput, not for cheaper work (decision 0214).
    if (tests.has('paced')) {
      log(`OsmAnd singles at ${PACED_RATE} a second`);
      const tp = t0 + 3600;
      await statementsReset(nodes);
      const a = await snapshot(nodes);
      const o = await runLoad({ mode: 'osmand', seconds, ports: osmandPorts, connections: CONNECTIONS, devices, t0: tp, ratePerS: PACED_RATE, sticky: STICKY });
      const settled = await settle();
      log(`OsmAnd singles at ${PACED_RATE} a second: the work behind them settled after ${settled.seconds.toFixed(1)} s`);
      const b = settled.end;
      const stored = await count(`select count(*) as n from positions where protocol = 'osmand' and fix_time >= to_timestamp($1)`, [tp]);
      await statementsTop(nodes, `OsmAnd singles at ${PACED_RATE} a second`, stored);
      side.ingest.push({
        test: `OsmAnd GET at ${PACED_RATE} requests a second (the same on both), ${CONNECTIONS} connections over both instances, ${devices.length} devices${STICKY ? ', each to one instance' : ''}`,
        r: o,
        stored,
        cpu: spent(a, b, apis, nodes),
        loadAvg: load(),
      });
    }

    // Ingest: JSON batches, one client per organization.
    if (tests.has('batches')) {
      log('JSON batches');
      const batchBase = Date.now() - 7 * 86_400_000;
      const a = await snapshot(nodes);
      const bt = await runLoad({
        mode: 'batch',
        seconds,
        size: 1000,
        baseMs: batchBase,
        clients: fleet.orgs.map((x) => ({ port: apis[x.index % 2]!.port, token: x.batchToken })),
      });
      const settled = await settle();
      log(`JSON batches: the work behind them settled after ${settled.seconds.toFixed(1)} s`);
      const b = settled.end;
      const storedB = await count(`select count(*) as n from positions where protocol = 'batch' and fix_time >= $1`, [new Date(batchBase)]);
      side.ingest.push({
        test: `JSON batch, 1,000 positions a request, ${fleet.orgs.length} clients (one per organization)`,
        r: bt,
        stored: storedB,
        cpu: spent(a, b, apis, nodes),
        loadAvg: load(),
      });
    }

    // Reads, each spread over the organizations and both instances.
    const day = new Date(HISTORY_DAY).toISOString();
    const dayEnd = new Date(HISTORY_DAY + 86_400_000).toISOString();
    const reads: Array<{ read: string; paths: (o: Org) => string[] }> = [
      { read: 'live map (every vehicle of the organization)', paths: () => [`/assets/live`] },
      { read: 'history day (86,400 fixes at 1 Hz, zoom 10)', paths: (x) => [`/history-routes/assets/${x.historyAsset}?from=${day}&to=${dayEnd}&zoom=10`] },
      {
        read: 'registry list (vehicles, page of 15, 4 pages and a search)',
        paths: (x) =>
          [0, 3, 7, 12]
            .map((p) => `/assets?type=VEHICLE&sort=unitNumber,asc&size=15&page=${p}`)
            .concat(`/assets?type=VEHICLE&search=c3-${x.index}-01&sort=unitNumber,asc&size=15`),
      },
      {
        read: `HoS availability (size 100, ${HOS_DRIVERS + VEHICLES + 1} drivers, by name and by drive time)`,
        paths: () => ['/availability?size=100&page=0', '/availability?size=100&page=1&sort=availableDriveMs,asc'],
      },
      { read: `IFTA quarter (2026Q2, ${IFTA_VEHICLES} vehicles)`, paths: () => ['/ifta/report?quarter=2026Q2&fuelType=DIESEL'] },
    ];
    for (const rd of tests.has('reads') ? reads : []) {
      log(rd.read);
      const requests = fleet.orgs.flatMap((x) =>
        rd
          .paths(x)
          .flatMap((p, j) =>
            [0, 1].map((k) => ({ port: apis[(x.index + j + k) % 2]!.port, path: `/api/v1/organizations/${x.id}${p}`, auth: tokens.get(x.id)! })),
          ),
      );
      await runLoad({ mode: 'get', seconds: 1, connections: 4, requests });
      const a = await snapshot(nodes);
      const r = await runLoad({ mode: 'get', seconds: readSeconds, connections: 4, requests });
      const b = await snapshot(nodes);
      side.reads.push({ read: rd.read, r, cpu: spent(a, b, apis, nodes) });
    }
    await new Promise((r) => setTimeout(r, 500)); // the instances' logs are written asynchronously
    side.warnings = warnings(apis, outputFrom);

    if (target.coordinatorUrl && process.env.BENCH_MOVE !== '0') {
      log('shard move under ingest');
      try {
        // The API's ingest must work for the move to be measured through it; when it acknowledged
        // nothing (refused on the cluster), the move runs under positions written straight through the coordinator.
        const writer = (side.ingest[0]?.r.acknowledged ?? 1) > 0 ? 'api' : 'sql';
        side.move = await moveUnderIngest({ coordinatorUrl: target.coordinatorUrl, orgs: fleet.orgs, osmandPorts, t0: t0 + 3600, nodes, log, writer });
      } catch (err) {
        side.move = [`\nShard move under ingest FAILED: ${err instanceof Error ? err.message : String(err)}`];
      }
    }
    return side;
  } catch (err) {
    await new Promise((r) => setTimeout(r, 500));
    console.error(
      `API warnings and errors so far:\n  ${warnings(
        apis,
        apis.map(() => 0),
      ).join('\n  ')}`,
    );
    throw err;
  } finally {
    for (const x of apis) await x.stop();
    for (const c of caps) c.release();
  }
}

// ---- report -------------------------------------------------------------------------------------

const f1 = (x: number) => x.toFixed(1);
function cpuCells(c: CpuSpent): string {
  return `${c.apis.map(f1).join(' + ')} | ${c.nodes.map((n) => `${f1(n.all)} (own ${f1(n.own)})`).join(' / ')}`;
}
function report(sides: Side[]): void {
  console.log(`\n## Results (${new Date().toISOString()}, ${os.cpus().length} cores, load average at the end ${load()})`);
  for (const s of sides) {
    console.log(
      `\n### ${s.target.label}: database ${s.target.setupS.toFixed(1)} s, seed ${s.seedS.toFixed(1)} s, two API instances ready in ${s.apiStartS.toFixed(1)} s`,
    );
    console.log(`nodes: ${s.target.nodes.map((n) => `${n.name} (postmaster ${n.postmaster})`).join(', ')}`);
    for (const n of s.target.notes) console.log(n);
    console.log(
      '\n| ingest | positions/s | p50 ms | p99 ms | max ms | acknowledged | stored | failed | load gen CPU s | API 1 + API 2 CPU s | node CPU s: ' +
        s.target.nodes.map((n) => n.name).join(' / ') +
        ' | µs CPU a position (APIs + nodes) | load avg |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const x of s.ingest) {
      const api = x.cpu.apis.reduce((p, c) => p + c, 0);
      const node = x.cpu.nodes.reduce((p, c) => p + c.all, 0);
      const n = Math.max(1, x.stored);
      console.log(
        `| ${x.test} | ${(x.r.acknowledged / x.r.s).toFixed(0)} | ${x.r.p50} | ${x.r.p99} | ${x.r.max} | ${x.r.acknowledged} | ${x.stored}${x.stored >= x.r.acknowledged ? '' : ' MISSING'} | ${x.r.failed} | ${f1(x.r.cpuS)} | ${cpuCells(x.cpu)} | ${((api * 1e6) / n).toFixed(0)} + ${((node * 1e6) / n).toFixed(0)} | ${x.loadAvg} |`,
      );
      if (x.r.firstError) console.log(`|  first error: ${x.r.firstError.replace(/\|/g, '/').slice(0, 300)} |`);
    }
    console.log(
      '\n| read | requests/s | p50 ms | p99 ms | max ms | errors | load gen CPU s | API 1 + API 2 CPU s | node CPU s: ' +
        s.target.nodes.map((n) => n.name).join(' / ') +
        ' | ms CPU a request (APIs + nodes) |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const x of s.reads) {
      const api = x.cpu.apis.reduce((p, c) => p + c, 0);
      const node = x.cpu.nodes.reduce((p, c) => p + c.all, 0);
      const n = Math.max(1, x.r.ok);
      console.log(
        `| ${x.read} | ${(x.r.ok / x.r.s).toFixed(1)} | ${x.r.p50} | ${x.r.p99} | ${x.r.max} | ${x.r.failed} | ${f1(x.r.cpuS)} | ${cpuCells(x.cpu)} | ${((api * 1e3) / n).toFixed(2)} + ${((node * 1e3) / n).toFixed(2)} |`,
      );
      if (x.r.firstError && x.r.failed) console.log(`|  first error: ${x.r.firstError.replace(/\|/g, '/').slice(0, 400)} |`);
    }
    if (s.signInError) console.log(`\nSign-in FAILED on this database (reads ran with tokens signed from the database's JWT secret): ${s.signInError}`);
    console.log(`\nAPI warnings and errors during the measurements (${s.warnings.length} kinds):`);
    for (const w of s.warnings.slice(0, 15)) console.log(`  ${w}`);
    for (const m of s.move) console.log(m);
  }
}

const sides: Side[] = [];
const targets: Array<() => Promise<Target>> = [];
if (only !== 'citus') targets.push(plainPostgres);
if (only !== 'pg') {
  if (!citusUrl) console.log('CITUS_URL unset: the cluster is not measured');
  else targets.push(() => citusDatabase(citusUrl));
}
log(`bench/citus.ts: ${seconds} s per ingest test, ${readSeconds} s per read, ${ORGS} organizations × ${VEHICLES} vehicles, API entry ${entry}`);
try {
  for (const make of targets) {
    const target = await make();
    try {
      sides.push(await measure(target));
    } catch (err) {
      console.error(`${target.label}: ${err instanceof Error ? err.stack : String(err)}`);
    } finally {
      await target.cleanup();
    }
  }
} finally {
  report(sides);
  log('done');
}
