import { errorCodeOfStatus, type ErrorCode, type ErrorParams } from '@fleet/api-contract';

/**
 * An error that the one error handler renders as the spec's body with this status. Its `code` (the
 * contract's catalogue, decision 0257) is the thrower's, or the status's default: none answers
 * without one.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  constructor(
    readonly status: number,
    message: string,
    readonly technicalMessage: string = message,
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? errorCodeOfStatus(status);
  }

  /** Seconds after which the same request may succeed (a 429's Retry-After). */
  retryAfterSeconds?: number | undefined;

  /** Values a client words the error with in its own language (the code's params). */
  params?: ErrorParams | undefined;

  withParams(params: ErrorParams): this {
    this.params = params;
    return this;
  }
}

export const badRequest = (message: string, technical?: string, code?: ErrorCode) => new AppError(400, message, technical, code);
export const unauthorized = (message = 'Authentication required', technical?: string, code?: ErrorCode) => new AppError(401, message, technical, code);
export const forbidden = (message = 'You do not have permission to do this', technical?: string, code?: ErrorCode) =>
  new AppError(403, message, technical, code);
export const notFound = (what = 'Resource') => new AppError(404, `${what} not found`);
export const conflict = (message: string, technical?: string, code?: ErrorCode) => new AppError(409, message, technical, code);
/**
 * A 400 or 409 about one field: the message in words, the technical message `path: words` so a
 * client can put it under the field (`admin.email: An account with this email already exists`).
 */
export const fieldError = (status: 400 | 409, path: string, message: string, code?: ErrorCode) => new AppError(status, message, `${path}: ${message}`, code);
export const invalidField = (path: string, message: string, code: ErrorCode = 'validation.invalid_field') => fieldError(400, path, message, code);
export const conflictOn = (path: string, message: string, code?: ErrorCode) => fieldError(409, path, message, code);
export const payloadTooLarge = (message: string) => new AppError(413, message);
/** 429; with `retryAfterSeconds`, answered in Retry-After: when the same request may succeed. */
export const tooManyRequests = (message: string, retryAfterSeconds?: number, code?: ErrorCode) =>
  Object.assign(new AppError(429, message, message, code), { retryAfterSeconds });
