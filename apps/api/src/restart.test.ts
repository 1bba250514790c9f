import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Load } from '@fleet/api-contract';
import { DEMO, onServer } from './test/helpers.ts';
import { copies, rewrites, snapshotData, type DataSnapshot, type RowChange } from './test/data-snapshot.ts';
import { freePort, signIn, startServer, type ServerProcess } from './test/server-process.ts';

// Restarts on the demo data (issue 66): a seeding killed midway resumes where it stopped, and a
// restart, by a clean stop or a kill, rewrites nothing already recorded: every load, stop time,
// visit, trip, stop, duty record, safety event, fuel event, IFTA and statistics row keeps its id and values
// (decisions 0238 and 0239). The live simulator drives meanwhile, as `npm start` runs it: new rows
// for the time that passes are expected, and so are open facts going on (a visit departing,
// today's totals growing).

/** The tables of recorded and derived facts compared across restarts. */
const TABLES = [
  'loads',
  'load_stops',
  'load_status_events',
  'place_visits',
  'trips',
  'vehicle_stops',
  'hos_events',
  'hos_logs',
  'safety_events',
  'safety_daily_totals',
  'vehicle_daily_stats',
  'ifta_vehicle_days',
  'ifta_vehicle_months',
  'ifta_distance_days',
  'ifta_distance_months',
  'ifta_crossings',
  'ifta_fuel_purchases',
  'ifta_filings',
  'ifta_flagged_segments',
  'dvirs',
  'vehicle_defects',
  'work_orders',
  'maintenance_schedules',
  'engine_faults',
  'fuel_transactions',
  'fuel_events',
  'messages',
  'places',
  'terminals',
  'users',
  'drivers',
  'assets',
  'notifications',
  'notification_facts',
  'hos_edit_requests',
  'eld_transfers',
  'load_documents',
  'load_document_pages',
  'ifta_adjustments',
  'share_links',
  'load_contacts',
  'load_notices',
  'compliance_items',
  'compliance_item_pages',
  'trailer_sensors',
  'temperature_readings',
  'temperature_excursions',
  'driver_card_reads',
] as const;

/** Derived facts that a recompute must keep, not record again beside the first (their copies are looked for). */
const FACTS = [
  'place_visits',
  'trips',
  'vehicle_stops',
  'safety_events',
  'fuel_events',
  'hos_events',
  'load_status_events',
  'ifta_crossings',
  'engine_faults',
  'dvirs',
  'temperature_excursions',
];

/** How long each restarted server runs before it is stopped: its followers' first rounds after /readyz. */
const SETTLE_MS = 30_000;

const DAY = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Whether a row's change is the fact going on, not a rewrite: `since` is when the server before
 * stopped (what was open then may close; the days and months from the day before on may grow).
 */
function goesOn(since: number): (table: string, b: Record<string, unknown>, a: Record<string, unknown> | null) => boolean {
  const recentDay = dayText(since - 2 * DAY);
  const recentMonth = `${dayText(since - 2 * DAY).slice(0, 7)}-01`;
  const only = (b: Record<string, unknown>, a: Record<string, unknown>, cols: readonly string[]) =>
    Object.keys({ ...b, ...a }).every((c) => cols.includes(c) || JSON.stringify(b[c]) === JSON.stringify(a[c]));
  return (table, b, a) => {
    if (typeof b.day === 'string' && b.day >= recentDay) return true;
    if (typeof b.log_date === 'string' && b.log_date >= recentDay) return true;
    if (typeof b.month === 'string' && b.month >= recentMonth) return true;
    if (a === null) return false;
    switch (table) {
      case 'place_visits':
        return b.departed_at === null && only(b, a, ['departed_at', 'updated_at']);
      case 'vehicle_stops':
        return b.ended_at === null && only(b, a, ['ended_at', 'idle_s', 'engine_on']);
      case 'load_stops':
        // A stop not yet left may be reached or left (live), never moved once recorded.
        return (
          b.departed_at === null &&
          (b.arrived_at === null || b.arrived_at === a.arrived_at) &&
          only(b, a, ['arrived_at', 'departed_at', 'arrival_source', 'departure_source', 'place_visit_id', 'updated_at', 'eta', 'eta_at'])
        );
      case 'safety_events':
        // An event still open as the server stopped (a truck speeding right then) goes on: it ends
        // later, its band's seconds and its top speed grow; where and when it began stays.
        return (
          b.open === true &&
          only(b, a, ['open', 'ended_at', 'band', 'band_seconds', 'severity', 'speed_after_kph', 'max_speed_kph', 'held_speed_kph', 'updated_at'])
        );
      case 'engine_faults':
        // A fault still active as the server stopped (tractor 108's, sent while its engine runs) is
        // seen again, or clears; its code and when it was first seen stay.
        return b.cleared_at === null && only(b, a, ['last_seen_at', 'occurrences', 'lamps', 'cleared_at']);
      case 'loads':
        return b.status !== 'DELIVERED' && only(b, a, ['status', 'delivered_at', 'updated_at', 'at_risk', 'risk_reason', 'eta_updated_at']);
      case 'assets':
      case 'drivers':
      case 'users':
        // Where a truck is, its odometer and engine hours, a sign-in's last time: live state.
        return true;
      case 'notifications':
        return only(b, a, ['read_at', 'seen_at', 'updated_at']);
      default:
        return false;
    }
  };
}

/** The columns that differ, before and after (first in the message: a CI log cuts long lines). */
const changedColumns = (b: Record<string, unknown>, a: Record<string, unknown>) =>
  Object.fromEntries(
    Object.keys({ ...b, ...a })
      .filter((c) => JSON.stringify(b[c]) !== JSON.stringify(a[c]))
      .map((c) => [c, [b[c], a[c]]]),
  );

const describeChanges = (changes: readonly RowChange[]) =>
  changes
    .slice(0, 8)
    .map((c) => `${c.table} ${c.key}: ${c.after === null ? 'deleted' : JSON.stringify(changedColumns(c.before, c.after))} in ${JSON.stringify(c.before)}`)
    .join('\n');

/** Every load with its stops and their times, through HTTP. */
async function loadsOf(server: ServerProcess): Promise<Load[]> {
  const session = await signIn(server, DEMO.admin);
  const orgId = session.user.organization!.id;
  const out: Load[] = [];
  for (let page = 0; ; page++) {
    const res = await fetch(`${server.url}/api/v1/organizations/${orgId}/loads?size=500&page=${page}&sort=number,asc`, {
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { content: Load[]; totalPages: number };
    out.push(...body.content);
    if (page + 1 >= body.totalPages) return out;
  }
}

/** What a load says once recorded: its identity, rate and the stops' windows and times. */
const recorded = (l: Load) => ({
  id: l.id,
  number: l.number,
  customer: l.customer,
  rate: l.rate,
  driver: l.drivers.map((d) => d.id),
  asset: l.asset?.id ?? null,
  delivered: l.deliveredAt,
  stops: l.stops.map((s) => ({ id: s.id, place: s.placeId, window: [s.windowStart, s.windowEnd], arrived: s.arrivedAt, departed: s.departedAt })),
});

/** The loads after a restart against before: the same loads; a stop's time once recorded unchanged. */
function expectLoadsKept(before: readonly Load[], after: readonly Load[]): void {
  expect(after.map((l) => l.number)).toEqual(before.map((l) => l.number));
  for (const [i, b] of before.entries()) {
    const a = recorded(after[i]!);
    const r = recorded(b);
    // A running load's next stop may be reached meanwhile: only what was recorded is compared.
    const stops = r.stops.map((s, k) =>
      s.arrived === null ? { ...a.stops[k]!, arrived: null, departed: null } : s.departed === null ? { ...a.stops[k]!, departed: null } : a.stops[k],
    );
    expect({ ...a, delivered: r.delivered === null ? null : a.delivered, stops }).toEqual(r);
  }
}

let server: ServerProcess | undefined;
let dataDir: string | undefined;
/** Between the tests: the loads and tables after the resumed start, and when that server stopped. */
let state: { loads: Load[]; data: DataSnapshot; stoppedAt: number } | undefined;

const demoEnv = (port: number) => ({ PORT: String(port), DEMO: '1', SIMULATOR: '1', LOG_LEVEL: 'warn' });

describe.skipIf(onServer())('restarts on the demo data (PGlite pass)', () => {
  afterAll(async () => {
    await server?.stop('SIGKILL');
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes a demo seeding killed midway: the parts done are neither made again nor rewritten, and /readyz comes sooner', async () => {
    const port = await freePort();
    const t0 = performance.now();
    server = await startServer({ env: demoEnv(port), until: 'listening', readyTimeoutMs: 600_000 });
    dataDir = server.dataDir;
    // Killed once the week's HoS, safety, maintenance, IFTA and statistics parts are done.
    const until = Date.now() + 900_000;
    while (!/daily statistics of \d+ vehicle days computed/.test(server.output()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const killedAfterS = (performance.now() - t0) / 1000;
    await server.stop('SIGKILL');
    const first = server.output();
    const killed = await snapshotData(dataDir, TABLES);
    const killedAt = Date.now();

    const t1 = performance.now();
    server = await startServer({ env: { ...demoEnv(port), DATA_DIR: dataDir }, readyTimeoutMs: 600_000 });
    const resumedS = (performance.now() - t1) / 1000;
    console.log(`demo seeding killed after ${killedAfterS.toFixed(1)} s (its daily statistics done); the restart ready in ${resumedS.toFixed(1)} s`);
    const second = server.output();
    const loads = await loadsOf(server);
    await server.stop('SIGTERM');
    const stoppedAt = Date.now();
    const data = await snapshotData(dataDir, TABLES);
    // The next test restarts from here whatever this one finds.
    state = { loads, data, stoppedAt };

    expect(first).toMatch(/HoS records for the week derived/);
    expect(first).toMatch(/IFTA \d+ vehicle-days/);
    // The parts done are not made again...
    expect(second).not.toMatch(/HoS records for the week derived/);
    expect(second).not.toMatch(/safety events derived/);
    expect(second).not.toMatch(/inspection reports/);
    expect(second).not.toMatch(/IFTA \d+ vehicle-days/);
    expect(second).not.toMatch(/daily statistics of \d+ vehicle days computed/);
    // ...the rest is: the visits, the loads.
    expect(second).toMatch(/delivered loads/);
    expect(loads.filter((l) => l.status === 'DELIVERED').length).toBeGreaterThan(10);
    // ...nor rewritten.
    const changed = rewrites(killed, data, goesOn(killedAt));
    expect(changed, describeChanges(changed)).toEqual([]);
    const again = copies(killed, data, FACTS);
    expect(again, describeChanges(again)).toEqual([]);
    // Sooner than the first start took to reach where it was killed.
    expect(resumedS).toBeLessThan(killedAfterS);
  }, 1_500_000);

  it('restarts twice on the same data, after a clean stop and after a kill -9, rewriting nothing recorded', async () => {
    expect(state).toBeDefined();
    const port = await freePort();
    const counts: number[] = [state!.loads.length];
    let prev = state!;
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      const t0 = performance.now();
      server = await startServer({ env: { ...demoEnv(port), DATA_DIR: dataDir! }, readyTimeoutMs: 600_000 });
      const readyS = (performance.now() - t0) / 1000;
      // The followers' rounds go on after /readyz: what they recompute then must keep the record too.
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const loads = await loadsOf(server);
      counts.push(loads.length);
      console.log(`restart ready in ${readyS.toFixed(1)} s: ${loads.length} loads; stopping with ${signal}`);
      expectLoadsKept(prev.loads, loads);
      await server.stop(signal);
      const stoppedAt = Date.now();
      const data = await snapshotData(dataDir!, TABLES);
      const changed = rewrites(prev.data, data, goesOn(prev.stoppedAt));
      expect(changed, describeChanges(changed)).toEqual([]);
      const again = copies(prev.data, data, FACTS);
      expect(again, describeChanges(again)).toEqual([]);
      prev = { loads, data, stoppedAt };
    }
    console.log(`loads after the resumed start and two restarts: ${counts.join('/')}`);
  }, 1_200_000);
});
