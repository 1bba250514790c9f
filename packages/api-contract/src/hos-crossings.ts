import { z } from 'zod';
import { RULESET_IDS } from '@fleet/hos/ruleset-facts';
import { ELD_YEARS, instantField } from './dates.ts';

// Issue 72: border crossings on a driver's log (decision 0313). A log follows the rules of where the
// truck is: from each crossing the ruleset of the side entered applies.

export const BORDER_COUNTRIES = ['US', 'CA'] as const;
export type BorderCountry = (typeof BORDER_COUNTRIES)[number];
export const CROSSING_SOURCES = ['POSITIONS', 'DRIVER'] as const;

const instant = (label: string) => instantField(label, { years: ELD_YEARS });
const annotation = z
  .string({ error: () => 'Annotation is a required field' })
  .trim()
  .min(4, 'Annotation must be at least 4 characters')
  .max(60, 'Annotation must be at most 60 characters');

export const crossingParams = z.object({
  orgId: z.uuid(),
  driverId: z.uuid('driverId must be a driver id'),
  crossingId: z.uuid('crossingId must be a crossing id'),
});

/** The crossings of `from` to `to` (at most 31 days; default the last 7 days). */
export const crossingsQuery = z.object({ from: instant('From').optional(), to: instant('To').optional() });

export const borderCrossingSchema = z.object({
  id: z.uuid(),
  at: z.string(),
  from: z.enum(BORDER_COUNTRIES),
  to: z.enum(BORDER_COUNTRIES),
  source: z.enum(CROSSING_SOURCES),
  vehicleId: z.uuid().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** The driver's or office's note on a crossing they entered or moved. */
  annotation: z.string().nullable(),
  /** The ruleset in force before and from the crossing. */
  rulesetBefore: z.enum(RULESET_IDS),
  rulesetAfter: z.enum(RULESET_IDS),
});
export type BorderCrossing = z.infer<typeof borderCrossingSchema>;

export const borderCrossingListSchema = z.object({
  /** The ruleset in force at `from`. */
  rulesetAtStart: z.enum(RULESET_IDS),
  items: z.array(borderCrossingSchema),
});
export type BorderCrossingList = z.infer<typeof borderCrossingListSchema>;

/** Enter a crossing the positions missed: the time and the country entered, with an annotation. */
export const crossingCreateSchema = z.object({ at: instant('At'), to: z.enum(BORDER_COUNTRIES, { error: () => 'To must be US or CA' }), annotation });
/** Move a crossing to the right time, with an annotation. */
export const crossingMoveSchema = z.object({ at: instant('At'), annotation });
/** Remove a crossing that did not happen, with an annotation. */
export const crossingRemoveSchema = z.object({ annotation });
