import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WEBHOOK_DATA_SCHEMAS,
  WEBHOOK_EVENT_INFO,
  fuelEventPageSchema,
  fuelTransactionBatchResultSchema,
  type FuelEvent,
  type FuelTransaction,
} from '@fleet/api-contract';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { decodeAvlPacket, encodeAvlPacket, loadIoMap, recordsToRows, writePositions, type AvlRecord, type PositionRow } from '../positions/index.ts';
import { FuelEvents } from './fuel-events.tracker.ts';

// Issue 68, part 2 (decision 0276): the fuel level through each way in (the JSON batch's fuelLevel,
// Teltonika's 89 in percent and 84 in litres, Traccar's fuel in litres) -> the follower's refuels and
// drops -> GET …/fuel-events; a sloshing trace that gives nothing; the drop's webhook and
// notification, once; card transactions verified by a refuel, NO_FILL_SEEN, OVER_TANK by the level,
// and fuel.purchase_flagged; nothing rewritten by a replay.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let ingestToken: string;
let sub: string;
const vehicles: Record<'batch' | 'slosh' | 'fmb' | 'lvcan' | 'traccar', TestVehicle> = {} as never;

const url = (path: string) => `/api/v1/organizations/${orgId}${path}`;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const MIN = 60_000;
/** Four hours ago, on the minute: recent enough for a drop to notify. */
const T0 = Math.floor((Date.now() - 4 * 3_600_000) / MIN) * MIN;
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Fuel Level Freight');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  vehicles.batch = await createTestVehicle(t.app.db, orgId, { uniqueId: 'fl-batch-1', unitNumber: 'FL-BATCH' });
  vehicles.slosh = await createTestVehicle(t.app.db, orgId, { uniqueId: 'fl-slosh-1', unitNumber: 'FL-SLOSH' });
  vehicles.fmb = await createTestVehicle(t.app.db, orgId, { uniqueId: '860317060008901', unitNumber: 'FL-FMB' });
  vehicles.lvcan = await createTestVehicle(t.app.db, orgId, { uniqueId: '860317060008902', unitNumber: 'FL-LVCAN' });
  vehicles.traccar = await createTestVehicle(t.app.db, orgId, { uniqueId: 'fl-traccar-1', unitNumber: 'FL-TRC' });
  // Tanks: 1,000 l, the Traccar truck's 800 l; the others the 300 gal default.
  await sql(`update assets set tank_capacity_l = 1000 where id in ('${vehicles.batch.assetId}', '${vehicles.slosh.assetId}', '${vehicles.lvcan.assetId}')`);
  await sql(`update assets set tank_capacity_l = 800 where id = '${vehicles.traccar.assetId}'`);
  ingestToken = (await t.app.inject({ method: 'POST', url: url('/ingest-token'), headers: admin })).json().token;
  [{ id: sub }] = (await sql<{ id: string }>(
    `insert into webhook_subscriptions (organization_id, url, events, secret) values ('${orgId}', 'http://127.0.0.1:9/hooks', '{fuel.drop_detected,fuel.purchase_flagged}', 'whsec_${Buffer.alloc(32, 7).toString('base64')}') returning id`,
  )) as [{ id: string }];
});
afterAll(() => t?.close());

interface Leg {
  minutes: number;
  /** km/h; 0 stands. */
  speed: number;
  ignition?: boolean;
  /** Level (percent of the tank, or litres for a litres sensor) at minute i of the leg. */
  level: (i: number) => number;
  everyMin?: number;
}

/** Fixes of a truck driving north from `lat`, leg after leg, one a minute (or every `everyMin`). */
function legs(
  start: number,
  list: readonly Leg[],
  lat = 41.52,
): Array<{ t: number; lat: number; lon: number; speed: number; ignition: boolean; level: number }> {
  const out: Array<{ t: number; lat: number; lon: number; speed: number; ignition: boolean; level: number }> = [];
  let at = start;
  for (const leg of list) {
    const every = leg.everyMin ?? 1;
    for (let i = 0; i < leg.minutes; i += every) {
      at += every * MIN;
      lat += (leg.speed / 60 / 111.32) * every;
      out.push({ t: at, lat, lon: -88.08, speed: leg.speed, ignition: leg.ignition ?? true, level: Math.round(leg.level(i) * 10) / 10 });
    }
  }
  return out;
}

const slosh = (level: number, amp: number) => (i: number) => level + amp * Math.sin(i * 2.3) * Math.cos(i * 0.7);

async function batch(v: TestVehicle, fixes: ReturnType<typeof legs>) {
  for (let i = 0; i < fixes.length; i += 500) {
    const positions = fixes.slice(i, i + 500).map((f) => ({
      fixTime: iso(f.t),
      latitude: f.lat,
      longitude: f.lon,
      speed: f.speed,
      ignition: f.ignition,
      fuelLevel: f.level,
    }));
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: bearer(v.token), payload: { positions } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rejected).toEqual([]);
  }
}

/** Records decoded and committed as the Teltonika port does, `io` the fuel element. */
async function teltonika(v: TestVehicle, io: number, scale: number, fixes: ReturnType<typeof legs>) {
  const avl: AvlRecord[] = fixes.map((f) => ({
    timestamp: f.t,
    priority: 0,
    longitude: f.lon,
    latitude: f.lat,
    altitude: 180,
    angle: 0,
    satellites: 12,
    speed: f.speed,
    eventIoId: 0,
    io: new Map<number, number | bigint | Buffer>([
      [239, f.ignition ? 1 : 0],
      [io, Math.round(f.level * scale)],
    ]),
  }));
  const { records } = decodeAvlPacket(encodeAvlPacket(0x8e, avl));
  const gw = (await t.app.ingest.directory.byUniqueId(v.uniqueId))!;
  const { rows } = await recordsToRows(t.app.ingest, { gw, ioMap: await loadIoMap(t.app.db, gw.id), lastFix: null, lastFixLoaded: false }, records);
  await t.app.ingest.committer.write(rows);
}

async function traccar(v: TestVehicle, fixes: ReturnType<typeof legs>) {
  for (const f of fixes) {
    const body = {
      position: {
        fixTime: iso(f.t),
        latitude: f.lat,
        longitude: f.lon,
        speed: f.speed / 1.852,
        course: 0,
        valid: true,
        protocol: 'teltonika',
        attributes: { ignition: f.ignition, fuel: f.level },
      },
      device: { uniqueId: v.uniqueId },
    };
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/traccar', headers: { authorization: ingestToken }, payload: body });
    expect(res.statusCode, res.body).toBe(200);
  }
}

async function events(query: string, headers = admin) {
  await t.app.fuelEvents.idle();
  const res = await t.app.inject({ method: 'GET', url: url(`/fuel-events?size=100&sort=startedAt,asc&${query}`), headers });
  expect(res.statusCode, res.body).toBe(200);
  return fuelEventPageSchema.parse(res.json());
}

async function hooks(type: string) {
  return (
    await sql<{ body: string }>(
      `select e.body from webhook_events e join webhook_deliveries d on d.organization_id = e.organization_id and d.event_id = e.id
        where d.subscription_id = '${sub}' and e.type = '${type}' order by e.occurred_at`,
    )
  ).map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
}

// The batch truck: a refuel from 35 % to 83 % at its first stop, then a stop where the level stays.
const REFUEL_STOP = T0 + 20 * MIN;
const SECOND_STOP = T0 + 90 * MIN;
const batchFixes = legs(T0, [
  { minutes: 20, speed: 85, level: slosh(36, 8) },
  { minutes: 4, speed: 0, level: () => 35 },
  { minutes: 8, speed: 0, level: (i) => 35 + 6 * (i + 1) },
  { minutes: 28, speed: 0, level: () => 83 },
  { minutes: 30, speed: 88, level: slosh(82, 9) },
  { minutes: 45, speed: 0, level: () => 81 },
  { minutes: 40, speed: 90, level: slosh(80, 9) },
]);
const stationOf = (ms: number) => batchFixes.find((f) => f.t >= ms)!;

describe('refuels and drops from each way in', () => {
  it('the JSON batch (fuelLevel, percent): one refuel at the stop, in the organization’s gallons, nothing while driving', async () => {
    // Up to 10 minutes into the second stop for now (the rest arrives later, below).
    await batch(
      vehicles.batch,
      batchFixes.filter((f) => f.t <= SECOND_STOP + 10 * MIN),
    );
    const page = await events(`vehicleId=${vehicles.batch.assetId}`);
    expect(page.content).toHaveLength(1);
    const e = page.content[0]!;
    expect(e).toMatchObject({
      type: 'REFUEL',
      vehicleUnitNumber: 'FL-BATCH',
      driverId: vehicles.batch.driverId,
      levelBeforePct: 35,
      levelAfterPct: 83,
      levelBeforeL: 350,
      levelAfterL: 830,
      quantityL: 480,
      // 480 l in US gallons, to 0.1.
      quantity: 126.8,
      unit: 'GAL',
      tankCapacityL: 1000,
      tankCapacityAssumed: false,
      ignitionOff: false,
      purchase: null,
      description: 'The fuel level rose from 35 % to 83 % (126.8 gal in) while the truck stood.',
    });
    expect(Date.parse(e.startedAt)).toBeGreaterThanOrEqual(REFUEL_STOP + 3 * MIN);
    expect(Date.parse(e.startedAt)).toBeLessThanOrEqual(REFUEL_STOP + 6 * MIN);
    expect(Date.parse(e.endedAt)).toBeLessThanOrEqual(REFUEL_STOP + 14 * MIN);
    expect(e.place).toMatch(/, IL$/);
    expect(page.counts).toEqual({ REFUEL: 1, DROP: 0, UNMATCHED: 1 });
  });

  it('the batch keeps fuelLevel and fuelUsed as the position’s attributes, and refuses a level out of 0-100 for that position only', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'fl-batch-fields', unitNumber: 'FL-FIELDS' });
    const at = T0 - 60 * MIN;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/positions',
      headers: bearer(v.token),
      payload: {
        positions: [
          { fixTime: iso(at), latitude: 41.5, longitude: -88.1, speed: 0, fuelLevel: 62.5, fuelUsed: 120_344.5, attributes: { fuelLevel: 1 } },
          { fixTime: iso(at + MIN), latitude: 41.5, longitude: -88.1, speed: 0, fuelLevel: 140 },
          { fixTime: iso(at + 2 * MIN), latitude: 41.5, longitude: -88.1, speed: 0, fuelUsed: -1 },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rejected).toEqual([
      { index: 1, message: 'fuelLevel: fuelLevel must be between 0 and 100' },
      { index: 2, message: 'fuelUsed: fuelUsed must be 0 or more' },
    ]);
    const rows = await sql<{ attributes: Record<string, unknown> }>(`select attributes from positions where asset_id = '${v.assetId}'`);
    expect(rows.map((r) => r.attributes)).toEqual([{ fuelLevel: 62.5, fuelUsed: 120_344.5 }]);
  });

  it('sloshing on grades: a level swinging 10 % while climbing and descending, and stops on the grade, gives no event', async () => {
    await batch(
      vehicles.slosh,
      legs(T0, [
        // Climbing: the sensor reads 10 % low and swings; stopped in traffic on the grade; the crest.
        { minutes: 25, speed: 70, level: (i) => 40 + 10 * Math.sin(i * 1.7) },
        { minutes: 3, speed: 0, level: () => 40 },
        { minutes: 10, speed: 60, level: (i) => 42 + 12 * Math.sin(i * 2.1) },
        { minutes: 4, speed: 0, level: (i) => (i < 1 ? 63 : 50) },
        // Descending, 10 % high; a stop at the bottom; on again.
        { minutes: 20, speed: 85, level: (i) => 60 + 10 * Math.cos(i * 1.3) },
        { minutes: 2, speed: 0, level: () => 59 },
        { minutes: 30, speed: 90, level: slosh(49, 12) },
      ]),
    );
    const page = await events(`vehicleId=${vehicles.slosh.assetId}`);
    expect(page.content).toEqual([]);
    expect(page.counts).toEqual({ REFUEL: 0, DROP: 0, UNMATCHED: 0 });
  });

  it('Teltonika 89 (percent, CAN): a drop of 20 % with the ignition off is one drop, its webhook and notification once, even resent', async () => {
    const fixes = legs(T0, [
      { minutes: 60, speed: 0, ignition: false, level: () => 70, everyMin: 5 },
      { minutes: 15, speed: 0, ignition: false, level: (i) => 70 - (20 * (i + 1)) / 15 },
      { minutes: 60, speed: 0, ignition: false, level: () => 50, everyMin: 5 },
      { minutes: 10, speed: 80, level: slosh(50, 8) },
    ]);
    await teltonika(vehicles.fmb, 89, 1, fixes);
    // The device sends what was not acknowledged again: stored once, found once.
    await teltonika(vehicles.fmb, 89, 1, fixes);
    const page = await events(`vehicleId=${vehicles.fmb.assetId}&type=DROP`);
    expect(page.content).toHaveLength(1);
    const drop = page.content[0]!;
    expect(drop).toMatchObject({
      type: 'DROP',
      vehicleUnitNumber: 'FL-FMB',
      levelBeforePct: 70,
      levelAfterPct: 50,
      ignitionOff: true,
      tankCapacityAssumed: true,
      unit: 'GAL',
      quantity: 60,
      purchase: null,
    });
    expect(drop.description).toMatch(/^The fuel level fell from 70 % to 50 % \(60 gal gone\) in 1\d min while the truck stood with the ignition off\.$/);
    // fuel.drop_detected: once, with the event's id and the API's names.
    const sent = (await hooks('fuel.drop_detected')).filter((h) => h.data.assetId === vehicles.fmb.assetId);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data).toMatchObject({
      id: drop.id,
      unitNumber: 'FL-FMB',
      levelBeforePct: 70,
      levelAfterPct: 50,
      ignitionOff: true,
      quantityL: drop.quantityL,
    });
    // The owner is told at once (by the default choice of the kind), once.
    const bell = await t.app.inject({ method: 'GET', url: url('/notifications?kind=FUEL_DROP&size=50'), headers: admin });
    expect(bell.statusCode).toBe(200);
    const titles = (bell.json().content as Array<{ title: string; expandedContent: string | null }>).filter((n) => n.title.startsWith('Vehicle FL-FMB'));
    expect(titles.map((n) => n.title)).toEqual(['Vehicle FL-FMB: fuel level dropped 20 % of the tank']);
    expect(titles[0]!.expandedContent).toMatch(/^The fuel level fell from 70 % to 50 % .* A possible theft: check the truck and ask its driver\.$/);
  });

  it('Teltonika 84 (litres, LV-CAN): a refuel no card transaction matches is listed as unmatched (cash, another card)', async () => {
    await teltonika(
      vehicles.lvcan,
      84,
      10,
      legs(T0, [
        { minutes: 15, speed: 80, level: slosh(300, 60) },
        { minutes: 5, speed: 0, level: () => 300 },
        { minutes: 6, speed: 0, level: (i) => 300 + 75 * (i + 1) },
        { minutes: 12, speed: 0, level: () => 750 },
        { minutes: 15, speed: 80, level: slosh(745, 60) },
      ]),
    );
    const page = await events('unmatched=true');
    const mine = page.content.filter((e) => e.vehicleId === vehicles.lvcan.assetId);
    expect(mine.map((e) => [e.type, e.levelBeforeL, e.levelAfterL, e.levelBeforePct, e.levelAfterPct])).toEqual([['REFUEL', 300, 750, 30, 75]]);
    expect(page.content.every((e) => e.type === 'REFUEL' && e.purchase === null)).toBe(true);
  });

  it('Traccar’s fuel (litres) through an 800 l tank; a transaction posted before the positions is verified when the refuel is found', async () => {
    const fixes = legs(
      T0,
      [
        { minutes: 15, speed: 80, level: slosh(200, 40) },
        { minutes: 5, speed: 0, level: () => 200 },
        { minutes: 5, speed: 0, level: (i) => 200 + 80 * (i + 1) },
        { minutes: 12, speed: 0, level: () => 600 },
        { minutes: 10, speed: 80, level: slosh(600, 40) },
      ],
      39.1,
    );
    const pump = fixes[22]!;
    // The card processor posts first (the truck's fixes are not there yet): no position.
    const res = await t.app.inject({
      method: 'POST',
      url: url('/fuel-transactions'),
      headers: admin,
      payload: {
        transactions: [
          {
            transactionId: 'TRC-1',
            unitNumber: 'FL-TRC',
            time: iso(pump.t),
            latitude: pump.lat,
            longitude: pump.lon,
            state: 'IL',
            fuelType: 'DIESEL',
            quantity: 400,
            unit: 'L',
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(fuelTransactionBatchResultSchema.parse(res.json()).results[0]!.verification).toBe('NO_POSITION');
    await traccar(vehicles.traccar, fixes);
    const page = await events(`vehicleId=${vehicles.traccar.assetId}`);
    expect(page.content.map((e) => [e.type, e.levelBeforePct, e.levelAfterPct, e.quantityL])).toEqual([['REFUEL', 25, 75, 400]]);
    expect(page.content[0]!.purchase).toMatchObject({ transactionId: 'TRC-1', quantity: 400, unit: 'L', verification: 'VERIFIED' });
    // The refuel checked the transaction again as it was recorded: no read needed to verify it.
    const [row] = await sql<{ verification: string }>(`select verification from fuel_transactions where transaction_id = 'TRC-1'`);
    expect(row!.verification).toBe('VERIFIED');
  });
});

describe('card transactions against the fuel level', () => {
  const post = async (over: Record<string, unknown>) => {
    const f = stationOf(over.time as number);
    const res = await t.app.inject({
      method: 'POST',
      url: url('/fuel-transactions'),
      headers: admin,
      payload: {
        transactions: [
          {
            transactionId: `LVL-${Math.random().toString(36).slice(2, 9)}`,
            unitNumber: 'FL-BATCH',
            latitude: f.lat,
            longitude: f.lon,
            state: 'IL',
            fuelType: 'DIESEL',
            unit: 'GAL',
            ...over,
            time: iso(over.time as number),
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = fuelTransactionBatchResultSchema.parse(res.json()).results[0]!.id;
    return async (): Promise<FuelTransaction> => {
      const got = await t.app.inject({ method: 'GET', url: url(`/fuel-transactions/${id}`), headers: admin });
      expect(got.statusCode).toBe(200);
      return got.json() as FuelTransaction;
    };
  };

  let pendingOne: () => Promise<FuelTransaction>;

  it('a refuel near the purchase verifies it, and the reason says how much the level rose', async () => {
    const read = await post({ time: REFUEL_STOP + 9 * MIN, quantity: 127 });
    const r = await read();
    expect(r.verification).toBe('VERIFIED');
    expect(r.reason).toMatch(/^The truck was \d+ ft from the station within ±15 min of the time \(within 490 ft\); its fuel level rose by 126\.8 gal$/);
    // The refuel now has its card transaction: no longer unmatched.
    const page = await events(`vehicleId=${vehicles.batch.assetId}`);
    expect(page.content[0]!.purchase).toMatchObject({ id: r.id, verification: 'VERIFIED' });
    expect(page.counts.UNMATCHED).toBe(0);
  });

  it('OVER_TANK by the level: 250 gal into a 1,000 l tank 81 % full', async () => {
    const r = await (await post({ time: SECOND_STOP + 5 * MIN, quantity: 250 }))();
    expect(r.verification).toBe('OVER_TANK');
    expect(r.reason).toMatch(
      /^250 gal is more than the truck's tank could take: it held 214 gal of 264.2 gal, room for 50.2 gal\. The truck was \d+ ft from the station/,
    );
  });

  it('the fill still to be seen is VERIFIED by place; NO_FILL_SEEN once the level was read half an hour after with no rise', async () => {
    // 50 gal: what a tank 81 % full can take, and more than the level's smallest visible fill.
    pendingOne = await post({ time: SECOND_STOP + 8 * MIN, quantity: 50 });
    const before = await pendingOne();
    expect(before.verification).toBe('VERIFIED');
    // The truck's fixes since then arrive: the level stayed.
    await batch(
      vehicles.batch,
      batchFixes.filter((f) => f.t > SECOND_STOP + 10 * MIN),
    );
    await t.app.fuelEvents.idle();
    const list = await t.app.inject({ method: 'GET', url: url(`/fuel-transactions?vehicleId=${vehicles.batch.assetId}&size=50`), headers: admin });
    expect(list.statusCode).toBe(200);
    const after = await pendingOne();
    expect(after.verification).toBe('NO_FILL_SEEN');
    expect(after.reason).toMatch(/^The truck was \d+ ft from the station, but its fuel level did not rise after the purchase \(214 gal in the tank\)$/);
  });

  it('fuel.purchase_flagged: once per flag, with the previous result and the reason in words', async () => {
    const sent = await hooks('fuel.purchase_flagged');
    const byVerification = sent.map((h) => `${h.data.verification as string} from ${String(h.data.previousVerification)}`);
    // TRC-1 recorded with no position; the level's over tank; the fill not seen after it was VERIFIED.
    expect(byVerification.sort()).toEqual(['NO_FILL_SEEN from VERIFIED', 'NO_POSITION from null', 'OVER_TANK from null']);
    const noFill = sent.find((h) => h.data.verification === 'NO_FILL_SEEN')!;
    expect(noFill.data).toMatchObject({ id: (await pendingOne()).id, unitNumber: 'FL-BATCH', quantity: 50, unit: 'GAL' });
    expect(noFill.data.reason).toMatch(/did not rise after the purchase/);
  });
});

describe('the list', () => {
  it('filters by type, time and vehicle; refuses bad filters with a 400; another organization sees nothing', async () => {
    const all = await events('');
    expect(all.counts).toEqual({ REFUEL: 3, DROP: 1, UNMATCHED: 1 });
    expect((await events('type=DROP')).content.map((e) => e.vehicleUnitNumber)).toEqual(['FL-FMB']);
    expect((await events(`from=${iso(T0 + 200 * MIN)}`)).content).toEqual([]);
    expect((await events(`to=${iso(T0 + 200 * MIN)}&type=REFUEL`)).totalElements).toBe(3);
    expect((await events('search=trc')).content.map((e) => e.vehicleUnitNumber)).toEqual(['FL-TRC']);
    const one = await t.app.inject({ method: 'GET', url: url(`/fuel-events/${all.content[0]!.id}`), headers: admin });
    expect((one.json() as FuelEvent).id).toBe(all.content[0]!.id);

    const bad = (q: string) => t.app.inject({ method: 'GET', url: url(`/fuel-events?${q}`), headers: admin });
    expectFieldErrors((await bad('type=THEFT')).json(), 400, { type: 'Type must be REFUEL or DROP' });
    expectFieldErrors((await bad(`from=${iso(T0)}&to=${iso(T0 - MIN)}`)).json(), 400, { to: 'To must be after From' });
    expectFieldErrors((await bad('type=DROP&unmatched=true')).json(), 400, { unmatched: 'Only refuels are matched' });
    expectFieldErrors((await bad('sort=litres,asc')).json(), 400, { sort: 'sort must be one of' });
    expect((await bad('vehicleId=nope')).statusCode).toBe(400);

    const stranger = await registerOrganization(t.app, 'Other Fuel Carrier');
    const theirs = await t.app.inject({ method: 'GET', url: url('/fuel-events'), headers: bearer(stranger.accessToken) });
    expect([403, 404]).toContain(theirs.statusCode);
    expectErrorBody(theirs.json(), theirs.statusCode);
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${stranger.user.organization!.id}/fuel-events/${all.content[0]!.id}`,
      headers: bearer(stranger.accessToken),
    });
    expect(own.statusCode).toBe(404);
  });

  it('a replay (the follower forgot its tracks: a restart) and the start-up catch-up rewrite nothing', async () => {
    const before = await sql<{ id: string; updated_at: string }>(`select id, updated_at::text from fuel_events where organization_id = '${orgId}' order by id`);
    t.app.fuelEvents.forget();
    const last = batchFixes[batchFixes.length - 1]!;
    await batch(vehicles.batch, legs(last.t, [{ minutes: 3, speed: 90, level: () => 79 }], last.lat));
    await t.app.fuelEvents.idle();
    // The arithmetic in UTC is immutable, which Citus accepts in an UPDATE (timestamptz - interval is not).
    await sql(
      `update fuel_level_marks set covered_until = (covered_until at time zone 'UTC' - interval '2 hours') at time zone 'UTC' where organization_id = '${orgId}'`,
    );
    expect(await t.app.fuelEvents.catchUp()).toBeGreaterThan(0);
    const after = await sql<{ id: string; updated_at: string }>(`select id, updated_at::text from fuel_events where organization_id = '${orgId}' order by id`);
    expect(after).toEqual(before);
    expect((await hooks('fuel.drop_detected')).length).toBe(1);
    expect(await corrections()).toEqual([]);
  });

  it('a replay that finds a recorded event different, or no longer, records a correction with before and after', async () => {
    const v = vehicles.batch.assetId;
    const [refuel] = await sql<{ id: string; quantity_l: number }>(`select id, quantity_l from fuel_events where asset_id = '${v}' and type = 'REFUEL'`);
    // As if recorded from other fixes: a refuel 50 l larger, and a drop the fixes do not show.
    await sql(`update fuel_events set quantity_l = quantity_l + 50 where id = '${refuel!.id}'`);
    const [ghost] = await sql<{ id: string }>(
      `insert into fuel_events (organization_id, asset_id, type, started_at, ended_at, latitude, longitude, quantity_l, level_before_pct, level_after_pct,
        level_before_l, level_after_l, tank_capacity_l, capacity_assumed, ignition_off)
       values ('${orgId}', '${v}', 'DROP', '${iso(SECOND_STOP + 10 * MIN)}', '${iso(SECOND_STOP + 14 * MIN)}', 41.6, -88.08, 60, 81, 75, 810, 750, 1000, false, false) returning id`,
    );
    t.app.fuelEvents.forget();
    await sql(
      `update fuel_level_marks set covered_until = (covered_until at time zone 'UTC' - interval '2 hours') at time zone 'UTC' where organization_id = '${orgId}'`,
    );
    expect(await t.app.fuelEvents.catchUp()).toBeGreaterThan(0);
    await t.app.fuelEvents.idle();
    const [now] = await sql<{ quantity_l: number }>(`select quantity_l from fuel_events where id = '${refuel!.id}'`);
    expect(now!.quantity_l).toBeCloseTo(refuel!.quantity_l, 6);
    expect(await sql(`select 1 from fuel_events where id = '${ghost!.id}'`)).toEqual([]);
    const log = await corrections();
    expect(log.map((c) => c.entity_id).sort()).toEqual([refuel!.id, ghost!.id].sort());
    const changed = log.find((c) => c.entity_id === refuel!.id)!.changes;
    expect(changed.before.quantity_l).toBeCloseTo(refuel!.quantity_l + 50, 6);
    expect(changed.after?.quantityL).toBeCloseTo(refuel!.quantity_l, 6);
    expect(log.find((c) => c.entity_id === ghost!.id)!.changes.after ?? null).toBeNull();
  });
});

describe('a round that fails (decision 0328)', () => {
  it('finds the refuel of a failed round’s fixes with the next ones, as the batch truck’s in-order stream does', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'fl-failed-round', unitNumber: 'FL-FAIL' });
    await sql(`update assets set tank_capacity_l = 1000 where id = '${v.assetId}'`);
    const rows = batchFixes
      .filter((f) => f.t <= SECOND_STOP)
      .map((f): PositionRow => ({
        organizationId: orgId,
        gatewayId: v.gatewayId,
        assetId: v.assetId,
        driverId: v.driverId,
        fixTime: new Date(f.t),
        latitude: f.lat,
        longitude: f.lon,
        speed: f.speed,
        course: 0,
        altitude: null,
        accuracy: null,
        odometer: null,
        odometerSource: null,
        engineHours: null,
        ignition: f.ignition,
        protocol: 'osmand',
        attributes: { fuelLevel: f.level },
      }));
    // The database goes away under the round holding the refuel stop and the drive after it.
    let down = false;
    const flaky = new Proxy(t.app.db, {
      get(target, p, receiver) {
        const value: unknown = Reflect.get(target, p, receiver);
        if (!down || typeof value !== 'function') return value;
        return () => {
          throw new Error('the database went away (test)');
        };
      },
    });
    const fuel = new FuelEvents(flaky, { flushMs: 1 });
    const send = async (part: PositionRow[]) => {
      const { stored } = await writePositions(t.app.db, part);
      fuel.enqueue(part, stored);
      await fuel.idle();
    };
    const leaves = rows.findIndex((r) => r.fixTime.getTime() > REFUEL_STOP + 45 * MIN);
    await send(rows.slice(0, 10));
    down = true;
    await send(rows.slice(10, leaves));
    expect(fuel.stats.failures).toBe(1);
    down = false;
    await send(rows.slice(leaves));
    await fuel.close();
    const got = (await events(`vehicleId=${v.assetId}`)).content.map((e) => [e.type, e.levelBeforePct, e.levelAfterPct, e.startedAt, e.endedAt]);
    const inOrder = (await events(`vehicleId=${vehicles.batch.assetId}`)).content
      .filter((e) => Date.parse(e.startedAt) < SECOND_STOP)
      .map((e) => [e.type, e.levelBeforePct, e.levelAfterPct, e.startedAt, e.endedAt]);
    expect(got.map((e) => e[0])).toEqual(['REFUEL']);
    expect(got).toEqual(inOrder);
  });
});

async function corrections() {
  return sql<{ entity_id: string; changes: { before: { quantity_l: number }; after?: { quantityL: number } | null } }>(
    `select entity_id, changes from activity_log where organization_id = '${orgId}' and action = 'CORRECTION' and entity_type = 'FUEL_EVENT'`,
  );
}

describe('the API document', () => {
  it('has the fuel-events route with its filters and both fuel webhooks with examples their schemas take', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, { get?: { parameters?: Array<{ name: string }> } }>;
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { example: { type: string } }> } } }>;
    };
    const list = doc.paths['/api/v1/organizations/{orgId}/fuel-events']?.get;
    expect(list?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['type', 'from', 'to', 'vehicleId', 'unmatched', 'page', 'size', 'sort']));
    for (const type of ['fuel.drop_detected', 'fuel.purchase_flagged'] as const) {
      expect(doc.webhooks[type]!.post.requestBody.content['application/json']!.example.type).toBe(type);
      expect(WEBHOOK_DATA_SCHEMAS[type].safeParse(WEBHOOK_EVENT_INFO[type].example).success).toBe(true);
    }
  });
});
