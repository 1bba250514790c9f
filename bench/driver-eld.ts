// The driver's side (issue 16), two figures through the real server over HTTP:
//   1. a driver's status change reaches the office's availability screen in under 1 s: the office
//      holds its notification stream open as the screen does; the driver POSTs a status change now
//      (users/{userId}/hos_log/{logId}/hos_event); the stream's `hos` event arrives and the office
//      asks `availability?search=<driver>` (what the screen does on that push, decision 0134); the
//      time from sending the POST to that answer, for every change (and the push alone);
//   2. the ELD output file of 8 days under 100 ms: `GET drivers/{driverId}/hos_log/eld-output`
//      (default period: today and the 7 days before) for a driver with 8 days of records, each
//      request timed from send to the last byte.
// Run: node --import tsx bench/driver-eld.ts [changes] [files]     (default 40 changes, 200 files)
//   BENCH_PG=postgres://postgres@127.0.0.1:5433/postgres  runs on that PostgreSQL server, in a
//     database of its own the bench creates and drops; unset = embedded PGlite in a temporary DATA_DIR
//   BENCH_PORT / BENCH_OSMAND_PORT choose the server's ports (checked free)
//   BENCH_ENTRY=source runs the server through tsx instead of `npm run build`'s apps/api/dist/main.js
//   BENCH_FLEET=n adds n other drivers with 14 days each (bench/hos-data.ts) so availability answers for a fleet
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { parseEldFile } from '../packages/eld/src/index.ts';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { benchEntry, requestedPort, startBenchServer } from './bench-server.ts';
import { seedHosFleet } from './hos-data.ts';
import { openLiveStream } from '../apps/api/src/test/sse-client.ts';

const changes = Number(process.argv[2] ?? 40);
const files = Number(process.argv[3] ?? 200);
const FLEET = Number(process.env.BENCH_FLEET ?? 0);
const H = 3_600_000;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

function stats(samples: number[]): { median: number; p95: number; max: number; text: string } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const r = { median: at(0.5), p95: at(0.95), max: at(1) };
  return { ...r, text: `median ${r.median.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(1)} ms (${samples.length} samples)` };
}

const entry = benchEntry('compiled');
const port = await requestedPort(process.env.BENCH_PORT, 'BENCH_PORT');
const osmandPort = await requestedPort(process.env.BENCH_OSMAND_PORT, 'BENCH_OSMAND_PORT');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-driver-'));
const pgServer = process.env.BENCH_PG;
const dbName = `fleet_driver_bench_${process.pid}`;
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
const kind = databaseUrl ? 'PostgreSQL' : 'PGlite (embedded)';

// The demo organization (its admin, dispatcher and demo drivers), and optionally a fleet with records.
const database = await openDatabase(databaseUrl ? { databaseUrl, dataDir, poolSize: 2 } : { dataDir });
await seed(database.db, { ...testConfig({ dataDir, logLevel: 'silent' }), demo: true }, () => undefined);
if (FLEET > 0) {
  const [org] = ((await database.db.execute("select id from organizations where name = 'Demo Freight'" as never)) as unknown as { rows: Array<{ id: string }> })
    .rows;
  await seedHosFleet(database.db, org!.id, FLEET, Math.floor(Date.now() / 60_000) * 60_000, []);
}
await database.close();

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
  readyTimeoutMs: 180_000,
});

try {
  const signIn = async (email: string, password: string) => {
    const res = await fetch(`${api.url}/api/v1/auth/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (!res.ok) throw new Error(`sign-in ${email}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { accessToken: string; user: { id: string; driverId: string | null; organization: { id: string } } };
  };
  const office = await signIn('dispatcher@demofreight.test', 'Dispatch#2026');
  const driver = await signIn('driver@demofreight.test', 'Driver#2026');
  const adminSession = await signIn('admin@demofreight.test', 'DemoAdmin#2026');
  const orgPath = `${api.url}/api/v1/organizations/${driver.user.organization.id}`;
  const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const driverId = driver.user.driverId!;

  // 8 days of records for the demo driver (a working day of ~10 events, a 10-hour rest), imported
  // through the API so they are exactly what the endpoints store; the last period ends now.
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const day: Array<[string, number]> = [
    ['ON', 0.5],
    ['D', 4],
    ['OFF', 0.5],
    ['D', 3.5],
    ['ON', 0.5],
    ['D', 2.5],
    ['ON', 0.5],
    ['SB', 12],
  ];
  const periods: Array<{ status: string; start: string; end: string }> = [];
  let t = now - 8 * 24 * H;
  while (t < now - 24 * H) {
    for (const [status, hours] of day) {
      periods.push({ status, start: new Date(t).toISOString(), end: new Date(t + hours * H).toISOString() });
      t += hours * H;
    }
  }
  periods.push({ status: 'OFF', start: new Date(t).toISOString(), end: new Date(now - 60_000).toISOString() });
  const imported = await fetch(`${orgPath}/drivers/${driverId}/hos_log/import`, {
    method: 'POST',
    headers: auth(adminSession.accessToken),
    body: JSON.stringify({ source: 'driver bench', periods }),
  });
  if (!imported.ok) throw new Error(`import: ${imported.status} ${await imported.text()}`);
  const status0 = (await (await fetch(`${orgPath}/users/${driver.user.id}/hos_log/driver-status`, { headers: auth(driver.accessToken) })).json()) as {
    today: { id: string };
    driver: { lastName: string };
  };

  console.log(
    `${kind}, ${entry} server, node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`driver with ${periods.length} imported periods over 8 days${FLEET ? `, ${FLEET} more drivers with 14 days each` : ''}`);

  // 1. Status change -> the office's availability.
  const lags: number[] = [];
  const posts: number[] = [];
  const pushes: number[] = [];
  let missed = 0;
  const stream = await openLiveStream(`${orgPath}/notifications/stream`, office.accessToken);
  if (stream.status !== 200) throw new Error(`notification stream: ${stream.status}`);
  await stream.next((e) => e.event === 'unread');
  const statuses = ['ON', 'OFF', 'SB', 'ON', 'OFF'];
  const availabilityUrl = `${orgPath}/availability?search=${encodeURIComponent(status0.driver.lastName)}&size=15`;
  // The office's screen is open already: its first answer (which loads the fleet's events into memory) is not part of a change's lag.
  const warm = performance.now();
  await (await fetch(`${orgPath}/availability?size=100`, { headers: auth(office.accessToken) })).arrayBuffer();
  console.log(`first availability page (cold, whole fleet): ${(performance.now() - warm).toFixed(0)} ms`);
  for (let i = 0; i < changes; i++) {
    const want = statuses[i % statuses.length]!;
    const started = performance.now();
    const res = await fetch(`${orgPath}/users/${driver.user.id}/hos_log/${status0.today.id}/hos_event`, {
      method: 'POST',
      headers: auth(driver.accessToken),
      body: JSON.stringify({ status: want, annotation: `Bench change ${i}` }),
    });
    if (res.status !== 201) throw new Error(`status change: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    posts.push(performance.now() - started);
    const seen = stream.events.length;
    await stream.next((e) => e.event === 'hos' && stream.events.indexOf(e) >= seen, 10_000);
    pushes.push(performance.now() - started);
    for (let ask = 0; ; ask++) {
      if (ask === 1) missed++;
      const a = (await (await fetch(availabilityUrl, { headers: auth(office.accessToken) })).json()) as {
        content: Array<{ driver: { id: string }; status: string | null }>;
      };
      if (a.content.find((r) => r.driver.id === driverId)?.status === want) break;
      if (performance.now() - started > 10_000) throw new Error('the change did not reach availability within 10 s');
    }
    lags.push(performance.now() - started);
    // Status changes a minute apart at least in the records: wait a little so two changes never share an instant.
    await new Promise((r) => setTimeout(r, 1100));
  }
  const lag = stats(lags);
  stream.close();
  console.log(`status change POST: ${stats(posts).text}`);
  console.log(`status change -> the office's stream told (hos event): ${stats(pushes).text}`);
  console.log(`changes the first availability answer after the push did not show yet: ${missed}`);
  console.log(`status change -> office availability: ${lag.text}  target < 1000 ms: ${verdict(lag.max < 1000)}`);

  // 2. The ELD output file of 8 days.
  const url = `${orgPath}/drivers/${driverId}/hos_log/eld-output?comment=Bench`;
  const times: number[] = [];
  let size = 0;
  let text = '';
  for (let i = 0; i < files; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: auth(driver.accessToken) });
    text = await res.text();
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`eld-output: ${res.status} ${text}`);
    size = text.length;
  }
  const parsed = parseEldFile(text);
  const file = stats(times.slice(1));
  console.log(
    `ELD output file: ${parsed.events.length} events, ${parsed.certifications.length} certifications, ${parsed.loginLogouts.length} logins, ${text.split('\r\n').length - 1} lines, ${size} bytes`,
  );
  console.log(`ELD output file, first request ${times[0]!.toFixed(1)} ms; then ${file.text}  target < 100 ms: ${verdict(file.p95 < 100)}`);
} finally {
  await api.stop();
  if (pgServer) await admin(`drop database if exists ${dbName} with (force)`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
