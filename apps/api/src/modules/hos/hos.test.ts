import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, clocksAt, dailyTotals, type DutyPeriod, type DutyStatus, type HosOptions, type RulesetId } from '@fleet/hos';
import {
  availabilityPageSchema,
  hosEventDetailSchema,
  hosImportResultSchema,
  hosLogDaySchema,
  hosLogPageSchema,
  hosPeriodSchema,
  violationPageSchema,
} from '@fleet/api-contract';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { inPersonalConveyance, PC_PROBES_PER_STATEMENT } from './engine-events/engine-events.repository.ts';
import { activityRows, driverBody, registryActors, trailerBody, userWithPermissions, vehicleBody } from '../../test/registry.ts';

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
type Part = [DutyStatus | 'OFF:PC' | 'ON:YM', number];

/** Consecutive [status, hours] parts from a Chicago wall time in June 2026 (CDT, UTC-5), as the engine's own tests write them. */
function log(startLocal: string, ...parts: Part[]): DutyPeriod[] {
  let ms = Date.parse(`${startLocal}:00-05:00`);
  return parts.map(([what, hours]) => {
    const [status, special] = what.split(':') as [DutyStatus, 'PC' | 'YM' | undefined];
    const p: DutyPeriod = { status, start: new Date(ms).toISOString(), end: new Date((ms += Math.round(hours * H))).toISOString() };
    if (special) p.special = special;
    return p;
  });
}
const repeat = (n: number, parts: Part[]): Part[] => Array.from({ length: n }, () => parts).flat();
const shift1: Part[] = [
  ['ON', 1],
  ['D', 8],
  ['OFF', 0.5],
  ['D', 3],
  ['ON', 1.5],
];

// Inputs of the engine's own tests (packages/hos/test/us-property.test.ts, other-rulesets.test.ts).
const SCENARIOS: Array<[string, RulesetId, DutyPeriod[]]> = [
  ['14-hour example, compliant', 'US_PROPERTY_70_8', log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['OFF', 4], ['D', 5], ['OFF', 10])],
  ['driving 15 minutes past the 14th hour', 'US_PROPERTY_70_8', log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['OFF', 4], ['D', 5.25], ['OFF', 10])],
  ['11-hour example past the limit', 'US_PROPERTY_70_8', log('2026-06-01T06:00', ['ON', 1], ['D', 7], ['OFF', 0.5], ['D', 4.5], ['OFF', 10])],
  ['Ex4: 12 h of driving by 15:00', 'US_PROPERTY_70_8', log('2026-06-01T00:00', ['ON', 1], ['D', 4], ['OFF', 1], ['D', 4], ['OFF', 1], ['D', 4], ['OFF', 10])],
  [
    'Ex2: shift ending at the 14th hour after OFF+SB',
    'US_PROPERTY_70_8',
    log(
      '2026-06-01T00:00',
      ['OFF', 10],
      ['ON', 1],
      ['D', 5],
      ['OFF', 1],
      ['D', 5],
      ['OFF', 1],
      ['SB', 8],
      ['OFF', 1],
      ['ON', 1],
      ['D', 4],
      ['OFF', 1],
      ['D', 4],
      ['ON', 2],
      ['D', 2],
      ['OFF', 10],
    ),
  ],
  ['egregious driving', 'US_PROPERTY_70_8', log('2026-06-01T06:00', ['D', 8], ['OFF', 1], ['D', 7.5], ['OFF', 10])],
  ['9.5 h off is not a restart', 'US_PROPERTY_70_8', log('2026-06-01T06:00', ...shift1, ['OFF', 9.5], ['D', 1], ['OFF', 10])],
  ['10 h sleeper berth restarts', 'US_PROPERTY_70_8', log('2026-06-01T06:00', ...shift1, ['SB', 10], ['D', 1], ['OFF', 10])],
  ['OFF+SB+OFF restarts', 'US_PROPERTY_70_8', log('2026-06-01T06:00', ...shift1, ['OFF', 3], ['SB', 6], ['OFF', 1], ['D', 1], ['OFF', 10])],
  ['personal conveyance is off duty', 'US_PROPERTY_70_8', log('2026-06-01T06:00', ...shift1, ['OFF', 6], ['OFF:PC', 1], ['OFF', 3], ['D', 7], ['OFF', 10])],
  ['yard moves are on duty', 'US_PROPERTY_70_8', log('2026-06-01T06:00', ['ON:YM', 10], ['D', 5], ['OFF', 10])],
  ['yard moves are a break from driving', 'US_PROPERTY_70_8', log('2026-06-01T06:00', ['D', 8], ['ON:YM', 0.5], ['D', 1], ['OFF', 10])],
  [
    '60-hour week with a 34-hour restart',
    'US_PROPERTY_60_7',
    log(
      '2026-06-01T06:00',
      ...repeat(4, [
        ['ON', 4],
        ['D', 8],
        ['OFF', 12],
      ]),
      ['ON', 4],
      ['D', 8],
      ['OFF', 34],
      ['D', 1],
      ['OFF', 8],
    ),
  ],
  ['bus: 10.5 h of driving', 'US_PASSENGER_70_8', log('2026-06-01T06:00', ['ON', 1], ['D', 10.5], ['OFF', 8])],
  ['bus: 15 h of on-duty time', 'US_PASSENGER_70_8', log('2026-06-01T06:00', ['ON', 5], ['OFF', 4], ['ON', 5], ['D', 6], ['OFF', 8])],
  [
    'bus: OFF is not a sleeper period',
    'US_PASSENGER_70_8',
    log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 4], ['D', 4], ['OFF', 4], ['D', 3], ['OFF', 8]),
  ],
  [
    'bus: no 34-hour restart',
    'US_PASSENGER_60_7',
    log(
      '2026-06-01T06:00',
      ...repeat(4, [
        ['ON', 4],
        ['D', 8],
        ['OFF', 12],
      ]),
      ['ON', 4],
      ['D', 8],
      ['OFF', 34],
      ['D', 1],
      ['OFF', 8],
    ),
  ],
  ['Canada: 14 h of driving', 'CA_SOUTH_CYCLE_1', log('2026-06-01T06:00', ['ON', 1], ['D', 7], ['OFF', 1], ['D', 7], ['OFF', 10])],
  ['Canada: 8 h off is not a shift reset', 'CA_SOUTH_CYCLE_1', log('2026-06-01T00:00', ['D', 7], ['OFF', 8], ['D', 7], ['OFF', 10])],
  ['Canada: the day limits', 'CA_SOUTH_CYCLE_1', log('2026-06-01T00:00', ['D', 6], ['OFF', 8], ['ON', 2], ['D', 7], ['OFF', 13])],
  [
    'Canada cycle 1: six 12-hour days',
    'CA_SOUTH_CYCLE_1',
    log(
      '2026-06-01T06:00',
      ...repeat(6, [
        ['D', 12],
        ['OFF', 12],
      ]),
    ),
  ],
  [
    'Canada cycle 2: 13-hour days',
    'CA_SOUTH_CYCLE_2',
    log(
      '2026-06-01T06:00',
      ...repeat(5, [
        ['D', 13],
        ['OFF', 11],
      ]),
      ['D', 5],
      ['OFF', 30],
      ['D', 1],
      ['OFF', 10],
    ),
  ],
  ['Canada: sleeper split', 'CA_SOUTH_CYCLE_1', log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['SB', 7], ['D', 5], ['OFF', 3], ['D', 3], ['OFF', 10])],
  ['Canada north of 60: 15.5 h of driving', 'CA_NORTH_CYCLE_1', log('2026-06-01T06:00', ['ON', 1], ['D', 15.5], ['OFF', 8])],
  [
    'Canada north of 60 cycle 2: 80 h without 24 h off',
    'CA_NORTH_CYCLE_2',
    log(
      '2026-06-01T06:00',
      ...repeat(7, [
        ['ON', 2],
        ['D', 10],
        ['OFF', 12],
      ]),
    ),
  ],
  ['Texas: 12.5 h of driving', 'TX_INTRASTATE', log('2026-06-01T06:00', ['ON', 1], ['D', 12.5], ['OFF', 8])],
  [
    'Texas: a week of 14-hour days',
    'TX_INTRASTATE',
    log(
      '2026-06-01T06:00',
      ...repeat(4, [
        ['ON', 2],
        ['D', 12],
        ['OFF', 10],
      ]),
      ['ON', 2],
      ['D', 12],
      ['OFF', 20],
      ['D', 1],
      ['OFF', 8],
    ),
  ],
  ['Texas: OFF is not a sleeper period', 'TX_INTRASTATE', log('2026-06-01T06:00', ['ON', 1], ['D', 6], ['SB', 4], ['D', 5], ['OFF', 4], ['D', 4], ['OFF', 8])],
  ['California: 12.5 h of driving', 'CA_INTRASTATE', log('2026-06-01T06:00', ['ON', 1], ['D', 6], ['OFF', 2], ['D', 6.5], ['OFF', 10])],
  ['California: 16-hour window', 'CA_INTRASTATE', log('2026-06-01T06:00', ['ON', 4], ['D', 6], ['OFF', 5], ['D', 6], ['OFF', 10])],
  [
    'California: an 80-hour week',
    'CA_INTRASTATE',
    log(
      '2026-06-01T06:00',
      ...repeat(6, [
        ['ON', 2],
        ['D', 12],
        ['OFF', 10],
      ]),
      ['ON', 2],
      ['D', 8],
      ['OFF', 20],
      ['D', 1],
      ['OFF', 10],
    ),
  ],
];

const org = (rest: string) => `/api/v1/organizations/${a.orgId}${rest}`;

async function newDriver(over: Record<string, unknown> = {}): Promise<{ id: string; lastName: string }> {
  const res = await t.app.inject({ method: 'POST', url: org('/drivers'), headers: a.admin, payload: driverBody({ homeTimeZone: 'America/Chicago', ...over }) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A driver with a sign-in account holding the driver's own codes (the built-in Driver role's). */
async function signedInDriver(over: Record<string, unknown> = {}) {
  const headers = await userWithPermissions(t, a.orgId, ['HOS_SELF_READ', 'HOS_SELF_WRITE']);
  const userId = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers })).json().id as string;
  const driver = await newDriver({ ...over, userId });
  return { headers, userId, driver };
}

const importUrl = (driverId: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}/drivers/${driverId}/hos_log/import`;
const importPeriods = (driverId: string, periods: DutyPeriod[], headers: Record<string, string> = a.admin, source = 'Acme ELD') =>
  t.app.inject({ method: 'POST', url: importUrl(driverId), headers, payload: { source, periods } });

const opts = (ruleset: RulesetId): HosOptions => ({
  ruleset,
  timeZone: 'America/Chicago',
  cycleDayStart: '00:00',
  exemptions: { shortHaul150: false, sixteenHour: false },
});
const brief = (vs: Array<{ rule: string; start: string; end: string; severity: string }>) => vs.map((v) => [v.rule, v.start, v.end, v.severity]);

describe('imported engine scenarios read back through the API', () => {
  it('covers 20 scenarios or more and every ruleset', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(SCENARIOS.map((s) => s[1])).size).toBe(10);
  });

  it.each(SCENARIOS)('%s (%s): the same violations and clocks as the engine', async (_name, ruleset, periods) => {
    const d = await newDriver({ ruleset });
    const res = await importPeriods(d.id, periods);
    expect(res.statusCode, res.body).toBe(201);
    const result = hosImportResultSchema.parse(res.json());
    expect(result).toMatchObject({ driverId: d.id, from: periods[0]!.start, to: periods.at(-1)!.end });

    const from = periods[0]!.start;
    const to = periods.at(-1)!.end;
    const vio = await t.app.inject({ method: 'GET', url: org(`/violations?driverId=${d.id}&from=${from}&to=${to}&size=500`), headers: a.admin });
    expect(vio.statusCode, vio.body).toBe(200);
    const page = violationPageSchema.parse(vio.json());
    const { violations: expected, dayFindings } = auditLog(periods, opts(ruleset));
    // The API lists newest first, the engine oldest first; both keep the engine's rule order within one instant.
    const newestFirst = [...expected].sort((x, y) => Date.parse(y.start) - Date.parse(x.start));
    const driving = page.content.filter((v) => v.shortMs === null);
    expect(brief(driving)).toEqual(brief(newestFirst));
    // The day-level findings (s. 14) are rows of their day, measured by the shortfall.
    const days = page.content.filter((v) => v.shortMs !== null);
    expect(days.map((v) => ({ rule: v.rule, day: v.logDate, shortMs: v.shortMs })).reverse()).toEqual(dayFindings);
    for (const v of days) expect(v.durationMs).toBe(v.shortMs);
    expect(page.totalElements).toBe(expected.length + dayFindings.length);
    for (const v of driving) expect(v).toMatchObject({ ruleset, driver: { id: d.id }, durationMs: Date.parse(v.end) - Date.parse(v.start) });

    // Clocks at the middle and the end of every period.
    for (const p of periods) {
      for (const at of [new Date((Date.parse(p.start) + Date.parse(p.end)) / 2).toISOString(), p.end]) {
        const av = await t.app.inject({ method: 'GET', url: org(`/availability?at=${at}&search=${d.lastName}&size=500`), headers: a.admin });
        expect(av.statusCode, av.body).toBe(200);
        const row = availabilityPageSchema.parse(av.json()).content.find((r) => r.driver.id === d.id)!;
        const c = clocksAt(periods, at, opts(ruleset));
        expect({ strict: row.strict, provisional: row.provisional, cycleUsedMs: row.cycleUsedMs }, `${at}`).toEqual(c);
        const s = c.strict;
        expect(row.availableDriveMs).toBe(Math.min(s.driveMs, s.windowMs, s.breakMs ?? Infinity, s.cycleMs));
      }
    }
  });
});

describe('importing', () => {
  it('stores events with origin other and the source in the annotation, and logs the import', async () => {
    const d = await newDriver();
    const periods = log('2026-07-01T06:00', ['ON', 1], ['D', 4], ['OFF:PC', 1], ['OFF', 20]);
    const res = await importPeriods(d.id, periods, a.admin, 'Motive export');
    expect(res.statusCode).toBe(201);
    // 4 duty-status changes, PC set and cleared.
    expect(res.json()).toMatchObject({ events: 6, logs: [{ date: '2026-07-01' }, { date: '2026-07-02' }] });
    const rows = (await t.database.db.execute(
      `select event_type, event_code, record_status, record_origin, annotation, log_date::text as log_date from hos_events where driver_id = '${d.id}' order by sequence_id` as never,
    )) as unknown as { rows: Array<Record<string, unknown>> };
    expect(rows.rows.map((r) => [r.event_type, r.event_code])).toEqual([
      [1, 4],
      [1, 3],
      [1, 1],
      [3, 1],
      [1, 1],
      [3, 0],
    ]);
    expect(new Set(rows.rows.map((r) => `${r.record_status}/${r.record_origin}/${r.annotation}`))).toEqual(new Set(['1/3/Imported from Motive export']));
    expect(rows.rows.at(-1)!.log_date).toBe('2026-07-01');
    expect((await activityRows(t.database.db as never, d.id)).map((r) => r.action)).toEqual(['CREATE', 'IMPORT_HOS_LOG']);
  });

  it('refuses unsorted, gapped and overlapping periods with a 400 naming index and field, and stores nothing', async () => {
    const d = await newDriver();
    const good = log('2026-07-01T06:00', ['ON', 1], ['D', 4], ['OFF', 10]);
    const gap = [good[0]!, { ...good[1]!, start: new Date(Date.parse(good[1]!.start) + 60_000).toISOString() }, good[2]!];
    const unsorted = [good[1]!, good[0]!, good[2]!];
    const overlap = [good[0]!, { ...good[1]!, start: new Date(Date.parse(good[1]!.start) - 60_000).toISOString() }, good[2]!];
    const backwards = [good[0]!, { ...good[1]!, end: new Date(Date.parse(good[1]!.start) - 60_000).toISOString() }, good[2]!];
    for (const [periods, field] of [
      [gap, 'periods.1.start'],
      [unsorted, 'periods.1.'],
      [overlap, 'periods.1.start'],
      [backwards, 'periods.1.end'],
    ] as const) {
      const res = await importPeriods(d.id, periods);
      expect(res.statusCode, JSON.stringify(periods)).toBe(400);
      expect(expectErrorBody(res.json(), 400).technicalMessage).toContain(field);
    }
    const bad = await importPeriods(d.id, [{ ...good[0]!, status: 'DRIVE' as never, start: 'yesterday' }]);
    expectFieldErrors(bad.json(), 400, { 'periods.0.status': 'Status must be OFF, SB, D or ON', 'periods.0.start': 'Start must be an instant' });
    const rows = (await t.database.db.execute(`select count(*)::int as n from hos_events where driver_id = '${d.id}'` as never)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(rows.rows[0]!.n).toBe(0);

    // Against stored records: overlapping them, or leaving a gap before the next one.
    expect((await importPeriods(d.id, good)).statusCode).toBe(201);
    const again = await importPeriods(d.id, log('2026-07-01T10:00', ['D', 1], ['OFF', 1]));
    expectFieldErrors(again.json(), 400, { 'periods.1.start': "Period 1 overlaps the driver's records" });
    const inside = await importPeriods(d.id, log('2026-07-01T08:00', ['D', 1]));
    expectFieldErrors(inside.json(), 400, { 'periods.0.start': "Period 0 overlaps the driver's records" });
    const before = await importPeriods(d.id, log('2026-06-30T20:00', ['OFF', 9]));
    expectFieldErrors(before.json(), 400, { 'periods.0.end': "Period 0 leaves a gap before the driver's next record" });
    expect((await importPeriods(d.id, log('2026-06-30T20:00', ['OFF', 10]))).statusCode).toBe(201);
    const count = (await t.database.db.execute(`select count(*)::int as n from hos_events where driver_id = '${d.id}'` as never)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(count.rows[0]!.n).toBe(4);
    // After the last record: the import ends the recorded status.
    expect((await importPeriods(d.id, log('2026-07-02T06:00', ['ON', 1]))).statusCode).toBe(201);
  });

  it('answers 401, 403 without HOS_IMPORT, 404 for another organization or driver', async () => {
    const d = await newDriver();
    const periods = log('2026-07-01T06:00', ['ON', 1], ['OFF', 10]);
    expect((await t.app.inject({ method: 'POST', url: importUrl(d.id), payload: { source: 'x', periods } })).statusCode).toBe(401);
    expect((await importPeriods(d.id, periods, a.dispatcher)).statusCode).toBe(403);
    const reader = await userWithPermissions(t, a.orgId, ['HOS_LIST', 'HOS_READ', 'VIO_LIST', 'AVAILABILITY_LIST']);
    expect((await importPeriods(d.id, periods, reader)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: importUrl(d.id, a.otherOrgId), headers: a.other, payload: { source: 'x', periods } })).statusCode).toBe(
      404,
    );
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.otherOrgId}/drivers/${d.id}/hos_log/import`,
      headers: a.other,
      payload: { source: 'x', periods },
    });
    expect(foreign.statusCode).toBe(404);
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: a.admin })).json();
    expect(me.permissions).toContain('HOS_IMPORT');
  });
});

describe('violations and availability lists', () => {
  it('pages violations newest first, filters by rule and severity, and checks the range', async () => {
    const d = await newDriver();
    const periods = log('2026-08-03T00:00', ['ON', 1], ['D', 4], ['OFF', 1], ['D', 4], ['OFF', 1], ['D', 4], ['OFF', 10], ['D', 12], ['OFF', 10]);
    expect((await importPeriods(d.id, periods)).statusCode).toBe(201);
    const q = `from=2026-08-02T00:00:00Z&to=2026-08-06T00:00:00Z&driverId=${d.id}`;
    const all = violationPageSchema.parse((await t.app.inject({ method: 'GET', url: org(`/violations?${q}&size=500`), headers: a.admin })).json());
    expect(all.totalElements).toBeGreaterThan(2);
    const starts = all.content.map((v) => Date.parse(v.start));
    expect([...starts].sort((x, y) => y - x)).toEqual(starts);
    const paged = (await t.app.inject({ method: 'GET', url: org(`/violations?${q}&size=2&page=1`), headers: a.admin })).json();
    expect(paged).toMatchObject({ page: 1, size: 2, totalElements: all.totalElements });
    expect(paged.content).toEqual(all.content.slice(2, 4));
    const driving = (await t.app.inject({ method: 'GET', url: org(`/violations?${q}&rule=DRIVING_LIMIT`), headers: a.admin })).json();
    expect(driving.content.every((v: { rule: string }) => v.rule === 'DRIVING_LIMIT')).toBe(true);
    expect(driving.totalElements).toBe(all.content.filter((v) => v.rule === 'DRIVING_LIMIT').length);
    const egregious = (await t.app.inject({ method: 'GET', url: org(`/violations?${q}&severity=EGREGIOUS`), headers: a.admin })).json();
    expect(egregious.totalElements).toBe(all.content.filter((v) => v.severity === 'EGREGIOUS').length);
    expect(all.content[0]!.logDate).toBe('2026-08-04');
    // Each violation names the log day to open, the same one the day's own id gives.
    const opened = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${all.content[0]!.logId}`), headers: a.admin })).json());
    expect(opened.header).toMatchObject({ date: '2026-08-04', driver: { id: d.id } });
    expect(opened.violations.some((v) => v.start === all.content[0]!.start && v.rule === all.content[0]!.rule)).toBe(true);

    const bad = await t.app.inject({ method: 'GET', url: org('/violations?from=2026-08-10T00:00:00Z&to=2026-08-01T00:00:00Z'), headers: a.admin });
    expectFieldErrors(bad.json(), 400, { to: 'To must be after From' });
    const long = await t.app.inject({ method: 'GET', url: org('/violations?from=2026-01-01T00:00:00Z&to=2026-08-01T00:00:00Z'), headers: a.admin });
    expectFieldErrors(long.json(), 400, { to: 'The range may cover at most 31 days' });
    expect((await t.app.inject({ method: 'GET', url: org('/violations?rule=SPEEDING'), headers: a.admin })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: org('/violations?from=monday'), headers: a.admin })).statusCode).toBe(400);
    const noVio = await userWithPermissions(t, a.orgId, ['HOS_LIST']);
    expect((await t.app.inject({ method: 'GET', url: org('/violations'), headers: noVio })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: org('/availability'), headers: noVio })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/violations`, headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/availability`, headers: a.other })).statusCode).toBe(404);
  });

  it('answers a past window from memory only while the records are unchanged, and concurrent pages alike', async () => {
    const d = await newDriver();
    expect((await importPeriods(d.id, log('2026-07-06T00:00', ['ON', 1], ['D', 12], ['OFF', 10]))).statusCode).toBe(201);
    const q = `from=2026-07-05T00:00:00Z&to=2026-07-12T00:00:00Z&driverId=${d.id}&size=500`;
    const read = async () => violationPageSchema.parse((await t.app.inject({ method: 'GET', url: org(`/violations?${q}`), headers: a.admin })).json());
    const first = await read();
    expect(first.content.map((v) => v.rule)).toContain('DRIVING_LIMIT');
    // The same past window again: the same answer (kept); then a new record in it changes it at once.
    expect(await read()).toEqual(first);
    expect((await importPeriods(d.id, log('2026-07-08T00:00', ['ON', 1], ['D', 13], ['OFF', 10]))).statusCode).toBe(201);
    const second = await read();
    expect(second.totalElements).toBeGreaterThan(first.totalElements);
    // A driver record change (the engine's ruleset) is seen too.
    const withCa = await t.app.inject({
      method: 'PUT',
      url: org(`/drivers/${d.id}`),
      headers: a.admin,
      payload: driverBody({ homeTimeZone: 'America/Chicago', lastName: d.lastName, ruleset: 'CA_SOUTH_CYCLE_1' }),
    });
    expect(withCa.statusCode, withCa.body).toBe(200);
    // Canada allows 13 h of driving and 14 h on duty: neither day breaks a rule any more.
    expect((await read()).totalElements).toBe(0);
    // Concurrent identical requests get identical answers.
    const many = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.app.inject({ method: 'GET', url: org(`/availability?sort=availableDriveMs,asc&size=3&search=${d.lastName}`), headers: a.admin }),
      ),
    );
    expect(new Set(many.map((r) => r.statusCode))).toEqual(new Set([200]));
    expect(new Set(many.map((r) => JSON.stringify(r.json<{ content: Array<{ driver: unknown }> }>().content.map((x) => x.driver))))).toHaveProperty('size', 1);
  });

  it("lists every active driver's availability, with status, since and restart, sorted and paged", async () => {
    const d = await newDriver({ lastName: 'Availabilitytest' });
    expect((await importPeriods(d.id, log('2026-09-01T06:00', ['ON', 1], ['D', 5], ['OFF', 3]))).statusCode).toBe(201);
    const at = '2026-09-01T18:00:00.000Z'; // 13:00 CDT, 1 h into the OFF period (which lasts until the next record)
    const page = availabilityPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/availability?at=${at}&size=500`), headers: a.dispatcher })).json(),
    );
    const drivers = (await t.app.inject({ method: 'GET', url: org('/drivers?status=ACTIVE&size=1'), headers: a.admin })).json();
    expect(page.totalElements).toBe(drivers.totalElements);
    const mine = page.content.find((r) => r.driver.id === d.id)!;
    expect(mine).toMatchObject({ status: 'OFF', since: '2026-09-01T17:00:00.000Z', restartCompleteAt: '2026-09-03T03:00:00.000Z', special: null });
    expect(mine.availableDriveMs).toBe(6 * H);
    // A driver without records: no status, every clock full.
    const fresh = page.content.find((r) => r.status === null && r.ruleset === 'US_PROPERTY_70_8')!;
    expect(fresh.strict).toMatchObject({ driveMs: 11 * H, windowMs: 14 * H, cycleMs: 70 * H });
    const byDrive = availabilityPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/availability?at=${at}&size=500&sort=availableDriveMs,asc`), headers: a.admin })).json(),
    );
    const left = byDrive.content.map((r) => r.availableDriveMs);
    expect(left).toEqual([...left].sort((x, y) => x - y));
    expect(new Set(left).size).toBeGreaterThan(1);
    // By name only the page's drivers are judged: the same rows as the drive-sorted read of everyone.
    const byId = new Map(byDrive.content.map((r) => [r.driver.id, r]));
    for (const r of page.content) expect(r).toEqual(byId.get(r.driver.id));
    const second = (await t.app.inject({ method: 'GET', url: org(`/availability?at=${at}&size=10&page=1`), headers: a.admin })).json();
    expect(second.content).toEqual(page.content.slice(10, 20));
    const desc = availabilityPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/availability?at=${at}&size=500&sort=lastName,desc`), headers: a.admin })).json(),
    );
    expect(desc.content.map((r) => r.driver.id)).toEqual(page.content.map((r) => r.driver.id).reverse());
    const badSort = await t.app.inject({ method: 'GET', url: org('/availability?sort=shoeSize,asc'), headers: a.admin });
    expectFieldErrors(badSort.json(), 400, { sort: 'sort must be one of lastName, availableDriveMs, cycleUsedMs' });
    expect((await t.app.inject({ method: 'GET', url: org('/availability?at=noon'), headers: a.admin })).statusCode).toBe(400);
  });
});

describe('a log day', () => {
  it('shows the header, segments, totals summing to the day, events, violations and certification', async () => {
    const d = await newDriver({ ruleset: 'US_PROPERTY_70_8' });
    // Covers 2026-10-05 whole (Chicago): starts the day before, ends the day after.
    const periods = log('2026-10-04T20:00', ['OFF', 10], ['ON', 1], ['D', 7], ['OFF', 0.5], ['D', 5], ['OFF', 10]);
    const imported = hosImportResultSchema.parse((await importPeriods(d.id, periods)).json());
    expect(imported.logs.map((l) => l.date)).toEqual(['2026-10-04', '2026-10-05', '2026-10-06']);
    const id = imported.logs[1]!.id;
    const res = await t.app.inject({ method: 'GET', url: org(`/hos_log/${id}`), headers: a.dispatcher });
    expect(res.statusCode, res.body).toBe(200);
    const day = hosLogDaySchema.parse(res.json());
    expect(day.header).toMatchObject({
      date: '2026-10-05',
      driver: { id: d.id },
      timeZone: 'America/Chicago',
      periodStart: '00:00',
      ruleset: 'US_PROPERTY_70_8',
      carrier: { name: 'Demo Freight' },
    });
    expect(day).toMatchObject({ dayStart: '2026-10-05T05:00:00.000Z', dayEnd: '2026-10-06T05:00:00.000Z' });
    const o = opts('US_PROPERTY_70_8');
    const totals = dailyTotals(periods, o).find((x) => x.date === '2026-10-05')!;
    expect(day.totals).toEqual({ lengthMs: totals.lengthMs, OFF: totals.OFF, SB: totals.SB, D: totals.D, ON: totals.ON, uncoveredMs: 0, pendingMs: 0 });
    expect(day.totals.OFF + day.totals.SB + day.totals.D + day.totals.ON).toBe(24 * H);
    expect(day.segments.map((x) => [x.status, x.start, x.end])).toEqual([
      ['OFF', '2026-10-05T05:00:00.000Z', '2026-10-05T11:00:00.000Z'],
      ['ON', '2026-10-05T11:00:00.000Z', '2026-10-05T12:00:00.000Z'],
      ['D', '2026-10-05T12:00:00.000Z', '2026-10-05T19:00:00.000Z'],
      ['OFF', '2026-10-05T19:00:00.000Z', '2026-10-05T19:30:00.000Z'],
      ['D', '2026-10-05T19:30:00.000Z', '2026-10-06T00:30:00.000Z'],
      ['OFF', '2026-10-06T00:30:00.000Z', '2026-10-06T05:00:00.000Z'],
    ]);
    expect(day.events.map((e) => [e.status, e.at, e.recordStatus, e.recordOrigin])).toEqual([
      ['ON', '2026-10-05T11:00:00.000Z', 'ACTIVE', 'OTHER'],
      ['D', '2026-10-05T12:00:00.000Z', 'ACTIVE', 'OTHER'],
      ['OFF', '2026-10-05T19:00:00.000Z', 'ACTIVE', 'OTHER'],
      ['D', '2026-10-05T19:30:00.000Z', 'ACTIVE', 'OTHER'],
      ['OFF', '2026-10-06T00:30:00.000Z', 'ACTIVE', 'OTHER'],
    ]);
    const expected = auditLog(periods, o).violations.filter(
      (v) => Date.parse(v.end) > Date.parse(day.dayStart) && Date.parse(v.start) < Date.parse(day.dayEnd),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(brief(day.violations)).toEqual(brief(expected));
    expect(day.certification).toEqual({ certified: false, certifiedAt: null, count: 0 });
    expect(day.previous).toEqual(imported.logs[0]);
    expect(day.next).toEqual(imported.logs[2]);
    // The first day has nothing before it; the last imported day links on to the next (past) day, created on first need.
    const first = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${imported.logs[0]!.id}`), headers: a.admin })).json());
    expect(first.previous).toBeNull();
    const last = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${imported.logs[2]!.id}`), headers: a.admin })).json());
    expect(last.next?.date).toBe('2026-10-07');
    const after = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${last.next!.id}`), headers: a.admin })).json());
    expect(after.previous).toEqual(imported.logs[2]);
    expect(after.segments.map((x) => x.status)).toEqual(['OFF']);

    expect((await t.app.inject({ method: 'GET', url: org('/hos_log/nope'), headers: a.admin })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.otherOrgId}/hos_log/${id}`, headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: org(`/hos_log/${id}`), headers: a.other })).statusCode).toBe(404);
    const listOnly = await userWithPermissions(t, a.orgId, ['HOS_LIST']);
    expect((await t.app.inject({ method: 'GET', url: org(`/hos_log/${id}`), headers: listOnly })).statusCode).toBe(403);
  });
});

describe('the log list of a day', () => {
  it('has one row per active driver with hours, violations, certification and problems, searched and paged', async () => {
    const d = await newDriver({ lastName: 'Loglisttest' });
    const periods = log('2026-10-11T20:00', ['OFF', 10], ['ON', 1], ['D', 7], ['OFF', 0.5], ['D', 5], ['OFF', 10]);
    const imported = hosImportResultSchema.parse((await importPeriods(d.id, periods)).json());
    const mine = hosLogPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org('/hos_log?date=2026-10-12&search=loglisttest'), headers: a.dispatcher })).json(),
    );
    expect(mine.totalElements).toBe(1);
    const o = opts('US_PROPERTY_70_8');
    const totals = dailyTotals(periods, o).find((x) => x.date === '2026-10-12')!;
    const dayStart = Date.parse('2026-10-12T05:00:00Z');
    const dayEnd = Date.parse('2026-10-13T05:00:00Z');
    const violations = auditLog(periods, o).violations.filter((v) => Date.parse(v.end) > dayStart && Date.parse(v.start) < dayEnd);
    expect(mine.content[0]).toEqual({
      driver: { id: d.id, firstName: 'Test', lastName: 'Loglisttest' },
      date: '2026-10-12',
      logId: imported.logs[1]!.id,
      vehicles: [],
      totals: { lengthMs: 24 * H, OFF: totals.OFF, SB: totals.SB, D: totals.D, ON: totals.ON, uncoveredMs: 0, pendingMs: 0 },
      distanceM: null,
      violationCount: violations.length,
      certified: false,
      lastEvent: { at: '2026-10-13T00:30:00.000Z', status: 'OFF' },
      problems: ['UNCERTIFIED', 'NO_SHIPPING_DOCUMENT', 'NO_TRAILER'],
      timeZone: 'America/Chicago',
    });
    expect(violations.length).toBeGreaterThan(0);

    const all = hosLogPageSchema.parse((await t.app.inject({ method: 'GET', url: org('/hos_log?date=2026-10-12&size=500'), headers: a.admin })).json());
    const active = (await t.app.inject({ method: 'GET', url: org('/drivers?status=ACTIVE&size=1'), headers: a.admin })).json();
    expect(all.totalElements).toBe(active.totalElements);
    const idle = all.content.find((r) => r.driver.id !== d.id && r.logId === null)!;
    expect(idle).toMatchObject({ violationCount: 0, certified: false, problems: [] });
    const second = (await t.app.inject({ method: 'GET', url: org('/hos_log?date=2026-10-12&size=5&page=1'), headers: a.admin })).json();
    expect(second.content).toEqual(all.content.slice(5, 10));
    const byViolations = hosLogPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org('/hos_log?date=2026-10-12&size=500&sort=violationCount,desc'), headers: a.admin })).json(),
    );
    expect(byViolations.content[0]!.violationCount).toBe(Math.max(...all.content.map((r) => r.violationCount)));

    expectFieldErrors((await t.app.inject({ method: 'GET', url: org('/hos_log?date=12/10/2026'), headers: a.admin })).json(), 400, {
      date: 'Log day must be a date like 2026-06-01',
    });
    expect((await t.app.inject({ method: 'GET', url: org('/hos_log'), headers: a.admin })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: org('/hos_log?date=2026-10-12&sort=mood,asc'), headers: a.admin })).statusCode).toBe(400);
    const vioOnly = await userWithPermissions(t, a.orgId, ['VIO_LIST']);
    expect((await t.app.inject({ method: 'GET', url: org('/hos_log?date=2026-10-12'), headers: vioOnly })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: org('/hos_log?date=2026-10-12'), headers: a.other })).statusCode).toBe(404);
  });
});

describe('a drive carried over midnight', () => {
  it("names its truck on the next day's log and in the day's list row, though no record of that day names it", async () => {
    const d = await newDriver({ lastName: 'Midnightcarry' });
    const truck = (await t.app.inject({ method: 'POST', url: org('/assets'), headers: a.admin, payload: vehicleBody() })).json() as {
      id: string;
      unitNumber: string;
    };
    // Driving from 22:00 to 02:00 (October, CDT): the day of 2026-10-16 starts in the drive.
    const imported = hosImportResultSchema.parse((await importPeriods(d.id, log('2026-10-15T20:00', ['ON', 2], ['D', 4], ['OFF', 10]))).json());
    await t.database.db.execute(
      `update hos_events set vehicle_id = '${truck.id}' where driver_id = '${d.id}' and event_type = 1 and event_time < '2026-10-16T05:00:00Z'` as never,
    );
    const second = imported.logs.find((l) => l.date === '2026-10-16')!;
    const day = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${second.id}`), headers: a.admin })).json());
    expect(day.events.every((e) => e.vehicle === null)).toBe(true);
    expect(day.header.vehicles).toEqual([{ id: truck.id, unitNumber: truck.unitNumber, type: 'VEHICLE' }]);
    const row = hosLogPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org('/hos_log?date=2026-10-16&search=midnightcarry'), headers: a.admin })).json(),
    ).content[0]!;
    expect(row.vehicles).toEqual([{ id: truck.id, unitNumber: truck.unitNumber, type: 'VEHICLE' }]);
    // A day that starts off duty names no carried vehicle.
    const third = hosLogPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org('/hos_log?date=2026-10-17&search=midnightcarry'), headers: a.admin })).json(),
    ).content[0]!;
    expect(third.vehicles).toEqual([]);
  });
});

describe('editing events', () => {
  it("an office user's edit is a proposal: the original stays active until the driver decides, with an activity row", async () => {
    const d = await newDriver();
    const periods = log('2026-10-20T06:00', ['ON', 1], ['D', 4], ['OFF', 10]);
    const logs = hosImportResultSchema.parse((await importPeriods(d.id, periods)).json()).logs;
    const day = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${logs[0]!.id}`), headers: a.admin })).json());
    const off = day.events.find((e) => e.status === 'OFF')!;
    const eventUrl = (id: string, headers: Record<string, string> = a.admin) => ({
      url: org(`/drivers/${d.id}/hos_log/${logs[0]!.id}/hos_event/${id}`),
      headers,
    });
    const edit = (id: string, payload: Record<string, unknown>, headers: Record<string, string> = a.admin) =>
      t.app.inject({ method: 'PUT', ...eventUrl(id, headers), payload });

    const noNote = await edit(off.id, { status: 'OFF', at: '2026-10-20T15:30:00Z', annotation: 'no' });
    expectFieldErrors(noNote.json(), 400, { annotation: 'Annotation must be at least 4 characters' });
    expect((await edit(off.id, { status: 'OFF', at: '2026-10-20T15:30:00Z' })).statusCode).toBe(400);
    const outside = await edit(off.id, { status: 'OFF', at: '2026-10-20T11:00:00Z', annotation: 'Stopped earlier' });
    expectFieldErrors(outside.json(), 400, { at: 'Time must stay between the previous and the next duty status' });

    const res = await edit(off.id, { status: 'ON', at: '2026-10-20T15:30:00Z', annotation: 'Unloading, not off duty' });
    expect(res.statusCode, res.body).toBe(200);
    const edited = hosEventDetailSchema.parse(res.json());
    // Appendix A 4.4.4.2.5: the proposed record has status 3 (change requested) and origin 3 (other user).
    expect(edited).toMatchObject({
      status: 'ON',
      at: '2026-10-20T15:30:00.000Z',
      recordStatus: 'INACTIVE_CHANGE_REQUESTED',
      recordOrigin: 'OTHER',
      annotation: 'Unloading, not off duty',
      replacesEventId: off.id,
    });
    expect(edited.editRequestId).toEqual(expect.any(String));
    expect(edited.versions).toEqual([off]);
    expect(edited.sequenceId).toBeGreaterThan(off.sequenceId);
    // The original is still the active record: the office may propose again.
    expect((await edit(off.id, { status: 'OFF', at: '2026-10-20T15:45:00Z', annotation: 'Second try' })).statusCode).toBe(200);
    const after = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${logs[0]!.id}`), headers: a.admin })).json());
    expect(after.events.map((e) => [e.status, e.recordStatus])).toEqual([
      ['ON', 'ACTIVE'],
      ['D', 'ACTIVE'],
      ['ON', 'INACTIVE_CHANGE_REQUESTED'],
      ['OFF', 'INACTIVE_CHANGE_REQUESTED'],
      ['OFF', 'ACTIVE'],
    ]);
    expect(after.segments.at(-1)).toMatchObject({ status: 'OFF', start: '2026-10-20T16:00:00.000Z' });
    expect((await activityRows(t.database.db as never, d.id)).map((r) => r.action)).toEqual([
      'CREATE',
      'IMPORT_HOS_LOG',
      'PROPOSE_HOS_EDIT',
      'PROPOSE_HOS_EDIT',
    ]);
    const got = hosEventDetailSchema.parse((await t.app.inject({ method: 'GET', ...eventUrl(edited.id) })).json());
    expect(got).toEqual(edited);

    expect((await edit(edited.id, { status: 'ON', at: '2026-10-20T15:30:00Z', annotation: 'Dispatcher edit' }, a.dispatcher)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', ...eventUrl(edited.id, a.other) })).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/organizations/${a.otherOrgId}/drivers/${d.id}/hos_log/${logs[0]!.id}/hos_event/${edited.id}`,
          headers: a.other,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('never shortens automatically recorded driving or turns it into another status', async () => {
    const d = await newDriver();
    const logs = hosImportResultSchema.parse((await importPeriods(d.id, log('2026-10-22T06:00', ['ON', 1]))).json()).logs;
    // As the ELD records it: automatic driving from 07:00, then the driver's own OFF at 11:00 (CDT).
    await t.database.db.execute(
      `insert into hos_events (organization_id, driver_id, sequence_id, event_type, event_code, record_origin, event_time, log_date) values
       ('${a.orgId}', '${d.id}', 10, 1, 3, 1, '2026-10-22T12:00:00Z', '2026-10-22'), ('${a.orgId}', '${d.id}', 11, 1, 1, 2, '2026-10-22T16:00:00Z', '2026-10-22')` as never,
    );
    const day = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${logs[0]!.id}`), headers: a.admin })).json());
    const drive = day.events.find((e) => e.status === 'D')!;
    const off = day.events.find((e) => e.status === 'OFF')!;
    expect(drive.recordOrigin).toBe('AUTOMATIC');
    const edit = (id: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: org(`/drivers/${d.id}/hos_log/${logs[0]!.id}/hos_event/${id}`), headers: a.admin, payload });
    expectFieldErrors((await edit(drive.id, { status: 'ON', at: drive.at, annotation: 'Was not driving' })).json(), 400, {
      status: 'Automatically recorded driving cannot be shortened or changed to another status',
    });
    expectFieldErrors((await edit(drive.id, { status: 'D', at: '2026-10-22T12:30:00Z', annotation: 'Started later' })).json(), 400, {
      status: 'Automatically recorded driving cannot be shortened',
    });
    expectFieldErrors((await edit(off.id, { status: 'OFF', at: '2026-10-22T15:00:00Z', annotation: 'Stopped earlier' })).json(), 400, {
      at: 'Automatically recorded driving cannot be shortened',
    });
    // Lengthening it is allowed: the OFF moves later.
    expect((await edit(off.id, { status: 'OFF', at: '2026-10-22T16:30:00Z', annotation: 'Parked later' })).statusCode).toBe(200);
  });
});

describe('inserting a duty status', () => {
  it("the driver's own entries take effect at once (origin driver) with their special category and location, clear PC after it, and are logged", async () => {
    const me = await signedInDriver({ personalConveyanceAllowed: true });
    const d = me.driver;
    const logs = hosImportResultSchema.parse((await importPeriods(d.id, log('2026-10-26T06:00', ['ON', 1], ['D', 4], ['OFF', 10]))).json()).logs;
    const add = (payload: Record<string, unknown>, headers: Record<string, string> = me.headers, logId = logs[0]!.id) =>
      t.app.inject({ method: 'POST', url: org(`/users/${me.userId}/hos_log/${logId}/hos_event`), headers, payload });

    const res = await add({
      status: 'OFF',
      special: 'PC',
      at: '2026-10-26T22:00:00Z',
      annotation: 'Drove home in the truck',
      latitude: 41.8781,
      longitude: -87.6298,
    });
    expect(res.statusCode, res.body).toBe(201);
    const pc = hosEventDetailSchema.parse(res.json());
    // Personal conveyance: the position is kept at reduced precision, the description is computed from it.
    expect(pc).toMatchObject({
      status: 'OFF',
      eventType: 1,
      at: '2026-10-26T22:00:00.000Z',
      recordOrigin: 'DRIVER',
      recordStatus: 'ACTIVE',
      annotation: 'Drove home in the truck',
      latitude: 41.9,
      longitude: -87.6,
      versions: [],
    });
    expect(pc.locationDescription).toMatch(/, IL$/);
    const on = hosEventDetailSchema.parse(
      (await add({ status: 'ON', at: '2026-10-26T23:00:00Z', annotation: 'Fuelling', locationDescription: 'Yard 3' })).json(),
    );
    expect(on).toMatchObject({ status: 'ON', locationDescription: 'Yard 3', latitude: null });
    expect(on.sequenceId).toBeGreaterThan(pc.sequenceId);
    // The engine records' probe (engine-events.repository.ts) sees the PC hour, also when its asks span several statements.
    const at = (iso: string) => Date.parse(iso);
    const times = [at('2026-10-26T21:00:00Z'), at('2026-10-26T22:30:00Z'), at('2026-10-26T23:30:00Z')];
    const asks = Array.from({ length: 2 * PC_PROBES_PER_STATEMENT + 7 }, (_, k) => ({ driverId: d.id, time: times[k % 3]! }));
    expect(await inPersonalConveyance(t.database.db, a.orgId, asks)).toEqual(asks.map((_, k) => k % 3 === 1));

    const day = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${logs[0]!.id}`), headers: a.admin })).json());
    expect(day.segments.slice(-3).map((x) => [x.status, x.special, x.start])).toEqual([
      ['OFF', null, '2026-10-26T16:00:00.000Z'],
      ['OFF', 'PC', '2026-10-26T22:00:00.000Z'],
      ['ON', null, '2026-10-26T23:00:00.000Z'],
    ]);
    // PC set with the OFF, cleared with the ON that follows it.
    expect(day.events.filter((e) => e.eventType === 3).map((e) => [e.special, e.at])).toEqual([
      ['PC', '2026-10-26T22:00:00.000Z'],
      [null, '2026-10-26T23:00:00.000Z'],
    ]);
    expect((await activityRows(t.database.db as never, d.id)).map((r) => r.action)).toEqual(['CREATE', 'IMPORT_HOS_LOG', 'ADD_HOS_EVENT', 'ADD_HOS_EVENT']);
    // An office user's entry is a proposal: status 3, origin 3, the segments unchanged until the driver accepts.
    const proposed = await t.app.inject({
      method: 'POST',
      url: org(`/drivers/${d.id}/hos_log/${logs[0]!.id}/hos_event`),
      headers: a.admin,
      payload: { status: 'SB', at: '2026-10-27T01:00:00Z', annotation: 'Berth after fuelling' },
    });
    expect(proposed.statusCode, proposed.body).toBe(201);
    expect(hosEventDetailSchema.parse(proposed.json())).toMatchObject({ status: 'SB', recordStatus: 'INACTIVE_CHANGE_REQUESTED', recordOrigin: 'OTHER' });
    const still = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${logs[0]!.id}`), headers: a.admin })).json());
    expect(still.segments.at(-1)).toMatchObject({ status: 'ON', start: '2026-10-26T23:00:00.000Z' });
    expectFieldErrors(
      (
        await t.app.inject({
          method: 'POST',
          url: org(`/drivers/${d.id}/hos_log/${logs[0]!.id}/hos_event`),
          headers: a.admin,
          payload: { status: 'SB', annotation: 'No time given' },
        })
      ).json(),
      400,
      { at: 'Time is a required field' },
    );
  });

  it('refuses a time outside the day, in the future, on a recorded status or inside automatic driving, and bad categories', async () => {
    const d = await newDriver({ yardMovesAllowed: false, personalConveyanceAllowed: false });
    const logs = hosImportResultSchema.parse((await importPeriods(d.id, log('2026-10-27T06:00', ['ON', 1]))).json()).logs;
    await t.database.db.execute(
      `insert into hos_events (organization_id, driver_id, sequence_id, event_type, event_code, record_origin, event_time, log_date) values
       ('${a.orgId}', '${d.id}', 10, 1, 3, 1, '2026-10-27T12:00:00Z', '2026-10-27'), ('${a.orgId}', '${d.id}', 11, 1, 1, 2, '2026-10-27T16:00:00Z', '2026-10-27')` as never,
    );
    const add = (payload: Record<string, unknown>, headers: Record<string, string> = a.admin, logId = logs[0]!.id, orgId = a.orgId) =>
      t.app.inject({ method: 'POST', url: `/api/v1/organizations/${orgId}/drivers/${d.id}/hos_log/${logId}/hos_event`, headers, payload });
    const note = { annotation: 'Office correction' };
    expectFieldErrors((await add({ status: 'ON', at: '2026-10-28T06:00:00Z', ...note })).json(), 400, { at: 'Time must fall in the log day 2026-10-27' });
    expectFieldErrors((await add({ status: 'ON', at: '2026-10-27T13:00:00Z', ...note })).json(), 400, {
      at: 'Automatically recorded driving cannot be cut into',
    });
    expectFieldErrors((await add({ status: 'ON', at: '2026-10-27T16:00:00Z', ...note })).json(), 400, { at: 'A duty status is already recorded at this time' });
    expectFieldErrors((await add({ status: 'ON', special: 'PC', at: '2026-10-27T17:00:00Z', ...note })).json(), 400, {
      special: 'Personal conveyance goes only with status OFF',
    });
    expectFieldErrors((await add({ status: 'ON', special: 'YM', at: '2026-10-27T17:00:00Z', ...note })).json(), 400, {
      special: 'This driver is not allowed yard moves',
    });
    expectFieldErrors((await add({ status: 'ON', at: '2026-10-27T17:00:00Z', annotation: 'x' })).json(), 400, {
      annotation: 'Annotation must be at least 4 characters',
    });
    expectFieldErrors((await add({ status: 'ON', at: '2026-10-27T17:00:00Z', latitude: 41.9, ...note })).json(), 400, {
      longitude: 'Latitude and longitude go together',
    });
    expectFieldErrors((await add({ status: 'WORK', at: 'today', latitude: 99, ...note })).json(), 400, {
      status: 'Status must be OFF, SB, D or ON',
      at: 'Time must be an instant',
      latitude: 'Latitude must be between -90 and 90',
    });
    // A future instant of a (future) log day.
    const [future] = (
      (await t.database.db.execute(
        `insert into hos_logs (organization_id, driver_id, log_date) values ('${a.orgId}', '${d.id}', '2030-01-02') returning id` as never,
      )) as unknown as { rows: Array<{ id: string }> }
    ).rows;
    expectFieldErrors((await add({ status: 'ON', at: '2030-01-02T12:00:00Z', ...note }, a.admin, future!.id)).json(), 400, {
      at: 'Time cannot be in the future',
    });

    expect((await add({ status: 'ON', at: '2026-10-27T17:00:00Z', ...note }, a.dispatcher)).statusCode).toBe(403);
    expect((await add({ status: 'ON', at: '2026-10-27T17:00:00Z', ...note }, a.other, logs[0]!.id, a.otherOrgId)).statusCode).toBe(404);
    expect((await add({ status: 'ON', at: '2026-10-27T17:00:00Z', ...note }, a.admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const n = (await t.database.db.execute(`select count(*)::int as n from hos_events where driver_id = '${d.id}'` as never)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(n.rows[0]!.n).toBe(3);
    // After the automatic driving has ended, a status may go in.
    expect((await add({ status: 'ON', at: '2026-10-27T17:00:00Z', ...note })).statusCode).toBe(201);
  });
});

const sum = (x: { OFF: number; SB: number; D: number; ON: number }) => x.OFF + x.SB + x.D + x.ON;

describe("a driver's current day and days of a period", () => {
  it('opens today in the home zone, created on first need, and counts the time before the first record as OFF', async () => {
    const d = await newDriver();
    const get = (headers: Record<string, string> = a.admin, orgId = a.orgId) =>
      t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/drivers/${d.id}/hos_log/current-day`, headers });
    const res = await get();
    expect(res.statusCode, res.body).toBe(200);
    const today = hosLogDaySchema.parse(res.json());
    const now = Date.now();
    expect(today.header.date).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date(now)));
    expect(Date.parse(today.dayStart)).toBeLessThanOrEqual(now);
    expect(Date.parse(today.dayEnd)).toBeGreaterThan(now);
    expect(today).toMatchObject({ segments: [], events: [], previous: null, next: null });
    // No records at all: nothing is counted, the rest of the day is pending.
    expect(today.totals).toMatchObject({ OFF: 0, D: 0, uncoveredMs: 0 });
    expect(hosLogDaySchema.parse((await get()).json()).id).toBe(today.id);

    // A first record today: the time before it counts as OFF, the rest after now is pending.
    const at = new Date(Math.max(Date.parse(today.dayStart), now - 30 * 60_000)).toISOString();
    const added = await importPeriods(d.id, [{ status: 'ON', start: at, end: new Date(now).toISOString() }]);
    expect(added.statusCode, added.body).toBe(201);
    const after = hosLogDaySchema.parse((await get()).json());
    expect(after.id).toBe(today.id);
    expect(after.totals.uncoveredMs).toBe(Date.parse(at) - Date.parse(today.dayStart));
    expect(after.totals.OFF).toBe(after.totals.uncoveredMs);
    expect(after.totals.ON).toBeGreaterThan(0);
    expect(sum(after.totals) + after.totals.pendingMs).toBe(after.totals.lengthMs);

    expect((await get(a.other, a.otherOrgId)).statusCode).toBe(404);
    expect((await get(await userWithPermissions(t, a.orgId, ['HOS_LIST']))).statusCode).toBe(403);
  });

  it('lists the log days of a period with totals summing to the day, violations and certification', async () => {
    const d = await newDriver();
    // 2026-11-03 (CST, UTC-6): first record 13:00Z, 7 h after the day began; 11.5 h of driving.
    const periods = log('2026-11-03T08:00', ['ON', 1], ['D', 11.5], ['OFF', 10]);
    const imported = hosImportResultSchema.parse((await importPeriods(d.id, periods)).json());
    const url = (q: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}/drivers/${d.id}/hos_log/hos-logs-for-period?${q}`;
    const res = await t.app.inject({ method: 'GET', url: url('from=2026-11-02&to=2026-11-05'), headers: a.dispatcher });
    expect(res.statusCode, res.body).toBe(200);
    const period = hosPeriodSchema.parse(res.json());
    expect(period).toMatchObject({ driver: { id: d.id }, from: '2026-11-02', to: '2026-11-05' });
    // Nothing before the first record; every day from it on has a log row.
    expect(period.days.map((x) => x.date)).toEqual(['2026-11-03', '2026-11-04', '2026-11-05']);
    expect(period.days.slice(0, 2).map((x) => x.id)).toEqual(imported.logs.map((l) => l.id));
    const [first, second] = period.days;
    expect(first!.totals).toEqual({ lengthMs: 24 * H, OFF: 11.5 * H, SB: 0, D: 11.5 * H, ON: H, uncoveredMs: 7 * H, pendingMs: 0 });
    expect(second!.totals).toEqual({ lengthMs: 24 * H, OFF: 24 * H, SB: 0, D: 0, ON: 0, uncoveredMs: 0, pendingMs: 0 });
    for (const x of period.days) expect(sum(x.totals)).toBe(x.totals.lengthMs);
    const o = opts('US_PROPERTY_70_8');
    const dayStart = Date.parse('2026-11-03T06:00:00Z');
    const expected = auditLog(periods, o).violations.filter((v) => Date.parse(v.end) > dayStart && Date.parse(v.start) < dayStart + 24 * H);
    expect(expected.length).toBeGreaterThan(0);
    expect(period.days.map((x) => [x.violationCount, x.certified])).toEqual([
      [expected.length, false],
      [0, false],
      [0, false],
    ]);
    // The log day shows the same totals.
    const day = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${first!.id}`), headers: a.admin })).json());
    expect(day.totals).toEqual(first!.totals);
    expect(day.violations).toHaveLength(expected.length);

    expectFieldErrors((await t.app.inject({ method: 'GET', url: url('from=2026-10-01&to=2026-11-05'), headers: a.admin })).json(), 400, {
      to: 'The range may cover at most 31 days',
    });
    expectFieldErrors((await t.app.inject({ method: 'GET', url: url('from=2026-11-05&to=2026-11-01'), headers: a.admin })).json(), 400, {
      to: 'To must not be before From',
    });
    expectFieldErrors((await t.app.inject({ method: 'GET', url: url('from=3%20Nov&to=2026-11-05'), headers: a.admin })).json(), 400, {
      from: 'From must be a date like 2026-06-01',
    });
    expectFieldErrors((await t.app.inject({ method: 'GET', url: url('from=2026-11-01'), headers: a.admin })).json(), 400, { to: 'To' });
    expect(
      (await t.app.inject({ method: 'GET', url: url('from=2026-11-02&to=2026-11-05'), headers: await userWithPermissions(t, a.orgId, ['HOS_LIST']) }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: url('from=2026-11-02&to=2026-11-05', a.otherOrgId), headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url('from=2026-11-02&to=2026-11-05'), headers: a.other })).statusCode).toBe(404);
  });

  it("answers the same under the driver's sign-in account, and 404 for a user who is no driver", async () => {
    const me = (h: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: h }).then((r) => r.json() as { id: string });
    const dispatcherId = (await me(a.dispatcher)).id;
    const adminId = (await me(a.admin)).id;
    const d = await newDriver({ userId: dispatcherId });
    const imported = hosImportResultSchema.parse((await importPeriods(d.id, log('2026-11-10T06:00', ['ON', 1], ['D', 4], ['OFF', 10]))).json());
    const byUser = (rest: string, userId = dispatcherId) => org(`/users/${userId}/hos_log${rest}`);
    const byDriver = (rest: string) => org(`/drivers/${d.id}/hos_log${rest}`);
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: a.admin });

    const current = await get(byUser('/current-day'));
    expect(current.statusCode, current.body).toBe(200);
    expect(hosLogDaySchema.parse(current.json()).header.driver.id).toBe(d.id);
    const period = await get(byUser('/hos-logs-for-period?from=2026-11-10&to=2026-11-11'));
    expect(period.json()).toEqual((await get(byDriver('/hos-logs-for-period?from=2026-11-10&to=2026-11-11'))).json());
    const logId = imported.logs[0]!.id;
    const day = hosLogDaySchema.parse((await get(org(`/hos_log/${logId}`))).json());
    const off = day.events.find((e) => e.status === 'OFF')!;
    expect((await get(byUser(`/${logId}/hos_event/${off.id}`))).json()).toEqual((await get(byDriver(`/${logId}/hos_event/${off.id}`))).json());

    // The office's entry and edit through the account paths are proposals to the driver.
    const added = await t.app.inject({
      method: 'POST',
      url: byUser(`/${logId}/hos_event`),
      headers: a.admin,
      payload: { status: 'SB', at: '2026-11-10T19:00:00Z', annotation: 'Rest in the berth' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const sb = hosEventDetailSchema.parse(added.json());
    expect(sb.recordStatus).toBe('INACTIVE_CHANGE_REQUESTED');
    const edited = await t.app.inject({
      method: 'PUT',
      url: byUser(`/${logId}/hos_event/${off.id}`),
      headers: a.admin,
      payload: { status: 'OFF', at: '2026-11-10T15:30:00Z', annotation: 'Off from half past' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(hosEventDetailSchema.parse(edited.json())).toMatchObject({
      status: 'OFF',
      at: '2026-11-10T15:30:00.000Z',
      replacesEventId: off.id,
      recordStatus: 'INACTIVE_CHANGE_REQUESTED',
    });

    // A user who drives for nobody, an unknown user, another organization.
    for (const url of [
      byUser('/current-day', adminId),
      byUser('/hos-logs-for-period?from=2026-11-10&to=2026-11-11', adminId),
      byUser(`/${logId}/hos_event/${off.id}`, adminId),
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(expectErrorBody(res.json(), 404).message).toContain('Driver');
    }
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: byUser(`/${logId}/hos_event/${sb.id}`, adminId),
          headers: a.admin,
          payload: { status: 'SB', at: '2026-11-10T19:30:00Z', annotation: 'Nobody drives' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.otherOrgId}/users/${dispatcherId}/hos_log/current-day`, headers: a.other }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: byUser('/current-day'), headers: a.other })).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: byUser(`/${logId}/hos_event`),
          headers: a.dispatcher,
          payload: { status: 'SB', at: '2026-11-10T20:00:00Z', annotation: 'Own entry' },
        })
      ).statusCode,
    ).toBe(403);
    expectFieldErrors((await t.app.inject({ method: 'GET', url: org('/users/nobody/hos_log/current-day'), headers: a.admin })).json(), 400, {
      userId: 'userId must be a user id',
    });
  });
});

/** Consecutive [status, hours] parts from a Chicago wall time in November 2026 (CST, UTC-6). */
function cst(startLocal: string, ...parts: Part[]): DutyPeriod[] {
  let ms = Date.parse(`${startLocal}:00-06:00`);
  return parts.map(([status, hours]) => ({
    status: status as DutyStatus,
    start: new Date(ms).toISOString(),
    end: new Date((ms += Math.round(hours * H))).toISOString(),
  }));
}
const violationsOf = async (driverId: string, periods: DutyPeriod[]) => {
  const res = await t.app.inject({
    method: 'GET',
    url: org(`/violations?driverId=${driverId}&from=${periods[0]!.start}&to=${periods.at(-1)!.end}&size=500`),
    headers: a.admin,
  });
  expect(res.statusCode, res.body).toBe(200);
  // The API lists newest first with ties in the engine's rule order; the engine lists oldest first.
  const rows = violationPageSchema.parse(res.json()).content.filter((v) => v.shortMs === null);
  return brief([...rows].sort((x, y) => Date.parse(x.start) - Date.parse(y.start)));
};
/** The day-level rows of the violations list (s. 14), oldest first, as the engine's dayFindings. */
const dayRowsOf = async (driverId: string, periods: DutyPeriod[]) => {
  const res = await t.app.inject({
    method: 'GET',
    url: org(`/violations?driverId=${driverId}&from=${periods[0]!.start}&to=${periods.at(-1)!.end}&size=500`),
    headers: a.admin,
  });
  expect(res.statusCode, res.body).toBe(200);
  return violationPageSchema
    .parse(res.json())
    .content.filter((v) => v.shortMs !== null)
    .map((v) => ({ rule: v.rule, day: v.logDate, shortMs: v.shortMs }))
    .reverse();
};
const header = (driverId: string, logId: string, payload: Record<string, unknown>, headers: Record<string, string> = a.admin) =>
  t.app.inject({ method: 'PUT', url: org(`/drivers/${driverId}/hos_log/${logId}`), headers, payload });

describe('engine options from the records', () => {
  it('P15: a non-CDL short-haul driver may drive to the 16th hour where a CDL driver may not', async () => {
    // On duty 06:00; the last hour of driving (20:30-21:30) is past the 14th hour.
    const periods = cst('2026-11-16T06:00', ['ON', 1], ['D', 5], ['OFF', 1], ['D', 5], ['ON', 2.5], ['D', 1], ['OFF', 10]);
    const base = { ruleset: 'US_PROPERTY_70_8', shortHaul150: true };
    const cdl = await newDriver({ ...base, licenseClass: 'A' });
    const nonCdl = await newDriver({ ...base, licenseClass: 'NON_CDL' });
    const unknown = await newDriver({ ...base, licenseClass: null });
    const nonCdlLong = await newDriver({ ruleset: 'US_PROPERTY_70_8', shortHaul150: false, licenseClass: 'NON_CDL' });
    for (const d of [cdl, nonCdl, unknown, nonCdlLong]) expect((await importPeriods(d.id, periods)).statusCode).toBe(201);
    const o = { ...opts('US_PROPERTY_70_8'), exemptions: { shortHaul150: true, sixteenHour: false } };
    const cdlViolations = await violationsOf(cdl.id, periods);
    expect(cdlViolations).toEqual(brief(auditLog(periods, o).violations));
    expect(cdlViolations.map((v) => v.slice(0, 3))).toEqual([['WINDOW_LIMIT', '2026-11-17T02:30:00.000Z', '2026-11-17T03:30:00.000Z']]);
    expect(await violationsOf(nonCdl.id, periods)).toEqual(
      brief(auditLog(periods, { ...o, exemptions: { ...o.exemptions, nonCdlShortHaul: true } }).violations),
    );
    expect(await violationsOf(nonCdl.id, periods)).toEqual([]);
    // An unknown licence class is not taken as non-CDL; a non-CDL driver outside short haul gets no P15 either.
    expect(await violationsOf(unknown.id, periods)).toEqual(await violationsOf(cdl.id, periods));
    expect((await violationsOf(nonCdlLong.id, periods)).map((v) => v[0])).toContain('WINDOW_LIMIT');
  });

  it('C7: a Canadian team split is legal only on a log day with a co-driver', async () => {
    // The shift starts 02:00 on 2026-11-17 after 8 h off; two 4-hour berth periods split it.
    const periods = cst('2026-11-16T18:00', ['OFF', 8], ['D', 6], ['SB', 4], ['D', 5], ['SB', 4], ['D', 2], ['OFF', 10]);
    const d = await newDriver({ ruleset: 'CA_SOUTH_CYCLE_1' });
    const co = await newDriver();
    const logs = hosImportResultSchema.parse((await importPeriods(d.id, periods)).json()).logs;
    const solo = brief(auditLog(periods, opts('CA_SOUTH_CYCLE_1')).violations);
    expect(solo.length).toBeGreaterThan(0);
    expect(brief(auditLog(periods, { ...opts('CA_SOUTH_CYCLE_1'), team: true }).violations)).toEqual([]);
    expect(await violationsOf(d.id, periods)).toEqual(solo);

    expect(logs[1]!.date).toBe('2026-11-17');
    const res = await header(d.id, logs[1]!.id, { shippingDocuments: [], trailerIds: [], coDriverId: co.id });
    expect(res.statusCode, res.body).toBe(200);
    const day = hosLogDaySchema.parse(res.json());
    expect(day.header.coDriver).toMatchObject({ id: co.id });
    expect(day.violations).toEqual([]);
    expect(await violationsOf(d.id, periods)).toEqual([]);
    const list = hosLogPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/hos_log?date=2026-11-17&search=${d.lastName}`), headers: a.admin })).json(),
    );
    expect(list.content[0]!.violationCount).toBe(0);
    // Availability at the end of the second berth period: the team pair counts.
    const at = periods[5]!.start;
    const av = availabilityPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: org(`/availability?at=${at}&search=${d.lastName}`), headers: a.admin })).json(),
    ).content[0]!;
    expect(av.strict).toEqual(clocksAt(periods, at, { ...opts('CA_SOUTH_CYCLE_1'), team: true }).strict);

    // Without the co-driver the split is a single driver's again.
    expect((await header(d.id, logs[1]!.id, { shippingDocuments: [], trailerIds: [], coDriverId: null })).statusCode).toBe(200);
    expect(await violationsOf(d.id, periods)).toEqual(solo);
  });

  it('C6: a declared day-1 deferral removes the off-duty shortfall of day 1', async () => {
    // Day 1 (2026-11-19) holds 8 h off, 2 h short of the 10.
    const periods = cst('2026-11-19T00:00', ['D', 6], ['OFF', 8], ['ON', 2], ['D', 7], ['OFF', 13]);
    const d = await newDriver({ ruleset: 'CA_SOUTH_CYCLE_1' });
    const logs = hosImportResultSchema.parse((await importPeriods(d.id, periods)).json()).logs;
    const C1 = opts('CA_SOUTH_CYCLE_1');
    const before = await violationsOf(d.id, periods);
    expect(before).toEqual(brief(auditLog(periods, C1).violations));
    expect(before.map((v) => v[0])).toContain('DAILY_OFF_DUTY');
    // s. 14: day 1 holds 8 h + the hour from 23:00: a finding of the day, 1 h short, in the list and on the log day.
    const shortDay = [{ rule: 'DAILY_OFF_DUTY', day: '2026-11-19', shortMs: H }];
    expect(await dayRowsOf(d.id, periods)).toEqual(shortDay);
    const day1 = await t.app.inject({ method: 'GET', url: org(`/hos_log/${logs[0]!.id}`), headers: a.admin });
    expect(day1.statusCode, day1.body).toBe(200);
    expect(hosLogDaySchema.parse(day1.json()).dayFindings).toEqual(shortDay);
    const declare = (logId: string, declared: unknown, driverId = d.id) =>
      t.app.inject({ method: 'PUT', url: org(`/drivers/${driverId}/hos_log/${logId}/deferral`), headers: a.admin, payload: { declared } });

    const res = await declare(logs[0]!.id, true);
    expect(res.statusCode, res.body).toBe(200);
    const day = hosLogDaySchema.parse(res.json());
    expect(day.deferral.declared).toBe(true);
    expect(day.violations.map((v) => v.rule)).not.toContain('DAILY_OFF_DUTY');
    expect(day.dayFindings).toEqual([]);
    expect(await dayRowsOf(d.id, periods)).toEqual([]);
    const after = await violationsOf(d.id, periods);
    expect(after).toEqual(brief(auditLog(periods, { ...C1, deferrals: [{ day: '2026-11-19' }] }).violations));
    expect(after.map((v) => v[0])).not.toContain('DAILY_OFF_DUTY');
    // Its day 2 cannot be a day 1 too; a US driver cannot defer; bad input names the field.
    expectFieldErrors((await declare(logs[1]!.id, true)).json(), 400, { declared: '2026-11-20 is day 2 of the deferral declared on 2026-11-19' });
    const us = await newDriver();
    const usLogs = hosImportResultSchema.parse((await importPeriods(us.id, periods)).json()).logs;
    expectFieldErrors((await declare(usLogs[0]!.id, true, us.id)).json(), 400, { declared: 'Off-duty deferral applies only to the Canadian rulesets' });
    expectFieldErrors((await declare(logs[0]!.id, 'yes')).json(), 400, { declared: 'Deferral declared must be true or false' });
    expect(
      (await t.app.inject({ method: 'PUT', url: org(`/drivers/${d.id}/hos_log/${logs[0]!.id}/deferral`), headers: a.dispatcher, payload: { declared: false } }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/v1/organizations/${a.otherOrgId}/drivers/${d.id}/hos_log/${logs[0]!.id}/deferral`,
          headers: a.other,
          payload: { declared: false },
        })
      ).statusCode,
    ).toBe(404);

    // Withdrawn: the shortfall is back; each change is logged once.
    expect(hosLogDaySchema.parse((await declare(logs[0]!.id, false)).json()).deferral).toEqual({ declared: false, declaredAt: null });
    expect(await violationsOf(d.id, periods)).toEqual(before);
    expect(await dayRowsOf(d.id, periods)).toEqual(shortDay);
    expect((await activityRows(t.database.db as never, d.id)).map((r) => r.action)).toEqual([
      'CREATE',
      'IMPORT_HOS_LOG',
      'SET_HOS_DEFERRAL',
      'SET_HOS_DEFERRAL',
    ]);
  });
});

describe('log header facts', () => {
  it('sets shipping documents, trailers and co-driver, which clears the form-and-manner problems', async () => {
    const d = await newDriver({ lastName: 'Headertest' });
    const co = await newDriver();
    const logs = hosImportResultSchema.parse((await importPeriods(d.id, log('2026-11-04T06:00', ['ON', 1], ['D', 4], ['OFF', 10]))).json()).logs;
    const logId = logs[0]!.id;
    const problems = async () =>
      hosLogPageSchema.parse((await t.app.inject({ method: 'GET', url: org('/hos_log?date=2026-11-04&search=headertest'), headers: a.admin })).json())
        .content[0]!.problems;
    expect(await problems()).toEqual(['UNCERTIFIED', 'NO_SHIPPING_DOCUMENT', 'NO_TRAILER']);
    const trailer = (await t.app.inject({ method: 'POST', url: org('/assets'), headers: a.admin, payload: trailerBody() })).json() as {
      id: string;
      unitNumber: string;
    };
    const truck = (await t.app.inject({ method: 'POST', url: org('/assets'), headers: a.admin, payload: vehicleBody() })).json() as { id: string };
    expect(trailer.id && truck.id).toBeTruthy();

    const res = await header(d.id, logId, { shippingDocuments: [' BL-20441 ', 'PO 7781'], trailerIds: [trailer.id], coDriverId: co.id });
    expect(res.statusCode, res.body).toBe(200);
    const day = hosLogDaySchema.parse(res.json());
    expect(day.header).toMatchObject({
      shippingDocuments: ['BL-20441', 'PO 7781'],
      trailers: [{ id: trailer.id, unitNumber: trailer.unitNumber, type: 'TRAILER' }],
      coDriver: { id: co.id },
    });
    expect(await problems()).toEqual(['UNCERTIFIED']);
    expect((await activityRows(t.database.db as never, d.id)).map((r) => r.action)).toEqual(['CREATE', 'IMPORT_HOS_LOG', 'UPDATE_HOS_LOG']);

    const body = { shippingDocuments: [], trailerIds: [], coDriverId: null };
    expectFieldErrors((await header(d.id, logId, { ...body, trailerIds: [trailer.id, truck.id] })).json(), 400, {
      'trailerIds.1': 'Trailer must be an active trailer of the organization',
    });
    expectFieldErrors((await header(d.id, logId, { ...body, coDriverId: d.id })).json(), 400, { coDriverId: 'The co-driver must be another driver' });
    expectFieldErrors((await header(d.id, logId, { ...body, coDriverId: '00000000-0000-4000-8000-000000000000' })).json(), 400, {
      coDriverId: 'Co-driver must be an active driver of the organization',
    });
    expectFieldErrors((await header(d.id, logId, { ...body, trailerIds: ['T-1'], shippingDocuments: [''] })).json(), 400, {
      'trailerIds.0': 'Trailer must be a trailer id',
      'shippingDocuments.0': 'Shipping document must not be empty',
    });
    expectFieldErrors((await header(d.id, logId, { shippingDocuments: [] })).json(), 400, { trailerIds: 'Trailers', coDriverId: 'Co-driver' });
    expect((await header(d.id, logId, body, a.dispatcher)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/v1/organizations/${a.otherOrgId}/drivers/${d.id}/hos_log/${logId}`, headers: a.other, payload: body }))
        .statusCode,
    ).toBe(404);
    expect((await header(co.id, logId, body)).statusCode).toBe(404);
    // Nothing was changed by the refused requests.
    const still = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${logId}`), headers: a.admin })).json());
    expect(still.header.shippingDocuments).toEqual(['BL-20441', 'PO 7781']);
  });
});

describe('the API document', () => {
  it('documents every HoS path with its parameters, body and answers', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string }>; requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    const base = '/api/v1/organizations/{orgId}';
    const expected: Array<[string, string, string[], string]> = [
      ['post', '/drivers/{driverId}/hos_log/{logId}/hos_event', ['orgId', 'driverId', 'logId'], '201'],
      ['post', '/users/{userId}/hos_log/{logId}/hos_event', ['orgId', 'userId', 'logId'], '201'],
      ['get', '/drivers/{driverId}/hos_log/current-day', ['orgId', 'driverId'], '200'],
      ['get', '/users/{userId}/hos_log/current-day', ['orgId', 'userId'], '200'],
      ['get', '/drivers/{driverId}/hos_log/hos-logs-for-period', ['orgId', 'driverId', 'from', 'to'], '200'],
      ['get', '/users/{userId}/hos_log/hos-logs-for-period', ['orgId', 'userId', 'from', 'to'], '200'],
      ['get', '/users/{userId}/hos_log/{logId}/hos_event/{eventId}', ['orgId', 'userId', 'logId', 'eventId'], '200'],
      ['put', '/users/{userId}/hos_log/{logId}/hos_event/{eventId}', ['orgId', 'userId', 'logId', 'eventId'], '200'],
      ['put', '/drivers/{driverId}/hos_log/{logId}', ['orgId', 'driverId', 'logId'], '200'],
      ['put', '/drivers/{driverId}/hos_log/{logId}/deferral', ['orgId', 'driverId', 'logId'], '200'],
    ];
    for (const [method, path, params, ok] of expected) {
      const op = doc.paths[`${base}${path}`]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op!.parameters?.map((p) => p.name).sort(), path).toEqual([...params].sort());
      expect(Object.keys(op!.responses).sort(), path).toEqual([ok, '400', '401', '403', '404'].sort());
      expect(op!.requestBody !== undefined, path).toBe(method !== 'get');
    }
  });
});
