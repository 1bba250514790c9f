import type { DbOrTx } from '../../db/client.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { createPasswordToken, INVITE_TOKEN_TTL_MS } from '../auth/index.ts';

export interface MailDeps {
  db: DbOrTx;
  mailer: Mailer;
  publicUrl: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * E-mails an invitation whose link opens the create-new-password screen; choosing a password
 * activates the INVITED account (auth.createNewPassword). Earlier invitation links stay valid
 * until they expire or one of them is used.
 */
export async function sendInvitationEmail(
  deps: MailDeps,
  user: { id: string; email: string; firstName: string | null },
  organizationName: string,
): Promise<void> {
  const token = await createPasswordToken(deps.db, user.id, 'INVITE');
  const link = `${deps.publicUrl}/create-new-password/${token}`;
  const days = Math.round(INVITE_TOKEN_TTL_MS / 86_400_000);
  const hello = `Hello ${user.firstName ?? ''},`;
  const body = `You are invited to ${organizationName} on Fleetline. Choose your password within ${days} days with this link:`;
  await deps.mailer.send({
    to: user.email,
    subject: `You are invited to ${organizationName} on Fleetline`,
    text: `${hello}\n\n${body}\n${link}\n\nYour sign-in e-mail is ${user.email}.\n`,
    html: `<p>${escapeHtml(hello)}</p><p>${escapeHtml(body)}</p><p><a href="${link}">${link}</a></p><p>Your sign-in e-mail is ${escapeHtml(user.email)}.</p>`,
  });
}
