import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Tokens } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { refreshTokens, users } from '../../db/schema/index.ts';
import { randomToken, sha256 } from './crypto.ts';
import type { AccessTokens } from './jwt.ts';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;

/** A new refresh token in the session (token family) `familyId`. */
export async function issueRefreshToken(tx: DbOrTx, userId: string, familyId: string): Promise<string> {
  const raw = randomToken(32);
  await tx.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: sha256(raw),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
  });
  return raw;
}

/** A new session (token family) for a user who may sign in, its access token in the user's current session epoch. */
export async function issueSession(tx: DbOrTx, tokens: AccessTokens, user: { userId: string; orgId: string | null; sessionEpoch: number }): Promise<Tokens> {
  const familyId = crypto.randomUUID();
  const refreshToken = await issueRefreshToken(tx, user.userId, familyId);
  return { accessToken: tokens.sign({ sub: user.userId, org: user.orgId, gen: user.sessionEpoch, sid: familyId }), refreshToken };
}

/**
 * Ends every session of a user (log out everywhere, password change, deactivation): revokes every
 * refresh token and raises the user's session epoch, so the access tokens and stream tickets issued
 * before are refused too. The users trigger's auth_change NOTIFY, sent at commit, ends the user's
 * open streams on every instance (OpenStreams). Answers how many refresh tokens were still live and
 * the new epoch (a session issued in the same transaction carries it).
 */
export async function revokeAllSessions(tx: DbOrTx, userId: string): Promise<{ revoked: number; sessionEpoch: number }> {
  const [user] = await tx
    .update(users)
    .set({ sessionEpoch: sql`${users.sessionEpoch} + 1` })
    .where(eq(users.id, userId))
    .returning({ sessionEpoch: users.sessionEpoch });
  const revoked = await tx
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return { revoked: revoked.length, sessionEpoch: user?.sessionEpoch ?? 0 };
}

/**
 * Of these sessions (refresh-token families), the ones signed out: a family's tokens are revoked
 * together (log out, reuse of a spent token, log out everywhere), so one revoked row ends it.
 */
export async function endedSessions(db: DbOrTx, sessionIds: readonly string[]): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(and(inArray(refreshTokens.familyId, [...sessionIds]), isNotNull(refreshTokens.revokedAt)));
  return new Set(rows.map((r) => r.familyId));
}
