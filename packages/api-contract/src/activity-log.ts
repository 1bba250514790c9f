import { z } from 'zod';
import { pageQuerySchema } from './paging.ts';

const isoDate = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => !Number.isNaN(Date.parse(v)), `${label} is not valid.`)
    .optional();

/** Filters of the activity log: who, what, which kind of entity, when; newest first by default. */
export const activityLogQuerySchema = pageQuerySchema.extend({
  userId: z.uuid().optional(),
  action: z.string().trim().max(60).optional(),
  entityType: z.string().trim().max(60).optional(),
  entityId: z.string().trim().max(100).optional(),
  from: isoDate('from'),
  to: isoDate('to'),
});
export type ActivityLogQuery = z.infer<typeof activityLogQuerySchema>;

export const activityActorSchema = z.object({
  userId: z.string().nullable(),
  email: z.string().nullable(),
  role: z.string().nullable(),
  name: z.string().nullable(),
});

export const activityLogEntrySchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  actor: activityActorSchema,
  action: z.string(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  ip: z.string().nullable(),
  /** Fields that differ between before and after (names only; the detail has the values). */
  changedFields: z.array(z.string()),
});
export type ActivityLogEntry = z.infer<typeof activityLogEntrySchema>;

export const activityChangeSchema = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });

export const activityLogDetailSchema = activityLogEntrySchema.extend({
  before: z.unknown(),
  after: z.unknown(),
  /** One line per top-level field that differs. */
  changes: z.array(activityChangeSchema),
});
export type ActivityLogDetail = z.infer<typeof activityLogDetailSchema>;

export const activityLogFiltersSchema = z.object({
  actions: z.array(z.string()),
  entityTypes: z.array(z.string()),
});
