/**
 * North American VIN check digit (49 CFR 565, ISO 3779 characters): each character is
 * transliterated to a number, multiplied by its position weight, and the sum modulo 11 is the
 * ninth character ("X" for 10). I, O and Q never appear in a VIN.
 */
const TRANSLITERATION: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

export const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;

function valueOf(ch: string): number | null {
  if (ch >= '0' && ch <= '9') return ch.charCodeAt(0) - 48;
  return TRANSLITERATION[ch] ?? null;
}

/** The check digit ('0'-'9' or 'X') a 17-character VIN should carry, or null when a character is not allowed. */
export function vinCheckDigit(vin: string): string | null {
  const v = vin.toUpperCase();
  if (v.length !== 17) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const n = valueOf(v[i] as string);
    if (n === null) return null;
    sum += n * (WEIGHTS[i] as number);
  }
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

/** Why a VIN is not valid, or null when it is (case-insensitive, surrounding spaces ignored). */
export function vinProblem(input: string): string | null {
  const v = input.trim().toUpperCase();
  if (v.length !== 17) return 'VIN must be exactly 17 characters';
  if (/[IOQ]/.test(v)) return 'VIN cannot contain the letters I, O or Q';
  if (!VIN_PATTERN.test(v)) return 'VIN may only contain letters and digits';
  const check = vinCheckDigit(v);
  if (check !== v[8]) return `VIN check digit does not match (9th character should be ${check})`;
  return null;
}

export const isValidVin = (vin: string): boolean => vinProblem(vin) === null;

/** Completes a 17-character VIN by writing the right check digit at position 9 (seed data, tests). */
export function withVinCheckDigit(vin: string): string {
  const v = vin.toUpperCase();
  const check = vinCheckDigit(v.slice(0, 8) + '0' + v.slice(9));
  if (!check) throw new Error(`not a VIN: ${vin}`);
  return v.slice(0, 8) + check + v.slice(9);
}
