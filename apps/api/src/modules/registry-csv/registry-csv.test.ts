import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { freshVin, registryActors, trailerBody, vehicleBody } from '../../test/registry.ts';

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
    const res = await t.app.inject({
      method: 'GET',
      url: `${base()}/assets/export?type=VEHICLE&search=kenworth&columns=Unit number&columns=VIN&columns=driver`,
      headers: a.dispatcher,
    });
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
    // Instants are ISO-8601 UTC and the header says so (decision 0140).
    expect(devices.meta.fields).toContain('Last seen (UTC)');
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
    // The preview's sample is keyed by the file's columns, in their units (120,000 mi is 193,121.28 km saved).
    expect(p.columns).toContain('Odometer (mi)');
    expect(p.sample[0]).toMatchObject({ line: 2, 'Unit number': 'IMP-1', 'Fuel type': 'DIESEL', 'IFTA qualified': 'yes', 'Odometer (mi)': 120000 });
    const none = (await t.app.inject({ method: 'GET', url: `${base()}/assets?search=imp-`, headers: a.admin })).json();
    expect(none.totalElements).toBe(0);

    const commit = await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles`, headers: a.admin, payload: { csv } });
    expect(commit.statusCode).toBe(200);
    expect(commit.json()).toMatchObject({ imported: 2, invalidRows: 3 });
    const saved = (await t.app.inject({ method: 'GET', url: `${base()}/assets?search=imp-`, headers: a.admin })).json();
    expect(saved.content.map((x: { unitNumber: string; iftaQualified: boolean }) => [x.unitNumber, x.iftaQualified])).toEqual([
      ['IMP-1', true],
      ['IMP-2', false],
    ]);
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
    expect(again.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ line: 2, message: 'Unit number IMP-1 already exists in this organization' })]),
    );
  });

  it('imports drivers sent as text/csv, and trailers with length in feet', async () => {
    const drivers =
      'First name,Last name,Licence number,Licence state,Home time zone,HoS ruleset,Yard moves\nAva,Stone,S1234567,MI,America/Detroit,us_property_60_7,y\nBen,,B7654321,MI,,,\n';
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
    const res = await t.app.inject({
      method: 'POST',
      url: `${base()}/imports/vehicles/preview`,
      headers: a.admin,
      payload: { csv: 'make,model\nVolvo,VNL\n' },
    });
    expect(res.statusCode).toBe(400);
    expect(expectFieldErrors(res.json(), 400, { csv: 'The file is missing the required columns Unit number, VIN' }).message).toBe(
      'The file is missing the required columns Unit number, VIN',
    );
    const empty = await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles/preview`, headers: a.admin, payload: { csv: '' } });
    expect(empty.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles`, headers: a.dispatcher, payload: { csv: 'x' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/imports/drivers/template`, headers: a.dispatcher })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `${base()}/imports/vehicles`, payload: { csv: 'x' } })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.otherOrgId}/imports/vehicles/preview`, headers: a.admin, payload: { csv: 'x' } }))
        .statusCode,
    ).toBe(404);
  });
});

describe('CSV units follow the organization setting', () => {
  /** A new organization (Imperial, the default) with two vehicles and a trailer of known sizes. */
  async function carrier() {
    const owner = await registerOrganization(t.app, `Units Carrier ${Date.now()}`);
    const headers = bearer(owner.accessToken);
    const org = `/api/v1/organizations/${owner.user.organization?.id}`;
    const call = async (method: 'GET' | 'POST' | 'PUT', path: string, payload?: object) => {
      const res = await t.app.inject({ method, url: `${org}${path}`, headers, payload });
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(method === 'POST' && path === '/assets' ? 201 : 200);
      return res;
    };
    // 100,000 mi exactly, 500,000 km, and a 53 ft trailer as the API stores it (16.15 m).
    await call('POST', '/assets', vehicleBody({ unitNumber: 'U-1', odometerKm: 160_934.4 }));
    await call('POST', '/assets', vehicleBody({ unitNumber: 'U-2', odometerKm: 500_000 }));
    await call('POST', '/assets', trailerBody({ unitNumber: 'UT-1', lengthM: 16.15 }));
    return {
      setUnits: async (units: 'IMPERIAL' | 'METRIC') => {
        const settings = (await call('GET', '/settings')).json();
        await call('PUT', '/settings', { ...settings, units });
      },
      csv: async (path: string) => parse((await call('GET', path)).body),
      raw: async (path: string) => (await call('GET', path)).body,
      preview: async (kind: string, csv: string) => (await call('POST', `/imports/${kind}/preview`, { csv })).json(),
      commit: async (kind: string, csv: string) => (await call('POST', `/imports/${kind}`, { csv })).json(),
      asset: async (unit: string) => (await call('GET', `/assets?search=${encodeURIComponent(unit)}`)).json().content[0],
    };
  }

  it('exports odometers in miles and lengths in feet for an Imperial organization, km and metres for a Metric one', async () => {
    const c = await carrier();
    const imperial = await c.csv('/assets/export?type=VEHICLE');
    expect(imperial.meta.fields).toContain('Odometer (mi)');
    expect(imperial.meta.fields).not.toContain('Odometer (km)');
    expect(imperial.data.map((r) => [r['Unit number'], r['Odometer (mi)']])).toEqual([
      ['U-1', '100000'],
      ['U-2', '310685.6'],
    ]);
    const imperialTrailers = await c.csv('/assets/export?type=TRAILER');
    expect(imperialTrailers.meta.fields).toContain('Length (ft)');
    expect(imperialTrailers.data[0]).toMatchObject({ 'Unit number': 'UT-1', 'Length (ft)': '53' });
    expect((await c.csv('/imports/vehicles/template')).meta.fields).toContain('Odometer (mi)');
    expect((await c.csv('/imports/trailers/template')).meta.fields).toContain('Length (ft)');

    await c.setUnits('METRIC');
    const metric = await c.csv('/assets/export?type=VEHICLE');
    expect(metric.meta.fields).toContain('Odometer (km)');
    expect(metric.meta.fields).not.toContain('Odometer (mi)');
    expect(metric.data.map((r) => [r['Unit number'], r['Odometer (km)']])).toEqual([
      ['U-1', '160934.4'],
      ['U-2', '500000'],
    ]);
    const metricTrailers = await c.csv('/assets/export?type=TRAILER');
    expect(metricTrailers.meta.fields).toContain('Length (m)');
    expect(metricTrailers.data[0]).toMatchObject({ 'Unit number': 'UT-1', 'Length (m)': '16.15' });
    expect((await c.csv('/imports/vehicles/template')).data[0]).toMatchObject({ 'Odometer (km)': '663050' });
    expect((await c.csv('/imports/trailers/template')).data[0]).toMatchObject({ 'Length (m)': '16.15' });
    // The Metric templates' example rows import cleanly too.
    for (const kind of ['vehicles', 'trailers']) expect((await c.preview(kind, await c.raw(`/imports/${kind}/template`))).errors, kind).toEqual([]);
  });

  it('imports either unit by its header and a bare header in the organization units, saving metric', async () => {
    const c = await carrier();
    const vehicles = (header: string, rows: Array<[string, string]>) =>
      [`Unit number,VIN,${header}`, ...rows.map(([u, v]) => `${u},${freshVin()},"${v}"`)].join('\n');
    const odometer = async (header: string, value: string) => (await c.preview('vehicles', vehicles(header, [['X-1', value]]))).sample[0];

    // Imperial: miles unless the header says km.
    expect(await odometer('Odometer (mi)', '250,000')).toMatchObject({ 'Odometer (mi)': 250000 });
    expect(await odometer('Odometer', '250000')).toMatchObject({ 'Odometer (mi)': 250000 });
    expect(await odometer('Odometer (km)', '402336')).toMatchObject({ 'Odometer (km)': 402336 });
    expect(await odometer('odometer_km', '1000.5')).toMatchObject({ 'Odometer (km)': 1000.5 });
    expect((await c.commit('vehicles', vehicles('Odometer (km)', [['K-1', '402336']]))).imported).toBe(1);
    expect(await c.asset('K-1')).toMatchObject({ odometerKm: 402336 });

    await c.setUnits('METRIC');
    // Metric: a file exported in miles before the change still reads as miles; a bare header is km.
    expect((await c.commit('vehicles', vehicles('Odometer (mi)', [['M-1', '250,000']]))).imported).toBe(1);
    expect(await c.asset('M-1')).toMatchObject({ odometerKm: 402336 });
    expect((await c.commit('vehicles', vehicles('Odometer', [['M-2', '250000']]))).imported).toBe(1);
    expect(await c.asset('M-2')).toMatchObject({ odometerKm: 250000 });
    const trailers = 'Unit number,Trailer type,Length (ft),Length (m)\nUX-1,REEFER,48,99\n';
    const preview = await c.preview('trailers', trailers);
    expect(preview.unknownColumns).toEqual(['Length (m)']); // one length per row: the second column is ignored, not mixed in
    expect(preview.sample[0]).toMatchObject({ 'Length (ft)': 48 });
    expect((await c.commit('trailers', trailers)).imported).toBe(1);
    expect(await c.asset('UX-1')).toMatchObject({ lengthM: 14.63 });
    expect((await c.commit('trailers', 'Unit number,Length\nUX-2,14.63\n')).imported).toBe(1);
    expect(await c.asset('UX-2')).toMatchObject({ lengthM: 14.63 });
  });
});
