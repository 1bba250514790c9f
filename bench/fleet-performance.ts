// Fleet performance (issue 18): a quarter for 500 vehicles from the daily aggregates
// (vehicle_daily_stats), through the API (app.inject: routing, validation, the queries, the
// serialisation). Target: under 300 ms. Also the daily fold's cost per fix (day-stats.ts), the work
// the statistics add behind ingest.
// Run: node --import tsx bench/fleet-performance.ts      (DATABASE_URL=postgres://…/emptydb for PostgreSQL)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { addFixes, emptyTotals, type StatFix } from '../apps/api/src/modules/fleet-stats/day-stats.ts';
import { rowsOf } from '../apps/api/src/db/sql/rows.ts';
import { seed } from '../apps/api/src/seed/seed.ts';

const VEHICLES = 500;
const DAYS = 92;
const TARGET_MS = 300;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-perf-'));
const database = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL, dataDir, poolSize: 10 } : { dataDir });
const config = testConfig({ dataDir, logLevel: 'silent' });
const app = await buildApp({ config, database });
await seed(database.db, { ...config, demo: true }, () => undefined);
await app.ready();
try {
  const db = database.db;
  const [{ id: orgId } = { id: '' }] = rowsOf<{ id: string }>(await db.execute(sql`select id from organizations where name = 'Demo Freight'`));
  // 500 vehicles (the demo's 25 and 475 more), two groups, and a quarter of days each.
  await db.execute(sql`insert into assets (organization_id, type, unit_number)
    select ${orgId}, 'VEHICLE', 'P' || lpad(g::text, 4, '0') from generate_series(1, ${VEHICLES - 25}) g on conflict do nothing`);
  const gs = rowsOf<{ id: string }>(await db.execute(sql`select id from groups where organization_id = ${orgId} order by name`));
  await db.execute(sql`insert into group_assets (group_id, organization_id, asset_id)
    select case when right(a.unit_number, 1)::int % 2 = 0 then ${gs[0]!.id}::uuid else ${gs[1]!.id}::uuid end, ${orgId}, a.id
    from assets a where a.organization_id = ${orgId} and a.unit_number like 'P%' on conflict do nothing`);
  const t0 = performance.now();
  await db.execute(sql`insert into vehicle_daily_stats (organization_id, asset_id, day, distance_m, driving_ms, idle_ms, max_speed_kmh, speeding_events, stops, fixes, last_fix_at)
    select ${orgId}, a.id, d::date, 300000 + (random() * 500000), 4 * 3600000 + random() * 6 * 3600000, random() * 3600000, 90 + random() * 30, (random() * 5)::int, (random() * 12)::int, 1440, d + interval '23 hours'
    from assets a cross join generate_series(date '2026-01-01', date '2026-01-01' + ${DAYS - 1}::int, interval '1 day') d
    where a.organization_id = ${orgId} and a.type = 'VEHICLE'
    on conflict do nothing`);
  await db.execute(sql`analyze vehicle_daily_stats`);
  const rows = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from vehicle_daily_stats where organization_id = ${orgId}`))[0]?.n;
  console.log(`\ndatabase: ${database.kind}; ${rows} vehicle days written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const admin = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/authenticate',
    payload: { email: 'admin@demofreight.test', password: 'DemoAdmin#2026' },
  });
  const headers = { authorization: `Bearer ${admin.json().accessToken}` };
  const url = `/api/v1/organizations/${orgId}/analytics/fleet-performance?from=2026-01-01&to=2026-04-02`;
  const times: number[] = [];
  let body = '';
  for (let i = 0; i < 25; i++) {
    const started = performance.now();
    const res = await app.inject({ method: 'GET', url, headers });
    times.push(performance.now() - started);
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    body = res.body;
  }
  const parsed = JSON.parse(body) as { vehicles: unknown[]; groups: unknown[]; perDay: unknown[] };
  const warm = times.slice(5).sort((a, b) => a - b);
  const p = (q: number) => warm[Math.min(warm.length - 1, Math.floor(q * warm.length))]!;
  console.log(
    `| a quarter (92 days) of ${parsed.vehicles.length} vehicles, ${parsed.groups.length} groups, ${parsed.perDay.length} days | first ms | p50 ms | p95 ms | max ms | answer KB | < ${TARGET_MS} ms |\n|---|---|---|---|---|---|---|`,
  );
  console.log(
    `| fleet-performance (app.inject, 20 after 5 warm-up) | ${times[0]!.toFixed(0)} | ${p(0.5).toFixed(0)} | ${p(0.95).toFixed(0)} | ${warm.at(-1)!.toFixed(0)} | ${(body.length / 1024).toFixed(0)} | ${warm.at(-1)! < TARGET_MS ? 'PASS' : 'MISS'} |`,
  );

  // The fold behind ingest: a day of 1 Hz fixes for one vehicle.
  const fixes: StatFix[] = Array.from({ length: 86_400 }, (_, i) => ({
    t: i * 1000,
    lat: 39 + i * 1e-5,
    lon: -95,
    speed: i % 3600 < 600 ? 0 : 90 + (i % 20),
    ignition: true,
  }));
  const f0 = performance.now();
  for (let k = 0; k < 5; k++) addFixes(emptyTotals(), null, fixes, 105);
  console.log(`\ndaily fold: ${(((performance.now() - f0) / 5 / fixes.length) * 1e6).toFixed(0)} ns per fix (86,400 fixes, mean of 5)`);
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (${os.cpus().length} cores)`,
  );
} finally {
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
