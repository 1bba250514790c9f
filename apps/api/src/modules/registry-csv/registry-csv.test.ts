import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { freshVin, registryActors } from '../../test/registry.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const base = () => `/api/v1/organizations/${a.orgId}`;
const parse = (body: string) => Papa.parse<Record<string, string>>(body.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });

describe('CSV export', () => {
  it('exports the filtered vehicle list with the chosen columns', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${base()}/assets/export?type=VEHICLE&search=kenworth&columns=Unit number&columns=VIN&columns=driver`, headers: a.dispatcher });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="vehicles-\d{4}-\d{2}-\d{2}\.csv"/);
    const csv = parse(res.body);
    expect(csv.meta.fields).toEqual(['Unit number', 'VIN', 'Driver']);
    expect(csv.data.map((r) => r['Unit number'])).toEqual(['102', '108', '114', '120']);
    expect(csv.data[0]?.Driver).toMatch(/\w+ \w+/);
  });

  it('exports every trailer with trailer columns, drivers and devices, and refuses unknown columns', async () => {
    const trailers = parse((await t.app.inject({ method: 'GET', url: `${base()}/assets/export?type=TRAILER`, headers: a.admin })).body);
    expect(trailers.data).toHaveLength(12);
    expect(trailers.data[0]).toMatchObject({ 'Unit number': 'T-501', 'Trailer type': 'REEFER', 'Length (ft)': '53', 'Attached to': '101' });
    const drivers = parse((await t.app.inject({ method: 'GET', url: `${base()}/drivers/export`, headers: a.admin })).body);
    expect(drivers.data).toHaveLength(25);
    expect(drivers.data[0]).toMatchObject({ 'Last name': 'Anderson', 'HoS ruleset': 'US_PROPERTY_70_8' });
    const devices = parse((await t.app.inject({ method: 'GET', url: `${base()}/gateways/export`, headers: a.admin })).body);
    expect(devices.data).toHaveLength(25);
    const bad = await t.app.inject({ method: 'GET', url: `${base()}/assets/export?columns=password`, headers: a.admin });
    expect(bad.statusCode).toBe(400);
    expectFieldErrors(bad.json(), 400, { columns: 'Unknown column password' });
    expect((await t.app.inject({ method: 'GET', url: `${base()}/assets/export` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.otherOrgId}/assets/export`, headers: a.admin })).statusCode).toBe(404);
  });
});

describe('CSV import', () => {
  it('offers a template whose example row imports cleanly', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${base()}/imports/vehicles/template`, headers: a.admin });
    expect(res.statusCode).toBe(200);
    const csv = parse(res.body);
    expect(csv.meta.fields).toContain('Odometer (mi)');
    expect(csv.meta.fields).not.toContain('Driver');
    const preview = (await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles/preview`, headers: a.admin, payload: { csv: res.body } })).json();
    expect(preview).toMatchObject({ totalRows: 1, validRows: 1, invalidRows: 0, errors: [] });
    for (const kind of ['trailers', 'drivers']) {
      const tpl = (await t.app.inject({ method: 'GET', url: `${base()}/imports/${kind}/template`, headers: a.admin })).body;
      const p = (await t.app.inject({ method: 'POST', url: `${base()}/imports/${kind}/preview`, headers: a.admin, payload: { csv: tpl } })).json();
      expect(p.errors, kind).toEqual([]);
    }
  });

  it('previews per-row errors without saving, then imports only the valid rows in one go', async () => {
    const vins = [freshVin(), freshVin(), freshVin()];
    const csv = [
      'unit_number,vin,make,model,year,plate,plate state,fuel type,ifta qualified,odometer (mi),colour',
      `IMP-1,${vins[0]},Volvo,VNL 760,2023,ABC123,OH,diesel,yes,"120,000",white`,
      `IMP-2,${vins[1]},Mack,Anthem,2021,XYZ9,TX,,no,,red`,
      `IMP-3,1HGCM82633A004353,Kenworth,T680,2022,,,DIESEL,,,blue`,
      `IMP-1,${vins[2]},Volvo,VNL,2020,,,,,,green`,
      `101,${vins[2]},Volvo,VNL,2020,,ZZ,,maybe,,black`,
    ].join('\n');
    const res = await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles/preview`, headers: a.admin, payload: { csv } });
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({ totalRows: 5, validRows: 2, invalidRows: 3, unknownColumns: ['colour'] });
    expect(p.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ line: 4, field: 'VIN', message: expect.stringContaining('check digit') }),
        expect.objectContaining({ line: 5, field: 'Unit number', message: 'Unit number IMP-1 repeats line 2' }),
        expect.objectContaining({ line: 6, field: 'Plate state' }),
        expect.objectContaining({ line: 6, field: 'IFTA qualified' }),
      ]),
    );
    expect(p.sample[0]).toMatchObject({ line: 2, unitNumber: 'IMP-1', fuelType: 'DIESEL', odometerKm: 193121.28 });
    const none = (await t.app.inject({ method: 'GET', url: `${base()}/assets?search=imp-`, headers: a.admin })).json();
    expect(none.totalElements).toBe(0);

    const commit = await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles`, headers: a.admin, payload: { csv } });
    expect(commit.statusCode).toBe(200);
    expect(commit.json()).toMatchObject({ imported: 2, invalidRows: 3 });
    const saved = (await t.app.inject({ method: 'GET', url: `${base()}/assets?search=imp-`, headers: a.admin })).json();
    expect(saved.content.map((x: { unitNumber: string; iftaQualified: boolean }) => [x.unitNumber, x.iftaQualified])).toEqual([['IMP-1', true], ['IMP-2', false]]);
    const detail = (await t.app.inject({ method: 'GET', url: `${base()}/assets/${saved.content[0].id}`, headers: a.admin })).json();
    expect(detail.recentActivity[0]).toMatchObject({ action: 'IMPORT', entityType: 'ASSET' });
    // One log row per imported record, written with it: who, what, the imported values and the line.
    const logged = (await t.database.db.execute(
      `select a.id as asset_id, l.organization_id, l.actor_email, l.actor_role, l.changes from assets a join activity_log l on l.entity_id = a.id::text and l.action = 'IMPORT' where a.unit_number like 'IMP-%' order by a.unit_number` as never,
    )) as { rows: Array<{ organization_id: string; actor_email: string; actor_role: string; changes: { after: Record<string, unknown> } }> };
    expect(logged.rows).toHaveLength(2);
    expect(logged.rows[0]).toMatchObject({ organization_id: a.orgId, actor_email: 'admin@demofreight.test', actor_role: 'ADMIN' });
    expect(logged.rows[0]?.changes.after).toMatchObject({ unitNumber: 'IMP-1', vin: vins[0], make: 'Volvo', source: 'CSV import', line: 2 });
    expect(logged.rows[1]?.changes.after).toMatchObject({ unitNumber: 'IMP-2', source: 'CSV import', line: 3 });
    // The same file again: every row now clashes with what exists.
    const again = (await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles`, headers: a.admin, payload: { csv } })).json();
    expect(again).toMatchObject({ imported: 0 });
    expect(again.errors).toEqual(expect.arrayContaining([expect.objectContaining({ line: 2, message: 'Unit number IMP-1 already exists in this organization' })]));
  });

  it('imports drivers sent as text/csv, and trailers with length in feet', async () => {
    const drivers = 'First name,Last name,Licence number,Licence state,Home time zone,HoS ruleset,Yard moves\nAva,Stone,S1234567,MI,America/Detroit,us_property_60_7,y\nBen,,B7654321,MI,,,\n';
    const res = await t.app.inject({ method: 'POST', url: `${base()}/imports/drivers`, headers: { ...a.admin, 'content-type': 'text/csv' }, payload: drivers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ imported: 1, invalidRows: 1, errors: [expect.objectContaining({ line: 3, field: 'Last name' })] });
    const ava = (await t.app.inject({ method: 'GET', url: `${base()}/drivers?search=stone`, headers: a.admin })).json().content[0];
    expect(ava).toMatchObject({ licenseNumber: 'S1234567', homeTimeZone: 'America/Detroit', ruleset: 'US_PROPERTY_60_7', yardMovesAllowed: true });
    const trailers = 'Unit number,Trailer type,Length (ft)\nIT-1,dry van,53\nIT-2,hopper,48\n';
    const tr = (await t.app.inject({ method: 'POST', url: `${base()}/imports/trailers`, headers: a.admin, payload: { csv: trailers } })).json();
    expect(tr).toMatchObject({ imported: 1, errors: [expect.objectContaining({ line: 3, field: 'Trailer type' })] });
    const it1 = (await t.app.inject({ method: 'GET', url: `${base()}/assets?search=it-1`, headers: a.admin })).json().content[0];
    expect(it1).toMatchObject({ trailerType: 'DRY_VAN', lengthM: 16.15 });
  });

  it('answers 400 for a file without the required columns, 403 without ASSET_CREATE, 401 without a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles/preview`, headers: a.admin, payload: { csv: 'make,model\nVolvo,VNL\n' } });
    expect(res.statusCode).toBe(400);
    expect(expectFieldErrors(res.json(), 400, { csv: 'The file is missing the required columns Unit number, VIN' }).message).toBe('The file is missing the required columns Unit number, VIN');
    const empty = await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles/preview`, headers: a.admin, payload: { csv: '' } });
    expect(empty.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles`, headers: a.dispatcher, payload: { csv: 'x' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/imports/drivers/template`, headers: a.dispatcher })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles`, payload: { csv: 'x' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.otherOrgId}/imports/vehicles/preview`, headers: a.admin, payload: { csv: 'x' } })).statusCode).toBe(404);
  });
});
