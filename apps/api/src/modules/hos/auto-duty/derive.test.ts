import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveDutyEvents, initialDutyState, MOVING_KMH, stateAfterEvent, type DerivedEvent, type DutyFix } from './derive.ts';

const T0 = Date.UTC(2026, 10, 2, 12, 0, 0);
const MIN = 60_000;
const V = 'vehicle-1';

/** A drive as one fix a minute: [minutes, km/h] pieces; moves east along 41°N at the given speed. */
function drive(pieces: Array<[number, number]>, driverId: string | null = 'alice', start = T0): DutyFix[] {
  const out: DutyFix[] = [];
  let t = start;
  let lon = -100;
  let odo = 1_000_000;
  for (const [minutes, kmh] of pieces) {
    for (let i = 0; i < minutes; i++) {
      out.push({ time: t, speedKmh: kmh, lat: 41, lon, odometerM: odo, driverId });
      t += MIN;
      lon += kmh / 60 / 84; // ~84 km per degree of longitude at 41°N
      odo += (kmh * 1000) / 60;
    }
  }
  return out;
}

const brief = (events: DerivedEvent[]) => events.map((e) => `${e.driverId ?? '-'} ${e.eventType}/${e.eventCode} +${(e.time - T0) / MIN}`);

describe('deriveDutyEvents', () => {
  it('records D at the first moving fix, ON five minutes after the stop began, and hourly intermediate logs', () => {
    // 10 min parked, 2 h driving, 20 min stopped, 30 min driving, 10 min stopped.
    const fixes = drive([
      [10, 0],
      [120, 90],
      [20, 0],
      [30, 90],
      [10, 0],
    ]);
    const { events, state } = deriveDutyEvents(initialDutyState(V), fixes);
    expect(brief(events)).toEqual(['alice 1/3 +10', 'alice 2/1 +70', 'alice 1/4 +135', 'alice 1/3 +150', 'alice 1/4 +185']);
    expect(state.mode).toBe('IDLE');
    expect(events[0]!.location).toMatch(/[A-Z]{2}$/);
    expect(events[1]!.location).toBeNull();
    expect(events.every((e) => e.vehicleId === V && e.odometerM !== null)).toBe(true);
  });

  it('keeps driving through a stop shorter than five minutes', () => {
    const { events } = deriveDutyEvents(
      initialDutyState(V),
      drive([
        [30, 90],
        [4, 0],
        [30, 90],
      ]),
    );
    expect(brief(events)).toEqual(['alice 1/3 +0', 'alice 2/1 +60']);
  });

  it('derives speed from distance over time when the device sends none', () => {
    const fixes = drive([
      [5, 0],
      [10, 60],
    ]).map((f) => ({ ...f, speedKmh: null }));
    const { events } = deriveDutyEvents(initialDutyState(V), fixes);
    // The first fix that is ~1 km past the previous one is the first moving fix.
    expect(brief(events)).toEqual(['alice 1/3 +6']);
  });

  it('treats a silence with little distance covered as a stop from the last fix', () => {
    const before = drive([[20, 90]]);
    const last = before[before.length - 1]!;
    const after = drive([[5, 90]], 'alice', last.time + 60 * MIN).map((f) => ({ ...f, lon: last.lon + (f.lon + 100) }));
    const { events } = deriveDutyEvents(initialDutyState(V), [...before, ...after]);
    expect(brief(events)).toEqual(['alice 1/3 +0', 'alice 1/4 +24', 'alice 1/3 +79']);
  });

  it("ends one driver's driving and starts the next one's when the driver changes mid-trip", () => {
    const fixes = [...drive([[30, 90]], 'alice'), ...drive([[30, 90]], 'bob', T0 + 30 * MIN)];
    const { events } = deriveDutyEvents(initialDutyState(V), fixes);
    expect(brief(events)).toEqual(['alice 1/3 +0', 'alice 1/4 +30', 'bob 1/3 +30']);
  });

  it('makes unidentified records for fixes without a driver', () => {
    const { events } = deriveDutyEvents(
      initialDutyState(V),
      drive(
        [
          [70, 90],
          [6, 0],
        ],
        null,
      ),
    );
    expect(brief(events)).toEqual(['- 1/3 +0', '- 2/1 +60', '- 1/4 +75']);
  });

  it('skips fixes not newer than the last one and counts them', () => {
    const fixes = drive([[10, 90]]);
    const first = deriveDutyEvents(initialDutyState(V), fixes);
    const again = deriveDutyEvents(first.state, [fixes[3]!, fixes[9]!]);
    expect(again.events).toEqual([]);
    expect(again.state.skipped).toBe(2);
  });

  it('gives the same events when the fixes come in several calls', () => {
    const fixes = drive([
      [10, 0],
      [130, 90],
      [7, 0],
      [65, 90],
      [8, 0],
    ]);
    const whole = deriveDutyEvents(initialDutyState(V), fixes).events;
    let state = initialDutyState(V);
    const parts: DerivedEvent[] = [];
    for (let i = 0; i < fixes.length; i += 13) {
      const r = deriveDutyEvents(state, fixes.slice(i, i + 13));
      parts.push(...r.events);
      state = r.state;
    }
    expect(parts).toEqual(whole);
  });

  it('resumes after a restart from the last event it wrote', () => {
    const fixes = drive([
      [10, 0],
      [130, 90],
      [7, 0],
      [65, 90],
      [8, 0],
    ]);
    const whole = deriveDutyEvents(initialDutyState(V), fixes).events;
    for (const cut of [1, 2, 3]) {
      const e = whole[cut]!;
      const resumed = deriveDutyEvents(
        stateAfterEvent(V, { ...e, time: e.time }),
        fixes.filter((f) => f.time > e.time),
      ).events;
      expect(resumed).toEqual(whole.slice(cut + 1));
    }
  });
});

const fixesArb = fc
  .array(
    fc.record({
      gapS: fc.integer({ min: 1, max: 900 }),
      speed: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 120, noNaN: true }), fc.constant(null)),
      dLat: fc.double({ min: -0.02, max: 0.02, noNaN: true }),
      driver: fc.constantFrom('a', 'b', null),
    }),
    { maxLength: 200 },
  )
  .map((steps) => {
    let t = T0;
    let lat = 40;
    return steps.map((s): DutyFix => {
      t += s.gapS * 1000;
      lat += s.dLat;
      return { time: t, speedKmh: s.speed, lat, lon: -90, odometerM: null, driverId: s.driver };
    });
  });

describe('deriveDutyEvents properties', () => {
  it('never records two D events for a driver without a non-D status between them', () => {
    fc.assert(
      fc.property(fixesArb, (fixes) => {
        const { events } = deriveDutyEvents(initialDutyState(V), fixes);
        const lastStatus = new Map<string | null, number>();
        for (const e of events) {
          if (e.eventType !== 1) continue;
          if (e.eventCode === 3) expect(lastStatus.get(e.driverId)).not.toBe(3);
          lastStatus.set(e.driverId, e.eventCode);
        }
      }),
    );
  });

  it('records D only at a fix where the vehicle moved at 5 mph or more', () => {
    fc.assert(
      fc.property(fixesArb, (fixes) => {
        const { events } = deriveDutyEvents(initialDutyState(V), fixes);
        for (const e of events.filter((x) => x.eventType === 1 && x.eventCode === 3)) {
          const i = fixes.findIndex((f) => f.time === e.time);
          const f = fixes[i]!;
          if (f.speedKmh !== null) expect(f.speedKmh).toBeGreaterThanOrEqual(MOVING_KMH);
          else expect(i).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('keeps events in time order and never emits an event before the first fix', () => {
    fc.assert(
      fc.property(fixesArb, (fixes) => {
        const { events } = deriveDutyEvents(initialDutyState(V), fixes);
        for (let i = 1; i < events.length; i++) expect(events[i]!.time).toBeGreaterThanOrEqual(events[i - 1]!.time);
        if (events.length) expect(events[0]!.time).toBeGreaterThanOrEqual(fixes[0]!.time);
      }),
    );
  });

  it('derives the same events whether fixes arrive at once or in pieces', () => {
    fc.assert(
      fc.property(fixesArb, fc.integer({ min: 1, max: 20 }), (fixes, size) => {
        const whole = deriveDutyEvents(initialDutyState(V), fixes).events;
        let state = initialDutyState(V);
        const parts: DerivedEvent[] = [];
        for (let i = 0; i < fixes.length; i += size) {
          const r = deriveDutyEvents(state, fixes.slice(i, i + size));
          parts.push(...r.events);
          state = r.state;
        }
        expect(parts).toEqual(whole);
      }),
    );
  });
});
