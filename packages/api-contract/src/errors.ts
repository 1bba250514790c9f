import { z } from 'zod';

/** The error body of spec section 3: every non-2xx answer of the API has exactly this shape. */
export const errorBodySchema = z.object({
  message: z.string(),
  technicalMessage: z.string(),
  status: z.number().int(),
  timestamp: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
