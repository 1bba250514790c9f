import { and, eq, inArray } from 'drizzle-orm';
import type { IftaReviewResult, iftaReviewInputSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import { iftaReviewMarks } from '../../db/schema/index.ts';
import { invalidField } from '../../http/errors.ts';
import type { Scope } from '../auth/index.ts';
import { recordActivityBatch } from '../activity-log/index.ts';
import { buildReport } from './ifta-report.service.ts';

// "To review" items marked checked, with who and when (decision 0137). An item's key names it as it
// is now, so a mark only covers what the reviewer saw: an edited purchase comes back unreviewed.

type Input = z.output<typeof iftaReviewInputSchema>;

/** Marks items of the quarter's list reviewed (or not reviewed again); each change is in the activity log. */
export async function markReviewed({ db, orgId, actor }: Scope, input: Input): Promise<IftaReviewResult> {
  const keys = [...new Set(input.keys)];
  const report = await buildReport({ db, orgId }, { quarter: input.quarter, fuelType: input.fuelType });
  const byKey = new Map(report.flags.map((f) => [f.key, f]));
  const unknown = keys.filter((k) => !byKey.has(k));
  if (unknown.length) {
    throw invalidField(
      'keys',
      `${unknown.length === 1 ? 'An item is' : `${unknown.length} items are`} not on the ${input.quarter} list to review (it changed since it was shown: reload the list)`,
    );
  }
  const changed = keys.filter((k) => (byKey.get(k)!.reviewed !== null) !== input.reviewed);
  if (changed.length) {
    await db.transaction(async (tx) => {
      if (input.reviewed) {
        await tx
          .insert(iftaReviewMarks)
          .values(
            changed.map((itemKey) => ({
              organizationId: orgId,
              quarter: input.quarter,
              itemKey,
              reviewedBy: actor.userId,
              reviewedByEmail: actor.email,
              note: input.note || null,
            })),
          )
          .onConflictDoNothing();
      } else {
        await tx
          .delete(iftaReviewMarks)
          .where(and(eq(iftaReviewMarks.organizationId, orgId), eq(iftaReviewMarks.quarter, input.quarter), inArray(iftaReviewMarks.itemKey, changed)));
      }
      await recordActivityBatch(
        tx,
        changed.map((k) => {
          const f = byKey.get(k)!;
          const item = { quarter: input.quarter, item: f.message, reviewed: input.reviewed, ...(input.note ? { note: input.note } : {}) };
          // A purchase's review belongs to the purchase's history; other items to the quarter's return.
          return f.purchaseId
            ? { orgId, actor, action: 'UPDATE', entityType: 'IFTA_FUEL_PURCHASE', entityId: f.purchaseId, before: { reviewed: !input.reviewed }, after: item }
            : { orgId, actor, action: 'UPDATE', entityType: 'IFTA_FILING', entityId: null, before: { reviewed: !input.reviewed }, after: item };
        }),
      );
    });
  }
  const unreviewed = report.review.unreviewed + (input.reviewed ? -changed.length : changed.length);
  return { changed: changed.length, review: { items: report.review.items, unreviewed } };
}
