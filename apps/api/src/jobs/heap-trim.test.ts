import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEAP_TRIM_POLICY, scheduleHeapTrim, shouldCollect } from './heap-trim.ts';

const MB = 2 ** 20;

describe('heap trim', () => {
  afterEach(() => vi.useRealTimers());

  it('collects only when the heap grew past the larger of 24 MB and 30 % of what the last collection left', () => {
    expect(shouldCollect(90 * MB, 70 * MB)).toBe(false);
    expect(shouldCollect(95 * MB, 70 * MB)).toBe(true);
    // 30 % of 100 MB is more than 24 MB.
    expect(shouldCollect(128 * MB, 100 * MB)).toBe(false);
    expect(shouldCollect(131 * MB, 100 * MB)).toBe(true);
  });

  it('collects on the clock when the heap drifts, and starts again from what V8 left on its own', () => {
    vi.useFakeTimers();
    let used = 70 * MB;
    const gc = vi.fn(() => (used = 72 * MB));
    // Busy: the 24 MB / 30 % rule alone.
    const stop = scheduleHeapTrim({ gc, heapUsed: () => used, heapTotal: () => used + 4 * MB, utilization: () => 0.5 });
    used = 85 * MB;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs);
    expect(gc).not.toHaveBeenCalled();
    used = 100 * MB;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs);
    expect(gc).toHaveBeenCalledTimes(1);
    // V8 collected by itself down to 50 MB: growth is measured from there.
    used = 50 * MB;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs);
    used = 80 * MB;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs);
    expect(gc).toHaveBeenCalledTimes(2);
    stop();
    used = 500 * MB;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs * 3);
    expect(gc).toHaveBeenCalledTimes(2);
  });

  it('collects a committed heap that grew (the young generation under ingest) once the process is quiet, never while it is busy', () => {
    vi.useFakeTimers();
    let total = 80 * MB;
    let busy = 0.6;
    const gc = vi.fn(() => (total = 72 * MB));
    const stop = scheduleHeapTrim({ gc, heapUsed: () => 66 * MB, heapTotal: () => total, utilization: () => busy });
    // Ingest: the young generation grows by 32 MB while the live heap stays put.
    total = 112 * MB;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs * 3);
    expect(gc).not.toHaveBeenCalled();
    busy = 0.02;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs);
    expect(gc).toHaveBeenCalledTimes(1);
    // Shrunk: nothing more to give back, so no collection every look.
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs * 5);
    expect(gc).toHaveBeenCalledTimes(1);
    stop();
  });

  it('collects a quiet heap that grew by more than 4 MB live', () => {
    vi.useFakeTimers();
    let used = 52 * MB;
    let busy = 0.5;
    const gc = vi.fn(() => (used = 54 * MB));
    const stop = scheduleHeapTrim({ gc, heapUsed: () => used, heapTotal: () => used + 4 * MB, utilization: () => busy });
    used = 70 * MB;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs);
    expect(gc).not.toHaveBeenCalled();
    busy = 0.02;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs);
    expect(gc).toHaveBeenCalledTimes(1);
    used = 58 * MB;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs);
    expect(gc).toHaveBeenCalledTimes(1);
    used = 58.5 * MB;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs);
    expect(gc).toHaveBeenCalledTimes(2);
    stop();
  });

  it('trims malloc on a quiet look that does not collect, never on a busy one', () => {
    vi.useFakeTimers();
    let busy = 0.6;
    const gc = vi.fn();
    const trimMalloc = vi.fn();
    const stop = scheduleHeapTrim({ gc, heapUsed: () => 66 * MB, heapTotal: () => 70 * MB, utilization: () => busy, trimMalloc });
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs * 2);
    expect(trimMalloc).not.toHaveBeenCalled();
    busy = 0.02;
    vi.advanceTimersByTime(HEAP_TRIM_POLICY.everyMs * 2);
    expect(trimMalloc).toHaveBeenCalledTimes(2);
    expect(gc).not.toHaveBeenCalled();
    stop();
  });

  it('schedules nothing without --expose-gc', () => {
    expect(scheduleHeapTrim(null)()).toBeUndefined();
  });
});
