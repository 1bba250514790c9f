import { randomUUID } from 'node:crypto';
import type { LoadContact, loadContactsInputSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import { invalidField, notFound } from '../../http/errors.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import * as repo from './tracking.repository.ts';
import { derivedToken, TOKEN_PATTERN, tokenHash } from './tracking-tokens.ts';

// A load's contacts (issue 69, decision 0283): the shipper, consignee or broker who hear about it,
// each with the notices they chose. PUT replaces the list; a contact kept (same e-mail) keeps its id,
// its unsubscribe and the notices it was sent, so saving the list again sends nothing twice and does
// not subscribe again someone who unsubscribed.

type ContactsInput = z.infer<typeof loadContactsInputSchema>;

export async function listContacts(s: ReadScope, loadId: string): Promise<{ items: LoadContact[] }> {
  if (!(await repo.loadOf(s.db, s.orgId, loadId))) throw notFound('Load');
  const rows = await repo.contactsOf(s.db, s.orgId, loadId);
  const sent = await repo.sentNoticesOf(
    s.db,
    s.orgId,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) => ({
      id: r.id,
      role: r.role,
      name: r.name,
      email: r.email,
      notices: r.notices,
      unsubscribedAt: r.unsubscribedAt?.toISOString() ?? null,
      sent: sent
        .filter((n) => n.contactId === r.id)
        .map((n) => ({ kind: n.kind, stopSeq: n.stopSeq < 0 ? null : n.stopSeq, sentAt: (n.sentAt ?? new Date(0)).toISOString() })),
    })),
  };
}

export async function replaceContacts(s: Scope, key: Buffer, loadId: string, body: ContactsInput): Promise<{ items: LoadContact[] }> {
  const seen = new Map<string, number>();
  body.contacts.forEach((c, i) => {
    const email = c.email.trim().toLowerCase();
    if (seen.has(email)) throw invalidField(`contacts.${i}.email`, `E-mail ${c.email} is already a contact of this load`);
    seen.set(email, i);
  });
  await s.db.transaction(async (tx) => {
    if (!(await repo.loadOf(tx, s.orgId, loadId))) throw notFound('Load');
    const before = await repo.contactsOf(tx, s.orgId, loadId);
    const kept = new Map(before.map((r) => [r.email.toLowerCase(), r]));
    await repo.deleteContacts(
      tx,
      s.orgId,
      before.filter((r) => !seen.has(r.email.toLowerCase())).map((r) => r.id),
    );
    for (const [position, c] of body.contacts.entries()) {
      const values = { position, role: c.role, name: c.name.trim(), email: c.email.trim(), notices: [...new Set(c.notices)] };
      const had = kept.get(values.email.toLowerCase());
      if (had) await repo.updateContact(tx, s.orgId, had.id, values);
      else {
        const id = randomUUID();
        await repo.insertContact(tx, { orgId: s.orgId, id, loadId, ...values, unsubscribeHash: tokenHash(derivedToken(key, 'unsubscribe', id)) });
      }
    }
  });
  return listContacts(s, loadId);
}

/** One-click unsubscribe (RFC 8058): the contact gets no more notices. False for a token that names no contact. */
export async function unsubscribe(db: Scope['db'], token: string, now = Date.now()): Promise<boolean> {
  if (!TOKEN_PATTERN.test(token)) return false;
  const contact = await repo.contactByUnsubscribeHash(db, tokenHash(token));
  if (!contact) return false;
  await repo.markUnsubscribed(db, contact.organizationId, contact.id, now);
  return true;
}
