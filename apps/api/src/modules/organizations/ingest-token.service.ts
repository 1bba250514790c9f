import { eq } from 'drizzle-orm';
import type { OrgIngestTokenCreated, OrgIngestTokenStatus } from '@fleet/api-contract';
import { organizations } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { randomToken, type ReadScope, type Scope, sha256 } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';

// The organization's ingest token for Traccar's JSON forwarding (decision 0154): one per
// organization, shown once, stored as its SHA-256 like the devices' batch tokens.

export const traccarIngestUrl = (publicUrl: string) => `${publicUrl}/api/v1/ingest/traccar`;

export async function ingestTokenStatus({ db, orgId }: ReadScope, publicUrl: string): Promise<OrgIngestTokenStatus> {
  const [o] = await db
    .select({ hash: organizations.ingestTokenHash, createdAt: organizations.ingestTokenCreatedAt, lastUsedAt: organizations.ingestTokenLastUsedAt })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  if (!o) throw notFound('Organization');
  return {
    exists: o.hash !== null,
    createdAt: o.createdAt?.toISOString() ?? null,
    lastUsedAt: o.lastUsedAt?.toISOString() ?? null,
    ingestUrl: traccarIngestUrl(publicUrl),
  };
}

/** Creates the token, or replaces it: the old one stops working (within a few seconds on every instance). */
export async function rotateIngestToken(scope: Scope, publicUrl: string): Promise<OrgIngestTokenCreated> {
  const { db, orgId, actor } = scope;
  const token = randomToken(32);
  await db.transaction(async (tx) => {
    const [before] = await tx.select({ hash: organizations.ingestTokenHash }).from(organizations).where(eq(organizations.id, orgId)).for('update');
    if (!before) throw notFound('Organization');
    await tx
      .update(organizations)
      .set({ ingestTokenHash: sha256(token), ingestTokenCreatedAt: new Date(), ingestTokenLastUsedAt: null })
      .where(eq(organizations.id, orgId));
    await recordActivity(tx, { orgId, actor, action: before.hash ? 'REGENERATE_TOKEN' : 'CREATE_TOKEN', entityType: 'ORGANIZATION', entityId: orgId });
  });
  return { ...(await ingestTokenStatus(scope, publicUrl)), token };
}
