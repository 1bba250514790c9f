import { describe, expect, it } from 'vitest';
import {
  addYears,
  calendarDayIn,
  complianceCalendarQuery,
  complianceChecklist,
  complianceDueDate,
  complianceItemCreateSchema,
  complianceStatus,
  daysBetween,
  driverWarnings,
  worstStatus,
  type ChecklistItem,
} from './compliance.ts';

const TODAY = '2026-11-30';
const med = (expiresOn: string) => ({ kind: 'MEDICAL_CERTIFICATE' as const, issuedOn: null, expiresOn });

describe('complianceStatus at the boundaries', () => {
  it('is EXPIRING on the due date itself and EXPIRED from the day after', () => {
    expect(complianceStatus(med('2026-11-30'), TODAY)).toEqual({ status: 'EXPIRING', dueDate: '2026-11-30', daysLeft: 0 });
    expect(complianceStatus(med('2026-11-29'), TODAY)).toEqual({ status: 'EXPIRED', dueDate: '2026-11-29', daysLeft: -1 });
  });

  it('is EXPIRING 30 days before the due date and VALID 31 days before', () => {
    expect(complianceStatus(med('2026-12-30'), TODAY).status).toBe('EXPIRING');
    expect(complianceStatus(med('2026-12-31'), TODAY)).toEqual({ status: 'VALID', dueDate: '2026-12-31', daysLeft: 31 });
  });

  it('takes the organization setting for how many days before counts as expiring', () => {
    expect(complianceStatus(med('2027-01-29'), TODAY, 60).status).toBe('EXPIRING');
    expect(complianceStatus(med('2026-12-07'), TODAY, 7).status).toBe('EXPIRING');
    expect(complianceStatus(med('2026-12-08'), TODAY, 7).status).toBe('VALID');
  });

  it('gives the annual kinds a due date a year after issuedOn, the same calendar date', () => {
    expect(complianceDueDate({ kind: 'MVR', issuedOn: '2025-12-01', expiresOn: null })).toBe('2026-12-01');
    expect(complianceDueDate({ kind: 'ANNUAL_INSPECTION', issuedOn: '2024-02-29', expiresOn: null })).toBe('2025-02-28');
    expect(complianceDueDate({ kind: 'ROAD_TEST', issuedOn: '2020-01-01', expiresOn: null })).toBeNull();
    expect(complianceDueDate({ kind: 'MVR', issuedOn: '2025-12-01', expiresOn: '2026-06-01' })).toBe('2026-06-01');
    expect(complianceStatus({ kind: 'ROAD_TEST', issuedOn: '2010-01-01', expiresOn: null }, TODAY)).toEqual({ status: 'VALID', dueDate: null, daysLeft: null });
  });

  it('calls a failed annual inspection EXPIRED whatever its date', () => {
    expect(complianceStatus({ kind: 'ANNUAL_INSPECTION', issuedOn: '2026-11-01', expiresOn: null, result: 'FAIL' }, TODAY).status).toBe('EXPIRED');
    expect(complianceStatus({ kind: 'ANNUAL_INSPECTION', issuedOn: '2026-11-01', expiresOn: null, result: 'PASS' }, TODAY).status).toBe('VALID');
  });
});

describe('dates', () => {
  it('counts days across a month and a year', () => {
    expect(daysBetween('2026-11-30', '2027-01-01')).toBe(32);
    expect(daysBetween('2026-03-08', '2026-03-09')).toBe(1);
    expect(addYears('2026-11-30')).toBe('2027-11-30');
  });

  it("reads today in the organization's zone", () => {
    const instant = Date.parse('2026-12-01T03:00:00Z');
    expect(calendarDayIn(instant, 'America/Chicago')).toBe('2026-11-30');
    expect(calendarDayIn(instant, 'Europe/Paris')).toBe('2026-12-01');
  });
});

let n = 0;
const item = (over: Partial<ChecklistItem> & Pick<ChecklistItem, 'kind'>): ChecklistItem => ({
  id: `i${++n}`,
  approval: 'APPROVED',
  issuedOn: '2026-06-01',
  expiresOn: null,
  createdAt: `2026-06-01T00:00:${String(n).padStart(2, '0')}Z`,
  ...over,
});

describe('complianceChecklist', () => {
  const full = [
    item({ kind: 'CDL', expiresOn: '2029-01-01' }),
    item({ kind: 'MEDICAL_CERTIFICATE', expiresOn: '2027-06-01' }),
    item({ kind: 'MVR' }),
    item({ kind: 'ANNUAL_REVIEW' }),
    item({ kind: 'ROAD_TEST' }),
    item({ kind: 'EMPLOYMENT_APPLICATION' }),
    item({ kind: 'EMPLOYER_INQUIRY' }),
    item({ kind: 'CLEARINGHOUSE_FULL' }),
  ];

  it('marks each required kind without an approved item MISSING; pending items do not count', () => {
    const rows = complianceChecklist('DRIVER', [item({ kind: 'CDL', expiresOn: '2029-01-01', approval: 'PENDING' })], TODAY);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([
      ['CDL', 'MISSING'],
      ['MEDICAL_CERTIFICATE', 'MISSING'],
      ['MVR', 'MISSING'],
      ['ANNUAL_REVIEW', 'MISSING'],
      ['ROAD_TEST', 'MISSING'],
      ['EMPLOYMENT_APPLICATION', 'MISSING'],
      ['EMPLOYER_INQUIRY', 'MISSING'],
      ['CLEARINGHOUSE_FULL', 'MISSING'],
    ]);
  });

  it('takes the newest approved item of a kind as the current one', () => {
    const old = item({ kind: 'MEDICAL_CERTIFICATE', issuedOn: '2024-01-01', expiresOn: '2025-01-01' });
    const rows = complianceChecklist('DRIVER', [...full, old], TODAY);
    const medical = rows.find((r) => r.kind === 'MEDICAL_CERTIFICATE');
    expect(medical?.current?.expiresOn).toBe('2027-06-01');
    expect(worstStatus(rows.map((r) => r.status))).toBe('VALID');
  });

  it('keeps every employer inquiry as a row of its own', () => {
    const rows = complianceChecklist('DRIVER', [...full, item({ kind: 'EMPLOYER_INQUIRY', issuedOn: '2026-05-01' })], TODAY);
    expect(rows.filter((r) => r.kind === 'EMPLOYER_INQUIRY')).toHaveLength(2);
  });

  it('asks for the limited Clearinghouse query a year after the latest query, MISSING once that year is over', () => {
    const fresh = complianceChecklist('DRIVER', full, TODAY).find((r) => r.kind === 'CLEARINGHOUSE_LIMITED');
    expect(fresh).toMatchObject({ status: 'VALID', dueDate: '2027-06-01', current: null });
    const oldFull = full.map((i) => (i.kind === 'CLEARINGHOUSE_FULL' ? { ...i, issuedOn: '2025-11-01' } : i));
    expect(complianceChecklist('DRIVER', oldFull, TODAY).find((r) => r.kind === 'CLEARINGHOUSE_LIMITED')).toMatchObject({
      status: 'MISSING',
      dueDate: '2026-11-01',
    });
    const limited = item({ kind: 'CLEARINGHOUSE_LIMITED', issuedOn: '2026-11-02' });
    expect(complianceChecklist('DRIVER', [...oldFull, limited], TODAY).find((r) => r.kind === 'CLEARINGHOUSE_LIMITED')).toMatchObject({
      status: 'VALID',
      dueDate: '2027-11-02',
    });
    expect(complianceChecklist('DRIVER', [], TODAY).some((r) => r.kind === 'CLEARINGHOUSE_LIMITED')).toBe(false);
  });

  it('requires registration and annual inspection of a trailer, and insurance of a vehicle only', () => {
    expect(complianceChecklist('TRAILER', [], TODAY).map((r) => r.kind)).toEqual(['REGISTRATION', 'ANNUAL_INSPECTION']);
    expect(complianceChecklist('VEHICLE', [], TODAY).map((r) => r.kind)).toEqual(['REGISTRATION', 'INSURANCE', 'ANNUAL_INSPECTION']);
  });

  it('warns the driver of a medical certificate due within 7 days, not 8', () => {
    const soon = (d: string) => full.map((i) => (i.kind === 'MEDICAL_CERTIFICATE' ? { ...i, expiresOn: d } : i));
    expect(driverWarnings(complianceChecklist('DRIVER', soon('2026-12-07'), TODAY)).map((r) => r.kind)).toEqual(['MEDICAL_CERTIFICATE']);
    expect(driverWarnings(complianceChecklist('DRIVER', soon('2026-12-08'), TODAY))).toEqual([]);
  });
});

describe('schemas', () => {
  it('names each field a kind requires', () => {
    const r = complianceItemCreateSchema.safeParse({ kind: 'CDL' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['number', 'state', 'expiresOn']);
    const dates = complianceItemCreateSchema.safeParse({ kind: 'MEDICAL_CERTIFICATE', issuedOn: '2026-05-01', expiresOn: '2026-04-01' });
    expect(dates.error?.issues.map((i) => i.path.join('.'))).toEqual(['expiresOn']);
    expect(complianceItemCreateSchema.parse({ kind: 'MEDICAL_CERTIFICATE', expiresOn: '2027-05-01' })).toMatchObject({
      failedItems: [],
      imageIds: [],
      number: null,
    });
  });

  it('defaults the calendar to what needs doing and reads comma lists', () => {
    expect(complianceCalendarQuery.parse({}).status).toEqual(['EXPIRING', 'EXPIRED', 'MISSING']);
    expect(complianceCalendarQuery.parse({ status: 'VALID', kind: 'CDL,MVR' })).toMatchObject({ status: ['VALID'], kind: ['CDL', 'MVR'] });
    expect(complianceCalendarQuery.safeParse({ status: 'LATE' }).success).toBe(false);
  });
});
