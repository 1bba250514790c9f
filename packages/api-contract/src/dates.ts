import { z } from 'zod';

// Dates at the contract (issue 43): a year a fleet record can be in, whatever the format allows.
// Year 0000 answered a 500 (PostgreSQL has no year 0) and 0001-0099 were stored as 19xx/20xx by
// date arithmetic that reads two-digit years; a typo such as 20260 or 2062 is caught here too.
// Every date and date-time field of a request uses one of these, so a new one inherits the rule
// (the API's fuzz test sends years 0000, 0050 and 9999 to each).

export interface YearRange {
  min: number;
  max: number;
}

/** Years any record of the product is in. */
export const RECORD_YEARS: YearRange = { min: 1900, max: 2200 };

/**
 * Years of hours-of-service records: the ELD output file writes dates as MMDDYY, read as 20YY
 * (49 CFR 395 Appendix A 4.8.2), so a record outside them could not be handed to an officer.
 */
export const ELD_YEARS: YearRange = { min: 2000, max: 2099 };

/** True when the text's leading `YYYY` is in `years` (or it has no such year: its format check speaks). */
export function inYears(text: string, years: YearRange = RECORD_YEARS): boolean {
  const m = /^\s*(\d{4})/.exec(text);
  if (!m) return true;
  const year = Number(m[1]);
  return year >= years.min && year <= years.max;
}

export const yearsMessage = (label: string, years: YearRange = RECORD_YEARS) => `${label} must be in the years ${years.min} to ${years.max}`;

/** An instant with its offset (`2026-06-01T06:00:00-05:00` or `…Z`), in `years`. */
export function instantField(label: string, { years = RECORD_YEARS, message }: { years?: YearRange; message?: string } = {}) {
  return z.iso
    .datetime({ offset: true, error: () => message ?? `${label} must be an instant like 2026-06-01T06:00:00-05:00` })
    .refine((v) => inYears(v, years), yearsMessage(label, years));
}

/** A calendar day (`2026-06-01`, a real date), in `years`. */
export function dayField(label: string, { years = RECORD_YEARS, message }: { years?: YearRange; message?: string } = {}) {
  return z.iso
    .date({ error: (iss) => (iss.input === undefined ? `${label} is a required field` : (message ?? `${label} must be a date like 2026-06-01`)) })
    .refine((v) => inYears(v, years), yearsMessage(label, years));
}
