import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, clocksAt, type DutyPeriod, type DutyStatus, type HosOptions, type RulesetId, type Special } from '@fleet/hos';
import { parseEldFile } from '@fleet/eld';
import { availabilityPageSchema, hosImportResultSchema, hosLogDaySchema, violationPageSchema } from '@fleet/api-contract';
import { createTestApp, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { driverBody, registryActors } from '../../test/registry.ts';

// US passenger carriers (49 CFR 395.5: 10 h driving and 15 h on duty after 8 h off) and a team
// driver's passenger-seat time (395.1(g)(1)) judged through the API exactly as the engine judges
// the same periods: imported, then read back as violations, availability and log days.

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
type Part = [DutyStatus | 'OFF:PC' | 'ON:YM' | 'OFF:PASSENGER', number];

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
const opts = (ruleset: RulesetId): HosOptions => ({ ruleset, timeZone: 'America/Chicago', cycleDayStart: '00:00' });
const brief = (vs: Array<{ rule: string; start: string; end: string }>) =>
  vs.map((v) => [v.rule, v.start, v.end]).sort((x, y) => (x[1]! < y[1]! ? -1 : x[1]! > y[1]! ? 1 : x[0]! < y[0]! ? -1 : 1));

async function driverWith(ruleset: RulesetId) {
  const res = await t.app.inject({ method: 'POST', url: org('/drivers'), headers: a.admin, payload: driverBody({ homeTimeZone: 'America/Chicago', ruleset }) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; lastName: string };
}

async function imported(ruleset: RulesetId, periods: DutyPeriod[]) {
  const d = await driverWith(ruleset);
  const res = await t.app.inject({ method: 'POST', url: org(`/drivers/${d.id}/hos_log/import`), headers: a.admin, payload: { source: 'Bus ELD', periods } });
  expect(res.statusCode, res.body).toBe(201);
  return { d, result: hosImportResultSchema.parse(res.json()) };
}

/** The violations the API lists for the driver over whole log days around the periods (the day screens' range). */
async function apiViolations(driverId: string, from: string, to: string) {
  const res = await t.app.inject({ method: 'GET', url: org(`/violations?driverId=${driverId}&from=${from}&to=${to}&size=500`), headers: a.admin });
  expect(res.statusCode, res.body).toBe(200);
  return violationPageSchema.parse(res.json()).content;
}

async function dayViolations(logIds: string[]) {
  const out: Array<{ rule: string; start: string; end: string }> = [];
  for (const id of logIds) {
    const res = await t.app.inject({ method: 'GET', url: org(`/hos_log/${id}`), headers: a.admin });
    expect(res.statusCode, res.body).toBe(200);
    for (const v of hosLogDaySchema.parse(res.json()).violations) if (!out.some((o) => o.rule === v.rule && o.start === v.start)) out.push(v);
  }
  return out;
}

// The days' screens ask for whole Chicago days: 2026-06-01 00:00 to 2026-06-03 00:00 CDT.
const DAYS_FROM = '2026-06-01T05:00:00Z';
const DAYS_TO = '2026-06-03T05:00:00Z';

describe('US passenger rules through the API', () => {
  const cases: Array<[string, RulesetId, DutyPeriod[]]> = [
    ['exactly 10 h of driving and 15 h on duty, the day ending at the wheel', 'US_PASSENGER_70_8', log('2026-06-01T06:00', ['OFF', 8], ['ON', 5], ['D', 10])],
    ['exactly 10 h of driving and 15 h on duty, then off duty', 'US_PASSENGER_60_7', log('2026-06-01T06:00', ['OFF', 8], ['ON', 5], ['D', 10], ['OFF', 8])],
    [
      'exactly at the limits with an off-duty break in between',
      'US_PASSENGER_70_8',
      log('2026-06-01T06:00', ['OFF', 8], ['ON', 2], ['D', 5], ['OFF', 3], ['ON', 3], ['D', 5]),
    ],
    ['16 h on duty: one hour of driving past the 15th hour', 'US_PASSENGER_70_8', log('2026-06-01T06:00', ['OFF', 8], ['ON', 6], ['D', 10])],
    ['10.5 h of driving', 'US_PASSENGER_60_7', log('2026-06-01T06:00', ['OFF', 8], ['ON', 1], ['D', 10.5])],
    ['15 h on duty reached after a 4-hour break', 'US_PASSENGER_70_8', log('2026-06-01T06:00', ['OFF', 8], ['ON', 5], ['OFF', 4], ['ON', 5], ['D', 6])],
  ];

  it.each(cases)('%s (%s): the engine’s violations, with its extent, in the list and on the log days', async (_name, ruleset, periods) => {
    const { d, result } = await imported(ruleset, periods);
    const expected = brief(auditLog(periods, opts(ruleset)).violations);
    expect(brief(await apiViolations(d.id, DAYS_FROM, DAYS_TO))).toEqual(expected);
    expect(brief(await dayViolations(result.logs.map((l) => l.id)))).toEqual(expected);
    if (_name.startsWith('exactly')) expect(expected).toEqual([]);
  });

  it('availability after the imported periods matches the engine (time after them is off duty, not the last status running on)', async () => {
    const periods = log('2026-06-01T06:00', ['OFF', 8], ['ON', 5], ['D', 9]);
    const { d } = await imported('US_PASSENGER_70_8', periods);
    for (const at of ['2026-06-02T09:00:00.000Z', '2026-06-02T11:00:00.000Z', '2026-06-02T20:00:00.000Z']) {
      const res = await t.app.inject({ method: 'GET', url: org(`/availability?at=${at}&search=${d.lastName}`), headers: a.admin });
      const row = availabilityPageSchema.parse(res.json()).content.find((r) => r.driver.id === d.id)!;
      expect({ strict: row.strict, provisional: row.provisional, cycleUsedMs: row.cycleUsedMs }, at).toEqual(clocksAt(periods, at, opts('US_PASSENGER_70_8')));
    }
  });

  it('a later import continues where the earlier one ended', async () => {
    const first = log('2026-06-01T06:00', ['OFF', 8], ['ON', 5], ['D', 4]);
    const { d } = await imported('US_PASSENGER_70_8', first);
    const rest = log('2026-06-01T23:00', ['D', 6], ['OFF', 8]);
    const again = await t.app.inject({
      method: 'POST',
      url: org(`/drivers/${d.id}/hos_log/import`),
      headers: a.admin,
      payload: { source: 'Bus ELD', periods: rest },
    });
    expect(again.statusCode, again.body).toBe(201);
    const all = [...first, ...rest];
    expect(brief(await apiViolations(d.id, DAYS_FROM, DAYS_TO))).toEqual(brief(auditLog(all, opts('US_PASSENGER_70_8')).violations));
    // Nothing may start inside the imported periods.
    const inside = await t.app.inject({
      method: 'POST',
      url: org(`/drivers/${d.id}/hos_log/import`),
      headers: a.admin,
      payload: { source: 'Bus ELD', periods: log('2026-06-01T22:00', ['D', 1]) },
    });
    expect(inside.statusCode).toBe(400);
  });
});

describe("a team driver's passenger-seat time (49 CFR 395.1(g)(1))", () => {
  // 10 h at the wheel, 7 h in the berth, then 3 h in the passenger seat while the co-driver drives:
  // the equivalent of 10 h off (P7(D)), so the driver may take the wheel for a new shift.
  const team = log('2026-06-01T06:00', ['OFF', 10], ['ON', 1], ['D', 5], ['ON', 0.5], ['D', 5], ['SB', 7], ['OFF:PASSENGER', 3], ['D', 6], ['OFF', 10]);

  it('is imported as PASSENGER and read back as it was logged, with the engine’s violations (none here)', async () => {
    const { d, result } = await imported('US_PROPERTY_70_8', team);
    expect(brief(auditLog(team, opts('US_PROPERTY_70_8')).violations)).toEqual([]);
    // Without the category the passenger-seat time is on duty (49 CFR 395.2) and the next shift drives past the limits.
    const onDuty = team.map((p): DutyPeriod => (p.special === 'PASSENGER' ? { status: 'ON', start: p.start, end: p.end } : p));
    expect(auditLog(onDuty, opts('US_PROPERTY_70_8')).violations.length).toBeGreaterThan(0);
    expect(await apiViolations(d.id, DAYS_FROM, DAYS_TO)).toEqual([]);
    const days = await Promise.all(
      result.logs.map(async (l) => hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${l.id}`), headers: a.admin })).json())),
    );
    const seat = days.flatMap((day) => day.segments).filter((s) => s.special === 'PASSENGER');
    expect(seat.length).toBeGreaterThan(0);
    expect(seat.every((s) => s.status === 'OFF')).toBe(true);
    expect(days.flatMap((day) => day.events).filter((e) => e.special === 'PASSENGER')).toHaveLength(1);
    const mid = new Date(Date.parse(team[6]!.start) + H).toISOString();
    const av = availabilityPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/availability?at=${mid}&search=${d.lastName}`), headers: a.admin })).json(),
    );
    expect(av.content.find((r) => r.driver.id === d.id)).toMatchObject({ status: 'OFF', special: 'PASSENGER' });
  });

  it('is refused with any status but OFF, naming the period', async () => {
    const d = await driverWith('US_PROPERTY_70_8');
    const bad = log('2026-06-01T06:00', ['OFF', 10], ['ON', 1]).map((p, i) => (i === 1 ? { ...p, special: 'PASSENGER' as const } : p));
    const res = await t.app.inject({
      method: 'POST',
      url: org(`/drivers/${d.id}/hos_log/import`),
      headers: a.admin,
      payload: { source: 'Team ELD', periods: bad },
    });
    expectFieldErrors(res.json(), 400, { 'periods.1.special': 'Period 1: special "PASSENGER" is not allowed with status ON' });
    const unknown = await t.app.inject({
      method: 'POST',
      url: org(`/drivers/${d.id}/hos_log/import`),
      headers: a.admin,
      payload: { source: 'Team ELD', periods: [{ ...bad[0]!, special: 'CO_DRIVER' }] },
    });
    expectFieldErrors(unknown.json(), 400, { 'periods.0.special': 'Special category must be PC, YM, PASSENGER or WAITING' });
  });

  it('is entered by the office as an OFF status with the PASSENGER category, and the ELD file shows it as OFF', async () => {
    const { d } = await imported('US_PROPERTY_70_8', log('2026-06-01T06:00', ['OFF', 10], ['ON', 1], ['D', 10], ['SB', 7]));
    const period = (
      await t.app.inject({ method: 'GET', url: org(`/drivers/${d.id}/hos_log/hos-logs-for-period?from=2026-06-02&to=2026-06-02`), headers: a.admin })
    ).json() as { days: Array<{ id: string }> };
    const logId = period.days[0]!.id;
    const at = '2026-06-02T12:00:00.000Z';
    const url = org(`/drivers/${d.id}/hos_log/${logId}/hos_event`);
    const wrong = await t.app.inject({
      method: 'POST',
      url,
      headers: a.admin,
      payload: { status: 'ON', special: 'PASSENGER', at, annotation: 'Rode as co-driver' },
    });
    expectFieldErrors(wrong.json(), 400, { special: 'Passenger-seat time goes only with status OFF' });
    const ok = await t.app.inject({
      method: 'POST',
      url,
      headers: a.admin,
      payload: { status: 'OFF', special: 'PASSENGER', at, annotation: 'Rode as co-driver' },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ status: 'OFF' });
    const file = await t.app.inject({ method: 'GET', url: org(`/drivers/${d.id}/hos_log/eld-output?from=2026-06-01&to=2026-06-02`), headers: a.admin });
    expect(file.statusCode, file.body).toBe(200);
    const parsed = parseEldFile(file.body, { verifyEventCheckValues: false });
    // The proposed OFF status is in the file; no event of a code the ELD does not know (type 3 has 0, 1 and 2 only).
    expect(parsed.events.some((e) => e.type === 1 && e.code === 1 && e.recordStatus === 3)).toBe(true);
    expect(parsed.events.filter((e) => e.type === 3 && e.code > 2)).toEqual([]);
  });
});
