// Live ETAs of running loads (issue 33, decision 0167), and candidates among drivers on loads (issue 46).
//   node --import tsx bench/dispatch-live.ts [seconds=180]      (DATABASE_URL=… to run on PostgreSQL)
//   BENCH_LOADS=475 BENCH_NEXT=3 node --import tsx bench/dispatch-live.ts 0
//     (issue 46: 500 drivers with the demo's 25, each on a running load, every 3rd with a next load
//     assigned too; 0 s skips the live-ETA stretch and measures only the candidates)
// 1,000 vehicles, each with a driver and an EN_ROUTE load from one of ten cities to another, report
// one position every 10 s, moving along their road at 100 km/h. The positions are handed to the
// live-ETA follower as the group commit hands them (its `enqueue`), so what is measured is the
// follower's work alone: the throttle, the rounds, the drivers' clocks, the plans and the writes of
// the ETAs. The process's CPU over the run is compared with an idle stretch of the same length of the
// same process (the app's own timers), and printed as a share of one core. The first plan of every
// load (routing its legs) is done before the count, as after a start (the catch-up). Every driver
// has a week of logs (a shift a day, 5-10 h of driving), so the plans judge real clocks.
import fs from 'node:fs';
import inspector from 'node:inspector';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { LatLon, RouteLeg } from '@fleet/dispatch';
import { buildApp } from '../apps/api/src/app.ts';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { loads, loadStops } from '../apps/api/src/db/schema/index.ts';
import { rowsOf } from '../apps/api/src/db/sql/rows.ts';
import { routingOf } from '../apps/api/src/modules/dispatch/index.ts';
import type { PositionRow } from '../apps/api/src/modules/positions/index.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { createTestVehicle, type TestVehicle } from '../apps/api/src/test/vehicles.ts';
import { ownCpuSeconds } from './process-meter.ts';

const seconds = Number(process.argv[2] ?? 180);
const LOADS = Number(process.env.BENCH_LOADS ?? 1000);
/** Every n-th bench driver also has their next load assigned (0: none). */
const NEXT_EVERY = Number(process.env.BENCH_NEXT ?? 0);
const EVERY_S = 10;
const SPEED_MPS = 100 / 3.6;
const CITIES: LatLon[] = [
  { lat: 32.7767, lon: -96.797 }, // Dallas
  { lat: 35.1495, lon: -90.049 }, // Memphis
  { lat: 33.749, lon: -84.388 }, // Atlanta
  { lat: 39.7684, lon: -86.1581 }, // Indianapolis
  { lat: 41.8781, lon: -87.6298 }, // Chicago
  { lat: 29.7604, lon: -95.3698 }, // Houston
  { lat: 39.0997, lon: -94.5786 }, // Kansas City
  { lat: 35.4676, lon: -97.5164 }, // Oklahoma City
  { lat: 36.1627, lon: -86.7816 }, // Nashville
  { lat: 38.627, lon: -90.1994 }, // St. Louis
];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-live-'));
const database = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL, dataDir, poolSize: 10 } : { dataDir });
const config = testConfig({ dataDir, logLevel: 'silent' });
await seed(database.db, { ...config, demo: true }, () => undefined);
const app = await buildApp({ config, database });
const [org] = rowsOf<{ id: string }>(await database.db.execute(sql`select id from organizations where name = 'Demo Freight'`));
const orgId = org!.id;
const routing = routingOf(config);

console.log(`Setting up ${LOADS} vehicles, drivers and running loads (${database.kind})…`);
const vehicles: TestVehicle[] = [];
for (let i = 0; i < LOADS; i++) vehicles.push(await createTestVehicle(app.db, orgId, { uniqueId: `live-${i}`, unitNumber: `LV${i}` }));
const now0 = Date.now();
const HOUR = 3_600_000;
/** Each vehicle's road (pick-up city to delivery city) and how far along it is (m). */
const trips: Array<{ v: TestVehicle; road: RouteLeg; along: number }> = [];
for (let i = 0; i < LOADS; i++) {
  const a = CITIES[i % CITIES.length]!;
  const b = CITIES[(i * 3 + 1 + Math.floor(i / CITIES.length)) % CITIES.length]!;
  const to = a === b ? CITIES[(i + 1) % CITIES.length]! : b;
  const [road] = await routing.route([a, to]);
  trips.push({ v: vehicles[i]!, road: road!, along: (i * 7919) % Math.max(1, Math.floor(road!.metres / 2)) });
}
for (let i = 0; i < LOADS; i += 200) {
  const chunk = trips.slice(i, i + 200);
  const rows = await app.db
    .insert(loads)
    .values(
      chunk.map((t, j) => ({
        organizationId: orgId,
        number: `L-${10_000 + i + j}`,
        customer: 'Bench Foods',
        status: 'EN_ROUTE' as const,
        driverId: t.v.driverId,
        assetId: t.v.assetId,
      })),
    )
    .returning({ id: loads.id });
  await app.db.insert(loadStops).values(
    chunk.flatMap((t, j) => {
      const a = t.road.line[0]!;
      const b = t.road.line[t.road.line.length - 1]!;
      const common = { organizationId: orgId, loadId: rows[j]!.id, serviceMinutes: 60 };
      return [
        {
          ...common,
          seq: 0,
          kind: 'PICKUP' as const,
          latitude: a.lat,
          longitude: a.lon,
          windowStart: new Date(now0 - 4 * HOUR),
          windowEnd: new Date(now0 - 2 * HOUR),
          arrivedAt: new Date(now0 - 4 * HOUR),
          departedAt: new Date(now0 - 3 * HOUR),
        },
        {
          ...common,
          seq: 1,
          kind: 'DELIVERY' as const,
          latitude: b.lat,
          longitude: b.lon,
          windowStart: new Date(now0 + 10 * HOUR),
          windowEnd: new Date(now0 + 20 * HOUR),
        },
      ];
    }),
  );
}

// Next loads already assigned: from where the running one delivers to another city; their pick-up
// opens before the candidates load's, so they are finished first.
if (NEXT_EVERY > 0) {
  const chosen = trips.map((t, i) => ({ t, i })).filter(({ i }) => i % NEXT_EVERY === 0);
  for (let k = 0; k < chosen.length; k += 200) {
    const chunk = chosen.slice(k, k + 200);
    const rows = await app.db
      .insert(loads)
      .values(
        chunk.map(({ t, i }) => ({
          organizationId: orgId,
          number: `L-${20_000 + i}`,
          customer: 'Bench Foods',
          status: 'ASSIGNED' as const,
          driverId: t.v.driverId,
          assetId: t.v.assetId,
        })),
      )
      .returning({ id: loads.id });
    await app.db.insert(loadStops).values(
      chunk.flatMap(({ t, i }, j) => {
        const a = t.road.line[t.road.line.length - 1]!;
        const b = CITIES[(i + 3) % CITIES.length]!;
        const common = { organizationId: orgId, loadId: rows[j]!.id, serviceMinutes: 60 };
        return [
          {
            ...common,
            seq: 0,
            kind: 'PICKUP' as const,
            latitude: a.lat,
            longitude: a.lon,
            windowStart: new Date(now0 + 11 * HOUR),
            windowEnd: new Date(now0 + 30 * HOUR),
          },
          {
            ...common,
            seq: 1,
            kind: 'DELIVERY' as const,
            latitude: b.lat,
            longitude: b.lon,
            windowStart: new Date(now0 + 30 * HOUR),
            windowEnd: new Date(now0 + 48 * HOUR),
          },
        ];
      }),
    );
  }
  console.log(`  ${chosen.length} of them with a next load assigned`);
}

// A week of logs for every bench driver, so plans and candidates judge real clocks: each day a shift
// starting at the driver's own hour, 4 h of driving, a 30-minute break, then 1-6 h more (5-10 h a
// day: the heavier ones run out of their 70-hour cycle), on duty before and after.
await database.db.execute(sql`insert into hos_events (organization_id, driver_id, sequence_id, event_type, event_code, record_origin, event_time, log_date)
  select d.organization_id, d.id, row_number() over (partition by d.id order by e.t), 1, e.code, 2, e.t, (e.t at time zone d.home_time_zone)::date
  from (select dr.*, row_number() over (order by dr.id) as n from drivers dr join assets a on a.current_driver_id = dr.id and a.unit_number like 'LV%') d
  cross join lateral (
    select s + x.off as t, x.code from generate_series(0, 7) as day,
      lateral (select date_trunc('day', now()) - interval '8 days' + day * interval '1 day' + ((d.n * 7) % 24) * interval '1 hour' as s) st,
      lateral (values (interval '0', 4), (interval '30 minutes', 3), (interval '270 minutes', 1), (interval '300 minutes', 3),
                      (interval '300 minutes' + ((d.n % 6) + 1) * interval '1 hour', 4), (interval '330 minutes' + ((d.n % 6) + 1) * interval '1 hour', 1)) as x(off, code)
  ) e
  where e.t < now()`);

/** The point `m` metres along the line. */
function pointAlong(line: LatLon[], m: number): LatLon {
  let left = m;
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1]!;
    const b = line[i]!;
    const x = (b.lon - a.lon) * 111_320 * Math.cos((a.lat * Math.PI) / 180);
    const y = (b.lat - a.lat) * 110_574;
    const d = Math.hypot(x, y);
    if (left <= d) return { lat: a.lat + ((b.lat - a.lat) * left) / (d || 1), lon: a.lon + ((b.lon - a.lon) * left) / (d || 1) };
    left -= d;
  }
  return line[line.length - 1]!;
}

const rowOf = (t: (typeof trips)[number], at: number): PositionRow => {
  const p = pointAlong(t.road.line, t.along);
  return {
    organizationId: orgId,
    gatewayId: t.v.gatewayId,
    assetId: t.v.assetId,
    driverId: t.v.driverId,
    fixTime: new Date(at),
    latitude: p.lat,
    longitude: p.lon,
    speed: 100,
    course: null,
    altitude: null,
    accuracy: null,
    odometer: null,
    odometerSource: null,
    engineHours: null,
    ignition: true,
    protocol: 'batch',
    attributes: {},
  };
};
// Where every vehicle is now, for the first plans (the catch-up reads the latest positions).
await database.db.execute(sql`insert into latest_positions (asset_id, organization_id, gateway_id, driver_id, fix_time, server_time, latitude, longitude)
  select (x->>'a')::uuid, ${orgId}::uuid, (x->>'g')::uuid, (x->>'d')::uuid, now(), now(), (x->>'lat')::float8, (x->>'lon')::float8
  from json_array_elements(${JSON.stringify(trips.map((t) => ({ a: t.v.assetId, g: t.v.gatewayId, d: t.v.driverId, ...pointAlong(t.road.line, t.along) })))}::json) x
  on conflict (asset_id, organization_id) do update set latitude = excluded.latitude, longitude = excluded.longitude, fix_time = excluded.fix_time`);
const live = app.liveEtas;
let t0 = performance.now();
const planned = await live.recompute(orgId);
console.log(`First plans of ${planned} loads (legs routed) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
if (seconds > 0) {
  // The idle stretch: the same process doing nothing but its timers.
  const idleS = Math.min(30, seconds / 3);
  let cpu0 = ownCpuSeconds();
  await sleep(idleS * 1000);
  const idleCpu = (ownCpuSeconds() - cpu0) / idleS;

  const stats0 = { ...live.stats };
  cpu0 = ownCpuSeconds();
  t0 = performance.now();
  // Every vehicle once per 10 s, spread over the 10 s in 1-second batches (as devices report).
  const perSecond = Math.ceil(LOADS / EVERY_S);
  let sent = 0;
  for (let s = 0; s < seconds; s++) {
    const batch = trips.slice((s % EVERY_S) * perSecond, ((s % EVERY_S) + 1) * perSecond);
    const at = Date.now();
    for (const t of batch) t.along = Math.min(t.road.metres, t.along + SPEED_MPS * EVERY_S);
    const rows = batch.map((t) => rowOf(t, at));
    live.enqueue(
      rows,
      rows.map(() => true),
    );
    sent += rows.length;
    await sleep(Math.max(0, (s + 1) * 1000 - (performance.now() - t0)));
  }
  await live.idle();
  const wallS = (performance.now() - t0) / 1000;
  const cpu = (ownCpuSeconds() - cpu0) / wallS;
  const plans = live.stats.plans - stats0.plans;
  const planMs = live.stats.planMs - stats0.planMs;
  console.log(
    `${sent} positions of ${LOADS} running loads in ${wallS.toFixed(0)} s (one per vehicle per ${EVERY_S} s): ${plans} plans in ${live.stats.rounds - stats0.rounds} rounds, ${live.stats.routed - stats0.routed} legs routed again`,
  );
  console.log(`  planner: ${(planMs / Math.max(1, plans)).toFixed(2)} ms a plan`);
  console.log(
    `  CPU: ${(cpu * 100).toFixed(1)} % of one core while following, ${(idleCpu * 100).toFixed(1)} % idle: the live ETAs cost ${((cpu - idleCpu) * 100).toFixed(1)} % of one core`,
  );
  const [check] = rowsOf<{ n: number }>(
    await database.db.execute(
      sql`select count(*)::int as n from loads where organization_id = ${orgId} and eta_updated_at > ${new Date(Date.now() - (seconds + 5) * 1000).toISOString()}::timestamptz`,
    ),
  );
  console.log(`  loads whose ETAs were written during the run: ${check!.n}`);
}

// 2. Candidates for a load among every active driver (the 1,000 above with their positions, and the
//    demo's), through HTTP: the logs, options and positions read in bulk, the best 25 routed exactly.
const { accessToken } = (
  await app.inject({ method: 'POST', url: '/api/v1/auth/authenticate', payload: { email: 'admin@demofreight.test', password: 'DemoAdmin#2026' } })
).json() as { accessToken: string };
const [open] = await app.db.insert(loads).values({ organizationId: orgId, number: 'L-99999', customer: 'Bench Foods' }).returning({ id: loads.id });
await app.db.insert(loadStops).values([
  {
    organizationId: orgId,
    loadId: open!.id,
    seq: 0,
    kind: 'PICKUP',
    latitude: CITIES[0]!.lat,
    longitude: CITIES[0]!.lon,
    windowStart: new Date(now0 + 12 * HOUR),
    windowEnd: new Date(now0 + 16 * HOUR),
    serviceMinutes: 60,
  },
  {
    organizationId: orgId,
    loadId: open!.id,
    seq: 1,
    kind: 'PICKUP',
    latitude: CITIES[5]!.lat,
    longitude: CITIES[5]!.lon,
    windowStart: new Date(now0 + 16 * HOUR),
    windowEnd: new Date(now0 + 24 * HOUR),
    serviceMinutes: 60,
  },
  {
    organizationId: orgId,
    loadId: open!.id,
    seq: 2,
    kind: 'DELIVERY',
    latitude: CITIES[2]!.lat,
    longitude: CITIES[2]!.lon,
    windowStart: new Date(now0 + 30 * HOUR),
    windowEnd: new Date(now0 + 40 * HOUR),
    serviceMinutes: 60,
  },
]);
/** The inspector's CPU profiler on this process (its main thread: the API; not the database thread). */
async function startProfile(): Promise<{ stop(file: string): Promise<void> }> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`  CPU profile of the first request: ${file}`);
    },
  };
}

/** Six requests: the wall time of each and the CPU this process spent on it (the API and its database thread). */
async function candidates(): Promise<{ total: number; busy: number; wall: number[]; cpu: number[] }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let total = 0;
  let busy = 0;
  for (let i = 0; i < 6; i++) {
    // BENCH_CPU_PROFILE=dir: the first request's CPU profile (open it in Chrome's DevTools).
    const profiling = i === 0 && process.env.BENCH_CPU_PROFILE ? await startProfile() : null;
    const c0 = ownCpuSeconds();
    const started = performance.now();
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/loads/${open!.id}/candidates?size=15`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    wall.push(performance.now() - started);
    cpu.push((ownCpuSeconds() - c0) * 1000);
    if (profiling) await profiling.stop(path.join(process.env.BENCH_CPU_PROFILE!, `candidates-first-${Date.now()}.cpuprofile`));
    if (res.statusCode !== 200) throw new Error(res.body);
    const page = res.json() as { totalElements: number; content: Array<{ after: unknown }> };
    total = page.totalElements;
    busy = page.content.filter((c) => c.after).length;
  }
  return { total, busy, wall, cpu };
}
const line = (what: string, r: Awaited<ReturnType<typeof candidates>>) => {
  const warm = r.wall.slice(1).sort((a, b) => a - b);
  const cpuWarm = r.cpu.slice(1).sort((a, b) => a - b);
  const med = warm[Math.floor(warm.length / 2)]!;
  console.log(
    `Candidates among ${r.total} active drivers (3 stops), ${what}: first ${r.wall[0]!.toFixed(0)} ms (CPU ${r.cpu[0]!.toFixed(0)} ms), then median ${med.toFixed(0)} ms (CPU ${cpuWarm[Math.floor(cpuWarm.length / 2)]!.toFixed(0)} ms), worst ${warm[warm.length - 1]!.toFixed(0)} ms; ${r.busy} of the first 15 planned after their loads; ${med < 1000 ? 'PASS' : 'MISS'} (< 1 s)`,
  );
};
console.log(
  `node ${process.version}, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`,
);
const cpuAll0 = ownCpuSeconds();
line('their current and assigned loads taken into account', await candidates());
// The same drivers free: the cost of planning their loads first.
await database.db.execute(
  sql`update loads set status = 'DELIVERED' where organization_id = ${orgId} and status in ('ASSIGNED', 'EN_ROUTE', 'AT_STOP') and id <> ${open!.id}`,
);
line('every load delivered (the drivers free)', await candidates());
console.log(
  `  process CPU over the candidates requests: ${(ownCpuSeconds() - cpuAll0).toFixed(1)} s (one process: the API, its database and this script's requests)`,
);
await app.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
