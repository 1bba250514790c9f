import { errorBodySchema } from '@fleet/api-contract';
import type { z } from 'zod';

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
