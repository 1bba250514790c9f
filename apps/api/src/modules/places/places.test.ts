import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeImportResultSchema, placePageSchema, placeSchema, vehiclePlacesSchema, type Place } from '@fleet/api-contract';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { activityRows, registryActors, userWithPermissions } from '../../test/registry.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// Places through HTTP on the real database (issue 32, decision 0162): CRUD and its checks, the
// map-area filter, group scope, tenancy, the GeoJSON export and the CSV/GeoJSON import.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

type Headers = Record<string, string>;
const org = (rest: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}${rest}`;
const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

/** A square of `half` degrees around a point, counter-clockwise and closed. */
const square = (lon: number, lat: number, half: number) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [lon - half, lat - half],
      [lon + half, lat - half],
      [lon + half, lat + half],
      [lon - half, lat + half],
      [lon - half, lat - half],
    ],
  ],
});
const circle = (lon: number, lat: number) => ({ type: 'Point' as const, coordinates: [lon, lat] as [number, number] });

async function create(body: Record<string, unknown>, headers = a.admin, orgId = a.orgId): Promise<Place> {
  const res = await send('POST', org('/places', orgId), headers, body);
  expect(res.statusCode, res.body).toBe(201);
  return placeSchema.parse(res.json());
}

describe('places API', () => {
  it('creates, reads, replaces and deletes a circle and a polygon, with boxes, centres and activity rows', async () => {
    const c = await create({ name: 'Acme Foods DC', category: 'CUSTOMER', geometry: circle(-94.6, 39.1), radiusMeters: 250, address: '1 Dock Rd' });
    expect(c).toMatchObject({
      radiusMeters: 250,
      arrivalDwellSeconds: 120,
      departureDwellSeconds: 60,
      groupId: null,
      center: { latitude: 39.1, longitude: -94.6 },
    });
    const p = await create({ name: 'KC Yard', category: 'YARD', geometry: square(-94.5, 39.0, 0.01), radiusMeters: 999, arrivalDwellSeconds: 0 });
    // A polygon keeps no radius; its centre is its box's.
    expect(p.radiusMeters).toBeNull();
    expect(p.center.latitude).toBeCloseTo(39.0, 9);
    expect(p.center.longitude).toBeCloseTo(-94.5, 9);
    const [box] = rowsOf<{ min_lat: number; max_lat: number; min_lon: number; max_lon: number }>(
      await t.database.db.execute(`select min_lat, max_lat, min_lon, max_lon from places where id = '${c.id}'` as never),
    );
    // 250 m is 0.00225 degrees of latitude: the stored box holds the circle.
    expect(box!.max_lat - 39.1).toBeGreaterThan(0.00224);
    expect(box!.max_lat - 39.1).toBeLessThan(0.0023);
    expect(39.1 - box!.min_lat).toBeGreaterThan(0.00224);
    expect(box!.max_lon - -94.6).toBeGreaterThan(0.0029);

    const got = await send('GET', org(`/places/${c.id}`), a.dispatcher);
    expect(got.statusCode).toBe(200);
    expect(got.json().name).toBe('Acme Foods DC');
    const put = await send('PUT', org(`/places/${c.id}`), a.admin, {
      name: 'Acme Foods DC 2',
      category: 'CUSTOMER',
      geometry: circle(-94.6, 39.1),
      radiusMeters: 300,
      arrivalDwellSeconds: 300,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ name: 'Acme Foods DC 2', radiusMeters: 300, arrivalDwellSeconds: 300, address: null });
    expect((await send('DELETE', org(`/places/${p.id}`), a.admin)).statusCode).toBe(204);
    expect((await send('GET', org(`/places/${p.id}`), a.admin)).statusCode).toBe(404);
    expect((await activityRows(t.database.db, c.id)).map((r) => `${r.action} ${r.entity_type}`)).toEqual(['CREATE PLACE', 'UPDATE PLACE']);
    expect((await activityRows(t.database.db, p.id)).map((r) => r.action)).toEqual(['CREATE', 'DELETE']);
  });

  it('refuses bad shapes and values with 400s naming the field', async () => {
    const bad = async (body: Record<string, unknown>, fields: Record<string, string>) => {
      const res = await send('POST', org('/places'), a.admin, { name: 'Bad', category: 'CUSTOMER', ...body });
      expectFieldErrors(res.json(), 400, fields);
    };
    await bad({ geometry: circle(-94.6, 39.1) }, { radiusMeters: 'Radius is required for a circle' });
    await bad({ geometry: circle(-94.6, 39.1), radiusMeters: 5 }, { radiusMeters: 'Radius must be at least 10 m' });
    await bad({ geometry: circle(-194.6, 39.1), radiusMeters: 50 }, { 'geometry.coordinates.0': 'Longitude must be between -180 and 180' });
    const open = square(-94, 39, 0.01);
    open.coordinates[0]!.pop();
    open.coordinates[0]!.push([-93, 40]);
    await bad({ geometry: open }, { 'geometry.coordinates': 'A polygon ring must end where it starts' });
    // A bow tie: its edges cross.
    const bowTie = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    };
    await bad({ geometry: bowTie }, { 'geometry.coordinates': 'A polygon’s edges must not cross each other' });
    await bad(
      {
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [0, 0],
              [0, 0],
            ],
          ],
        },
      },
      { 'geometry.coordinates': 'A polygon needs at least 3 different corners' },
    );
    await bad(
      {
        geometry: {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
      },
      { 'geometry.type': 'Shape must be a GeoJSON Point (with a radius) or Polygon' },
    );
    await bad({ category: 'MOON', geometry: circle(0, 0), radiusMeters: 50 }, { category: 'Category must be one of' });
    await bad(
      { geometry: circle(0, 0), radiusMeters: 50, groupId: '00000000-0000-4000-8000-000000000000' },
      { groupId: 'Group is not a group of this organization' },
    );
    await bad({ geometry: circle(0, 0), radiusMeters: 50, arrivalDwellSeconds: -1 }, { arrivalDwellSeconds: 'Arrival dwell must be 0 or more' });
    const q = await send('GET', org('/places?bbox=1,2,3'), a.admin);
    expectFieldErrors(q.json(), 400, { bbox: 'bbox must be minLon,minLat,maxLon,maxLat' });
  });

  it('pages with search, category and the map-area filter (a shape that meets the box, not only its centre)', async () => {
    const far = await create({ name: 'Zed Fuel Omaha', category: 'FUEL', geometry: circle(-95.9, 41.25), radiusMeters: 100 });
    // A big polygon whose centre lies outside the box but whose edge is inside it.
    const wide = await create({ name: 'Zed Restricted Zone', category: 'RESTRICTED', geometry: square(-90, 35, 1) });
    const list = async (q: string) => placePageSchema.parse((await send('GET', org(`/places?${q}`), a.dispatcher)).json());
    const inOmaha = await list('bbox=-96,41,-95.8,41.5&size=100');
    expect(inOmaha.content.map((p) => p.id)).toContain(far.id);
    expect(inOmaha.content.map((p) => p.id)).not.toContain(wide.id);
    const edge = await list('bbox=-89.2,34.9,-88.5,35.1&size=100');
    expect(edge.content.map((p) => p.id)).toEqual([wide.id]);
    const nothing = await list('bbox=10,10,11,11');
    expect(nothing).toMatchObject({ content: [], totalElements: 0, totalPages: 0 });
    const searched = await list('search=zed&sort=name,desc&size=1');
    expect(searched).toMatchObject({ totalElements: 2, totalPages: 2, size: 1, page: 0 });
    expect(searched.content[0]!.id).toBe(wide.id);
    expect((await list('category=FUEL&search=zed')).content.map((p) => p.id)).toEqual([far.id]);
    expectFieldErrors((await send('GET', org('/places?sort=radius,asc'), a.admin)).json(), 400, {
      sort: 'sort must be one of name, category, createdAt, updatedAt',
    });
  });

  it('answers 404 for another organization’s place, and 403 without the permission', async () => {
    const mine = await create({ name: 'Private Customer', category: 'CUSTOMER', geometry: circle(-80, 35), radiusMeters: 100 });
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { name: 'X', category: 'OTHER', geometry: circle(0, 0), radiusMeters: 20 }],
      ['DELETE', undefined],
    ] as const) {
      const res = await send(method, org(`/places/${mine.id}`, a.otherOrgId), a.other, body);
      expect(res.statusCode).toBe(404);
      expectErrorBody(res.json(), 404);
    }
    const theirs = placePageSchema.parse((await send('GET', org('/places?size=100', a.otherOrgId), a.other)).json());
    expect(theirs.content).toEqual([]);
    // The dispatcher reads places and may not draw them.
    expect((await send('POST', org('/places'), a.dispatcher, { name: 'No', category: 'OTHER', geometry: circle(0, 0), radiusMeters: 20 })).statusCode).toBe(
      403,
    );
    const nobody = await userWithPermissions(t, a.orgId, ['ASSET_LIST']);
    expect((await send('GET', org('/places'), nobody)).statusCode).toBe(403);
    expect((await send('GET', org('/places/current'), nobody)).statusCode).toBe(403);
  });

  it('shows a group’s place to that group’s users and to users in no group only', async () => {
    const groupRes = await send('POST', org('/groups'), a.admin, { name: `West ${Date.now()}` });
    expect(groupRes.statusCode, groupRes.body).toBe(201);
    const groupId = groupRes.json().id as string;
    const otherGroup = (await send('POST', org('/groups'), a.admin, { name: `East ${Date.now()}` })).json().id as string;
    const scoped = await create({ name: 'West Only Yard', category: 'YARD', geometry: circle(-110, 40), radiusMeters: 100, groupId });
    const member = await userWithPermissions(t, a.orgId, ['PLACE_LIST']);
    const me = (await send('GET', '/api/v1/auth/me', member)).json().id as string;
    // In another group: the West place is not theirs.
    await t.database.db.execute(
      `insert into group_members (organization_id, group_id, member_type, member_id) values ('${a.orgId}', '${otherGroup}', 'USER', '${me}')` as never,
    );
    expect((await send('GET', org(`/places/${scoped.id}`), member)).statusCode).toBe(404);
    expect(placePageSchema.parse((await send('GET', org(`/places?groupId=${groupId}`), member)).json()).totalElements).toBe(0);
    await t.database.db.execute(
      `insert into group_members (organization_id, group_id, member_type, member_id) values ('${a.orgId}', '${groupId}', 'USER', '${me}')` as never,
    );
    expect((await send('GET', org(`/places/${scoped.id}`), member)).statusCode).toBe(200);
    expect(placePageSchema.parse((await send('GET', org(`/places?groupId=${groupId}`), a.admin)).json()).content.map((p) => p.id)).toEqual([scoped.id]);
  });

  it('exports GeoJSON that imports back, and imports a CSV with points, WKT and GeoJSON polygons and per-row errors', async () => {
    const res = await send('GET', org('/places/export?format=geojson&search=zed'), a.dispatcher);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/geo+json');
    const fc = res.json();
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features.map((f: { properties: { name: string } }) => f.properties.name)).toEqual(['Zed Fuel Omaha', 'Zed Restricted Zone']);
    expect(fc.features[0]).toMatchObject({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-95.9, 41.25] },
      properties: { category: 'FUEL', radiusMeters: 100, arrivalDwellSeconds: 120 },
    });
    expectFieldErrors((await send('GET', org('/places/export?format=kml'), a.admin)).json(), 400, { format: 'format must be geojson' });

    // The export as an import into the other organization: a dry run saves nothing, then the import does.
    const dry = placeImportResultSchema.parse(
      (await send('POST', org('/places/import', a.otherOrgId), a.other, { content: JSON.stringify(fc), dryRun: true })).json(),
    );
    expect(dry).toMatchObject({ format: 'geojson', dryRun: true, totalRows: 2, validRows: 2, invalidRows: 0, errors: [], imported: 0 });
    expect(placePageSchema.parse((await send('GET', org('/places', a.otherOrgId), a.other)).json()).totalElements).toBe(0);
    const done = placeImportResultSchema.parse((await send('POST', org('/places/import', a.otherOrgId), a.other, { content: JSON.stringify(fc) })).json());
    expect(done.imported).toBe(2);
    const theirs = placePageSchema.parse((await send('GET', org('/places?sort=name,asc', a.otherOrgId), a.other)).json()).content;
    expect(theirs.map((p) => [p.name, p.category, p.radiusMeters, p.geometry.type])).toEqual([
      ['Zed Fuel Omaha', 'FUEL', 100, 'Point'],
      ['Zed Restricted Zone', 'RESTRICTED', null, 'Polygon'],
    ]);

    const csv = [
      'Name,Category,Latitude,Longitude,Radius,Arrival dwell seconds,Polygon,Address',
      'Dock A,customer,39.2,-94.7,150,300,,12 Main St',
      'Lot B,yard,,,,,"POLYGON((-94.8 39.3, -94.79 39.3, -94.79 39.31, -94.8 39.31, -94.8 39.3))",',
      `Lot C,terminal,,,,,"${JSON.stringify(square(-94.9, 39.4, 0.005)).replace(/"/g, '""')}",`,
      'No radius,customer,39.2,-94.7,,,,',
      'Crossed,yard,,,,,"POLYGON((0 0, 1 1, 1 0, 0 1, 0 0))",',
      'Bad wkt,yard,,,,,"POLYGON(0 0)",',
      'Far off,fuel,99,-94.7,100,,,',
      ',customer,39.2,-94.7,100,,,',
    ].join('\n');
    const check = placeImportResultSchema.parse((await send('POST', org('/places/import'), a.admin, { content: csv, dryRun: true })).json());
    expect(check).toMatchObject({ format: 'csv', totalRows: 8, validRows: 3, invalidRows: 5, imported: 0 });
    expect(check.errors).toEqual([
      { line: 5, field: 'radiusMeters', message: 'Radius is required for a circle' },
      { line: 6, field: 'geometry.coordinates', message: 'A polygon’s edges must not cross each other' },
      { line: 7, field: 'polygon', message: 'Polygon must be WKT POLYGON((lon lat, …)) or a GeoJSON Polygon' },
      { line: 8, field: 'geometry.coordinates.1', message: 'Latitude must be between -90 and 90' },
      { line: 9, field: 'name', message: 'Name is a required field' },
    ]);
    expect(check.sample.map((s) => [s.line, s.name, s.category, s.geometry.type, s.radiusMeters])).toEqual([
      [2, 'Dock A', 'CUSTOMER', 'Point', 150],
      [3, 'Lot B', 'YARD', 'Polygon', null],
      [4, 'Lot C', 'TERMINAL', 'Polygon', null],
    ]);
    const saved = placeImportResultSchema.parse((await send('POST', org('/places/import'), a.admin, { content: csv })).json());
    expect(saved.imported).toBe(3);
    const dock = placePageSchema.parse((await send('GET', org('/places?search=dock%20a'), a.admin)).json()).content[0]!;
    expect(dock).toMatchObject({ arrivalDwellSeconds: 300, departureDwellSeconds: 60, address: '12 Main St', radiusMeters: 150 });
    expect((await activityRows(t.database.db, dock.id)).map((r) => r.action)).toEqual(['IMPORT']);
    // An Imperial carrier's own list with radii in feet; the radius limit in its units.
    const feet = placeImportResultSchema.parse(
      (
        await send('POST', org('/places/import'), a.admin, {
          content: 'name,category,latitude,longitude,radius ft\nFeet dock,customer,39.2,-94.7,500\nTiny,customer,39.2,-94.7,10',
          dryRun: true,
        })
      ).json(),
    );
    expect(feet.sample.map((s) => s.radiusMeters)).toEqual([152.4]);
    expect(feet.errors).toEqual([{ line: 3, field: 'radiusMeters', message: 'Radius must be at least 33 ft' }]);
    expectFieldErrors((await send('POST', org('/places/import'), a.admin, { content: 'foo,bar\n1,2' })).json(), 400, {
      content: 'The CSV needs a name column',
    });
    expectFieldErrors((await send('POST', org('/places/import'), a.admin, { content: '{"type":"Feature"}' })).json(), 400, {
      content: 'GeoJSON must be a FeatureCollection',
    });
  });

  it('answers places/current from the open visits, the vehicle’s group only with groupId', async () => {
    const place = await create({ name: 'Current Dock', category: 'CUSTOMER', geometry: circle(-70, 42), radiusMeters: 100 });
    const [asset] = rowsOf<{ id: string }>(
      await t.database.db.execute(`insert into assets (organization_id, type, unit_number) values ('${a.orgId}', 'VEHICLE', 'CUR-1') returning id` as never),
    );
    await t.database.db.execute(
      `insert into place_visits (organization_id, place_id, asset_id, arrived_at) values ('${a.orgId}', '${place.id}', '${asset!.id}', '2026-11-20T10:00:00Z'), ('${a.orgId}', '${place.id}', '${asset!.id}', '2026-11-19T10:00:00Z')` as never,
    );
    await t.database.db.execute(`update place_visits set departed_at = '2026-11-19T12:00:00Z' where arrived_at = '2026-11-19T10:00:00Z'` as never);
    const now = vehiclePlacesSchema.parse((await send('GET', org('/places/current'), a.dispatcher)).json());
    expect(now.content.filter((c) => c.assetId === asset!.id)).toEqual([
      { assetId: asset!.id, placeId: place.id, placeName: 'Current Dock', category: 'CUSTOMER', arrivedAt: '2026-11-20T10:00:00.000Z' },
    ]);
    const groupId = (await send('POST', org('/groups'), a.admin, { name: `Empty ${Date.now()}` })).json().id as string;
    expect(vehiclePlacesSchema.parse((await send('GET', org(`/places/current?groupId=${groupId}`), a.admin)).json()).content).toEqual([]);
    expect(vehiclePlacesSchema.parse((await send('GET', org('/places/current', a.otherOrgId), a.other)).json()).content).toEqual([]);
  });
});
