import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { FUEL_TYPE_CODES, quarterDays, quarterOf, type IftaFiling, type IftaReturn } from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import { assets, iftaFilings, iftaFuelPurchases } from '../../db/schema/index.ts';
import { invalidField } from '../../http/errors.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { buildReport } from './ifta-report.service.ts';

// Closing a quarter (decision 0126): the return of every fuel type the fleet used is stored as
// filed, immutable; filing the same quarter again stores an amendment (the next version).
// The report compares the live figures with the latest filing.

type Stored = IftaReturn & { fuelType: string };

const present = (r: typeof iftaFilings.$inferSelect): IftaFiling => ({
  quarter: r.quarter,
  version: r.version,
  filedAt: r.filedAt,
  filedBy: r.filedBy,
  amended: r.version > 1,
  returns: r.returns as Stored[],
});

export async function listFilings({ db, orgId }: ReadScope, quarter?: string): Promise<IftaFiling[]> {
  const rows = await db
    .select()
    .from(iftaFilings)
    .where(quarter ? and(eq(iftaFilings.organizationId, orgId), eq(iftaFilings.quarter, quarter)) : eq(iftaFilings.organizationId, orgId))
    .orderBy(desc(iftaFilings.quarter), asc(iftaFilings.version));
  return rows.map(present);
}

/** The fuel types with vehicles or purchases in the quarter (a return each), diesel always. */
async function fuelTypesOf(db: Db, orgId: string, quarter: string): Promise<string[]> {
  const { from, to } = quarterDays(quarter);
  const [v, p] = await Promise.all([
    db
      .selectDistinct({ f: sql<string>`coalesce(${assets.fuelType}, 'DIESEL')` })
      .from(assets)
      .where(and(eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE'), eq(assets.iftaQualified, true))),
    db
      .selectDistinct({ f: iftaFuelPurchases.fuelType })
      .from(iftaFuelPurchases)
      .where(
        and(
          eq(iftaFuelPurchases.organizationId, orgId),
          sql`${iftaFuelPurchases.purchasedAt} >= ${`${from}T00:00:00Z`}::timestamptz and ${iftaFuelPurchases.purchasedAt} < ${`${to}T00:00:00Z`}::timestamptz`,
        ),
      ),
  ]);
  const used = new Set(['DIESEL', ...v.map((r) => r.f), ...p.map((r) => r.f)]);
  return FUEL_TYPE_CODES.filter((c) => used.has(c));
}

/**
 * Files (closes) a quarter: only once it has ended; the figures are computed as of the filing day
 * (interest and penalty when late) and kept. A second filing is an amendment and keeps the first.
 */
export async function fileQuarter({ db, orgId, actor }: Scope, input: { quarter: string; filedAt?: string }): Promise<IftaFiling> {
  const today = new Date().toISOString().slice(0, 10);
  const filedAt = input.filedAt ?? today;
  const { to } = quarterDays(input.quarter);
  if (filedAt > today) throw invalidField('filedAt', 'Filing date is in the future');
  if (filedAt < to)
    throw invalidField(
      input.filedAt ? 'filedAt' : 'quarter',
      `${input.quarter} ends on ${new Date(Date.parse(`${to}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)}: it can be filed from ${to}`,
    );
  if (quarterOf(Date.parse(`${to}T00:00:00Z`) - 1) !== input.quarter) throw invalidField('quarter', 'Not a quarter');
  return db.transaction(async (tx) => {
    // One filer at a time per organization and quarter: the version numbers stay consecutive.
    await tx.execute(sql`select pg_advisory_xact_lock(724311126, hashtext(${`${orgId}:${input.quarter}`}))`);
    const fuelTypes = await fuelTypesOf(tx as unknown as Db, orgId, input.quarter);
    const returns: Stored[] = [];
    for (const fuelType of fuelTypes) {
      const r = await buildReport({ db: tx, orgId }, { quarter: input.quarter, fuelType, asOf: filedAt });
      if (fuelType !== 'DIESEL' && r.totals.totalMiles === 0 && r.totals.totalGallons === 0) continue;
      returns.push({ fuelType, totals: r.totals, rows: r.rows });
    }
    const [last] = await tx
      .select({ v: iftaFilings.version })
      .from(iftaFilings)
      .where(and(eq(iftaFilings.organizationId, orgId), eq(iftaFilings.quarter, input.quarter)))
      .orderBy(desc(iftaFilings.version))
      .limit(1);
    const [row] = await tx
      .insert(iftaFilings)
      .values({ organizationId: orgId, quarter: input.quarter, version: (last?.v ?? 0) + 1, filedAt, filedBy: actor.email, returns })
      .returning();
    await recordActivity(tx, {
      orgId,
      actor,
      action: row!.version > 1 ? 'AMEND' : 'CLOSE',
      entityType: 'IFTA_FILING',
      entityId: row!.id,
      after: {
        quarter: input.quarter,
        version: row!.version,
        filedAt,
        totals: returns.map((r) => ({ fuelType: r.fuelType, total: r.totals.total, miles: r.totals.totalMiles, gallons: r.totals.totalGallons })),
      },
    });
    return present(row!);
  });
}
