import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverInputSchema, isValidVin, trailerInputSchema, vehicleInputSchema } from '@fleet/api-contract';
import { violationPageSchema } from '@fleet/api-contract';
import { bearer, createTestApp, DEMO, login, type TestContext } from '../test/helpers.ts';
import { backfillDemoHistory, findDemoTrucks } from './simulator/demo-fleet.ts';
import { seedDemoHos } from './simulator/demo-hos.ts';
import { seed } from './seed.ts';
import { DEMO_DEVICE_IDS } from './demo-fleet.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const rows = async <T>(q: string) => ((await t.database.db.execute(q as never)) as unknown as { rows: T[] }).rows;

describe('demo fleet seed', () => {
  it('pairs the demo devices (demo-truck-NN, five Teltonika IMEIs) with units 101..125, each with its own driver, open history rows agreeing', async () => {
    const pairs = await rows<{ unique_id: string; unit_number: string; driver: string | null }>(
      `select g.unique_id, a.unit_number, a.current_driver_id as driver from gateways g join assets a on a.id = g.asset_id order by a.unit_number`,
    );
    expect(pairs.map((p) => [p.unique_id, p.unit_number])).toEqual(DEMO_DEVICE_IDS.map((id, i) => [id, String(101 + i)]));
    expect(new Set(pairs.map((p) => p.driver)).size).toBe(25);
    const [open] = await rows<{ pairings: number; assignments: number; attachments: number }>(
      `select (select count(*)::int from gateway_pairings where unpaired_at is null) as pairings,
              (select count(*)::int from asset_driver_assignments a join assets v on v.id = a.asset_id and v.current_driver_id = a.driver_id where a.ended_at is null) as assignments,
              (select count(*)::int from trailer_attachments where detached_at is null) as attachments`,
    );
    expect(open).toEqual({ pairings: 25, assignments: 25, attachments: 8 });
  });

  it('holds records the add forms would accept: valid VINs, states, rulesets', async () => {
    const assets = await rows<Record<string, unknown>>(`select type, unit_number, vin, make, model, year, plate, plate_state, fuel_type, trailer_type, length_m from assets`);
    expect(assets).toHaveLength(37);
    for (const a of assets) {
      expect(isValidVin(String(a.vin)), String(a.vin)).toBe(true);
      const input = { unitNumber: a.unit_number, vin: a.vin, make: a.make, model: a.model, year: a.year, plate: a.plate, plateState: a.plate_state };
      const parsed = a.type === 'VEHICLE' ? vehicleInputSchema.safeParse({ ...input, type: 'VEHICLE', fuelType: a.fuel_type }) : trailerInputSchema.safeParse({ ...input, type: 'TRAILER', trailerType: a.trailer_type, lengthM: a.length_m });
      expect(parsed.success, JSON.stringify(a)).toBe(true);
    }
    const drivers = await rows<Record<string, string>>(`select first_name, last_name, email, license_number, license_state, home_time_zone, ruleset from drivers`);
    expect(drivers).toHaveLength(25);
    for (const d of drivers) {
      const parsed = driverInputSchema.safeParse({ firstName: d.first_name, lastName: d.last_name, email: d.email, licenseNumber: d.license_number, licenseState: d.license_state, homeTimeZone: d.home_time_zone, ruleset: d.ruleset });
      expect(parsed.success, JSON.stringify(d)).toBe(true);
    }
    expect(new Set(drivers.map((d) => d.license_state)).size).toBeGreaterThan(5);
    expect(drivers.filter((d) => d.ruleset === 'US_PROPERTY_70_8').length).toBeGreaterThan(18);
  });

  it('does nothing when run again', async () => {
    await seed(t.database.db, { ...t.config, demo: true }, () => undefined);
    const [counts] = await rows<{ assets: number; drivers: number; gateways: number; groups: number }>(
      `select (select count(*)::int from assets) as assets, (select count(*)::int from drivers) as drivers, (select count(*)::int from gateways) as gateways, (select count(*)::int from groups) as groups`,
    );
    expect(counts).toEqual({ assets: 37, drivers: 25, gateways: 25, groups: 2 });
  });

  it('gives every driver a week of HoS logs derived from the history, with violations and uncertified days', async () => {
    const session = await login(t.app, DEMO.admin);
    const orgId = session.user.organization!.id;
    const trucks = (await findDemoTrucks(t.app.db)).filter((x) => x.orgId === orgId);
    const now = Date.now();
    await backfillDemoHistory(t.app.db, trucks, now);
    expect(await seedDemoHos(t.app.db, orgId, trucks, now - 7 * 86_400_000, now)).toBeGreaterThan(1000);
    const perDriver = await rows<{ days: number; certified: number; uncertified_past: number; documents: number; trailers: number }>(
      `select count(*)::int as days, count(certified_at)::int as certified,
              count(*) filter (where certified_at is null and log_date < (select max(log_date) from hos_logs))::int as uncertified_past,
              count(*) filter (where cardinality(shipping_documents) > 0)::int as documents, count(*) filter (where cardinality(trailer_ids) > 0)::int as trailers
       from hos_logs group by driver_id`,
    );
    expect(perDriver).toHaveLength(25);
    for (const d of perDriver) expect(d.days).toBeGreaterThanOrEqual(7);
    const total = (k: keyof (typeof perDriver)[number]) => perDriver.reduce((n, d) => n + d[k], 0);
    expect(total('certified')).toBeGreaterThan(100);
    expect(total('uncertified_past')).toBeGreaterThan(3);
    expect(total('documents')).toBeGreaterThan(50);
    expect(total('trailers')).toBeGreaterThan(50);
    // Drivers record their own off-duty and sleeper-berth time; the automatic records carry a place.
    const [kinds = { off: 0, sb: 0, d: 0, located: 0, certifications: -1 }] = await rows<{ off: number; sb: number; d: number; located: number; certifications: number }>(
      `select count(*) filter (where event_type = 1 and event_code = 1 and record_origin = 2)::int as off,
              count(*) filter (where event_type = 1 and event_code = 2 and record_origin = 2)::int as sb,
              count(*) filter (where event_type = 1 and event_code = 3 and record_origin = 1)::int as d,
              count(*) filter (where event_type = 1 and record_origin = 1 and location_description is not null)::int as located,
              count(*) filter (where event_type = 4)::int as certifications
       from hos_events`,
    );
    expect(kinds.off).toBeGreaterThan(25);
    expect(kinds.sb).toBeGreaterThan(25);
    expect(kinds.d).toBeGreaterThan(100);
    expect(kinds.located).toBeGreaterThan(kinds.d);
    expect(kinds.certifications).toBe(total('certified'));
    const from = new Date(now - 8 * 86_400_000).toISOString();
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/violations?from=${from}&to=${new Date(now).toISOString()}&size=500`, headers: bearer(session.accessToken) });
    const violations = violationPageSchema.parse(res.json());
    expect(violations.totalElements).toBeGreaterThan(2);
    expect(violations.totalElements).toBeLessThan(100);
    expect(new Set(violations.content.map((v) => v.rule))).toContain('WINDOW_LIMIT');
    // Once: a second start writes nothing more.
    expect(await seedDemoHos(t.app.db, orgId, trucks, now - 7 * 86_400_000, now)).toBe(0);
  });
});
