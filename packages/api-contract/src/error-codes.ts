import { z } from 'zod';
import { ERROR_CODES, type ErrorParams } from './error-code-list.ts';

export * from './error-code-list.ts';

/** A component of the API document (one list, referenced by every error answer). */
export const errorCodeSchema = z.enum(ERROR_CODES).meta({
  id: 'ErrorCode',
  description: 'Stable machine code `<domain>.<reason>`: clients switch over it (and fall back to `message` for a code they do not know).',
});

/** Values a client needs to word the error itself (`hos.moved_since`: `time`), beside the English message. */
export const errorParamsSchema: z.ZodType<ErrorParams> = z.record(z.string(), z.union([z.string(), z.number()]));
