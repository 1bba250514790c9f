/** An error that the one error handler renders as the spec's body with this status. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly technicalMessage: string = message,
  ) {
    super(message);
  }

  /** Seconds after which the same request may succeed (a 429's Retry-After). */
  retryAfterSeconds?: number | undefined;
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
/** 429; with `retryAfterSeconds`, answered in Retry-After: when the same request may succeed. */
export const tooManyRequests = (message: string, retryAfterSeconds?: number) => Object.assign(new AppError(429, message), { retryAfterSeconds });
