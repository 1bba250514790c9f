import { describe, expect, it } from 'vitest';
import { readErrorBody, readStreamRevoked, readTokens } from './answer-readers.ts';
import { streamRevokedSchema, tokensSchema } from './auth.ts';
import { receivedErrorBodySchema } from './errors.ts';

// The zod-free readers agree with the schemas they stand in for, value for value (issue 67).

/** A small seeded generator: the same inputs on every run. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/** Objects of the given keys, each from its list of values (the first a valid one). */
function samples(keys: Record<string, unknown[]>, count: number, seed: number): unknown[] {
  const r = random(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out: unknown[] = [null, undefined, 'text', 42, [], [{}], {}];
  for (let i = 0; i < count; i++) {
    const o: Record<string, unknown> = {};
    // Mostly the first (valid) value, so that many samples read; sometimes a key left out.
    for (const [k, values] of Object.entries(keys)) if (r() < 0.95) o[k] = r() < 0.7 ? values[0] : pick(values);
    if (r() < 0.2) o.extra = pick(['x', 1, null]);
    out.push(o);
  }
  return out;
}

const ANY = [null, true, 0, -3, 1.5, 2 ** 53, 1e300, '', 'x', [], ['a'], {}, { a: 1 }];

describe('the zod-free readers of answers', () => {
  it('read tokens as tokensSchema does', () => {
    for (const v of samples({ accessToken: ['a', ...ANY], refreshToken: ['r', ...ANY] }, 2000, 1)) {
      const z = tokensSchema.safeParse(v);
      expect(readTokens(v), JSON.stringify(v)).toEqual(z.success ? z.data : null);
    }
  });

  it('read an error body as receivedErrorBodySchema does', () => {
    const params = [undefined, { n: 3 }, {}, { time: '10:00' }, { n: 3 }, { n: 1.5, t: 'x' }, { bad: null }, { bad: true }, { bad: [] }, ['a'], 'x', null];
    const keys = {
      code: ['hos.moved_since', undefined, 'not.known', ...ANY],
      message: ['Refused', ...ANY],
      technicalMessage: ['details', '', ...ANY],
      status: [400, 404, 500, 400.5, -1, 2 ** 53, ...ANY],
      timestamp: ['2026-11-29T23:00:00.000Z', ...ANY],
      params,
    };
    let read = 0;
    for (const v of samples(keys, 5000, 2)) {
      const z = receivedErrorBodySchema.safeParse(v);
      const mine = readErrorBody(v);
      expect(mine, JSON.stringify(v)).toEqual(z.success ? z.data : null);
      if (mine) read++;
    }
    expect(read).toBeGreaterThan(100);
  });

  it("read a revoked stream's event as streamRevokedSchema does", () => {
    for (const v of samples({ reason: ['session', 'forbidden', 'token', 'other', ...ANY], message: ['Signed out', ...ANY] }, 2000, 3)) {
      const z = streamRevokedSchema.safeParse(v);
      expect(readStreamRevoked(v), JSON.stringify(v)).toEqual(z.success ? z.data : null);
    }
  });
});
