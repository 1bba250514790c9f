import { describe, expect, it } from 'vitest';
import { violationNotices } from './fleet-watch-detectors.ts';

describe('violation notices', () => {
  it('say when the violation began in the driver’s home-terminal time, with its zone (decision 0140)', () => {
    const startMs = Date.parse('2026-06-01T11:19:00Z');
    const v = {
      driver: { id: 'd1', firstName: 'Ann', lastName: 'Lee' },
      rule: 'DRIVING_LIMIT',
      severity: 'VIOLATION',
      startMs,
      endMs: startMs + 600_000,
      logDate: '2026-06-01',
      timeZone: 'America/Chicago',
    };
    const [n] = violationNotices('o1', [v], startMs + 60_000, () => 'l1');
    expect(n!.body).toBe('driving limit (violation) from Jun 1, 6:19 AM CDT (home terminal), log day 2026-06-01.');
    const [denver] = violationNotices('o1', [{ ...v, timeZone: 'America/Denver' }], startMs + 60_000, () => null);
    expect(denver!.body).toContain('from Jun 1, 5:19 AM MDT (home terminal)');
    // The formatters are kept per zone: zones taken in turn each keep their own.
    const zones = ['America/Chicago', 'America/Denver', 'America/Chicago', 'America/Los_Angeles', 'America/Denver'];
    const bodies = violationNotices(
      'o1',
      zones.map((timeZone, i) => ({ ...v, driver: { ...v.driver, id: `d${i}` }, timeZone })),
      startMs + 60_000,
      () => null,
    ).map((x) => x.body);
    expect(bodies.map((b) => /from (.*) \(home/.exec(b ?? '')![1])).toEqual([
      'Jun 1, 6:19 AM CDT',
      'Jun 1, 5:19 AM MDT',
      'Jun 1, 6:19 AM CDT',
      'Jun 1, 4:19 AM PDT',
      'Jun 1, 5:19 AM MDT',
    ]);
  });
});
