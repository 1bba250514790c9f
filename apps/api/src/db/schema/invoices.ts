import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { InvoiceLineKind, InvoiceStatus, PaymentMethod } from '@fleet/api-contract';
import { organizations } from './organizations.ts';

// Invoices (issue 70, decision 0291). Keys lead with organization_id (decision 0169). Money in whole
// cents (bigint: an invoice of many loads passes 2^31 cents). The customer's name and billing address
// are copied onto the invoice when it is made: an invoice sent is a document, and a later edit of
// the customer does not rewrite it. Foreign keys to customers and loads are in the migration
// (ON DELETE RESTRICT: a billed customer or load stays).

const orgKey = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });
const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const money = (name: string) => bigint(name, { mode: 'number' });

/** The last invoice number given in each organization (INV-1001, INV-1002, …). */
export const invoiceCounters = pgTable('invoice_counters', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  last: integer('last').notNull(),
});

export const invoices = pgTable(
  'invoices',
  {
    organizationId: orgKey(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    number: text('number').notNull(),
    customerId: uuid('customer_id').notNull(),
    customerName: text('customer_name').notNull(),
    billingAddress: text('billing_address'),
    status: text('status').$type<InvoiceStatus>().notNull().default('DRAFT'),
    currency: text('currency').notNull(),
    invoiceDate: date('invoice_date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    termsDays: integer('terms_days').notNull(),
    totalCents: money('total_cents').notNull(),
    paidCents: money('paid_cents').notNull().default(0),
    notes: text('notes'),
    sentAt: instant('sent_at'),
    sentTo: text('sent_to'),
    voidedAt: instant('voided_at'),
    voidReason: text('void_reason'),
    /** Who made it: a user, or null (an API token, `createdByToken`, or the demo). */
    createdBy: uuid('created_by'),
    createdByToken: uuid('created_by_token'),
    createdAt: instant('created_at').notNull().defaultNow(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'invoices_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('invoices_org_number_uq').on(t.organizationId, t.number),
    index('invoices_org_status_due_idx').on(t.organizationId, t.status, t.dueDate),
    index('invoices_org_customer_idx').on(t.organizationId, t.customerId),
    index('invoices_org_date_idx').on(t.organizationId, t.invoiceDate),
  ],
);

/**
 * The loads an invoice bills. The partial unique index is the "a load is invoiced once" rule: a void
 * invoice's rows are marked released, and the load may be billed again.
 */
export const invoiceLoads = pgTable(
  'invoice_loads',
  {
    organizationId: orgKey(),
    invoiceId: uuid('invoice_id').notNull(),
    loadId: uuid('load_id').notNull(),
    released: boolean('released').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'invoice_loads_pkey', columns: [t.organizationId, t.invoiceId, t.loadId] }),
    uniqueIndex('invoice_loads_load_uq')
      .on(t.organizationId, t.loadId)
      .where(sql`not ${t.released}`),
  ],
);

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    organizationId: orgKey(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    invoiceId: uuid('invoice_id').notNull(),
    seq: integer('seq').notNull(),
    kind: text('kind').$type<InvoiceLineKind>().notNull(),
    loadId: uuid('load_id'),
    stopId: uuid('stop_id'),
    /** The stop's seq (from 0) when the line is a stop's (detention). */
    stopSeq: integer('stop_seq'),
    description: text('description').notNull(),
    /** Detention: the minutes billed and the hourly rate. */
    minutes: integer('minutes'),
    rateCents: integer('rate_cents'),
    amountCents: money('amount_cents').notNull(),
  },
  (t) => [
    primaryKey({ name: 'invoice_lines_pkey', columns: [t.organizationId, t.id] }),
    index('invoice_lines_invoice_idx').on(t.organizationId, t.invoiceId, t.seq),
  ],
);

export const invoicePayments = pgTable(
  'invoice_payments',
  {
    organizationId: orgKey(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    invoiceId: uuid('invoice_id').notNull(),
    amountCents: money('amount_cents').notNull(),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    reference: text('reference'),
    method: text('method').$type<PaymentMethod>(),
    createdBy: uuid('created_by'),
    createdByToken: uuid('created_by_token'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'invoice_payments_pkey', columns: [t.organizationId, t.id] }),
    index('invoice_payments_invoice_idx').on(t.organizationId, t.invoiceId, t.receivedOn),
  ],
);
