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
export const payloadTooLarge = (message: string) => new AppError(413, message);
export const tooManyRequests = (message: string) => new AppError(429, message);

/** PostgreSQL's error, possibly wrapped by Drizzle's DrizzleQueryError as `cause`. */
function pgError(err: unknown): { code?: string; constraint?: string } | null {
  let e: unknown = err;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const rec = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof rec.code === 'string' && /^[0-9A-Z]{5}$/.test(rec.code)) {
      return { code: rec.code, constraint: typeof rec.constraint === 'string' ? rec.constraint : undefined };
    }
    e = rec.cause;
  }
  return null;
}

/** The constraint name when `err` is a unique violation (23505), else null. */
export function uniqueViolation(err: unknown): string | null {
  const pg = pgError(err);
  return pg?.code === '23505' ? (pg.constraint ?? 'unique') : null;
}

export function foreignKeyViolation(err: unknown): string | null {
  const pg = pgError(err);
  return pg?.code === '23503' ? (pg.constraint ?? 'foreign_key') : null;
}
