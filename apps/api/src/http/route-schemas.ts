import { errorBodySchema } from '@fleet/api-contract';
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { inputRuleErrors, validatorWithInputRules } from './validator.ts';
import { z, type ZodType } from 'zod';

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429;

/** Error responses for the OpenAPI document; every one has the spec's body. */
export function errors(...codes: ErrorStatus[]): Partial<Record<ErrorStatus, typeof errorBodySchema>> {
  const out: Partial<Record<ErrorStatus, typeof errorBodySchema>> = {};
  for (const c of codes) out[c] = errorBodySchema;
  return out;
}

/** Error set of an authenticated route outside an organization. */
export const authErrors = (...extra: ErrorStatus[]) => errors(401, 403, ...extra);

/** Standard error set for an authenticated organization route. */
export const orgErrors = (...extra: ErrorStatus[]) => errors(400, 401, 403, 404, ...extra);

export type Infer<T extends z.ZodType> = z.infer<T>;

/**
 * A 2xx whose body is not JSON (a CSV file, an image, an event stream), documented by its content
 * type and a described string schema.
 */
export function nonJsonResponse(contentType: string, description: string, binary = false) {
  const schema = binary ? z.string().meta({ format: 'binary', description }) : z.string().describe(description);
  return { description, content: { [contentType]: { schema } } };
}

/** The multipart upload of one image (field `file`), read by the handler: pair with checkedElsewhere({ body: 'handler' }). */
export const imageUploadBody = z.object({
  file: z.string().meta({ format: 'binary', description: 'PNG, JPEG, GIF or WebP image' }),
});

type CheckedPart = 'body' | 'querystring';

/**
 * A route's `schema` documents its request for the API document; this validator compiler lets
 * some parts be checked elsewhere: `'handler'` (the handler reads and checks it: a multipart upload,
 * the OsmAnd protocol) or another zod schema (the batch envelope, whose items are checked one by
 * one, decision 0058). Every other part is validated by its documented schema as usual.
 */
export function checkedElsewhere(parts: Partial<Record<CheckedPart, ZodType | 'handler'>>): FastifySchemaCompiler<unknown> {
  return (route) => {
    const instead = route.httpPart === 'body' || route.httpPart === 'querystring' ? parts[route.httpPart] : undefined;
    // The handler reads and checks it (`true`: Fastify leaves the raw part for the handler to
    // read); a JSON body it reads still holds to the input rules.
    if (instead === 'handler') return (data) => inputRuleErrors(data) ?? true;
    // Fastify hands over one part's schema at a time, and every route schema here is zod. A part
    // checked by another schema (the batch envelope) has its items checked one by one by its handler.
    if (instead) return validatorCompiler({ ...route, schema: instead });
    return validatorWithInputRules({ ...route, schema: route.schema as ZodType });
  };
}
