import { eq } from 'drizzle-orm';
import { DVIR_ITEMS, type InspectionItems } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { inspectionItems } from '../../db/schema/index.ts';
import { invalidField } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';

// The items an organization adds to the 396.11 list (issue 31, decision 0159): one row per
// organization; every inspection must report each of them too (dvirs.service reads them).

/** The organization's own items, in the order it saved them (none when it never saved any). */
export async function orgInspectionItems(db: DbOrTx, orgId: string): Promise<InspectionItems['items']> {
  const [row] = await db.select({ items: inspectionItems.items }).from(inspectionItems).where(eq(inspectionItems.organizationId, orgId));
  return row?.items ?? [];
}

export async function getInspectionItems({ db, orgId }: ReadScope): Promise<InspectionItems> {
  return { items: await orgInspectionItems(db, orgId) };
}

/** The items in words for the activity log: "Liftgate (trailers too); Fire extinguisher seal". */
const words = (items: InspectionItems['items']) => items.map((i) => (i.trailer ? `${i.name} (trailers too)` : i.name)).join('; ') || 'none';

const STANDARD = new Set(DVIR_ITEMS.flatMap((i) => [i.code.toLowerCase(), i.label.toLowerCase()]));

/**
 * Replaces the organization's items. A name the 396.11 list already has, or one given twice (in
 * any case), is a 400 on that item: an inspection could not report it twice.
 */
export async function putInspectionItems({ db, orgId, actor }: Scope, input: InspectionItems): Promise<InspectionItems> {
  const seen = new Set<string>();
  const items = input.items.map((i, n) => {
    const name = i.name.trim();
    const key = name.toLowerCase();
    if (STANDARD.has(key)) throw invalidField(`items.${n}.name`, `Item "${name}" is already on the 396.11 list`);
    if (seen.has(key)) throw invalidField(`items.${n}.name`, `Item "${name}" is listed twice`);
    seen.add(key);
    return { name, trailer: i.trailer };
  });
  await db.transaction(async (tx) => {
    const before = await orgInspectionItems(tx, orgId);
    await tx
      .insert(inspectionItems)
      .values({ organizationId: orgId, items })
      .onConflictDoUpdate({ target: inspectionItems.organizationId, set: { items, updatedAt: new Date() } });
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'UPDATE',
      entityType: 'ORGANIZATION',
      entityId: orgId,
      before: { inspectionItems: words(before) },
      after: { inspectionItems: words(items) },
    });
  });
  return { items };
}
