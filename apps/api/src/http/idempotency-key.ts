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
  if (key === undefined || !KEY.test(key)) throw invalidField('Idempotency-Key', 'Idempotency-Key must be 8 to 100 letters, digits, dots, colons, dashes or underscores (a UUID)');
  return key;
}
