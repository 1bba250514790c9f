import { afterEach, describe, expect, it, vi } from 'vitest';
import { shouldCollect, startIdleCollection } from './idle-collection.ts';

const MB = 2 ** 20;

describe('idle collection', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('collects only on a quiet loop, and only once the heap grew since the last collection', () => {
    const o = { quietShare: 0.1, growthBytes: 4 * MB };
    expect(shouldCollect(0.02, 70 * MB, 60 * MB, o)).toBe(true);
    expect(shouldCollect(0.5, 70 * MB, 60 * MB, o)).toBe(false);
    expect(shouldCollect(0.02, 63 * MB, 60 * MB, o)).toBe(false);
    expect(shouldCollect(0.1, 70 * MB, 60 * MB, o)).toBe(false);
  });

  it('looks every period: a quiet grown heap is collected and trimmed, a busy one left to V8', () => {
    vi.useFakeTimers();
    let heap = 60 * MB;
    let busy = 0.01;
    const gc = vi.fn(() => void (heap = 61 * MB));
    const trim = vi.fn();
    const collected: number[] = [];
    const stop = startIdleCollection({
      gc,
      trim,
      everyMs: 60_000,
      heapUsed: () => heap,
      busyShare: () => busy,
      onCollected: (freed) => collected.push(freed / MB),
    });
    heap = 62 * MB;
    vi.advanceTimersByTime(60_000);
    expect(gc).not.toHaveBeenCalled();
    heap = 66 * MB;
    vi.advanceTimersByTime(60_000);
    expect(gc).toHaveBeenCalledTimes(1);
    expect(trim).toHaveBeenCalledTimes(1);
    expect(collected).toEqual([5]);
    // Grown again, but the loop is busy: nothing.
    heap = 70 * MB;
    busy = 0.6;
    vi.advanceTimersByTime(60_000);
    expect(gc).toHaveBeenCalledTimes(1);
    stop();
    busy = 0;
    vi.advanceTimersByTime(600_000);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it("collects the other thread's heap with it, and trims after both", async () => {
    vi.useFakeTimers();
    let heap = 60 * MB;
    const order: string[] = [];
    const stop = startIdleCollection({
      gc: () => void (order.push('gc'), (heap = 60 * MB)),
      trim: () => void order.push('trim'),
      alsoCollect: async () => void order.push('database'),
      everyMs: 60_000,
      heapUsed: () => heap,
      busyShare: () => 0,
    });
    heap = 65 * MB;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(order).toEqual(['gc', 'database', 'trim']);
    stop();
  });
});
