import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankFuelTrack, stepFuel, type FuelEventDraft, type FuelFix } from './fuel-level-machine.ts';
import { detectFuelEventsReference } from './fuel-level.reference.ts';

// The fuel-level machine (decision 0276) on traces a truck's sensor gives: a refuel at a stop, one
// confirmed as the truck drives off, a night-time drop with the ignition off; nothing from sloshing on
// grades, a noisy or spiking sensor, idling or a slow leak; and the machine equal to the plain
// reference and to a replay from any moving fix.

const CTX = { capacityL: 1000 };
const T0 = Date.UTC(2026, 7, 4, 6, 0);
const MIN = 60_000;

interface Segment {
  minutes: number;
  /** km/h; 0 stands. */
  speed: number;
  ignition?: boolean | null;
  /** The level at minute i of the segment (percent), or null for no reading. */
  level: (i: number) => number | null;
  /** Seconds between fixes (default 60). */
  everyS?: number;
  litres?: boolean;
}

/** Fixes of a truck driving north and standing, segment after segment. */
function trace(segments: readonly Segment[], start = T0): FuelFix[] {
  const out: FuelFix[] = [];
  let t = start;
  let lat = 41.5;
  for (const s of segments) {
    const step = (s.everyS ?? 60) * 1000;
    for (let k = 0; k * step < s.minutes * MIN; k++) {
      t += step;
      lat += ((s.speed / 3.6) * (step / 1000)) / 111_320;
      const level = s.level((k * step) / MIN);
      out.push({
        t,
        lat,
        lon: -88.1,
        speed: s.speed,
        ignition: s.ignition === undefined ? true : s.ignition,
        driverId: 'd1',
        levelPct: s.litres || level === null ? null : level,
        levelL: s.litres && level !== null ? (level * CTX.capacityL) / 100 : null,
      });
    }
  }
  return out;
}

function run(fixes: readonly FuelFix[]): FuelEventDraft[] {
  const track = blankFuelTrack();
  return fixes.flatMap((f) => stepFuel(track, f, CTX));
}

/** Sloshing while driving: the level reads up to `amp` off, changing every few seconds. */
const slosh = (level: number, amp: number) => (i: number) => level + amp * Math.sin(i * 2.3) * Math.cos(i * 0.7);
/** A fixed, repeatable jitter of ±`amp`. */
const jitter = (amp: number) => (i: number) => amp * Math.sin(i * 12.9898 + 78.233);

describe('refuels', () => {
  it('a rise of 40 % while the truck stands is one refuel, from the level before to the level it held', () => {
    const fixes = trace([
      { minutes: 30, speed: 90, level: slosh(40, 6) },
      { minutes: 4, speed: 0, level: () => 40 },
      // The pump: 5 % a minute for 8 minutes, then the truck stands while the driver pays.
      { minutes: 8, speed: 0, level: (i) => 40 + 5 * (i + 1) },
      { minutes: 14, speed: 0, level: () => 80 },
      { minutes: 20, speed: 88, level: slosh(79, 6) },
    ]);
    const events = run(fixes);
    expect(events).toHaveLength(1);
    const [e] = events;
    expect(e).toMatchObject({ type: 'REFUEL', levelBeforePct: 40, levelAfterPct: 80, ignitionOff: false, driverId: 'd1' });
    // From the last reading at 40 % (the 4th minute of the stop; the median's lag a minute more) to where it reached 80 %.
    expect(e!.startedAt).toBeGreaterThanOrEqual(T0 + 34 * MIN);
    expect(e!.startedAt).toBeLessThanOrEqual(T0 + 35 * MIN);
    expect(e!.endedAt).toBeGreaterThanOrEqual(T0 + 42 * MIN);
    expect(e!.endedAt).toBeLessThanOrEqual(T0 + 44 * MIN);
    // Where the truck stood.
    expect(e!.lat).toBeCloseTo(fixes[30]!.lat, 6);
  });

  it('a refuel still there when the truck drives off a minute after the pump is confirmed then', () => {
    const events = run(
      trace([
        { minutes: 5, speed: 0, level: () => 22 },
        { minutes: 6, speed: 0, level: (i) => 22 + 8 * (i + 1) },
        { minutes: 1, speed: 0, level: () => 70 },
        { minutes: 10, speed: 80, level: slosh(70, 8) },
      ]),
    );
    expect(events.map((e) => [e.type, e.levelBeforePct, e.levelAfterPct])).toEqual([['REFUEL', 22, 70]]);
  });

  it('reads a level in litres through the tank', () => {
    const events = run(
      trace([
        { minutes: 5, speed: 0, level: () => 30, litres: true },
        { minutes: 5, speed: 0, level: (i) => 30 + 10 * (i + 1), litres: true },
        { minutes: 6, speed: 0, level: () => 80, litres: true },
      ]),
    );
    expect(events.map((e) => [e.type, e.levelBeforePct, e.levelAfterPct])).toEqual([['REFUEL', 30, 80]]);
  });

  it('a fill below 10 % of the tank is no refuel', () => {
    expect(
      run(
        trace([
          { minutes: 5, speed: 0, level: () => 60 },
          { minutes: 3, speed: 0, level: (i) => 60 + 3 * (i + 1) },
          { minutes: 10, speed: 0, level: () => 69 },
        ]),
      ),
    ).toEqual([]);
  });
});

describe('drops', () => {
  it('a fall of 20 % in 15 minutes at night with the ignition off is one drop, a possible theft', () => {
    const night = Date.UTC(2026, 7, 5, 6, 0); // 1 AM in Chicago
    const events = run(
      trace(
        [
          { minutes: 60, speed: 0, ignition: false, level: (i) => 72 + jitter(0.4)(i), everyS: 300 },
          { minutes: 15, speed: 0, ignition: false, level: (i) => 72 - (20 * (i + 1)) / 15 },
          { minutes: 240, speed: 0, ignition: false, level: (i) => 52 + jitter(0.4)(i), everyS: 300 },
        ],
        night,
      ),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'DROP', ignitionOff: true });
    expect(events[0]!.levelBeforePct).toBeCloseTo(72, 0);
    expect(events[0]!.levelAfterPct).toBeCloseTo(52, 0);
    expect(events[0]!.startedAt).toBeLessThanOrEqual(night + 61 * MIN);
    expect(events[0]!.endedAt).toBeGreaterThanOrEqual(night + 70 * MIN);
  });

  it('a slow fall (3 % an hour while idling, or 12 % over two hours) is no drop: not 5 % within 30 minutes', () => {
    expect(run(trace([{ minutes: 120, speed: 0, level: (i) => 80 - i * 0.05 }]))).toEqual([]);
    expect(run(trace([{ minutes: 120, speed: 0, ignition: false, level: (i) => 80 - i * 0.1 }]))).toEqual([]);
  });

  it('a drop and then a cash refuel at the same stop are two events, the refuel measured from after the drop', () => {
    const events = run(
      trace([
        { minutes: 30, speed: 0, ignition: false, level: () => 60 },
        { minutes: 10, speed: 0, ignition: false, level: (i) => 60 - 2 * (i + 1) },
        { minutes: 60, speed: 0, ignition: false, level: () => 40 },
        { minutes: 6, speed: 0, level: (i) => 40 + 8 * (i + 1) },
        { minutes: 10, speed: 0, level: () => 88 },
        { minutes: 10, speed: 90, level: slosh(88, 5) },
      ]),
    );
    expect(events.map((e) => [e.type, e.levelBeforePct, e.levelAfterPct, e.ignitionOff])).toEqual([
      ['DROP', 60, 40, true],
      ['REFUEL', 40, 88, false],
    ]);
  });
});

describe('what is no event', () => {
  it('sloshing on grades: the level swinging 12 % while driving, short stops on a climb and at the crest', () => {
    const fixes = trace([
      // Up a long grade: the sensor reads 10 % low and swings with the road.
      { minutes: 25, speed: 70, level: (i) => 50 - 10 + slosh(0, 12)(i), everyS: 10 },
      // Stopped in traffic on the grade: tilted, steady 10 % low.
      { minutes: 3, speed: 0, level: (i) => 40 + jitter(0.5)(i), everyS: 10 },
      { minutes: 10, speed: 60, level: (i) => 41 + slosh(0, 12)(i), everyS: 10 },
      // At the crest, level again: the fuel surges forward as it brakes, then settles at its true level.
      { minutes: 4, speed: 0, level: (i) => (i < 0.5 ? 62 : 50) + jitter(0.5)(i), everyS: 10 },
      // Down the other side, 10 % high, and a stop at the bottom of the hill.
      { minutes: 20, speed: 85, level: (i) => 60 + slosh(0, 12)(i), everyS: 10 },
      { minutes: 2, speed: 0, level: () => 59, everyS: 10 },
      { minutes: 30, speed: 90, level: slosh(49, 12), everyS: 10 },
    ]);
    expect(run(fixes)).toEqual([]);
    expect(detectFuelEventsReference(fixes, CTX)).toEqual([]);
  });

  it('a noisy sensor and lone spikes while parked for hours', () => {
    const level = (i: number) => {
      const k = Math.round(i);
      if (k % 37 === 5) return 98; // a spike
      if (k % 53 === 11) return 3; // a dip
      return 61 + jitter(1.5)(i);
    };
    expect(run(trace([{ minutes: 600, speed: 0, ignition: false, level }]))).toEqual([]);
  });

  it('two readings in a row 20 % off come back before they are confirmed', () => {
    const level = (i: number) => (i >= 20 && i < 22 ? 35 : 55);
    expect(run(trace([{ minutes: 60, speed: 0, level }]))).toEqual([]);
    const up = (i: number) => (i >= 20 && i < 22 ? 80 : 55);
    expect(run(trace([{ minutes: 60, speed: 0, level: up }]))).toEqual([]);
  });

  it('fixes without a level, or readings that are no level (255 %), give nothing', () => {
    expect(run(trace([{ minutes: 60, speed: 0, level: (i) => (i < 30 ? null : 255) }]))).toEqual([]);
  });
});

// -------------------------------------------------------------------------------------------------
// Random traces: the machine against the plain reference, and a replay from a moving fix.

const segment = fc.record({
  minutes: fc.integer({ min: 1, max: 90 }),
  moving: fc.boolean(),
  ignition: fc.constantFrom(true, false, null),
  base: fc.integer({ min: 0, max: 100 }),
  slope: fc.constantFrom(0, 0, 0.5, -0.5, 4, -3),
  noise: fc.constantFrom(0, 0.5, 2, 8),
  everyS: fc.constantFrom(10, 60, 60, 300),
  litres: fc.boolean(),
  gaps: fc.boolean(),
});

function randomTrace(segs: Array<typeof segment extends fc.Arbitrary<infer T> ? T : never>): FuelFix[] {
  return trace(
    segs.map((s) => ({
      minutes: s.minutes,
      speed: s.moving ? 80 : 0,
      ignition: s.ignition,
      everyS: s.everyS,
      litres: s.litres,
      level: (i: number) =>
        s.gaps && Math.round(i) % 3 === 1 ? null : Math.max(0, Math.min(100, s.base + s.slope * i + s.noise * Math.sin(i * 7.1 + s.base))),
    })),
  );
}

describe('the machine, as the plain reference and as a replay', () => {
  it('gives the reference’s events on any trace', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 12 }), (segs) => {
        const fixes = randomTrace(segs);
        // The reference leaves a stop still under way at the end open: so does the machine (nothing for it yet).
        expect(run(fixes)).toEqual(detectFuelEventsReference(fixes, CTX));
      }),
      { numRuns: Number(process.env.RUNS ?? 150) },
    );
  });

  it('replayed from any moving fix (a blank state), gives the same events after it', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 2, maxLength: 10 }), fc.nat(), (segs, pick) => {
        const fixes = randomTrace(segs);
        const moving = fixes.flatMap((f, i) => (f.speed! > 5 && f.ignition !== false ? [i] : []));
        if (moving.length === 0) return;
        const cut = moving[pick % moving.length]!;
        const all = run(fixes).filter((e) => e.startedAt > fixes[cut]!.t);
        expect(run(fixes.slice(cut))).toEqual(all);
      }),
      { numRuns: Number(process.env.RUNS ?? 150) },
    );
  });
});
