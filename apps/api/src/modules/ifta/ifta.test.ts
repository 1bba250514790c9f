import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iftaDistancePageSchema, iftaReportSchema, fuelCsvPreviewSchema, type IftaReport } from '@fleet/api-contract';
import { bearer, createTestApp, DEMO, expectErrorBody, login, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import type { PositionRow } from '../positions/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { IftaMiles } from './ifta-miles.service.ts';
import { IFTA_2Q2026_CSV } from './rates-2q2026.ts';
import { returnPdf } from './ifta-export.service.ts';
import { pdfPageCount, pdfText, pdfTextRuns } from '../../test/pdf.ts';
import { loadPdfKit } from '../../lib/pdfkit.ts';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let dispatcher: Record<string, string>;
let superAdmin: Record<string, string>;
let truck: TestVehicle;

beforeAll(async () => {
  t = await createTestApp();
  const a = await login(t.app, DEMO.admin);
  orgId = a.user.organization!.id;
  admin = bearer(a.accessToken);
  dispatcher = bearer((await login(t.app, DEMO.dispatcher)).accessToken);
  superAdmin = bearer((await login(t.app, DEMO.superAdmin)).accessToken);
  truck = await createTestVehicle(t.app.db, orgId, { uniqueId: 'ifta-truck-1', unitNumber: 'IFTA1' });
});
afterAll(async () => {
  await t?.close();
});

const MIN = 60_000;
const url = (path: string) => `/api/v1/organizations/${orgId}/ifta${path}`;
const MILE = 1609.344;

/**
 * One fix a minute driving east at 90 km/h along 39.0° N from 94.75° W (Kansas) across State Line
 * Road (94.607° W) into Missouri, with an odometer.
 */
function drive(start: number, minutes: number, lon0 = -94.75, odometer0 = 400_000_000) {
  const positions = [];
  const kmPerDegree = 111.32 * Math.cos((39 * Math.PI) / 180);
  for (let i = 0; i <= minutes; i++) {
    positions.push({
      fixTime: new Date(start + i * MIN).toISOString(),
      latitude: 39.0,
      longitude: lon0 + (1.5 * i) / kmPerDegree,
      speed: 90,
      odometer: odometer0 + 1500 * i,
    });
  }
  return positions;
}

async function ingest(v: TestVehicle, positions: unknown[]): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: bearer(v.token), payload: { positions } });
  expect(res.statusCode).toBe(200);
  expect(res.json().rejected).toEqual([]);
}

async function report(query: string, headers = admin): Promise<IftaReport> {
  const res = await t.app.inject({ method: 'GET', url: url(`/report?${query}`), headers });
  expect(res.statusCode, res.body).toBe(200);
  return iftaReportSchema.parse(res.json());
}

const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));

describe('IFTA miles from positions', () => {
  it('splits a drive across a state line into miles per state and day, kept behind ingest, and the return reads them', async () => {
    const start = Date.UTC(2026, 4, 12, 15, 0);
    await ingest(truck, drive(start, 20));
    await t.app.iftaMiles.idle();
    const rows = await sql<{ jurisdiction: string; metres: number; day: string }>(
      `select jurisdiction, metres, day::text from ifta_distance_days where organization_id = '${orgId}' and vehicle_id = '${truck.assetId}' order by jurisdiction`,
    );
    expect(rows.map((r) => r.jurisdiction)).toEqual(['KS', 'MO']);
    // The odometer decides how far: 20 minutes × 1.5 km.
    expect(rows.reduce((s, r) => s + r.metres, 0)).toBeCloseTo(30_000, 0);
    expect(rows[0]!.day).toBe('2026-05-12');
    const [crossing] = await sql<{ from_jurisdiction: string; to_jurisdiction: string; longitude: number; odometer_m: number }>(
      `select * from ifta_crossings where vehicle_id = '${truck.assetId}'`,
    );
    expect(crossing).toMatchObject({ from_jurisdiction: 'KS', to_jurisdiction: 'MO' });
    expect(crossing!.longitude).toBeCloseTo(-94.6077, 2);
    expect(crossing!.odometer_m).toBeGreaterThan(400_000_000);

    const r = await report('quarter=2026Q2&fuelType=DIESEL');
    expect(r.ratesQuarter).toBe('2026Q2');
    const ks = r.rows.find((x) => x.jurisdiction === 'KS')!;
    const mo = r.rows.find((x) => x.jurisdiction === 'MO')!;
    expect(ks.totalMiles + mo.totalMiles).toBe(r.totals.totalMiles);
    expect(r.totals.totalMiles).toBe(Math.round(rows[0]!.metres / MILE) + Math.round(rows[1]!.metres / MILE));
    expect(mo.rate).toBe(0.295);
    expect(r.vehicles.find((v) => v.assetId === truck.assetId)).toMatchObject({ unitNumber: 'IFTA1', odometerMiles: 19 });
    // No fuel yet: no MPG, nothing taxable, flagged.
    expect(r.totals.mpg).toBeNull();
    expect(r.flags.map((f) => f.kind)).toContain('NO_PURCHASES');
  });

  it('counts positions that arrive weeks late into the day they belong to, in another quarter', async () => {
    const late = Date.UTC(2026, 2, 20, 14, 0);
    expect((await report('quarter=2026Q1')).totals.totalMiles).toBe(0);
    // A buffered drive through Kansas ending where the May drive starts, odometer continuous.
    const kmPerDegree = 111.32 * Math.cos((39 * Math.PI) / 180);
    await ingest(truck, drive(late, 30, -94.75 - 45 / kmPerDegree, 400_000_000 - 45_000));
    await t.app.iftaMiles.idle({ dirty: true });
    const q1 = await report('quarter=2026Q1');
    expect(q1.rows.map((x) => x.jurisdiction)).toEqual(['KS']);
    expect(q1.totals.totalMiles).toBe(28);
    // The May day is untouched.
    const q2 = await report('quarter=2026Q2');
    expect(q2.totals.totalMiles).toBe(19);
  });

  it('recomputes a day when fixes in the middle of it arrive after the later ones', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'ifta-truck-2', unitNumber: 'IFTA2' });
    const all = drive(Date.UTC(2026, 4, 20, 10, 0), 20);
    const gapped = all.filter((_, i) => i < 5 || i > 15);
    await ingest(v, gapped);
    await t.app.iftaMiles.idle();
    const before = await sql<{ m: number; im: number }>(
      `select sum(metres) as m, sum(interpolated_metres) as im from ifta_distance_days where organization_id = '${orgId}' and vehicle_id = '${v.assetId}'`,
    );
    await ingest(v, all.slice(5, 16));
    await t.app.iftaMiles.idle({ dirty: true });
    const after = await sql<{ m: number; im: number; n: number }>(
      `select sum(metres) as m, sum(interpolated_metres) as im, (select sum(fixes) from ifta_vehicle_days where organization_id = '${orgId}' and vehicle_id = '${v.assetId}')::int as n from ifta_distance_days where organization_id = '${orgId}' and vehicle_id = '${v.assetId}'`,
    );
    expect(Number(after[0]!.m)).toBeCloseTo(Number(before[0]!.m), 3);
    expect(after[0]!.n).toBe(21);
    expect(Number(after[0]!.im)).toBe(0);
    expect(await sql(`select * from ifta_dirty_days`)).toEqual([]);
    // The month rollup follows the days through the recompute.
    const [months] = await sql<{ m: number }>(`select sum(metres) as m from ifta_distance_months where vehicle_id = '${v.assetId}'`);
    expect(Number(months!.m)).toBeCloseTo(Number(after[0]!.m), 3);
  });

  it("counts a new vehicle's stream from memory, and reads back a fix stored beside it that it was not handed", async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'ifta-truck-3', unitNumber: 'IFTA3' });
    const all = drive(Date.UTC(2026, 4, 22, 10, 0), 20);
    const read0 = t.app.iftaMiles.stats.storedFixesRead;
    // Three uploads before the first round: the vehicle is cold, yet its fixes are not read back.
    for (const part of [all.slice(0, 7), all.slice(7, 14), all.slice(14)]) await ingest(v, part);
    await t.app.iftaMiles.idle();
    expect(t.app.iftaMiles.stats.storedFixesRead - read0).toBeLessThanOrEqual(1);
    const counted = await sql<{ m: number; n: number }>(
      `select sum(metres) as m, (select sum(fixes) from ifta_vehicle_days where organization_id = '${orgId}' and vehicle_id = '${v.assetId}')::int as n from ifta_distance_days where organization_id = '${orgId}' and vehicle_id = '${v.assetId}'`,
    );
    expect(counted[0]!.n).toBe(21);
    expect(Number(counted[0]!.m)).toBeCloseTo(30_000, 0);

    // Another vehicle: a fix in the middle of its stream reaches the table without this process
    // handing it in (another instance, a bulk write); the table's count differs and it is read.
    const w = await createTestVehicle(t.app.db, orgId, { uniqueId: 'ifta-truck-4', unitNumber: 'IFTA4' });
    const fixes = drive(Date.UTC(2026, 4, 23, 10, 0), 20);
    const middle = fixes[10]!;
    await ingest(w, [...fixes.slice(0, 10), ...fixes.slice(11)]);
    await sql(`insert into positions (organization_id, gateway_id, asset_id, fix_time, latitude, longitude, speed, odometer, protocol)
      values ('${orgId}', '${w.gatewayId}', '${w.assetId}', '${middle.fixTime}', ${middle.latitude}, ${middle.longitude}, ${middle.speed}, ${middle.odometer}, 'test')`);
    const read1 = t.app.iftaMiles.stats.storedFixesRead;
    await t.app.iftaMiles.idle({ dirty: true });
    expect(t.app.iftaMiles.stats.storedFixesRead - read1).toBe(21);
    const [days] = await sql<{ n: number }>(
      `select sum(fixes)::int as n from ifta_vehicle_days where organization_id = '${orgId}' and vehicle_id = '${w.assetId}'`,
    );
    expect(days!.n).toBe(21);
  });

  it("gathers a large fleet's fixes for the pause between passes, a pass in rounds back to back", async () => {
    // Three vehicles, two a round: the old rule ran a round at once whenever a round's worth of
    // vehicles was waiting, so a fleet of a round or more was counted a fix or two at a time.
    const miles = new IftaMiles(t.database.db, { shared: t.database.kind !== 'pglite', roundPauseMs: 60_000, roundVehicles: 2 });
    const fleet = await Promise.all([1, 2, 3].map((i) => createTestVehicle(t.app.db, orgId, { uniqueId: `ifta-pass-${i}`, unitNumber: `PASS${i}` })));
    const row = (v: TestVehicle, minute: number): PositionRow => ({
      organizationId: orgId,
      gatewayId: v.gatewayId,
      assetId: v.assetId,
      driverId: null,
      fixTime: new Date(Date.UTC(2025, 7, 4, 12, minute)),
      latitude: 39,
      longitude: -95 + minute / 100,
      speed: 80,
      course: 90,
      altitude: null,
      accuracy: null,
      odometer: null,
      odometerSource: null,
      engineHours: null,
      ignition: true,
      protocol: 'batch',
      attributes: {},
    });
    for (const minute of [0, 1]) {
      miles.enqueue(
        fleet.map((v) => row(v, minute)),
        [true, true, true],
      );
      // The time passing is the subject: no round starts while the pause runs.
      await new Promise((r) => setTimeout(r, 100));
      expect(miles.stats.rounds).toBe(minute * 2);
      // The pause ends early when asked (shutdown, tests): one pass, two rounds.
      await miles.idle();
      expect(miles.stats).toMatchObject({ rounds: (minute + 1) * 2, fixes: (minute + 1) * 3, failures: 0 });
    }
    await miles.close();
    const ids = `'${fleet.map((v) => v.assetId).join("','")}'`;
    const [counted] = await sql<{
      n: number;
      m: number;
    }>(`select sum(fixes)::int as n, (select sum(metres) from ifta_distance_days where organization_id = '${orgId}' and vehicle_id in (${ids})) as m
      from ifta_vehicle_days where organization_id = '${orgId}' and vehicle_id in (${ids})`);
    expect(counted!.n).toBe(6);
    expect(Number(counted!.m)).toBeGreaterThan(3 * 800);
  });

  it('reads a cold history in chunks no larger than its budget, and counts all of it', async () => {
    // The embedded database answers on the API's thread: one 50,000-row read held every request for
    // seconds after a first start. A budget of 8 fixes: two at a time for each of four vehicles.
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'ifta-cold-1', unitNumber: 'COLD1' });
    // 10:00 UTC twenty days ago: within ingest's one year, whatever today is.
    const fixes = drive((Math.floor(Date.now() / 86_400_000) - 20) * 86_400_000 + 10 * 3_600_000, 20);
    await ingest(v, fixes);
    await t.app.iftaMiles.idle();
    const [whole] = await sql<{ m: number }>(
      `select sum(metres) as m from ifta_distance_days where organization_id = '${orgId}' and vehicle_id = '${v.assetId}'`,
    );
    for (const table of ['ifta_distance_days', 'ifta_vehicle_days', 'ifta_distance_months', 'ifta_vehicle_state'])
      await sql(`delete from ${table} where vehicle_id = '${v.assetId}'`);
    const miles = new IftaMiles(t.database.db, { shared: t.database.kind !== 'pglite', roundPauseMs: 0, coldReadFixes: 8 });
    miles.touch(v.assetId, orgId, Date.parse(fixes[fixes.length - 1]!.fixTime));
    await miles.idle();
    await miles.close();
    // 21 fixes, 2 a round: 11 rounds, each reading at most its chunk.
    expect(miles.stats).toMatchObject({ storedFixesRead: 21, failures: 0 });
    expect(miles.stats.rounds).toBe(11);
    const [again] = await sql<{
      m: number;
      n: number;
    }>(`select sum(metres) as m, (select sum(fixes) from ifta_vehicle_days where organization_id = '${orgId}' and vehicle_id = '${v.assetId}')::int as n
      from ifta_distance_days where organization_id = '${orgId}' and vehicle_id = '${v.assetId}'`);
    expect(again!.n).toBe(21);
    expect(Number(again!.m)).toBeCloseTo(Number(whole!.m), 3);
  });

  it('serves the distance records with crossings, odometer and miles per state', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(`/distance-records?quarter=2026Q2&assetId=${truck.assetId}`), headers: admin });
    expect(res.statusCode).toBe(200);
    const page = iftaDistancePageSchema.parse(res.json());
    expect(page.totalElements).toBe(1);
    expect(page.content[0]).toMatchObject({ unitNumber: 'IFTA1', day: '2026-05-12', odometerStartM: 400_000_000, odometerEndM: 400_030_000 });
    expect(page.content[0]!.crossings).toHaveLength(1);
  });
});

describe("IFTA days in the base jurisdiction's zone (issue 46, decision 0189)", () => {
  it("puts a Chicago carrier's evening of September 30 in Q3, though it is October 1 in UTC, with its fuel", async () => {
    const o = await registerOrganization(t.app, 'Chicago Base Carrier');
    const oid = o.user.organization!.id;
    const oh = bearer(o.accessToken);
    await t.database.db.execute(`update organizations set state = 'IL', time_zone = 'America/Chicago' where id = '${oid}'` as never);
    const v = await createTestVehicle(t.app.db, oid, { uniqueId: `ifta-chi-${Date.now()}`, unitNumber: 'CHI1' });
    // 22:00-22:20 CDT on September 30 is 03:00-03:20 UTC on October 1.
    const start = Date.UTC(2026, 9, 1, 3, 0);
    await ingest(v, drive(start, 20));
    await t.app.iftaMiles.idle();
    const get = async (quarter: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${oid}/ifta/report?quarter=${quarter}&fuelType=DIESEL`, headers: oh });
      expect(res.statusCode, res.body).toBe(200);
      return iftaReportSchema.parse(res.json());
    };
    const q3 = await get('2026Q3');
    expect(q3.timeZone).toBe('America/Chicago');
    expect(q3.totals.totalMiles).toBeGreaterThanOrEqual(18);
    expect((await get('2026Q4')).totals.totalMiles).toBe(0);
    const days = iftaDistancePageSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${oid}/ifta/distance-records?quarter=2026Q3`, headers: oh })).json(),
    );
    expect(days.content.map((d) => d.day)).toEqual(['2026-09-30']);
    // Fuel bought that evening (03:30 UTC on October 1) counts in the same quarter.
    const buy = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${oid}/ifta/fuel-purchases`,
      headers: oh,
      payload: {
        assetId: v.assetId,
        purchasedAt: '2026-10-01T03:30:00Z',
        jurisdiction: 'MO',
        quantity: 50,
        volumeUnit: 'GAL',
        pricePerUnit: 4,
        totalAmount: 200,
        receiptNumber: 'CHI-EVE-1',
      },
    });
    expect(buy.statusCode, buy.body).toBe(201);
    expect((await get('2026Q3')).totals.totalGallons).toBe(50);
    expect((await get('2026Q4')).totals.totalGallons).toBe(0);
  });
});

/** The stray-fix carrier of the jump test: its return has flags with long messages (the PDF test draws it). */
let stray: { oid: string; oh: Record<string, string> } | null = null;

describe('impossible jumps (issue 46)', () => {
  it('leaves a jump flagged as impossible out of the totals until someone accepts it, and the return says so', async () => {
    const o = await registerOrganization(t.app, 'Stray Fix Carrier');
    const oid = o.user.organization!.id;
    const oh = bearer(o.accessToken);
    stray = { oid, oh };
    const v = await createTestVehicle(t.app.db, oid, { uniqueId: `ifta-stray-${Date.now()}`, unitNumber: 'STRAY1' });
    // Kansas at 90 km/h, no odometer; one stray fix in West Texas (about 600 mi away) a minute into it.
    const start = Date.UTC(2026, 7, 12, 15, 0);
    const track = drive(start, 30).map((p) => ({ fixTime: p.fixTime, latitude: p.latitude, longitude: p.longitude, speed: p.speed }));
    track[21] = { ...track[21]!, latitude: 31.5, longitude: -102.3 };
    await ingest(v, track);
    await t.app.iftaMiles.idle();
    const get = async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${oid}/ifta/report?quarter=2026Q3&fuelType=DIESEL`, headers: oh });
      expect(res.statusCode, res.body).toBe(200);
      return iftaReportSchema.parse(res.json());
    };
    const before = await get();
    const jump = before.flags.find((f) => f.kind === 'IMPOSSIBLE_SPEED')!;
    expect(jump.message).toContain('left out of the totals until marked reviewed');
    // The 45 km driven, less the two minutes around the stray fix: no Texas, no 1,200 miles.
    expect(before.totals.totalMiles).toBeLessThan(30);
    expect(before.rows.map((r) => r.jurisdiction)).not.toContain('TX');
    expect(before.unacceptedJumps.days).toBe(1);
    expect(before.unacceptedJumps.miles).toBeGreaterThan(1000);
    expect(before.unacceptedJumps.jurisdictions.map((j) => j.jurisdiction)).toContain('TX');
    expect(before.vehicles[0]!.totalMiles).toBe(before.totals.totalMiles);
    // The exports say so at the top.
    const csv = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${oid}/ifta/report/export?quarter=2026Q3&format=csv`, headers: oh })).body;
    expect(csv).toMatch(/NOT COUNTED,"?\d[\d,]* mi of jumps flagged as impossible/);
    const pdf = pdfText(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${oid}/ifta/report/export?quarter=2026Q3&format=pdf`, headers: oh })).rawPayload,
    ).replace(/\n/g, ' ');
    expect(pdf).toContain('NOT COUNTED:');
    // Accepted (marked reviewed): counted again, and the return no longer says it is left out.
    const mark = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${oid}/ifta/review-marks`,
      headers: oh,
      payload: { quarter: '2026Q3', keys: [jump.key] },
    });
    expect(mark.statusCode, mark.body).toBe(200);
    const after = await get();
    expect(after.unacceptedJumps).toEqual({ days: 0, miles: 0, jurisdictions: [] });
    expect(Math.abs(after.totals.totalMiles - (before.totals.totalMiles + before.unacceptedJumps.miles))).toBeLessThanOrEqual(2);
    expect(after.rows.map((r) => r.jurisdiction)).toContain('TX');
    // Another organization sees none of it.
    expect((await report('quarter=2026Q3&fuelType=DIESEL')).vehicles.some((x) => x.assetId === v.assetId)).toBe(false);
  });
});

describe('fuel purchases', () => {
  const purchase = (over: Record<string, unknown> = {}) => ({
    purchasedAt: '2026-05-12T15:18:00Z',
    assetId: truck.assetId,
    jurisdiction: 'MO',
    quantity: 3.2,
    volumeUnit: 'GAL',
    pricePerUnit: 3.899,
    totalAmount: 12.48,
    receiptNumber: 'R-1001',
    vendor: "Love's",
    ...over,
  });

  it('records a purchase, refuses its receipt number twice with 409, and checks where the vehicle was', async () => {
    const res = await t.app.inject({ method: 'POST', url: url('/fuel-purchases'), headers: admin, payload: purchase() });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ jurisdiction: 'MO', gallons: 3.2, totalAmount: 12.48, locationCheck: 'OK', unitNumber: 'IFTA1' });
    const dup = await t.app.inject({ method: 'POST', url: url('/fuel-purchases'), headers: admin, payload: purchase({ receiptNumber: 'r-1001' }) });
    expect(expectErrorBody(dup.json(), 409).technicalMessage).toMatch(/^receiptNumber: /);
    // Bought "in Illinois" while the truck was in Missouri: flagged, still recorded.
    const far = await t.app.inject({
      method: 'POST',
      url: url('/fuel-purchases'),
      headers: admin,
      payload: purchase({ receiptNumber: 'R-1002', jurisdiction: 'IL', quantity: 10 }),
    });
    expect(far.json()).toMatchObject({ locationCheck: 'OTHER_JURISDICTION' });
    const list = await t.app.inject({ method: 'GET', url: url('/fuel-purchases?quarter=2026Q2&flagged=true'), headers: dispatcher });
    expect(list.json()).toMatchObject({ totalElements: 1, content: [{ receiptNumber: 'R-1002' }] });
    const r = await report('quarter=2026Q2');
    expect(r.totals.totalGallons).toBe(13);
    expect(r.flags.find((f) => f.kind === 'SUSPICIOUS_PURCHASE')).toMatchObject({ jurisdiction: 'IL' });
    await t.app.inject({ method: 'DELETE', url: url(`/fuel-purchases/${far.json().id}`), headers: admin });
  });

  it('answers 400 naming the field for a bad purchase and changes nothing', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: url('/fuel-purchases'),
      headers: admin,
      payload: purchase({ receiptNumber: 'R-BAD', quantity: 1.2345, jurisdiction: 'ZZ9' }),
    });
    const body = expectErrorBody(bad.json(), 400);
    expect(body.technicalMessage).toMatch(/quantity|jurisdiction/);
    expect(await sql(`select 1 from ifta_fuel_purchases where receipt_number = 'R-BAD'`)).toEqual([]);
  });

  it('imports a WEX export with a column mapping: litres and gallons, non-fuel lines skipped and listed, errors per row', async () => {
    const csv = [
      'Transaction Date,Transaction Time,Vehicle Number,Card Number,Merchant Name,Merchant City,Merchant State,Product Description,Qty,Unit Price,Gross Amount,Transaction Number',
      '05/12/2026,10:10,IFTA1,****1234,Pilot,Kansas City,MO,Diesel #2,100.5,3.899,391.85,W-1',
      '05/12/2026,10:11,IFTA1,****1234,Pilot,Kansas City,MO,DEF,2.5,4.10,10.25,W-2',
      '05/12/2026,10:12,IFTA1,****1234,Pilot,Kansas City,MO,Reefer Diesel,40,3.899,155.96,W-3',
      '05/13/2026,08:00,NOPE,****1234,Pilot,Joplin,MO,ULSD,50,3.5,175,W-4',
      '05/13/2026,08:00,IFTA1,****1234,Pilot,Joplin,MO,ULSD,abc,3.5,175,W-5',
    ].join('\n');
    const body = { csv, preset: 'WEX', mapping: { gallons: '', quantity: 'Qty' }, defaultUnit: 'L' };
    const prev = await t.app.inject({ method: 'POST', url: url('/fuel-purchases/import/preview'), headers: admin, payload: body });
    expect(prev.statusCode, prev.body).toBe(200);
    const p = fuelCsvPreviewSchema.parse(prev.json());
    expect(p).toMatchObject({ totalRows: 5, validRows: 1, invalidRows: 2, skippedRows: 2 });
    expect(p.skipped.map((s) => s.line)).toEqual([3, 4]);
    expect(p.errors).toEqual([
      { line: 5, field: 'Vehicle Number', message: 'No vehicle with unit number NOPE in this organization' },
      { line: 6, field: 'Qty', message: '"abc" is not a positive quantity with at most 3 decimals' },
    ]);
    expect(p.sample[0]).toMatchObject({ volumeUnit: 'L', quantity: 100.5, gallons: 26.549 });
    // 10:10 in Chicago is 15:10 UTC, when the truck was in Missouri.
    expect(p.sample[0]!.purchasedAt).toBe('2026-05-12T15:10:00.000Z');
    expect(await sql(`select 1 from ifta_fuel_purchases where receipt_number = 'W-1'`)).toEqual([]);
    const done = await t.app.inject({ method: 'POST', url: url('/fuel-purchases/import'), headers: admin, payload: body });
    expect(done.json()).toMatchObject({ imported: 1 });
    const [log] = await sql<{ n: number }>(`select count(*)::int as n from activity_log where entity_type = 'IFTA_FUEL_PURCHASE' and action = 'IMPORT'`);
    expect(log!.n).toBe(1);
    // The importer's bell says it finished, with the rows that were not imported.
    const bell = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/notifications?size=50`, headers: admin })).json().content as Array<{
      kind: string;
      title: string;
    }>;
    expect(bell.find((n) => n.kind === 'IMPORT_FINISHED' && n.title === 'Import finished: 1 fuel purchase added')).toMatchObject({
      expandedContent: '2 rows of the file had errors and were not imported.',
      expandedButton: { href: '/ifta?tab=fuel', label: 'Open fuel purchases' },
    });
  });

  it('refuses a mapping that names no receipt column with a 400 naming the mapping', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: url('/fuel-purchases/import/preview'),
      headers: admin,
      payload: { csv: 'a,b\n1,2', preset: 'CUSTOM', mapping: { date: 'a' } },
    });
    expect(expectErrorBody(res.json(), 400).technicalMessage).toMatch(/^mapping: The column mapping names no column for the unit number/);
  });
});

describe('adjustments, permissions and tenancy', () => {
  it('adds and removes an adjustment with a reason, each written to the activity log', async () => {
    const before = await report('quarter=2026Q2');
    const res = await t.app.inject({
      method: 'POST',
      url: url('/adjustments'),
      headers: admin,
      payload: {
        day: '2026-05-14',
        assetId: truck.assetId,
        jurisdiction: 'IL',
        adjustmentKind: 'MISSING_TRIP',
        distanceM: 100 * MILE,
        reason: 'Device unplugged, trip sheet 5521',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const after = await report('quarter=2026Q2');
    expect(after.totals.totalMiles).toBe(before.totals.totalMiles + 100);
    expect(after.rows.find((r) => r.jurisdiction === 'IL')!.totalMiles).toBe(100);
    const off = await t.app.inject({
      method: 'POST',
      url: url('/adjustments'),
      headers: admin,
      payload: { day: '2026-05-14', assetId: truck.assetId, jurisdiction: 'IL', adjustmentKind: 'OFF_HIGHWAY', distanceM: 10 * MILE, reason: 'Yard' },
    });
    const il = (await report('quarter=2026Q2')).rows.find((r) => r.jurisdiction === 'IL')!;
    expect([il.totalMiles, il.taxableMiles]).toEqual([100, 90]);
    const neg = await t.app.inject({
      method: 'POST',
      url: url('/adjustments'),
      headers: admin,
      payload: { day: '2026-05-14', jurisdiction: 'IL', adjustmentKind: 'OFF_HIGHWAY', distanceM: -5, reason: 'x' },
    });
    expect(expectErrorBody(neg.json(), 400).technicalMessage).toBe('distanceM: Distance may be negative only for a correction');
    for (const id of [res.json().id, off.json().id])
      expect((await t.app.inject({ method: 'DELETE', url: url(`/adjustments/${id}`), headers: admin })).statusCode).toBe(204);
    const [n] = await sql<{ n: number }>(`select count(*)::int as n from activity_log where entity_type = 'IFTA_ADJUSTMENT'`);
    expect(n!.n).toBe(4);
  });

  it('answers 403 to a user without the permission and 404 for another organization', async () => {
    const post = await t.app.inject({ method: 'POST', url: url('/adjustments'), headers: dispatcher, payload: {} });
    expectErrorBody(post.json(), 403);
    expect((await t.app.inject({ method: 'GET', url: url('/report?quarter=2026Q2'), headers: dispatcher })).statusCode).toBe(200);
    const other = await registerOrganization(t.app, 'Other Haulers');
    const foreign = await t.app.inject({ method: 'GET', url: url('/report?quarter=2026Q2'), headers: bearer(other.accessToken) });
    expectErrorBody(foreign.json(), 404);
    const filters = await t.app.inject({ method: 'GET', url: `/api/v1/settings/ifta-filters?organizationId=${orgId}`, headers: bearer(other.accessToken) });
    expectErrorBody(filters.json(), 404);
    const unauth = await t.app.inject({ method: 'GET', url: url('/report?quarter=2026Q2') });
    expectErrorBody(unauth.json(), 401);
    const badQuarter = await t.app.inject({ method: 'GET', url: url('/report?quarter=2026Q5'), headers: admin });
    expect(expectErrorBody(badQuarter.json(), 400).technicalMessage).toMatch(/quarter/);
  });

  it('lists quarters with data, fuel types and jurisdictions', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/settings/ifta-filters', headers: admin });
    expect(res.statusCode).toBe(200);
    const f = res.json();
    expect(f.quarters.find((q: { quarter: string }) => q.quarter === '2026Q2')).toMatchObject({ hasMiles: true, hasPurchases: true, hasRates: true });
    expect(f.quarters.find((q: { quarter: string }) => q.quarter === '2026Q1')).toMatchObject({ hasMiles: true, hasRates: false });
    expect(f.jurisdictions.find((j: { code: string }) => j.code === 'DC')).toMatchObject({ member: false });
  });
});

describe('tax rates', () => {
  it('serves the bundled 2Q2026 matrix with the Kentucky and Virginia surcharges', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/settings/ifta-rates?quarter=2026Q2', headers: dispatcher });
    const m = res.json();
    const rate = (j: string, kind = 'BASE') =>
      m.rates.find((r: { jurisdiction: string; fuelType: string; kind: string }) => r.jurisdiction === j && r.fuelType === 'DIESEL' && r.kind === kind);
    expect(rate('IL').usdPerGallon).toBe(0.738);
    expect(rate('KY', 'SURCHARGE').usdPerGallon).toBe(0.105);
    expect(rate('VA', 'SURCHARGE').usdPerGallon).toBe(0.143);
    expect(rate('ON')).toMatchObject({ usdPerGallon: 0.249, cadPerLitre: 0.09 });
  });

  it('lets only a super administrator import a quarter, and refuses a broken file naming the line and column', async () => {
    const csv = IFTA_2Q2026_CSV.replace('2nd Quarter 2026', '3rd Quarter 2026');
    expectErrorBody((await t.app.inject({ method: 'POST', url: '/api/v1/settings/ifta-rates', headers: admin, payload: { csv } })).json(), 403);
    const broken = csv.replace('ILLINOIS #26,U.S.,$ 0.6530 ,$ 0.7380', 'ILLINOIS #26,U.S.,$ 0.6530 ,$ 0.73x0');
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/settings/ifta-rates', headers: superAdmin, payload: { csv: broken } });
    expect(expectErrorBody(bad.json(), 400).message).toMatch(/^Line \d+, Special Diesel: ILLINOIS: "\$ 0.73x0" is not a rate/);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/settings/ifta-rates?quarter=2026Q3', headers: admin })).json().rates).toEqual([]);
    const ok = await t.app.inject({ method: 'POST', url: '/api/v1/settings/ifta-rates', headers: superAdmin, payload: { csv, source: 'test' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ quarter: '2026Q3', jurisdictions: 58, replaces: false, missing: [] });
  });
});

describe('closing a quarter', () => {
  it('keeps the filed figures and shows later changes as an amendment against them', async () => {
    const early = await t.app.inject({ method: 'POST', url: url('/filings'), headers: admin, payload: { quarter: '2026Q4' } });
    expect(expectErrorBody(early.json(), 400).technicalMessage).toMatch(/^quarter: 2026Q4 ends on 2026-12-31/);
    expectErrorBody((await t.app.inject({ method: 'POST', url: url('/filings'), headers: dispatcher, payload: { quarter: '2026Q2' } })).json(), 403);
    const filed = await t.app.inject({ method: 'POST', url: url('/filings'), headers: admin, payload: { quarter: '2026Q2', filedAt: '2026-07-30' } });
    expect(filed.statusCode, filed.body).toBe(201);
    expect(filed.json()).toMatchObject({ version: 1, amended: false });
    const closed = await report('quarter=2026Q2');
    expect(closed.filing).toMatchObject({ version: 1, filedAt: '2026-07-30' });
    expect(closed.amendment).toBeNull();
    expect(closed.filed!.totals).toEqual(closed.totals);

    await t.app.inject({
      method: 'POST',
      url: url('/adjustments'),
      headers: admin,
      payload: {
        day: '2026-06-02',
        assetId: truck.assetId,
        jurisdiction: 'KY',
        adjustmentKind: 'MISSING_TRIP',
        distanceM: 50 * MILE,
        reason: 'Trip found after filing',
      },
    });
    const changed = await report('quarter=2026Q2');
    expect(changed.filed!.totals.totalMiles).toBe(closed.totals.totalMiles);
    expect(changed.totals.totalMiles).toBe(closed.totals.totalMiles + 50);
    expect(changed.amendment!.rows.find((r) => r.jurisdiction === 'KY')).toMatchObject({ filedMiles: 0, currentMiles: 50 });
    const amended = await t.app.inject({ method: 'POST', url: url('/filings'), headers: admin, payload: { quarter: '2026Q2', filedAt: '2026-08-03' } });
    expect(amended.json()).toMatchObject({ version: 2, amended: true });
    // Filed late (after July 31): interest on what is due, and the penalty.
    expect(amended.json().returns[0].totals.penalty).toBeGreaterThanOrEqual(50);
    const list = await t.app.inject({ method: 'GET', url: url('/filings?quarter=2026Q2'), headers: dispatcher });
    expect(list.json().map((f: { version: number }) => f.version)).toEqual([1, 2]);
  });

  it('exports the return and the distance records as CSV and PDF', async () => {
    const csv = await t.app.inject({ method: 'GET', url: url('/report/export?quarter=2026Q2&format=csv'), headers: dispatcher });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('ifta-2026Q2-diesel.csv');
    expect(csv.body).toContain('Jurisdiction,Name,Fuel type,Total miles');
    expect(csv.body).toMatch(/\nMO,Missouri,Special Diesel,/);
    const pdf = await t.app.inject({ method: 'GET', url: url('/report/export?quarter=2026Q2&format=pdf'), headers: dispatcher });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const dist = await t.app.inject({
      method: 'GET',
      url: url(`/distance-records/export?quarter=2026Q2&format=csv&assetId=${truck.assetId}`),
      headers: dispatcher,
    });
    expect(dist.body).toContain('IFTA1,2026-05-12');
    const distPdf = await t.app.inject({ method: 'GET', url: url('/distance-records/export?quarter=2026Q2&format=pdf'), headers: dispatcher });
    expect(distPdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('the return PDF laid out as the report PDFs (issue 46)', () => {
  it('draws every table header on one line, nothing past the right margin, no heading alone at a page foot, and renders each page', async () => {
    // A rich quarter: the demo organization's, with its vehicles, flags and amendment, and a long To review list.
    const PDFDocument = await loadPdfKit();
    const measure = new PDFDocument({ size: 'LETTER', layout: 'landscape' });
    const files: Array<[string, Buffer]> = [];
    expect(stray).not.toBeNull();
    const strayUrl = (path: string) => `/api/v1/organizations/${stray!.oid}/ifta${path}`;
    for (const [name, path, headers] of [
      ['return', url('/report/export?quarter=2026Q2&format=pdf'), admin],
      ['flags', strayUrl('/report/export?quarter=2026Q3&format=pdf'), stray!.oh],
      ['distance', url('/distance-records/export?quarter=2026Q2&format=pdf'), admin],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: path, headers });
      expect(res.statusCode).toBe(200);
      const pdf = res.rawPayload;
      files.push([name, pdf]);
      const runs = pdfTextRuns(pdf);
      expect(runs.length).toBeGreaterThan(10);
      // Header rows: the titles of one table share one line (they were staggered diagonally).
      const tables =
        name === 'return'
          ? ([
              ['Jur.', 11],
              ['Unit', 6],
            ] as const)
          : name === 'flags'
            ? ([
                ['Jur.', 11],
                ['Kind', 5],
              ] as const)
            : ([['Unit', 7]] as const);
      for (const [title, columns] of tables) {
        const at = runs.findIndex((r) => r.text === title);
        expect(at, `${name}: a table headed "${title}"`).toBeGreaterThanOrEqual(0);
        const row = runs.slice(at, at + columns);
        expect(new Set(row.map((r) => `${r.page}:${Math.round(r.y)}`)).size, `${name}: ${row.map((r) => r.text).join(' | ')} on one line`).toBe(1);
      }
      // Nothing runs past the right margin (a long cell wraps in its column).
      for (const r of runs) {
        const width = measure
          .font(r.size >= 9.5 ? 'Helvetica-Bold' : 'Helvetica')
          .fontSize(r.size)
          .widthOfString(r.text);
        expect(r.x + width, `${name} page ${r.page}: "${r.text.slice(0, 40)}"`).toBeLessThanOrEqual(792 - 30);
      }
      // A heading is followed on its page by what it heads.
      for (const h of runs.filter((r) => /^(To review \(|Miles and fuel per vehicle|Amendment against|Jurisdictions$|Distance records$)/.test(r.text))) {
        expect(
          runs.some((r) => r.page === h.page && r.y > h.y + 12),
          `${name}: "${h.text}" alone at the foot of page ${h.page}`,
        ).toBe(true);
      }
    }
    // Page breaks: the stray carrier's return grown to a fleet's (60 vehicles, 45 items to review) runs
    // over several pages; each table's header repeats, and no heading is left alone at a page's foot.
    const base = iftaReportSchema.parse(
      (await t.app.inject({ method: 'GET', url: strayUrl('/report?quarter=2026Q3&fuelType=DIESEL'), headers: stray!.oh })).json(),
    );
    const big = {
      ...base,
      vehicles: Array.from({ length: 60 }, (_, i) => ({
        ...base.vehicles[0]!,
        unitNumber: `T${100 + i}`,
        jurisdictions: ['TX', 'OK', 'KS', 'MO', 'IL', 'IN', 'OH', 'PA', 'NY', 'NJ', 'AR', 'TN'].map((jurisdiction, k) => ({
          jurisdiction,
          miles: 100 * (k + 1) + i,
        })),
      })),
      flags: Array.from({ length: 45 }, (_, i) => ({
        ...base.flags[i % base.flags.length]!,
        key: `k${i}`,
        message: `${base.flags[i % base.flags.length]!.message} ${'and a long explanation that wraps '.repeat(i % 4)}`.trim(),
      })),
    };
    const bigPdf = await returnPdf(big);
    files.push(['pages', bigPdf]);
    expect(pdfPageCount(bigPdf)).toBeGreaterThan(2);
    const bigRuns = pdfTextRuns(bigPdf);
    for (const h of bigRuns.filter((r) => /^(To review \(|Miles and fuel per vehicle)/.test(r.text))) {
      expect(
        bigRuns.some((r) => r.page === h.page && r.y > h.y + 12),
        `"${h.text}" alone at the foot of page ${h.page}`,
      ).toBe(true);
    }
    for (const r of bigRuns)
      expect(r.x + measure.font('Helvetica').fontSize(r.size).widthOfString(r.text), `pages: "${r.text.slice(0, 40)}"`).toBeLessThanOrEqual(792 - 30);
    // Every page after the first starts with a table's header row.
    for (let page = 2; page <= pdfPageCount(bigPdf); page++) {
      const top = bigRuns.filter((r) => r.page === page).sort((x, y) => x.y - y.y)[0]!;
      expect(top.text, `page ${page} begins with a header or a heading`).toMatch(/^(Unit|Kind|Miles and fuel per vehicle \(60\)|To review \(45, )/);
    }

    // Each page as a picture (looked at by a person, decision 0190), where pdftoppm is installed.
    const hasPdftoppm = spawnSync('pdftoppm', ['-v']).error === undefined;
    if (!hasPdftoppm) return;
    const dir = process.env.IFTA_PDF_PNG_DIR ?? mkdtempSync(join(tmpdir(), 'ifta-pdf-'));
    mkdirSync(dir, { recursive: true });
    for (const [name, pdf] of files) {
      writeFileSync(join(dir, `${name}.pdf`), pdf);
      const r = spawnSync('pdftoppm', ['-png', '-r', '70', join(dir, `${name}.pdf`), join(dir, name)]);
      expect(r.status, r.stderr?.toString()).toBe(0);
      const pngs = readdirSync(dir).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'));
      expect(pngs.length).toBe(pdfPageCount(pdf));
    }
  });
});
