import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quarterOf } from '@fleet/api-contract';
import { createTestApp, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { registryActors } from '../../test/registry.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// Issue 28: a carrier switching to this product mid-quarter imports a vehicle's GPS history (CSV
// or GPX) so the quarter's IFTA return is complete; a preview lists each bad row; imported
// positions are marked as such in history and in the IFTA distance records.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const MIN = 60_000;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const base = (orgId = a.orgId) => `/api/v1/organizations/${orgId}`;
const importUrl = (v: { assetId: string }, query = '', orgId = a.orgId) => `${base(orgId)}/assets/${v.assetId}/positions/import${query}`;
const post = (v: { assetId: string }, payload: unknown, query = '', headers = a.admin) =>
  t.app.inject({ method: 'POST', url: importUrl(v, query), headers, payload: payload as object });

/** Two days ago at 15:00 UTC, or the start of the quarter's second day if that is earlier, so the drive stays in the current quarter. */
function driveStart(): number {
  const now = Date.now();
  const twoDaysAgo = new Date(now - 2 * 86_400_000);
  twoDaysAgo.setUTCHours(15, 0, 0, 0);
  const q = quarterOf(now);
  return quarterOf(twoDaysAgo.getTime()) === q ? twoDaysAgo.getTime() : twoDaysAgo.getTime() + 2 * 86_400_000;
}

/** Minute fixes east along 39° N at 90 km/h from Kansas into Missouri, as `time,latitude,longitude,speed` lines. */
function driveLines(start: number, minutes: number): string[] {
  const kmPerDegree = 111.32 * Math.cos((39 * Math.PI) / 180);
  return Array.from({ length: minutes + 1 }, (_, i) => `${new Date(start + i * MIN).toISOString()},39,${(-94.75 + (1.5 * i) / kmPerDegree).toFixed(6)},90`);
}

const countImported = async (v: TestVehicle) =>
  (await sql<{ n: number }>(`select count(*)::int as n from positions where asset_id = '${v.assetId}' and protocol = 'import'`))[0]!.n;

describe('GPS history import', () => {
  let truck: TestVehicle;
  let start: number;
  let csv: string;
  beforeAll(async () => {
    truck = await createTestVehicle(t.app.db, a.orgId, { uniqueId: 'import-truck-1', unitNumber: 'IMP1', paired: false });
    start = driveStart();
    const good = driveLines(start, 20);
    csv = [
      'time,latitude,longitude,speed',
      ...good,
      `${new Date(start + 30 * MIN).toISOString()},95,-94.5,90`,
      'yesterday,39,-94.5,90',
      good[3]!,
      `${new Date(start + 31 * MIN).toISOString()},39,-94.4,-3`,
      '2020-01-02T10:00:00Z,39,-94.4,50',
    ].join('\n');
  });

  it('previews a CSV with each bad row named by line and column, and saves nothing', async () => {
    const res = await post(truck, { file: csv, dryRun: true });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r).toMatchObject({ dryRun: true, format: 'CSV', totalRows: 26, validRows: 21, invalidRows: 5, imported: 0 });
    expect(r.from).toBe(new Date(start).toISOString());
    expect(r.errors).toEqual([
      { line: 23, field: 'latitude', message: 'latitude 95 is outside -90..90' },
      { line: 24, field: 'time', message: '"yesterday" is not a date and time' },
      { line: 25, field: 'time', message: 'Same time as line 5' },
      { line: 26, field: 'speed', message: 'speed -3 must be a number of 0 or more' },
      { line: 27, field: 'time', message: 'fix time 2020-01-02T10:00:00.000Z is more than 1 year old' },
    ]);
    expect(await countImported(truck)).toBe(0);
  });

  it('imports the valid rows marked as imported: history, IFTA miles and the distance records show them; importing again stores nothing twice', async () => {
    const res = await post(truck, { file: csv });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ dryRun: false, imported: 21, duplicates: 0, invalidRows: 5 });
    expect(await countImported(truck)).toBe(21);

    const history = await t.app.inject({
      method: 'GET',
      url: `${base()}/history-routes/assets/${truck.assetId}?from=${encodeURIComponent(new Date(start - MIN).toISOString())}&to=${encodeURIComponent(new Date(start + 60 * MIN).toISOString())}`,
      headers: a.admin,
    });
    expect(history.statusCode).toBe(200);
    expect(history.json().imported).toEqual({ positions: 21, from: new Date(start).toISOString(), to: new Date(start + 20 * MIN).toISOString() });
    expect(history.json().summary.positions).toBe(21);

    await t.app.iftaMiles.idle({ dirty: true });
    await t.app.fleetStats.idle();
    const miles = await sql<{ jurisdiction: string; metres: number }>(
      `select jurisdiction, metres from ifta_distance_days where vehicle_id = '${truck.assetId}' order by jurisdiction`,
    );
    expect(miles.map((m) => m.jurisdiction)).toEqual(['KS', 'MO']);
    expect(miles.reduce((s, m) => s + m.metres, 0)).toBeCloseTo(30_000, -2);
    const records = await t.app.inject({
      method: 'GET',
      url: `${base()}/ifta/distance-records?quarter=${quarterOf(start)}&assetId=${truck.assetId}`,
      headers: a.admin,
    });
    expect(records.statusCode).toBe(200);
    expect(records.json().content).toHaveLength(1);
    expect(records.json().content[0]).toMatchObject({ unitNumber: 'IMP1', imported: true });
    const exported = await t.app.inject({
      method: 'GET',
      url: `${base()}/ifta/distance-records/export?quarter=${quarterOf(start)}&assetId=${truck.assetId}`,
      headers: a.admin,
    });
    expect(exported.body).toContain('Imported GPS history');
    const stats = await sql<{ fixes: number }>(`select fixes from vehicle_daily_stats where asset_id = '${truck.assetId}'`);
    expect(stats.reduce((s, r) => s + r.fixes, 0)).toBe(21);
    // Imported history is not turned into duty-status records: another ELD recorded those days.
    expect(await sql(`select 1 from hos_events where vehicle_id = '${truck.assetId}'`)).toHaveLength(0);

    const again = await post(truck, { file: csv });
    expect(again.json()).toMatchObject({ imported: 0, duplicates: 21 });
    expect(await countImported(truck)).toBe(21);
    const log = await sql<{ action: string }>(`select action from activity_log where entity_id = '${truck.assetId}' and action = 'IMPORT_POSITIONS'`);
    expect(log).toHaveLength(1);
  });

  it('reads GPX track points (elevation, extension speed in m/s) and names a bad point by its line; ?dryRun=true previews', async () => {
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: 'import-truck-2', unitNumber: 'IMP2', paired: false });
    const s = driveStart() + 3 * 3600_000;
    const pt = (i: number, extra = '') =>
      `      <trkpt lat="39.1" lon="${(-94.75 + i * 0.01).toFixed(4)}"><ele>270.5</ele><time>${new Date(s + i * MIN).toISOString()}</time>${extra}<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>25</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions></trkpt>`;
    const gpx = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<gpx version="1.1" creator="Old ELD" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">',
      '  <trk><name>IMP2</name><trkseg>',
      pt(0),
      pt(1),
      '      <trkpt lat="39.1" lon="-94.7"><ele>270</ele></trkpt>',
      pt(3),
      '  </trkseg></trk>',
      '</gpx>',
    ].join('\n');
    const preview = await post(v, { file: gpx }, '?dryRun=true');
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      dryRun: true,
      format: 'GPX',
      totalRows: 4,
      validRows: 3,
      invalidRows: 1,
      errors: [{ line: 6, field: 'time', message: 'trkpt has no time' }],
    });
    expect(await countImported(v)).toBe(0);
    expect((await post(v, { file: gpx })).json()).toMatchObject({ imported: 3 });
    const [p] = await sql<{ speed: number; altitude: number; protocol: string }>(
      `select speed, altitude, protocol from positions where asset_id = '${v.assetId}' order by fix_time limit 1`,
    );
    expect(p!.speed).toBeCloseTo(90, 3);
    expect(p).toMatchObject({ altitude: 270.5, protocol: 'import' });
  });

  it("refuses rows where the vehicle already has device positions, an unknown zone, a missing column, and another organization's vehicle", async () => {
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: 'import-truck-3', unitNumber: 'IMP3' });
    const s = Date.now() - 2 * 3600_000;
    const batch = [0, 10].map((m) => ({ fixTime: new Date(s + m * MIN).toISOString(), latitude: 39, longitude: -94.7, speed: 0 }));
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: { authorization: `Bearer ${v.token}` }, payload: { positions: batch } }))
        .statusCode,
    ).toBe(200);
    const file = ['time,lat,lon', `${new Date(s - 5 * MIN).toISOString()},39,-94.8`, `${new Date(s + 5 * MIN).toISOString()},39,-94.8`].join('\n');
    const r = (await post(v, { file, dryRun: true })).json();
    expect(r.validRows).toBe(1);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ line: 3, field: 'time' });
    expect(r.errors[0].message).toContain('IMP3 has positions from its device');

    expectFieldErrors((await post(v, { file, timeZone: 'Mars/Olympus' })).json(), 400, { timeZone: 'Mars/Olympus is not a time zone' });
    const noColumn = (await post(v, { file: 'when,lat,lon\n2026-01-01T00:00:00Z,39,-94', dryRun: true })).json();
    expect(noColumn.errors[0]).toMatchObject({ line: 1, field: 'time' });
    expect(noColumn.validRows).toBe(0);
    expectFieldErrors((await post(v, { file: '' })).json(), 400, { file: 'File is a required field' });
    const foreign = await t.app.inject({ method: 'POST', url: importUrl(v, '', a.otherOrgId), headers: a.other, payload: { file } });
    expect(foreign.statusCode).toBe(404);
    expect((await post(v, { file }, '', a.dispatcher)).statusCode).toBe(403);
  });

  it('names a time outside 1900 to 9999 as no time, reading year 0050 as 0050, not 1950 (issue 66)', async () => {
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: 'import-truck-4', unitNumber: 'IMP4', paired: false });
    const file = [
      'time,lat,lon',
      '0000-06-01T00:00:00Z,39,-94.8',
      '0050-06-01T12:00:00Z,39,-94.8',
      '1800-01-01T00:00:00Z,39,-94.8',
      '1999-08-21T23:59:47Z,39,-94.8',
    ].join('\n');
    const r = (await post(v, { file, dryRun: true, timeZone: 'UTC' })).json();
    expect(r.errors).toEqual([
      { line: 2, field: 'time', message: 'fix time 0000-06-01T00:00:00.000Z is not a time a fix can have (years 1900 to 9999)' },
      { line: 3, field: 'time', message: 'fix time 0050-06-01T12:00:00.000Z is not a time a fix can have (years 1900 to 9999)' },
      { line: 4, field: 'time', message: 'fix time 1800-01-01T00:00:00.000Z is not a time a fix can have (years 1900 to 9999)' },
      { line: 5, field: 'time', message: 'fix time 1999-08-21T23:59:47.000Z is more than 1 year old' },
    ]);
  });
});
