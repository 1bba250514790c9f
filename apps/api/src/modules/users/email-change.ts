import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { emailChanges, passwordResetTokens, users } from '../../db/schema/index.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { badRequest, invalidField } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import { revokeTokensCreatedSince } from '../api-tokens/index.ts';
import { type Actor, randomToken, revokeAllSessions, sendPasswordResetEmail, sha256, verifyPassword } from '../auth/index.ts';
import type { MailDeps } from './invitations.ts';

// A person's own change of e-mail (issue 66, decision 0227). The e-mail is what a password reset is
// sent to, so changing it is as strong as the password: the current password is asked for, and the
// old address is told, with a link that puts it back for 7 days. Undoing is the owner taking the
// account back: every session ends, the password is void (a reset link goes to the restored address),
// pending reset links are spent, and API tokens the account made since the change are revoked.

export const EMAIL_UNDO_TTL_MS = 7 * 24 * 3600 * 1000;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The same address, whatever its case: a change of case needs no password and tells nobody. */
export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The caller's own new e-mail needs their current password: a 400 on `currentPassword` otherwise. */
export async function assertCurrentPassword(passwordHash: string | null, currentPassword: string | undefined): Promise<void> {
  if (!currentPassword) throw invalidField('currentPassword', 'Enter your current password to change your e-mail', 'users.current_password_required');
  if (!(await verifyPassword(passwordHash, currentPassword)))
    throw invalidField('currentPassword', 'Current password is not correct', 'users.current_password_wrong');
}

/**
 * Inside the transaction that changes the e-mail: the undo link's row, and the notice to the old
 * address. Sent before the commit, so a change whose notice cannot be sent does not happen.
 */
export async function noticeEmailChange(
  tx: DbOrTx,
  mail: Omit<MailDeps, 'db'>,
  user: { id: string; firstName: string | null },
  oldEmail: string,
  newEmail: string,
): Promise<void> {
  const token = randomToken(32);
  await tx.insert(emailChanges).values({ userId: user.id, oldEmail, newEmail, tokenHash: sha256(token), expiresAt: new Date(Date.now() + EMAIL_UNDO_TTL_MS) });
  const link = `${mail.publicUrl}/undo-email-change/${token}`;
  const hello = `Hello ${user.firstName ?? ''},`;
  const what = `The e-mail you sign in to Fleetline with was changed from ${oldEmail} to ${newEmail}.`;
  const undo =
    'If you did not do this, undo it within 7 days with this link. Undoing it puts this address back, signs every session out and asks you to choose a new password:';
  await mail.mailer.send({
    to: oldEmail,
    subject: 'Your Fleetline e-mail was changed',
    text: `${hello}\n\n${what}\n\n${undo}\n${link}\n\nIf you made this change, there is nothing to do.\n`,
    html: `<p>${escapeHtml(hello)}</p><p>${escapeHtml(what)}</p><p>${escapeHtml(undo)}</p><p><a href="${link}">${link}</a></p><p>If you made this change, there is nothing to do.</p>`,
  });
}

/**
 * Follows an undo link: the old e-mail is back, every session has ended, the password no longer
 * signs in, and a link to choose a new one is on its way to the restored address. Every other undo
 * link of the account is spent with it (an intruder who changed the e-mail twice holds the second).
 */
export async function undoEmailChange(deps: { db: Db } & Omit<MailDeps, 'db'>, token: string, actor: Actor): Promise<{ email: string }> {
  let restored: { id: string; email: string; firstName: string | null };
  try {
    restored = await deps.db.transaction(async (tx) => {
      const [change] = await tx
        .update(emailChanges)
        .set({ usedAt: new Date() })
        .where(and(eq(emailChanges.tokenHash, sha256(token)), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, new Date())))
        .returning();
      if (!change) throw badRequest('This link is invalid or has expired.', 'Unknown, used or expired e-mail undo token');
      await tx
        .update(emailChanges)
        .set({ usedAt: new Date() })
        .where(and(eq(emailChanges.userId, change.userId), isNull(emailChanges.usedAt)));
      const [before] = await tx.select().from(users).where(eq(users.id, change.userId));
      if (!before) throw badRequest('This link is invalid or has expired.', 'User gone');
      const [after] = await tx
        .update(users)
        .set({
          email: change.oldEmail,
          username: before.username === before.email ? change.oldEmail : before.username,
          passwordHash: null,
          updatedAt: new Date(),
        })
        .where(eq(users.id, change.userId))
        .returning();
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(passwordResetTokens.userId, change.userId), isNull(passwordResetTokens.usedAt)));
      await revokeAllSessions(tx, change.userId);
      await revokeTokensCreatedSince(tx, change.userId, change.createdAt);
      await recordActivity(tx, {
        orgId: before.organizationId,
        actor: { ...actor, userId: before.id, email: change.oldEmail, role: before.role },
        action: 'UNDO_EMAIL_CHANGE',
        entityType: 'USER',
        entityId: before.id,
        before: { email: before.email },
        after: { email: after!.email },
      });
      return { id: before.id, email: after!.email, firstName: before.firstName };
    });
  } catch (err) {
    // The old address taken by another account since: a 409 that says so.
    throw duplicateError(err) ?? err;
  }
  await sendPasswordResetEmail(deps, restored);
  return { email: restored.email };
}
