import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { refreshTokens } from '../../db/schema/index.ts';

/** Revokes every session of a user (password change, deactivation). */
export async function revokeAllSessions(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
