import { afterEach, describe, expect, it, vi } from 'vitest';
import { scheduleRecurring } from './schedule-recurring.ts';

describe('scheduleRecurring', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs first after its delay, then on the interval, never two runs at once, and stop waits for the run under way', async () => {
    vi.useFakeTimers();
    const starts: number[] = [];
    let finish: (() => void) | null = null;
    const stop = scheduleRecurring(
      () => {
        starts.push(Date.now());
        return new Promise<void>((r) => (finish = r));
      },
      { everyMs: 1000, firstAfterMs: 300, onError: () => undefined },
    );
    const t0 = Date.now();
    await vi.advanceTimersByTimeAsync(299);
    expect(starts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([t0 + 300]);
    // Still running at 1 s and 2 s: those ticks are skipped.
    await vi.advanceTimersByTimeAsync(2000);
    expect(starts).toHaveLength(1);
    finish!();
    await vi.advanceTimersByTimeAsync(1000);
    expect(starts).toEqual([t0 + 300, t0 + 3000]);
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish!();
    await stopping;
    await vi.advanceTimersByTimeAsync(5000);
    expect(starts).toHaveLength(2);
  });

  it('passes an escaped rejection to onError and goes on', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let n = 0;
    const stop = scheduleRecurring(() => (++n === 1 ? Promise.reject(new Error('boom')) : Promise.resolve()), { everyMs: 100, onError: (e) => errors.push(e) });
    await vi.advanceTimersByTimeAsync(250);
    expect(n).toBe(2);
    expect(errors).toHaveLength(1);
    await stop();
  });
});
