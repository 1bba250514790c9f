import { z } from 'zod';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Any JSON value, for data whose shape the API does not own (device attributes, a record's
 * snapshot in the activity log). Registered as the `JsonValue` component of the API document, so
 * the document describes it instead of showing an empty schema.
 */
export const jsonValueSchema: z.ZodType<JsonValue> = z
  .lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValueSchema), z.record(z.string(), jsonValueSchema)]))
  .meta({ id: 'JsonValue', description: 'Any JSON value' });

/** A JSON object whose values may be anything JSON. */
export const jsonObjectSchema = z.record(z.string(), jsonValueSchema);
