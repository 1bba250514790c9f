import type { ErrorParams } from './error-code-list.ts';

// The few answers the web app reads on every page, read without zod (issue 67): the tokens of a
// refresh, an error body, a revoked stream's event. The app's first load then carries no zod; the
// schemas (auth.ts, errors.ts) stay the contract's word, and answer-readers.test.ts holds these to
// them on random input.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** tokensSchema's parse: both tokens as strings, else null. */
export function readTokens(v: unknown): { accessToken: string; refreshToken: string } | null {
  if (!isObject(v) || typeof v.accessToken !== 'string' || typeof v.refreshToken !== 'string') return null;
  return { accessToken: v.accessToken, refreshToken: v.refreshToken };
}

/** The error body as a client reads it (receivedErrorBodySchema's parse), else null. */
export function readErrorBody(
  v: unknown,
): { code?: string; message: string; technicalMessage: string; status: number; timestamp: string; params?: ErrorParams } | null {
  if (!isObject(v)) return null;
  const { code, message, technicalMessage, status, timestamp, params } = v;
  if (code !== undefined && typeof code !== 'string') return null;
  if (typeof message !== 'string' || typeof technicalMessage !== 'string' || typeof timestamp !== 'string') return null;
  if (typeof status !== 'number' || !Number.isSafeInteger(status)) return null;
  if (params !== undefined && !(isObject(params) && Object.values(params).every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)))))
    return null;
  return {
    ...(code !== undefined ? { code } : {}),
    message,
    technicalMessage,
    status,
    timestamp,
    ...(params !== undefined ? { params: { ...(params as ErrorParams) } } : {}),
  };
}

/** A live stream's last event when the server withdrew access (auth.ts). */
export const STREAM_REVOKED_EVENT = 'revoked';
const REVOKED_REASONS = ['session', 'forbidden', 'token'] as const;

/** streamRevokedSchema's parse, else null. */
export function readStreamRevoked(v: unknown): { reason: (typeof REVOKED_REASONS)[number]; message: string } | null {
  if (!isObject(v) || typeof v.message !== 'string' || !REVOKED_REASONS.includes(v.reason as never)) return null;
  return { reason: v.reason as (typeof REVOKED_REASONS)[number], message: v.message };
}
