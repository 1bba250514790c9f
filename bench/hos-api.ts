// Hours of service at fleet scale (issue 15): 2,000 active drivers holding 14 days of duty-status
// events each (bench/hos-data.ts, ~10 events a day, written in bulk with SQL), then over HTTP:
//   availability?size=100 (every driver's clocks for each page: the clocks are the sort keys)  p99 < 150 ms
//   violations?from=<7 days ago>&to=<now>&size=100                                            p99 < 200 ms
//     (a fixed window: past once the run starts, so kept in memory; and without from/to: the 7 days
//     to each request's now, computed every time, concurrent requests sharing one run)
//   hos_log/{id} (one log day of a random driver and day)                                     p99 < 30 ms
//   hos_log?date=…&size=50 (the daily list; reported, no target)
// Run: node --import tsx bench/hos-api.ts [seconds per scenario] [connections]   (default 10 s, 4)
//   BENCH_PG=postgres://postgres@127.0.0.1:5433/postgres  runs on that PostgreSQL server, in a
//     database of its own the bench creates and drops; unset = embedded PGlite in a temporary DATA_DIR
//   BENCH_PORT / BENCH_OSMAND_PORT choose the server's ports (checked free); BENCH_DRIVERS=n another fleet size
//   BENCH_ENTRY=source runs the server through tsx instead of `npm run build`'s apps/api/dist/main.js
//   BENCH_SCENARIOS=availability,hos_log/ runs only the scenarios whose name starts with one of these
//   PGLITE_THREAD=main runs the embedded database on the API's thread instead of its worker thread
//   BENCH_PROFILE=dir starts the server with --cpu-prof (profiles written to dir when it stops)
// The data are written before the server starts (PGlite has one process at a time), through the
// API's own openDatabase (migrations) and seed (the demo organization and its admin). Three inactive
// copies of drivers with violations then get the same periods through the import endpoint, and their
// violations and log days are compared with the bulk-written drivers' (the SQL writes what the
// endpoint writes). The load generator is autocannon in this process (no wrk on this machine);
// CPU per request is printed for the API process, the PostgreSQL backends and autocannon.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { rowsOf } from '../apps/api/src/db/sql/rows.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { benchEntry, requestedPort, startBenchServer } from './bench-server.ts';
import { auditLog } from '../packages/hos/src/index.ts';
import { benchDriver, benchPeriods, BENCH_DAYS, seedHosFleet } from './hos-data.ts';
import { pgCpuMeter } from './pg-cpu.ts';
import { cpuSeconds, threadCpuSeconds } from './process-meter.ts';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 4);
const DRIVERS = Number(process.env.BENCH_DRIVERS ?? 2000);
const DAY = 86_400_000;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

const entry = benchEntry('compiled');
const port = await requestedPort(process.env.BENCH_PORT, 'BENCH_PORT');
const osmandPort = await requestedPort(process.env.BENCH_OSMAND_PORT, 'BENCH_OSMAND_PORT');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-hos-'));

// PostgreSQL: a fresh database of our own on the given server, dropped at the end.
const pgServer = process.env.BENCH_PG;
let databaseUrl: string | undefined;
const dbName = `fleet_hos_bench_${process.pid}`;
const admin = async (statement: string) => {
  const c = new pg.Client({ connectionString: pgServer });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
};
if (pgServer) {
  await admin(`create database ${dbName}`);
  const u = new URL(pgServer);
  u.pathname = `/${dbName}`;
  databaseUrl = u.toString();
}
const kind = databaseUrl ? 'PostgreSQL' : 'PGlite (embedded)';

// 1. The data, written before the server starts.
const endMs = Math.floor(Date.now() / 60_000) * 60_000;
// The sample for the import endpoint: the first three drivers whose 14 days break a rule (by the
// engine on the generated periods), so the comparison covers violations as well as clean days.
const sample: number[] = [];
for (let i = 0; sample.length < 3 && i < DRIVERS; i++) {
  const d = benchDriver(i);
  const opts = { ruleset: d.ruleset, timeZone: d.homeTimeZone, cycleDayStart: '00:00', exemptions: { shortHaul150: d.shortHaul150, sixteenHour: false } };
  if (auditLog(benchPeriods(i, endMs), opts).violations.length > 0) sample.push(i);
}
const seedStarted = performance.now();
const database = await openDatabase(databaseUrl ? { databaseUrl, dataDir, poolSize: 2 } : { dataDir });
await seed(database.db, { ...testConfig({ dataDir, logLevel: 'silent' }), demo: true }, () => undefined);
const [org] = rowsOf<{ id: string }>(await database.db.execute(sql`select id from organizations where name = 'Demo Freight'`));
const orgId = org!.id;
const fleet = await seedHosFleet(database.db, orgId, DRIVERS, endMs, sample);
const logIds = rowsOf<{ id: string }>(
  await database.db.execute(sql`select id from hos_logs where organization_id = ${orgId}::uuid order by md5(id::text) limit 2000`),
).map((r) => r.id);
// The log days of the drivers the sample copies, to compare with the copies' imported days.
const originalLogs = new Map(
  rowsOf<{ id: string; driver_id: string; log_date: string }>(
    await database.db.execute(
      sql`select id, driver_id, log_date::text from hos_logs where driver_id in (${sql.join(
        fleet.copies.map((c) => sql`${c.of}::uuid`),
        sql`, `,
      )})`,
    ),
  ).map((r) => [`${r.driver_id}|${r.log_date}`, r.id]),
);
const sizes = rowsOf<{ active: number; events: number }>(
  await database.db.execute(
    sql`select (select count(*)::int from drivers where organization_id = ${orgId}::uuid and status = 'ACTIVE') as active, (select count(*)::int from hos_events where organization_id = ${orgId}::uuid) as events`,
  ),
)[0]!;
await database.close();
const seedS = (performance.now() - seedStarted) / 1000;

const profileDir = process.env.BENCH_PROFILE;
const api = await startBenchServer({
  entry,
  env: {
    DEMO: '1',
    SIMULATOR: '0',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    ...(port ? { PORT: String(port) } : {}),
    ...(osmandPort ? { OSMAND_PORT: String(osmandPort) } : {}),
  },
  nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  readyTimeoutMs: 180_000,
});
const cpu = () => cpuSeconds(api.pid);
try {
  const login = await fetch(`${api.url}/api/v1/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demofreight.test', password: 'DemoAdmin#2026' }),
  });
  const session = (await login.json()) as { accessToken: string };
  const auth = { authorization: `Bearer ${session.accessToken}` };
  const base = `/api/v1/organizations/${orgId}`;
  const get = async <T>(p: string): Promise<T> => {
    const res = await fetch(`${api.url}${p}`, { headers: auth });
    const body = (await res.json()) as T;
    if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };

  // 2. The sample: the same periods through the import endpoint read the same as the bulk-written ones.
  type Violation = { driver: unknown; logId: string; [k: string]: unknown };
  type LogDay = { id: string; header: { date: string }; segments: unknown; totals: unknown; violations: unknown };
  const same: string[] = [];
  const strip = (v: Violation) => ({ ...v, driver: null, logId: null });
  for (const c of fleet.copies) {
    const periods = benchPeriods(c.index, endMs).map((p) => ({ status: p.status, start: p.start, end: p.end, ...(p.special ? { special: p.special } : {}) }));
    const res = await fetch(`${api.url}${base}/drivers/${c.id}/hos_log/import`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'hos bench', periods }),
    });
    const imported = (await res.json()) as { events: number; logs: Array<{ id: string; date: string }> };
    if (res.status !== 201) throw new Error(`import: ${res.status} ${JSON.stringify(imported)}`);
    const range = `from=${new Date(endMs - BENCH_DAYS * DAY).toISOString()}&to=${new Date(endMs).toISOString()}&size=500`;
    const [a, b] = await Promise.all([
      get<{ content: Violation[] }>(`${base}/violations?driverId=${c.of}&${range}`),
      get<{ content: Violation[] }>(`${base}/violations?driverId=${c.id}&${range}`),
    ]);
    if (!isDeepStrictEqual(a.content.map(strip), b.content.map(strip)))
      throw new Error(`driver ${c.index}: violations of the imported copy differ from the bulk-written driver`);
    // Past days (today's last period runs until the request's own "now").
    let days = 0;
    for (const l of imported.logs.slice(0, -1)) {
      const mine = await get<LogDay>(`${base}/hos_log/${l.id}`);
      const origId = originalLogs.get(`${c.of}|${l.date}`);
      if (!origId) continue;
      const orig = await get<LogDay>(`${base}/hos_log/${origId}`);
      const pick = (d: LogDay) => ({ segments: d.segments, totals: d.totals, violations: d.violations });
      if (!isDeepStrictEqual(pick(mine), pick(orig))) throw new Error(`driver ${c.index} ${l.date}: log day of the imported copy differs`);
      days++;
    }
    same.push(`driver ${c.index}: ${imported.events} events, ${a.content.length} violations, ${days} log days identical`);
  }

  // 3. The scenarios.
  const nowIso = new Date().toISOString();
  const weekAgo = new Date(Date.now() - 7 * DAY).toISOString();
  const violationsTotal = (await get<{ totalElements: number }>(`${base}/violations?from=${weekAgo}&to=${nowIso}&size=1`)).totalElements;
  const dates = Array.from({ length: BENCH_DAYS }, (_, k) => new Date(endMs - k * DAY).toISOString().slice(0, 10));
  const pages = (n: number, size: number) => Array.from({ length: Math.max(1, Math.ceil(n / size)) }, (_, k) => k);
  const scenarios = [
    {
      name: 'availability?size=100 (pages, by name and by drive time left)',
      target: 150,
      paths: pages(sizes.active, 100).flatMap((k) => [
        `${base}/availability?size=100&page=${k}`,
        `${base}/availability?size=100&page=${k}&sort=availableDriveMs,asc`,
      ]),
    },
    {
      name: 'violations?from=7 days ago&to=now&size=100 (pages)',
      target: 200,
      paths: pages(violationsTotal, 100).map((k) => `${base}/violations?from=${weekAgo}&to=${nowIso}&size=100&page=${k}`),
    },
    // No range: the 7 days up to the moment of each request, so no answer can be kept between requests.
    {
      name: "violations?size=100 (pages of the 7 days to each request's now)",
      target: 200,
      paths: pages(violationsTotal, 100).map((k) => `${base}/violations?size=100&page=${k}`),
    },
    { name: 'hos_log/{id} (2,000 random driver days)', target: 30, paths: logIds.map((id) => `${base}/hos_log/${id}`) },
    {
      name: 'hos_log?date=…&size=50 (14 days, first 4 pages)',
      target: null,
      paths: dates.flatMap((d) => [0, 1, 2, 3].map((k) => `${base}/hos_log?date=${d}&size=50&page=${k}`)),
    },
  ];
  const only = process.env.BENCH_SCENARIOS?.split(',').filter(Boolean);
  const chosen = only ? scenarios.filter((s) => only.some((o) => s.name.startsWith(o))) : scenarios;
  const pgMeter = await pgCpuMeter(databaseUrl);
  const results: Array<
    (typeof scenarios)[number] & { alone: number[]; r: autocannon.Result | null; apiMs: number; mainMs: number; pgMs: number; loadMs: number }
  > = [];
  // The server finishes what it has queued (PGlite answers one query at a time) before the next figure.
  const drain = async () => {
    for (let calm = 0; calm < 2;) {
      const t = performance.now();
      await fetch(`${api.url}/readyz`);
      calm = performance.now() - t < 50 ? calm + 1 : 0;
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  for (const s of chosen) {
    await drain();
    // Alone: three requests one after the other (the first fills what the server keeps in memory).
    const alone: number[] = [];
    for (let k = 0; k < 3; k++) {
      const t = performance.now();
      await get(s.paths[(k * 7) % s.paths.length]!);
      alone.push(performance.now() - t);
    }
    // Far slower than a second alone: under load every request would queue past autocannon's timeout.
    if (Math.min(...alone) > 2000) {
      results.push({ ...s, alone, r: null, apiMs: Number.NaN, mainMs: Number.NaN, pgMs: Number.NaN, loadMs: Number.NaN });
      continue;
    }
    let i = 0;
    const run = (duration: number) =>
      autocannon({
        url: api.url,
        connections,
        duration,
        timeout: 30,
        headers: auth,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: s.paths[i++ % s.paths.length] as string }) }],
      });
    await run(2); // warm-up: the JIT settles, pooled connections prepare their statements
    await drain();
    await pgMeter?.lap();
    const cpu0 = cpu();
    const main0 = threadCpuSeconds(api.pid).main;
    const self0 = process.cpuUsage();
    const r = await run(seconds);
    const n = Math.max(1, r.requests.total);
    const self = process.cpuUsage(self0);
    const pgS = pgMeter ? await pgMeter.lap() : Number.NaN;
    results.push({
      ...s,
      alone,
      r,
      apiMs: ((cpu() - cpu0) * 1000) / n,
      mainMs: ((threadCpuSeconds(api.pid).main - main0) * 1000) / n,
      pgMs: (pgS * 1000) / n,
      loadMs: (self.user + self.system) / 1000 / n,
    });
  }
  await pgMeter?.close();

  console.log(
    `\n${kind}: ${sizes.active.toLocaleString('en-US')} active drivers (${DRIVERS.toLocaleString('en-US')} with ${BENCH_DAYS} days of records, the demo's 25 without), ${sizes.events.toLocaleString('en-US')} events, ${fleet.logDays.toLocaleString('en-US')} log days; written in ${seedS.toFixed(1)} s`,
  );
  console.log(`import endpoint sample: ${same.join('; ')}`);
  console.log(
    `${violationsTotal} violations in the last 7 days; ${seconds} s per scenario after 2 s of warm-up, ${connections} connections, autocannon, server ${entry}`,
  );
  console.log(
    `CPU ms per request: API process (PGlite runs inside it${databaseUrl ? '' : process.env.PGLITE_THREAD === 'main' ? ", on the API's thread" : ', in its worker thread'}) and its main thread, PostgreSQL backends of this database, autocannon`,
  );
  console.log(
    `| request | alone ms (3 in a row) | req/s | p50 ms | p99 ms | max ms | errors | API CPU | of which main thread | PostgreSQL CPU | autocannon CPU | target |\n|---|---|---|---|---|---|---|---|---|---|---|---|`,
  );
  const f = (v: number, d = 1) => (Number.isNaN(v) ? 'n/a' : v.toFixed(d));
  for (const x of results) {
    const alone = x.alone.map((ms) => ms.toFixed(0)).join(', ');
    if (!x.r) {
      console.log(
        `| ${x.name} | ${alone} | not loaded: over 2 s alone |  |  |  |  |  |  |  |  |  | ${x.target === null ? 'report' : `p99 < ${x.target} ms MISS`} |`,
      );
      continue;
    }
    const errors = x.r.non2xx + x.r.errors + x.r.timeouts;
    const ok = x.target === null ? 'report' : `p99 < ${x.target} ms ${verdict(x.r.requests.total > 0 && x.r.latency.p99 < x.target && errors === 0)}`;
    console.log(
      `| ${x.name} | ${alone} | ${x.r.requests.average.toFixed(1)} | ${x.r.latency.p50} | ${x.r.latency.p99} | ${x.r.latency.max} | ${errors} | ${f(x.apiMs)} | ${f(x.mainMs)} | ${f(x.pgMs)} | ${f(x.loadMs, 2)} | ${ok} |`,
    );
  }
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (${os.cpus().length} cores)`,
  );
} finally {
  await api.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (pgServer) await admin(`drop database if exists ${dbName} with (force)`);
}
