import { z } from 'zod';

// Numbers at the contract (issue 43). A body's number is a JSON number: no schema coerces text or
// booleans (`odometerKm: ""` was stored as 0 and `true` as 1). A query's number is text, read only
// when it is written as a number. Each field bounds what it takes to the column it lands in; the
// API's input rules refuse subnormal numbers everywhere (input-rules.ts).

/** A number written in a query string: digits with an optional sign and decimals. */
const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * A number in a query string: `schema` reads the text only when it is written as a number, so ''
 * and 'true' (which Number() reads as 0 and 1) are refused as not numbers, naming the field.
 */
export function queryNumber<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && NUMBER_TEXT.test(v.trim()) ? Number(v) : v), schema);
}

/**
 * A decimal with at most `digits` decimals, from `min` to `max`: what a column of money, volumes or
 * hours holds exactly (an integer of 10^-digits, or numeric(p, digits)), so it is given back as sent.
 */
export function decimalNumber(label: string, digits: number, min: number, max: number) {
  return z
    .number({ error: () => `${label} must be a number` })
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`)
    .refine(hasDecimals(digits), `${label} may have at most ${digits} decimals`);
}

/** A check that a number has at most `digits` decimals (for `.refine`). */
export const hasDecimals =
  (digits: number) =>
  (v: number): boolean => {
    const f = 10 ** digits;
    const units = Math.round(v * f);
    // A tolerance for float noise (0.1 + 0.2), and no non-zero number that would be stored as 0.
    return Math.abs(units - v * f) < 1e-6 && (units !== 0 || v === 0);
  };

/**
 * A check that a number is 0 or at least `step` from it (for `.refine`): a column kept to that step
 * (cents, hundredths of an hour) would store a smaller one as 0, and a `real` cannot hold 1e-50 at all.
 */
export const zeroOrAtLeast =
  (step: number) =>
  (v: number): boolean =>
    v === 0 || Math.abs(v) >= step;
