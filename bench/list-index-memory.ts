// Memory the registry list index holds per row, to size LIST_INDEX_ROWS.
//   node --expose-gc --import tsx bench/list-index-memory.ts [rows per list, default 10000]
// Imports that many vehicles and drivers through the CSV endpoint (app.inject, embedded PGlite in
// memory, or DATABASE_URL), then reads one searched page and one sorted page of each list, which
// loads both lists into the index; the V8 heap after a full collection, before and after, divided by
// the rows indexed, is the figure. Other caches stay untouched (one signed-in user, no devices).
import { buildApp } from '../apps/api/src/app.ts';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { listIndexOf } from '../apps/api/src/list-index/list-index.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { driversCsv, vehiclesCsv } from './registry-data.ts';

const perList = Number(process.argv[2] ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc');
  process.exit(1);
}
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1048576;
};

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory' });
const config = testConfig({ databaseUrl: process.env.DATABASE_URL });
const app = await buildApp({ config, database });
await seed(database.db, { ...config, demo: true }, () => undefined);
await app.ready();
const login = await app.inject({ method: 'POST', url: '/api/v1/auth/authenticate', payload: { email: 'admin@demofreight.test', password: 'DemoAdmin#2026' } });
const session = login.json<{ accessToken: string; user: { organization: { id: string } } }>();
const headers = { authorization: `Bearer ${session.accessToken}` };
const org = `/api/v1/organizations/${session.user.organization.id}`;
for (const [kind, csv] of [
  ['vehicles', vehiclesCsv],
  ['drivers', driversCsv],
] as const) {
  for (let from = 0; from < perList; from += 5000) {
    const res = await app.inject({ method: 'POST', url: `${org}/imports/${kind}`, headers, payload: { csv: csv(from, Math.min(5000, perList - from)) } });
    if (res.statusCode !== 200) throw new Error(`${kind} import: ${res.statusCode} ${res.body}`);
  }
}
const page = (path: string) => app.inject({ method: 'GET', url: `${org}${path}`, headers });
await page('/groups?size=15'); // warm: the request path's code is loaded before the baseline
const before = heapMb();
const heldBefore = listIndexOf(app.db)?.held.rows ?? 0;
for (const path of [
  '/assets?type=VEHICLE&search=kenworth&sort=unitNumber,asc&size=15',
  '/assets?type=VEHICLE&sort=year,desc&size=15',
  '/drivers?search=garcia&size=15',
  '/drivers?sort=lastName,asc&size=15',
]) {
  const res = await page(path);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode}`);
}
const after = heapMb();
const rows = (listIndexOf(app.db)?.held.rows ?? 0) - heldBefore;
console.log(`database: ${database.kind}; ${rows.toLocaleString('en-US')} rows indexed (vehicles and drivers, two sorts each)`);
console.log(
  `heap ${before.toFixed(1)} → ${after.toFixed(1)} MB: ${(((after - before) * 1048576) / rows).toFixed(0)} bytes per row, ${(((after - before) * 1e5) / rows).toFixed(1)} MB per 100,000 rows`,
);
await app.close();
await database.close();
