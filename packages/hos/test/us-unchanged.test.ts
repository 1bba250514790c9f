// A log entirely in the US gives the same findings as before Canada's rules were completed
// (issue 72), whatever the Canadian code does:
// - golden: 400 seeded US logs (US and state rulesets, exemptions, adverse conditions, five zones)
//   give exactly the violations the engine gave at commit e1cc9d2b (fixtures/us-golden.json, written
//   by fixtures/make-us-golden.ts from that engine), and no day-level findings;
// - property: random US logs give the same result with and without every Canada-only option.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditLog, type HosOptions } from '../src/index.ts';
import { GOLDEN_COUNT, GOLDEN_SEED, periodsOf, US_RULESETS, usCases } from './fixtures/us-logs.ts';

const MIN = 60_000;
const golden = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures/us-golden.json'), 'utf8')) as {
  seed: number;
  cases: Array<Array<[string, number, number]>>;
};

describe('a log entirely in the US: the same findings as before (issue 72)', () => {
  it('400 seeded US logs give the frozen violations of the engine before the Canadian work, and no day findings', () => {
    expect(golden.seed).toBe(GOLDEN_SEED);
    const cases = usCases(GOLDEN_SEED, GOLDEN_COUNT);
    expect(golden.cases).toHaveLength(cases.length);
    // The fixture is not trivial: it holds violations of many rules.
    expect(new Set(golden.cases.flat().map((v) => v[0])).size).toBeGreaterThanOrEqual(5);
    cases.forEach((c, k) => {
      const r = auditLog(periodsOf(c), c.options);
      const t0 = c.startMin * MIN;
      expect(
        r.violations.map((v) => [v.rule, Date.parse(v.start) - t0, Date.parse(v.end) - t0]),
        `case ${k}: ${c.options.ruleset} ${c.options.timeZone} ${c.pieces}`,
      ).toEqual(golden.cases[k]);
      expect(r.dayFindings).toEqual([]);
    });
  });

  it('property: Canada-only options (deferrals, team, cycle switches, emergencies) change nothing on a US log', () => {
    const caseArb = fc.record({ seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }), ruleset: fc.constantFrom(...US_RULESETS) });
    fc.assert(
      fc.property(caseArb, fc.boolean(), fc.integer({ min: 0, max: 20 }), ({ seed, ruleset }, team, dayOffset) => {
        const c = usCases(seed, 1)[0]!;
        const periods = periodsOf(c);
        const plain: HosOptions = { ...c.options, ruleset };
        const day = new Date((c.startMin + dayOffset * 1440) * MIN).toISOString().slice(0, 10);
        const switchAt = (c.startMin + dayOffset * 600) * MIN;
        const canadian: HosOptions = {
          ...plain,
          team,
          deferrals: [{ day }],
          cycleSwitches: [{ at: switchAt, to: dayOffset % 2 === 0 ? 2 : 1 }],
          // s. 76 (issue 72): an emergency over the whole log would clear every violation on Canadian rules.
          emergencies: [{ start: c.startMin * MIN, end: (c.startMin + 30 * 1440) * MIN }],
        };
        const a = auditLog(periods, plain);
        expect(auditLog(periods, canadian)).toEqual(a);
        expect(a.dayFindings).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
