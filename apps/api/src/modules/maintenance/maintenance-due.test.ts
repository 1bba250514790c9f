import { describe, expect, it } from 'vitest';
import { compareDue, maintenanceDue } from './maintenance-due.ts';

const DAY = 86_400_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const none = { everyM: null, everyEngineHours: null, everyDays: null };
const last = { doneAt: T0, odometerM: 100_000_000, engineHours: 5_000 };
const read = (odometerM: number | null = null, engineHours: number | null = null) => ({ odometerM, engineHours });

describe('maintenanceDue', () => {
  it('days: not due before the last tenth, DUE within it and on the day itself, OVERDUE after', () => {
    const s = { ...none, everyDays: 100 };
    expect(maintenanceDue(s, last, read(), T0 + 89 * DAY)).toMatchObject({ status: null, dueAt: T0 + 100 * DAY, dueOdometerM: null, dueEngineHours: null });
    expect(maintenanceDue(s, last, read(), T0 + 90 * DAY).status).toBe('DUE');
    expect(maintenanceDue(s, last, read(), T0 + 100 * DAY)).toMatchObject({ status: 'DUE', remaining: 0 });
    expect(maintenanceDue(s, last, read(), T0 + 100 * DAY + 1).status).toBe('OVERDUE');
  });

  it('distance: from the last service odometer, with the same window', () => {
    const s = { ...none, everyM: 40_000_000 };
    expect(maintenanceDue(s, last, read(135_000_000), T0)).toMatchObject({ status: null, dueOdometerM: 140_000_000 });
    expect(maintenanceDue(s, last, read(136_000_000), T0).status).toBe('DUE');
    expect(maintenanceDue(s, last, read(140_000_000), T0).status).toBe('DUE');
    expect(maintenanceDue(s, last, read(140_000_001), T0).status).toBe('OVERDUE');
  });

  it('engine hours: likewise', () => {
    const s = { ...none, everyEngineHours: 500 };
    expect(maintenanceDue(s, last, read(null, 5_449), T0)).toMatchObject({ status: null, dueEngineHours: 5_500 });
    expect(maintenanceDue(s, last, read(null, 5_450), T0).status).toBe('DUE');
    expect(maintenanceDue(s, last, read(null, 5_501), T0).status).toBe('OVERDUE');
  });

  it('takes the most urgent interval of several, and says when each comes due', () => {
    const s = { everyM: 40_000_000, everyEngineHours: 500, everyDays: 100 };
    const state = maintenanceDue(s, last, read(110_000_000, 5_100), T0 + 101 * DAY);
    expect(state).toMatchObject({ status: 'OVERDUE', dueAt: T0 + 100 * DAY, dueOdometerM: 140_000_000, dueEngineHours: 5_500 });
    expect(state.remaining).toBeCloseTo(-0.01);
    expect(maintenanceDue(s, last, read(138_000_000, 5_100), T0 + 10 * DAY)).toMatchObject({ status: 'DUE', remaining: 0.05 });
  });

  it('says nothing of a meter never read, or read at the service but not now', () => {
    const s = { ...none, everyM: 40_000_000, everyEngineHours: 500 };
    expect(maintenanceDue(s, { doneAt: T0, odometerM: null, engineHours: null }, read(999_000_000, 99_999), T0)).toMatchObject({
      status: null,
      dueOdometerM: null,
      dueEngineHours: null,
    });
    expect(maintenanceDue(s, last, read(null, null), T0)).toMatchObject({
      status: null,
      dueOdometerM: 140_000_000,
      dueEngineHours: 5_500,
      remaining: Number.POSITIVE_INFINITY,
    });
  });

  it('orders overdue first, then the least left, then unit numbers as people count them', () => {
    const lines = [
      { status: 'DUE' as const, remaining: 0.02, unitNumber: '120' },
      { status: 'OVERDUE' as const, remaining: -0.01, unitNumber: '110' },
      { status: 'DUE' as const, remaining: 0.02, unitNumber: '99' },
      { status: 'OVERDUE' as const, remaining: -0.5, unitNumber: '130' },
      { status: 'DUE' as const, remaining: 0, unitNumber: '140' },
    ];
    expect([...lines].sort(compareDue).map((l) => l.unitNumber)).toEqual(['130', '110', '140', '99', '120']);
  });
});
