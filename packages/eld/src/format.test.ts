import { describe, expect, it } from 'vitest';
import {
  fieldText,
  fileDate,
  fileHours,
  fileMiles,
  filePosition,
  fileSequenceId,
  isLocalDateTime,
  readFileDate,
  readFileTime,
  readPosition,
  toAscii,
} from './format.ts';

describe('ASCII text', () => {
  it('drops accents and spells out letters without an ASCII base', () => {
    expect(toAscii('Núñez Çelik Ærøskøbing Straße Łódź')).toBe('Nunez Celik AEroskobing Strasse Lodz');
  });

  it('turns typographic quotes and dashes into their ASCII forms', () => {
    expect(toAscii('O’Brien – “Yard”')).toBe('O\'Brien - "Yard"');
  });

  it('replaces a character it cannot spell with a question mark and other whitespace with a space', () => {
    expect(toAscii('Truck 🚚\tok')).toBe('Truck ? ok');
  });

  it('leaves printable ASCII unchanged', () => {
    expect(toAscii("Prairie Freight Lines LLC, #4 (O'Hare)")).toBe("Prairie Freight Lines LLC, #4 (O'Hare)");
  });
});

describe('field text', () => {
  it('replaces commas and carriage returns inside a value with semicolons', () => {
    expect(fieldText('Fuel, then lunch\r\nat Joliet\rstop\nend')).toBe('Fuel; then lunch;at Joliet;stop;end');
  });

  it('cuts a value to the length of its field', () => {
    expect(fieldText('x'.repeat(70), 60)).toHaveLength(60);
  });
});

describe('dates, times and numbers', () => {
  it('writes dates MMDDYY', () => {
    expect(fileDate('2026-06-01')).toBe('060126');
    expect(fileDate('2030-12-31')).toBe('123130');
  });

  it('reads MMDDYY as a 21st-century date and refuses impossible ones', () => {
    expect(readFileDate('022828')).toBe('2028-02-28');
    expect(readFileDate('022928')).toBe('2028-02-29');
    expect(readFileDate('022927')).toBeNull();
    expect(readFileDate('130126')).toBeNull();
    expect(readFileDate('6126')).toBeNull();
  });

  it('reads HHMMSS only within a day', () => {
    expect(readFileTime('235959')).toBe('23:59:59');
    expect(readFileTime('240000')).toBeNull();
    expect(readFileTime('126000')).toBeNull();
  });

  it('accepts local date-times without an offset only', () => {
    expect(isLocalDateTime('2026-06-01T06:30:00')).toBe(true);
    expect(isLocalDateTime('2026-06-01T06:30:00Z')).toBe(false);
    expect(isLocalDateTime('2026-06-31T06:30:00')).toBe(false);
  });

  it('writes sequence ids in upper-case hexadecimal without padding', () => {
    expect([0, 15, 0x1f2c, 0xffff].map(fileSequenceId)).toEqual(['0', 'F', '1F2C', 'FFFF']);
  });

  it('writes whole miles, engine hours with one decimal, and blanks for unknown values', () => {
    expect(fileMiles(412_345.9)).toBe('412345');
    expect(fileHours(10_234.46)).toBe('10234.5');
    expect(fileHours(3)).toBe('3.0');
    expect(fileMiles(null)).toBe('');
    expect(fileHours(null)).toBe('');
  });
});

describe('positions', () => {
  it('writes two decimals, and one at reduced precision', () => {
    expect(filePosition({ kind: 'fix', latitude: 41.8781, longitude: -87.6298, reduced: false })).toEqual(['41.88', '-87.63']);
    expect(filePosition({ kind: 'fix', latitude: 41.8781, longitude: -87.6298, reduced: true })).toEqual(['41.9', '-87.6']);
  });

  it('writes no minus sign on a coordinate that rounds to zero', () => {
    expect(filePosition({ kind: 'fix', latitude: -0.001, longitude: -0.004, reduced: false })).toEqual(['0.00', '0.00']);
  });

  it('writes X, M and E in both fields', () => {
    expect(filePosition({ kind: 'none' })).toEqual(['X', 'X']);
    expect(filePosition({ kind: 'manual' })).toEqual(['M', 'M']);
    expect(filePosition({ kind: 'malfunction' })).toEqual(['E', 'E']);
  });

  it('reads the precision back from the number of decimals', () => {
    expect(readPosition('41.9', '-87.6')).toEqual({ kind: 'fix', latitude: 41.9, longitude: -87.6, reduced: true });
    expect(readPosition('41.90', '-87.60')).toEqual({ kind: 'fix', latitude: 41.9, longitude: -87.6, reduced: false });
  });

  it('refuses mixed markers, mixed precision and out-of-range degrees', () => {
    expect(readPosition('X', 'M')).toBeNull();
    expect(readPosition('41.9', '-87.63')).toBeNull();
    expect(readPosition('91.00', '0.00')).toBeNull();
    expect(readPosition('41', '-87')).toBeNull();
  });
});
