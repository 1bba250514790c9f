// The ELD diagnostics job at fleet scale (decision 0173): vehicles reporting at 1 Hz for 36 hours with
// the engine's data, a 10-hour unidentified drive each in the last day, then detectDiagnostics, the
// 5-minute job's work for one organization, timed with the CPU of this process and of the database.
// Run: node --expose-gc --import tsx bench/eld-diagnostics.ts [runs]      (default 3)
//   BENCH_PG=postgres://postgres@127.0.0.1:5433/postgres  on a fresh database of that server (dropped
//     at the end); unset = embedded PGlite in memory. BENCH_VEHICLES=n another fleet size (default 20).
import { sql } from 'drizzle-orm';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { rowsOf } from '../apps/api/src/db/sql/rows.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { createScratchDatabase } from '../apps/api/src/test/helpers.ts';
import { detectDiagnostics } from '../apps/api/src/modules/hos/hos-diagnostics.service.ts';
import { pgCpuMeter } from './pg-cpu.ts';

const runs = Number(process.argv[2] ?? 3);
const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 20);
const scratch = process.env.BENCH_PG ? await createScratchDatabase(process.env.BENCH_PG) : null;
const database = await openDatabase(scratch ? { databaseUrl: scratch.url, dataDir: 'memory', poolSize: 5 } : { dataDir: 'memory' });
const kind = database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
const config = testConfig({ logLevel: 'silent' });
await seed(database.db, { ...config, demo: true }, () => undefined);
const db = database.db;
const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(q))[0]!;
const { id: orgId } = await one<{ id: string }>(sql`select id from organizations where name = 'Demo Freight'`);
const now = Math.floor(Date.now() / 1000) * 1000;
const nowIso = new Date(now).toISOString();

const t0 = performance.now();
await db.execute(
  sql`insert into assets (organization_id, type, unit_number) select ${orgId}, 'VEHICLE', 'DIAG-B' || i from generate_series(0, ${VEHICLES - 1}) i`,
);
await db.execute(
  sql`insert into gateways (organization_id, unique_id, name, asset_id) select ${orgId}, 'diag-bench-' || unit_number, unit_number, id from assets where unit_number like 'DIAG-B%'`,
);
// One fix a second for 36 hours: moving east at ~100 km/h, the engine's odometer and hours, accuracy 5 m;
// a 20-minute silence every 6 hours and a stretch without engine data a day.
await db.execute(sql`insert into positions (organization_id, gateway_id, asset_id, fix_time, server_time, latitude, longitude, speed, accuracy, ignition, odometer, odometer_source, engine_hours, protocol)
  select ${orgId}, g.id, g.asset_id, ${nowIso}::timestamptz - s * interval '1 second', ${nowIso}::timestamptz - s * interval '1 second', 40, -100 + (129600 - s) * 0.00033, 100, 5, true,
         1e8 + (129600 - s) * 28, case when s % 86400 between 3600 and 7200 then null else 'ECM' end, 5000 + (129600 - s) / 3600.0, 'osmand'
  from gateways g, generate_series(0, 129599) s
  where g.unique_id like 'diag-bench-%' and s % 21600 not between 600 and 1800`);
await db.execute(sql`insert into latest_positions (asset_id, organization_id, gateway_id, fix_time, server_time, latitude, longitude, speed, ignition)
  select g.asset_id, ${orgId}, g.id, ${nowIso}::timestamptz, ${nowIso}::timestamptz, 40, -57, 100, true from gateways g where g.unique_id like 'diag-bench-%'`);
// An unidentified drive of 10 hours in the last day on each (the positioning check reads fixes of vehicles that drove).
await db.execute(sql`insert into hos_events (organization_id, driver_id, vehicle_id, sequence_id, event_type, event_code, record_status, record_origin, event_time, log_date)
  select ${orgId}, null, a.id, k + 1, 1, case k when 0 then 3 else 4 end, 1, 1, ${nowIso}::timestamptz - (case k when 0 then 20 else 10 end) * interval '1 hour', current_date
  from assets a, generate_series(0, 1) k where a.unit_number like 'DIAG-B%'`);
await db.execute(sql`analyze`);
const { n } = await one<{ n: number }>(sql`select count(*)::int as n from positions where organization_id = ${orgId}`);
console.log(
  `\nELD diagnostics benchmark on ${kind}: ${VEHICLES} vehicles at 1 Hz, ${n.toLocaleString('en-US')} fixes (written in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
);

const meter = await pgCpuMeter(scratch?.url);
const gc = (globalThis as { gc?: () => void }).gc;
for (let i = 0; i < runs; i++) {
  gc?.();
  await meter?.lap();
  const heap = process.memoryUsage().heapUsed;
  const c = process.cpuUsage();
  const s = performance.now();
  const run = await detectDiagnostics(db, orgId, now + i * 1000);
  const ms = performance.now() - s;
  const cpu = process.cpuUsage(c);
  const pgCpu = meter ? await meter.lap() : null;
  console.log(
    `run ${i + 1}: ${ms.toFixed(0)} ms wall, this process ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU${pgCpu === null ? ' (PGlite runs in it)' : `, PostgreSQL ${(pgCpu * 1000).toFixed(0)} ms CPU`}, heap +${((process.memoryUsage().heapUsed - heap) / 1048576).toFixed(1)} MB; ${run.vehicles} vehicles, ${run.logged} logged, ${run.cleared} cleared`,
  );
}
await meter?.close();
await database.close();
await scratch?.drop();
