// Ingest near the floor (issue 74): the CPU a position costs the whole server against a bare HTTP
// server that parses the same request, checks its numbers and answers 200.
//   node --import tsx bench/ingest-floor.ts [seconds=8]
//   (npm run build first: the server runs the compiled entry. DATABASE_URL=postgres://… runs the
//   server on a new database of that PostgreSQL server instead of PGlite and counts its backends;
//   the server runs as production does, NODE_ENV=production;
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=<dir>' profiles the API process; BENCH_SETTLE_QUIET_S
//   (default 6) and BENCH_QUIET_CORE (default 0.05) say when the work behind ingest has settled;
//   BENCH_WARM_S (default 0: none) is an uncounted round of the same load before each count)
// In one run, on ports the kernel picks:
// - the real server in its own process (compiled entry, every follower on) on a new data directory
//   with the demo organization and 20 devices; the floor (this file with --floor) in another;
// - the same load generator (wrk, 20 connections) sends each the same requests: OsmAnd fixes, one a
//   request (each device driving west at 92 km/h, a fix a second), then JSON batches of 100;
// - with BENCH_WARM_S, before each count the same load for that many seconds, not counted (its
//   figures printed apart): the first seconds after a start compile the hot JavaScript and tier up
//   the embedded database's WebAssembly on V8's helper threads, a cost paid once, not per position
//   (measured: a warm round of 8, 20 or 30 s left the count where it was, docs/benchmarks/ingest.md);
// - the server's CPU (API process with its database thread; PostgreSQL's backends) is counted from
//   the load's start until the work behind ingest has settled: BENCH_SETTLE_QUIET_S seconds in a
//   row in which the server spends under BENCH_QUIET_CORE of a core, counted up to where that quiet
//   stretch began (as bench/citus.ts does, decision 0221: longer than IFTA miles' 5 s round);
// - then the server is stopped and every acknowledged fix must be stored exactly once.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { rowsOf } from '../apps/api/src/db/sql/rows.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { createTestVehicle } from '../apps/api/src/test/vehicles.ts';
import { benchEntry, boundPort, productionEnv, startBenchServer } from './bench-server.ts';
import { pgCpuMeter } from './pg-cpu.ts';
import { cpuSeconds, threadCpuSeconds } from './process-meter.ts';
import { WRK, wrkInstalled } from './wrk.ts';

// ---------------------------------------------------------------------------------------------
// The floor: node:http, the query or the JSON body parsed, its numbers checked, 200.

/** Whether an OsmAnd query carries a device and a plausible fix (the floor's whole check). */
export function floorOsmandOk(query: string): boolean {
  const q = new URLSearchParams(query);
  const id = q.get('id') ?? q.get('deviceid');
  const lat = Number(q.get('lat'));
  const lon = Number(q.get('lon'));
  const ts = Number(q.get('timestamp'));
  const speed = Number(q.get('speed') ?? 0);
  return !!id && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && Number.isFinite(ts) && ts > 0 && speed >= 0 && speed < 1000;
}

/** The number of positions in a JSON batch whose numbers are plausible; -1 when the body is not a batch. */
export function floorBatchOk(text: string): number {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return -1;
  }
  const positions = (body as { positions?: unknown }).positions;
  if (!Array.isArray(positions)) return -1;
  let n = 0;
  for (const p of positions as Array<Record<string, unknown>>) {
    const lat = p.latitude;
    const lon = p.longitude;
    if (typeof lat === 'number' && typeof lon === 'number' && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !Number.isNaN(Date.parse(String(p.fixTime)))) n++;
  }
  return n;
}

function floorMain(): void {
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    const url = req.url ?? '';
    if (req.method === 'GET') {
      const q = url.indexOf('?');
      const ok = floorOsmandOk(q >= 0 ? url.slice(q + 1) : '');
      res.writeHead(ok ? 200 : 400, { 'content-length': '0' });
      res.end();
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = floorBatchOk(Buffer.concat(chunks).toString('utf8'));
      const text = n < 0 ? '{"error":"bad batch"}' : `{"accepted":${n},"refused":[]}`;
      res.writeHead(n < 0 ? 400 : 200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${boundPort(server)}\n`));
}

if (process.argv[2] === '--floor') floorMain();
else await benchMain();

// ---------------------------------------------------------------------------------------------
// The bench.

async function benchMain(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..');
  const seconds = Number(process.argv[2] ?? 8);
  const DEVICES = 20;
  const CONNECTIONS = 20;
  const BATCH = 100;
  const QUIET_S = Number(process.env.BENCH_SETTLE_QUIET_S ?? 6);
  const QUIET_CORE = Number(process.env.BENCH_QUIET_CORE ?? 0.05);
  const WARM_S = Number(process.env.BENCH_WARM_S ?? 0);
  if (!wrkInstalled()) {
    console.error(`${WRK} is missing: apt-get install wrk`);
    process.exit(1);
  }
  const entry = benchEntry('compiled');
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-ingest-floor-'));

  // PostgreSQL: a new database on DATABASE_URL's server, dropped at the end.
  const pgServer = process.env.DATABASE_URL || undefined;
  const dbName = `fleet_ingest_floor_${process.pid}`;
  const admin = async (statement: string) => {
    const c = new pg.Client({ connectionString: pgServer });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  let databaseUrl: string | undefined;
  if (pgServer) {
    await admin(`create database ${dbName}`);
    const u = new URL(pgServer);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const kind = databaseUrl ? 'PostgreSQL' : 'embedded PGlite';
  const open = () => openDatabase(databaseUrl ? { databaseUrl, dataDir, poolSize: 2 } : { dataDir });
  console.log(`\nIngest floor benchmark on ${kind}: ${DEVICES} devices, ${CONNECTIONS} connections, ${seconds} s a load; load average ${load()}`);

  // The demo organization and its devices, registered before the server starts.
  const ids = Array.from({ length: DEVICES }, (_, i) => `floor-${String(i).padStart(2, '0')}`);
  const tokens: string[] = [];
  {
    const database = await open();
    await seed(database.db, { ...testConfig({ dataDir, logLevel: 'silent' }), demo: true }, () => undefined);
    const [org] = rowsOf<{ id: string }>(await database.db.execute(`select id from organizations where name = 'Demo Freight'` as never));
    for (const [i, uniqueId] of ids.entries()) tokens.push((await createTestVehicle(database.db, org!.id, { uniqueId, unitNumber: `F${i}` })).token);
    await database.close();
  }

  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const api = await startBenchServer({
    entry,
    env: { ...productionEnv(), DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', DEMO: '0', SIMULATOR: '0', LOG_LEVEL: 'warn' },
    nodeArgs,
    readyTimeoutMs: 180_000,
  });
  const floor = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/ingest-floor.ts'), '--floor'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const floorPort = await new Promise<number>((resolve, reject) => {
    readline.createInterface({ input: floor.stdout }).once('line', (l) => resolve(Number(l)));
    floor.once('exit', (c) => reject(new Error(`the floor exited ${c}`)));
  });
  const pgMeter = await pgCpuMeter(databaseUrl);

  /** CPU seconds of the server so far: the API process (its threads apart) and PostgreSQL's backends since the last lap. */
  const serverCpu = async () => {
    const t = threadCpuSeconds(api.pid);
    return { main: t.main, others: t.others, pg: (await pgMeter?.lap()) ?? 0 };
  };
  type Snap = { at: number; main: number; others: number; pg: number };
  let pgSum = 0;
  const snap = async (): Promise<Snap> => {
    const c = await serverCpu();
    pgSum += c.pg;
    return { at: performance.now(), main: c.main, others: c.others, pg: pgSum };
  };
  /** Waits until the work behind ingest has settled; the snapshot where the quiet stretch began. */
  const settle = async (): Promise<{ end: Snap; seconds: number }> => {
    const started = performance.now();
    let x = await snap();
    let quietFrom: Snap | null = null;
    let quiet = 0;
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      const y = await snap();
      const spent = y.main - x.main + (y.others - x.others) + (y.pg - x.pg);
      if (spent < QUIET_CORE * ((y.at - x.at) / 1000)) {
        quietFrom ??= x;
        quiet++;
      } else {
        quietFrom = null;
        quiet = 0;
      }
      x = y;
      if (quiet >= QUIET_S || performance.now() - started > 120_000) {
        const end = quietFrom ?? y;
        return { end, seconds: (end.at - started) / 1000 };
      }
    }
  };

  // Warm-up before each load: every device sends a fix a minute before the load's first (a truck
  // already on the road), and the work it causes settles before the count. Each warm-up comes just
  // before its own load, and every round's fixes are newer than the last round's for every device:
  // sent out of that order, each fix would be older than its vehicle's newest, a back-fill the
  // followers replay from the database round after round (what the first profile measured, not
  // ingest). A device sends at most about 1,000 OsmAnd fixes (1 s apart) or 1,500 batched fixes a
  // second of load. The order: OsmAnd warm round, OsmAnd count, batch warm round, batch count.
  const t0 = Math.floor(Date.now() / 1000) - 86_400;
  const tw = t0 - 120 - WARM_S * 1_000;
  const tbw = t0 + seconds * 1_000 + 3_600;
  const tb = tbw + WARM_S * 1_500 + 120;
  if (tb + seconds * 1_500 > t0 + 86_400) throw new Error('the loads are too long for one day of fixes: fewer seconds');
  const fix = (dev: number, ts: number) =>
    `/?id=${ids[dev]}&timestamp=${ts}&lat=${(35 + dev * 0.01).toFixed(5)}&lon=-97.00000&speed=50&bearing=270&ignition=true`;
  // Once more on a socket error: a kept-alive connection from before a long load may be closed by the
  // server just as it is reused (the fix is stored once either way).
  const send = (url: string, init?: RequestInit) => fetch(url, init).catch(() => fetch(url, init));
  const warmUp = async (mode: 'osmand' | 'batch', base: number) => {
    if (mode === 'osmand') await Promise.all(ids.map((_, d) => send(`http://127.0.0.1:${api.osmandPort}${fix(d, base - 60)}`).then((r) => r.arrayBuffer())));
    else
      await Promise.all(
        tokens.map((token, d) =>
          send(`${api.url}/api/v1/ingest/positions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({
              positions: [
                { fixTime: new Date((base - 60) * 1000).toISOString(), latitude: 35 + d * 0.01, longitude: -97.5, speed: 50, course: 270, ignition: true },
              ],
            }),
          }).then((r) => r.arrayBuffer()),
        ),
      );
    console.log(`${mode} warm-up settled after ${(await settle()).seconds.toFixed(1)} s`);
  };

  // The load: wrk, its requests built by a Lua script from a running number (every request a new fix).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-ingest-floor-wrk-'));
  // One connection a device (wrk's -t and -c equal: a thread, its own Lua state, a connection each),
  // as a device sends its next fix once the last is answered: each device's fixes arrive in order.
  const lua = (mode: 'osmand' | 'batch') => `
local counter = 0
function setup(thread)
  thread:set("dev", counter)
  counter = counter + 1
end
local ids = {}
for id in string.gmatch(os.getenv("FLOOR_IDS"), "[^,]+") do ids[#ids + 1] = id end
local tokens = {}
for t in string.gmatch(os.getenv("FLOOR_TOKENS"), "[^,]+") do tokens[#tokens + 1] = t end
local t0 = tonumber(os.getenv("FLOOR_T0"))
local k = 0
local function pos(d, s)
  return 35 + d * 0.01, -97 - s * 0.0003
end
request = function()
  local d = dev % #ids
  local s0 = k
  k = k + 1
  ${
    mode === 'osmand'
      ? `local lat, lon = pos(d, s0)
  return wrk.format("GET", string.format("/?id=%s&timestamp=%d&lat=%.5f&lon=%.5f&speed=50&bearing=270&ignition=true", ids[d + 1], t0 + s0, lat, lon))`
      : `local items = {}
  for j = 0, ${BATCH - 1} do
    local s = s0 * ${BATCH} + j
    local lat, lon = pos(d, s)
    items[#items + 1] = string.format('{"fixTime":"%s","latitude":%.5f,"longitude":%.5f,"speed":50,"course":270,"ignition":true}', os.date("!%Y-%m-%dT%H:%M:%SZ", t0 + s), lat, lon)
  end
  return wrk.format("POST", "/api/v1/ingest/positions", { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. tokens[d + 1] }, '{"positions":[' .. table.concat(items, ",") .. ']}')`
  }
end
`;
  interface Run {
    requests: number;
    non2xx: number;
    wallS: number;
  }
  const runWrk = (origin: string, mode: 'osmand' | 'batch', base: number, duration = seconds): Run => {
    const script = path.join(dir, `${mode}.lua`);
    fs.writeFileSync(script, lua(mode));
    const env = { ...process.env, FLOOR_IDS: ids.join(','), FLOOR_TOKENS: tokens.join(','), FLOOR_T0: String(base) };
    const t = performance.now();
    const r = spawnSync(WRK, [`-t${CONNECTIONS}`, `-c${CONNECTIONS}`, `-d${duration}s`, '-s', script, origin], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`wrk failed: ${r.stderr}`);
    const out = r.stdout;
    return {
      requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
      non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors: .*?(\d+) timeout/.exec(out)?.[1] ?? 0),
      wallS: (performance.now() - t) / 1000,
    };
  };

  interface Row {
    test: string;
    positions: number;
    perSecond: number;
    main: number;
    others: number;
    pg: number;
    floor: number;
    floorPerSecond: number;
    settleS: number;
    load: string;
    non2xx: number;
  }
  const rows: Row[] = [];
  const measure = async (test: string, mode: 'osmand' | 'batch', origin: string, base: number, duration = seconds): Promise<Row> => {
    await warmUp(mode, base);
    const a = await snap();
    const r = runWrk(origin, mode, base, duration);
    const settled = await settle();
    const b = settled.end;
    const f0 = cpuSeconds(floor.pid!);
    const fr = runWrk(`http://127.0.0.1:${floorPort}`, mode, base, duration);
    const floorCpu = cpuSeconds(floor.pid!) - f0;
    const per = mode === 'batch' ? BATCH : 1;
    const positions = (r.requests - r.non2xx) * per;
    const row: Row = {
      test,
      positions,
      perSecond: positions / r.wallS,
      main: b.main - a.main,
      others: b.others - a.others,
      pg: b.pg - a.pg,
      floor: floorCpu / Math.max(1, (fr.requests - fr.non2xx) * per),
      floorPerSecond: ((fr.requests - fr.non2xx) * per) / fr.wallS,
      settleS: settled.seconds,
      load: load(),
      non2xx: r.non2xx + fr.non2xx,
    };
    rows.push(row);
    return row;
  };
  // With BENCH_WARM_S, each count after a warm round of the same load (its row printed apart, not
  // counted; the floor gets its warm round too).
  const warmRows: Row[] = [];
  const warm = async (test: string, mode: 'osmand' | 'batch', origin: string, base: number) => {
    if (WARM_S <= 0) return;
    warmRows.push(await measure(test, mode, origin, base, WARM_S));
    rows.pop();
  };
  await warm('OsmAnd GET, warm round', 'osmand', `http://127.0.0.1:${api.osmandPort}`, tw);
  const osmand = await measure('OsmAnd GET, 1 position a request', 'osmand', `http://127.0.0.1:${api.osmandPort}`, t0);
  await warm(`JSON batch, warm round`, 'batch', api.url, tbw);
  const batch = await measure(`JSON batch, ${BATCH} positions a request`, 'batch', api.url, tb);

  // The server stopped gracefully; every acknowledged fix must be stored, each once.
  const floorExit = new Promise((r) => floor.once('exit', r));
  floor.kill('SIGTERM');
  await floorExit;
  await pgMeter?.close();
  await api.stop('SIGTERM');
  const database = await open();
  const stored = async (protocol: string, from: number) =>
    rowsOf<{ n: number; distinct: number; commits: number }>(
      await database.db.execute(
        // A commit's rows share its server time, never the same twice in a process (group-committer.ts).
        `select count(*)::int as n, count(distinct (gateway_id, fix_time))::int as distinct, count(distinct server_time)::int as commits
         from positions where protocol = '${protocol}' and fix_time >= to_timestamp(${from})` as never,
      ),
    )[0]!;
  const so = await stored('osmand', t0);
  const sb = await stored('batch', tb);
  await database.close();

  const us = (s: number, n: number) => ((s * 1e6) / Math.max(1, n)).toFixed(0);
  console.log(`\nOn ${kind}, ${os.cpus().length} cores shared with the load generator and the floor (CPU counted, not wall time):`);
  console.log(
    '| test | positions/s (floor) | API µs/pos (main thread + other threads) | PostgreSQL µs/pos | server µs/pos | floor µs/pos | ratio | settled after | load average |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of [...rows, ...warmRows]) {
    const server = r.main + r.others + r.pg;
    console.log(
      `| ${r.test} | ${r.perSecond.toFixed(0)} (${r.floorPerSecond.toFixed(0)}) | ${us(r.main + r.others, r.positions)} (${us(r.main, r.positions)} + ${us(r.others, r.positions)}) | ${databaseUrl ? us(r.pg, r.positions) : '-'} | ${us(server, r.positions)} | ${(r.floor * 1e6).toFixed(1)} | ${(server / Math.max(1, r.positions) / Math.max(1e-9, r.floor)).toFixed(1)} | ${r.settleS.toFixed(1)} s | ${r.load} |`,
    );
  }
  if (warmRows.length) console.log(`(the warm rounds: ${WARM_S} s of the same load before each count, not counted; BENCH_WARM_S=0 counts from a cold start)`);
  const okO = so.n >= osmand.positions && so.n === so.distinct;
  const okB = sb.n >= batch.positions && sb.n === sb.distinct;
  console.log(
    `stored: OsmAnd ${so.n} of ${osmand.positions} acknowledged (${so.n - so.distinct} twice), batch ${sb.n} of ${batch.positions} acknowledged (${sb.n - sb.distinct} twice); non-2xx answers ${osmand.non2xx + batch.non2xx}; positions a commit: OsmAnd ${(so.n / Math.max(1, so.commits)).toFixed(1)}, batch ${(sb.n / Math.max(1, sb.commits)).toFixed(1)}`,
  );
  const targetO = (osmand.main + osmand.others + osmand.pg) / Math.max(1, osmand.positions) <= 250e-6;
  const targetB = (batch.main + batch.others + batch.pg) / Math.max(1, batch.positions) <= 60e-6;
  console.log(
    `${targetO ? 'PASS' : 'MISS'} OsmAnd at most 250 µs a position; ${targetB ? 'PASS' : 'MISS'} batches at most 60 µs a position; ${okO && okB ? 'PASS' : 'FAIL'} every acknowledged fix stored once`,
  );

  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (pgServer) await admin(`drop database if exists ${dbName}`);
  if (!(okO && okB)) process.exitCode = 1;
}
