import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, clocksAt, type DutyPeriod, type DutyStatus, type HosOptions, type RulesetId } from '@fleet/hos';
import {
  availabilityPageSchema,
  hosDeclarationListSchema,
  hosDeclarationSchema,
  hosDriverStatusSchema,
  hosImportResultSchema,
  hosLogDaySchema,
  roadsideCaSchema,
  violationPageSchema,
} from '@fleet/api-contract';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { activityRows, driverBody, registryActors, userWithPermissions } from '../../test/registry.ts';

// Issue 72 through HTTP: what a driver declares on their log changes the rules it is judged by
// (decisions 0314, 0315). A Canadian driver's switch from cycle 1 to cycle 2 (SOR/2005-313 s. 29)
// and adverse driving conditions (49 CFR 395.1(b)(1); SOR/2005-313 s. 76(2)), declared by the office or the driver,
// reach the violations, the day findings, the availability and the driver's own engine input.

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
type Part = [DutyStatus, number];
const org = (rest: string) => `/api/v1/organizations/${a.orgId}${rest}`;
type Headers = Record<string, string>;

/** Consecutive [status, hours] parts from a Chicago wall time in November 2026 (CST, UTC-6). */
function cst(startLocal: string, ...parts: Part[]): DutyPeriod[] {
  let ms = Date.parse(`${startLocal}:00-06:00`);
  return parts.map(([status, hours]) => ({ status, start: new Date(ms).toISOString(), end: new Date((ms += Math.round(hours * H))).toISOString() }));
}
const repeat = (n: number, parts: Part[]): Part[] => Array.from({ length: n }, () => parts).flat();
const day13: Part[] = [
  ['ON', 3],
  ['D', 10],
  ['OFF', 11],
];
const opts = (ruleset: RulesetId): HosOptions => ({
  ruleset,
  timeZone: 'America/Chicago',
  cycleDayStart: '00:00',
  exemptions: { shortHaul150: false, sixteenHour: false },
});
const brief = (vs: Array<{ rule: string; start: string; end: string; severity: string }>) => vs.map((v) => [v.rule, v.start, v.end, v.severity]);

async function newDriver(over: Record<string, unknown> = {}): Promise<{ id: string; lastName: string }> {
  const res = await t.app.inject({ method: 'POST', url: org('/drivers'), headers: a.admin, payload: driverBody({ homeTimeZone: 'America/Chicago', ...over }) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function withPeriods(driverId: string, periods: DutyPeriod[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: org(`/drivers/${driverId}/hos_log/import`),
    headers: a.admin,
    payload: { source: 'Acme ELD', periods },
  });
  expect(res.statusCode, res.body).toBe(201);
  return hosImportResultSchema.parse(res.json()).logs;
}
const declare = (driverId: string, payload: object, headers: Headers = a.admin) =>
  t.app.inject({ method: 'POST', url: org(`/drivers/${driverId}/hos_declarations`), headers, payload });
const withdraw = (driverId: string, id: string, payload: object, headers: Headers = a.admin) =>
  t.app.inject({ method: 'DELETE', url: org(`/drivers/${driverId}/hos_declarations/${id}`), headers, payload });

async function violationsOf(driverId: string, periods: DutyPeriod[]) {
  const res = await t.app.inject({
    method: 'GET',
    url: org(`/violations?driverId=${driverId}&from=${periods[0]!.start}&to=${periods.at(-1)!.end}&size=500`),
    headers: a.admin,
  });
  expect(res.statusCode, res.body).toBe(200);
  const rows = violationPageSchema.parse(res.json()).content;
  return {
    violations: brief(rows.filter((v) => v.shortMs === null).sort((x, y) => Date.parse(x.start) - Date.parse(y.start))),
    dayFindings: rows
      .filter((v) => v.shortMs !== null)
      .map((v) => ({ rule: v.rule, day: v.logDate, shortMs: v.shortMs }))
      .reverse(),
  };
}

describe('cycle switches (s. 29)', () => {
  it('a switch to cycle 2 after 36 h off is stored, listed and audited: the violations are the engine’s with the switch', async () => {
    // Ten 13-hour days after 36 h off, a 24-h rest after the fifth: 130 h in 11 days.
    const periods = cst('2026-11-02T06:00', ['ON', 3], ['D', 10], ['OFF', 36], ...repeat(5, day13), ['OFF', 24], ...repeat(5, day13));
    const at = periods[2]!.end;
    const d = await newDriver({ ruleset: 'CA_SOUTH_CYCLE_1' });
    await withPeriods(d.id, periods);
    const C1 = opts('CA_SOUTH_CYCLE_1');
    const stay = await violationsOf(d.id, periods);
    expect(stay.violations).toEqual(brief(auditLog(periods, C1).violations));
    expect(stay.violations.map((v) => v[0])).toContain('CYCLE_LIMIT');

    const res = await declare(d.id, { kind: 'CYCLE_SWITCH', at, cycle: 2, annotation: 'Long haul to Halifax' });
    expect(res.statusCode, res.body).toBe(201);
    const made = hosDeclarationSchema.parse(res.json());
    expect(made).toMatchObject({ kind: 'CYCLE_SWITCH', at, cycle: 2, until: null, annotation: 'Long haul to Halifax' });

    const switched = auditLog(periods, { ...C1, cycleSwitches: [{ at, to: 2 }] });
    const after = await violationsOf(d.id, periods);
    expect(after.violations).toEqual(brief(switched.violations));
    expect(after.violations).not.toEqual(stay.violations);
    expect(after.dayFindings).toEqual([]);
    // The clocks of the availability follow the switched cycle.
    const end = periods.at(-1)!.end;
    const av = availabilityPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/availability?at=${end}&search=${d.lastName}`), headers: a.admin })).json(),
    ).content[0]!;
    expect(av.strict).toEqual(clocksAt(periods, end, { ...C1, cycleSwitches: [{ at, to: 2 }] }).strict);
    expect(av.strict).not.toEqual(clocksAt(periods, end, C1).strict);

    // The Canadian roadside view names the cycle in force at each day's end.
    const roadside = await t.app.inject({ method: 'GET', url: org(`/drivers/${d.id}/hos_log/roadside-ca?date=2026-11-14`), headers: a.admin });
    expect(roadside.statusCode, roadside.body).toBe(200);
    const cycles = new Map(roadsideCaSchema.parse(roadside.json()).days.map((x) => [x.date, x.cycle.ruleset]));
    expect([cycles.get('2026-11-03'), cycles.get('2026-11-14')]).toEqual(['CA_SOUTH_CYCLE_1', 'CA_SOUTH_CYCLE_2']);

    const listed = await t.app.inject({
      method: 'GET',
      url: org(`/drivers/${d.id}/hos_declarations?from=${periods[0]!.start}&to=${periods[3]!.end}`),
      headers: a.admin,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(hosDeclarationListSchema.parse(listed.json()).items).toEqual([made]);
    expect((await activityRows(t.database.db, d.id)).map((r) => r.action)).toContain('DECLARE_HOS');

    // Withdrawn: the log is judged on cycle 1 again, and the list no longer holds it.
    const gone = await withdraw(d.id, made.id, { annotation: 'Stayed on cycle 1' });
    expect(gone.statusCode, gone.body).toBe(204);
    expect((await violationsOf(d.id, periods)).violations).toEqual(stay.violations);
    const relisted = await t.app.inject({
      method: 'GET',
      url: org(`/drivers/${d.id}/hos_declarations?from=${periods[0]!.start}&to=${periods[3]!.end}`),
      headers: a.admin,
    });
    expect(hosDeclarationListSchema.parse(relisted.json()).items).toEqual([]);
    expect((await withdraw(d.id, made.id, { annotation: 'Again and again' })).statusCode).toBe(404);
  });

  it('a switch after too little rest is a CYCLE_SWITCH finding of its log day, short by the rest missing', async () => {
    const periods = cst('2026-11-02T06:00', ['ON', 3], ['D', 10], ['OFF', 35], ...repeat(2, day13));
    const d = await newDriver({ ruleset: 'CA_SOUTH_CYCLE_1' });
    const logs = await withPeriods(d.id, periods);
    const day = async () => {
      const res = await t.app.inject({ method: 'GET', url: org(`/hos_log/${logs.find((l) => l.date === '2026-11-04')!.id}`), headers: a.admin });
      expect(res.statusCode, res.body).toBe(200);
      return hosLogDaySchema.parse(res.json()).dayFindings;
    };
    expect(await day()).toEqual([]);
    expect((await declare(d.id, { kind: 'CYCLE_SWITCH', at: periods[2]!.end, cycle: 2, annotation: 'Switching early' })).statusCode).toBe(201);
    expect(await day()).toEqual([{ rule: 'CYCLE_SWITCH', day: '2026-11-04', shortMs: H }]);
  });

  it('the driver declares their own switch; the phone’s engine input carries it', async () => {
    const headers = await userWithPermissions(t, a.orgId, ['HOS_SELF_READ', 'HOS_SELF_WRITE']);
    const userId = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers })).json().id as string;
    const d = await newDriver({ ruleset: 'CA_SOUTH_CYCLE_1', userId });
    const at = new Date(Date.now() - 2 * H).toISOString();
    const own = await t.app.inject({
      method: 'POST',
      url: org(`/users/${userId}/hos_declarations`),
      headers,
      payload: { kind: 'CYCLE_SWITCH', at, cycle: 2, annotation: 'Going north for two weeks' },
    });
    expect(own.statusCode, own.body).toBe(201);
    const status = await t.app.inject({ method: 'GET', url: org(`/users/${userId}/hos_log/driver-status`), headers });
    expect(status.statusCode, status.body).toBe(200);
    expect(hosDriverStatusSchema.parse(status.json()).engine.options.cycleSwitches).toEqual([{ at: Date.parse(at), to: 2 }]);
    // Another driver's declarations are not theirs to read or write.
    const other = await newDriver({ ruleset: 'CA_SOUTH_CYCLE_1' });
    expect((await declare(other.id, { kind: 'CYCLE_SWITCH', at, cycle: 1, annotation: 'Not mine at all' }, headers)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: org(`/drivers/${d.id}/hos_declarations`), headers })).statusCode).toBe(403);
  });

  it('refuses bad input with the field named and changes nothing', async () => {
    const us = await newDriver({ ruleset: 'US_PROPERTY_70_8' });
    const ca = await newDriver({ ruleset: 'CA_SOUTH_CYCLE_1' });
    const at = '2026-11-10T12:00:00.000Z';
    expectFieldErrors((await declare(us.id, { kind: 'CYCLE_SWITCH', at, cycle: 2, annotation: 'Long haul' })).json(), 400, {
      kind: 'Cycle switches are for drivers on Canadian rules; this driver is on US property, 70 h / 8 days',
    });
    expectFieldErrors((await declare(us.id, { kind: 'EMERGENCY', at, until: '2026-11-10T13:00:00.000Z', annotation: 'Road closed' })).json(), 400, {
      kind: 'Emergencies are for drivers on Canadian rules',
    });
    expectFieldErrors((await declare(ca.id, { kind: 'CYCLE_SWITCH', at, annotation: 'Long haul' })).json(), 400, {
      cycle: 'Cycle is a required field for a cycle switch',
    });
    expectFieldErrors((await declare(ca.id, { kind: 'CYCLE_SWITCH', at, cycle: 3, annotation: 'Long haul' })).json(), 400, { cycle: 'Cycle must be 1 or 2' });
    expectFieldErrors((await declare(ca.id, { kind: 'CYCLE_SWITCH', at, cycle: 2, annotation: 'no' })).json(), 400, {
      annotation: 'Annotation must be at least 4 characters',
    });
    expectFieldErrors((await declare(ca.id, { kind: 'CYCLE_SWITCH', at, cycle: 2 })).json(), 400, { annotation: 'Annotation is a required field' });
    expectFieldErrors((await declare(ca.id, { kind: 'EMERGENCY', at, annotation: 'Road closed' })).json(), 400, {
      until: 'Until is a required field for an emergency',
    });
    expectFieldErrors((await declare(ca.id, { kind: 'EMERGENCY', at, until: at, annotation: 'Road closed' })).json(), 400, { until: 'Until must be after At' });
    expectFieldErrors(
      (await declare(ca.id, { kind: 'CYCLE_SWITCH', at: new Date(Date.now() + 2 * H).toISOString(), cycle: 2, annotation: 'Long haul' })).json(),
      400,
      {
        at: 'At cannot be in the future',
      },
    );
    expect((await declare(ca.id, { kind: 'CYCLE_SWITCH', at, cycle: 2, annotation: 'Long haul' })).statusCode).toBe(201);
    expectFieldErrors((await declare(ca.id, { kind: 'CYCLE_SWITCH', at, cycle: 2, annotation: 'Long haul' })).json(), 400, {
      at: 'The same declaration is already on the log at that time',
    });
    expectErrorBody((await declare('00000000-0000-4000-8000-000000000000', { kind: 'CYCLE_SWITCH', at, cycle: 2, annotation: 'Long haul' })).json(), 404);
    const listed = await t.app.inject({
      method: 'GET',
      url: org(`/drivers/${us.id}/hos_declarations?from=2026-11-01T00:00:00Z&to=2026-11-20T00:00:00Z`),
      headers: a.admin,
    });
    expect(hosDeclarationListSchema.parse(listed.json()).items).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: org(`/drivers/${ca.id}/hos_declarations`) })).statusCode).toBe(401);
  });
});

describe('adverse driving conditions and emergencies (decision 0315)', () => {
  it('US, §395.1(b)(1): a claim gives that shift 2 h more driving; withdrawn, the violation is back', async () => {
    const periods = cst('2026-11-05T06:00', ['ON', 1], ['D', 6], ['OFF', 0.5], ['D', 6.5], ['OFF', 10]);
    const d = await newDriver({ ruleset: 'US_PROPERTY_70_8' });
    await withPeriods(d.id, periods);
    const plain = await violationsOf(d.id, periods);
    expect(plain.violations.map((v) => v[0])).toEqual(['DRIVING_LIMIT']);
    const res = await declare(d.id, { kind: 'ADVERSE_DRIVING', at: periods[3]!.start, annotation: 'Freezing rain on I-80' });
    expect(res.statusCode, res.body).toBe(201);
    const claim = hosDeclarationSchema.parse(res.json());
    expect((await violationsOf(d.id, periods)).violations).toEqual([]);
    expect((await withdraw(d.id, claim.id, { annotation: 'Roads were clear' })).statusCode).toBe(204);
    expect((await violationsOf(d.id, periods)).violations).toEqual(plain.violations);
  });

  it('Canada, s. 76(1): driving inside the emergency is no violation; after safety it is', async () => {
    // 16 h of driving overnight: the shift's 13 h driving and 14 h on duty are passed at 05:00 and 06:00.
    const periods = cst('2026-11-05T16:00', ['D', 16], ['OFF', 10]);
    const d = await newDriver({ ruleset: 'CA_SOUTH_CYCLE_1' });
    await withPeriods(d.id, periods);
    const C1 = opts('CA_SOUTH_CYCLE_1');
    expect((await violationsOf(d.id, periods)).violations).toEqual(brief(auditLog(periods, C1).violations));
    const from = new Date(Date.parse(periods[0]!.start) + 12 * H).toISOString();
    const until = new Date(Date.parse(periods[0]!.start) + 15 * H).toISOString();
    const res = await declare(d.id, { kind: 'EMERGENCY', at: from, until, annotation: 'Wildfire, road closed behind' });
    expect(res.statusCode, res.body).toBe(201);
    expect(hosDeclarationSchema.parse(res.json())).toMatchObject({ kind: 'EMERGENCY', at: from, until, cycle: null });
    const after = (await violationsOf(d.id, periods)).violations;
    expect(after).toEqual(brief(auditLog(periods, { ...C1, emergencies: [{ start: from, end: until }] }).violations));
    expect(after.map((v) => [v[0], v[1], v[2]])).toEqual([
      ['DRIVING_LIMIT', until, periods[0]!.end],
      ['ON_DUTY_LIMIT', until, periods[0]!.end],
    ]);
  });
});

describe('personal conveyance in Canada: 75 km a day (decision 0319)', () => {
  /** The odometer each event of the driver recorded at `at` (what the ELD wrote; the import has none). */
  const odometerAt = async (driverId: string, at: string, km: number) => {
    await t.database.db.execute(`update hos_events set odometer_m = ${km * 1000} where driver_id = '${driverId}' and event_time = '${at}'` as never);
  };

  it('PC beyond 75 km in a day is driving for the audit, and the log day shows the distance', async () => {
    // 13 h of driving, then 2 h of PC over 150 km: the second hour is driving past the 13 h (s. 2(1)(e)(iii)).
    const periods: DutyPeriod[] = cst('2026-11-09T06:00', ['D', 13], ['OFF', 2], ['OFF', 9]);
    periods[1] = { ...periods[1]!, special: 'PC' };
    const ca = await newDriver({ ruleset: 'CA_SOUTH_CYCLE_1' });
    const us = await newDriver({ ruleset: 'US_PROPERTY_70_8' });
    const caLogs = await withPeriods(ca.id, periods);
    const usLogs = await withPeriods(us.id, periods);
    expect((await violationsOf(ca.id, periods)).violations).toEqual([]);
    for (const d of [ca, us]) {
      await odometerAt(d.id, periods[1]!.start, 1000);
      await odometerAt(d.id, periods[2]!.start, 1150);
    }
    const C1 = opts('CA_SOUTH_CYCLE_1');
    const driving = [...periods.slice(0, 1), { ...periods[1]!, end: new Date(Date.parse(periods[1]!.start) + H).toISOString() }];
    driving.push({ status: 'D', start: driving[1]!.end, end: periods[1]!.end }, periods[2]!);
    const after = (await violationsOf(ca.id, periods)).violations;
    expect(after).toEqual(brief(auditLog(driving, C1).violations));
    expect(after.map((v) => [v[0], v[1], v[2]])).toContainEqual(['DRIVING_LIMIT', driving[2]!.start, driving[2]!.end]);
    const day = async (logs: Array<{ id: string; date: string }>) =>
      hosLogDaySchema.parse(
        (await t.app.inject({ method: 'GET', url: org(`/hos_log/${logs.find((l) => l.date === '2026-11-09')!.id}`), headers: a.admin })).json(),
      ).personalConveyance;
    expect(await day(caLogs)).toEqual({ km: 150, overKm: 75, limitKm: 75 });
    // The clocks count it too: the hours left at the PC's end are the engine's with that hour driven.
    const at = periods[2]!.start;
    const av = availabilityPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/availability?at=${at}&search=${ca.lastName}`), headers: a.admin })).json(),
    ).content[0]!;
    expect(av.strict).toEqual(clocksAt(driving, at, C1).strict);
    expect(av.strict).not.toEqual(clocksAt(periods, at, C1).strict);
    // US rules: the distance is shown, nothing is driving.
    expect(await day(usLogs)).toEqual({ km: 150, overKm: 0, limitKm: null });
    expect((await violationsOf(us.id, periods)).violations).toEqual(brief(auditLog(periods, opts('US_PROPERTY_70_8')).violations));
  });
});
