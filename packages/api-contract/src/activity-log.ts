import { z } from 'zod';
import { inYears, yearsMessage } from './dates.ts';
import { jsonValueSchema } from './json.ts';
import { pageQuerySchema, searchText } from './paging.ts';

const isoDate = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => !Number.isNaN(Date.parse(v)), `${label} is not valid.`)
    .refine((v) => inYears(v), yearsMessage(label))
    .optional();

/** Filters of the activity log: who, what, which kind of entity, when; newest first by default. */
export const activityLogQuerySchema = pageQuerySchema.extend({
  userId: z.uuid().optional(),
  // Free text compared in SQL: no control characters (a NUL answered a 500), as the list's search.
  action: searchText('action', 60).optional(),
  entityType: searchText('entityType', 60).optional(),
  entityId: searchText('entityId', 100).optional(),
  from: isoDate('from'),
  to: isoDate('to'),
});
export type ActivityLogQuery = z.infer<typeof activityLogQuerySchema>;

/** A whole before or after snapshot: the record's fields by name, or null when there is none. */
export const activitySnapshotSchema = z
  .record(z.string(), jsonValueSchema)
  .nullable()
  .describe('The record as it was before or after the change, field name to value (secrets removed); null when the action has no such side');

export const activityActorSchema = z.object({
  userId: z.string().nullable(),
  email: z.string().nullable(),
  role: z.string().nullable(),
  /** First and last name from the users table; null for the system or a user without a name. */
  name: z.string().nullable(),
  /** The API token the change came through (issue 48), with its name; null for a person's session. */
  tokenId: z.string().nullable().optional(),
  tokenName: z.string().nullable().optional(),
  /** What a reader sees: the name, else the e-mail, else "System" (scheduled jobs, seeding). */
  label: z.string(),
});

/** The record an entry concerns, as a reader names it, and the web app's screen that opens it. */
export const activityRecordSchema = z.object({
  /** VEHICLE, TRAILER, DRIVER, DEVICE, USER, ROLE, GROUP, ORGANIZATION, DATA_RETENTION, DEVICE_MODEL, or the raw entity type. */
  type: z.string(),
  id: z.string().nullable(),
  /** "vehicle 117", "driver Maria Lopez", "the data retention periods". */
  label: z.string(),
  /** Path in the web app that shows the record; null when it no longer exists or has no screen. */
  path: z.string().nullable(),
});
export type ActivityRecord = z.infer<typeof activityRecordSchema>;

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
  /** The entry as a sentence: "Dana Reyes assigned driver Luis Ortiz to vehicle 117". */
  summary: z.string(),
  record: activityRecordSchema.nullable(),
});
export type ActivityLogEntry = z.infer<typeof activityLogEntrySchema>;

/** One top-level field that differs, with the raw values. */
export const activityChangeSchema = z.object({ field: z.string(), before: jsonValueSchema, after: jsonValueSchema });

/** The same difference for a reader: the field's label and its values in words (linked ids named). */
export const activityLabelledChangeSchema = z.object({
  field: z.string(),
  /** "Device", "Odometer", "Current driver". */
  label: z.string(),
  /** Null: the field was empty (or absent) on that side. */
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type ActivityLabelledChange = z.infer<typeof activityLabelledChangeSchema>;

export const activityLogDetailSchema = activityLogEntrySchema.extend({
  before: activitySnapshotSchema,
  after: activitySnapshotSchema,
  /** One line per top-level field that differs, raw. */
  changes: z.array(activityChangeSchema),
  /** The changes a reader cares about (bookkeeping columns left out), labelled and in words. */
  labelledChanges: z.array(activityLabelledChangeSchema),
});
export type ActivityLogDetail = z.infer<typeof activityLogDetailSchema>;

const filterOptionSchema = z.object({ value: z.string(), label: z.string() });

export const activityLogFiltersSchema = z.object({
  actions: z.array(z.string()),
  entityTypes: z.array(z.string()),
  /** The same codes with their labels ("Assign driver", "Vehicle or trailer"), for drop-downs. */
  actionOptions: z.array(filterOptionSchema),
  entityTypeOptions: z.array(filterOptionSchema),
});
export type ActivityLogFilters = z.infer<typeof activityLogFiltersSchema>;
