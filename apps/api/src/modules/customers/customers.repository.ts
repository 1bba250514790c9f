import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { customers, loads } from '../../db/schema/index.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { likeTerm, orderBy } from '../../http/paging.ts';

// The customers' statements (decision 0255). "The customer belongs to this organization" is written
// once, here: another organization's customer is read exactly like one that does not exist.

export type CustomerRow = typeof customers.$inferSelect;
export type CustomerValues = Omit<typeof customers.$inferInsert, 'organizationId' | 'id' | 'createdAt' | 'updatedAt'>;

const ofOrganization = (orgId: string, customerId: string) => and(eq(customers.organizationId, orgId), eq(customers.id, customerId));

/** Loads that name the customer; the organization is the parameter (Citus keeps the sub-select on its shard, decision 0169). */
const loadCountOf = (orgId: string) => sql<number>`(select count(*)::int from loads l where l.organization_id = ${orgId} and l.customer_id = "customers"."id")`;

const SORTS = {
  name: sql`lower(${customers.name})`,
  paymentTermsDays: customers.paymentTermsDays,
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
};

/** One page of the organization's customers with their loads' count, by name unless sorted otherwise. */
export async function customerPage(
  db: DbOrTx,
  orgId: string,
  q: { page: number; size: number; sort?: string | undefined; search?: string | undefined },
): Promise<{ rows: Array<{ row: CustomerRow; loadCount: number }>; total: number }> {
  const where: SQL | undefined = and(
    eq(customers.organizationId, orgId),
    q.search
      ? sql`lower(concat_ws(' ', ${customers.name}, ${customers.billingAddress}, ${customers.invoiceEmail}, ${customers.notes})) like ${likeTerm(q.search)}`
      : undefined,
  );
  const [total] = await db.select({ n: countAll }).from(customers).where(where);
  const rows = await db
    .select({ row: customers, loadCount: loadCountOf(orgId) })
    .from(customers)
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, 'name', asc(customers.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  return { rows, total: total?.n ?? 0 };
}

/** The customer's row, locked for the transaction when `lock`; null unless it is the organization's. */
export async function findCustomer(db: DbOrTx, orgId: string, customerId: string, lock = false): Promise<CustomerRow | null> {
  const q = db.select().from(customers).where(ofOrganization(orgId, customerId));
  const [c] = lock ? await q.for('update') : await q;
  return c ?? null;
}

/** The organization's customer of this name, whatever its case (the name's unique index). */
export async function customerNamed(db: DbOrTx, orgId: string, name: string): Promise<CustomerRow | null> {
  const [c] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.organizationId, orgId), sql`lower(${customers.name}) = lower(${name})`));
  return c ?? null;
}

/** Loads that name the customer. */
export async function loadsNaming(db: DbOrTx, orgId: string, customerId: string): Promise<number> {
  const [n] = await db
    .select({ n: countAll })
    .from(loads)
    .where(and(eq(loads.organizationId, orgId), eq(loads.customerId, customerId)));
  return n?.n ?? 0;
}

export async function insertCustomer(db: DbOrTx, orgId: string, values: CustomerValues): Promise<CustomerRow> {
  const [c] = await db
    .insert(customers)
    .values({ organizationId: orgId, ...values })
    .returning();
  if (!c) throw new Error('customer insert returned nothing');
  return c;
}

/**
 * A customer named as a load names it, unless one of that name exists (then null): a load saved at
 * the same moment with the same new name does not fail on the name's index.
 */
export async function insertCustomerNamed(db: DbOrTx, orgId: string, name: string): Promise<CustomerRow | null> {
  const [c] = await db
    .insert(customers)
    .values({ organizationId: orgId, name })
    // The only key a new row can clash on is the name's (the id is random).
    .onConflictDoNothing()
    .returning();
  return c ?? null;
}

export async function updateCustomerRow(db: DbOrTx, orgId: string, customerId: string, values: Partial<CustomerValues>): Promise<CustomerRow> {
  const [c] = await db
    .update(customers)
    .set({ ...values, updatedAt: new Date() })
    .where(ofOrganization(orgId, customerId))
    .returning();
  if (!c) throw new Error('customer update returned nothing');
  return c;
}

/** The loads' printed name follows a renamed customer; returns how many loads changed. */
export async function renameLoadsOf(db: DbOrTx, orgId: string, customerId: string, name: string): Promise<number> {
  const rows = await db
    .update(loads)
    .set({ customer: name })
    .where(and(eq(loads.organizationId, orgId), eq(loads.customerId, customerId)))
    .returning({ id: loads.id });
  return rows.length;
}

export async function deleteCustomerRow(db: DbOrTx, orgId: string, customerId: string): Promise<void> {
  await db.delete(customers).where(ofOrganization(orgId, customerId));
}
