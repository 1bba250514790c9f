import { and, asc, desc, eq, gte, inArray, isNull, lte, not, sql, type SQL } from 'drizzle-orm';
import type { InvoiceStatus } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { nextOrgNumbers } from '../../db/sql/org-counter.ts';
import {
  customers,
  invoiceLines,
  invoiceLoads,
  invoicePayments,
  invoices,
  loadDocuments,
  loads,
  loadStops,
  organizations,
  places,
  users,
} from '../../db/schema/index.ts';
import { countAll } from '../../db/sql/count-all.ts';
import type { LineStop } from './invoice-lines.ts';

// The SQL of invoices (issue 70, decision 0291). Every statement names the organization, and every
// join between two of its tables equates organization_id, so Citus keeps it on the organization's
// shard (decision 0169). Loads, stops and customers are read here from their tables, as tracking
// reads loads: what an invoice copies of them is decided in the service.

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;
/** A line to write; `id` keeps a line of the draft (a new line gets a new id). */
type NewLine = Omit<typeof invoiceLines.$inferInsert, 'organizationId' | 'invoiceId' | 'seq'>;

/** Open invoices: what a customer owes (aging, overdue). */
const OPEN: InvoiceStatus[] = ['SENT', 'PARTIALLY_PAID'];

// ---------------------------------------------------------------------- the organization, customers

export async function carrierOf(db: DbOrTx, orgId: string) {
  const [row] = await db
    .select({
      name: organizations.name,
      timeZone: organizations.timeZone,
      phone: organizations.phone,
      addressLine1: organizations.addressLine1,
      addressLine2: organizations.addressLine2,
      city: organizations.city,
      state: organizations.state,
      postalCode: organizations.postalCode,
      country: organizations.country,
      dotNumber: organizations.dotNumber,
      mcNumber: organizations.mcNumber,
    })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return row ?? null;
}
export type Carrier = NonNullable<Awaited<ReturnType<typeof carrierOf>>>;

export async function customerOf(db: DbOrTx, orgId: string, customerId: string): Promise<CustomerRow | null> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.organizationId, orgId), eq(customers.id, customerId)));
  return row ?? null;
}

// ----------------------------------------------------------------------------------- loads to bill

/** The loads named, with the number of the invoice that bills each now (null: none). */
export async function loadsToBill(db: DbOrTx, orgId: string, loadIds: readonly string[]) {
  if (loadIds.length === 0) return [];
  return db
    .select({
      id: loads.id,
      number: loads.number,
      status: loads.status,
      customerId: loads.customerId,
      currency: loads.currency,
      lineHaulCents: loads.lineHaulCents,
      fuelSurchargeCents: loads.fuelSurchargeCents,
      accessorials: loads.accessorials,
      deliveredAt: loads.deliveredAt,
      invoiceNumber: invoices.number,
    })
    .from(loads)
    .leftJoin(invoiceLoads, and(eq(invoiceLoads.organizationId, loads.organizationId), eq(invoiceLoads.loadId, loads.id), not(invoiceLoads.released)))
    .leftJoin(invoices, and(eq(invoices.organizationId, invoiceLoads.organizationId), eq(invoices.id, invoiceLoads.invoiceId)))
    .where(and(eq(loads.organizationId, orgId), inArray(loads.id, [...loadIds])));
}
export type LoadToBill = Awaited<ReturnType<typeof loadsToBill>>[number];

/** Each load's stops in driving order, with their place's name. */
export async function stopsOfLoads(db: DbOrTx, orgId: string, loadIds: readonly string[]): Promise<Map<string, LineStop[]>> {
  const out = new Map<string, LineStop[]>();
  if (loadIds.length === 0) return out;
  const rows = await db
    .select({
      loadId: loadStops.loadId,
      id: loadStops.id,
      seq: loadStops.seq,
      kind: loadStops.kind,
      placeName: places.name,
      address: loadStops.address,
      arrivedAt: loadStops.arrivedAt,
      departedAt: loadStops.departedAt,
    })
    .from(loadStops)
    .leftJoin(places, and(eq(places.organizationId, loadStops.organizationId), eq(places.id, loadStops.placeId)))
    .where(and(eq(loadStops.organizationId, orgId), inArray(loadStops.loadId, [...loadIds])))
    .orderBy(asc(loadStops.loadId), asc(loadStops.seq));
  for (const { loadId, ...stop } of rows) out.set(loadId, [...(out.get(loadId) ?? []), stop]);
  return out;
}

/** Delivered loads of a registered customer that no invoice bills now, oldest delivery first. */
export async function billableLoads(db: DbOrTx, orgId: string, customerId?: string) {
  return db
    .select({
      id: loads.id,
      number: loads.number,
      currency: loads.currency,
      lineHaulCents: loads.lineHaulCents,
      fuelSurchargeCents: loads.fuelSurchargeCents,
      accessorials: loads.accessorials,
      deliveredAt: loads.deliveredAt,
      customerId: customers.id,
      customerName: customers.name,
      termsDays: customers.paymentTermsDays,
      freeMinutes: customers.detentionFreeMinutes,
      centsPerHour: customers.detentionCentsPerHour,
      hasPod: sql<boolean>`exists (select 1 from ${loadDocuments} d where d.organization_id = ${orgId} and d.load_id = ${loads.id} and d.kind = 'POD')`,
    })
    .from(loads)
    .innerJoin(customers, and(eq(customers.organizationId, loads.organizationId), eq(customers.id, loads.customerId)))
    .leftJoin(invoiceLoads, and(eq(invoiceLoads.organizationId, loads.organizationId), eq(invoiceLoads.loadId, loads.id), not(invoiceLoads.released)))
    .where(
      and(
        eq(loads.organizationId, orgId),
        eq(loads.status, 'DELIVERED'),
        isNull(invoiceLoads.loadId),
        customerId ? eq(loads.customerId, customerId) : undefined,
      ),
    )
    .orderBy(asc(loads.deliveredAt), asc(loads.id))
    .limit(1000);
}

// ------------------------------------------------------------------------------------ writing

/** The next invoice number of the organization (INV-1001, …). */
export async function nextInvoiceNumber(tx: DbOrTx, orgId: string): Promise<string> {
  const [n] = await nextOrgNumbers(tx, 'invoice_counters', orgId);
  return `INV-${n}`;
}

export async function insertInvoice(tx: DbOrTx, values: Omit<typeof invoices.$inferInsert, 'id'>): Promise<InvoiceRow> {
  const [row] = await tx.insert(invoices).values(values).returning();
  return row!;
}

export async function insertInvoiceLoads(tx: DbOrTx, orgId: string, invoiceId: string, loadIds: readonly string[]): Promise<void> {
  await tx.insert(invoiceLoads).values(loadIds.map((loadId) => ({ organizationId: orgId, invoiceId, loadId })));
}

/** Replaces the invoice's lines (numbered in the order given). */
export async function replaceLines(tx: DbOrTx, orgId: string, invoiceId: string, lines: readonly NewLine[]): Promise<void> {
  await tx.delete(invoiceLines).where(and(eq(invoiceLines.organizationId, orgId), eq(invoiceLines.invoiceId, invoiceId)));
  if (lines.length) await tx.insert(invoiceLines).values(lines.map((l, seq) => ({ ...l, organizationId: orgId, invoiceId, seq })));
}

export async function updateInvoice(tx: DbOrTx, orgId: string, invoiceId: string, set: Partial<typeof invoices.$inferInsert>): Promise<InvoiceRow> {
  const [row] = await tx
    .update(invoices)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(invoices.organizationId, orgId), eq(invoices.id, invoiceId)))
    .returning();
  return row!;
}

/** A void invoice's loads may be billed again. */
export async function releaseLoads(tx: DbOrTx, orgId: string, invoiceId: string): Promise<void> {
  await tx
    .update(invoiceLoads)
    .set({ released: true })
    .where(and(eq(invoiceLoads.organizationId, orgId), eq(invoiceLoads.invoiceId, invoiceId)));
}

export async function insertPayment(tx: DbOrTx, values: Omit<typeof invoicePayments.$inferInsert, 'id' | 'createdAt'>) {
  const [row] = await tx.insert(invoicePayments).values(values).returning();
  return row!;
}

export async function deletePayment(tx: DbOrTx, orgId: string, invoiceId: string, paymentId: string) {
  const [row] = await tx
    .delete(invoicePayments)
    .where(and(eq(invoicePayments.organizationId, orgId), eq(invoicePayments.invoiceId, invoiceId), eq(invoicePayments.id, paymentId)))
    .returning();
  return row ?? null;
}

// ------------------------------------------------------------------------------------ reading

/** The invoice, locked for the rest of the transaction when `lock`; null when the organization has none such. */
export async function invoiceRow(db: DbOrTx, orgId: string, invoiceId: string, lock = false): Promise<InvoiceRow | null> {
  const q = db
    .select()
    .from(invoices)
    .where(and(eq(invoices.organizationId, orgId), eq(invoices.id, invoiceId)));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function linesOf(db: DbOrTx, orgId: string, invoiceId: string) {
  return db
    .select({ line: invoiceLines, loadNumber: loads.number })
    .from(invoiceLines)
    .leftJoin(loads, and(eq(loads.organizationId, invoiceLines.organizationId), eq(loads.id, invoiceLines.loadId)))
    .where(and(eq(invoiceLines.organizationId, orgId), eq(invoiceLines.invoiceId, invoiceId)))
    .orderBy(asc(invoiceLines.seq));
}

export async function paymentsOf(db: DbOrTx, orgId: string, invoiceId: string) {
  return db
    .select({ payment: invoicePayments, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(invoicePayments)
    .leftJoin(users, eq(users.id, invoicePayments.createdBy))
    .where(and(eq(invoicePayments.organizationId, orgId), eq(invoicePayments.invoiceId, invoiceId)))
    .orderBy(asc(invoicePayments.receivedOn), asc(invoicePayments.createdAt));
}

/** The loads each invoice bills (released ones too: a void invoice still names what it billed). */
export async function loadsOfInvoices(db: DbOrTx, orgId: string, invoiceIds: readonly string[]) {
  if (invoiceIds.length === 0) return [];
  return db
    .select({
      invoiceId: invoiceLoads.invoiceId,
      id: loads.id,
      number: loads.number,
      deliveredAt: loads.deliveredAt,
      bolNumber: loads.bolNumber,
      poNumber: loads.poNumber,
    })
    .from(invoiceLoads)
    .innerJoin(loads, and(eq(loads.organizationId, invoiceLoads.organizationId), eq(loads.id, invoiceLoads.loadId)))
    .where(and(eq(invoiceLoads.organizationId, orgId), inArray(invoiceLoads.invoiceId, [...invoiceIds])))
    .orderBy(asc(loads.deliveredAt), asc(loads.number));
}

export interface InvoiceFilters {
  statuses?: InvoiceStatus[];
  customerId?: string;
  /** Open and due before this day. */
  overdueOn?: string;
  from?: string;
  to?: string;
  search?: string;
}

function filtersOf(orgId: string, f: InvoiceFilters): SQL | undefined {
  return and(
    eq(invoices.organizationId, orgId),
    f.statuses?.length ? inArray(invoices.status, f.statuses) : undefined,
    f.customerId ? eq(invoices.customerId, f.customerId) : undefined,
    f.overdueOn
      ? and(inArray(invoices.status, OPEN), sql`${invoices.dueDate} < ${f.overdueOn}::date`, sql`${invoices.paidCents} < ${invoices.totalCents}`)
      : undefined,
    f.from ? gte(invoices.invoiceDate, f.from) : undefined,
    f.to ? lte(invoices.invoiceDate, f.to) : undefined,
    f.search ? sql`lower(concat_ws(' ', ${invoices.number}, ${invoices.customerName})) like ${f.search}` : undefined,
  );
}

export const INVOICE_SORTS = {
  number: sql`lpad(${invoices.number}, 24, '0')`,
  invoiceDate: invoices.invoiceDate,
  dueDate: invoices.dueDate,
  customer: sql`lower(${invoices.customerName})`,
  status: invoices.status,
  total: invoices.totalCents,
  balance: sql`${invoices.totalCents} - ${invoices.paidCents}`,
  createdAt: invoices.createdAt,
};
export const DEFAULT_INVOICE_ORDER = [desc(invoices.invoiceDate), sql`lpad(${invoices.number}, 24, '0') desc`];
/** Numbers are unique in the organization: the newest first among equal values, and pages stay stable. */
export const invoiceTieBreak = sql`lpad(${invoices.number}, 24, '0') desc`;

export async function invoicePage(db: DbOrTx, orgId: string, f: InvoiceFilters, order: SQL[], page: { size: number; page: number }) {
  const where = filtersOf(orgId, f);
  const [total] = await db.select({ n: countAll }).from(invoices).where(where);
  const rows = await db
    .select()
    .from(invoices)
    .where(where)
    .orderBy(...order)
    .limit(page.size)
    .offset(page.page * page.size);
  return { rows, total: total?.n ?? 0 };
}

/** Every invoice the filters keep, by number (the export). */
export async function invoicesFiltered(db: DbOrTx, orgId: string, f: InvoiceFilters): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(invoices)
    .where(filtersOf(orgId, f))
    .orderBy(asc(invoices.invoiceDate), sql`lpad(${invoices.number}, 24, '0')`);
}

export async function linesOfInvoices(db: DbOrTx, orgId: string, invoiceIds: readonly string[]) {
  if (invoiceIds.length === 0) return [];
  return db
    .select({ line: invoiceLines, loadNumber: loads.number })
    .from(invoiceLines)
    .leftJoin(loads, and(eq(loads.organizationId, invoiceLines.organizationId), eq(loads.id, invoiceLines.loadId)))
    .where(and(eq(invoiceLines.organizationId, orgId), inArray(invoiceLines.invoiceId, [...invoiceIds])))
    .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.seq));
}

/**
 * What each invoice dated on or before `asOf` still owed that day: its total less the payments
 * received by then. Drafts and void invoices owe nothing; an invoice sent after `asOf` is counted
 * from its date (it was owed then, whenever it was e-mailed).
 */
export async function owedOn(db: DbOrTx, orgId: string, asOf: string) {
  const rows = await db
    .select({
      id: invoices.id,
      customerId: invoices.customerId,
      customerName: invoices.customerName,
      currency: invoices.currency,
      dueDate: invoices.dueDate,
      totalCents: invoices.totalCents,
    })
    .from(invoices)
    .where(and(eq(invoices.organizationId, orgId), inArray(invoices.status, [...OPEN, 'PAID']), lte(invoices.invoiceDate, asOf)));
  const paid = await db
    .select({ invoiceId: invoicePayments.invoiceId, cents: sql<string>`sum(${invoicePayments.amountCents})` })
    .from(invoicePayments)
    .where(and(eq(invoicePayments.organizationId, orgId), lte(invoicePayments.receivedOn, asOf)))
    .groupBy(invoicePayments.invoiceId);
  const paidOf = new Map(paid.map((p) => [p.invoiceId, Number(p.cents)]));
  return rows.map((r) => ({ ...r, paidCents: paidOf.get(r.id) ?? 0 }));
}
