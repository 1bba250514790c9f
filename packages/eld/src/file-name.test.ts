import { describe, expect, it } from 'vitest';
import { EldInputError } from './errors.ts';
import { eldFileName } from './file-name.ts';

describe('ELD output file name (4.8.2.2)', () => {
  it('is 25 characters: name, licence end, digit sum, date, hyphen and nine zeros', () => {
    // Smith: "Smith"; licence D000368210361 ends "61", digits 0+0+0+3+6+8+2+1+0+3+6+1 = 30.
    const name = eldFileName({ lastName: 'Smith', licenseNumber: 'D000368210361', createdOn: '2013-02-05' });
    expect(name).toBe('Smith6130020513-000000000');
    expect(name).toHaveLength(25);
  });

  it('pads a last name shorter than five letters with underscores, as the rule spells "Lee__"', () => {
    expect(eldFileName({ lastName: 'Lee', licenseNumber: '198', createdOn: '2026-06-08' })).toBe('Lee__9818060826-000000000');
  });

  it('takes the first five letters of a long name', () => {
    expect(eldFileName({ lastName: 'Kowalczyk', licenseNumber: 'K12', createdOn: '2026-06-08' }).slice(0, 5)).toBe('Kowal');
  });

  it('skips spaces and punctuation in the last name and drops accents', () => {
    expect(eldFileName({ lastName: "O'Brien-Smith", licenseNumber: '12', createdOn: '2026-06-08' }).slice(0, 5)).toBe('OBrie');
    expect(eldFileName({ lastName: 'De La Cruz', licenseNumber: '12', createdOn: '2026-06-08' }).slice(0, 5)).toBe('DeLaC');
    expect(eldFileName({ lastName: 'Núñez', licenseNumber: '12', createdOn: '2026-06-08' }).slice(0, 5)).toBe('Nunez');
    expect(eldFileName({ lastName: 'Wu', licenseNumber: '12', createdOn: '2026-06-08' }).slice(0, 5)).toBe('Wu___');
  });

  it('ends with the last two characters of a licence number even when they are letters', () => {
    // SAMPLMJ065LD: last two "LD"; digits 0+6+5 = 11.
    expect(eldFileName({ lastName: 'Sample', licenseNumber: 'SAMPLMJ065LD', createdOn: '2026-06-08' })).toBe('SamplLD11060826-000000000');
  });

  it('ignores separators in the licence number, keeping only letters and digits (7.11)', () => {
    expect(eldFileName({ lastName: 'Doe', licenseNumber: 'd-123 45', createdOn: '2026-06-08' }).slice(5, 9)).toBe('4515');
  });

  it('keeps the last two digits of a digit sum of 100 or more', () => {
    // N02632676353666: 0+2+6+3+2+6+7+6+3+5+3+6+6+6 = 61; 99999999999999 (14 nines) = 126 → "26".
    expect(eldFileName({ lastName: 'Doe', licenseNumber: 'N02632676353666', createdOn: '2026-06-08' }).slice(5, 9)).toBe('6661');
    expect(eldFileName({ lastName: 'Doe', licenseNumber: '99999999999999', createdOn: '2026-06-08' }).slice(5, 9)).toBe('9926');
  });

  it('writes a digit sum below 10 with a leading zero', () => {
    expect(eldFileName({ lastName: 'Doe', licenseNumber: 'AB10002', createdOn: '2026-06-08' }).slice(5, 9)).toBe('0203');
  });

  it('writes a licence number without any digit as sum 00', () => {
    expect(eldFileName({ lastName: 'Doe', licenseNumber: 'WDLABCD', createdOn: '2026-06-08' }).slice(5, 9)).toBe('CD00');
  });

  it('takes the carrier-chosen nine characters after the hyphen', () => {
    expect(eldFileName({ lastName: 'Doe', licenseNumber: '12', createdOn: '2026-06-08', suffix: 'A1B2C3D4E' })).toBe('Doe__1203060826-A1B2C3D4E');
  });

  it('refuses a suffix that is not nine characters 0-9 or A-Z', () => {
    expect(() => eldFileName({ lastName: 'Doe', licenseNumber: '12', createdOn: '2026-06-08', suffix: 'abc' })).toThrow(EldInputError);
  });

  it('refuses an impossible creation date', () => {
    expect(() => eldFileName({ lastName: 'Doe', licenseNumber: '12', createdOn: '2026-02-30' })).toThrow(/not a date/);
  });
});
