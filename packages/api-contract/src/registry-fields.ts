import { z } from 'zod';
import { JURISDICTION_CODES, RECORD_STATUSES } from './registry-reference.ts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema } from './paging.ts';

defineLabels({ status: 'Status', notes: 'Notes' });

/** Optional text: trimmed, '' and null both mean "not set" (stored null). */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v === '' || v == null ? null : v));

/** Optional, upper-cased code or identifier. */
export const optionalUpper = (max: number) => optionalText(max).transform((v) => (v === null ? null : v.toUpperCase()));

export const stateCode = (label: string) =>
  z
    .string({ error: () => `${label} is a required field` })
    .trim()
    .min(1, `${label} is a required field`)
    .toUpperCase()
    .pipe(z.enum(JURISDICTION_CODES, { error: () => `${label} is not a US state or Canadian province code` }));

export const optionalStateCode = (label: string) =>
  z
    .string()
    .trim()
    .toUpperCase()
    .nullish()
    .transform((v) => (v === '' || v == null ? null : v))
    .pipe(z.enum(JURISDICTION_CODES, { error: () => `${label} is not a US state or Canadian province code` }).nullable());

export const recordStatus = z.enum(RECORD_STATUSES, { error: () => 'Status must be ACTIVE or INACTIVE' });

export const optionalPhone = z
  .string()
  .trim()
  .max(32)
  .regex(/^[+0-9 ()\-.]*$/, 'Phone is not valid.')
  .nullish()
  .transform((v) => (v === '' || v == null ? null : v));

/** A query value that may be repeated (`?columns=a&columns=b`) or comma-separated. */
export const repeatedQuery = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) =>
    v === undefined
      ? undefined
      : (Array.isArray(v) ? v : [v])
          .flatMap((s) => s.split(','))
          .map((s) => s.trim())
          .filter(Boolean),
  );

/** The list query shared by the registry lists: paging, search, status and group filters, columns. */
export const registryListQuery = pageQuerySchema.extend({
  status: recordStatus.optional(),
  group: z.uuid('group must be a group id').optional(),
  columns: repeatedQuery,
});

export const entityRef = z.object({ id: z.string(), name: z.string() });
export const assetRef = z.object({ id: z.string(), unitNumber: z.string(), type: z.enum(['VEHICLE', 'TRAILER']) });
export const driverRef = z.object({ id: z.string(), firstName: z.string(), lastName: z.string() });
export const gatewayRef = z.object({ id: z.string(), uniqueId: z.string(), name: z.string(), lastSeenAt: z.string().nullable() });
