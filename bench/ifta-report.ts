// IFTA quarter report at fleet scale (issue 17): 500 IFTA-qualified vehicles with a full quarter of
// distance days (every vehicle every day in 3 of 12 states, an odometer each day, a crossing a day,
// some interpolated and unknown metres) and 13 fuel purchases each, then
//   GET organizations/{orgId}/ifta/report?quarter=2026Q2&fuelType=DIESEL   median and p95 < 300 ms
//   the same with groupId (a 250-vehicle group), and the distance-records page (reported)
// in this process through app.inject (the API's routing, auth, validation and serialisation; no socket).
// Run: node --import tsx bench/ifta-report.ts [requests]            (default 30)
//   BENCH_PG=postgres://postgres@127.0.0.1:5433/postgres  on a fresh database of that server (dropped
//     at the end); unset = embedded PGlite in memory. BENCH_VEHICLES=n another fleet size.
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { rowsOf } from '../apps/api/src/db/sql/rows.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { createScratchDatabase } from '../apps/api/src/test/helpers.ts';

const requests = Number(process.argv[2] ?? 30);
const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 500);
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
// Vehicles B0..B499, half of them in one group.
await db.execute(sql`insert into assets (organization_id, type, unit_number, fuel_type, ifta_qualified)
  select ${orgId}, 'VEHICLE', 'IFTA-B' || i, 'DIESEL', true from generate_series(0, ${VEHICLES - 1}) i`);
const { id: groupId } = await one<{ id: string }>(sql`insert into groups (organization_id, name) values (${orgId}, 'IFTA bench half') returning id`);
await db.execute(
  sql`insert into group_assets (group_id, organization_id, asset_id) select ${groupId}, ${orgId}, id from assets where unit_number like 'IFTA-B%' and (substring(unit_number from 7)::int) % 2 = 0`,
);
// A quarter of days: 3 of 12 states a vehicle, 150-450 km a day; some interpolated, a little unknown.
const states = `{IL,IN,OH,PA,NY,TX,OK,KS,MO,IA,NE,WY}`;
await db.execute(sql`with v as (select id, row_number() over (order by unit_number) as n from assets where unit_number like 'IFTA-B%')
  insert into ifta_distance_days (organization_id, vehicle_id, day, jurisdiction, metres, interpolated_metres)
  select ${orgId}, v.id, d::date, (${states}::text[])[1 + ((v.n + k) % 12)], 50000 + ((v.n * 7919 + k * 104729 + extract(doy from d)::int * 31) % 100000),
         case when (v.n + extract(doy from d)::int) % 37 = 0 then 8000 else 0 end
  from v, generate_series('2026-04-01'::date, '2026-06-30'::date, '1 day') d, generate_series(0, 2) k`);
await db.execute(sql`insert into ifta_distance_days (organization_id, vehicle_id, day, jurisdiction, metres, interpolated_metres)
  select ${orgId}, id, '2026-05-03', 'unknown', 1200, 0 from assets where unit_number like 'IFTA-B%' and (substring(unit_number from 7)::int) % 50 = 0`);
await db.execute(sql`insert into ifta_distance_months (organization_id, vehicle_id, month, jurisdiction, metres, interpolated_metres)
  select organization_id, vehicle_id, date_trunc('month', day)::date, jurisdiction, sum(metres), sum(interpolated_metres) from ifta_distance_days group by 1, 2, 3, 4`);
await db.execute(sql`insert into ifta_vehicle_days (organization_id, vehicle_id, day, first_fix_at, last_fix_at, odometer_start_m, odometer_end_m, fixes, metres, odometer_travel_m, odometer_metres)
  select d.organization_id, d.vehicle_id, d.day, d.day + time '06:00', d.day + time '18:00', 1e8 + (d.day - '2026-04-01'::date) * 300000, 1e8 + (d.day - '2026-04-01'::date) * 300000 + sum(d.metres), 1440,
         sum(d.metres), sum(d.metres) * 1.01, sum(d.metres)
  from ifta_distance_days d where d.organization_id = ${orgId} group by d.organization_id, d.vehicle_id, d.day`);
await db.execute(sql`insert into ifta_vehicle_months (organization_id, vehicle_id, month, metres, odometer_travel_m, odometer_metres)
  select organization_id, vehicle_id, date_trunc('month', day)::date, sum(metres), sum(odometer_travel_m), sum(odometer_metres) from ifta_vehicle_days group by 1, 2, 3`);
await db.execute(sql`insert into ifta_crossings (organization_id, vehicle_id, day, crossed_at, latitude, longitude, odometer_m, from_jurisdiction, to_jurisdiction)
  select organization_id, vehicle_id, day, day + time '12:00', 40, -90, null, 'IL', 'IN' from ifta_vehicle_days where organization_id = ${orgId}`);
await db.execute(sql`with v as (select id, row_number() over (order by unit_number) as n from assets where unit_number like 'IFTA-B%')
  insert into ifta_fuel_purchases (organization_id, vehicle_id, purchased_at, jurisdiction, fuel_type, quantity_milli, volume_unit, total_cents, receipt_number, tax_paid, location_check)
  select ${orgId}, v.id, '2026-04-01'::timestamptz + (p * 7 || ' days')::interval, (${states}::text[])[1 + ((v.n + p) % 12)], 'DIESEL', 400000 + (v.n * p) % 200000, 'GAL', 150000,
         'B-' || v.n || '-' || p, true, case when (v.n + p) % 97 = 0 then 'FAR' else 'OK' end
  from v, generate_series(0, 12) p`);
await db.execute(sql`analyze`);
const counts = await one<{ d: number; vd: number; p: number }>(
  sql`select (select count(*)::int from ifta_distance_days) as d, (select count(*)::int from ifta_vehicle_days) as vd, (select count(*)::int from ifta_fuel_purchases) as p`,
);
console.log(
  `\nIFTA report benchmark on ${kind}: ${VEHICLES} vehicles, ${counts.d} distance-day rows, ${counts.vd} vehicle-days, ${counts.p} purchases (written in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
);

const login = await app.inject({ method: 'POST', url: '/api/v1/auth/authenticate', payload: { email: 'admin@demofreight.test', password: 'DemoAdmin#2026' } });
const headers = { authorization: `Bearer ${login.json().accessToken as string}` };

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

const results = [
  await measure(`Quarter report, ${VEHICLES} vehicles`, `/api/v1/organizations/${orgId}/ifta/report?quarter=2026Q2&fuelType=DIESEL`, 300),
  await measure(
    `Quarter report, a group of ${Math.ceil(VEHICLES / 2)}`,
    `/api/v1/organizations/${orgId}/ifta/report?quarter=2026Q2&fuelType=DIESEL&groupId=${groupId}`,
    300,
  ),
  await measure('Distance records, a page of 100 vehicle-days', `/api/v1/organizations/${orgId}/ifta/distance-records?quarter=2026Q2&size=100`, null),
];
const r = (await app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/ifta/report?quarter=2026Q2&fuelType=DIESEL`, headers })).json();
console.log(
  `The return: ${r.rows.length} jurisdictions, ${r.totals.totalMiles.toLocaleString('en-US')} mi, ${r.totals.totalGallons.toLocaleString('en-US')} gal, MPG ${r.totals.mpg}, ${r.vehicles.length} vehicles, ${r.flags.length} flags`,
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
