import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetPerformanceSchema, fuelCsvPreviewSchema, iftaReportSchema, type IftaReport } from '@fleet/api-contract';
import { sql as dsql } from 'drizzle-orm';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { freshVin, userWithPermissions } from '../../test/registry.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { pdfText } from '../../test/pdf.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { fuelUsedLitres } from '../analytics/index.ts';

// Issue 28: a purchase cannot silently ruin a return. The opening's three entries (99,999 gal for
// one truck, $9,999 for 10 gal at $4.00, jurisdiction "ZZ") each through the API, the CSV import
// with the same rules, the review list with who checked what, and the banner of the PDF.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let truck: TestVehicle;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Checked Fuel Lines');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  truck = await createTestVehicle(t.app.db, orgId, { uniqueId: 'check-truck-1', unitNumber: 'T101' });
});
afterAll(async () => {
  await t?.close();
});

const url = (path: string) => `/api/v1/organizations/${orgId}${path}`;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const setUnits = (units: 'IMPERIAL' | 'METRIC') =>
  t.database.db.execute(dsql`update organizations set settings = settings || ${JSON.stringify({ units })}::jsonb where id = ${orgId}`);

const purchase = (over: Record<string, unknown> = {}) => ({
  purchasedAt: '2026-05-12T15:18:00Z',
  assetId: truck.assetId,
  jurisdiction: 'TX',
  quantity: 100,
  volumeUnit: 'GAL',
  pricePerUnit: 4,
  totalAmount: 400,
  receiptNumber: `R-${Math.random().toString(36).slice(2, 10)}`,
  ...over,
});
const post = (body: Record<string, unknown>, headers = admin) => t.app.inject({ method: 'POST', url: url('/ifta/fuel-purchases'), headers, payload: body });

async function report(quarter = '2026Q2'): Promise<IftaReport> {
  const res = await t.app.inject({ method: 'GET', url: url(`/ifta/report?quarter=${quarter}`), headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return iftaReportSchema.parse(res.json());
}

describe('fuel purchases refused with a 400 naming the field', () => {
  it('refuses jurisdiction ZZ, which the CSV import also refuses, and stores nothing', async () => {
    const bad = await post(purchase({ jurisdiction: 'ZZ', receiptNumber: 'ZZ-1' }));
    expectFieldErrors(bad.json(), 400, {
      jurisdiction: 'Jurisdiction must be an IFTA member (a US state or Canadian province) or a known non-member (AK, HI, DC, PR, YT, NT, NU, MX)',
    });
    expect(await sql(`select 1 from ifta_fuel_purchases where receipt_number = 'ZZ-1'`)).toEqual([]);
    // A known non-member is a jurisdiction (its miles count in the fleet total).
    expect((await post(purchase({ jurisdiction: 'MX', quantity: 50, totalAmount: 200, receiptNumber: 'MX-1' }))).statusCode).toBe(201);
  });

  it('refuses 99,999 gallons for one truck (more than its default 300 gal tank) unless confirmed as a bulk or split entry', async () => {
    const bad = await post(purchase({ quantity: 99_999, totalAmount: 399_996, receiptNumber: 'BIG-1' }));
    expectFieldErrors(bad.json(), 400, {
      quantity:
        'Quantity is more than the 300 gal tank of unit T101 (the default; set its tank capacity on the vehicle): check the quantity, or mark the purchase as a bulk or split entry',
    });
    expect(await sql(`select 1 from ifta_fuel_purchases where receipt_number = 'BIG-1'`)).toEqual([]);
    // Up to the tank is fine; a bulk withdrawal is stored and listed under To review.
    expect((await post(purchase({ quantity: 300, totalAmount: 1200, receiptNumber: 'FULL-1' }))).statusCode).toBe(201);
    const bulk = await post(purchase({ quantity: 2000, totalAmount: 8000, receiptNumber: 'BULK-1', bulk: true }));
    expect(bulk.statusCode, bulk.body).toBe(201);
    expect(bulk.json()).toMatchObject({ bulk: true, priceMismatch: false });
    const item = (await report()).flags.find((f) => f.purchaseId === bulk.json().id);
    expect(item).toMatchObject({ kind: 'BULK_PURCHASE', reviewed: null });
    expect(item!.message).toBe(
      'Receipt BULK-1: 2,000 gal, more than the 300 gal tank, entered as a bulk or split entry: check it is shared out to the right vehicles',
    );
  });

  it("uses the vehicle's own tank capacity (litres on the wire, the organization's units in the message)", async () => {
    const v = (await t.app.inject({ method: 'GET', url: url(`/assets/${truck.assetId}`), headers: admin })).json();
    expect(v.tankCapacityL).toBeNull();
    const vin = freshVin();
    const put = await t.app.inject({
      method: 'PUT',
      url: url(`/assets/${truck.assetId}`),
      headers: admin,
      payload: { type: 'VEHICLE', unitNumber: 'T101', vin, tankCapacityL: 454.249 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().tankCapacityL).toBe(454.249);
    const zero = await t.app.inject({
      method: 'PUT',
      url: url(`/assets/${truck.assetId}`),
      headers: admin,
      payload: { type: 'VEHICLE', unitNumber: 'T101', vin, tankCapacityL: 0 },
    });
    expectFieldErrors(zero.json(), 400, { tankCapacityL: 'Tank capacity must be more than zero' });
    // 120 gal (454.249 L) fits; 121 does not; 500 L does not either.
    expect((await post(purchase({ quantity: 120, totalAmount: 480, receiptNumber: 'T-120' }))).statusCode).toBe(201);
    expect(expectErrorBody((await post(purchase({ quantity: 121, totalAmount: 484 }))).json(), 400).message).toMatch(
      /^Quantity is more than the 120 gal tank of unit T101: /,
    );
    await setUnits('METRIC');
    try {
      expect(expectErrorBody((await post(purchase({ quantity: 500, volumeUnit: 'L', totalAmount: 2000 }))).json(), 400).message).toMatch(
        /^Quantity is more than the 454.2 L tank of unit T101: /,
      );
    } finally {
      await setUnits('IMPERIAL');
    }
  });
});

describe('tank capacity in the vehicles CSV', () => {
  it("exports it in the organization's units and imports it back to litres", async () => {
    const csv = (await t.app.inject({ method: 'GET', url: url('/assets/export?type=VEHICLE'), headers: admin })).body;
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    const col = header!.split(',').indexOf('Tank capacity (gal)');
    expect(col).toBeGreaterThan(0);
    expect(lines.find((l) => l.startsWith('T101,'))!.split(',')[col]).toBe('120');
    const file = `Unit number,VIN,Tank capacity (gal)\nT150,${freshVin()},150\nT151,${freshVin()},-3\n`;
    const res = await t.app.inject({ method: 'POST', url: url('/imports/vehicles'), headers: admin, payload: { csv: file } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().errors).toEqual([expect.objectContaining({ line: 3, field: 'Tank capacity (gal)', message: 'Tank capacity must be more than zero' })]);
    const [row] = await sql<{ tank_capacity_l: number }>(`select tank_capacity_l from assets where organization_id = '${orgId}' and unit_number = 'T150'`);
    expect(row!.tank_capacity_l).toBeCloseTo(567.812, 3);
  });
});

describe('purchases flagged and listed under To review', () => {
  it('stores $9,999 for 10 gal at $4.00, flags the price against the total and says why', async () => {
    const res = await post(purchase({ quantity: 10, pricePerUnit: 4, totalAmount: 9999, receiptNumber: 'PRICE-1' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ priceMismatch: true, totalAmount: 9999 });
    // Within 1 % (rounding of the receipt) is not a mismatch.
    expect((await post(purchase({ quantity: 10.123, pricePerUnit: 3.999, totalAmount: 40.48, receiptNumber: 'PRICE-OK' }))).json().priceMismatch).toBe(false);
    const flagged = await t.app.inject({ method: 'GET', url: url('/ifta/fuel-purchases?quarter=2026Q2&flagged=true'), headers: admin });
    expect(flagged.json().content.map((p: { receiptNumber: string }) => p.receiptNumber)).toEqual(expect.arrayContaining(['PRICE-1', 'BULK-1']));
    expect(flagged.json().content.map((p: { receiptNumber: string }) => p.receiptNumber)).not.toContain('PRICE-OK');
    const r = await report();
    expect(r.flags.find((f) => f.purchaseId === res.json().id)).toMatchObject({
      kind: 'PRICE_MISMATCH',
      message: 'Receipt PRICE-1: 10 gal at $4.000 per gallon is $40.00, but the total is $9,999.00 (more than 1 % apart)',
    });
    expect(r.review.unreviewed).toBe(r.flags.length);
  });

  it("says how far the vehicle was from the station in the organization's units, beyond the 2 km threshold", async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'check-truck-far', unitNumber: 'T102' });
    const start = Date.UTC(2026, 4, 14, 15, 0);
    const positions = Array.from({ length: 11 }, (_, i) => ({
      fixTime: new Date(start + i * 60_000).toISOString(),
      latitude: 32.8,
      longitude: -97.0,
      speed: 0,
    }));
    const ing = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: bearer(v.token), payload: { positions } });
    expect(ing.statusCode).toBe(200);
    // The station 0.2° of latitude north: about 22.2 km, 13.8 mi.
    const far = await post(
      purchase({ assetId: v.assetId, purchasedAt: new Date(start + 5 * 60_000).toISOString(), stationLat: 33.0, stationLon: -97.0, receiptNumber: 'FAR-1' }),
    );
    expect(far.json()).toMatchObject({ locationCheck: 'FAR' });
    const near = await post(
      purchase({ assetId: v.assetId, purchasedAt: new Date(start + 5 * 60_000).toISOString(), stationLat: 32.81, stationLon: -97.0, receiptNumber: 'NEAR-1' }),
    );
    expect(near.json()).toMatchObject({ locationCheck: 'OK' });
    const flag = (r: IftaReport) => r.flags.find((f) => f.purchaseId === far.json().id)!;
    expect(flag(await report()).message).toBe('Receipt FAR-1: the vehicle was 13.8 mi from the station at that time (more than 1.2 mi)');
    await setUnits('METRIC');
    try {
      const r = await report();
      expect(r.units).toBe('METRIC');
      expect(flag(r).message).toBe('Receipt FAR-1: the vehicle was 22.2 km from the station at that time (more than 2 km)');
    } finally {
      await setUnits('IMPERIAL');
    }
  });
});

describe('the CSV import applies the same rules', () => {
  it('refuses ZZ and a quantity above the tank per row, takes a bulk column, and lists price mismatches to review', async () => {
    const csv = [
      'Date,Unit,State,Gallons,Price,Total,Receipt,Bulk',
      '05/20/2026 10:00,T101,ZZ,50,4.00,200.00,C-1,',
      '05/20/2026 10:05,T101,TX,99999,4.00,399996.00,C-2,',
      '05/20/2026 10:10,T101,TX,1000,4.00,4000.00,C-3,Y',
      '05/20/2026 10:15,T101,TX,10,4.00,9999.00,C-4,N',
      '05/20/2026 10:20,T101,TX,50,4.00,200.00,C-5,maybe',
    ].join('\n');
    const body = {
      csv,
      preset: 'CUSTOM',
      mapping: {
        dateTime: 'Date',
        unitNumber: 'Unit',
        jurisdiction: 'State',
        gallons: 'Gallons',
        pricePerUnit: 'Price',
        totalAmount: 'Total',
        receiptNumber: 'Receipt',
        bulk: 'Bulk',
      },
    };
    const res = await t.app.inject({ method: 'POST', url: url('/ifta/fuel-purchases/import/preview'), headers: admin, payload: body });
    expect(res.statusCode, res.body).toBe(200);
    const p = fuelCsvPreviewSchema.parse(res.json());
    expect(p.errors).toEqual([
      {
        line: 2,
        field: 'State',
        message: '"ZZ" is not an IFTA member (a US state or Canadian province) or a known non-member (AK, HI, DC, PR, YT, NT, NU, MX)',
      },
      {
        line: 3,
        field: 'Gallons',
        message: 'Quantity is more than the 120 gal tank of unit T101: check the quantity, or mark the purchase as a bulk or split entry',
      },
      { line: 6, field: 'Bulk', message: '"maybe" is not Y or N' },
    ]);
    expect(p.flagged).toEqual([
      expect.objectContaining({ line: 4, receiptNumber: 'C-3', reason: 'more than the tank holds, entered as a bulk or split entry' }),
      expect.objectContaining({ line: 5, receiptNumber: 'C-4', priceMismatch: true, reason: 'price × quantity differs from the total by more than 1 %' }),
    ]);
    const done = await t.app.inject({ method: 'POST', url: url('/ifta/fuel-purchases/import'), headers: admin, payload: body });
    expect(done.json()).toMatchObject({ imported: 2 });
    const stored = await sql<{ receipt_number: string; bulk: boolean; price_mismatch: boolean }>(
      `select receipt_number, bulk, price_mismatch from ifta_fuel_purchases where receipt_number like 'C-%' order by receipt_number`,
    );
    expect(stored).toEqual([
      { receipt_number: 'C-3', bulk: true, price_mismatch: false },
      { receipt_number: 'C-4', bulk: false, price_mismatch: true },
    ]);
    const kinds = (await report()).flags.filter((f) => f.message.startsWith('Receipt C-')).map((f) => f.kind);
    expect(kinds.sort()).toEqual(['BULK_PURCHASE', 'PRICE_MISMATCH']);
  });
});

describe('marking items reviewed', () => {
  it('keeps who and when, counts what is left, and brings an item back when its purchase changes', async () => {
    const before = await report();
    const item = before.flags.find((f) => f.kind === 'PRICE_MISMATCH' && f.message.startsWith('Receipt PRICE-1'))!;
    const mark = (body: Record<string, unknown>, headers = admin) =>
      t.app.inject({ method: 'PUT', url: url('/ifta/review-marks'), headers, payload: { quarter: '2026Q2', ...body } });
    const res = await mark({ keys: [item.key], note: 'Receipt re-read: the total is $40.00' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ changed: 1, review: { items: before.review.items, unreviewed: before.review.unreviewed - 1 } });
    const after = await report();
    expect(after.review.unreviewed).toBe(before.review.unreviewed - 1);
    expect(after.flags.find((f) => f.key === item.key)!.reviewed).toMatchObject({
      by: expect.stringContaining('@'),
      note: 'Receipt re-read: the total is $40.00',
    });
    const [log] = await sql<{ n: number }>(`select count(*)::int as n from activity_log where entity_id = '${item.purchaseId}' and action = 'UPDATE'`);
    expect(log!.n).toBe(1);
    // Marking it again changes nothing.
    expect((await mark({ keys: [item.key] })).json().changed).toBe(0);

    // The purchase edited (still off its total): a new item, not reviewed.
    const edit = await t.app.inject({
      method: 'PUT',
      url: url(`/ifta/fuel-purchases/${item.purchaseId}`),
      headers: admin,
      payload: purchase({ quantity: 10, pricePerUnit: 4, totalAmount: 9000, receiptNumber: 'PRICE-1' }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const edited = (await report()).flags.find((f) => f.purchaseId === item.purchaseId)!;
    expect(edited.key).not.toBe(item.key);
    expect(edited.reviewed).toBeNull();

    // Undo, unknown keys, permissions, another organization.
    expect((await mark({ keys: [edited.key] })).json().changed).toBe(1);
    expect((await mark({ keys: [edited.key], reviewed: false })).json().changed).toBe(1);
    expectFieldErrors((await mark({ keys: ['PRICE_MISMATCH:nope'] })).json(), 400, {
      keys: 'An item is not on the 2026Q2 list to review (it changed since it was shown: reload the list)',
    });
    expectFieldErrors((await mark({ keys: [] })).json(), 400, { keys: 'Items must name at least one item' });
    const reader = await userWithPermissions(t, orgId, ['IFTA_LIST']);
    expectErrorBody((await mark({ keys: [edited.key] }, reader)).json(), 403);
    const other = await registerOrganization(t.app, 'Other Checkers');
    expectErrorBody((await mark({ keys: [edited.key] }, bearer(other.accessToken))).json(), 404);
  });

  it('says at the top of the PDF (and CSV) that items are not reviewed, until they all are', async () => {
    const pdf = async () =>
      pdfText((await t.app.inject({ method: 'GET', url: url('/ifta/report/export?quarter=2026Q2&format=pdf'), headers: admin })).rawPayload);
    const r = await report();
    expect(r.review.unreviewed).toBeGreaterThan(0);
    const text = await pdf();
    const warning = `NOT REVIEWED: ${r.review.unreviewed} of ${r.review.items} items to review are not marked reviewed`;
    expect(text.replace(/\n/g, ' ')).toContain(warning);
    // At the top: before the return's first table.
    expect(text.indexOf('NOT REVIEWED')).toBeLessThan(text.indexOf('Taxable mi'));
    const csv = (await t.app.inject({ method: 'GET', url: url('/ifta/report/export?quarter=2026Q2&format=csv'), headers: admin })).body;
    expect(csv.split('\r\n')[1]).toMatch(/^NOT REVIEWED,/);

    const all = r.flags.filter((f) => f.reviewed === null).map((f) => f.key);
    expect(
      (await t.app.inject({ method: 'PUT', url: url('/ifta/review-marks'), headers: admin, payload: { quarter: '2026Q2', keys: all } })).json().review
        .unreviewed,
    ).toBe(0);
    expect((await report()).review.unreviewed).toBe(0);
    expect(await pdf()).not.toContain('NOT REVIEWED');
    expect(await pdf()).toContain('To review (');
  });
});

describe('fleet performance fuel economy from the purchases', () => {
  it('reads the litres bought per vehicle and day range from the IFTA purchases', async () => {
    // Direct: 100 gal (378.54 L) on 05-12, plus others; the hook must not answer null when purchases exist.
    const litres = await fuelUsedLitres(t.app.db, orgId, '2026-05-12', '2026-05-12');
    expect(litres).not.toBeNull();
    expect(litres!.get(truck.assetId)).toBeGreaterThan(0);
    const [sum] = await sql<{ l: number }>(`select sum(quantity_milli / 1000.0 * case when volume_unit = 'GAL' then 3.785411784 else 1 end)::float8 as l
      from ifta_fuel_purchases where vehicle_id = '${truck.assetId}' and purchased_at >= '2026-05-12T05:00:00Z' and purchased_at < '2026-05-13T05:00:00Z'`);
    expect(litres!.get(truck.assetId)).toBeCloseTo(Number(sum!.l), 3);
    // A day without purchases: no figure rather than zero.
    expect(await fuelUsedLitres(t.app.db, orgId, '2026-01-01', '2026-01-02')).toBeNull();
  });

  it('shows L/100 km for a vehicle that drove and bought fuel in the range', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'check-truck-econ', unitNumber: 'T103' });
    const start = Date.UTC(2026, 5, 10, 14, 0);
    // An hour east at ~100 km/h.
    const positions = Array.from({ length: 61 }, (_, i) => ({
      fixTime: new Date(start + i * 60_000).toISOString(),
      latitude: 39,
      longitude: -95 + (i * 100) / 60 / 86.5,
      speed: 100,
      ignition: true,
    }));
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: bearer(v.token), payload: { positions } })).statusCode).toBe(200);
    await t.app.fleetStats.idle();
    expect(
      (
        await post(
          purchase({
            assetId: v.assetId,
            purchasedAt: new Date(start + 61 * 60_000).toISOString(),
            quantity: 40,
            volumeUnit: 'L',
            totalAmount: 160,
            jurisdiction: 'KS',
            receiptNumber: 'ECON-1',
          }),
        )
      ).statusCode,
    ).toBe(201);
    const res = await t.app.inject({ method: 'GET', url: url('/analytics/fleet-performance?from=2026-06-10&to=2026-06-10'), headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const mine = fleetPerformanceSchema.parse(res.json()).vehicles.find((x) => x.assetId === v.assetId)!;
    expect(mine.distanceM).toBeGreaterThan(90_000);
    expect(mine.fuelLPer100Km).toBeCloseTo(40 / (mine.distanceM / 100_000), 1);
  });

  it('divides only the fuel of the days with positions by their distance, names the span, and leaves out vehicles without fuel (issue 46)', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'check-truck-span', unitNumber: 'T104' });
    const w = await createTestVehicle(t.app.db, orgId, { uniqueId: 'check-truck-nofuel', unitNumber: 'T105' });
    // Positions on 2026-07-20 only (an hour east at ~100 km/h, both trucks); fuel bought on 07-02 (no positions that day) and on 07-20.
    const start = Date.UTC(2026, 6, 20, 14, 0);
    for (const x of [v, w]) {
      const positions = Array.from({ length: 61 }, (_, i) => ({
        fixTime: new Date(start + i * 60_000).toISOString(),
        latitude: 38,
        longitude: -97 + (i * 100) / 60 / 87.7,
        speed: 100,
        ignition: true,
      }));
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: bearer(x.token), payload: { positions } })).statusCode).toBe(200);
    }
    await t.app.fleetStats.idle();
    expect(
      (
        await post(
          purchase({
            assetId: v.assetId,
            purchasedAt: '2026-07-02T15:00:00Z',
            quantity: 400,
            volumeUnit: 'L',
            totalAmount: 1600,
            jurisdiction: 'KS',
            receiptNumber: 'SPAN-1',
          }),
        )
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await post(
          purchase({
            assetId: v.assetId,
            purchasedAt: new Date(start + 62 * 60_000).toISOString(),
            quantity: 40,
            volumeUnit: 'L',
            totalAmount: 160,
            jurisdiction: 'KS',
            receiptNumber: 'SPAN-2',
          }),
        )
      ).statusCode,
    ).toBe(201);
    const res = await t.app.inject({ method: 'GET', url: url('/analytics/fleet-performance?from=2026-07-01&to=2026-07-30'), headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const p = fleetPerformanceSchema.parse(res.json());
    const mine = p.vehicles.find((x) => x.assetId === v.assetId)!;
    // 40 L over about 100 km, not 440 L: the fuel of 07-02 has no miles beside it.
    expect(mine.fuelLPer100Km).toBeCloseTo(40 / (mine.distanceM / 100_000), 1);
    expect(mine.fuelSpan).toEqual({ from: '2026-07-20', to: '2026-07-20', vehicles: 1, distanceM: mine.distanceM, litres: 40 });
    const other = p.vehicles.find((x) => x.assetId === w.assetId)!;
    expect(other.fuelLPer100Km).toBeNull();
    expect(other.fuelSpan).toBeNull();
    // The fleet: the fuel and the distance of the same vehicles (the truck without fuel data does not stretch the others' fuel).
    expect(p.fleet.fuelSpan).toEqual({ from: '2026-07-20', to: '2026-07-20', vehicles: 1, distanceM: mine.distanceM, litres: 40 });
    expect(p.fleet.fuelLPer100Km).toBe(mine.fuelLPer100Km);
  });
});
