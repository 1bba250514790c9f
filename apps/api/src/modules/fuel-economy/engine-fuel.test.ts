import { describe, expect, it } from 'vitest';
import { engineFuel, fuelReading, type FuelFix } from './engine-fuel.ts';
import { fillSpan, fillsOf } from './fill-to-fill.ts';

// The two pure computations of issue 68's fuel used: the engine counter's rise (resets, odd jumps,
// gaps, fixes without a reading, drivers) and the fill-to-fill purchases.

const MIN = 60_000;
/** Metres of 0.015° of latitude along a meridian (the haversine's mean Earth radius): about 100 km/h a minute apart. */
const STEP_M = (6_371_008.8 * 0.015 * Math.PI) / 180;
const T0 = Date.UTC(2026, 5, 10, 14);

/** A fix `i` minutes from T0, `i` steps north, with the counter at `fuelL`. */
const fix = (i: number, fuelL: number | null, driverId: string | null = 'd1', lat = 39 + i * 0.015): FuelFix => ({
  t: T0 + i * MIN,
  lat,
  lon: -95,
  fuelL,
  driverId,
});

describe('the engine counter', () => {
  it('sums the rises between consecutive readings over the distance driven between them', () => {
    const [p, ...rest] = engineFuel([fix(0, 1000), fix(1, 1000.6), fix(2, 1001.2), fix(3, 1001.8)]);
    expect(rest).toEqual([]);
    expect(p!.fuelL).toBeCloseTo(1.8, 9);
    expect(p!.distanceM).toBeCloseTo(3 * STEP_M, 6);
    expect([p!.from, p!.to]).toEqual([T0, T0 + 3 * MIN]);
  });

  it('counts nothing across a reset and goes on from the new value', () => {
    // 0.6 L, then the counter restarts at 5 (ECU replaced): the drop and its minute are left out, then 0.6 L more.
    const [p] = engineFuel([fix(0, 1000), fix(1, 1000.6), fix(2, 5), fix(3, 5.6)]);
    expect(p!.fuelL).toBeCloseTo(1.2, 9);
    expect(p!.distanceM).toBeCloseTo(2 * STEP_M, 6);
  });

  it('counts nothing across an odd jump: a one-fix spike costs the two minutes around it', () => {
    // 900 L in a minute is no engine: a jump up, then a "reset" back down.
    const [p] = engineFuel([fix(0, 1000), fix(1, 1000.6), fix(2, 1900), fix(3, 1001.8), fix(4, 1002.4)]);
    expect(p!.fuelL).toBeCloseTo(0.6 + 0.6, 9);
    expect(p!.distanceM).toBeCloseTo(2 * STEP_M, 6);
    // 2.5 L in a minute (150 L/h) is still an engine at full load.
    expect(engineFuel([fix(0, 1000), fix(1, 1002.5)])[0]!.fuelL).toBeCloseTo(2.5, 9);
  });

  it('leaves out the fuel and the distance across a gap of more than ten minutes', () => {
    // Minutes 0-2 counted, 2 → 20 a gap (the device out of coverage), 20-21 counted.
    const [p] = engineFuel([fix(0, 1000), fix(1, 1000.6), fix(2, 1001.2), fix(20, 1012), fix(21, 1012.6)]);
    expect(p!.fuelL).toBeCloseTo(1.2 + 0.6, 9);
    expect(p!.distanceM).toBeCloseTo(3 * STEP_M, 6);
  });

  it('adds the distance of fixes without a reading to the interval they lie in, and drops it with a rejected interval', () => {
    const [p] = engineFuel([fix(0, 1000), fix(1, null), fix(2, null), fix(3, 1001.8), fix(4, null), fix(5, 900)]);
    expect(p!.fuelL).toBeCloseTo(1.8, 9);
    expect(p!.distanceM).toBeCloseTo(3 * STEP_M, 6);
  });

  it('gives each interval to the driver of the fix it starts at, skips duplicates and GPS jumps', () => {
    const pieces = engineFuel([
      fix(0, 1000, 'd1'),
      fix(1, 1000.6, 'd1'),
      fix(1, 1000.6, 'd1'),
      fix(2, 1001.2, 'd2'),
      // A GPS jump 10° north: no distance, the fuel still counts.
      fix(3, 1001.8, 'd2', 49),
      fix(4, 1002.4, null, 39 + 4 * 0.015),
    ]);
    const by = new Map(pieces.map((p) => [p.driverId, p]));
    expect(by.get('d1')!.fuelL).toBeCloseTo(1.2, 9);
    expect(by.get('d1')!.distanceM).toBeCloseTo(2 * STEP_M, 6);
    expect(by.get('d2')!.fuelL).toBeCloseTo(1.2, 9);
    expect(by.get('d2')!.distanceM).toBe(0);
    expect(by.has(null)).toBe(false);
  });

  it('counts idling: fuel without distance', () => {
    const [p] = engineFuel([fix(0, 1000, 'd1', 39), fix(5, 1000.3, 'd1', 39), fix(10, 1000.6, 'd1', 39)]);
    expect(p!.fuelL).toBeCloseTo(0.6, 9);
    expect(p!.distanceM).toBe(0);
  });

  it('gives nothing without two readings', () => {
    expect(engineFuel([])).toEqual([]);
    expect(engineFuel([fix(0, null), fix(1, null)])).toEqual([]);
    expect(engineFuel([fix(0, 1000), fix(1, null)])).toEqual([]);
  });

  it('reads the attribute as stored: a number or a numeric string, never a negative or a word', () => {
    expect([fuelReading(12.5), fuelReading('12.5'), fuelReading(-1), fuelReading('x'), fuelReading(''), fuelReading(null), fuelReading(true)]).toEqual([
      12.5,
      12.5,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('the purchases between two fills', () => {
  const H = 3_600_000;
  const trip = (t: number, distanceM: number, driverId: string | null = 'd1') => ({ t, distanceM, driverId });

  it('counts the fuel bought after the first fill up to and including the last, over the trips between them', () => {
    const trips = [trip(T0 - 5 * H, 999_000), trip(T0 + H, 400_000), trip(T0 + 40 * H, 300_000, 'd2'), trip(T0 + 70 * H, 999_000)];
    const purchases = [
      { t: T0 + 30 * H, litres: 200 },
      { t: T0, litres: 400 },
      { t: T0 + 60 * H, litres: 250 },
    ];
    expect(fillSpan(purchases, trips)).toEqual({
      from: T0,
      to: T0 + 60 * H,
      litres: 450,
      fills: 3,
      distanceM: 700_000,
      byDriver: new Map([
        ['d1', 400_000],
        ['d2', 300_000],
      ]),
    });
  });

  it('takes purchases with no trip between them as one fill (both saddle tanks, a second receipt)', () => {
    const trips = [trip(T0 + H, 500_000), trip(T0 + 30 * H, 500_000)];
    const purchases = [
      { t: T0, litres: 300 },
      { t: T0 + 10 * MIN, litres: 100 },
      { t: T0 + 20 * H, litres: 200 },
      { t: T0 + 21 * H, litres: 150 },
      // Five minutes after a trip began (a short hop to the other island) is a fill of its own.
      { t: T0 + 30 * H + 5 * MIN, litres: 50 },
    ];
    expect(fillsOf(purchases, trips)).toEqual([
      { t: T0, litres: 400 },
      { t: T0 + 20 * H, litres: 350 },
      { t: T0 + 30 * H + 5 * MIN, litres: 50 },
    ]);
    expect(fillSpan(purchases, trips)).toMatchObject({ from: T0, to: T0 + 30 * H + 5 * MIN, litres: 400, fills: 3, distanceM: 1_000_000 });
  });

  it('counts a trip that starts at the instant of a fill after that fill', () => {
    const trips = [trip(T0, 6_000)];
    expect(
      fillSpan(
        [
          { t: T0, litres: 300 },
          { t: T0 + H, litres: 2.3 },
        ],
        trips,
      ),
    ).toMatchObject({ from: T0, to: T0 + H, litres: 2.3, fills: 2, distanceM: 6_000 });
  });

  it("reads a receipt's clock loosely: a trip that started a minute before a fill started after it", () => {
    // The station's receipt says 08:01 (to the minute); the tracker saw the truck leave at 08:00:20.
    const trips = [trip(T0 + 20_000, 6_000), trip(T0 + H - 90_000, 4_000)];
    const purchases = [
      { t: T0 + MIN, litres: 300 },
      { t: T0 + H, litres: 2.3 },
    ];
    expect(fillsOf(purchases, trips)).toEqual(purchases);
    // The trip 90 s before the second fill is after it too: its distance is the next span's.
    expect(fillSpan(purchases, trips)).toMatchObject({ from: T0 + MIN, to: T0 + H, litres: 2.3, fills: 2, distanceM: 6_000 });
  });

  it('gives nothing with fewer than two fills, or no trip between them', () => {
    const trips = [trip(T0 + H, 500_000)];
    expect(fillSpan([], trips)).toBeNull();
    expect(fillSpan([{ t: T0, litres: 300 }], trips)).toBeNull();
    expect(
      fillSpan(
        [
          { t: T0 + 2 * H, litres: 300 },
          { t: T0 + 3 * H, litres: 100 },
        ],
        trips,
      ),
    ).toBeNull();
  });
});
