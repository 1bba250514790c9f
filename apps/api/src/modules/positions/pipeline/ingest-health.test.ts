import { describe, expect, it } from 'vitest';
import { FAILING_ALERT_MS, IngestHealth } from './ingest-health.ts';

describe('IngestHealth.problem', () => {
  it('says so once positions have waited a minute for the database, failed or not', () => {
    const now = 1_000_000;
    const h = new IngestHealth(() => now);
    let waiting: number | null = null;
    h.waitingSince = () => waiting;
    expect(h.problem()).toBeNull();
    waiting = now - FAILING_ALERT_MS + 1;
    expect(h.problem()).toBeNull();
    waiting = now - 61_000;
    expect(h.problem()).toBe('positions have waited 61 s to be stored (the database does not answer)');
    waiting = null;
    expect(h.problem()).toBeNull();
  });

  it('says so once commits have failed for a minute with nothing stored, and not after the devices stop', () => {
    let now = 1_000_000;
    const h = new IngestHealth(() => now);
    const fail = () => h.record({ rows: 0, failures: [{ orgId: 'a', cause: 'unavailable: x', rows: 3, err: new Error('x') }], retries: 0, succeeded: [] });
    fail();
    now += 30_000;
    fail();
    expect(h.problem()).toBeNull();
    now += 30_000;
    fail();
    expect(h.problem()).toBe('positions have failed to store for 60 s (unavailable: x)');
    now += 61_000;
    expect(h.problem()).toBeNull();
    fail();
    h.record({ rows: 1, failures: [], retries: 0, succeeded: ['a'] });
    expect(h.problem()).toBeNull();
  });
});
