// History latency (issue 7): a day of 1 Hz history (86,400 fixes) for one vehicle, target < 300 ms.
//   node --import tsx bench/history.ts [requests] [--alone]   (DATABASE_URL=… to run on PostgreSQL)
// --alone leaves out the other vehicles: the vehicle alone in its partition, as bench/telematics.ts has it.
// Builds the real app on a free port with one vehicle driving 10 h of a day at 1 Hz (the same day
// bench/telematics.ts writes) and 20 other vehicles that reported every 10 s the day before, in the
// same monthly partition (so the planner chooses among the indexes of a table with other vehicles'
// fixes, as it would in a fleet), then times `history-routes/assets/{id}` over HTTP: one warm-up, then
// `requests` requests (default 10). Prints median and worst wall time, the API process's CPU per
// request and, on PostgreSQL, the server backends' CPU per request (from /proc), with PASS/MISS.
// On PGlite it also answers the same request through the text path PostgreSQL uses and checks the
// two answers are identical (the binary COPY path must not change a number).
// BENCH_PROFILE=file.cpuprofile writes a CPU profile of the measured requests; the plan of the read is
// printed (EXPLAIN ANALYZE of the select the route runs).
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase, type Db } from '../apps/api/src/db/client.ts';
import { pgliteOf } from '../apps/api/src/db/pglite-copy.ts';
import { historyRoute } from '../apps/api/src/modules/positions/history.service.ts';
import { createTestVehicle } from '../apps/api/src/test/vehicles.ts';
import { rowsOf } from '../apps/api/src/db/sql/rows.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { boundPort } from './bench-server.ts';
import { HISTORY_DAY, insertHistoryDay } from './history-day.ts';

const args = process.argv.slice(2);
const requests = Number(args.find((a) => !a.startsWith('--')) ?? 10);
const alone = args.includes('--alone');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-hist-'));
const databaseUrl = process.env.DATABASE_URL;
const database = await openDatabase(databaseUrl ? { databaseUrl, dataDir, poolSize: 10 } : { dataDir });
const kind = database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
const config = testConfig({ dataDir, logLevel: 'silent' });
await seed(database.db, { ...config, demo: true }, () => undefined);
const app = await buildApp({ config, database });
const db = database.db;
await db.execute(sql`truncate positions, latest_positions`);
const [org] = rowsOf<{ id: string }>(await db.execute(sql`select id from organizations where name = 'Demo Freight'`));
const orgId = org!.id;
const suffix = Date.now().toString(36);
const v = await createTestVehicle(db, orgId, { uniqueId: `hist-${suffix}`, unitNumber: `H-${suffix}` });

const day = HISTORY_DAY;
await insertHistoryDay(db, orgId, v);
for (let k = 0; k < (alone ? 0 : 20); k++) {
  const o = await createTestVehicle(db, orgId, { uniqueId: `hist-${suffix}-${k}`, unitNumber: `H-${suffix}-${k}` });
  await db.execute(sql`
    insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, latitude, longitude, speed, course, ignition, protocol)
    select ${orgId}::uuid, ${o.gatewayId}::uuid, ${o.assetId}::uuid, ${o.driverId}::uuid, to_timestamp(${day / 1000 - 86_400} + s * 10),
      36 + s / 1e5, -95 - ${k} / 10.0, (s % 90)::real, 90, true, 'batch'
    from generate_series(0, 8639) s`);
}
await db.execute(sql`analyze positions`);

await app.listen({ port: 0, host: '127.0.0.1' });
const API_PORT = boundPort(app.server);
const login = await app.inject({ method: 'POST', url: '/api/v1/auth/authenticate', payload: { email: 'admin@demofreight.test', password: 'DemoAdmin#2026' } });
const bearer = `Bearer ${login.json().accessToken as string}`;
const query = { from: new Date(day).toISOString(), to: new Date(day + 86_400_000).toISOString(), zoom: 10, maxPoints: 2000 };
const url = `http://127.0.0.1:${API_PORT}/api/v1/organizations/${orgId}/history-routes/assets/${v.assetId}?from=${query.from}&to=${query.to}&zoom=${query.zoom}`;

/** utime + stime (ms) of the PostgreSQL backends serving this database: the server's share. */
async function serverCpuMs(): Promise<number> {
  if (!databaseUrl) return 0;
  const pids = rowsOf<{ pid: number }>(await db.execute(sql`select pid from pg_stat_activity where datname = current_database()`));
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  let ms = 0;
  for (const { pid } of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ms += (Number(f[11]) + Number(f[12])) * tick;
    } catch {
      // a backend that ended meanwhile
    }
  }
  return ms;
}

const profileFile = process.env.BENCH_PROFILE;
const inspector = profileFile ? new Session() : null;
if (inspector) {
  inspector.connect();
  await inspector.post('Profiler.enable');
}
type Answer = { summary: { positions: number }; track: unknown[]; stops: unknown[] };
const times: number[] = [];
const cpus: number[] = [];
let answer: Answer | null = null;
let serverMs = 0;
for (let i = 0; i <= requests; i++) {
  if (i === 1) await inspector?.post('Profiler.start');
  const server0 = i > 0 ? await serverCpuMs() : 0;
  const s = performance.now();
  const c = process.cpuUsage();
  const res = await fetch(url, { headers: { authorization: bearer } });
  answer = (await res.json()) as Answer;
  if (res.status !== 200) throw new Error(`history answered ${res.status}: ${JSON.stringify(answer)}`);
  if (i > 0) {
    times.push(performance.now() - s);
    const d = process.cpuUsage(c);
    cpus.push((d.user + d.system) / 1000);
    serverMs += (await serverCpuMs()) - server0;
  }
}
// BENCH_ANSWER=file writes the answer, to compare two versions of the code on either database.
if (process.env.BENCH_ANSWER) fs.writeFileSync(process.env.BENCH_ANSWER, JSON.stringify(answer, null, 1));
if (inspector && profileFile) {
  const { profile } = await inspector.post('Profiler.stop');
  fs.writeFileSync(profileFile, JSON.stringify(profile));
}
times.sort((a, b) => a - b);
cpus.sort((a, b) => a - b);
const median = (a: number[]) => a[Math.floor(a.length / 2)]!;

let identical = '';
if (database.kind === 'pglite') {
  // The comparison means something only if the route really took the binary COPY path.
  if (!pgliteOf(db)) throw new Error('the PGlite database was not recognised: the route would not use binary COPY');
  // The text path (what PostgreSQL runs): the same database without its PGlite client in sight.
  const textDb = new Proxy(db, { get: (t, p) => (p === '$client' ? undefined : Reflect.get(t, p)) }) as Db;
  const viaText = await historyRoute({ db: textDb, orgId }, 'assets', v.assetId, query);
  const viaCopy = await historyRoute({ db, orgId }, 'assets', v.assetId, query);
  identical = isDeepStrictEqual(viaText, viaCopy) ? ', identical to the text path' : ', DIFFERENT FROM THE TEXT PATH';
}

const plan = rowsOf<Record<string, string>>(
  await db.execute(
    sql.raw(`explain (analyze, buffers) select fix_time, latitude, longitude, speed, ignition from positions
      where organization_id = '${orgId}' and asset_id = '${v.assetId}' and fix_time >= '${query.from}' and fix_time < '${query.to}'`),
  ),
);
console.log(`\nPlan of the read:\n  ${plan.map((r) => Object.values(r)[0]).join('\n  ')}`);
console.log(`\nHistory on ${kind}: one vehicle, 86,400 fixes (1 Hz day) over HTTP, ${requests} requests after one warm-up`);
console.log(`answer: ${answer!.summary.positions} fixes in, ${answer!.track.length} track points out, ${answer!.stops.length} stops${identical}`);
console.log(`wall: median ${median(times).toFixed(0)} ms, worst ${times[times.length - 1]!.toFixed(0)} ms`);
console.log(
  `CPU per request: API process ${median(cpus).toFixed(0)} ms median${database.kind === 'pglite' ? ' (includes the embedded database)' : `, PostgreSQL backends ${(serverMs / requests).toFixed(0)} ms mean`}`,
);
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`${median(times) < 300 ? 'PASS' : 'MISS'} History of a 1 Hz day (86,400 fixes): median ${median(times).toFixed(0)} ms (target < 300 ms)`);

await app.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
