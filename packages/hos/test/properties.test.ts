// Property tests (fast-check) over random logs, every ruleset and several home-terminal zones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditLog, clocksAt, dailyTotals, RULESET_IDS, type DutyPeriod, type DutyPeriodInput, type HosOptions, type Violation } from '../src/index.ts';

const MIN = 60_000;
const ZONES = ['America/Chicago', 'America/New_York', 'America/Los_Angeles', 'America/Toronto', 'America/Phoenix', 'Europe/Berlin'];

/** ISO text of `ms` written in a fixed UTC offset (minutes). */
function withOffset(ms: number, offsetMin: number): string {
  const local = new Date(ms + offsetMin * MIN).toISOString().slice(0, 19);
  const sign = offsetMin < 0 ? '-' : '+';
  const a = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

type Piece = { status: DutyPeriod['status']; special?: DutyPeriod['special']; minutes: number };

const pieceArb: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ status: fc.constant('D' as const), minutes: fc.integer({ min: 1, max: 9 * 60 }) }) },
  { weight: 3, arbitrary: fc.record({ status: fc.constant('ON' as const), minutes: fc.integer({ min: 1, max: 5 * 60 }) }) },
  { weight: 3, arbitrary: fc.record({ status: fc.constant('OFF' as const), minutes: fc.integer({ min: 1, max: 40 * 60 }) }) },
  { weight: 3, arbitrary: fc.record({ status: fc.constant('SB' as const), minutes: fc.integer({ min: 60, max: 11 * 60 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      status: fc.constant('OFF' as const),
      special: fc.constantFrom('PC' as const, 'PASSENGER' as const),
      minutes: fc.integer({ min: 1, max: 5 * 60 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ status: fc.constant('ON' as const), special: fc.constant('YM' as const), minutes: fc.integer({ min: 1, max: 90 }) }) },
);

const logArb = fc.record({
  // 2026-01-01 .. 2026-12-01, whole minutes.
  startMin: fc.integer({ min: 29_436_480, max: 29_876_160 }),
  pieces: fc.array(pieceArb, { minLength: 1, maxLength: 40 }),
});

const optionsArb: fc.Arbitrary<HosOptions> = fc.record({
  ruleset: fc.constantFrom(...RULESET_IDS),
  timeZone: fc.constantFrom(...ZONES),
  cycleDayStart: fc.constantFrom('00:00', '06:30', '18:00'),
  // nonCdlShortHaul with sixteenHour is an input error (P15/P16), so the two are never drawn together.
  exemptions: fc
    .record({ shortHaul150: fc.boolean(), sixteenHour: fc.boolean(), nonCdlShortHaul: fc.boolean() })
    .map((e) => (e.sixteenHour ? { ...e, nonCdlShortHaul: false } : e)),
  team: fc.boolean(),
});

function build(l: { startMin: number; pieces: Piece[] }, offset = 0): DutyPeriod[] {
  let t = l.startMin * MIN;
  return l.pieces.map((p) => {
    const start = withOffset(t, offset);
    t += p.minutes * MIN;
    const out: DutyPeriod = { status: p.status, start, end: withOffset(t, offset) };
    if (p.special) out.special = p.special;
    return out;
  });
}

/** Every interval of `after` lies inside an interval of the same rule in `before`. */
function covered(after: Violation[], before: Violation[]): boolean {
  return after.every((a) => before.some((b) => b.rule === a.rule && Date.parse(b.start) <= Date.parse(a.start) && Date.parse(a.end) <= Date.parse(b.end)));
}

const runs = { numRuns: Number(process.env.HOS_PROPERTY_RUNS ?? 100) };

describe('properties', () => {
  it('remaining times are never negative (strict and provisional, any instant)', () => {
    fc.assert(
      fc.property(logArb, optionsArb, fc.integer({ min: -24 * 60, max: 60 * 24 * 3 }), (l, o, shift) => {
        const periods = build(l);
        // From a day before the end of the log (often inside it) to two days after it.
        const at = new Date(Date.parse(periods[periods.length - 1]!.end) + shift * MIN - 24 * 60 * MIN).toISOString();
        const c = clocksAt(periods, at, o);
        for (const k of [c.strict, c.provisional]) {
          expect(k.driveMs).toBeGreaterThanOrEqual(0);
          expect(k.windowMs).toBeGreaterThanOrEqual(0);
          expect(k.cycleMs).toBeGreaterThanOrEqual(0);
          if (k.breakMs !== null) expect(k.breakMs).toBeGreaterThanOrEqual(0);
        }
        expect(c.cycleUsedMs).toBeGreaterThanOrEqual(0);
        // Assuming a pair can only give the driver more time, never less.
        expect(c.provisional.windowMs).toBeGreaterThanOrEqual(c.strict.windowMs);
        expect(c.provisional.driveMs).toBeGreaterThanOrEqual(c.strict.driveMs);
      }),
      runs,
    );
  }, 120_000);

  it('violations only cover driving time', () => {
    fc.assert(
      fc.property(logArb, optionsArb, (l, o) => {
        const periods = build(l);
        for (const v of auditLog(periods, o).violations) {
          const s = Date.parse(v.start);
          const e = Date.parse(v.end);
          expect(e).toBeGreaterThan(s);
          let driving = 0;
          for (const p of periods) {
            if (p.status !== 'D') continue;
            driving += Math.max(0, Math.min(e, Date.parse(p.end)) - Math.max(s, Date.parse(p.start)));
          }
          expect(driving).toBe(e - s);
        }
      }),
      runs,
    );
  }, 120_000);

  it('adding off-duty time at the end never adds a violation', () => {
    fc.assert(
      fc.property(logArb, optionsArb, fc.integer({ min: 1, max: 48 * 60 }), fc.constantFrom('OFF' as const, 'SB' as const), (l, o, minutes, status) => {
        const before = auditLog(build(l), o).violations;
        const after = auditLog(build({ ...l, pieces: [...l.pieces, { status, minutes }] }), o).violations;
        expect(covered(after, before)).toBe(true);
      }),
      runs,
    );
  }, 120_000);

  it('splitting a period into two adjacent periods of the same status changes nothing', () => {
    fc.assert(
      fc.property(logArb, optionsArb, fc.nat(), fc.double({ min: 0.01, max: 0.99, noNaN: true }), (l, o, which, frac) => {
        const i = which % l.pieces.length;
        const p = l.pieces[i]!;
        const first = Math.max(1, Math.min(p.minutes - 1, Math.round(p.minutes * frac)));
        fc.pre(p.minutes >= 2);
        const split = { ...l, pieces: [...l.pieces.slice(0, i), { ...p, minutes: first }, { ...p, minutes: p.minutes - first }, ...l.pieces.slice(i + 1)] };
        const a = build(l);
        const b = build(split);
        expect(auditLog(b, o)).toEqual(auditLog(a, o));
        const at = a[a.length - 1]!.end;
        expect(clocksAt(b, at, o)).toEqual(clocksAt(a, at, o));
        expect(dailyTotals(b, o)).toEqual(dailyTotals(a, o));
      }),
      runs,
    );
  }, 120_000);

  it("a C6 deferral relaxes only day 1's off-duty rule: every other violation stays", () => {
    const canadaArb = fc.record({
      ruleset: fc.constantFrom('CA_SOUTH_CYCLE_1' as const, 'CA_SOUTH_CYCLE_2' as const),
      timeZone: fc.constantFrom(...ZONES),
      cycleDayStart: fc.constantFrom('00:00', '06:30', '18:00'),
      team: fc.boolean(),
    });
    fc.assert(
      fc.property(logArb, canadaArb, fc.nat(), (l, o, which) => {
        const periods = build(l);
        const days = dailyTotals(periods, o);
        const day = days[which % days.length]!.date;
        const without = auditLog(periods, o).violations;
        const withDeferral = auditLog(periods, { ...o, deferrals: [{ day }] }).violations;
        expect(
          covered(
            without.filter((v) => v.rule !== 'DAILY_OFF_DUTY'),
            withDeferral,
          ),
        ).toBe(true);
        const at = periods[periods.length - 1]!.end;
        const c = clocksAt(periods, at, { ...o, deferrals: [{ day }] });
        expect(c.strict.driveMs).toBeLessThanOrEqual(clocksAt(periods, at, o).strict.driveMs);
      }),
      runs,
    );
  }, 120_000);

  it('results do not depend on the UTC offset the input instants are written in', () => {
    fc.assert(
      fc.property(logArb, optionsArb, fc.integer({ min: -12 * 4, max: 14 * 4 }), (l, o, quarter) => {
        const a = build(l, 0);
        const b = build(l, quarter * 15);
        expect(auditLog(b, o)).toEqual(auditLog(a, o));
        const at = b[Math.floor(b.length / 2)]!.end;
        expect(clocksAt(b, at, o)).toEqual(clocksAt(a, a[Math.floor(a.length / 2)]!.end, o));
        expect(dailyTotals(b, o)).toEqual(dailyTotals(a, o));
      }),
      runs,
    );
  }, 120_000);

  it('instants given as epoch milliseconds give exactly what their ISO text gives', () => {
    fc.assert(
      fc.property(logArb, optionsArb, fc.integer({ min: -12 * 4, max: 14 * 4 }), (l, o, quarter) => {
        const text = build(l, quarter * 15);
        const ms: DutyPeriodInput[] = text.map((p) => ({ ...p, start: Date.parse(p.start), end: Date.parse(p.end) }));
        expect(auditLog(ms, o)).toEqual(auditLog(text, o));
        const mid = text[Math.floor(text.length / 2)]!.end;
        expect(clocksAt(ms, Date.parse(mid), o)).toEqual(clocksAt(text, mid, o));
        // Mixed: numbers for the log, text for the instant (and the memo of the last log in between).
        expect(clocksAt(ms, mid, o)).toEqual(clocksAt(text, Date.parse(mid), o));
        expect(dailyTotals(ms, o)).toEqual(dailyTotals(text, o));
      }),
      runs,
    );
  }, 120_000);

  it('a non-finite number is refused like bad text, naming the period and field', () => {
    const o: HosOptions = { ruleset: 'US_PROPERTY_70_8', timeZone: 'America/Chicago' };
    const t0 = Date.parse('2026-06-01T12:00:00Z');
    expect(() => auditLog([{ status: 'ON', start: t0, end: Number.NaN }], o)).toThrow(expect.objectContaining({ periodIndex: 0, field: 'end' }));
    expect(() =>
      auditLog(
        [
          { status: 'ON', start: t0, end: t0 + 1 },
          { status: 'D', start: Infinity, end: Infinity },
        ],
        o,
      ),
    ).toThrow(expect.objectContaining({ periodIndex: 1, field: 'start' }));
    expect(() => clocksAt([{ status: 'ON', start: t0, end: t0 + 1 }], Number.NaN, o)).toThrow(expect.objectContaining({ field: 'at' }));
  });
});
