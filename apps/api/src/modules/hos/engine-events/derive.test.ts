import { describe, expect, it } from 'vitest';
import { engineChanges, engineCode, powerUpBefore, sincePowerUp, type IgnitionFix } from './derive.ts';

const fix = (time: number, ignition: boolean | null): IgnitionFix => ({
  time,
  ignition,
  lat: 41.8,
  lon: -87.9,
  odometerM: time * 1000,
  engineHours: time / 60,
  driverId: 'd1',
});
const brief = (r: ReturnType<typeof engineChanges>) => r.changes.map((c) => `${c.on ? 'up' : 'down'}@${c.time}`);

describe('engine changes from the ignition (decision 0155)', () => {
  it('records each change once, at the first fix that shows it', () => {
    const r = engineChanges(false, [fix(1, false), fix(2, true), fix(3, true), fix(4, null), fix(5, false), fix(6, true)], []);
    expect(brief(r)).toEqual(['up@2', 'down@5', 'up@6']);
    expect(r.state).toBe(true);
    expect(r.changes[0]!.fix.odometerM).toBe(2000);
  });

  it('an unknown state that turns out on is a power-up, one that turns out off is nothing', () => {
    expect(brief(engineChanges(null, [fix(1, null), fix(2, true)], []))).toEqual(['up@2']);
    expect(brief(engineChanges(null, [fix(1, false), fix(2, false)], []))).toEqual([]);
  });

  it('never records a change twice: reconciling what is stored writes nothing more (a restart)', () => {
    const fixes = [fix(1, true), fix(2, false), fix(3, true)];
    const first = engineChanges(false, fixes, []);
    const stored = first.changes.map((c) => ({ time: c.time, on: c.on }));
    expect(brief(engineChanges(false, fixes, stored))).toEqual([]);
  });

  it('a late fix that shows a change earlier than its record does not record it again', () => {
    // Stored: up at 10 (from the fix at 10); the late fix at 7 already had the engine on.
    expect(brief(engineChanges(false, [fix(7, true), fix(10, true)], [{ time: 10, on: true }]))).toEqual([]);
  });

  it('a late fix inside a stretch records the cycle it shows', () => {
    // Engine on from 10 to 20 as recorded; a late fix at 15 says off, the next at 16 on again.
    const r = engineChanges(
      false,
      [fix(10, true), fix(15, false), fix(16, true), fix(20, false)],
      [
        { time: 10, on: true },
        { time: 20, on: false },
      ],
    );
    expect(brief(r)).toEqual(['down@15', 'up@16']);
  });

  it('codes: 1/3 conventional, 2/4 reduced precision in personal conveyance', () => {
    expect([engineCode(true, false), engineCode(true, true), engineCode(false, false), engineCode(false, true)]).toEqual([1, 2, 3, 4]);
  });
});

describe('miles and engine hours since the power-up (decision 0155)', () => {
  const powerUp = { time: 0, odometerM: 100_000_000, engineHours: 4000.2 };
  it('whole miles and tenths of hours, rounded down', () => {
    expect(sincePowerUp(powerUp, 100_000_000 + 1609.344 * 12.9, 4003.1)).toEqual({ miles: 12, hours: 2.9 });
  });
  it('capped at the format limits and null without totals', () => {
    expect(sincePowerUp(powerUp, 100_000_000 + 1609.344 * 20_000, 4200)).toEqual({ miles: 9999, hours: 99.9 });
    expect(sincePowerUp(powerUp, null, null)).toEqual({ miles: null, hours: null });
    expect(sincePowerUp(null, 1, 1)).toEqual({ miles: null, hours: null });
  });
  it('counts from the last power-up at or before the record', () => {
    const events = [
      { time: 1, code: 1, odometerM: 1, engineHours: 1 },
      { time: 5, code: 3, odometerM: 5, engineHours: 5 },
      { time: 8, code: 2, odometerM: 8, engineHours: 8 },
    ];
    expect(powerUpBefore(events, 7)?.time).toBe(1);
    expect(powerUpBefore(events, 8)?.time).toBe(8);
    expect(powerUpBefore(events, 0)).toBeNull();
  });
});
