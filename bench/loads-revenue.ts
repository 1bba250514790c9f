// Revenue analytics at fleet scale (issue 33, decision 0166): 100 trucks with 20 delivered loads each
// over the last four weeks (2,000 loads), each with three hours of deadhead fixes a minute before its
// pick-up (360,000 positions), then
//   GET organizations/{orgId}/analytics/revenue?groupBy=truck&period=week   (reported; the issue sets no target)
//   the same by lane and month, and the CSV export (reported)
// in this process through app.inject (routing, auth, validation and serialisation; no socket).
// Run: node --import tsx bench/loads-revenue.ts [requests]            (default 20)
//   BENCH_PG=postgres://postgres@127.0.0.1:5433/postgres  on a fresh database of that server (dropped
//     at the end); unset = embedded PGlite in memory. BENCH_TRUCKS=n another fleet size.
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { rowsOf } from '../apps/api/src/db/sql/rows.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { createScratchDatabase } from '../apps/api/src/test/helpers.ts';

const requests = Number(process.argv[2] ?? 20);
const TRUCKS = Number(process.env.BENCH_TRUCKS ?? 100);
const LOADS = 20;
const scratch = process.env.BENCH_PG ? await createScratchDatabase(process.env.BENCH_PG) : null;
const database = await openDatabase(scratch ? { databaseUrl: scratch.url, dataDir: 'memory', poolSize: 5 } : { dataDir: 'memory' });
const kind = database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
const config = testConfig({ logLevel: 'silent' });
await seed(database.db, { ...config, demo: true }, () => undefined);
const app = await buildApp({ config, database });
const db = database.db;
const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(q))[0]!;
const { id: orgId } = await one<{ id: string }>(sql`select id from organizations where name = 'Demo Freight'`);

const t0 = performance.now();
// Four weeks back from the start of this hour: load k of truck n picks up at start + k * 33 h.
const start = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 28 * 86_400_000).toISOString();
await db.execute(
  sql`insert into assets (organization_id, type, unit_number) select ${orgId}, 'VEHICLE', 'REV-B' || i from generate_series(0, ${TRUCKS - 1}) i`,
);
await db.execute(sql`insert into gateways (organization_id, unique_id, name, asset_id)
  select ${orgId}, 'rev-bench-' || a.unit_number, 'Bench ' || a.unit_number, a.id from assets a where a.unit_number like 'REV-B%'`);
await db.execute(sql`with t as (select id, row_number() over (order by unit_number) as n from assets where unit_number like 'REV-B%')
  insert into loads (organization_id, number, customer, status, line_haul_cents, fuel_surcharge_cents, asset_id, loaded_m, delivered_at, notes)
  select ${orgId}, 'RB-' || t.n || '-' || k, 'Customer ' || ((t.n + k) % 40), 'DELIVERED', 150000 + (t.n * 7919 + k * 104729) % 100000, 20000, t.id,
         500000 + (t.n * 31 + k * 17) % 300000, ${start}::timestamptz + (k * 33 + 10 || ' hours')::interval, t.n || ':' || k
  from t, generate_series(0, ${LOADS - 1}) k`);
await db.execute(sql`insert into load_stops (organization_id, load_id, seq, kind, latitude, longitude, window_start, window_end, service_minutes, arrived_at, departed_at, arrival_source, departure_source)
  select l.organization_id, l.id, s, case s when 0 then 'PICKUP' else 'DELIVERY' end, 35 + (split_part(l.notes, ':', 1)::int % 10), -100 + s * 5,
         l.delivered_at - interval '10 hours' + (s * 9 || ' hours')::interval, l.delivered_at - interval '8 hours' + (s * 9 || ' hours')::interval, 60,
         l.delivered_at - interval '10 hours' + (s * 9 || ' hours')::interval, l.delivered_at - interval '9 hours' + (s * 9 || ' hours')::interval, 'PLACE', 'PLACE'
  from loads l, generate_series(0, 1) s where l.number like 'RB-%'`);
// Three hours of deadhead a fix a minute (about 50 km/h east) up to each pick-up.
await db.execute(sql`insert into positions (organization_id, gateway_id, asset_id, fix_time, latitude, longitude, speed, protocol)
  select l.organization_id, g.id, l.asset_id, s.arrived_at - (m || ' minutes')::interval, s.latitude, s.longitude - m * 0.0095, 50, 'osmand'
  from loads l join load_stops s on s.load_id = l.id and s.seq = 0 join gateways g on g.asset_id = l.asset_id, generate_series(0, 179) m
  where l.number like 'RB-%'`);
await db.execute(sql`analyze`);
const counts = await one<{ l: number; p: number }>(sql`select (select count(*)::int from loads) as l, (select count(*)::int from positions) as p`);
console.log(
  `\nRevenue benchmark on ${kind}: ${TRUCKS} trucks, ${counts.l} loads, ${counts.p} positions (written in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
);

const login = await app.inject({ method: 'POST', url: '/api/v1/auth/authenticate', payload: { email: 'admin@demofreight.test', password: 'DemoAdmin#2026' } });
const headers = { authorization: `Bearer ${login.json().accessToken as string}` };
const range = `from=${encodeURIComponent(new Date(Date.parse(start) - 86_400_000).toISOString())}&to=${encodeURIComponent(new Date().toISOString())}`;

async function measure(label: string, url: string, target: number | null): Promise<string> {
  const times: number[] = [];
  const cpus: number[] = [];
  let bytes = 0;
  for (let i = 0; i <= requests; i++) {
    const c = process.cpuUsage();
    const s = performance.now();
    const res = await app.inject({ method: 'GET', url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    if (i === 0) continue; // the first request warms the prepared plans and the JIT
    times.push(performance.now() - s);
    const d = process.cpuUsage(c);
    cpus.push((d.user + d.system) / 1000);
    bytes = res.rawPayload.length;
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))]!;
  const line = `${label}: median ${p(0.5).toFixed(0)} ms, p95 ${p(0.95).toFixed(0)} ms, worst ${times[times.length - 1]!.toFixed(0)} ms; median CPU ${cpus[Math.floor(cpus.length / 2)]!.toFixed(0)} ms${database.kind === 'pglite' ? ' (database included)' : ' (API only)'}; ${(bytes / 1024).toFixed(0)} kB`;
  return target === null ? `     ${line}` : `${p(0.5) < target && p(0.95) < target ? 'PASS' : 'MISS'} ${line} (target < ${target} ms)`;
}

const base = `/api/v1/organizations/${orgId}/analytics/revenue`;
const results = [
  await measure(`Four weeks by truck and week, ${TRUCKS * LOADS} loads`, `${base}?${range}&groupBy=truck&period=week`, null),
  await measure('Four weeks by lane and month', `${base}?${range}&groupBy=lane&period=month`, null),
  await measure('CSV export by customer', `${base}/export?format=csv&${range}&groupBy=customer&period=week`, null),
];
const r = (await app.inject({ method: 'GET', url: `${base}?${range}&groupBy=truck&period=week`, headers })).json();
console.log(
  `The report: ${r.totals.loads} loads, revenue ${r.totals.revenue.toLocaleString('en-US')} ${r.currency}, loaded ${Math.round(r.totals.loadedKm).toLocaleString('en-US')} km, deadhead ${Math.round(r.totals.deadheadKm).toLocaleString('en-US')} km, ${r.rows.length} trucks, ${r.series.length} weeks`,
);
console.log(
  `\nOn ${kind}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at the end:`,
);
for (const line of results) console.log(line);
await app.close();
await database.close();
await scratch?.drop();
