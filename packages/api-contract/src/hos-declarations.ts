import { z } from 'zod';
import { ELD_YEARS, instantField } from './dates.ts';
import { defineLabels } from './field-words.ts';

// Issue 72: what a driver declares on their log that changes the rules it is judged by (decisions
// 0314, 0315): a switch between Canada's cycle 1 and cycle 2 (SOR/2005-313 s. 29), adverse driving
// conditions claimed from an instant (49 CFR 395.1(b)(1); SOR/2005-313 s. 76(2) and (3)) and an emergency until the driver
// reached safety (s. 76(1)). Each with the annotation the driver or office writes.

// `kind`, `at` and `annotation` have their words elsewhere; the emergency's end and the cycle are new.
defineLabels({ until: 'Until', cycle: 'Cycle' });

export const HOS_DECLARATION_KINDS = ['CYCLE_SWITCH', 'ADVERSE_DRIVING', 'EMERGENCY'] as const;
export type HosDeclarationKind = (typeof HOS_DECLARATION_KINDS)[number];

const instant = (label: string) => instantField(label, { years: ELD_YEARS });
const annotation = z
  .string({ error: () => 'Annotation is a required field' })
  .trim()
  .min(4, 'Annotation must be at least 4 characters')
  .max(60, 'Annotation must be at most 60 characters');

export const declarationParams = z.object({
  orgId: z.uuid(),
  driverId: z.uuid('driverId must be a driver id'),
  declarationId: z.uuid('declarationId must be a declaration id'),
});

/** The declarations from `from` to `to` (at most 31 days; default the last 7 days). */
export const declarationsQuery = z.object({ from: instant('From').optional(), to: instant('To').optional() });

export const hosDeclarationSchema = z.object({
  id: z.uuid(),
  kind: z.enum(HOS_DECLARATION_KINDS),
  /** The switch's instant, or where the adverse conditions or the emergency began. */
  at: z.string(),
  /** An emergency's end: when the driver reached safety. Null for the other kinds. */
  until: z.string().nullable(),
  /** The cycle switched to (CYCLE_SWITCH); null for the other kinds. */
  cycle: z.union([z.literal(1), z.literal(2)]).nullable(),
  annotation: z.string(),
});
export type HosDeclaration = z.infer<typeof hosDeclarationSchema>;

export const hosDeclarationListSchema = z.object({ items: z.array(hosDeclarationSchema) });
export type HosDeclarationList = z.infer<typeof hosDeclarationListSchema>;

/**
 * Declare on the log: a cycle switch (`cycle` 1 or 2), adverse driving conditions from `at`, or an
 * emergency from `at` to `until`; always with an annotation of 4-60 characters.
 */
export const declarationCreateSchema = z
  .object({
    kind: z.enum(HOS_DECLARATION_KINDS, { error: () => 'Kind must be CYCLE_SWITCH, ADVERSE_DRIVING or EMERGENCY' }),
    at: instant('At'),
    until: instant('Until').optional(),
    cycle: z.union([z.literal(1), z.literal(2)], { error: () => 'Cycle must be 1 or 2' }).optional(),
    annotation,
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'CYCLE_SWITCH' && v.cycle === undefined)
      ctx.addIssue({ code: 'custom', path: ['cycle'], message: 'Cycle is a required field for a cycle switch' });
    if (v.kind !== 'CYCLE_SWITCH' && v.cycle !== undefined) ctx.addIssue({ code: 'custom', path: ['cycle'], message: 'Cycle is only for a cycle switch' });
    if (v.kind === 'EMERGENCY' && v.until === undefined)
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'Until is a required field for an emergency' });
    if (v.kind !== 'EMERGENCY' && v.until !== undefined) ctx.addIssue({ code: 'custom', path: ['until'], message: 'Until is only for an emergency' });
    if (v.until !== undefined && Date.parse(v.until) <= Date.parse(v.at)) ctx.addIssue({ code: 'custom', path: ['until'], message: 'Until must be after At' });
  });
/** Withdraw a declaration, with an annotation (kept, removed, with it). */
export const declarationRemoveSchema = z.object({ annotation });
