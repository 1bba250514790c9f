import type { FastifyRequest } from 'fastify';
import { invalidField } from './errors.ts';

// A driver's phone sends the records it took offline when the network returns, each with an
// `Idempotency-Key` header (issue 44, decision 0184). The key is stored with the record in the same
// transaction, so a resend (the answer was lost, the phone or the server restarted) answers the record
// the first send made instead of storing a second one.

const KEY = /^[A-Za-z0-9_.:-]{8,100}$/;

/** The request's Idempotency-Key, or null without one; a malformed key is a 400 that changes nothing. */
export function idempotencyKeyOf(req: FastifyRequest): string | null {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || !KEY.test(key))
    throw invalidField('Idempotency-Key', 'Idempotency-Key must be 8 to 100 letters, digits, dots, colons, dashes or underscores (a UUID)');
  return key;
}

/** A phone's clock a little ahead of the server's: a recorded time this far ahead is taken as now. */
const CLOCK_SKEW_MS = 60_000;

/**
 * The epoch ms a record a phone sent late was made at (its `recordedAt`), never after `now`; `now`
 * without one. More than a minute ahead of the server is a 400 naming `recordedAt`.
 */
export function recordedTime(recordedAt: string | null | undefined, now: number): number {
  if (!recordedAt) return now;
  const ms = Date.parse(recordedAt);
  if (ms > now + CLOCK_SKEW_MS)
    throw invalidField('recordedAt', "Recorded at cannot be in the future: check the phone's date and time", 'sync.recorded_in_future');
  return Math.min(ms, now);
}
