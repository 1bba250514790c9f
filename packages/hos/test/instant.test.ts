// The instant parser and its same-date memo must agree with each other and with Date.parse.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInstant } from '../src/instant.ts';

const two = (n: number) => String(n).padStart(2, '0');

describe('instants', () => {
  it('parseInstant equals Date.parse for valid ISO-8601 instants with an offset', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: -12 * 4, max: 14 * 4 }),
        (d, q) => {
          const off = q * 15;
          const local = new Date(d.getTime() + off * 60_000).toISOString().slice(0, 23);
          const text = `${local}${off < 0 ? '-' : '+'}${two(Math.floor(Math.abs(off) / 60))}:${two(Math.abs(off) % 60)}`;
          expect(parseInstant(text)).toBe(Date.parse(text));
          expect(parseInstant(text)).toBe(d.getTime());
        },
      ),
    );
  });

  it('rejects text that is not an instant with an offset', () => {
    for (const bad of [
      '2026-06-01T06:00:00',
      '2026-06-01 06:00:00Z',
      '2026-13-01T06:00Z',
      '2026-06-31T06:00Z',
      '2026-06-01T24:00Z',
      '2026-06-01T06:60Z',
      '2026-06-01T06:00:00+25:00',
      '2026-06-01T06:00:00Zjunk',
      '2026-06-01T06:00:00.Z',
      '',
    ]) {
      expect(parseInstant(bad), bad).toBeNaN();
    }
  });

  it('the same-date memo gives the full parse result in any sequence, also next to invalid dates', () => {
    // Days 0 and 29-31 of February and June are invalid or only valid some years: the memo must
    // never carry a date over to a text whose own date is invalid.
    const texts = fc
      .tuple(
        fc.constantFrom('2024', '2026', '2100'),
        fc.constantFrom('02', '06', '13'),
        fc.integer({ min: 0, max: 31 }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 60 }),
        fc.constantFrom('Z', '-05:00', '+05:30', '.5Z', ':00-05:00', ':59.999+01:00'),
      )
      .map(([y, mo, day, h, m, tail]) => `${y}-${mo}-${two(day)}T${two(h)}:${two(m)}${tail}`);
    const reference = (x: string): number => {
      const ms = Date.parse(x);
      // Date.parse also rolls 2026-02-30 over to March: only a round trip proves the date exists.
      const date = x.slice(0, 10);
      const offset = /([+-]\d\d):(\d\d)$/.exec(x);
      const local = Number.isNaN(ms)
        ? ''
        : new Date(ms + (offset ? (offset[1]!.startsWith('-') ? -1 : 1) * (Math.abs(Number(offset[1])) * 60 + Number(offset[2])) * 60_000 : 0))
            .toISOString()
            .slice(0, 10);
      return local === date ? ms : NaN;
    };
    fc.assert(
      fc.property(fc.array(texts, { minLength: 1, maxLength: 30 }), (xs) => {
        for (const x of xs) expect(parseInstant(x), x).toBe(reference(x));
      }),
    );
  });
});
