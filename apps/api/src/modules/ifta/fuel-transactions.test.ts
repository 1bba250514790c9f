import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuelTransactionBatchResultSchema, fuelTransactionPageSchema, iftaReportSchema, type FuelTransaction } from '@fleet/api-contract';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// Issue 68, part 1: fuel-card transactions through HTTP, each verification result, the duplicate,
// how a transaction finds its truck, late positions, the review, the return's count, the file import.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let truck: TestVehicle;
let other: TestVehicle;

// A truck parked at a station in Dallas (TX) on 2026-08-04 from 14:00 to 14:40 UTC, a fix a minute.
const STATION = { lat: 32.7767, lon: -96.797 };
const START = Date.UTC(2026, 7, 4, 14, 0);
const at = (min: number) => new Date(START + min * 60_000).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Card Checked Freight');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  truck = await createTestVehicle(t.app.db, orgId, { uniqueId: 'fuel-card-truck-1', unitNumber: 'FC101' });
  other = await createTestVehicle(t.app.db, orgId, { uniqueId: 'fuel-card-truck-2', unitNumber: 'FC102' });
  await ingest(
    truck,
    Array.from({ length: 41 }, (_, i) => ({ fixTime: at(i), latitude: STATION.lat + (i % 2) * 0.0001, longitude: STATION.lon, speed: 0 })),
  );
});
afterAll(async () => {
  await t?.close();
});

const url = (path: string) => `/api/v1/organizations/${orgId}${path}`;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
let seq = 0;
const tx = (over: Record<string, unknown> = {}) => ({
  transactionId: `WEX-${++seq}-${Math.random().toString(36).slice(2, 8)}`,
  unitNumber: 'FC101',
  time: at(20),
  latitude: STATION.lat,
  longitude: STATION.lon,
  merchant: "Love's #123",
  city: 'Dallas',
  state: 'TX',
  fuelType: 'DIESEL',
  quantity: 120.5,
  unit: 'GAL',
  unitPrice: 3.899,
  total: 469.83,
  ...over,
});
const post = (transactions: unknown[], headers = admin) => t.app.inject({ method: 'POST', url: url('/fuel-transactions'), headers, payload: { transactions } });
async function ingest(v: TestVehicle, positions: unknown[]) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: bearer(v.token), payload: { positions } });
  expect(res.statusCode, res.body).toBe(200);
}
async function one(body: Record<string, unknown>): Promise<FuelTransaction> {
  const res = await post([body]);
  expect(res.statusCode, res.body).toBe(200);
  const r = fuelTransactionBatchResultSchema.parse(res.json());
  const got = await t.app.inject({ method: 'GET', url: url(`/fuel-transactions/${r.results[0]!.id}`), headers: admin });
  expect(got.statusCode, got.body).toBe(200);
  return got.json() as FuelTransaction;
}

describe('verification of each transaction against the truck', () => {
  it('VERIFIED: the truck was within 150 m of the station within ±15 min, and the purchase counts for IFTA (tax paid)', async () => {
    const r = await one(tx({ time: at(20) }));
    expect(r).toMatchObject({ verification: 'VERIFIED', vehicleId: truck.assetId, vehicleUnitNumber: 'FC101', resolvedBy: 'UNIT_NUMBER' });
    expect(r.distanceM).toBeLessThanOrEqual(150);
    expect(r.reason).toMatch(/^The truck was \d+ ft from the station within ±15 min of the time \(within 490 ft\)$/);
    const [p] = await sql<{ receipt_number: string; tax_paid: boolean; source: string; location_check: string }>(
      `select receipt_number, tax_paid, source, location_check from ifta_fuel_purchases where id = '${r.purchaseId}'`,
    );
    expect(p).toEqual({ receipt_number: r.transactionId, tax_paid: true, source: 'CARD', location_check: 'OK' });
  });

  it('LOCATION_MISMATCH: the truck was elsewhere, with how far and where', async () => {
    // A station in Fort Worth, about 48 km west of where the truck stood.
    const r = await one(tx({ latitude: 32.7555, longitude: -97.3308, city: 'Fort Worth' }));
    expect(r.verification).toBe('LOCATION_MISMATCH');
    expect(r.distanceM).toBeGreaterThan(45_000);
    expect(r.truckPosition).toMatchObject({ place: expect.stringMatching(/, TX$/) });
    expect(r.reason).toMatch(/^The truck was 3\d(\.\d)? mi from the station at the closest within ±15 min; at that time it was near .+, TX$/);
  });

  it('LOCATION_MISMATCH without station coordinates: the truck was in another state', async () => {
    const r = await one(tx({ latitude: null, longitude: null, state: 'OK', city: 'Oklahoma City' }));
    expect(r.verification).toBe('LOCATION_MISMATCH');
    expect(r.reason).toMatch(/, not in OK, at that time$/);
  });

  it('NO_POSITION: no fix of the truck within the window', async () => {
    const r = await one(tx({ time: at(-60) }));
    expect(r).toMatchObject({ verification: 'NO_POSITION', reason: 'No position of the truck within ±15 min of the time', truckPosition: null });
  });

  it("OVER_TANK: more than the truck's tank (the default 300 gal while none is set)", async () => {
    const r = await one(tx({ quantity: 350, total: 1364.65 }));
    expect(r.verification).toBe('OVER_TANK');
    expect(r.reason).toMatch(/^350 gal is more than the truck's 300 gal tank \(the default; set the tank capacity on the vehicle\)\. The truck was/);
  });

  it('the station radius is a setting of the organization', async () => {
    // 300 m north of where the truck stood: a mismatch at 150 m, verified at 500 m.
    const far = tx({ latitude: STATION.lat + 0.0027 });
    expect((await one(far)).verification).toBe('LOCATION_MISMATCH');
    await t.database.db.execute(
      `update organizations set settings = settings || '{"fuelCards":{"radiusM":500,"windowMinutes":15}}'::jsonb where id = '${orgId}'` as never,
    );
    try {
      expect((await one({ ...far, transactionId: `${far.transactionId}-b` })).verification).toBe('VERIFIED');
    } finally {
      await t.database.db.execute(`update organizations set settings = settings - 'fuelCards' where id = '${orgId}'` as never);
    }
  });
});

describe('recording', () => {
  it('a transaction id seen before is a duplicate: counted and answered, not stored twice (nor its purchase)', async () => {
    const body = tx();
    const first = fuelTransactionBatchResultSchema.parse((await post([body])).json());
    expect(first).toMatchObject({ received: 1, created: 1, duplicates: 0 });
    const again = await post([body, { ...body, quantity: 10 }, tx()]);
    expect(again.statusCode).toBe(200);
    const r = fuelTransactionBatchResultSchema.parse(again.json());
    expect(r).toMatchObject({ received: 3, created: 1, duplicates: 2 });
    expect(r.results[0]).toEqual({ transactionId: body.transactionId, id: first.results[0]!.id, duplicate: true, verification: 'VERIFIED' });
    expect(r.results[1]).toMatchObject({ id: first.results[0]!.id, duplicate: true });
    expect(await sql(`select 1 from fuel_transactions where transaction_id = '${body.transactionId}'`)).toHaveLength(1);
    expect(await sql(`select 1 from ifta_fuel_purchases where receipt_number = '${body.transactionId}'`)).toHaveLength(1);
  });

  it('refuses bad input with a 400 naming the field, and stores nothing of the batch', async () => {
    const good = tx();
    const bad = await post([good, tx({ quantity: -3 }), tx({ latitude: 32.7, longitude: null })]);
    expectFieldErrors(bad.json(), 400, {
      'transactions.1.quantity': 'Quantity must be at least 0.001',
      'transactions.2.longitude': 'Give both latitude and longitude, or neither',
    });
    const unit = await post([good, tx({ unit: 'BBL' })]);
    expectFieldErrors(unit.json(), 400, { 'transactions.1.unit': 'Volume unit must be GAL or L' });
    const stranger = await post([good, tx({ vehicleId: '00000000-0000-4000-8000-000000000001' })]);
    expectFieldErrors(stranger.json(), 400, { 'transactions.1.vehicleId': 'Vehicle is not a vehicle of this organization' });
    expect(expectErrorBody((await post([])).json(), 400).message).toMatch(/at least one transaction/);
    expect(await sql(`select 1 from fuel_transactions where transaction_id = '${good.transactionId}'`)).toEqual([]);
  });

  it('finds the truck by its card (given to the vehicle or to its driver) or by the driver name, without a unit number', async () => {
    const byVehicle = await t.app.inject({ method: 'PUT', url: url('/fuel-cards/4242'), headers: admin, payload: { vehicleId: truck.assetId } });
    expect(byVehicle.statusCode, byVehicle.body).toBe(200);
    const a = await one(tx({ unitNumber: null, cardNumberLast4: '4242' }));
    expect(a).toMatchObject({ vehicleId: truck.assetId, resolvedBy: 'CARD', verification: 'VERIFIED' });
    expect((await t.app.inject({ method: 'PUT', url: url('/fuel-cards/5151'), headers: admin, payload: { driverId: truck.driverId } })).statusCode).toBe(200);
    const b = await one(tx({ unitNumber: null, cardNumberLast4: '5151' }));
    expect(b).toMatchObject({ vehicleId: truck.assetId, driverId: truck.driverId, resolvedBy: 'DRIVER', verification: 'VERIFIED' });
    const c = await one(tx({ unitNumber: null, driverName: 'dana driver fuel-card-truck-1' }));
    expect(c).toMatchObject({ vehicleId: truck.assetId, resolvedBy: 'DRIVER' });
    expectFieldErrors(
      (
        await t.app.inject({ method: 'PUT', url: url('/fuel-cards/1234'), headers: admin, payload: { vehicleId: truck.assetId, driverId: truck.driverId } })
      ).json(),
      400,
      { vehicleId: 'Give the card to a vehicle or to a driver (one of them)' },
    );
  });

  it('NO_VEHICLE until its card is given: then it finds the truck, becomes a purchase and is verified', async () => {
    const r = await one(tx({ unitNumber: 'NOPE', cardNumberLast4: '7777' }));
    expect(r).toMatchObject({ verification: 'NO_VEHICLE', vehicleId: null, purchaseId: null });
    expect(r.reason).toMatch(/^No vehicle found for it/);
    expect((await t.app.inject({ method: 'PUT', url: url('/fuel-cards/7777'), headers: admin, payload: { vehicleId: truck.assetId } })).statusCode).toBe(200);
    const after = (await t.app.inject({ method: 'GET', url: url(`/fuel-transactions/${r.id}`), headers: admin })).json() as FuelTransaction;
    expect(after).toMatchObject({ verification: 'VERIFIED', vehicleId: truck.assetId, resolvedBy: 'CARD' });
    expect(after.purchaseId).not.toBeNull();
  });
});

describe('late positions and the review queue', () => {
  it('a NO_POSITION becomes VERIFIED when the truck’s positions of that time arrive later', async () => {
    const when = Date.UTC(2026, 7, 6, 9, 30);
    const r = await one(tx({ unitNumber: 'FC102', time: new Date(when).toISOString() }));
    expect(r.verification).toBe('NO_POSITION');
    await ingest(
      other,
      Array.from({ length: 11 }, (_, i) => ({
        fixTime: new Date(when - 5 * 60_000 + i * 60_000).toISOString(),
        latitude: STATION.lat,
        longitude: STATION.lon,
      })),
    );
    const list = fuelTransactionPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: url(`/fuel-transactions?vehicleId=${other.assetId}`), headers: admin })).json(),
    );
    expect(list.content.find((x) => x.id === r.id)).toMatchObject({ verification: 'VERIFIED' });
  });

  it('lists by verification with the reason in words; a reviewer accepts or disputes with a note', async () => {
    const res = await t.app.inject({ method: 'GET', url: url('/fuel-transactions?verification=LOCATION_MISMATCH,OVER_TANK&size=100'), headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const page = fuelTransactionPageSchema.parse(res.json());
    expect(page.content.length).toBeGreaterThanOrEqual(3);
    expect(page.content.every((x) => ['LOCATION_MISMATCH', 'OVER_TANK'].includes(x.verification) && x.reason.length > 10)).toBe(true);
    expect(page.totalElements).toBe(page.counts.LOCATION_MISMATCH + page.counts.OVER_TANK);
    expect(page.counts.VERIFIED).toBeGreaterThan(0);

    const target = page.content[0]!;
    const review = (body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: url(`/fuel-transactions/${target.id}/review`), headers: admin, payload: body });
    expectFieldErrors((await review({ decision: 'DISPUTED' })).json(), 400, { note: 'Say why in a note when disputing' });
    const disputed = await review({ decision: 'DISPUTED', note: 'Driver was off duty; card reported stolen' });
    expect(disputed.statusCode, disputed.body).toBe(200);
    expect(disputed.json().review).toMatchObject({ decision: 'DISPUTED', note: 'Driver was off duty; card reported stolen', by: expect.stringContaining('@') });
    const pending = fuelTransactionPageSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: url('/fuel-transactions?verification=LOCATION_MISMATCH,OVER_TANK&review=PENDING&size=100'), headers: admin })
      ).json(),
    );
    expect(pending.content.map((x) => x.id)).not.toContain(target.id);
    expect(
      expectErrorBody((await t.app.inject({ method: 'GET', url: url('/fuel-transactions?verification=MAYBE'), headers: admin })).json(), 400).message,
    ).toMatch(/Verification must be one or more of VERIFIED/);
  });

  it('the IFTA return says how many purchases are unverified; they still count', async () => {
    const res = await t.app.inject({ method: 'GET', url: url('/ifta/report?quarter=2026Q3'), headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const r = iftaReportSchema.parse(res.json());
    const [counts] = await sql<{ total: number; unverified: number; disputed: number }>(
      `select count(*)::int as total, count(*) filter (where verification <> 'VERIFIED' and review_status is distinct from 'ACCEPTED')::int as unverified,
        count(*) filter (where review_status = 'DISPUTED')::int as disputed from fuel_transactions where organization_id = '${orgId}' and purchase_id is not null`,
    );
    expect(r.cardTransactions).toEqual(counts);
    expect(r.cardTransactions.unverified).toBeGreaterThan(0);
    expect(r.cardTransactions.disputed).toBe(1);
    const csv = await t.app.inject({ method: 'GET', url: url('/ifta/report/export?quarter=2026Q3&format=csv'), headers: admin });
    expect(csv.body).toContain(
      `Fuel-card purchases,${r.cardTransactions.unverified} of ${r.cardTransactions.total} fuel-card purchases are not verified against their truck (1 disputed); they count in this return`,
    );
    // Every card purchase, verified or not, is in the fleet's tax-paid gallons.
    const [g] = await sql<{ n: number }>(`select count(*)::int as n from ifta_fuel_purchases where organization_id = '${orgId}' and source = 'CARD'`);
    expect(g!.n).toBe(r.cardTransactions.total);
  });

  it("another organization's transactions are neither visible nor reviewable", async () => {
    const stranger = await registerOrganization(t.app, 'Other Carrier');
    const mine = fuelTransactionPageSchema.parse((await t.app.inject({ method: 'GET', url: url('/fuel-transactions'), headers: admin })).json()).content[0]!;
    const theirs = bearer(stranger.accessToken);
    expect((await t.app.inject({ method: 'GET', url: url('/fuel-transactions'), headers: theirs })).statusCode).toBe(404);
    const otherUrl = `/api/v1/organizations/${stranger.user.organization!.id}/fuel-transactions`;
    expect((await t.app.inject({ method: 'GET', url: `${otherUrl}/${mine.id}`, headers: theirs })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `${otherUrl}/${mine.id}/review`, headers: theirs, payload: { decision: 'ACCEPTED' } })).statusCode).toBe(
      404,
    );
    const list = fuelTransactionPageSchema.parse((await t.app.inject({ method: 'GET', url: otherUrl, headers: theirs })).json());
    expect(list.totalElements).toBe(0);
  });
});

describe('file import', () => {
  const wex = [
    'Transaction Number,Transaction Date,Transaction Time,Card Number,Vehicle Number,Driver Name,Merchant Name,Merchant City,Merchant State,Product Description,Units,Unit Price,Gross Amount',
    `F-1,08/04/2026,09:20,XXXX-4242,FC101,,Pilot 402,Dallas,TX,Diesel #2,100.000,3.899,389.90`,
    `F-2,08/04/2026,09:21,XXXX-4242,FC101,,Pilot 402,Dallas,TX,DEF,5.000,3.000,15.00`,
    `F-3,08/04/2026,09:22,,FC101,,Pilot 402,Dallas,ZZ,Diesel #2,50.000,3.899,194.95`,
    `F-1,08/04/2026,09:20,XXXX-4242,FC101,,Pilot 402,Dallas,TX,Diesel #2,100.000,3.899,389.90`,
  ].join('\n');

  it('reads a WEX export through its preset: fuel lines recorded, DEF skipped, bad lines named, repeats counted', async () => {
    const body = { csv: wex, preset: 'WEX', timeZone: 'America/Chicago' };
    const dry = await t.app.inject({ method: 'POST', url: url('/fuel-transactions/import?dryRun=true'), headers: admin, payload: body });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toMatchObject({ totalRows: 4, validRows: 2, invalidRows: 1, skippedRows: 1, created: 0 });
    expect(await sql(`select 1 from fuel_transactions where transaction_id = 'F-1'`)).toEqual([]);
    const res = await t.app.inject({ method: 'POST', url: url('/fuel-transactions/import'), headers: admin, payload: body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 1, duplicates: 1, byVerification: { VERIFIED: 1 } });
    expect(res.json().errors).toEqual([{ line: 4, field: 'Merchant State', message: expect.stringMatching(/^"ZZ" is not an IFTA member/) }]);
    const [row] = await sql<{ card_last4: string; source: string; time: string }>(
      `select card_last4, source, time from fuel_transactions where organization_id = '${orgId}' and transaction_id = 'F-1'`,
    );
    expect(row).toMatchObject({ card_last4: '4242', source: 'FILE' });
  });

  it('a preset adjusted and saved for the organization reads the next file', async () => {
    const saved = await t.app.inject({
      method: 'PUT',
      url: url('/fuel-transactions/import-presets/Our%20WEX'),
      headers: admin,
      payload: { base: 'WEX', mapping: { transactionId: 'Auth Code' } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const presets = (await t.app.inject({ method: 'GET', url: url('/fuel-transactions/import-presets'), headers: admin })).json().content;
    expect(presets.map((p: { name: string }) => p.name)).toEqual(['WEX', 'EFS', 'COMDATA', 'FLEET_ONE', 'CUSTOM', 'Our WEX']);
    const csv = wex.replace('Transaction Number', 'Auth Code').replace(/^F-/gm, 'G-');
    const res = await t.app.inject({ method: 'POST', url: url('/fuel-transactions/import'), headers: admin, payload: { csv, preset: 'Our WEX' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 1, mapping: { transactionId: 'Auth Code' } });
    const builtIn = await t.app.inject({ method: 'PUT', url: url('/fuel-transactions/import-presets/WEX'), headers: admin, payload: { base: 'WEX' } });
    expectFieldErrors(builtIn.json(), 400, { name: 'WEX is a built-in preset: save the adjusted one under another name' });
  });
});
