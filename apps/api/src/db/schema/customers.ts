import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { organizations } from './organizations.ts';

/**
 * The brokers and shippers a carrier bills (issue 70, decision 0284). A load names one
 * (`loads.customer_id`, set null when the customer goes); invoices read the billing details and the
 * detention rule, the driver app whether a proof of delivery is required. Keys lead with
 * organization_id (decision 0169); the name is unique in the organization whatever its case.
 */
export const customers = pgTable(
  'customers',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    billingAddress: text('billing_address'),
    invoiceEmail: text('invoice_email'),
    paymentTermsDays: integer('payment_terms_days').notNull().default(30),
    detentionFreeMinutes: integer('detention_free_minutes').notNull().default(120),
    detentionCentsPerHour: integer('detention_cents_per_hour').notNull().default(0),
    requiresPod: boolean('requires_pod').notNull().default(false),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('customers_org_name_uq').on(t.organizationId, sql`lower(${t.name})`),
    check('customers_payment_terms_check', sql`${t.paymentTermsDays} between 0 and 365`),
    check('customers_detention_free_check', sql`${t.detentionFreeMinutes} between 0 and 1440`),
    check('customers_detention_rate_check', sql`${t.detentionCentsPerHour} >= 0`),
  ],
);
