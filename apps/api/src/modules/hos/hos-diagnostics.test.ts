import { describe, expect, it } from 'vitest';
import {
  drivingWithin,
  drivingWithoutEngineData,
  drivingWithoutPosition,
  drivingWithoutPositionInRuns,
  engineFixFacts,
  evaluateVehicle,
  fixRuns,
  pairsOf,
  POSITION_EVERY_MS,
  totalWithin,
  transitionCode,
  transitions,
  unrecordedDriving,
  type EngineFacts,
  type EngineFix,
  type Interval,
  type VehicleFacts,
} from './hos-diagnostics.ts';
import { seededRandom } from '../../lib/seeded-random.ts';

const MIN = 60_000;
const H = 60 * MIN;
const NOW = Date.parse('2026-06-08T18:00:00Z');

const facts = (over: Partial<VehicleFacts> = {}): VehicleFacts => ({
  now: NOW,
  driving: [],
  unidentified: [],
  lastFixAt: NOW,
  onDutySince: null,
  active: new Set(),
  fixRuns: [],
  ...over,
});
const verdict = (f: VehicleFacts, code: string) => evaluateVehicle(f).find((v) => v.code === code)!;
/** A fix every `everyMin` minutes over [from, to). */
const fixesEvery = (from: number, to: number, everyMin: number) =>
  Array.from({ length: Math.ceil((to - from) / (everyMin * MIN)) }, (_, i) => from + i * everyMin * MIN);

describe('positioning compliance (L): driving without a valid position', () => {
  it('counts nothing while a fix comes at least every 5 minutes', () => {
    const from = NOW - 3 * H;
    expect(drivingWithoutPosition([[from, NOW - H]], fixesEvery(from, NOW - H, 1), NOW - 24 * H, NOW)).toBe(0);
    expect(drivingWithoutPosition([[from, NOW - H]], fixesEvery(from, NOW - H, 5), NOW - 24 * H, NOW)).toBe(0);
  });

  it('counts each gap beyond its first 5 minutes, the tail after the last fix too, only inside driving and the 24 hours', () => {
    const s = NOW - 4 * H;
    // Fixes for the first hour, then nothing for the last 2 hours of a 3-hour drive: 2 h - 5 min missing.
    expect(drivingWithoutPosition([[s, s + 3 * H]], fixesEvery(s, s + H, 1), NOW - 24 * H, NOW)).toBe(2 * H - 5 * MIN + MIN);
    // A 21-minute gap between two fixes in the middle: 16 minutes missing.
    const fixes = [...fixesEvery(s, s + H, 1), ...fixesEvery(s + H + 20 * MIN, s + 2 * H, 1)];
    expect(drivingWithoutPosition([[s, s + 2 * H]], fixes, NOW - 24 * H, NOW)).toBe(16 * MIN);
    // Not driving: nothing counts, however long the silence.
    expect(drivingWithoutPosition([], [], NOW - 24 * H, NOW)).toBe(0);
    // Driving that ended more than 24 hours ago is outside the window.
    expect(drivingWithoutPosition([[NOW - 30 * H, NOW - 26 * H]], [], NOW - 24 * H, NOW)).toBe(0);
  });

  it('logs the malfunction above 60 minutes in 24 hours and clears it at 60 or less', () => {
    const s = NOW - 5 * H;
    const long = facts({ driving: [[s, s + 2 * H]], fixRuns: fixRuns([s]) });
    expect(verdict(long, 'L')).toMatchObject({ active: true });
    expect(verdict(long, 'L').detail).toContain('115 min of driving without a valid position');
    const short = facts({ driving: [[s, s + 65 * MIN]], fixRuns: fixRuns([s]) });
    expect(verdict(short, 'L').active).toBe(false);
    expect(transitions(evaluateVehicle(long), new Set())).toEqual([expect.objectContaining({ code: 'L', eventCode: 1 })]);
    expect(transitions(evaluateVehicle(short), new Set(['L']))).toEqual([expect.objectContaining({ code: 'L', eventCode: 2 })]);
  });
});

describe('power data diagnostic (1): the device silent while the driver is on duty', () => {
  it('logs after 30 minutes of silence with the driver on duty or driving, not while off duty', () => {
    expect(verdict(facts({ onDutySince: NOW - 2 * H, lastFixAt: NOW - 31 * MIN }), '1').active).toBe(true);
    expect(verdict(facts({ onDutySince: NOW - 2 * H, lastFixAt: NOW - 29 * MIN }), '1').active).toBe(false);
    expect(verdict(facts({ onDutySince: null, lastFixAt: NOW - 10 * H }), '1').active).toBe(false);
    // Silence that began before the driver came on duty counts from the start of duty.
    expect(verdict(facts({ onDutySince: NOW - 20 * MIN, lastFixAt: NOW - 10 * H }), '1').active).toBe(false);
    expect(verdict(facts({ onDutySince: NOW - 40 * MIN, lastFixAt: null }), '1').active).toBe(true);
  });
});

describe('unidentified driving records data diagnostic (5)', () => {
  it('logs above 30 minutes in 24 hours and clears only at 15 minutes or less in 8 days (4.6.1.6)', () => {
    const drive = (startH: number, minutes: number) => [NOW - startH * H, NOW - startH * H + minutes * MIN] as const;
    expect(verdict(facts({ unidentified: [drive(3, 31)] }), '5').active).toBe(true);
    expect(verdict(facts({ unidentified: [drive(3, 30)] }), '5').active).toBe(false);
    // 40 minutes two days ago: not logged now (not in the 24 hours) ...
    expect(verdict(facts({ unidentified: [drive(48, 40)] }), '5').active).toBe(false);
    // ... but kept in force when it was logged, until the 8 days hold 15 minutes or less.
    expect(verdict(facts({ unidentified: [drive(48, 40)], active: new Set(['5']) }), '5').active).toBe(true);
    expect(verdict(facts({ unidentified: [drive(48, 10)], active: new Set(['5']) }), '5').active).toBe(false);
    expect(verdict(facts({ unidentified: [drive(9 * 24, 300)], active: new Set(['5']) }), '5').active).toBe(false);
  });

  it('sums intervals clipped to the window', () => {
    expect(
      totalWithin(
        [
          [NOW - 2 * H, NOW + H],
          [NOW - 30 * H, NOW - 23 * H],
        ],
        NOW - 24 * H,
        NOW,
      ),
    ).toBe(2 * H + H);
  });
});

describe('event codes (Table 6, type 7)', () => {
  it('malfunctions log 1 and clear 2, data diagnostics log 3 and clear 4', () => {
    expect([transitionCode('L', true), transitionCode('L', false), transitionCode('5', true), transitionCode('1', false)]).toEqual([1, 2, 3, 4]);
  });
});

describe('checks that need the engine (P, 1, E, 2, 3, T; decision 0155)', () => {
  /** A fix every minute over [from, to), moving east at about 60 mph (0.0215 degrees a minute at 40 N). */
  const drive = (from: number, to: number, over: Partial<EngineFix> = {}): EngineFix[] =>
    Array.from({ length: Math.round((to - from) / MIN) }, (_, i) => ({
      time: from + i * MIN,
      lat: 40,
      lon: -100 + ((from - (NOW - 24 * H)) / MIN + i) * 0.0215,
      ignition: true,
      engineData: true,
      ...over,
    }));
  const engine = (over: Partial<EngineFacts> & { fixes?: EngineFix[] } = {}): EngineFacts => {
    const { fixes = [], ...rest } = over;
    return { ...engineFixFacts(fixes, NOW), incompleteRecords: [], clockLagMs: 0, ...rest };
  };

  it('only a vehicle with engine data gets the engine checks', () => {
    expect(evaluateVehicle(facts()).map((v) => v.code)).toEqual(['L', '1', '5']);
    expect(evaluateVehicle(facts({ engine: engine() })).map((v) => v.code)).toEqual(['L', '1', '5', 'P', 'E', '2', '3', 'T']);
  });

  it('P: a silence with the engine on while the vehicle moved is unrecorded driving; 30 minutes in 24 hours logs it', () => {
    const s = NOW - 5 * H;
    // One minute fixes, a 40-minute silence with the engine on, then fixes 40 minutes further east.
    const before = drive(s, s + 30 * MIN);
    const after = drive(s + 70 * MIN, s + 90 * MIN);
    const fixes = [...before, ...after];
    expect(unrecordedDriving(pairsOf(fixes), NOW - 24 * H, NOW)).toBe(41 * MIN - 5 * MIN);
    expect(verdict(facts({ engine: engine({ fixes }) }), 'P').active).toBe(true);
    // The same silence with the ignition off at its start (parked, then towed): nothing unrecorded.
    const parked = [...before.slice(0, -1), { ...before.at(-1)!, ignition: false }, ...after];
    expect(unrecordedDriving(pairsOf(parked), NOW - 24 * H, NOW)).toBe(0);
    // Standing still through the silence: not driving.
    const still = [...before, ...after.map((f) => ({ ...f, lon: before.at(-1)!.lon }))];
    expect(unrecordedDriving(pairsOf(still), NOW - 24 * H, NOW)).toBe(0);
    // 20 minutes: below the limit.
    expect(verdict(facts({ engine: engine({ fixes: [...before, ...drive(s + 50 * MIN, s + 60 * MIN)] }) }), 'P').active).toBe(false);
  });

  it('1: a device whose last fix said the engine was off is asleep, not unpowered', () => {
    const onDuty = { onDutySince: NOW - 3 * H, lastFixAt: NOW - 2 * H };
    expect(verdict(facts({ ...onDuty, engine: engine({ fixes: drive(NOW - 2 * H - 10 * MIN, NOW - 2 * H) }) }), '1').active).toBe(true);
    expect(verdict(facts({ ...onDuty, engine: engine({ fixes: drive(NOW - 2 * H - 10 * MIN, NOW - 2 * H, { ignition: false }) }) }), '1').active).toBe(false);
  });

  it("E and 2: driving without the engine's odometer and hours", () => {
    const s = NOW - 3 * H;
    const fixes = [...drive(s, s + 20 * MIN), ...drive(s + 20 * MIN, s + 60 * MIN, { engineData: false }), ...drive(s + 60 * MIN, s + 90 * MIN)];
    expect(drivingWithoutEngineData([[s, s + 90 * MIN]], fixes, NOW - 24 * H, NOW)).toBe(40 * MIN);
    const f = facts({ driving: [[s, s + 90 * MIN]], engine: engine({ fixes }) });
    expect(verdict(f, 'E')).toMatchObject({ active: true, detail: expect.stringContaining('40 min') });
    // The data came back: the diagnostic clears; the malfunction stays for the 24 hours.
    expect(verdict(f, '2').active).toBe(false);
    const lost = facts({
      driving: [[s, s + 25 * MIN]],
      engine: engine({ fixes: [...drive(s, s + 20 * MIN), ...drive(s + 20 * MIN, s + 25 * MIN, { engineData: false })] }),
    });
    expect(verdict(lost, '2').active).toBe(true);
    expect(verdict(lost, 'E').active).toBe(false);
  });

  it('3: a record of the last 24 hours without a required element', () => {
    expect(verdict(facts({ engine: engine({ incompleteRecords: [NOW - H] }) }), '3').active).toBe(true);
    expect(verdict(facts({ engine: engine({ incompleteRecords: [NOW - 25 * H] }) }), '3').active).toBe(false);
  });

  it('T: the clock more than 10 minutes off; without a live fix the state in force stays', () => {
    expect(verdict(facts({ engine: engine({ clockLagMs: 11 * MIN }) }), 'T').active).toBe(true);
    expect(verdict(facts({ engine: engine({ clockLagMs: 2 * MIN }) }), 'T').active).toBe(false);
    expect(verdict(facts({ active: new Set(['T']), engine: engine({ clockLagMs: null }) }), 'T').active).toBe(true);
    expect(transitionCode('T', true)).toBe(1);
    expect(transitionCode('2', true)).toBe(3);
  });
});

describe('the compact facts the database computes give the plain answers (random input)', () => {
  /** Sorted fix times over the 36 hours before NOW: dense stretches, silences of every length, gaps of exactly 5 minutes. */
  const randomFixes = (r: () => number): EngineFix[] => {
    const out: EngineFix[] = [];
    let t = NOW - 36 * H + Math.floor(r() * H);
    let lon = -100;
    while (t <= NOW) {
      const ignition = r() < 0.1 ? (r() < 0.5 ? null : false) : true;
      out.push({ time: t, lat: 40, lon, ignition, engineData: r() < 0.8 });
      const roll = r();
      const step = roll < 0.6 ? Math.floor(r() * 60_000) + 1000 : roll < 0.7 ? POSITION_EVERY_MS : roll < 0.8 ? 0 : Math.floor(r() * 3 * H);
      lon += r() < 0.5 ? (step / H) * 1.2 : 0;
      t += step;
    }
    return out;
  };
  const randomDriving = (r: () => number): Interval[] =>
    Array.from({ length: Math.floor(r() * 6) }, () => {
      const s = NOW - 40 * H + Math.floor(r() * 42 * H);
      return [s, s + Math.floor(r() * 8 * H)] as const;
    });

  it('positioning: the runs of the fixes count what every fix counts', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const r = seededRandom(seed);
      const times = randomFixes(r).map((f) => f.time);
      const driving = randomDriving(r);
      // Drives that start on a fix, 5 minutes after one, and inside a run.
      if (times.length > 2) driving.push([times[1]!, times[1]! + H], [times[0]! + POSITION_EVERY_MS, times.at(-1)!], [times[0]! + 1, times[0]! + 2 * H]);
      const runs = fixRuns(times);
      const plain = drivingWithoutPosition(driving, times, NOW - 24 * H, NOW);
      expect(drivingWithoutPositionInRuns(driving, runs, NOW - 24 * H, NOW), `seed ${seed}`).toBe(plain);
      // The job reads only the fixes after 5 minutes before the window: the same answer.
      expect(drivingWithoutPositionInRuns(driving, fixRuns(times.filter((x) => x > NOW - 24 * H - POSITION_EVERY_MS)), NOW - 24 * H, NOW), `seed ${seed}`).toBe(
        plain,
      );
    }
  });

  it('engine: silences and spans without data count what every fix counts', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const r = seededRandom(seed);
      const fixes = randomFixes(r);
      const driving = randomDriving(r);
      const compact = engineFixFacts(fixes, NOW);
      expect(unrecordedDriving(compact.silences, NOW - 24 * H, NOW), `seed ${seed}`).toBe(unrecordedDriving(pairsOf(fixes), NOW - 24 * H, NOW));
      expect(drivingWithin(driving, compact.withoutData, NOW - 24 * H, NOW), `seed ${seed}`).toBe(drivingWithoutEngineData(driving, fixes, NOW - 24 * H, NOW));
    }
  });
});
