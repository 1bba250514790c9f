import fastJson from 'fast-json-stringify';
import { z } from 'zod';

type JsonSchema = { [key: string]: unknown };

/**
 * `anyOf: [X, {type: 'null'}]` (how zod writes `.nullable()`) becomes X with `nullable: true`:
 * fast-json-stringify then writes it directly instead of running a validator per value to pick
 * the branch (which made it slower than JSON.stringify on a list page).
 */
function nullableBranches(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableBranches);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) out[k] = nullableBranches(v);
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const isNull = (s: unknown) => typeof s === 'object' && s !== null && (s as JsonSchema).type === 'null';
    const other = anyOf.find((s) => !isNull(s));
    if (anyOf.some(isNull) && other && typeof other === 'object') {
      const { anyOf: _drop, ...rest } = out;
      return { ...rest, ...(other as JsonSchema), nullable: true };
    }
  }
  return out;
}

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
  const json = nullableBranches(z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }));
  // fast-json-stringify takes draft-7 JSON Schema; zod writes exactly that here.
  return fastJson(json as Parameters<typeof fastJson>[0]);
}
