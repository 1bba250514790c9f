import { z } from 'zod';
import { errorCodeSchema, errorParamsSchema } from './error-codes.ts';

export * from './error-codes.ts';

/**
 * The error body of spec section 3 (message, technicalMessage, status, timestamp): every non-2xx
 * answer of the API has this shape, plus `code` (decision 0257) and, for some codes, `params`.
 */
export const errorBodySchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  technicalMessage: z.string(),
  status: z.number().int(),
  timestamp: z.string(),
  params: errorParamsSchema.optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * The body as a client reads it: a code it does not know (a newer server's) still reads, and the
 * client shows `message` for it; a body without one (an older server's) too.
 */
export const receivedErrorBodySchema = errorBodySchema.extend({ code: z.string().optional() });
export type ReceivedErrorBody = z.infer<typeof receivedErrorBodySchema>;
