import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shallowJsonBytes } from './utf8-body.ts';

// shallowJsonBytes scans bytes by hand (a fast path on every JSON body): compared here with the plain
// reading of what it must do, on random JSON: parse the whole text, then empty each object or array
// nested deeper than the limit.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The reference: the parsed value with every object or array deeper than `max` emptied (the root is level 1). */
function cutReference(value: Json, max: number, level = 1): Json {
  if (value === null || typeof value !== 'object') return value;
  if (level > max) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.map((v) => cutReference(v, max, level + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutReference(v, max, level + 1)]));
}

function depthOf(value: Json): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

// Strings full of what could fool a scanner: quotes, backslashes, brackets, non-ASCII.
const text = fc.string({ unit: fc.constantFrom('a', '"', '\\', '{', '}', '[', ']', ',', ':', 'é', '😀', '\n', '\u0000') });
const json = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    text,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(text, tie('value'), { maxKeys: 3 }),
  ),
})).value;

describe('shallowJsonBytes against the plain reading', () => {
  it('gives what parsing whole and emptying past the limit gives, and null when nothing is that deep', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 6 }), fc.boolean(), (value, max, pretty) => {
        const body = Buffer.from(JSON.stringify(value, null, pretty ? '\t' : undefined));
        // The reference reads what the body says, not the generated value: -0 is written as 0.
        const sent = JSON.parse(body.toString('utf8')) as Json;
        const cut = shallowJsonBytes(body, max);
        if (depthOf(sent) <= max) expect(cut).toBeNull();
        else expect(JSON.parse(cut!.toString('utf8'))).toEqual(cutReference(sent, max));
      }),
      { numRuns: 2000 },
    );
  });

  it('never makes a body that is not JSON into one that is', () => {
    const parses = (t: string) => {
      try {
        JSON.parse(t);
        return true;
      } catch {
        return false;
      }
    };
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 4 }), fc.nat(), (value, max, at) => {
        const good = JSON.stringify(value);
        // One bracket or quote removed: the body is (usually) broken, and must stay broken.
        const marks = [...good.matchAll(/[{}[\]"]/g)].map((m) => m.index);
        if (marks.length === 0) return;
        const drop = marks[at % marks.length]!;
        const bad = good.slice(0, drop) + good.slice(drop + 1);
        if (parses(bad)) return;
        const cut = shallowJsonBytes(Buffer.from(bad), max);
        expect(cut === null || !parses(cut.toString('utf8'))).toBe(true);
      }),
      { numRuns: 3000 },
    );
    // Any character put in anywhere, or put in place of another.
    fc.assert(
      fc.property(
        json,
        fc.integer({ min: 1, max: 4 }),
        fc.nat(),
        fc.constantFrom('{', '}', '[', ']', '"', '\\', ',', ':', '1', '-', '.', 'e', 't', ' ', 'x'),
        fc.boolean(),
        (value, max, at, ch, replace) => {
          const good = JSON.stringify(value);
          const k = at % (good.length + 1);
          const bad = good.slice(0, k) + ch + good.slice(replace ? k + 1 : k);
          if (parses(bad)) return;
          const cut = shallowJsonBytes(Buffer.from(bad), max);
          expect(cut === null || !parses(cut.toString('utf8'))).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
