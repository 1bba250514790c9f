import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectFieldErrors, type TestContext } from '../test/helpers.ts';
import { registryActors, vehicleBody } from '../test/registry.ts';
import { shallowJsonBytes } from './utf8-body.ts';

// Issue 43, item 5: bad input that reached the database (a 500, or a value stored other than sent),
// each now a 400 from the contract naming the field. The openapi-fuzz test walks every field of
// every request the same way; these are the reported cases, one by one.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
let truckId: string;
const org = (path: string) => `/api/v1/organizations/${a.orgId}${path}`;
const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = a.admin) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
  const vehicles = (await send('GET', org('/assets?type=VEHICLE&size=1'))).json() as { content: Array<{ id: string }> };
  truckId = vehicles.content[0]!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('text the database cannot hold', () => {
  it('refuses a NUL character in a vehicle, naming the field (it answered 500, 22021)', async () => {
    const res = await send('POST', org('/assets'), vehicleBody({ make: 'Free\u0000liner' }));
    expectFieldErrors(res.json(), 400, { make: 'Make must not contain the NUL character (U+0000)' });
  });

  it('refuses a lone surrogate in a driver, and NUL in a query and in a field name', async () => {
    const driver = await send('POST', org('/drivers'), { firstName: 'Ann\ud800', lastName: 'Lee', licenseNumber: 'D123', licenseState: 'TX' });
    expectFieldErrors(driver.json(), 400, { firstName: 'First name must not contain a lone UTF-16 surrogate' });
    const search = await send('GET', org('/assets?search=a%00b'));
    expectFieldErrors(search.json(), 400, { 'querystring.search': 'search must not contain the NUL character' });
    const key = await send('POST', org('/assets'), { ...vehicleBody(), ['no\u0000te']: 1 });
    expectFieldErrors(key.json(), 400, { body: 'The request body has a field name that is not valid text' });
  });

  it('refuses values nested 5,000 deep without walking them (the role permissions crashed with a stack overflow)', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const res = await t.app.inject({
      method: 'POST',
      url: org('/roles'),
      headers: { ...a.admin, 'content-type': 'application/json' },
      payload: `{"name":"Deep","permissions":${deep}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().technicalMessage).toMatch(/^permissions(\.0)+: .* is nested too deeply \(at most 32 levels\)/);
  });

  it("does not build what is nested past the rules' depth (issue 43: 100 such bodies at once held 16 MB)", () => {
    const cut = (text: string) => shallowJsonBytes(Buffer.from(text), 2)?.toString() ?? null;
    expect(cut('{"a":{"b":{"c":[1,{"d":2}]},"e":"{[["},"f":[[["x\\\\"]]]}')).toBe('{"a":{"b":{},"e":"{[["},"f":[[]]}');
    // Brackets in strings are text; nothing that deep, or brackets that do not match: left to JSON.parse.
    expect(cut('{"a":{"b":"{{{[[[\\"}}"}}')).toBeNull();
    expect(cut('{"a":{"b":{"c":[}}}}')).toBeNull();
  });
});

describe('numbers', () => {
  it('refuses labour hours of 5e-324 (a subnormal a `real` cannot hold: it answered 500)', async () => {
    const res = await send('POST', org('/work-orders'), { assetId: truckId, title: 'Brakes', laborHours: 5e-324 });
    expectFieldErrors(res.json(), 400, { laborHours: 'Labour hours must be 0 or a number further from zero' });
    const tiny = await send('POST', org('/work-orders'), { assetId: truckId, title: 'Brakes', laborHours: 1e-50 });
    expectFieldErrors(tiny.json(), 400, { laborHours: 'Labour hours must be 0 or at least 0.01' });
  });

  it("answers a subnormal in a field that takes no number by the field's type, not by subnormals (issue 66)", async () => {
    const res = await send('POST', org('/assets'), vehicleBody({ make: 5e-324, fuelType: -1e-320, odometerKm: 5e-324 }));
    // Text and a choice get their type's words; a number field keeps the subnormal rule's.
    expectFieldErrors(res.json(), 400, {
      make: 'Make must be text',
      fuelType: 'Fuel type is not an IFTA fuel type',
      odometerKm: 'Odometer (km) must be 0 or a number further from zero',
    });
    expect(res.json().message).not.toMatch(/Make must be 0|Fuel type must be 0/);
    const nested = await send('POST', org('/work-orders'), { assetId: 5e-324, title: { text: 5e-324 } });
    expectFieldErrors(nested.json(), 400, { assetId: 'Vehicle must be a vehicle or trailer id', title: 'Title is a required field' });
    expect(nested.json().technicalMessage).not.toContain('subnormal');
  });

  it('refuses an odometer of "" or true instead of storing 0 or 1', async () => {
    for (const odometerKm of ['', true, '120']) {
      const res = await send('POST', org('/assets'), vehicleBody({ odometerKm }));
      expectFieldErrors(res.json(), 400, { odometerKm: 'Odometer must be a number' });
    }
    const year = await send('POST', org('/assets'), vehicleBody({ year: '2020' }));
    expectFieldErrors(year.json(), 400, { year: 'Year must be a number' });
    const stored = await send('POST', org('/assets'), vehicleBody({ odometerKm: 120.5, year: 2020 }));
    expect(stored.statusCode).toBe(201);
    expect(stored.json()).toMatchObject({ odometerKm: 120.5, year: 2020 });
  });

  it('refuses a page of "" in a list query instead of reading it as 0', async () => {
    expectFieldErrors((await send('GET', org('/assets?page='))).json(), 400, { 'querystring.page': 'page must be a whole number' });
    expect((await send('GET', org('/assets?page=0&size=2'))).statusCode).toBe(200);
  });
});

describe('years', () => {
  it('refuses a fuel purchase in year 0000 (it answered 500) or 0050 (it was stored as 1950)', async () => {
    const purchase = (purchasedAt: string) => ({
      purchasedAt,
      assetId: truckId,
      jurisdiction: 'MO',
      quantity: 3.2,
      volumeUnit: 'GAL',
      receiptNumber: `R-${purchasedAt.slice(0, 4)}`,
    });
    for (const year of ['0000', '0050']) {
      const res = await send('POST', org('/ifta/fuel-purchases'), purchase(`${year}-05-12T15:18:00Z`));
      expectFieldErrors(res.json(), 400, { purchasedAt: 'Purchase time must be in the years 1900 to 2200' });
    }
  });

  it('refuses an IFTA adjustment on day 0050-03-01 (stored in quarter "50Q1") and a report filter in year 0000', async () => {
    const res = await send('POST', org('/ifta/adjustments'), {
      day: '0050-03-01',
      assetId: truckId,
      jurisdiction: 'IL',
      adjustmentKind: 'MISSING_TRIP',
      distanceM: 1000,
      reason: 'Trip sheet 5521',
    });
    expectFieldErrors(res.json(), 400, { day: 'Day must be in the years 1900 to 2200' });
    const report = await send('GET', org('/reports/trips?from=0000-01-01T00:00:00Z&to=2026-01-01T00:00:00Z'));
    expectFieldErrors(report.json(), 400, { 'querystring.from': 'from must be in the years 1900 to 2200' });
    const quarter = await send('GET', org('/ifta/adjustments?quarter=0050Q1'));
    expectFieldErrors(quarter.json(), 400, { 'querystring.quarter': 'Quarter must be in the years 1900 to 2200' });
  });
});

describe('imports', () => {
  // "Montréal" saved by a spreadsheet in Windows-1252: é is the single byte 0xE9.
  const latin1Csv = Buffer.concat([Buffer.from('Unit number,VIN,Make\nT900,,Volvo\nT901,,Montr'), Buffer.from([0xe9]), Buffer.from('al Trucks\n')]);

  it('refuses a CSV that is not UTF-8, naming its line (it was imported with U+FFFD)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: org('/imports/trailers/preview'),
      headers: { ...a.admin, 'content-type': 'text/csv' },
      payload: latin1Csv,
    });
    expectFieldErrors(res.json(), 400, { csv: 'Line 3 is not UTF-8 text' });
  });

  it('refuses a JSON body whose text is not UTF-8, naming the field and the line in it', async () => {
    const json = Buffer.concat([Buffer.from('{"csv":"Unit number\\nT902\\nMontr'), Buffer.from([0xe9]), Buffer.from('al\\n"}')]);
    const res = await t.app.inject({
      method: 'POST',
      url: org('/imports/trailers/preview'),
      headers: { ...a.admin, 'content-type': 'application/json' },
      payload: json,
    });
    expectFieldErrors(res.json(), 400, { csv: 'CSV file is not UTF-8 text at line 3' });
  });
});

describe('places', () => {
  it('refuses a polygon whose corners are on one line (a zero-area geofence was created)', async () => {
    const flat = {
      type: 'Polygon',
      coordinates: [
        [
          [-96.8, 32.78],
          [-96.79, 32.78],
          [-96.78, 32.78],
          [-96.8, 32.78],
        ],
      ],
    };
    const res = await send('POST', org('/places'), { name: 'Flat yard', category: 'YARD', geometry: flat });
    expectFieldErrors(res.json(), 400, { 'geometry.coordinates': 'A polygon must enclose an area: its corners are on one line' });
  });
});
