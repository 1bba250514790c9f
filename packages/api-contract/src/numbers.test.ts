import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decimalNumber, queryNumber } from './numbers.ts';

describe('numbers at the contract', () => {
  it('reads a query number only when it is written as one: "", "true" and "0x10" are refused', () => {
    const page = queryNumber(z.number().int().min(0)).default(0);
    expect(page.parse('12')).toBe(12);
    expect(page.parse(' 3 ')).toBe(3);
    expect(page.parse(undefined)).toBe(0);
    for (const text of ['', ' ', 'true', '0x10', '1e3', 'abc']) expect(page.safeParse(text).success, text).toBe(false);
  });

  it('keeps a decimal to its column: at most its decimals, so 1e-50 is not stored as 0', () => {
    const hours = decimalNumber('Labour hours', 2, 0, 10_000);
    expect(hours.parse(1.25)).toBe(1.25);
    expect(hours.safeParse(1e-50).error?.issues[0]?.message).toBe('Labour hours may have at most 2 decimals');
    expect(hours.safeParse(1e308).error?.issues[0]?.message).toBe('Labour hours must be at most 10000');
  });
});
