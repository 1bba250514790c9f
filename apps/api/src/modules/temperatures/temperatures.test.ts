import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemperaturesSchema, WEBHOOK_DATA_SCHEMAS, type LoadTemperatures } from '@fleet/api-contract';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { findExcursions } from './excursions.ts';

// Issue 73: reefer temperatures through the JSON batch -> readings stored once -> excursions of the
// load the trailer carries (after the delay; a blip under it and a defrost do not count; closed after
// the same delay back in the band) -> the notification and `temperature.out_of_range`, once; the
// load's record, its settings, and its PDF log read back as text; another organization's load 404.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let tractor: TestVehicle;
let trailerId: string;
let loadId: string;
let sub: string;

const url = (p: string) => `/api/v1/organizations/${orgId}${p}`;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const MIN = 60_000;
/** Three hours ago, on the minute: old enough for a whole story, recent enough to notify. */
const T0 = Math.floor((Date.now() - 3 * 3_600_000) / MIN) * MIN;
const iso = (ms: number) => new Date(ms).toISOString();

interface Sent {
  minute: number;
  celsius: number;
  defrost?: boolean;
}
const positionsOf = (list: readonly Sent[]) =>
  list.map((s, i) => ({
    fixTime: iso(T0 + s.minute * MIN),
    latitude: 41.5 + i * 0.001,
    longitude: -88.08,
    speed: 80,
    temperatures: [
      { sensor: 'return', celsius: s.celsius, ...(s.defrost ? { defrost: true } : {}) },
      // The supply air runs colder than the band by design: it is charted and opens nothing.
      { sensor: 'supply', celsius: s.celsius - 8 },
    ],
  }));
const send = (payload: unknown, token = tractor.token) =>
  t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: { authorization: `Bearer ${token}` }, payload: payload as object });
const sendOk = async (list: readonly Sent[]) => {
  const res = await send({ positions: positionsOf(list) });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().rejected).toEqual([]);
  return res.json() as { accepted: number; duplicates: number };
};
const every5 = (from: number, to: number, celsius: number, defrost = false): Sent[] => {
  const out: Sent[] = [];
  for (let m = from; m <= to; m += 5) out.push({ minute: m, celsius, defrost });
  return out;
};

async function record(headers = admin): Promise<LoadTemperatures> {
  const res = await t.app.inject({ method: 'GET', url: url(`/loads/${loadId}/temperatures`), headers });
  expect(res.statusCode, res.body).toBe(200);
  return loadTemperaturesSchema.parse(res.json());
}
const count = async (q: string) => Number((await sql<{ n: number }>(q))[0]!.n);
const readingsStored = () => count(`select count(*)::int as n from temperature_readings where organization_id = '${orgId}'`);
const noticesOf = () => count(`select count(*)::int as n from notification_facts where organization_id = '${orgId}' and kind = 'TEMPERATURE_OUT_OF_RANGE'`);
async function hooks() {
  return (
    await sql<{ body: string }>(
      `select e.body from webhook_events e join webhook_deliveries d on d.organization_id = e.organization_id and d.event_id = e.id
        where d.subscription_id = '${sub}' and e.type = 'temperature.out_of_range' order by e.occurred_at`,
    )
  ).map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
}

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Cold Chain Carriers');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  // The tractor's tracker reads the reefer trailer's probes (BLE); the load names both.
  tractor = await createTestVehicle(t.app.db, orgId, { uniqueId: 'reefer-1', unitNumber: '301' });
  [{ id: trailerId }] = (await sql<{ id: string }>(
    `insert into assets (organization_id, type, unit_number, trailer_type) values ('${orgId}', 'TRAILER', 'R-201', 'REEFER') returning id`,
  )) as [{ id: string }];
  await sql(`insert into trailer_sensors (organization_id, asset_id, sensor, role) values
    ('${orgId}', '${trailerId}', 'return', 'RETURN_AIR'), ('${orgId}', '${trailerId}', 'supply', 'SUPPLY_AIR')`);
  [{ id: loadId }] = (await sql<{ id: string }>(
    `insert into loads (organization_id, number, customer, commodity, status, asset_id, trailer_id, driver_id)
      values ('${orgId}', 'L-7001', 'Polar Foods', 'Frozen chicken', 'EN_ROUTE', '${tractor.assetId}', '${trailerId}', '${tractor.driverId}') returning id`,
  )) as [{ id: string }];
  await sql(`insert into load_stops (organization_id, load_id, seq, kind, latitude, longitude, window_start, window_end, service_minutes, arrived_at, departed_at) values
    ('${orgId}', '${loadId}', 0, 'PICKUP', 41.5, -88.08, '${iso(T0 - 60 * MIN)}', '${iso(T0)}', 30, '${iso(T0 - 30 * MIN)}', '${iso(T0 - 5 * MIN)}'),
    ('${orgId}', '${loadId}', 1, 'DELIVERY', 41.9, -87.6, '${iso(T0 + 600 * MIN)}', '${iso(T0 + 700 * MIN)}', 30, null, null)`);
  [{ id: sub }] = (await sql<{ id: string }>(
    `insert into webhook_subscriptions (organization_id, url, events, secret) values ('${orgId}', 'http://127.0.0.1:9/hooks', '{temperature.out_of_range}', 'whsec_${Buffer.alloc(32, 7).toString('base64')}') returning id`,
  )) as [{ id: string }];
});
afterAll(() => t?.close());

describe('the excursion rule', () => {
  const band = { setPointC: -18, toleranceC: 3, delayMs: 15 * MIN };
  const r = (minute: number, celsius: number, defrost = false) => ({ at: minute * MIN, celsius, defrost });

  it('opens only once readings stay out for the delay, from the first reading out', () => {
    expect(findExcursions([r(0, -18), r(5, -14), r(10, -14), r(15, -14)], band)).toEqual([]);
    expect(findExcursions([r(0, -18), r(5, -14), r(10, -14), r(15, -14), r(20, -13)], band)).toEqual([
      { startedAt: 5 * MIN, endedAt: null, direction: 'HIGH', peakC: -13, confirmedAt: 20 * MIN },
    ]);
  });

  it('counts the band edges as in, and a defrost reading neither way', () => {
    expect(findExcursions([r(0, -15), r(10, -21), r(20, -15), r(30, -21)], band)).toEqual([]);
    expect(findExcursions([r(0, -5, true), r(10, -5, true), r(20, -5, true), r(30, -5, true)], band)).toEqual([]);
    // A defrost in the middle of a warm run starts the count again.
    expect(findExcursions([r(0, -10), r(10, -5, true), r(20, -10), r(30, -10)], band)).toEqual([]);
  });

  it('closes after the delay back in the band, ended at the first reading back', () => {
    const found = findExcursions([r(0, -25), r(15, -25), r(20, -18), r(30, -18), r(35, -18)], band);
    expect(found).toEqual([{ startedAt: 0, endedAt: 20 * MIN, direction: 'LOW', peakC: -25, confirmedAt: 15 * MIN }]);
  });
});

describe('readings through the JSON batch', () => {
  it('refuses a bad reading with a 400 naming it, and stores nothing of the batch', async () => {
    const before = await count(`select count(*)::int as n from positions where organization_id = '${orgId}'`);
    const good = positionsOf([{ minute: -10, celsius: -18 }])[0]!;
    const res = await send({ positions: [good, { ...good, fixTime: iso(T0 - 9 * MIN), temperatures: [{ sensor: 'return', celsius: 'cold' }] }] });
    expectFieldErrors(res.json(), 400, { 'positions.1.temperatures.0.celsius': 'celsius must be a number' });
    const far = await send({ positions: [{ ...good, temperatures: [{ sensor: '', celsius: 200 }] }] });
    expectErrorBody(far.json(), 400);
    expect(far.json().technicalMessage).toMatch(/^positions\.0\.temperatures\.0\.sensor: sensor must not be empty/);
    expect(await count(`select count(*)::int as n from positions where organization_id = '${orgId}'`)).toBe(before);
    expect(await readingsStored()).toBe(0);
  });

  it('does not open an excursion for a warm blip shorter than the delay', async () => {
    await sendOk([...every5(0, 15, -18), ...every5(20, 30, -12), ...every5(35, 45, -18)]);
    const r = await record();
    expect(r.trailerId).toBe(trailerId);
    expect(r.readings.filter((x) => x.sensor === 'return')).toHaveLength(10);
    expect(r.readings.find((x) => x.sensor === 'supply')).toMatchObject({ role: 'SUPPLY_AIR', celsius: -26 });
    expect(r.settings).toEqual({ setPointC: -18, toleranceC: 3, delayMinutes: 15, source: 'COMMODITY' });
    expect(r.excursions).toEqual([]);
  });

  it('does not count a defrost cycle, however warm and long', async () => {
    await sendOk([...every5(50, 80, -4, true), ...every5(85, 95, -18)]);
    expect((await record()).excursions).toEqual([]);
    expect(await noticesOf()).toBe(0);
  });

  it('opens an excursion once it has lasted the delay, notifies and sends the webhook once', async () => {
    await sendOk(every5(100, 110, -11));
    expect((await record()).excursions).toEqual([]);
    await sendOk([{ minute: 115, celsius: -9.5 }]);
    const [e] = (await record()).excursions;
    expect(e).toMatchObject({ sensor: 'return', startedAt: iso(T0 + 100 * MIN), endedAt: null, direction: 'HIGH', peakC: -9.5, setPointC: -18, toleranceC: 3 });
    expect(await noticesOf()).toBe(1);
    const [notice] = await sql<{ title: string; body: string }>(
      `select n.title, n.body from notifications n where n.organization_id = '${orgId}' and n.kind = 'TEMPERATURE_OUT_OF_RANGE' limit 1`,
    );
    expect(notice!.title).toBe('Load L-7001, trailer R-201: temperature above range');
    // The organization's units are imperial: °F in the words.
    expect(notice!.body).toBe('Sensor return read 14.9 °F against a set point of -0.4 °F ± 5.4 °F for more than 15 minutes.');
    const sent = await hooks();
    expect(sent).toHaveLength(1);
    expect(WEBHOOK_DATA_SCHEMAS['temperature.out_of_range'].parse(sent[0]!.data)).toMatchObject({
      loadId,
      loadNumber: 'L-7001',
      trailerUnit: 'R-201',
      startedAt: iso(T0 + 100 * MIN),
      peakC: -9.5,
      delayMinutes: 15,
    });
  });

  it('closes the excursion once the temperature is back for the delay', async () => {
    await sendOk(every5(120, 130, -17));
    expect((await record()).excursions[0]!.endedAt).toBeNull();
    await sendOk([{ minute: 135, celsius: -18 }]);
    const [e] = (await record()).excursions;
    expect(e).toMatchObject({ startedAt: iso(T0 + 100 * MIN), endedAt: iso(T0 + 120 * MIN), peakC: -9.5 });
  });

  it('stores nothing twice and reports nothing again when a batch is resent', async () => {
    const readings = await readingsStored();
    const before = await record();
    const res = await send({ positions: positionsOf([...every5(100, 110, -11), { minute: 115, celsius: -9.5 }, ...every5(120, 135, -18)]) });
    expect(res.json()).toMatchObject({ accepted: 0, rejected: [] });
    expect(await readingsStored()).toBe(readings);
    expect(await record()).toEqual(before);
    expect(await noticesOf()).toBe(1);
    expect(await hooks()).toHaveLength(1);
  });
});

describe('a load’s reefer settings', () => {
  it('takes a set point, tolerance and delay typed on the load, and refuses bad ones with nothing changed', async () => {
    const bad = await t.app.inject({
      method: 'PUT',
      url: url(`/loads/${loadId}/temperatures/settings`),
      headers: admin,
      payload: { setPointC: -20, toleranceC: 0, delayMinutes: 10 },
    });
    expectFieldErrors(bad.json(), 400, { toleranceC: 'Tolerance must be between 0.5 and 10 °C' });
    expect((await record()).settings.source).toBe('COMMODITY');
    const ok = await t.app.inject({
      method: 'PUT',
      url: url(`/loads/${loadId}/temperatures/settings`),
      headers: admin,
      payload: { setPointC: -20, toleranceC: 2, delayMinutes: 10 },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(loadTemperaturesSchema.parse(ok.json()).settings).toEqual({ setPointC: -20, toleranceC: 2, delayMinutes: 10, source: 'LOAD' });
  });

  it('names a trailer’s sensors, and refuses a sensor listed twice with nothing changed', async () => {
    const path = url(`/assets/${trailerId}/temperature-sensors`);
    const twice = await t.app.inject({
      method: 'PUT',
      url: path,
      headers: admin,
      payload: {
        sensors: [
          { sensor: 'return', role: 'RETURN_AIR' },
          { sensor: 'return', role: 'ZONE_1' },
        ],
      },
    });
    expectFieldErrors(twice.json(), 400, { sensors: 'Each sensor may be listed once' });
    const ok = await t.app.inject({
      method: 'PUT',
      url: path,
      headers: admin,
      payload: {
        sensors: [
          { sensor: 'return', role: 'ZONE_1' },
          { sensor: 'supply', role: 'SUPPLY_AIR' },
        ],
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().sensors).toEqual([
      { sensor: 'return', role: 'ZONE_1' },
      { sensor: 'supply', role: 'SUPPLY_AIR' },
    ]);
    expect(ok.json().readings.length).toBeGreaterThan(0);
    const vehicle = await t.app.inject({ method: 'GET', url: url(`/assets/${tractor.assetId}/temperatures`), headers: admin });
    expectErrorBody(vehicle.json(), 404);
  });

  it('answers 404 for another organization’s load, and for an unknown one', async () => {
    const other = await registerOrganization(t.app, 'Other Reefers');
    const otherOrg = other.user.organization!.id;
    for (const p of ['temperatures', 'temperature-log.pdf']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${otherOrg}/loads/${loadId}/${p}`, headers: bearer(other.accessToken) });
      expectErrorBody(res.json(), 404);
      const unknown = await t.app.inject({ method: 'GET', url: url(`/loads/${crypto.randomUUID()}/${p}`), headers: admin });
      expectErrorBody(unknown.json(), 404);
    }
    const trailerThere = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${otherOrg}/assets/${trailerId}/temperatures`,
      headers: bearer(other.accessToken),
    });
    expectErrorBody(trailerThere.json(), 404);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${otherOrg}/loads/${loadId}/temperatures/settings`,
      headers: bearer(other.accessToken),
      payload: { setPointC: 5, toleranceC: 2, delayMinutes: 10 },
    });
    expectErrorBody(put.json(), 404);
    expect((await record()).settings.setPointC).toBe(-20);
  });
});

describe('the temperature log PDF', () => {
  it('prints the set point, the excursion and the readings at the interval, signed with the carrier’s name', async () => {
    // Back to the commodity's band for the record printed.
    await sql(`update loads set reefer_set_point_c = null, reefer_tolerance_c = null, reefer_delay_minutes = null where id = '${loadId}'`);
    const res = await t.app.inject({ method: 'GET', url: url(`/loads/${loadId}/temperature-log.pdf?interval=30`), headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temperature-log-'));
    const file = path.join(dir, 'log.pdf');
    fs.writeFileSync(file, res.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain('Temperature record');
    expect(text).toContain('Carrier: Cold Chain Carriers');
    expect(text).toContain('Load L-7001 for Polar Foods, Frozen chicken');
    expect(text).toContain('Set point: -0.4 °F ± 5.4 °F');
    expect(text).toContain('Excursions (1)');
    expect(text).toMatch(/Sensor return: above range from .* to .*, peak 14\.9 °F/);
    expect(text).toContain('Readings every 30 minutes');
    // Every 30 minutes from T0: the return air and the supply air, the defrost marked.
    const lines = text.split('\n').filter((l) => /\b\d\d:\d\d\b/.test(l) && /-?\d+\.\d/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(text).toMatch(/-0\.4\s+-14\.8/);
    expect(text).toContain('24.8 (defrost)');
    expect(text).toContain('Signed for the carrier: Cold Chain Carriers');
    const bad = await t.app.inject({ method: 'GET', url: url(`/loads/${loadId}/temperature-log.pdf?interval=0`), headers: admin });
    expectFieldErrors(bad.json(), 400, { interval: 'interval must be between 1 and 240 minutes' });
  });
});
