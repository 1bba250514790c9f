// Output file name (Appendix A 4.8.2.2): 25 characters.
//   1-5   first five letters of the driver's last name, `_` for the missing ones ("Lee" → "Lee__")
//   6-7   last two characters of the driver's licence number
//   8-9   sum of the licence number's digits, two digits (113 → "13", 5 → "05")
//   10-15 creation date MMDDYY
//   16    "-"
//   17-25 nine characters 0-9/A-Z chosen by the carrier or provider, "000000000" by default

import { EldInputError } from './errors.ts';
import { fileDate, isLocalDate, toAscii } from './format.ts';
import type { LocalDate } from './model.ts';

export const DEFAULT_FILE_NAME_SUFFIX = '000000000';

export interface FileNameInput {
  readonly lastName: string;
  readonly licenseNumber: string;
  /** Creation date in home-terminal time. */
  readonly createdOn: LocalDate;
  /** Characters 17-25; default `000000000`. */
  readonly suffix?: string;
}

/**
 * The 25-character file name. "Letters" of the last name are read literally: spaces, apostrophes and
 * hyphens are skipped (`O'Brien-Smith` → `OBrie`) and accents dropped (`Núñez` → `Nunez`); case is
 * kept, as in the rule's own example. A licence number keeps only 0-9 and A-Z (7.11), so its last
 * two characters may be letters; a one-character licence is padded with `_` like a short name.
 */
export function eldFileName(input: FileNameInput): string {
  const letters = toAscii(input.lastName).replace(/[^A-Za-z]/g, '');
  const license = toAscii(input.licenseNumber)
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '');
  if (license.length === 0) throw new EldInputError('header.driver.licenseNumber', 'the licence number has no letter or digit');
  if (!isLocalDate(input.createdOn)) throw new EldInputError('header.current.at', `${input.createdOn} is not a date`);
  const suffix = input.suffix ?? DEFAULT_FILE_NAME_SUFFIX;
  if (!/^[0-9A-Z]{9}$/.test(suffix)) throw new EldInputError('fileNameSuffix', 'must be nine characters 0-9 or A-Z');

  let digitSum = 0;
  for (const char of license) if (char >= '0' && char <= '9') digitSum += Number(char);

  return (
    letters.slice(0, 5).padEnd(5, '_') + license.slice(-2).padStart(2, '_') + String(digitSum % 100).padStart(2, '0') + fileDate(input.createdOn) + '-' + suffix
  );
}
