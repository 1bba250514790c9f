import { describe, expect, it } from 'vitest';
import { dayField, ELD_YEARS, instantField, inYears } from './dates.ts';

describe('dates at the contract', () => {
  it('takes the years 1900 to 2200 and refuses 0000, 0050 and 9999 naming the field', () => {
    const at = instantField('Purchase time');
    expect(at.safeParse('2026-06-01T08:00:00-05:00').success).toBe(true);
    expect(at.safeParse('1900-01-01T00:00:00Z').success).toBe(true);
    for (const year of ['0000', '0050', '1899', '2201', '9999']) {
      const r = at.safeParse(`${year}-06-01T08:00:00Z`);
      expect(r.error?.issues.map((i) => i.message)).toEqual(['Purchase time must be in the years 1900 to 2200']);
    }
  });

  it("keeps a field's own format message and says only that when the text is no date at all", () => {
    expect(
      instantField('from', { message: 'from must be an ISO date-time' })
        .safeParse('yesterday')
        .error?.issues.map((i) => i.message),
    ).toEqual(['from must be an ISO date-time']);
    expect(
      dayField('Day')
        .safeParse('2026-02-30')
        .error?.issues.map((i) => i.message),
    ).toEqual(['Day must be a date like 2026-06-01']);
  });

  it('holds hours-of-service days to the years an ELD output file can write (MMDDYY, 20YY)', () => {
    const day = dayField('Log day', { years: ELD_YEARS });
    expect(day.safeParse('2099-12-31').success).toBe(true);
    expect(day.safeParse('1999-12-31').error?.issues[0]?.message).toBe('Log day must be in the years 2000 to 2099');
    expect(inYears('2100-01-01', ELD_YEARS)).toBe(false);
  });
});
