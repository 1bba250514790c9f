// The SQL of a driver's log declarations (issue 72, decisions 0314 and 0315): cycle switches,
// adverse driving conditions and emergencies, each kept with its annotation; a withdrawn one keeps
// its row with removed_at.
import { and, asc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { RulesetId } from '@fleet/hos/ruleset-facts';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, hosDeclarations } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';

export type DeclarationRow = typeof hosDeclarations.$inferSelect;
export type DeclarationKind = DeclarationRow['kind'];

/** The driver's name and ruleset (locked against a concurrent change with `lock`); 404 when not of the organization. */
export async function driverNameAndRuleset(db: DbOrTx, orgId: string, driverId: string, lock = false) {
  const q = db
    .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName, ruleset: drivers.ruleset })
    .from(drivers)
    .where(and(eq(drivers.id, driverId), eq(drivers.organizationId, orgId)));
  const [d] = lock ? await q.for('no key update') : await q;
  if (!d) throw notFound('Driver');
  return { ...d, ruleset: d.ruleset as RulesetId };
}

const active = (orgId: string) => and(eq(hosDeclarations.organizationId, orgId), isNull(hosDeclarations.removedAt));

/** The driver's active declarations that touch [from, to]: begin by `to` and end (or are) from `from` on. */
export async function declarationsInRange(db: DbOrTx, orgId: string, driverId: string, from: Date, to: Date): Promise<DeclarationRow[]> {
  return db
    .select()
    .from(hosDeclarations)
    .where(
      and(
        active(orgId),
        eq(hosDeclarations.driverId, driverId),
        lte(hosDeclarations.at, to),
        or(gte(hosDeclarations.at, from), gte(sql`coalesce(${hosDeclarations.until}, ${hosDeclarations.at})`, from)),
      ),
    )
    .orderBy(asc(hosDeclarations.at), asc(hosDeclarations.createdAt));
}

/** Every active declaration of the listed drivers (all when null), for the engine's options. */
export async function declarationsOfDrivers(
  db: DbOrTx,
  orgId: string,
  driverIds: string[] | null,
): Promise<Array<Pick<DeclarationRow, 'driverId' | 'kind' | 'at' | 'until' | 'cycle'>>> {
  return db
    .select({
      driverId: hosDeclarations.driverId,
      kind: hosDeclarations.kind,
      at: hosDeclarations.at,
      until: hosDeclarations.until,
      cycle: hosDeclarations.cycle,
    })
    .from(hosDeclarations)
    .where(and(active(orgId), driverIds ? inArray(hosDeclarations.driverId, driverIds) : undefined))
    .orderBy(asc(hosDeclarations.at), asc(hosDeclarations.createdAt));
}

/** The active declaration of this kind at exactly this instant, if any. */
export async function declarationAt(db: DbOrTx, orgId: string, driverId: string, kind: DeclarationKind, at: Date): Promise<DeclarationRow | undefined> {
  const [row] = await db
    .select()
    .from(hosDeclarations)
    .where(and(active(orgId), eq(hosDeclarations.driverId, driverId), eq(hosDeclarations.kind, kind), eq(hosDeclarations.at, at)));
  return row;
}

/** One active declaration of the driver. */
export async function activeDeclaration(db: DbOrTx, orgId: string, driverId: string, id: string): Promise<DeclarationRow | undefined> {
  const [row] = await db
    .select()
    .from(hosDeclarations)
    .where(and(active(orgId), eq(hosDeclarations.driverId, driverId), eq(hosDeclarations.id, id)));
  return row;
}

export async function insertDeclaration(
  tx: DbOrTx,
  r: {
    orgId: string;
    driverId: string;
    kind: DeclarationKind;
    at: Date;
    until: Date | null;
    cycle: number | null;
    annotation: string;
    createdBy: string | null;
  },
): Promise<DeclarationRow> {
  const [row] = await tx
    .insert(hosDeclarations)
    .values({
      organizationId: r.orgId,
      driverId: r.driverId,
      kind: r.kind,
      at: r.at,
      until: r.until,
      cycle: r.cycle,
      annotation: r.annotation,
      createdBy: r.createdBy,
    })
    .returning();
  if (!row) throw new Error('declaration insert returned nothing');
  return row;
}

/** Marks a declaration withdrawn, with who and why. */
export async function markDeclarationRemoved(tx: DbOrTx, orgId: string, id: string, by: string | null, annotation: string): Promise<void> {
  await tx
    .update(hosDeclarations)
    .set({ removedAt: new Date(), removedBy: by, removedAnnotation: annotation })
    .where(and(eq(hosDeclarations.organizationId, orgId), eq(hosDeclarations.id, id)));
}
