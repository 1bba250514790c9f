import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { driverBody, trailerBody, vehicleBody } from '../../test/registry.ts';
import { distanceCsv } from '../ifta/index.ts';

// Issue 28: every CSV export neutralizes cells a spreadsheet would run as a formula (leading `=`,
// `+`, `-`, `@`, tab, CR) with a leading `'` (decision 0141); numbers stay numbers, and an
// exported file imports back as it was.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const a = await registerOrganization(t.app, 'Formula Freight');
  orgId = a.user.organization!.id;
  admin = bearer(a.accessToken);
});
afterAll(async () => {
  await t?.close();
});

const base = (org = orgId) => `/api/v1/organizations/${org}`;

async function post(path: string, payload: Record<string, unknown>, org = orgId, headers = admin): Promise<{ id: string }> {
  const res = await t.app.inject({ method: 'POST', url: `${base(org)}${path}`, headers, payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

async function download(path: string, org = orgId, headers = admin): Promise<{ text: string; rows: Array<Record<string, string>> }> {
  const res = await t.app.inject({ method: 'GET', url: `${base(org)}${path}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  const text = res.body.replace(/^\uFEFF/, '');
  return { text, rows: Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy' }).data };
}

/** The exported cell of `value`: a `'` before it, so a spreadsheet shows it as text. */
const neutral = (value: string) => `'${value}`;

// Each of the six characters, in the fields a person types; tab and CR cannot come through the
// API or an import (they trim), so they are written to the database as older data could hold them.
const VEHICLE = { make: '=HYPERLINK("http://evil.example","Open")', model: '@SUM(A1:A9)', notes: "-2+3+cmd|' /C calc'!A0" };
const TRAILER = { make: '+1+1', model: '=1+1', notes: '@trailer' };
const DRIVER = { firstName: '=Mallory', lastName: '@Smith', phone: '+1-312-555-0101', employeeId: '-42+1', notes: '+notes' };
const DEVICE = { name: '@device' };
const GROUP = '=group';
const TAB = '\t=1+1';
const CR = '\r=2+2';

describe('CSV exports and formula-like cells', () => {
  let vehicleUnit: string;
  let trailerUnit: string;

  beforeAll(async () => {
    const vehicle = await post('/assets', vehicleBody({ ...VEHICLE, odometerKm: 12345 }));
    const trailer = await post('/assets', trailerBody(TRAILER));
    const driver = await post('/drivers', driverBody(DRIVER));
    await post('/gateways', { uniqueId: `formula-${Date.now()}`, ...DEVICE });
    const group = await post('/groups', { name: GROUP });
    await post(`/groups/${group.id}/assets`, { assetIds: [vehicle.id] });
    const units = (await t.app.inject({ method: 'GET', url: `${base()}/assets/${vehicle.id}`, headers: admin })).json();
    vehicleUnit = units.unitNumber;
    trailerUnit = (await t.app.inject({ method: 'GET', url: `${base()}/assets/${trailer.id}`, headers: admin })).json().unitNumber;
    await t.database.db.execute(`update assets set plate = '${TAB}' where id = '${vehicle.id}'` as never);
    await t.database.db.execute(`update assets set plate = '${CR}' where id = '${trailer.id}'` as never);
    await t.database.db.execute(`update drivers set eld_exempt = true, eld_exempt_reason = '${TAB}' where id = '${driver.id}'` as never);
  });

  it('write each formula-like text cell of the vehicle, trailer, driver and device exports with a leading quote', async () => {
    const vehicles = await download('/assets/export?type=VEHICLE');
    const v = vehicles.rows.find((r) => r['Unit number'] === vehicleUnit)!;
    expect(v).toMatchObject({
      Make: neutral(VEHICLE.make),
      Model: neutral(VEHICLE.model),
      Notes: neutral(VEHICLE.notes),
      Plate: neutral(TAB),
      Groups: neutral(GROUP),
    });
    // The odometer is a number (in the organization's units), written bare.
    expect(Object.entries(v).find(([h]) => h.startsWith('Odometer'))![1]).toMatch(/^\d+(\.\d+)?$/);

    const trailers = await download('/assets/export?type=TRAILER');
    expect(trailers.rows.find((r) => r['Unit number'] === trailerUnit)).toMatchObject({
      Make: neutral(TRAILER.make),
      Model: neutral(TRAILER.model),
      Notes: neutral(TRAILER.notes),
      Plate: neutral(CR),
    });

    const drivers = await download('/drivers/export');
    expect(drivers.rows.find((r) => r['Last name'] === neutral(DRIVER.lastName))).toMatchObject({
      'First name': neutral(DRIVER.firstName),
      Phone: neutral(DRIVER.phone),
      'Employee id': neutral(DRIVER.employeeId),
      Notes: neutral(DRIVER.notes),
      'ELD exempt reason': neutral(TAB),
    });

    const devices = await download('/gateways/export');
    expect(devices.rows.find((r) => r.Name === neutral(DEVICE.name))).toBeDefined();

    // No cell of any export starts with one of the six characters unless it is a plain number.
    for (const file of [vehicles, trailers, drivers, devices]) {
      for (const row of file.rows) for (const cell of Object.values(row)) expect(cell, JSON.stringify(cell)).not.toMatch(/^(?![-+]?[\d.,]+$)[=+\-@\t\r]/);
    }
  });

  it('import back as they were: an exported file loaded into another organization exports the same cells', async () => {
    const other = await registerOrganization(t.app, 'Formula Freight Two');
    const otherOrg = other.user.organization!.id;
    const otherAdmin = bearer(other.accessToken);
    for (const [kind, path] of [
      ['vehicles', '/assets/export?type=VEHICLE'],
      ['trailers', '/assets/export?type=TRAILER'],
      ['drivers', '/drivers/export'],
    ] as const) {
      const exported = await download(path);
      const res = await t.app.inject({ method: 'POST', url: `${base(otherOrg)}/imports/${kind}`, headers: otherAdmin, payload: { csv: exported.text } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().imported, res.body).toBe(exported.rows.length);
      const again = await download(path, otherOrg, otherAdmin);
      // Linked records (groups) stay behind; every field an import fills comes back the same, but
      // for the tab and CR the older data held: a typed value is trimmed (and still quoted).
      const trimmed: Record<string, string> = { [neutral(TAB)]: neutral(TAB.trim()), [neutral(CR)]: neutral(CR.trim()) };
      const strip = (rows: Array<Record<string, string>>) =>
        rows.map(({ Groups: _g, ...r }) => Object.fromEntries(Object.entries(r).map(([h, c]) => [h, trimmed[c] ?? c])));
      expect(strip(again.rows)).toEqual(strip(exported.rows));
    }
    // The stored values are the originals, not the quoted cells.
    const drivers = (await t.app.inject({ method: 'GET', url: `${base(otherOrg)}/drivers?search=smith`, headers: otherAdmin })).json();
    expect(drivers.content[0]).toMatchObject({ firstName: DRIVER.firstName, lastName: DRIVER.lastName, phone: DRIVER.phone, employeeId: DRIVER.employeeId });
  });

  it('neutralize the template’s example cells too, and the template still imports', async () => {
    const tpl = await download('/imports/drivers/template');
    expect(tpl.rows[0]!.Phone).toBe("'+1 312 555 0101");
    const preview = (await t.app.inject({ method: 'POST', url: `${base()}/imports/drivers/preview`, headers: admin, payload: { csv: tpl.text } })).json();
    expect(preview).toMatchObject({ validRows: 1, invalidRows: 0 });
    // The preview shows each value as it will be saved: without the quote.
    expect(preview.sample[0].Phone).toBe('+1 312 555 0101');
  });
});

describe('IFTA exports and formula-like cells', () => {
  it('quote a licensee name that reads as a formula and keep a credit a number', async () => {
    const carrier = await registerOrganization(t.app, '=cmd Trucking');
    const org = carrier.user.organization!.id;
    const headers = bearer(carrier.accessToken);
    const truck = await post('/assets', vehicleBody({ unitNumber: 'FX1' }), org, headers);
    // Fuel bought in Indiana with no miles there: the return's Indiana row is a tax credit (negative).
    await post(
      '/ifta/fuel-purchases',
      { purchasedAt: '2026-05-04T15:00:00Z', assetId: truck.id, jurisdiction: 'IN', quantity: 100, pricePerUnit: 4, totalAmount: 400, receiptNumber: 'FX-1' },
      org,
      headers,
    );
    const res = await t.app.inject({ method: 'GET', url: `${base(org)}/ifta/report/export?quarter=2026Q2&format=csv`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const [summary, table] = res.body.split('\r\n\r\n') as [string, string];
    const fields = Papa.parse<string[]>(summary).data;
    expect(fields.find((r) => r[0] === 'Licensee')?.[1]).toBe("'=cmd Trucking");
    const rows = Papa.parse<Record<string, string>>(table, { header: true, skipEmptyLines: 'greedy' }).data;
    const indiana = rows.find((r) => r.Jurisdiction === 'IN')!;
    expect(indiana['Tax-paid gallons']).toBe('100');
    // A credit is a negative number a spreadsheet reads as a number: no quote before it.
    expect(indiana['Tax (credit)']).toMatch(/^-\d+\.\d{2}$/);
    expect(indiana['Net taxable gallons']).toMatch(/^-\d+(\.\d+)?$/);
  });

  it('quote a unit number that reads as a formula in the distance records', () => {
    const csv = distanceCsv([
      {
        unitNumber: '@unit',
        day: '2026-05-04',
        firstFixAt: null,
        lastFixAt: null,
        odometerStartM: null,
        odometerEndM: null,
        metres: 1609.344,
        jurisdictions: [],
        crossings: [],
      } as never,
    ]);
    const [row] = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: 'greedy' }).data;
    expect(row).toMatchObject({ Unit: "'@unit", Miles: '1.0' });
  });
});
