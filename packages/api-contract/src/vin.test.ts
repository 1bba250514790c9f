import { describe, expect, it } from 'vitest';
import { isValidVin, vinCheckDigit, vinProblem, withVinCheckDigit } from './vin.ts';

describe('VIN check digit', () => {
  it('accepts real VINs whose ninth character is the weighted sum modulo 11', () => {
    expect(isValidVin('1M8GDM9AXKP042788')).toBe(true); // check digit X (remainder 10)
    expect(isValidVin('11111111111111111')).toBe(true);
    expect(isValidVin('1HGCM82633A004352')).toBe(true);
    expect(isValidVin(' 1hgcm82633a004352 ')).toBe(true);
  });

  it('rejects a VIN with one character changed, naming the expected check digit', () => {
    expect(isValidVin('1HGCM82633A004353')).toBe(false);
    expect(vinProblem('1HGCM82643A004352')).toMatch(/check digit/);
    expect(vinProblem('1M8GDM9A1KP042788')).toBe('VIN check digit does not match (9th character should be X)');
  });

  it('rejects wrong lengths and the letters I, O and Q', () => {
    expect(vinProblem('1HGCM82633A00435')).toBe('VIN must be exactly 17 characters');
    expect(vinProblem('1HGCM82633A0043520')).toBe('VIN must be exactly 17 characters');
    expect(vinProblem('1HGCM8263IA004352')).toBe('VIN cannot contain the letters I, O or Q');
    expect(vinProblem('1HGCM82633A00435-')).toBe('VIN may only contain letters and digits');
    expect(vinCheckDigit('1HGCM8263OA004352')).toBeNull();
  });

  it('completes a VIN with its check digit', () => {
    const v = withVinCheckDigit('1FUJGLDR0LLAB1234');
    expect(v[8]).toBe(vinCheckDigit(v));
    expect(isValidVin(v)).toBe(true);
  });
});
