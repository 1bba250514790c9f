import { eq, lt, sql } from 'drizzle-orm';
import { STREAM_TICKET_TTL_SECONDS, type StreamTicket } from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import { streamTickets } from '../../db/schema/index.ts';
import { randomToken, sha256 } from './crypto.ts';

/**
 * Issues a ticket that opens one live stream of `orgId` as `userId` within STREAM_TICKET_TTL_SECONDS
 * (docs/decisions/0087). Only its hash is stored; expiry is the database's clock, so every API
 * instance agrees on it. Expired tickets are swept here: tickets are few (one per map (re)connect).
 */
export async function issueStreamTicket(
  db: Db,
  input: { userId: string; orgId: string; sessionEpoch: number; stream: string; sessionId: string | null },
): Promise<StreamTicket> {
  const raw = randomToken(32);
  const [row] = await db
    .insert(streamTickets)
    .values({
      tokenHash: sha256(raw),
      userId: input.userId,
      organizationId: input.orgId,
      sessionEpoch: input.sessionEpoch,
      stream: input.stream,
      sessionId: input.sessionId,
      expiresAt: sql`now() + make_interval(secs => ${STREAM_TICKET_TTL_SECONDS})`,
    })
    .returning({ expiresAt: streamTickets.expiresAt });
  await db.delete(streamTickets).where(lt(streamTickets.expiresAt, sql`now()`));
  return { ticket: raw, expiresAt: row!.expiresAt.toISOString() };
}

/**
 * Spends a ticket: it is deleted whether or not it is still valid, in one statement, so two
 * instances presented the same ticket cannot both accept it. Null when unknown, used or expired.
 * The caller still checks the user's current status, permissions, organization and session epoch.
 */
export async function redeemStreamTicket(
  db: Db,
  raw: string,
): Promise<{ userId: string; orgId: string; sessionEpoch: number; stream: string; sessionId: string | null } | null> {
  const rows = await db
    .delete(streamTickets)
    .where(eq(streamTickets.tokenHash, sha256(raw)))
    // The expiry is compared here: Citus refuses now() in the RETURNING of a write to its tables.
    .returning({
      userId: streamTickets.userId,
      orgId: streamTickets.organizationId,
      expiresAt: streamTickets.expiresAt,
      sessionEpoch: streamTickets.sessionEpoch,
      stream: streamTickets.stream,
      sessionId: streamTickets.sessionId,
    });
  const row = rows[0];
  return row && row.expiresAt.getTime() > Date.now()
    ? { userId: row.userId, orgId: row.orgId, sessionEpoch: row.sessionEpoch, stream: row.stream, sessionId: row.sessionId }
    : null;
}
