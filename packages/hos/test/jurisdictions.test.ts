// Logs that cross the US-Canada border (issue 72): each stretch is judged by the ruleset in force there.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  auditAcrossBorders,
  auditLog,
  clocksAcrossBorders,
  clocksAt,
  HosInputError,
  RULESET_IDS,
  rulesetAt,
  type DutyPeriod,
  type HosOptions,
} from '../src/index.ts';
import { brief, cdt, log, opts } from './helpers.ts';

const MIN = 60_000;
const US = opts('US_PROPERTY_70_8');

describe('auditAcrossBorders', () => {
  // 12 h of driving (with a 30-minute break) after 1 h on duty: past the US 11 h, inside Canada's 13 h.
  const shift = log('2026-06-01T06:00', ['ON', 1], ['D', 6], ['OFF', 0.5], ['D', 6], ['OFF', 10]);

  it('a US driver entering Canada mid-shift is judged by Canada from the crossing', () => {
    expect(brief(auditLog(shift, US).violations)).toEqual([['DRIVING_LIMIT', '2026-06-01T18:30', '2026-06-01T19:30']]);
    const crossing = [{ from: cdt('2026-06-01T12:00'), ruleset: 'CA_SOUTH_CYCLE_1' as const }];
    expect(auditAcrossBorders(shift, crossing, US).violations).toEqual([]);
  });

  it('US findings before the crossing, Canadian after: a violation over the crossing is cut at it', () => {
    const crossing = [{ from: cdt('2026-06-01T19:00'), ruleset: 'CA_SOUTH_CYCLE_1' as const }];
    const v = auditAcrossBorders(shift, crossing, US).violations;
    expect(brief(v)).toEqual([['DRIVING_LIMIT', '2026-06-01T18:30', '2026-06-01T19:00']]);
    expect(v[0]!.severity).toBe('VIOLATION');
  });

  it('a Canadian driver entering the US mid-shift gets the US findings after the crossing', () => {
    const crossing = [{ from: cdt('2026-06-01T12:00'), ruleset: 'US_PROPERTY_70_8' as const }];
    const ca = opts('CA_SOUTH_CYCLE_1');
    expect(auditLog(shift, ca).violations).toEqual([]);
    expect(brief(auditAcrossBorders(shift, crossing, ca).violations)).toEqual([['DRIVING_LIMIT', '2026-06-01T18:30', '2026-06-01T19:30']]);
  });

  it('the days before the crossing count under the rules of the side entered', () => {
    // 7 days of 10 h on duty on Canada's cycle 1 (70 h / 7 days: legal), then day 8 in the US,
    // where 70 h / 8 days counts the first day too: every minute of driving on day 8 is over the cycle.
    const day = [
      ['ON', 2],
      ['D', 8],
      ['OFF', 14],
    ] as const;
    const periods = log('2026-06-01T06:00', ...(Array.from({ length: 8 }, () => [...day]).flat() as Parameters<typeof log>[1][]));
    const ca = opts('CA_SOUTH_CYCLE_1');
    expect(auditLog(periods, ca).violations).toEqual([]);
    const crossing = [{ from: cdt('2026-06-08T06:00'), ruleset: 'US_PROPERTY_70_8' as const }];
    expect(brief(auditAcrossBorders(periods, crossing, ca).violations)).toEqual([['CYCLE_LIMIT', '2026-06-08T08:00', '2026-06-08T16:00']]);
  });

  it('there and back: each crossing switches the rules', () => {
    const periods = [...shift, ...log('2026-06-02T05:30', ['ON', 1], ['D', 6], ['OFF', 0.5], ['D', 6], ['OFF', 10])];
    const segments = [
      { from: cdt('2026-06-01T08:00'), ruleset: 'CA_SOUTH_CYCLE_1' as const },
      { from: cdt('2026-06-02T08:00'), ruleset: 'US_PROPERTY_70_8' as const },
    ];
    expect(brief(auditAcrossBorders(periods, segments, US).violations)).toEqual([['DRIVING_LIMIT', '2026-06-02T18:00', '2026-06-02T19:00']]);
    expect(rulesetAt(segments, cdt('2026-06-01T07:59'), 'US_PROPERTY_70_8')).toBe('US_PROPERTY_70_8');
    expect(rulesetAt(segments, cdt('2026-06-01T08:00'), 'US_PROPERTY_70_8')).toBe('CA_SOUTH_CYCLE_1');
    expect(rulesetAt(segments, cdt('2026-06-03T08:00'), 'US_PROPERTY_70_8')).toBe('US_PROPERTY_70_8');
  });

  it('unsorted segments are an input error', () => {
    const segments = [
      { from: cdt('2026-06-02T08:00'), ruleset: 'CA_SOUTH_CYCLE_1' as const },
      { from: cdt('2026-06-01T08:00'), ruleset: 'US_PROPERTY_70_8' as const },
    ];
    expect(() => auditAcrossBorders(shift, segments, US)).toThrow(HosInputError);
    expect(() => auditAcrossBorders(shift, [{ from: 'not a time', ruleset: 'CA_SOUTH_CYCLE_1' }], US)).toThrow(HosInputError);
  });
});

describe('clocksAcrossBorders', () => {
  it('the clocks at an instant use the ruleset in force then', () => {
    const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 10]);
    const at = cdt('2026-06-01T17:00');
    const segments = [{ from: cdt('2026-06-01T09:00'), ruleset: 'CA_SOUTH_CYCLE_1' as const }];
    const c = clocksAcrossBorders(periods, at, segments, US);
    expect(c).toEqual(clocksAt(periods, at, opts('CA_SOUTH_CYCLE_1')));
    expect(c.strict.driveMs).toBe(3 * 60 * MIN);
    expect(clocksAcrossBorders(periods, cdt('2026-06-01T08:00'), segments, US)).toEqual(clocksAt(periods, cdt('2026-06-01T08:00'), US));
  });
});

describe('properties', () => {
  const pieceArb = fc.record({
    status: fc.constantFrom('OFF' as const, 'SB' as const, 'D' as const, 'ON' as const),
    minutes: fc.integer({ min: 1, max: 14 * 60 }),
  });
  const build = (startMin: number, pieces: Array<{ status: DutyPeriod['status']; minutes: number }>): DutyPeriod[] => {
    let t = startMin * MIN;
    return pieces.map((p) => ({ status: p.status, start: new Date(t).toISOString(), end: new Date((t += p.minutes * MIN)).toISOString() }));
  };
  const optionsArb: fc.Arbitrary<HosOptions> = fc.record({
    ruleset: fc.constantFrom(...RULESET_IDS),
    timeZone: fc.constantFrom('America/Detroit', 'America/Toronto', 'America/Chicago'),
  });
  const runs = { numRuns: Number(process.env.HOS_PROPERTY_RUNS ?? 100) };

  it('a log with no crossing gives exactly auditLog', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 29_436_480, max: 29_876_160 }),
        fc.array(pieceArb, { minLength: 1, maxLength: 30 }),
        optionsArb,
        fc.integer({ min: 0, max: 3 }),
        (start, pieces, o, n) => {
          const periods = build(start, pieces);
          // No segments, or segments that all keep the driver's ruleset.
          const segments = Array.from({ length: n }, (_, i) => ({ from: (start + i * 600) * MIN, ruleset: o.ruleset }));
          expect(auditAcrossBorders(periods, segments, o)).toEqual(auditLog(periods, o));
        },
      ),
      runs,
    );
  }, 120_000);

  it('every finding lies inside a finding of the ruleset in force where it is', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 29_436_480, max: 29_876_160 }),
        fc.array(pieceArb, { minLength: 1, maxLength: 30 }),
        optionsArb,
        fc.constantFrom(...RULESET_IDS),
        fc.integer({ min: 0, max: 6000 }),
        (start, pieces, o, other, offsetMin) => {
          const periods = build(start, pieces);
          const segments = [{ from: (start + offsetMin) * MIN, ruleset: other }];
          for (const v of auditAcrossBorders(periods, segments, o).violations) {
            const s = Date.parse(v.start);
            const e = Date.parse(v.end);
            const own = auditLog(periods, { ...o, ruleset: rulesetAt(segments, s, o.ruleset) }).violations;
            expect(rulesetAt(segments, e - 1, o.ruleset)).toBe(rulesetAt(segments, s, o.ruleset));
            expect(own.some((w) => w.rule === v.rule && Date.parse(w.start) <= s && e <= Date.parse(w.end))).toBe(true);
          }
        },
      ),
      runs,
    );
  }, 120_000);
});
