// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { QueryClient } from '@tanstack/react-query';
import { hosRefresher } from '../../lib/hos-live.ts';
import { hosLiveKeys } from './hos-api.ts';

/** A query client whose refetches wait until the test lets them finish. */
function fakeClient() {
  const rounds: Array<() => void> = [];
  let calls = 0;
  const qc = {
    refetchQueries: () => {
      calls++;
      return new Promise<void>((resolve) => rounds.push(resolve));
    },
  } as unknown as QueryClient;
  const finishRound = async () => {
    for (const r of rounds.splice(0)) r();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { qc, finishRound, rounds: () => calls / hosLiveKeys('o').length };
}

describe('hosRefresher', () => {
  it('refetches at once, keeps one round in flight, and runs exactly one more for pushes during it', async () => {
    const c = fakeClient();
    const pushed = hosRefresher(c.qc, 'o');
    pushed();
    expect(c.rounds()).toBe(1);
    pushed();
    pushed();
    pushed();
    expect(c.rounds()).toBe(1);
    await c.finishRound();
    expect(c.rounds()).toBe(2);
    await c.finishRound();
    expect(c.rounds()).toBe(2);
    // Idle again: the next push refetches at once.
    pushed();
    expect(c.rounds()).toBe(3);
  });
});
