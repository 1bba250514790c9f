import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemperaturesSchema } from '@fleet/api-contract';
import { bearer, createTestApp, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { sensorCounts } from './excursions.ts';

// Issue 73, decision 0324: which of a trailer's sensors open excursions. With roles set, only the
// return air and the zones; an ambient probe with no role, warm all along, opens nothing. A trailer
// with no role set at all has every sensor judged, the same ambient probe included.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;

const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const MIN = 60_000;
const T0 = Math.floor((Date.now() - 3 * 3_600_000) / MIN) * MIN;
const iso = (ms: number) => new Date(ms).toISOString();

interface Reefer {
  tractor: TestVehicle;
  trailerId: string;
  loadId: string;
}

async function reefer(n: number, roles: ReadonlyArray<[string, string]>): Promise<Reefer> {
  const tractor = await createTestVehicle(t.app.db, orgId, { uniqueId: `count-${n}`, unitNumber: `50${n}` });
  const [{ id: trailerId }] = (await sql<{ id: string }>(
    `insert into assets (organization_id, type, unit_number, trailer_type) values ('${orgId}', 'TRAILER', 'R-50${n}', 'REEFER') returning id`,
  )) as [{ id: string }];
  for (const [sensor, role] of roles) {
    await sql(`insert into trailer_sensors (organization_id, asset_id, sensor, role) values ('${orgId}', '${trailerId}', '${sensor}', '${role}')`);
  }
  const [{ id: loadId }] = (await sql<{ id: string }>(
    `insert into loads (organization_id, number, customer, commodity, status, asset_id, trailer_id, driver_id)
      values ('${orgId}', 'L-80${n}', 'Polar Foods', 'Frozen chicken', 'EN_ROUTE', '${tractor.assetId}', '${trailerId}', '${tractor.driverId}') returning id`,
  )) as [{ id: string }];
  await sql(`insert into load_stops (organization_id, load_id, seq, kind, latitude, longitude, window_start, window_end, service_minutes, arrived_at, departed_at) values
    ('${orgId}', '${loadId}', 0, 'PICKUP', 41.5, -88.08, '${iso(T0 - 60 * MIN)}', '${iso(T0)}', 30, '${iso(T0 - 30 * MIN)}', '${iso(T0 - 5 * MIN)}'),
    ('${orgId}', '${loadId}', 1, 'DELIVERY', 41.9, -87.6, '${iso(T0 + 600 * MIN)}', '${iso(T0 + 700 * MIN)}', 30, null, null)`);
  return { tractor, trailerId, loadId };
}

/** An hour of readings every 5 minutes: the return air in the band, an ambient probe at 20 °C. */
async function sendHour(r: Reefer): Promise<void> {
  const positions = Array.from({ length: 13 }, (_, i) => ({
    fixTime: iso(T0 + i * 5 * MIN),
    latitude: 41.5 + i * 0.001,
    longitude: -88.08,
    speed: 80,
    temperatures: [
      { sensor: 'return', celsius: -18 },
      { sensor: 'ambient', celsius: 20 },
    ],
  }));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/positions',
    headers: { authorization: `Bearer ${r.tractor.token}` },
    payload: { positions },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().rejected).toEqual([]);
}

async function excursionSensors(r: Reefer): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/loads/${r.loadId}/temperatures`, headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return loadTemperaturesSchema.parse(res.json()).excursions.map((e) => e.sensor);
}

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Which Sensors Count');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
});
afterAll(() => t?.close());

describe('which sensors open excursions', () => {
  it('judges only return air and zones where roles are set, every sensor where none is', () => {
    expect(['RETURN_AIR', 'ZONE_1', 'ZONE_2', 'ZONE_3'].every((r) => sensorCounts(r, true))).toBe(true);
    expect(sensorCounts('SUPPLY_AIR', true)).toBe(false);
    expect(sensorCounts(null, true)).toBe(false);
    expect(sensorCounts(null, false)).toBe(true);
  });

  it('opens no excursion for an ambient probe without a role on a trailer with roles set', async () => {
    const r = await reefer(1, [
      ['return', 'RETURN_AIR'],
      ['supply', 'SUPPLY_AIR'],
    ]);
    await sendHour(r);
    expect(await excursionSensors(r)).toEqual([]);
  });

  it('opens an excursion for the same probe on a trailer with no role set at all', async () => {
    const r = await reefer(2, []);
    await sendHour(r);
    expect(await excursionSensors(r)).toEqual(['ambient']);
  });
});
