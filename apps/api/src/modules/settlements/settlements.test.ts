import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadSchema,
  payAdjustmentSchema,
  payProfileSchema,
  settlementPageSchema,
  settlementSchema,
  type Load,
  type Settlement,
  type SettlementLine,
} from '@fleet/api-contract';
import { rowsOf } from '../../db/sql/rows.ts';
import { createApiToken } from '../../test/api-tokens.ts';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { invitedDriver } from '../../test/members.ts';
import { pdfText } from '../../test/pdf.ts';

// Driver settlements through HTTP on the real database (issue 70, decision 0294): each pay type and
// a team load against a hand calculation, deductions and reimbursements taken once, a load settled
// once per driver, the steps of a settlement, a driver's own statements only, another organization.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let ana: { id: string; headers: Record<string, string> };
let ben: { id: string; headers: Record<string, string> };
let other: { orgId: string; headers: Record<string, string> };
const org = (path: string, id = orgId) => `/api/v1/organizations/${id}${path}`;

// Days counted in the drivers' home zone (America/Chicago, the default): week 1 ended 10 days ago.
const ZONE = 'America/Chicago';
const dateIn = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(ms));
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const W1 = addDays(dateIn(Date.now()), -17);
const W1_END = addDays(W1, 6);
const W2 = addDays(W1, 7);
const W2_END = addDays(W1, 13);
/** An instant on `date` at a Chicago wall-clock hour (CST; under CDT it reads an hour later, the same day). */
const at = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00-06:00`).toISOString();

const KC = { latitude: 39.1, longitude: -94.58 };
const STL = { latitude: 38.63, longitude: -90.2 };
const CHI = { latitude: 41.88, longitude: -87.63 };
const JOLIET = { latitude: 41.52, longitude: -88.08 };
const INDY = { latitude: 39.77, longitude: -86.16 };
const COLUMBUS = { latitude: 39.96, longitude: -83.0 };
const DETROIT = { latitude: 42.33, longitude: -83.05 };

async function post(url: string, headers: Record<string, string>, payload: unknown) {
  return t.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
}
async function get(url: string, headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url, headers });
}

type Stop = { at: typeof KC; kind: 'PICKUP' | 'DELIVERY'; arrive: string; depart: string };

/** A load driven by `driverIds` through `stops` (arrived and departed at those times), delivered. */
async function deliveredLoad(driverIds: string[], lineHaul: number, stops: Stop[]): Promise<Load> {
  const res = await post(org('/loads'), admin, {
    customer: 'Acme Foods',
    driverIds,
    overlapAllowed: true,
    rate: { lineHaul, fuelSurcharge: 99.99, accessorials: [{ kind: 'TARP', amount: 75 }] },
    stops: stops.map((s) => ({ kind: s.kind, ...s.at, windowStart: s.arrive, windowEnd: s.depart, serviceMinutes: 30 })),
  });
  expect(res.statusCode, res.body).toBe(201);
  const load = loadSchema.parse(res.json());
  for (const [i, s] of stops.entries()) {
    for (const [event, when] of [
      ['ARRIVE', s.arrive],
      ['DEPART', s.depart],
    ] as const) {
      const r = await post(org(`/loads/${load.id}/stops/${load.stops[i]!.id}/status`), admin, { event, at: when });
      expect(r.statusCode, r.body).toBe(200);
    }
  }
  const done = loadSchema.parse((await get(org(`/loads/${load.id}`), admin)).json());
  expect(done.status).toBe('DELIVERED');
  return done;
}

/** The road distance between two points as the loads module measures it: a planned load's loadedKm. */
async function roadKm(a: typeof KC, b: typeof KC): Promise<number> {
  const day = addDays(dateIn(Date.now()), 3);
  const res = await post(org('/loads'), admin, {
    customer: 'Distance check',
    rate: { lineHaul: 1 },
    stops: [
      { kind: 'PICKUP', ...a, windowStart: at(day, '08:00'), windowEnd: at(day, '09:00'), serviceMinutes: 0 },
      { kind: 'DELIVERY', ...b, windowStart: at(day, '18:00'), windowEnd: at(day, '19:00'), serviceMinutes: 0 },
    ],
  });
  expect(res.statusCode, res.body).toBe(201);
  return loadSchema.parse(res.json()).loadedKm!;
}

async function settle(driverId: string, from: string, to: string, headers = admin): Promise<Settlement> {
  const res = await post(org('/settlements'), headers, { driverId, from, to });
  expect(res.statusCode, res.body).toBe(201);
  return settlementSchema.parse(res.json());
}

// The hand calculation: miles to a tenth, money to the cent.
const miles = (km: number) => Math.round((km / 1.609344) * 10) / 10;
const cents = (dollars: number) => Math.round(dollars * 100);
const linesOf = (s: Settlement, loadNumber: string | null, kind: SettlementLine['kind']) =>
  s.lines.filter((l) => l.kind === kind && (loadNumber === null || l.loadNumber === loadNumber));
const amountOf = (s: Settlement, loadNumber: string | null, kind: SettlementLine['kind']) => {
  const found = linesOf(s, loadNumber, kind);
  expect(found, `${loadNumber} ${kind}`).toHaveLength(1);
  return cents(found[0]!.amount);
};

let l1: Load;
let l2: Load;
let l3: Load;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Settling Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  const a = await invitedDriver(t.app, t.dataDir, orgId, admin, { firstName: 'Ana', lastName: 'Solo' });
  const b = await invitedDriver(t.app, t.dataDir, orgId, admin, { firstName: 'Ben', lastName: 'Team' });
  ana = { id: a.driver.id, headers: a.headers };
  ben = { id: b.driver.id, headers: b.headers };
  const o = await registerOrganization(t.app, 'Other Settling Carrier');
  other = { orgId: o.user.organization!.id, headers: bearer(o.accessToken) };

  // Ana's week 1: Kansas City to St. Louis (waiting 190 min at the delivery), then four stops from
  // Chicago to Columbus, then a team load with Ben from Chicago to Detroit.
  const d = (n: number) => addDays(W1, n);
  l1 = await deliveredLoad([ana.id], 1250.5, [
    { at: KC, kind: 'PICKUP', arrive: at(d(1), '06:00'), depart: at(d(1), '07:00') },
    { at: STL, kind: 'DELIVERY', arrive: at(d(1), '13:00'), depart: at(d(1), '16:10') },
  ]);
  l2 = await deliveredLoad([ana.id], 2000, [
    { at: CHI, kind: 'PICKUP', arrive: at(d(3), '06:00'), depart: at(d(3), '06:30') },
    { at: JOLIET, kind: 'PICKUP', arrive: at(d(3), '08:00'), depart: at(d(3), '08:30') },
    { at: INDY, kind: 'DELIVERY', arrive: at(d(3), '12:00'), depart: at(d(3), '12:30') },
    { at: COLUMBUS, kind: 'DELIVERY', arrive: at(d(3), '16:00'), depart: at(d(3), '16:40') },
  ]);
  l3 = await deliveredLoad([ana.id, ben.id], 1800, [
    { at: CHI, kind: 'PICKUP', arrive: at(d(5), '06:00'), depart: at(d(5), '07:00') },
    { at: DETROIT, kind: 'DELIVERY', arrive: at(d(5), '13:00'), depart: at(d(5), '14:00') },
  ]);
  // Ana's log on day 2 of week 1: 2.5 h on duty, 4 h driving, 1 h on duty.
  const hos = await post(org(`/drivers/${ana.id}/hos_log/import`), admin, {
    source: 'Previous ELD',
    periods: [
      { status: 'OFF', start: at(d(2), '00:30'), end: at(d(2), '06:00') },
      { status: 'ON', start: at(d(2), '06:00'), end: at(d(2), '08:30') },
      { status: 'D', start: at(d(2), '08:30'), end: at(d(2), '12:30') },
      { status: 'ON', start: at(d(2), '12:30'), end: at(d(2), '13:30') },
      { status: 'OFF', start: at(d(2), '13:30'), end: at(d(2), '23:00') },
    ],
  });
  expect(hos.statusCode, hos.body).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('pay profiles and adjustments', () => {
  it('answers the zero profile before one is saved, saves every rate, and refuses bad rates changing nothing', async () => {
    const before = payProfileSchema.parse((await get(org(`/drivers/${ana.id}/pay-profile`), admin)).json());
    expect(before).toMatchObject({ loadedMileRate: 0, teamSharePercent: 50, detentionFreeMinutes: 120, updatedAt: null });

    const bad = await t.app.inject({
      method: 'PUT',
      url: org(`/drivers/${ana.id}/pay-profile`),
      headers: admin,
      payload: { loadedMileRate: 0.5555, teamSharePercent: 0 },
    });
    expectFieldErrors(bad.json(), 400, {
      loadedMileRate: 'Pay per loaded mile may have at most 3 decimals',
      teamSharePercent: 'Share of a team load must be at least 1%',
    });
    expect(payProfileSchema.parse((await get(org(`/drivers/${ana.id}/pay-profile`), admin)).json()).updatedAt).toBeNull();

    const put = async (driverId: string, body: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'PUT', url: org(`/drivers/${driverId}/pay-profile`), headers: admin, payload: body });
      expect(res.statusCode, res.body).toBe(200);
      return payProfileSchema.parse(res.json());
    };
    const saved = await put(ana.id, {
      loadedMileRate: 0.55,
      emptyMileRate: 0.3,
      lineHaulPercent: 10,
      flatPerLoad: 50,
      extraStopRate: 25,
      hourlyRate: 20,
      hourlyBasis: 'ON_DUTY_NOT_DRIVING',
      detentionRate: 18,
      detentionFreeMinutes: 120,
      teamSharePercent: 60,
    });
    expect(saved).toMatchObject({ loadedMileRate: 0.55, lineHaulPercent: 10, teamSharePercent: 60, driverName: 'Ana Solo' });
    expect(saved.updatedAt).not.toBeNull();
    await put(ben.id, { loadedMileRate: 0.5, teamSharePercent: 40 });
    const all = (await get(org('/pay-profiles'), admin)).json() as Array<{ driverName: string; teamSharePercent: number }>;
    expect(all.map((p) => [p.driverName, p.teamSharePercent])).toEqual([
      ['Ana Solo', 60],
      ['Ben Team', 40],
    ]);
    expect((await get(org('/pay-profiles', other.orgId), other.headers)).json()).toEqual([]);
  });

  it('keeps deductions and reimbursements, recurring or once, and refuses a one-time one with an end', async () => {
    const add = async (body: Record<string, unknown>) => {
      const res = await post(org(`/drivers/${ana.id}/pay-adjustments`), admin, body);
      expect(res.statusCode, res.body).toBe(201);
      return payAdjustmentSchema.parse(res.json());
    };
    await add({
      adjustmentType: 'DEDUCTION',
      adjustmentCategory: 'LEASE',
      description: 'Truck lease',
      amount: 350,
      recurrence: 'EACH_SETTLEMENT',
      startsOn: W1,
    });
    await add({ adjustmentType: 'DEDUCTION', adjustmentCategory: 'ADVANCE', description: 'Fuel advance', amount: 100, recurrence: 'ONCE', startsOn: W1 });
    await add({ adjustmentType: 'REIMBURSEMENT', adjustmentCategory: 'TOLLS', description: 'Tolls I-80', amount: 42.5, recurrence: 'ONCE', startsOn: W1 });
    // Not in force in week 1: ended before it.
    await add({
      adjustmentType: 'DEDUCTION',
      adjustmentCategory: 'INSURANCE',
      description: 'Old insurance',
      amount: 80,
      recurrence: 'EACH_SETTLEMENT',
      startsOn: addDays(W1, -30),
      endsOn: addDays(W1, -1),
    });
    const bad = await post(org(`/drivers/${ana.id}/pay-adjustments`), admin, {
      adjustmentType: 'DEDUCTION',
      adjustmentCategory: 'ADVANCE',
      description: 'Advance',
      amount: 100,
      recurrence: 'ONCE',
      endsOn: W1,
    });
    expectFieldErrors(bad.json(), 400, { endsOn: 'A one-time amount has no end date' });
    const list = (await get(org(`/drivers/${ana.id}/pay-adjustments`), admin)).json() as unknown[];
    expect(list).toHaveLength(4);
  });
});

describe('a settlement', () => {
  let s1: Settlement;

  it('pays each kind of pay as the hand calculation says, saying where each figure came from', async () => {
    const km1 = l1.loadedKm!;
    const km2 = l2.loadedKm!;
    const km3 = l3.loadedKm!;
    // The empty legs: from the previous delivery to the next pick-up, by road.
    const stlToChi = await roadKm(STL, CHI);
    const colToChi = await roadKm(COLUMBUS, CHI);

    s1 = await settle(ana.id, W1, W1_END);
    expect(s1).toMatchObject({ status: 'DRAFT', from: W1, to: W1_END, timeZone: ZONE, loadCount: 3, driver: { id: ana.id, name: 'Ana Solo' } });
    expect(s1.loads.map((l) => [l.number, l.seat, l.sharePercent])).toEqual([
      [l1.number, 'LEAD', 100],
      [l2.number, 'LEAD', 100],
      [l3.number, 'LEAD', 60],
    ]);
    expect(s1.loads[2]!.teammate).toBe('Ben Team');

    // Loaded miles: 0.55 a mile.
    expect(amountOf(s1, l1.number, 'LOADED_MILES')).toBe(cents(miles(km1) * 0.55));
    expect(amountOf(s1, l2.number, 'LOADED_MILES')).toBe(cents(miles(km2) * 0.55));
    expect(linesOf(s1, l1.number, 'LOADED_MILES')[0]).toMatchObject({ quantity: miles(km1), unit: 'MILE', rate: 0.55, distanceKm: km1 });
    // Empty miles: 0.30 a mile; the first load has no earlier delivery.
    expect(linesOf(s1, l1.number, 'EMPTY_MILES')).toEqual([]);
    expect(amountOf(s1, l2.number, 'EMPTY_MILES')).toBe(cents(miles(stlToChi) * 0.3));
    expect(linesOf(s1, l2.number, 'EMPTY_MILES')[0]!.source).toContain(`delivery of ${l1.number}`);
    // 10% of the line haul (not of the fuel surcharge or accessorials).
    expect(amountOf(s1, l1.number, 'LINE_HAUL_PERCENT')).toBe(cents(125.05));
    expect(amountOf(s1, l2.number, 'LINE_HAUL_PERCENT')).toBe(cents(200));
    // $50 a load, $25 a stop beyond the first pick-up and the last delivery.
    expect(amountOf(s1, l1.number, 'FLAT')).toBe(cents(50));
    expect(linesOf(s1, l1.number, 'EXTRA_STOPS')).toEqual([]);
    expect(amountOf(s1, l2.number, 'EXTRA_STOPS')).toBe(cents(2 * 25));
    // Detention: 190 min at St. Louis, 120 free: 70 min at $18 an hour = $21.00; the other stops left in time.
    expect(amountOf(s1, l1.number, 'DETENTION')).toBe(cents(21));
    expect(linesOf(s1, l1.number, 'DETENTION')[0]!.source).toContain('190 min on site, 120 min free, 70 min paid');
    expect(linesOf(s1, l2.number, 'DETENTION')).toEqual([]);
    // Hours from Ana's log: 2.5 + 1 h on duty not driving at $20 (driving is paid by the load).
    const hours = linesOf(s1, null, 'HOURLY');
    expect(hours.map((h) => [h.logDate, h.quantity, cents(h.amount)])).toEqual([[addDays(W1, 2), 3.5, cents(70)]]);
    expect(hours[0]!.source).toContain(`Log of ${addDays(W1, 2)}`);
    // The team load: Ana's 60% of each line.
    expect(amountOf(s1, l3.number, 'LOADED_MILES')).toBe(cents(miles(km3) * 0.55 * 0.6));
    expect(amountOf(s1, l3.number, 'EMPTY_MILES')).toBe(cents(miles(colToChi) * 0.3 * 0.6));
    expect(amountOf(s1, l3.number, 'LINE_HAUL_PERCENT')).toBe(cents(1800 * 0.1 * 0.6));
    expect(amountOf(s1, l3.number, 'FLAT')).toBe(cents(50 * 0.6));
    expect(linesOf(s1, l3.number, 'FLAT')[0]!.sharePercent).toBe(60);
    // Adjustments: the tolls back, the lease and the advance off; the insurance ended before the week.
    expect(amountOf(s1, null, 'REIMBURSEMENT')).toBe(cents(42.5));
    expect(
      linesOf(s1, null, 'DEDUCTION')
        .map((l) => [l.description, cents(l.amount)])
        .sort(),
    ).toEqual([
      ['Fuel advance', -cents(100)],
      ['Truck lease', -cents(350)],
    ]);
    // The totals are the lines' sums, and each load's pay is its lines'.
    const sum = (kinds: string[]) => s1.lines.filter((l) => kinds.includes(l.kind)).reduce((n, l) => n + cents(l.amount), 0);
    expect(cents(s1.totals.loads)).toBe(sum(['LOADED_MILES', 'EMPTY_MILES', 'LINE_HAUL_PERCENT', 'FLAT', 'EXTRA_STOPS']));
    expect(cents(s1.totals.detention)).toBe(cents(21));
    expect(cents(s1.totals.hourly)).toBe(cents(70));
    expect(cents(s1.totals.gross)).toBe(cents(s1.totals.loads) + cents(21) + cents(70));
    expect(cents(s1.totals.net)).toBe(cents(s1.totals.gross) + cents(42.5) - cents(450));
    for (const l of s1.loads) expect(cents(l.amount)).toBe(s1.lines.filter((x) => x.loadId === l.loadId).reduce((n, x) => n + cents(x.amount), 0));
    expect(s1.rates).toMatchObject({ loadedMileRate: 0.55, teamSharePercent: 60 });
  });

  it("pays the team load's other driver their own share at their own rate", async () => {
    const s = await settle(ben.id, W1, W1_END);
    expect(s.loads.map((l) => [l.number, l.seat, l.sharePercent, l.teammate])).toEqual([[l3.number, 'CO_DRIVER', 40, 'Ana Solo']]);
    expect(amountOf(s, l3.number, 'LOADED_MILES')).toBe(cents(miles(l3.loadedKm!) * 0.5 * 0.4));
    // Ben delivered nothing before: no empty leg; his profile pays nothing else.
    expect(s.lines.map((l) => l.kind)).toEqual(['LOADED_MILES']);
  });

  it('settles a load once per driver, takes a one-time adjustment once and a recurring one on each settlement', async () => {
    // The same days again: refused while the first stands, nothing made.
    const again = await post(org('/settlements'), admin, { driverId: ana.id, from: addDays(W1, 3), to: W2_END });
    expectFieldErrors(again.json(), 409, { from: `Settlement ${s1.number}` });
    // Week 2: no load, no hours; the lease again, not the advance nor the tolls.
    const s2 = await settle(ana.id, W2, W2_END);
    expect(s2.loadCount).toBe(0);
    expect(s2.lines.map((l) => [l.kind, l.description])).toEqual([['DEDUCTION', 'Truck lease']]);
    expect(s2.totals.net).toBe(-350);
    // The advance names the settlement that took it.
    const list = (await get(org(`/drivers/${ana.id}/pay-adjustments`), admin)).json() as Array<{
      description: string;
      appliedIn: { number: string } | null;
      timesApplied: number;
    }>;
    expect(list.find((a) => a.description === 'Fuel advance')).toMatchObject({ appliedIn: { number: s1.number }, timesApplied: 1 });
    expect(list.find((a) => a.description === 'Truck lease')).toMatchObject({ appliedIn: null, timesApplied: 2 });

    // Voiding week 1 releases its loads and the advance: the next settlement of those days takes them again.
    const voided = await post(org(`/settlements/${s1.id}/void`), admin, { voidReason: 'Wrong rate' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(settlementSchema.parse(voided.json())).toMatchObject({ status: 'VOID', voidReason: 'Wrong rate' });
    const redo = await settle(ana.id, W1, W1_END);
    expect(redo.loads.map((l) => l.number)).toEqual([l1.number, l2.number, l3.number]);
    expect(redo.totals.net).toBe(s1.totals.net);
    // The database holds each (driver, load) once among standing settlements.
    const [dup] = rowsOf<{ n: number }>(
      await t.app.db.execute(
        `select count(*)::int as n from (select driver_id, load_id from settlement_loads where organization_id = '${orgId}' and not released group by 1, 2 having count(*) > 1) x` as never,
      ),
    );
    expect(dup!.n).toBe(0);
    s1 = redo;
  });

  it('goes draft, approved, paid; refuses other steps with the reason; voids no paid one', async () => {
    const paidEarly = await post(org(`/settlements/${s1.id}/paid`), admin, {});
    expectFieldErrors(paidEarly.json(), 409, { status: `Settlement ${s1.number} is a draft: approve it before marking it paid` });
    const approved = settlementSchema.parse((await post(org(`/settlements/${s1.id}/approve`), admin, {})).json());
    expect(approved.status).toBe('APPROVED');
    expect(approved.approvedBy).toBeTruthy();
    const twice = await post(org(`/settlements/${s1.id}/approve`), admin, {});
    expectErrorBody(twice.json(), 409);
    const paid = settlementSchema.parse((await post(org(`/settlements/${s1.id}/paid`), admin, { paymentReference: 'ACH 7781' })).json());
    expect(paid).toMatchObject({ status: 'PAID', paymentReference: 'ACH 7781' });
    const voidPaid = await post(org(`/settlements/${s1.id}/void`), admin, {});
    expectFieldErrors(voidPaid.json(), 409, { status: `Settlement ${s1.number} is paid and stays as paid` });
    const actions = rowsOf<{ action: string }>(await t.app.db.execute(`select action from activity_log where entity_id = '${s1.id}' order by id` as never)).map(
      (r) => r.action,
    );
    expect(actions).toEqual(['CREATE', 'APPROVE_SETTLEMENT', 'PAY_SETTLEMENT']);
  });

  it('refuses bad days with the reason and changes nothing', async () => {
    const count = async () => settlementPageSchema.parse((await get(org('/settlements?size=50'), admin)).json()).totalElements;
    const n = await count();
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ driverId: ana.id, from: W2, to: W1 }, { to: 'To must not be before From' }],
      [{ driverId: ana.id, from: addDays(W1, -60), to: addDays(W1, -20) }, { to: 'A settlement covers at most 31 days' }],
      [{ driverId: ana.id, from: dateIn(Date.now()), to: dateIn(Date.now()) }, { to: "The settlement's last day has not ended yet" }],
      [{ driverId: '00000000-0000-4000-8000-000000000000', from: W1, to: W1_END }, { driverId: 'Driver not found' }],
    ];
    for (const [body, words] of cases) expectFieldErrors((await post(org('/settlements'), admin, body)).json(), 400, words);
    expect(await count()).toBe(n);
  });

  it('prints the statement with its groups and net pay', async () => {
    const res = await get(org(`/settlements/${s1.id}/pdf`), admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfText(res.rawPayload);
    if (process.env.SETTLEMENT_PDF_OUT) (await import('node:fs')).writeFileSync(process.env.SETTLEMENT_PDF_OUT, res.rawPayload);
    for (const words of [
      `Driver pay statement ${s1.number}`,
      'Ana Solo',
      l1.number,
      'Loads',
      'Detention',
      'Hours from the driver',
      'Reimbursements',
      'Deductions',
      'Net pay',
      'Truck lease',
    ])
      expect(text).toContain(words);
  });
});

describe('who sees settlements', () => {
  it("shows a driver their own approved and paid statements, never a draft or another driver's", async () => {
    const benDraft = settlementPageSchema.parse((await get(org(`/settlements?driverId=${ben.id}`), admin)).json()).content[0]!;
    const mine = settlementPageSchema.parse((await get(org('/settlements'), ana.headers)).json());
    expect(mine.content.map((s) => [s.driver.id, s.status])).toEqual([[ana.id, 'PAID']]);
    // Naming another driver or a draft status changes nothing.
    expect(settlementPageSchema.parse((await get(org(`/settlements?driverId=${ben.id}`), ana.headers)).json()).content.map((s) => s.driver.id)).toEqual([
      ana.id,
    ]);
    expect(settlementPageSchema.parse((await get(org('/settlements?status=DRAFT,VOID'), ana.headers)).json()).totalElements).toBe(0);
    const own = mine.content[0]!;
    expect((await get(org(`/settlements/${own.id}`), ana.headers)).statusCode).toBe(200);
    const pdf = await get(org(`/settlements/${own.id}/pdf`), ana.headers);
    expect(pdf.statusCode).toBe(200);
    // Ben's draft is not his yet, and never Ana's.
    for (const [path, who] of [
      [`/settlements/${benDraft.id}`, ana.headers],
      [`/settlements/${benDraft.id}/pdf`, ana.headers],
      [`/settlements/${benDraft.id}`, ben.headers],
    ] as const)
      expectErrorBody((await get(org(path), who)).json(), 404);
    // The office's codes only: a driver neither makes settlements nor reads pay profiles.
    expect((await post(org('/settlements'), ana.headers, { driverId: ana.id, from: W2, to: W2_END })).statusCode).toBe(403);
    expect((await get(org(`/drivers/${ana.id}/pay-profile`), ana.headers)).statusCode).toBe(403);
    expect((await post(org(`/settlements/${benDraft.id}/approve`), ben.headers, {})).statusCode).toBe(403);
  });

  it('hides another organization and refuses its drivers', async () => {
    const some = settlementPageSchema.parse((await get(org('/settlements'), admin)).json()).content[0]!;
    expectErrorBody((await get(org(`/settlements/${some.id}`, other.orgId), other.headers)).json(), 404);
    expectErrorBody((await get(org(`/settlements/${some.id}`), other.headers)).json(), 404);
    expect(settlementPageSchema.parse((await get(org('/settlements', other.orgId), other.headers)).json()).totalElements).toBe(0);
    expectFieldErrors((await post(org('/settlements', other.orgId), other.headers, { driverId: ana.id, from: W2, to: W2_END })).json(), 400, {
      driverId: 'Driver not found',
    });
    expectErrorBody((await get(org(`/drivers/${ana.id}/pay-profile`, other.orgId), other.headers)).json(), 404);
    const put = await t.app.inject({
      method: 'PUT',
      url: org(`/drivers/${ana.id}/pay-profile`, other.orgId),
      headers: other.headers,
      payload: { loadedMileRate: 9 },
    });
    expectErrorBody(put.json(), 404);
    expectErrorBody((await post(org(`/settlements/${some.id}/approve`, other.orgId), other.headers, {})).json(), 404);
    expect(payProfileSchema.parse((await get(org(`/drivers/${ana.id}/pay-profile`), admin)).json()).loadedMileRate).toBe(0.55);
  });

  it('lets an API token with the office codes read and make settlements for the organization, named as the token', async () => {
    const token = await createApiToken(t.app, orgId, admin, ['SETTLEMENT_LIST', 'SETTLEMENT_UPDATE', 'DRIVER_LIST'], 'Payroll');
    const h = bearer(token.token);
    expect(settlementPageSchema.parse((await get(org('/settlements'), h)).json()).totalElements).toBeGreaterThan(0);
    const s = await settle(ben.id, W2, W2_END, h);
    expect(s.createdBy).toBe('API token “Payroll”');
    const reader = await createApiToken(t.app, orgId, admin, ['SETTLEMENT_LIST', 'DRIVER_LIST']);
    expect((await post(org(`/settlements/${s.id}/approve`), bearer(reader.token), {})).statusCode).toBe(403);
  });
});
