import { and, asc, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { iftaAdjustmentInputSchema, iftaAdjustmentListQuery } from '@fleet/api-contract';
import { quarterDays, quarterOf, type IftaAdjustment, type Page } from '@fleet/api-contract';
import type { z } from 'zod';
import { assets, iftaAdjustments } from '../../db/schema/index.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';

// Manual mileage adjustments with a reason (off-highway or trip-permit miles, a missing trip, a
// correction); each one written to the activity log with the change (decision 0125).

type Input = z.output<typeof iftaAdjustmentInputSchema>;
type Row = typeof iftaAdjustments.$inferSelect;

const present = (r: Row, unitNumber: string | null): IftaAdjustment => ({
  id: r.id,
  quarter: quarterOf(Date.parse(`${r.day}T00:00:00Z`)),
  day: r.day,
  assetId: r.vehicleId,
  unitNumber,
  jurisdiction: r.jurisdiction,
  adjustmentKind: r.kind,
  distanceM: r.distanceM,
  reason: r.reason,
  createdAt: r.createdAt.toISOString(),
  createdBy: r.createdByEmail,
});

export async function listAdjustments({ db, orgId }: ReadScope, q: z.output<typeof iftaAdjustmentListQuery>): Promise<Page<IftaAdjustment>> {
  const where: SQL[] = [eq(iftaAdjustments.organizationId, orgId)];
  if (q.quarter) {
    const { from, to } = quarterDays(q.quarter);
    where.push(gte(iftaAdjustments.day, from), lt(iftaAdjustments.day, to));
  }
  if (q.assetId) where.push(eq(iftaAdjustments.vehicleId, q.assetId));
  if (q.search)
    where.push(
      sql`lower(${iftaAdjustments.reason} || ' ' || ${iftaAdjustments.jurisdiction} || ' ' || coalesce(${assets.unitNumber}, '')) like ${likeTerm(q.search)}`,
    );
  const cond = and(...where);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(iftaAdjustments)
    .leftJoin(assets, and(eq(assets.id, iftaAdjustments.vehicleId), eq(assets.organizationId, iftaAdjustments.organizationId)))
    .where(cond);
  const rows = await db
    .select({ a: iftaAdjustments, unit: assets.unitNumber })
    .from(iftaAdjustments)
    .leftJoin(assets, and(eq(assets.id, iftaAdjustments.vehicleId), eq(assets.organizationId, iftaAdjustments.organizationId)))
    .where(cond)
    .orderBy(
      ...orderBy(
        q.sort,
        { day: iftaAdjustments.day, jurisdiction: iftaAdjustments.jurisdiction, createdAt: iftaAdjustments.createdAt },
        desc(iftaAdjustments.day),
        asc(iftaAdjustments.id),
      ),
    )
    .limit(q.size)
    .offset(q.page * q.size);
  return toPage(
    rows.map((r) => present(r.a, r.unit)),
    total?.n ?? 0,
    q,
  );
}

export async function createAdjustment({ db, orgId, actor }: Scope, input: Input): Promise<IftaAdjustment> {
  if (input.day > new Date().toISOString().slice(0, 10)) throw invalidField('day', 'Day is in the future');
  return db.transaction(async (tx) => {
    let unit: string | null = null;
    if (input.assetId) {
      const [v] = await tx
        .select({ unit: assets.unitNumber })
        .from(assets)
        .where(and(eq(assets.id, input.assetId), eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE')));
      if (!v) throw invalidField('assetId', 'Vehicle is not a vehicle of this organization');
      unit = v.unit;
    }
    const [row] = await tx
      .insert(iftaAdjustments)
      .values({
        organizationId: orgId,
        vehicleId: input.assetId ?? null,
        day: input.day,
        jurisdiction: input.jurisdiction,
        kind: input.adjustmentKind,
        distanceM: input.distanceM,
        reason: input.reason,
        createdBy: actor.userId,
        createdByEmail: actor.email,
      })
      .returning();
    await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'IFTA_ADJUSTMENT', entityId: row!.id, after: row });
    return present(row!, unit);
  });
}

export async function deleteAdjustment({ db, orgId, actor }: Scope, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(iftaAdjustments)
      .where(and(eq(iftaAdjustments.id, id), eq(iftaAdjustments.organizationId, orgId)))
      .for('update');
    if (!before) throw notFound('Adjustment');
    await tx.delete(iftaAdjustments).where(eq(iftaAdjustments.id, id));
    await recordActivity(tx, { orgId, actor, action: 'DELETE', entityType: 'IFTA_ADJUSTMENT', entityId: id, before });
  });
}
