import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { groups } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';

// "The group belongs to this organization", written once: a group of another organization is
// answered exactly like one that does not exist (404 Group), so it is never seen.

const ofOrganization = (orgId: string, groupId: string) => and(eq(groups.id, groupId), eq(groups.organizationId, orgId));

/** The group's row, locked for the transaction when `lock`; 404 unless it belongs to the organization. */
export async function findGroup(db: DbOrTx, orgId: string, groupId: string, lock = false) {
  const q = db.select().from(groups).where(ofOrganization(orgId, groupId));
  const [g] = lock ? await q.for('update') : await q;
  if (!g) throw notFound('Group');
  return g;
}

/** 404 unless the group belongs to the organization (for a filter by group: nothing is read). */
export async function assertGroup(db: DbOrTx, orgId: string, groupId: string): Promise<void> {
  const [g] = await db.select({ id: groups.id }).from(groups).where(ofOrganization(orgId, groupId));
  if (!g) throw notFound('Group');
}
