import type { DbOrTx } from '../../db/client.ts';
import { hosEditRequests } from '../../db/schema/index.ts';
import type { Actor } from '../auth/index.ts';

export type EditRequestKind = (typeof hosEditRequests.$inferInsert)['kind'];

/**
 * Records an edit request (a proposal the driver accepts or rejects, decision 0112) and returns its
 * id; the caller inserts the proposed records with that id, record status inactive-change-requested.
 */
export async function createEditRequest(
  tx: DbOrTx,
  r: { orgId: string; driverId: string; kind: EditRequestKind; logDate: string; annotation: string | null; actor: Actor },
): Promise<string> {
  const [row] = await tx
    .insert(hosEditRequests)
    .values({ organizationId: r.orgId, driverId: r.driverId, kind: r.kind, logDate: r.logDate, annotation: r.annotation, requestedByUserId: r.actor.userId })
    .returning({ id: hosEditRequests.id });
  if (!row) throw new Error('edit request insert returned nothing');
  return row.id;
}
