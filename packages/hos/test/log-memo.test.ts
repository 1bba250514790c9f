// The parsed-log memo (decision 0015): a call's answer must never depend on the call before it,
// whether the same array is mutated in place, an equal copy is passed, or a getter calls the engine.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forget } from '../src/log-memo.ts';
import { auditLog, clocksAt, dailyTotals, HosInputError, type DutyPeriod, type DutyStatus } from '../src/index.ts';
import { log, opts } from './helpers.ts';

const P70 = opts('US_PROPERTY_70_8');
const MIN = 60_000;

function all(periods: DutyPeriod[], at: string) {
  return { audit: auditLog(periods, P70), clocks: clocksAt(periods, at, P70), totals: dailyTotals(periods, P70) };
}
function fresh(periods: DutyPeriod[], at: string) {
  forget();
  const audit = auditLog(periods, P70);
  forget();
  const clocks = clocksAt(periods, at, P70);
  forget();
  return { audit, clocks, totals: dailyTotals(periods, P70) };
}
const shift = (iso: string, minutes: number): string => new Date(Date.parse(iso) + minutes * MIN).toISOString();

describe('parsed-log memo', () => {
  it('a period changed in place after a call is read again (status, boundary, special, length)', () => {
    const statuses: DutyStatus[] = ['OFF', 'SB', 'D', 'ON'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...statuses), fc.integer({ min: 15, max: 12 * 60 })), { minLength: 2, maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom(...statuses),
        (parts, pick, how, status) => {
          const periods = log('2026-06-01T05:00', ...parts.map(([s, m]) => [s, m / 60] as [DutyStatus, number]));
          const at = periods[periods.length - 1]!.end;
          all(periods, at); // warm the memo with the original
          const k = pick % (periods.length - 1);
          if (how === 0) periods[k]!.status = status;
          else if (how === 1) {
            // Move the boundary between k and k + 1 (a new string with the new instant).
            const moved = shift(periods[k]!.end, -10);
            periods[k]!.end = moved;
            periods[k + 1]!.start = moved;
          } else if (how === 2) periods[k]!.special = periods[k]!.status === 'ON' ? 'YM' : periods[k]!.status === 'OFF' ? 'PC' : undefined;
          else if (how === 3) periods.pop();
          else periods[k] = { ...periods[k]!, end: shift(periods[k]!.end, 5) }; // now a gap: must throw
          const run = (f: () => unknown) => {
            try {
              return f();
            } catch (e) {
              return e instanceof HosInputError ? `HosInputError ${e.message}` : e;
            }
          };
          const atNow = periods[periods.length - 1]!.end;
          expect(run(() => all(periods, atNow))).toEqual(run(() => fresh(periods, atNow)));
        },
      ),
      { numRuns: Number(process.env.HOS_PROPERTY_RUNS ?? 100) },
    );
  });

  it('an equal copy gives the same answer; a String object is read afresh every time', () => {
    const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 12], ['OFF', 10]);
    const at = periods[1]!.end;
    const first = all(periods, at);
    expect(all(structuredClone(periods), at)).toEqual(first);
    let calls = 0;
    const text = periods[2]!.end;
    const boxed = {
      toString() {
        calls++;
        return calls === 1 ? text : shift(text, 60);
      },
    };
    const tricky = periods.map((p, i) => (i === 2 ? { ...p, end: boxed as unknown as string } : p));
    const a = dailyTotals(tricky, P70);
    const b = dailyTotals(tricky, P70);
    expect(b[b.length - 1]!.OFF - a[a.length - 1]!.OFF).toBe(60 * MIN);
  });

  it('a getter that calls the engine while the memo is compared does not leak its log into the caller', () => {
    // b differs from a only in period 0, which the outer call has already compared when the getter
    // on period 1 runs: without the generation check the outer call would take b's parse for a.
    const a = log('2026-06-01T05:00', ['ON', 1], ['D', 12], ['OFF', 10]);
    const b: DutyPeriod[] = [{ ...a[0]!, status: 'D' }, a[1]!, a[2]!];
    const expected = fresh(a, a[1]!.end).audit;
    const tricky = a.map((p, i) =>
      i === 1
        ? {
            start: p.start,
            end: p.end,
            get status() {
              auditLog(b, P70); // replaces the memo with b mid-comparison
              return p.status;
            },
          }
        : p,
    );
    expect(auditLog(b, P70)).not.toEqual(expected);
    auditLog(a, P70);
    expect(auditLog(tricky, P70)).toEqual(expected);
    expect(auditLog(tricky, P70)).toEqual(expected);
  });
});
