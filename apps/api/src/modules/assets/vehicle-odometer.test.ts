import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEldFile } from '@fleet/eld';
import { assetDetailSchema, assetPageSchema, hosEventDetailSchema, hosLogDaySchema, maintenanceNextSchema } from '@fleet/api-contract';
import { rowsOf } from '../../db/sql/rows.ts';
import { bearer, createTestApp, login, type TestContext } from '../../test/helpers.ts';
import { registryActors, vehicleBody } from '../../test/registry.ts';

// Issue 66: one odometer per vehicle. Tractor 101's engine reports 716,398.7 mi while 433,177 mi was
// entered on it: its page, the driver's log, the ELD output file and the maintenance schedule all
// read the engine's, through HTTP.

const MILE_M = 1609.344;
const ENGINE_MI = 716_398.7;
const ENTERED_MI = 433_177;

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
let driver: { headers: Record<string, string>; driverId: string; userId: string };
let truckId: string;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const org = (rest: string) => `/api/v1/organizations/${a.orgId}${rest}`;

beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
  const s = await login(t.app, { email: 'driver@demofreight.test', password: 'Driver#2026' }, '10.66.0.1');
  driver = { headers: bearer(s.accessToken), driverId: s.user.driverId!, userId: s.user.id };
  const [truck] = await sql<{ id: string; unique_id: string }>(
    `select a.id, g.unique_id from assets a join gateways g on g.asset_id = a.id and g.organization_id = a.organization_id where a.organization_id = '${a.orgId}' and a.current_driver_id = '${driver.driverId}'`,
  );
  truckId = truck!.id;
  await sql(`update assets set odometer_m = ${ENTERED_MI * MILE_M} where id = '${truckId}'`);
  // The engine's odometer on the device's last fixes, standing at the yard.
  const now = Date.now();
  for (const [i, ago] of [90_000, 60_000, 30_000].entries()) {
    const metres = Math.round((ENGINE_MI - 0.2 + i * 0.1) * MILE_M);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/ingest/osmand?id=${truck!.unique_id}&timestamp=${Math.floor((now - ago) / 1000)}&lat=41.6&lon=-88.1&speed=0&ignition=true&vehicleOdometer=${metres}&engineHours=25000`,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(() => t?.close());

describe("a vehicle's odometer", () => {
  it("is the engine's on the vehicle's page, the driver's log, the ELD file and the maintenance schedule", async () => {
    // The page: the engine's, said so, not the one entered.
    const page = assetDetailSchema.parse((await t.app.inject({ method: 'GET', url: org(`/assets/${truckId}`), headers: a.admin })).json());
    expect(page.currentOdometer).toMatchObject({ source: 'ENGINE' });
    const km = page.currentOdometer!.km;
    expect(km / 1.609344).toBeCloseTo(ENGINE_MI, 0);
    expect(page.odometerKm! / 1.609344).toBeCloseTo(ENTERED_MI, 0);

    // The vehicles list: the same figure as the page, not the one entered.
    const list = assetPageSchema.parse((await t.app.inject({ method: 'GET', url: org('/assets?type=VEHICLE&size=100'), headers: a.admin })).json());
    const row = list.content.find((r) => r.id === truckId)!;
    expect(row.currentOdometer).toEqual(page.currentOdometer);

    // The log: the driver goes on duty; the event carries the vehicle's odometer.
    const day = hosLogDaySchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/users/${driver.userId}/hos_log/current-day`), headers: driver.headers })).json(),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: org(`/users/${driver.userId}/hos_log/${day.id}/hos_event`),
      headers: driver.headers,
      payload: { status: 'ON' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const event = hosEventDetailSchema.parse(res.json());
    expect(event.odometerM! / 1000).toBeCloseTo(km, 1);
    const office = hosLogDaySchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/drivers/${driver.driverId}/hos_log/current-day`), headers: a.admin })).json(),
    );
    expect(office.events.find((e) => e.id === event.id)!.odometerM! / 1000).toBeCloseTo(km, 1);

    // The ELD output file: the vehicle's miles now, whole miles as an odometer shows them.
    const file = await t.app.inject({ method: 'GET', url: org(`/drivers/${driver.driverId}/hos_log/eld-output`), headers: a.admin });
    expect(file.statusCode).toBe(200);
    expect(parseEldFile(file.body).header.current.totalVehicleMiles).toBe(Math.floor(km / 1.609344));

    // The maintenance schedule: due 10,000 mi after what the vehicle reads now.
    const made = await t.app.inject({
      method: 'POST',
      url: org('/maintenance-schedules'),
      headers: a.admin,
      payload: { assetId: truckId, name: 'Oil change', everyMiles: 10_000 },
    });
    expect(made.statusCode, made.body).toBe(201);
    const next = maintenanceNextSchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/maintenance/next?assetId=${truckId}`), headers: a.admin })).json(),
    );
    const oil = next.items.find((i) => i.name === 'Oil change')!;
    expect(oil.status).toBe('OK');
    expect(oil.dueOdometer! - 10_000 * 1.609344).toBeCloseTo(km, 0);
  });

  it('is the one entered while no fix has carried one, on the page and the schedule alike', async () => {
    const made = await t.app.inject({ method: 'POST', url: org('/assets'), headers: a.admin, payload: vehicleBody({ odometerKm: 200_000 }) });
    expect(made.statusCode, made.body).toBe(201);
    const other = made.json() as { id: string };
    const page = assetDetailSchema.parse((await t.app.inject({ method: 'GET', url: org(`/assets/${other.id}`), headers: a.admin })).json());
    expect(page.currentOdometer).toEqual({ km: 200_000, source: 'ENTERED', at: null });
    await t.app.inject({
      method: 'POST',
      url: org('/maintenance-schedules'),
      headers: a.admin,
      payload: { assetId: other.id, name: 'Grease', everyMiles: 5_000 },
    });
    const next = maintenanceNextSchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/maintenance/next?assetId=${other.id}`), headers: a.admin })).json(),
    );
    expect(next.items.find((i) => i.name === 'Grease')!.dueOdometer! - 5_000 * 1.609344).toBeCloseTo(200_000, 0);
  });
});
