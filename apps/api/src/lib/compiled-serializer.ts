import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * Response serializer for hot routes with large bodies (registry list pages): the route's zod
 * response schema is turned into JSON Schema once and compiled by fast-json-stringify, instead of
 * a zod encode pass plus JSON.stringify on every response (docs/decisions/0044). Only properties
 * of the schema are written, as the zod serializer does. It does not re-validate values: the
 * presenters' TypeScript types guarantee the shape, and the API tests parse list answers with
 * the contract's zod schema.
 */
export function compiledSerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  if (!(schema instanceof z.ZodType)) throw new Error('compiledSerializer: the response schema must be a zod schema');
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
  // fast-json-stringify takes draft-7 JSON Schema; zod writes exactly that here.
  return fastJson(json as Parameters<typeof fastJson>[0]);
}
