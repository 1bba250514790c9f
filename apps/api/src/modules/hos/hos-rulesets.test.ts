import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, clocksAt, type DutyPeriod, type DutyStatus, type HosOptions, type RulesetId, type Special } from '@fleet/hos';
import { availabilityPageSchema, driverSchema, hosDriverStatusSchema, hosEventDetailSchema, violationPageSchema } from '@fleet/api-contract';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { driverBody, registryActors, userWithPermissions } from '../../test/registry.ts';

// Issue 72: the Florida, Alaska and Mexican rulesets and the oilfield provisions (49 CFR 395.1(d))
// through the API: a driver set to each ruleset has their imported log judged by it, exactly as the
// engine judges the same periods, and an oilfield driver's well-site waiting time is carried.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const H = 3_600_000;
type Part = [DutyStatus | `OFF:${Special}`, number];

/** Consecutive [status, hours] parts from a Chicago wall time in June 2026 (CDT, UTC-5). */
function log(startLocal: string, ...parts: Part[]): DutyPeriod[] {
  let ms = Date.parse(`${startLocal}:00-05:00`);
  return parts.map(([what, hours]) => {
    const [status, special] = what.split(':') as [DutyStatus, Special | undefined];
    const p: DutyPeriod = { status, start: new Date(ms).toISOString(), end: new Date((ms += Math.round(hours * H))).toISOString() };
    if (special) p.special = special;
    return p;
  });
}

const org = (rest: string) => `/api/v1/organizations/${a.orgId}${rest}`;
const opts = (ruleset: RulesetId, oilfield = false): HosOptions => ({
  ruleset,
  timeZone: 'America/Chicago',
  cycleDayStart: '00:00',
  exemptions: { shortHaul150: false, sixteenHour: false, ...(oilfield ? { oilfield: true } : {}) },
});
const brief = (vs: Array<{ rule: string; start: string; end: string }>) =>
  vs.map((v) => [v.rule, v.start, v.end]).sort((x, y) => (x[1]! < y[1]! ? -1 : x[1]! > y[1]! ? 1 : x[0]! < y[0]! ? -1 : 1));

async function driverWith(over: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: org('/drivers'), headers: a.admin, payload: driverBody({ homeTimeZone: 'America/Chicago', ...over }) });
  expect(res.statusCode, res.body).toBe(201);
  return driverSchema.parse(res.json());
}

/** Imports the periods for the driver, then reads the violations and the clocks at the log's end. */
async function judged(driverId: string, lastName: string, periods: DutyPeriod[]) {
  const imp = await t.app.inject({
    method: 'POST',
    url: org(`/drivers/${driverId}/hos_log/import`),
    headers: a.admin,
    payload: { source: 'Test ELD', periods },
  });
  expect(imp.statusCode, imp.body).toBe(201);
  const from = periods[0]!.start;
  const to = periods.at(-1)!.end;
  const vio = await t.app.inject({ method: 'GET', url: org(`/violations?driverId=${driverId}&from=${from}&to=${to}&size=500`), headers: a.admin });
  expect(vio.statusCode, vio.body).toBe(200);
  const av = await t.app.inject({ method: 'GET', url: org(`/availability?at=${to}&search=${lastName}&size=50`), headers: a.admin });
  expect(av.statusCode, av.body).toBe(200);
  const row = availabilityPageSchema.parse(av.json()).content.find((r) => r.driver.id === driverId)!;
  return { violations: violationPageSchema.parse(vio.json()).content, row, to };
}

// One log per new ruleset that breaks the rule its section names (packages/hos/test/state-and-mexico-rulesets.test.ts).
const CASES: Array<[string, RulesetId, DutyPeriod[], string]> = [
  ['F.S. 316.302(2)(b): past 12 h of driving', 'FL_INTRASTATE_70_7', log('2026-06-01T06:00', ['ON', 1], ['D', 12.5], ['OFF', 10]), 'DRIVING_LIMIT'],
  [
    'F.S. 316.302(2)(b): past the 16th hour',
    'FL_INTRASTATE_80_8',
    log('2026-06-01T06:00', ['ON', 4], ['D', 6], ['OFF', 3], ['D', 4], ['OFF', 10]),
    'WINDOW_LIMIT',
  ],
  ['395.1(h)(1)(i): past 15 h of driving', 'AK_PROPERTY_70_7', log('2026-06-01T06:00', ['ON', 1], ['D', 15.5], ['OFF', 10]), 'DRIVING_LIMIT'],
  ['395.1(h)(1)(ii): past 20 h on duty', 'AK_PROPERTY_80_8', log('2026-06-01T06:00', ['ON', 6], ['OFF', 4], ['D', 15], ['OFF', 10]), 'ON_DUTY_LIMIT'],
  [
    '395.1(h)(2): past 15 h of driving after 8 h off',
    'AK_PASSENGER_70_7',
    log('2026-06-01T06:00', ['D', 10], ['OFF', 8], ['D', 15.5], ['OFF', 8]),
    'DRIVING_LIMIT',
  ],
  ['395.1(h)(2): past 20 h on duty', 'AK_PASSENGER_80_8', log('2026-06-01T06:00', ['ON', 6], ['OFF', 4], ['D', 15], ['OFF', 8]), 'ON_DUTY_LIMIT'],
  [
    'NOM-087 4.6 a): past 14 h of driving',
    'MX_NOM_087',
    log('2026-06-01T06:00', ['D', 5], ['OFF', 0.5], ['D', 5], ['OFF', 0.5], ['D', 4.5], ['OFF', 8]),
    'DRIVING_LIMIT',
  ],
  ['NOM-087: no pause after 5 h of driving', 'MX_NOM_087', log('2026-06-01T06:00', ['D', 5], ['ON', 0.5], ['D', 1], ['OFF', 8]), 'BREAK_REQUIRED'],
];

describe('the state and Mexican rulesets through the API', () => {
  it.each(CASES)('%s (%s): the driver is set to it, and the log is judged by it', async (_name, ruleset, periods, rule) => {
    const d = await driverWith({ ruleset });
    expect(d.ruleset).toBe(ruleset);
    const read = await t.app.inject({ method: 'GET', url: org(`/drivers/${d.id}`), headers: a.admin });
    expect(driverSchema.parse(read.json()).ruleset).toBe(ruleset);

    const { violations, row, to } = await judged(d.id, d.lastName, periods);
    const expected = auditLog(periods, opts(ruleset)).violations;
    expect(expected.map((v) => v.rule)).toContain(rule);
    expect(brief(violations)).toEqual(brief(expected));
    for (const v of violations) expect(v.ruleset).toBe(ruleset);
    expect({ strict: row.strict, provisional: row.provisional, cycleUsedMs: row.cycleUsedMs }).toEqual(clocksAt(periods, to, opts(ruleset)));
    expect(row.ruleset).toBe(ruleset);
  });

  it('refuses a ruleset that does not exist with a 400 on the field, and changes nothing', async () => {
    const d = await driverWith({ ruleset: 'MX_NOM_087' });
    const res = await t.app.inject({ method: 'PUT', url: org(`/drivers/${d.id}`), headers: a.admin, payload: driverBody({ ruleset: 'MX_NOM_088' }) });
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res.json(), 400).technicalMessage).toContain('ruleset');
    const read = await t.app.inject({ method: 'GET', url: org(`/drivers/${d.id}`), headers: a.admin });
    expect(driverSchema.parse(read.json()).ruleset).toBe('MX_NOM_087');
  });
});

describe('oilfield operations (49 CFR 395.1(d)) through the API', () => {
  // 6 h waiting at a well site in the middle of the shift: outside the 14-hour window only for an oilfield driver.
  const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['OFF:WAITING', 6], ['D', 5], ['OFF', 10]);

  it("395.1(d)(2): an oilfield driver's waiting time is not counted in the 14-hour window; another driver's is", async () => {
    const oil = await driverWith({ ruleset: 'US_PROPERTY_70_8', oilfield: true });
    expect(oil.oilfield).toBe(true);
    const oilJudged = await judged(oil.id, oil.lastName, periods);
    expect(oilJudged.violations).toEqual([]);
    expect(auditLog(periods, opts('US_PROPERTY_70_8', true)).violations).toEqual([]);

    const plain = await driverWith({ ruleset: 'US_PROPERTY_70_8' });
    expect(plain.oilfield).toBe(false);
    const plainJudged = await judged(plain.id, plain.lastName, periods);
    expect(plainJudged.violations.map((v) => v.rule)).toEqual(['WINDOW_LIMIT']);
    expect(brief(plainJudged.violations)).toEqual(brief(auditLog(periods, opts('US_PROPERTY_70_8')).violations));
  });

  it('395.1(d)(2): a driver marks waiting time as OFF duty only with the exemption; the status shows it', async () => {
    const headers = await userWithPermissions(t, a.orgId, ['HOS_SELF_READ', 'HOS_SELF_WRITE']);
    const userId = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers })).json().id as string;
    const d = await driverWith({ userId, ruleset: 'US_PROPERTY_70_8' });
    const statusUrl = org(`/users/${userId}/hos_log/driver-status`);
    const status = hosDriverStatusSchema.parse((await t.app.inject({ method: 'GET', url: statusUrl, headers })).json());
    expect(status.engine.options.exemptions).not.toHaveProperty('oilfield');
    const url = org(`/users/${userId}/hos_log/${status.today.id}/hos_event`);
    const place = { latitude: 31.99, longitude: -102.08 };
    const refused = await t.app.inject({ method: 'POST', url, headers, payload: { status: 'OFF', special: 'WAITING', ...place } });
    expect(expectFieldErrors(refused.json(), 400, { special: 'This driver has no oilfield exemption for well-site waiting time' }).code).toBe(
      'hos.waiting_time_not_allowed',
    );

    const edited = await t.app.inject({
      method: 'PUT',
      url: org(`/drivers/${d.id}`),
      headers: a.admin,
      payload: { ...driverBody(), ...pick(d), userId, oilfield: true },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const onStatus = await t.app.inject({ method: 'POST', url, headers, payload: { status: 'ON', special: 'WAITING', ...place } });
    expectFieldErrors(onStatus.json(), 400, { special: 'Well-site waiting time goes only with status OFF' });
    const res = await t.app.inject({ method: 'POST', url, headers, payload: { status: 'OFF', special: 'WAITING', ...place } });
    expect(res.statusCode, res.body).toBe(201);
    expect(hosEventDetailSchema.parse(res.json())).toMatchObject({ status: 'OFF' });
    const after = hosDriverStatusSchema.parse((await t.app.inject({ method: 'GET', url: statusUrl, headers })).json());
    expect(after.clocks).toMatchObject({ status: 'OFF', special: 'WAITING' });
    expect(after.engine.options.exemptions).toMatchObject({ oilfield: true });
  });
});

/** The driver's own fields, to send back unchanged on an edit. */
function pick(d: ReturnType<typeof driverSchema.parse>) {
  return {
    firstName: d.firstName,
    lastName: d.lastName,
    licenseNumber: d.licenseNumber,
    licenseState: d.licenseState,
    homeTimeZone: d.homeTimeZone,
    ruleset: d.ruleset,
  };
}
