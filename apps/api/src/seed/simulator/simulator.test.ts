import { jurisdictionAt } from '@fleet/geo/jurisdictions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, login, type TestContext } from '../../test/helpers.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { backfillDemoHistory, ensureDemoTrucks, findDemoTrucks } from './demo-fleet.ts';
import { osmandQuery } from './poster.ts';
import { distanceM, pathLengthM, type LatLon } from '@fleet/geo';
import { CITIES, roadGeometry, ROADS } from './network.ts';
import { roadPath, TruckPlan, warmUp } from './truck-plan.ts';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 20, 12);

describe('truck plan', () => {
  it('is deterministic: two plans of the same truck agree at any time', () => {
    const a = new TruckPlan(3);
    const b = new TruckPlan(3);
    for (let t = now - 7 * DAY; t < now; t += 3_600_000) expect(a.stateAt(t)).toEqual(b.stateAt(t));
    expect(new TruckPlan(4).stateAt(now)).not.toEqual(a.stateAt(now));
  });

  it('warms a plan up to now in steps that let the event loop turn, and leaves it where a direct walk would', async () => {
    const warmed = new TruckPlan(5);
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    await warmUp([warmed], now);
    clearInterval(ticker);
    // Ten months a week at a time: the event loop turned between the steps.
    expect(turns).toBeGreaterThan(10);
    expect(warmed.stateAt(now)).toEqual(new TruckPlan(5).stateAt(now));
  });

  it('answers a time before the segments it keeps, after looking days ahead dropped the old ones', () => {
    const plan = new TruckPlan(9);
    const before = plan.stateAt(now);
    // A load's dock time: segment by segment up to five days ahead (over a thousand segments).
    let seg = plan.segmentAt(now);
    while (seg.end < now + 5 * DAY) seg = plan.segmentAt(seg.end);
    expect(plan.stateAt(now)).toEqual(before);
    expect(plan.stateAt(now - DAY)).toEqual(new TruckPlan(9).stateAt(now - DAY));
  });

  it('drives at highway speed, rests, crosses state lines and moves on the odometer over a week', () => {
    const plan = new TruckPlan(7);
    const states = new Set<string>();
    let drivingMin = 0;
    let parkedMin = 0;
    let firstOdo = 0;
    let lastOdo = 0;
    for (let t = now - 7 * DAY; t < now; t += 60_000) {
      const s = plan.stateAt(t);
      if (!firstOdo) firstOdo = s.odometer;
      lastOdo = s.odometer;
      if (s.kind === 'DRIVE') {
        drivingMin++;
        expect(s.speed).toBeGreaterThan(85);
        expect(s.speed).toBeLessThan(112);
        expect(s.ignition).toBe(true);
      }
      if (s.kind === 'PARK') {
        parkedMin++;
        expect(s.ignition).toBe(false);
      }
      if (t % 1_800_000 === 0) {
        const j = jurisdictionAt(s.lat, s.lon);
        if (j) states.add(j.code);
      }
    }
    expect(states.size).toBeGreaterThan(2);
    // Never more than 11 of 24 hours driving on average, and plenty of it.
    expect(drivingMin / (7 * 24 * 60)).toBeLessThan(11 / 24);
    expect(drivingMin / (7 * 24 * 60)).toBeGreaterThan(0.2);
    expect(parkedMin).toBeGreaterThan(0);
    expect((lastOdo - firstOdo) / 1000).toBeCloseTo((drivingMin / 60) * 99, -3);
  });

  it('routes along the interstate network', () => {
    // I-40 and I-44 rather than I-10: the shorter road distance.
    expect(roadPath('LAX', 'DFW')).toEqual(['LAX', 'BAR', 'FLG', 'ABQ', 'AMA', 'OKC', 'DFW']);
    const path = roadPath('SEA', 'JAX');
    for (let i = 1; i < path.length; i++) {
      expect(ROADS.some(([a, b]) => (a === path[i - 1] && b === path[i]) || (b === path[i - 1] && a === path[i]))).toBe(true);
    }
    expect(roadPath('CHI', 'CHI')).toEqual(['CHI']);
  });

  it('drives each link along its road polyline, not the straight line between the cities', () => {
    // Every driving position lies on the road geometry of some link (either direction).
    const k = Math.cos((40 * Math.PI) / 180);
    const offM = (p: LatLon, a: LatLon, b: LatLon): number => {
      const dx = (b.lon - a.lon) * k;
      const dy = b.lat - a.lat;
      const len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.max(0, Math.min(1, ((p.lon - a.lon) * k * dx + (p.lat - a.lat) * dy) / len2)) : 0;
      return Math.hypot((a.lon + t * (b.lon - a.lon) - p.lon) * k, a.lat + t * dy - p.lat) * 111_000;
    };
    const pieces = ROADS.flatMap(([a, b]) => [roadGeometry(a, b), roadGeometry(b, a)]).flatMap((g) => g.slice(1).map((q, i) => [g[i]!, q] as const));
    const plan = new TruckPlan(11);
    let driving = 0;
    for (let t = now - 3 * DAY; t < now; t += 1_800_000) {
      const s = plan.stateAt(t);
      if (s.kind !== 'DRIVE') continue;
      driving++;
      expect(Math.min(...pieces.map(([a, b]) => offM(s, a, b)))).toBeLessThan(5);
    }
    expect(driving).toBeGreaterThan(20);
    // The road from Los Angeles to Barstow (I-15 over Cajon Pass) is longer than the chord and leaves it.
    const road = roadGeometry('LAX', 'BAR');
    const chord = distanceM(CITIES.LAX!, CITIES.BAR!);
    expect(pathLengthM(road) / chord).toBeGreaterThan(1.03);
    expect(pathLengthM(road) / chord).toBeLessThan(1.4);
    expect(Math.max(...road.map((p) => offM(p, CITIES.LAX!, CITIES.BAR!)))).toBeGreaterThan(5000);
  });

  it('posts what a Traccar Client would: knots, epoch seconds, ignition and odometer', () => {
    const q = new URLSearchParams(
      osmandQuery('demo-truck-01', 1_700_000_000_500, {
        lat: 35.1,
        lon: -101.2,
        speed: 100,
        course: 90,
        ignition: true,
        odometer: 1234.6,
        engineMs: 0,
        kind: 'DRIVE',
        sinceFuelM: 0,
        segmentStart: 1_700_000_000_000,
      }),
    );
    expect(Object.fromEntries(q)).toMatchObject({ id: 'demo-truck-01', timestamp: '1700000000', speed: '54.00', ignition: 'true', odometer: '1235' });
  });
});

describe('demo history backfill', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("writes the demo trucks' history once: running it again adds nothing", async () => {
    const orgId = (await login(t.app, DEMO.admin)).user.organization!.id;
    await ensureDemoTrucks(t.app.db, orgId);
    await ensureDemoTrucks(t.app.db, orgId);
    const trucks = await findDemoTrucks(t.app.db);
    expect(trucks.map((x) => x.uniqueId)).toHaveLength(25);
    expect(trucks[0]).toMatchObject({ uniqueId: 'demo-truck-01', index: 1, orgId });
    const two = trucks.slice(0, 2);
    const until = Date.now();
    const first = await backfillDemoHistory(t.app.db, two, until, 1);
    expect(first).toBeGreaterThan(2 * 288);
    expect(await backfillDemoHistory(t.app.db, two, until, 1)).toBe(0);
    const [n] = rowsOf<{ n: number; units: number }>(
      await t.app.db.execute(`select count(*)::int as n, count(distinct asset_id)::int as units from positions where protocol = 'simulator'` as never),
    );
    expect(n).toEqual({ n: first, units: 2 });
  });
});
