// Driver safety (issue 47): the speed-limit lookup per fix (target 5 µs), the safety follower's work per
// fix with 1,000 vehicles at 1 Hz against ingest's CPU per position (target 5 %), and scores for 1,000
// drivers over 4 weeks through the API (target 500 ms).
// Run: node --import tsx bench/safety.ts      (DATABASE_URL=postgres://…/emptydb for PostgreSQL)
//
// The follower is measured apart, as IFTA miles were: its in-memory path (reading a fix's signals, the
// limit at it, the state machine) over 1,000 vehicles × 120 s of 1 Hz highway fixes, and its writes
// (the events those fixes make, upserted per round as the follower does) on the database; the sum per
// fix is compared with ingest's CPU per position measured by bench/telematics.ts (docs/benchmarks/queries.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { DEFAULT_SAFETY_SETTINGS } from '@fleet/api-contract';
import { highwayNetwork } from '@fleet/geo/highways';
import { locateJurisdiction } from '@fleet/geo/jurisdictions';
import { speedLimitIndex } from '@fleet/geo/speed-limits';
import { buildApp } from '../apps/api/src/app.ts';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { rowsOf } from '../apps/api/src/db/sql/rows.ts';
import { refreshTripDailyTotals } from '../apps/api/src/db/sql/trip-daily-totals.ts';
import {
  blankSafetyTrack,
  draftKey,
  openDrafts,
  stepSafety,
  type EventDraft,
  type MachineContext,
  type SafetyTrack,
} from '../apps/api/src/modules/safety/safety-machine.ts';
import { upsertEvents } from '../apps/api/src/modules/safety/safety.repository.ts';
import { signalsOf } from '../apps/api/src/modules/safety/signals.ts';
import { seed } from '../apps/api/src/seed/seed.ts';

const VEHICLES = 1000;
const SECONDS = 120;
const DRIVERS = 1000;
/** Ingest's CPU per position (API + database, µs), JSON batches of 1,000 on PostgreSQL: docs/benchmarks/citus.md, issue 34 (12 + 16 µs). */
const INGEST_US_PER_POSITION = Number(process.env.INGEST_US ?? 28);

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// 1. The lookup, along the bundled highways (where trucks are): a first pass (cells worked out) and a
// second. The indexes are built first (once a process, at start-up: not a cost per fix).
const tb = performance.now();
const limits = speedLimitIndex();
locateJurisdiction(41.88, -87.63);
const buildMs = performance.now() - tb;
const pts: number[] = [];
for (const pc of highwayNetwork().pieces) {
  for (let i = 1; i < pc.points.length; i++) {
    const [ax, ay] = pc.points[i - 1]!;
    const [bx, by] = pc.points[i]!;
    for (let s = 0; s < 1; s += 0.05) pts.push(ay + (by - ay) * s, ax + (bx - ax) * s);
  }
}
let found = 0;
let t0 = performance.now();
for (let i = 0; i < pts.length; i += 2) if (limits.at(pts[i]!, pts[i + 1]!, true)) found++;
const firstUs = ((performance.now() - t0) * 1000) / (pts.length / 2);
t0 = performance.now();
for (let i = 0; i < pts.length; i += 2) if (limits.at(pts[i]!, pts[i + 1]!, true)) found++;
const warmUs = ((performance.now() - t0) * 1000) / (pts.length / 2);
console.log(
  `speed-limit lookup: indexes built once in ${buildMs.toFixed(0)} ms; ${pts.length / 2} fixes along the bundled highways, first pass ${firstUs.toFixed(2)} µs a fix, again ${warmUs.toFixed(2)} µs (target 5 µs); ${((found / pts.length) * 100).toFixed(0)} % with a limit`,
);

// 2. The follower's in-memory path: 1,000 vehicles at 1 Hz driving along the bundled highways at
// their speed, some over the limit, a few braking hard. A first 120 s warms the JIT up (reported as
// "cold"); the next 120 s, the vehicles driving on into cells not seen yet, are the steady state.
const net = highwayNetwork().pieces.filter((p) => p.points.length >= 4 && p.metres > 10_000);
const ctxOf = (): MachineContext => ({
  settings: DEFAULT_SAFETY_SETTINGS,
  thresholds: DEFAULT_SAFETY_SETTINGS.thresholds.HEAVY,
  gpsHarsh: true,
  limitAt: (lat, lon) => limits.at(lat, lon, true),
  inYard: () => false,
});
const ctx = ctxOf();
const tracks: SafetyTrack[] = Array.from({ length: VEHICLES }, () => blankSafetyTrack());
const attrs: Array<Record<string, unknown>> = [{}, { ignition: true }, { ignition: true, motion: true, power: 13.8 }];
const base = Date.UTC(2026, 10, 2, 12);
const drafts: Array<{ assetId: string; draft: EventDraft }> = [];
const ids = Array.from({ length: VEHICLES }, (_, v) => `00000000-0000-4000-8000-${String(v).padStart(12, '0')}`);
/** Each vehicle's place on its piece: the segment and the point on it. */
const at = Array.from({ length: VEHICLES }, (_, v) => {
  const piece = net[(v * 7) % net.length]!;
  return { piece, seg: 0, lon: piece.points[0]![0], lat: piece.points[0]![1] };
});
function drive(p: (typeof at)[number], metres: number): void {
  while (metres > 0 && p.seg < p.piece.points.length - 1) {
    const [nx, ny] = p.piece.points[p.seg + 1]!;
    const kx = 111_320 * Math.cos((p.lat * Math.PI) / 180);
    const d = Math.hypot((nx - p.lon) * kx, (ny - p.lat) * 110_574);
    if (d <= metres) {
      metres -= d;
      p.lon = nx;
      p.lat = ny;
      p.seg++;
    } else {
      p.lon += ((nx - p.lon) * metres) / d;
      p.lat += ((ny - p.lat) * metres) / d;
      metres = 0;
    }
  }
}
let fixes = 0;
const lats = new Float64Array(VEHICLES * SECONDS);
const lons = new Float64Array(VEHICLES * SECONDS);
const speedOf = (v: number, s: number, from: number) => {
  const cruise = 95 + (v % 7) * 5; // 95-125 km/h: some over 70 mph.
  // One vehicle in ten brakes hard at 90 s into the pass.
  return v % 10 === 0 && s - from >= 90 && s - from < 96 ? Math.max(20, cruise - (s - from - 89) * 20) : cruise;
};
/** One pass of SECONDS at 1 Hz; the positions are worked out first, so only the follower's work is timed. Returns its CPU ms. */
function pass(from: number, keep: boolean): number {
  for (let v = 0; v < VEHICLES; v++) {
    for (let s = from; s < from + SECONDS; s++) {
      lats[v * SECONDS + s - from] = at[v]!.lat;
      lons[v * SECONDS + s - from] = at[v]!.lon;
      drive(at[v]!, speedOf(v, s, from) / 3.6);
    }
  }
  const c0 = cpu();
  for (let v = 0; v < VEHICLES; v++) {
    const latest = new Map<string, EventDraft>();
    for (let s = from; s < from + SECONDS; s++) {
      const sig = signalsOf(attrs[s % attrs.length]!, false);
      const i = v * SECONDS + s - from;
      const fix = {
        t: base + s * 1000,
        lat: lats[i]!,
        lon: lons[i]!,
        speed: speedOf(v, s, from),
        ignition: true,
        driverId: null,
        signals: sig.signals,
        idling: sig.idling,
        fuelUsedL: sig.fuelUsedL,
      };
      for (const d of stepSafety(tracks[v]!, fix, ctx)) latest.set(draftKey(d), d);
      if (keep) fixes++;
    }
    // The round's end: episodes under way as they stand.
    for (const d of openDrafts(tracks[v]!, ctx)) latest.set(draftKey(d), d);
    if (keep) for (const draft of latest.values()) drafts.push({ assetId: ids[v]!, draft });
  }
  return cpu() - c0;
}
const coldCpuMs = pass(0, false);
const machineCpuMs = pass(SECONDS, true);

// The database: the writes those fixes make, and the scores.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-safety-'));
const database = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL, dataDir, poolSize: 10 } : { dataDir });
const config = testConfig({ dataDir, logLevel: 'silent' });
const app = await buildApp({ config, database });
await seed(database.db, { ...config, demo: true }, () => undefined);
await app.ready();
try {
  const db = database.db;
  const [{ id: orgId } = { id: '' }] = rowsOf<{ id: string }>(await db.execute(sql`select id from organizations where name = 'Demo Freight'`));
  // On PostgreSQL the server's CPU counts too: its backends of this database, read from /proc (a local server).
  const serverCpuMs = async (): Promise<number> => {
    if (!process.env.DATABASE_URL) return 0;
    const pids = rowsOf<{ pid: number }>(await db.execute(sql`select pid from pg_stat_activity where datname = current_database()`));
    let ticks = 0;
    for (const { pid } of pids) {
      try {
        const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        ticks += Number(f[11]) + Number(f[12]);
      } catch {
        // A backend that ended meanwhile.
      }
    }
    return ticks * 10; // USER_HZ 100
  };
  const sv0 = await serverCpuMs();
  const w0 = cpu();
  const wt = performance.now();
  // The follower upserts each round's drafts in one statement per organization: here every 10 s of fixes (the rounds' pause is 1 s; fewer, larger rounds cost less).
  const perRound = Math.ceil(drafts.length / (SECONDS / 10));
  for (let i = 0; i < drafts.length; i += perRound) await upsertEvents(db, orgId, drafts.slice(i, i + perRound));
  const writeMs = performance.now() - wt;
  const writeCpuMs = cpu() - w0;
  const writeServerMs = (await serverCpuMs()) - sv0;
  const usPerFix = ((machineCpuMs + writeCpuMs + writeServerMs) * 1000) / fixes;
  console.log(
    `follower: ${VEHICLES} vehicles × ${SECONDS} s at 1 Hz = ${fixes} fixes (after ${SECONDS} s warming up: ${((coldCpuMs * 1000) / fixes).toFixed(2)} µs a fix cold); in memory ${machineCpuMs.toFixed(0)} ms CPU (${((machineCpuMs * 1000) / fixes).toFixed(2)} µs a fix); ` +
      `${drafts.length} events written in ${writeMs.toFixed(0)} ms wall, ${writeCpuMs.toFixed(0)} ms CPU of this process${process.env.DATABASE_URL ? ` + ${writeServerMs.toFixed(0)} ms of the PostgreSQL backends` : ' (the embedded database runs in it)'} -> ${usPerFix.toFixed(2)} µs a fix, ` +
      `${((usPerFix / INGEST_US_PER_POSITION) * 100).toFixed(1)} % of ingest's ${INGEST_US_PER_POSITION} µs a position (target 5 %)`,
  );

  // 3. Scores: 1,000 drivers, 4 weeks of trips (2 a day) and events (about 15 each).
  await db.execute(
    sql`insert into drivers (organization_id, first_name, last_name) select ${orgId}, 'Bench', 'Driver ' || g from generate_series(1, ${DRIVERS}) g`,
  );
  const drivers = rowsOf<{ id: string }>(await db.execute(sql`select id from drivers where organization_id = ${orgId} and first_name = 'Bench'`));
  const [asset] = rowsOf<{ id: string }>(await db.execute(sql`select id from assets where organization_id = ${orgId} and type = 'VEHICLE' limit 1`));
  const to = Date.now();
  const from = to - 28 * 86_400_000;
  await db.execute(sql`insert into trips (organization_id, asset_id, driver_id, started_at, ended_at, start_lat, start_lon, end_lat, end_lon, distance_m, max_speed_kmh, avg_speed_kmh)
    select ${orgId}, ${asset!.id}::uuid, d.id, ${new Date(from).toISOString()}::timestamptz + (g * interval '12 hours'), ${new Date(from).toISOString()}::timestamptz + (g * interval '12 hours') + interval '4 hours',
      41, -87, 41, -88, 300000 + random() * 200000, 110, 95
    from drivers d cross join generate_series(0, 55) g where d.organization_id = ${orgId} and d.first_name = 'Bench'`);
  // What the trips writer does after writing a vehicle's trips (decision 0199).
  await refreshTripDailyTotals(db, orgId, JSON.stringify([{ asset_id: asset!.id, from_at: new Date(from - 86_400_000).toISOString() }]));
  await db.execute(sql`insert into safety_events (organization_id, asset_id, driver_id, type, source, severity, status, started_at, ended_at, latitude, longitude, band, band_seconds)
    select ${orgId}, gen_random_uuid(), d.id, (array['HARSH_BRAKING','HARSH_ACCELERATION','SPEEDING','IDLING','HARSH_CORNERING'])[1 + g % 5], 'DEVICE', 'MEDIUM', (array['NEW','NEW','DISMISSED','COACHED'])[1 + g % 4],
      ${new Date(from).toISOString()}::timestamptz + (g * interval '43 hours'), ${new Date(from).toISOString()}::timestamptz + (g * interval '43 hours') + interval '90 seconds', 41, -87,
      case when g % 5 = 2 then 'MODERATE' end, case when g % 5 = 2 then '{"LIGHT": 30, "MODERATE": 60}'::jsonb end
    from drivers d cross join generate_series(0, 14) g where d.organization_id = ${orgId} and d.first_name = 'Bench'`);
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/authenticate',
    payload: { email: config.demoAdmin.email, password: config.demoAdmin.password },
  });
  const headers = { authorization: `Bearer ${login.json().accessToken}` };
  const url = `/api/v1/organizations/${orgId}/safety/scores?groupBy=driver&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
  const times: number[] = [];
  const s0 = cpu();
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    const res = await app.inject({ method: 'GET', url, headers });
    times.push(performance.now() - t);
    if (res.statusCode !== 200) throw new Error(`scores: ${res.statusCode} ${res.body}`);
    if (i === 0)
      console.log(
        `scores: ${res.json().rows.length} rows, fleet score ${res.json().fleet.score}, ${drivers.length} bench drivers, ${drivers.length * 56} trips, ${drivers.length * 15} events`,
      );
  }
  times.sort((x, y) => x - y);
  console.log(
    `scores for ${DRIVERS} drivers over 4 weeks (through the API): median ${times[3]!.toFixed(0)} ms, best ${times[0]!.toFixed(0)} ms, worst ${times[6]!.toFixed(0)} ms (target 500 ms); CPU of this process ${((cpu() - s0) / 7).toFixed(0)} ms a request`,
  );
} finally {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
