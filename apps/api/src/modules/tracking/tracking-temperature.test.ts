import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSchema, publicTrackingSchema, shareLinkCreatedSchema, shareLinkListSchema, type Load } from '@fleet/api-contract';
import { latestPositions } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { bearer, createTestApp, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';

// Issue 73, decision 0325: a load's tracking link shows the reefer temperature only where the
// carrier chose it for that link (default off): the return air's latest reading, the set point
// band and the last hours' readings; never the supply air, never on a link made without it.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let truck: TestVehicle;
let trailerId: string;
let load: Load;
const H = 3_600_000;
const MIN = 60_000;
const now = Date.now();
const at = (ms: number) => new Date(ms).toISOString();
const api = (p: string) => `/api/v1/organizations/${orgId}${p}`;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
let address = 0;
const track = (token: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/public/tracking/${token}`, remoteAddress: `10.73.${Math.floor(++address / 250)}.${address % 250}` });
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

async function share(payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: api(`/loads/${load.id}/share-links`), headers: admin, payload });
  expect(res.statusCode, res.body).toBe(201);
  return shareLinkCreatedSchema.parse(res.json());
}

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Cold Tracking Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  truck = await createTestVehicle(t.app.db, orgId, { uniqueId: 'cold-trk-1', unitNumber: 'T-301' });
  [{ id: trailerId }] = (await sql<{ id: string }>(
    `insert into assets (organization_id, type, unit_number, trailer_type) values ('${orgId}', 'TRAILER', 'R-301', 'REEFER') returning id`,
  )) as [{ id: string }];
  await sql(`insert into trailer_sensors (organization_id, asset_id, sensor, role) values
    ('${orgId}', '${trailerId}', 'return', 'RETURN_AIR'), ('${orgId}', '${trailerId}', 'supply', 'SUPPLY_AIR')`);
  const res = await t.app.inject({
    method: 'POST',
    url: api('/loads'),
    headers: admin,
    payload: {
      customer: 'Polar Foods',
      commodity: 'Frozen chicken',
      driverIds: [truck.driverId],
      assetId: truck.assetId,
      trailerId,
      overlapAllowed: true,
      rate: { lineHaul: 1250.5, fuelSurcharge: 0, accessorials: [] },
      stops: [
        { kind: 'PICKUP', latitude: 39.1, longitude: -94.58, windowStart: at(now - 6 * H), windowEnd: at(now - 4 * H), serviceMinutes: 60 },
        { kind: 'DELIVERY', latitude: 38.63, longitude: -90.2, windowStart: at(now + H), windowEnd: at(now + 2 * H), serviceMinutes: 45 },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  load = loadSchema.parse(res.json());
  for (const [event, when] of [
    ['ARRIVE', now - 5 * H],
    ['DEPART', now - 4 * H],
  ] as const) {
    const r = await t.app.inject({
      method: 'POST',
      url: api(`/loads/${load.id}/stops/${load.stops[0]!.id}/status`),
      headers: admin,
      payload: { event, at: at(when) },
    });
    expect(r.statusCode, r.body).toBe(200);
  }
  const fix = {
    organizationId: orgId,
    gatewayId: truck.gatewayId,
    driverId: truck.driverId,
    fixTime: new Date(now - 2 * MIN),
    serverTime: new Date(now - 2 * MIN),
    latitude: 38.9,
    longitude: -92.3,
    speed: 88,
    course: 95,
  };
  await t.app.db.insert(latestPositions).values({ assetId: truck.assetId, ...fix });
  // Every 30 minutes of the last three hours: the return air at -18 then -17 °C, the supply air 8 colder.
  const values = [0, 1, 2, 3, 4, 5, 6].flatMap((k) => {
    const when = at(now - (180 - k * 30) * MIN);
    const ret = k === 6 ? -17 : -18;
    return [
      `('${orgId}', '${truck.gatewayId}', 'return', '${when}', '${trailerId}', ${ret})`,
      `('${orgId}', '${truck.gatewayId}', 'supply', '${when}', '${trailerId}', ${ret - 8})`,
    ];
  });
  await sql(`insert into temperature_readings (organization_id, gateway_id, sensor, at, asset_id, celsius) values ${values.join(', ')}`);
});
afterAll(async () => {
  await t?.close();
});

describe('the tracking link’s temperature', () => {
  it('is not shown on a link made without the choice (the default)', async () => {
    const link = await share({});
    const res = await track(tokenOf(link.url));
    expect(res.statusCode, res.body).toBe(200);
    const body = publicTrackingSchema.parse(res.json());
    expect(body.position).not.toBeNull();
    expect(body.temperature).toBeNull();
    expect(res.body).not.toContain('celsius');
  });

  it('shows the return air, the set point band and the last hours on a link made with it', async () => {
    const link = await share({ showTemperature: true, label: 'Receiver' });
    const body = publicTrackingSchema.parse((await track(tokenOf(link.url))).json());
    expect(body.temperature).toMatchObject({ celsius: -17, at: at(now), setPointC: -18, toleranceC: 3 });
    expect(body.temperature!.readings).toHaveLength(7);
    expect(body.temperature!.readings.every((r) => r.celsius >= -18)).toBe(true);
    const list = shareLinkListSchema.parse((await t.app.inject({ method: 'GET', url: api(`/loads/${load.id}/share-links`), headers: admin })).json());
    expect(list.items.find((l) => l.id === link.id)!.showTemperature).toBe(true);
    expect(list.items.filter((l) => !l.showTemperature)).toHaveLength(1);
  });

  it('refuses a choice that is not true or false with a 400, making no link', async () => {
    const before = (await sql<{ n: number }>(`select count(*)::int as n from share_links where organization_id = '${orgId}'`))[0]!.n;
    const res = await t.app.inject({ method: 'POST', url: api(`/loads/${load.id}/share-links`), headers: admin, payload: { showTemperature: 'yes' } });
    expectFieldErrors(res.json(), 400, { showTemperature: 'Show temperature must be true or false' });
    expect((await sql<{ n: number }>(`select count(*)::int as n from share_links where organization_id = '${orgId}'`))[0]!.n).toBe(before);
  });
});
