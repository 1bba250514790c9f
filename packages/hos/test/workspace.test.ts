// Engine calls share a pooled workspace (decision 0014): results must never depend on what ran
// before, and a call made from inside another call (a getter on a period) must not disturb it.
import { describe, expect, it } from 'vitest';
import { auditLog, clocksAt, dailyTotals, type DutyPeriod } from '../src/index.ts';
import { Workspace } from '../src/workspace.ts';
import { log, opts } from './helpers.ts';

const P70 = opts('US_PROPERTY_70_8');
const long = log('2026-06-01T06:00', ['ON', 1], ['D', 8], ['ON', 1], ['D', 4], ['OFF', 10], ['D', 11.5], ['SB', 7.5], ['D', 3], ['OFF', 2.5], ['D', 4]);
const short = log('2026-06-03T06:00', ['D', 12], ['OFF', 10]);

describe('workspace', () => {
  it('results do not depend on the calls made before (long, short, long again)', () => {
    const first = auditLog(long, P70);
    const firstClocks = clocksAt(long, long[5]!.end, P70);
    expect(first.violations.length).toBeGreaterThan(0);
    auditLog(short, P70);
    clocksAt(short, short[1]!.end, P70);
    dailyTotals(short, P70);
    expect(auditLog(long, P70)).toEqual(first);
    expect(clocksAt(long, long[5]!.end, P70)).toEqual(firstClocks);
  });

  it('a call from inside another call (a getter) gets its own memory', () => {
    const expected = auditLog(long, P70);
    const inner = auditLog(short, P70);
    let innerSeen: unknown = null;
    const tricky: DutyPeriod[] = long.map((p, i) =>
      i === 4
        ? {
            get status() {
              innerSeen = auditLog(short, P70);
              return p.status;
            },
            start: p.start,
            end: p.end,
          }
        : p,
    );
    expect(auditLog(tricky, P70)).toEqual(expected);
    expect(innerSeen).toEqual(inner);
  });

  it('hands out distinct arrays of at least the asked length, grown when a call needs more', () => {
    const ws = new Workspace();
    const a = ws.f64(6);
    const b = ws.f64(6);
    a.fill(1);
    b.fill(2);
    expect(a[5]).toBe(1);
    expect(b[5]).toBe(2);
    ws.reset();
    const big = ws.f64(10_000);
    expect(big.length).toBeGreaterThanOrEqual(10_000);
    expect(ws.f64(3)).toBe(b); // the second array of the pool again
    const c = ws.u8(5);
    const d = ws.u8(5);
    c.fill(3);
    d.fill(4);
    expect([c[4], d[4]]).toEqual([3, 4]);
    expect(ws.size).toBeGreaterThanOrEqual(10_006);
  });
});
