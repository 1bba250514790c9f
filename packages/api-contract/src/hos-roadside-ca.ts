import { z } from 'zod';
import { RULESET_IDS } from '@fleet/hos/ruleset-facts';
import { dayField, ELD_YEARS } from './dates.ts';
import { hosDayTotalsSchema } from './hos.ts';
import { driverRef } from './registry-fields.ts';
import { emailField } from './validation.ts';

// The Canadian roadside view of a driver's log (issue 72, decisions 0316-0317): the day an officer
// asks for and the 14 days before it, with the cycle totals SOR/2005-313 asks a daily log to show.

/** Days before the inspected day an officer in Canada may ask to see (the US shows 7). */
export const ROADSIDE_CA_PREVIOUS_DAYS = 14;

/** A Canadian federal ruleset (south or north of 60°N); `CA_INTRASTATE` is California's and is not one. */
export const isCanadianRuleset = (ruleset: string): boolean => ruleset.startsWith('CA_SOUTH') || ruleset.startsWith('CA_NORTH');

export const roadsideCaQuery = z.object({
  /** The inspected log day (default: today in the driver's home terminal zone); the 14 days before it come along. */
  date: dayField('Date', { years: ELD_YEARS }).optional(),
});
export type RoadsideCaQuery = z.infer<typeof roadsideCaQuery>;

export const roadsideCaEmailSchema = roadsideCaQuery.extend({ email: emailField('Email') });
export type RoadsideCaEmail = z.infer<typeof roadsideCaEmailSchema>;

/** The cycle totals at the end of a log day (at now for today). */
export const roadsideCaCycleSchema = z.object({
  /** The moment the totals are for: the end of the day, or now while the day runs. */
  at: z.string(),
  /** On-duty time counted in the current cycle (since the last reset, within the cycle's days). */
  onDutyMs: z.number(),
  /** On-duty time left in the cycle (0 when 24 h off is required first). */
  remainingMs: z.number(),
  /** When the last cycle reset (36 h off for cycle 1, 72 h for cycle 2) was complete; null when none is in the records read. */
  lastResetAt: z.string().nullable(),
  /** Time from the last reset to `at`; null with `lastResetAt`. */
  sinceResetMs: z.number().nullable(),
  /** The cycle in force at `at`: the driver's, or the one a declared switch chose (s. 29, decision 0314). */
  ruleset: z.enum(RULESET_IDS).optional(),
});
export type RoadsideCaCycle = z.infer<typeof roadsideCaCycleSchema>;

export const roadsideCaDaySchema = z.object({
  /** The log day's id (`hos_log/{id}`); null for a day before the driver's first record (no log kept). */
  id: z.string().nullable(),
  date: z.string(),
  totals: hosDayTotalsSchema,
  cycle: roadsideCaCycleSchema,
  certified: z.boolean(),
});
export type RoadsideCaDay = z.infer<typeof roadsideCaDaySchema>;

export const roadsideCaSchema = z.object({
  driver: driverRef,
  ruleset: z.enum(RULESET_IDS),
  timeZone: z.string(),
  /** The inspected day. */
  date: z.string(),
  /** The first of the 14 days before it. */
  from: z.string(),
  /** The inspected day first, then the 14 days before it, newest first. */
  days: z.array(roadsideCaDaySchema),
});
export type RoadsideCa = z.infer<typeof roadsideCaSchema>;

export const roadsideCaSentSchema = z.object({ sentTo: z.string(), fileName: z.string(), date: z.string(), from: z.string() });
export type RoadsideCaSent = z.infer<typeof roadsideCaSentSchema>;
