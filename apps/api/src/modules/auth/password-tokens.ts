import type { DbOrTx } from '../../db/client.ts';
import { passwordResetTokens } from '../../db/schema/index.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { randomToken, sha256 } from './crypto.ts';

// Single-use links to the create-new-password screen: a reset asked for by the user, or an
// invitation sent by an administrator (users/invitations.ts). Spent by auth.createNewPassword.

export const RESET_TOKEN_TTL_MS = 3600 * 1000;
export const INVITE_TOKEN_TTL_MS = 7 * 24 * 3600 * 1000;

/** Creates a single-use set-password token and returns the raw value for the link. */
export async function createPasswordToken(tx: DbOrTx, userId: string, purpose: 'RESET' | 'INVITE'): Promise<string> {
  const raw = randomToken(32);
  await tx.insert(passwordResetTokens).values({
    userId,
    tokenHash: sha256(raw),
    purpose,
    expiresAt: new Date(Date.now() + (purpose === 'RESET' ? RESET_TOKEN_TTL_MS : INVITE_TOKEN_TTL_MS)),
  });
  return raw;
}

export async function sendPasswordResetEmail(
  deps: { db: DbOrTx; mailer: Mailer; publicUrl: string },
  user: { id: string; email: string; firstName: string | null },
): Promise<void> {
  const token = await createPasswordToken(deps.db, user.id, 'RESET');
  const link = `${deps.publicUrl}/create-new-password/${token}`;
  await deps.mailer.send({
    to: user.email,
    subject: 'Reset your Fleetline password',
    text: `Hello ${user.firstName ?? ''},\n\nUse this link within 1 hour to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this e-mail; your password stays unchanged.\n`,
    html: `<p>Hello ${escapeHtml(user.firstName ?? '')},</p><p>Use this link within 1 hour to choose a new password:</p><p><a href="${link}">${link}</a></p><p>If you did not ask for this, ignore this e-mail; your password stays unchanged.</p>`,
  });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
