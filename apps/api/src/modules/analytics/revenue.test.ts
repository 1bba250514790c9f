import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { DEFAULT_ORGANIZATION_SETTINGS, KM_PER_MILE, loadSchema, revenueReportSchema, UNIT_LABELS, type Load, type RevenueReport } from '@fleet/api-contract';
import { pathLengthM } from '@fleet/geo/distance';
import { rowsOf } from '../../db/sql/rows.ts';
import { bearer, createTestApp, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';

// Revenue from delivered loads (issue 33, decision 0166): three loads on two trucks with the
// trucks' positions posted to ingest; the figures are checked against the loads they sum: revenue
// the rate totals, loaded the loads' road distance, deadhead the truck's fixes between its previous
// delivery and the pick-up (the driving during a load not counted), and totals = rows = periods.

let t: TestContext;
let orgId: string;
let userId: string;
let admin: Record<string, string>;
const H = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();
const LAT = 39;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Revenue Carrier');
  orgId = owner.user.organization!.id;
  userId = owner.user.id;
  admin = bearer(owner.accessToken);
});
afterAll(async () => {
  await t?.close();
});

/** Fixes every 5 minutes on the parallel from `lon0` to `lon1` starting at `t0`. */
function drive(t0: number, lon0: number, lon1: number, n: number) {
  return Array.from({ length: n + 1 }, (_, i) => ({ fixTime: at(t0 + i * 5 * 60_000), latitude: LAT, longitude: lon0 + ((lon1 - lon0) * i) / n, speed: 80 }));
}
const lengthKm = (fixes: ReturnType<typeof drive>) => pathLengthM(fixes.map((f) => ({ lat: f.latitude, lon: f.longitude }))) / 1000;

async function ingest(v: TestVehicle, positions: ReturnType<typeof drive>) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: bearer(v.token), payload: { positions } });
  expect(res.statusCode, res.body).toBe(200);
}

/** A load from `lon0` to `lon1` on the truck, run and delivered at the given times. */
async function deliveredLoad(
  v: TestVehicle,
  customer: string,
  lineHaul: number,
  lon0: number,
  lon1: number,
  times: [number, number, number, number],
): Promise<Load> {
  const stop = (kind: string, lon: number, w: number) => ({
    kind,
    latitude: LAT,
    longitude: lon,
    windowStart: at(w - H),
    windowEnd: at(w + H),
    serviceMinutes: 30,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/organizations/${orgId}/loads`,
    headers: admin,
    payload: {
      customer,
      stops: [stop('PICKUP', lon0, times[0]), stop('DELIVERY', lon1, times[2])],
      rate: { lineHaul, fuelSurcharge: 10.05, accessorials: [{ kind: 'LUMPER', amount: 20 }] },
      driverIds: [v.driverId],
      assetId: v.assetId,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const load = loadSchema.parse(res.json());
  const events: Array<[number, 'ARRIVE' | 'DEPART', number]> = [
    [0, 'ARRIVE', times[0]],
    [0, 'DEPART', times[1]],
    [1, 'ARRIVE', times[2]],
    [1, 'DEPART', times[3]],
  ];
  let last = load;
  for (const [i, event, when] of events) {
    const r = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${orgId}/loads/${load.id}/stops/${load.stops[i]!.id}/status`,
      headers: admin,
      payload: { event, at: at(when) },
    });
    expect(r.statusCode, r.body).toBe(200);
    last = loadSchema.parse(r.json());
  }
  expect(last.status).toBe('DELIVERED');
  return last;
}

const sumOf = (list: ReadonlyArray<RevenueReport['totals']>, f: 'loads' | 'revenue' | 'loadedKm' | 'deadheadKm' | 'totalKm') =>
  list.reduce((s, r) => s + r[f], 0);

describe('revenue', () => {
  it('sums delivered loads per truck, driver, customer and lane, with deadhead from positions, and exports CSV', async () => {
    const base = Date.now() - 12 * H;
    const v1 = await createTestVehicle(t.app.db, orgId, { uniqueId: 'rev-1', unitNumber: 'R1' });
    const v2 = await createTestVehicle(t.app.db, orgId, { uniqueId: 'rev-2', unitNumber: 'R2' });
    // Truck 1: empty to the first pick-up, the load, empty to the second pick-up, the load.
    const dead1 = drive(base, -95.4, -95.0, 12);
    const loaded1 = drive(base + 1.5 * H, -95.0, -94.0, 30);
    const dead2 = drive(base + 4.5 * H, -94.0, -93.8, 12);
    await ingest(v1, [...dead1, ...loaded1, ...dead2]);
    // Truck 2 moves only while loaded: no deadhead.
    await ingest(v2, drive(base + 2 * H, -96.0, -95.5, 20));
    const l1 = await deliveredLoad(v1, 'Acme', 1000, -95.0, -94.0, [base + H, base + 1.5 * H, base + 4 * H, base + 4.5 * H]);
    const l2 = await deliveredLoad(v1, 'Globex', 500.5, -93.8, -93.0, [base + 5.5 * H, base + 6 * H, base + 8 * H, base + 8.5 * H]);
    const l3 = await deliveredLoad(v2, 'acme ', 700, -96.0, -95.5, [base + 1.9 * H, base + 2 * H, base + 3.8 * H, base + 4 * H]);
    // Outside the range: delivered after `to`.
    const to = base + 9 * H;

    const report = async (q: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/organizations/${orgId}/analytics/revenue?from=${encodeURIComponent(at(base - H))}&to=${encodeURIComponent(at(to))}&${q}`,
        headers: admin,
      });
      expect(res.statusCode, res.body).toBe(200);
      return revenueReportSchema.parse(res.json());
    };
    const byTruck = await report('groupBy=truck&period=week');
    const loads = [l1, l2, l3];
    expect(byTruck.totals.loads).toBe(3);
    expect(byTruck.totals.revenue).toBeCloseTo(
      loads.reduce((s, l) => s + l.rate.total, 0),
      6,
    );
    expect(l1.rate.total).toBe(1030.05);
    expect(byTruck.totals.loadedKm).toBeCloseTo(
      loads.reduce((s, l) => s + l.loadedKm!, 0),
      3,
    );
    // Deadhead: truck 1's empty legs (the first within 48 h before its pick-up), none for truck 2.
    const r1 = byTruck.rows.find((r) => r.label === 'R1')!;
    const r2 = byTruck.rows.find((r) => r.label === 'R2')!;
    expect(r1.deadheadKm).toBeCloseTo(lengthKm(dead1) + lengthKm(dead2), 1);
    expect(r2.deadheadKm).toBe(0);
    expect(r1.totalKm).toBeCloseTo(r1.loadedKm + r1.deadheadKm, 6);
    expect(r1.revenuePerTotalKm!).toBeCloseTo(r1.revenue / r1.totalKm, 3);
    for (const r of [byTruck]) {
      for (const f of ['loads', 'revenue', 'loadedKm', 'deadheadKm', 'totalKm'] as const) {
        expect(sumOf(r.rows, f)).toBeCloseTo(r.totals[f], 6);
        expect(sumOf(r.series, f)).toBeCloseTo(r.totals[f], 6);
      }
    }
    const byCustomer = await report('groupBy=customer&period=month');
    // 'Acme' and 'acme ' are one customer.
    expect(byCustomer.rows.map((r) => [r.label, r.loads])).toEqual([
      ['Acme', 2],
      ['Globex', 1],
    ]);
    expect(byCustomer.series.map((p) => p.loads).reduce((a, b) => a + b, 0)).toBe(3);
    expect((await report('groupBy=driver')).rows).toHaveLength(2);
    expect((await report('groupBy=lane')).rows).toHaveLength(3);
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/analytics/revenue?from=${encodeURIComponent(at(to))}&to=${encodeURIComponent(at(base))}`,
      headers: admin,
    });
    expectFieldErrors(bad.json(), 400, { to: 'To must be after From' });

    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/analytics/revenue/export?format=csv&groupBy=customer&from=${encodeURIComponent(at(base - H))}&to=${encodeURIComponent(at(to))}`,
      headers: admin,
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const sheet = Papa.parse<string[]>(csv.body).data;
    const units = DEFAULT_ORGANIZATION_SETTINGS.units;
    const u = UNIT_LABELS[units].distance;
    expect(sheet[0]).toEqual([
      'Section',
      'Name',
      'Loads',
      'Revenue (USD)',
      `Loaded (${u})`,
      `Deadhead (${u})`,
      `Total (${u})`,
      `Revenue per loaded ${u} (USD)`,
      `Revenue per ${u} (USD)`,
    ]);
    const total = sheet.find((r) => r[0] === 'Total')!;
    expect(Number(total[3])).toBeCloseTo(byCustomer.totals.revenue, 2);
    expect(Number(total[6])).toBeCloseTo(byCustomer.totals.totalKm / (units === 'IMPERIAL' ? KM_PER_MILE : 1), 0);
  });

  it("puts a load in the week of the reader's profile zone", async () => {
    // Sunday 23:00 in Chicago (the organization's zone) is Monday 18:00 in Auckland: two different weeks.
    const delivered = '2026-11-23T05:00:00Z';
    await t.app.db.execute(`update organizations set time_zone = 'America/Chicago' where id = '${orgId}'` as never);
    const [l] = rowsOf<{ id: string }>(
      await t.app.db.execute(
        `insert into loads (organization_id, number, customer, status, line_haul_cents, delivered_at) values ('${orgId}', 'W-1', 'Weekend Co', 'DELIVERED', 12345, '${delivered}') returning id` as never,
      ),
    );
    await t.app.db.execute(
      `insert into load_stops (organization_id, load_id, seq, kind, latitude, longitude, window_start, window_end, service_minutes) values
        ('${orgId}', '${l!.id}', 0, 'PICKUP', 39, -95, '2026-11-22T10:00:00Z', '2026-11-22T12:00:00Z', 30),
        ('${orgId}', '${l!.id}', 1, 'DELIVERY', 39, -94, '2026-11-23T03:00:00Z', '2026-11-23T06:00:00Z', 30)` as never,
    );
    const weekOf = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/organizations/${orgId}/analytics/revenue?from=2026-11-22T00:00:00Z&to=2026-11-24T00:00:00Z&groupBy=customer&period=week`,
        headers: admin,
      });
      const r = revenueReportSchema.parse(res.json());
      expect(r.totals).toMatchObject({ loads: 1, revenue: 123.45 });
      return [r.timeZone, r.series.map((p) => p.period)];
    };
    expect(await weekOf()).toEqual(['America/Chicago', ['2026-11-16']]);
    await t.app.db.execute(`update users set time_zone = 'Pacific/Auckland' where id = '${userId}'` as never);
    expect(await weekOf()).toEqual(['Pacific/Auckland', ['2026-11-23']]);
  });
});
