/** An error that the one error handler renders as the spec's body with this status. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly technicalMessage: string = message,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, technical?: string) => new AppError(400, message, technical);
export const unauthorized = (message = 'Authentication required', technical?: string) =>
  new AppError(401, message, technical);
export const forbidden = (message = 'You do not have permission to do this', technical?: string) =>
  new AppError(403, message, technical);
export const notFound = (what = 'Resource') => new AppError(404, `${what} not found`);
export const conflict = (message: string, technical?: string) => new AppError(409, message, technical);
/**
 * A 400 or 409 about one field: the message in words, the technical message `path: words` so a
 * client can put it under the field (`admin.email: An account with this email already exists`).
 */
export const fieldError = (status: 400 | 409, path: string, message: string) => new AppError(status, message, `${path}: ${message}`);
export const invalidField = (path: string, message: string) => fieldError(400, path, message);
export const conflictOn = (path: string, message: string) => fieldError(409, path, message);
export const payloadTooLarge = (message: string) => new AppError(413, message);
export const tooManyRequests = (message: string) => new AppError(429, message);

interface PgErrorFields {
  code: string;
  constraint?: string;
  /** `Key (driver_id)=(…) is not present in table "drivers".` */
  detail?: string;
  message?: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** PostgreSQL's error, possibly wrapped by Drizzle's DrizzleQueryError as `cause`. */
export function pgError(err: unknown): PgErrorFields | null {
  let e: unknown = err;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const rec = e as { code?: unknown; constraint?: unknown; detail?: unknown; message?: unknown; cause?: unknown };
    if (typeof rec.code === 'string' && /^[0-9A-Z]{5}$/.test(rec.code)) {
      return { code: rec.code, constraint: text(rec.constraint), detail: text(rec.detail), message: text(rec.message) };
    }
    e = rec.cause;
  }
  return null;
}

/** The constraint name when `err` is a unique violation (23505), else null. Internal: answers name the field (constraint-words.ts). */
export function uniqueViolation(err: unknown): string | null {
  const pg = pgError(err);
  return pg?.code === '23505' ? (pg.constraint ?? 'unique') : null;
}

/** The constraint name when `err` is a foreign-key violation (23503), else null. Internal, as above. */
export function foreignKeyViolation(err: unknown): string | null {
  const pg = pgError(err);
  return pg?.code === '23503' ? (pg.constraint ?? 'foreign_key') : null;
}
