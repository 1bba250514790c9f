// The instant parser and its same-day fast path must agree with each other and with Date.parse.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InstantReader, parseInstant } from '../src/instant.ts';

const two = (n: number) => String(n).padStart(2, '0');

describe('instants', () => {
  it('parseInstant equals Date.parse for valid ISO-8601 instants with an offset', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true }), fc.integer({ min: -12 * 4, max: 14 * 4 }), (d, q) => {
        const off = q * 15;
        const local = new Date(d.getTime() + off * 60_000).toISOString().slice(0, 23);
        const text = `${local}${off < 0 ? '-' : '+'}${two(Math.floor(Math.abs(off) / 60))}:${two(Math.abs(off) % 60)}`;
        expect(parseInstant(text)).toBe(Date.parse(text));
        expect(parseInstant(text)).toBe(d.getTime());
      }),
    );
  });

  it('rejects text that is not an instant with an offset', () => {
    for (const bad of ['2026-06-01T06:00:00', '2026-06-01 06:00:00Z', '2026-13-01T06:00Z', '2026-06-31T06:00Z', '2026-06-01T24:00Z', '2026-06-01T06:60Z', '2026-06-01T06:00:00+25:00', '2026-06-01T06:00:00Zjunk', '2026-06-01T06:00:00.Z', '']) {
      expect(parseInstant(bad), bad).toBeNaN();
    }
  });

  it('the same-day fast path gives the full parse result, also for invalid neighbours', () => {
    const texts = fc.tuple(fc.integer({ min: 0, max: 29 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.constantFrom('Z', '-05:00', '+05:30', '.5Z', ':00-05:00', ':59.999+01:00'))
      .map(([day, h, m, tail]) => `2026-06-${two(day)}T${two(h)}:${two(m)}${tail}`);
    fc.assert(
      fc.property(fc.array(texts, { minLength: 1, maxLength: 30 }), (xs) => {
        const reader = new InstantReader();
        for (const x of xs) expect(reader.read(x), x).toBe(parseInstant(x));
      }),
    );
  });
});
