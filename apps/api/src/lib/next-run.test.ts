import { describe, expect, it } from 'vitest';
import { NextRun } from './next-run.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('NextRun', () => {
  it('runs once for callers that arrive together, and again for callers that arrive during a run', async () => {
    const runs = new NextRun<number>();
    let started = 0;
    let release!: () => void;
    const compute = () => {
      const n = ++started;
      return new Promise<number>((r) => (release = () => r(n)));
    };
    const a = runs.run('k', compute);
    const b = runs.run('k', compute);
    await tick();
    expect(started).toBe(1);
    // Arriving while run 1 is under way: never answered by run 1, which may have read the data before them.
    const c = runs.run('k', compute);
    const d = runs.run('k', compute);
    release();
    expect(await a).toBe(1);
    expect(await b).toBe(1);
    await tick();
    expect(started).toBe(2);
    release();
    expect([await c, await d]).toEqual([2, 2]);
    await tick();
    expect(runs.size).toBe(0);
  });

  it('keeps keys apart and passes a failure to the callers of that run only', async () => {
    const runs = new NextRun<string>();
    const bad = runs.run('a', () => Promise.reject(new Error('boom')));
    const good = runs.run('b', async () => 'fine');
    await expect(bad).rejects.toThrow('boom');
    expect(await good).toBe('fine');
    expect(await runs.run('a', async () => 'again')).toBe('again');
  });
});
