import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ComplianceApproval, ComplianceKind, InspectionResult } from '@fleet/api-contract';
import { bytea } from './columns.ts';
import { images } from './files.ts';
import { organizations } from './organizations.ts';

// Compliance (issue 71, decision 0300): the papers of drivers' qualification files and of vehicles
// and trailers. Keys lead with organization_id (decision 0169); migration 0064 holds the foreign keys
// to drivers and assets on (organization_id, id), deleted with them.

const orgKey = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });
const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const newId = () =>
  uuid('id')
    .notNull()
    .default(sql`gen_random_uuid()`);

/** One paper of a driver (driverId) or of a vehicle or trailer (assetId), exactly one of the two. */
export const complianceItems = pgTable(
  'compliance_items',
  {
    organizationId: orgKey(),
    id: newId(),
    driverId: uuid('driver_id'),
    assetId: uuid('asset_id'),
    kind: text('kind').$type<ComplianceKind>().notNull(),
    approval: text('approval').$type<ComplianceApproval>().notNull().default('APPROVED'),
    number: text('number'),
    state: text('state'),
    class: text('class'),
    endorsements: text('endorsements'),
    restrictions: text('restrictions'),
    title: text('title'),
    issuer: text('issuer'),
    examinerRegistryNumber: text('examiner_registry_number'),
    inspector: text('inspector'),
    result: text('result').$type<InspectionResult>(),
    failedItems: text('failed_items')
      .array()
      .notNull()
      .default(sql`'{}'`),
    issuedOn: date('issued_on'),
    expiresOn: date('expires_on'),
    notes: text('notes'),
    pageCount: integer('page_count').notNull().default(0),
    /** The phone's Idempotency-Key: the renewal a resend from the offline outbox answers. */
    clientId: text('client_id'),
    submittedBy: uuid('submitted_by'),
    decidedBy: uuid('decided_by'),
    decidedAt: instant('decided_at'),
    rejectReason: text('reject_reason'),
    createdAt: instant('created_at').notNull().defaultNow(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'compliance_items_pkey', columns: [t.organizationId, t.id] }),
    index('compliance_items_driver_idx')
      .on(t.organizationId, t.driverId, t.kind)
      .where(sql`${t.driverId} is not null`),
    index('compliance_items_asset_idx')
      .on(t.organizationId, t.assetId, t.kind)
      .where(sql`${t.assetId} is not null`),
    index('compliance_items_pending_idx')
      .on(t.organizationId, t.createdAt)
      .where(sql`${t.approval} = 'PENDING'`),
    uniqueIndex('compliance_items_client_uq')
      .on(t.organizationId, t.clientId)
      .where(sql`${t.clientId} is not null`),
  ],
);

/** The pages of a paper in order (`seq` from 0): an uploaded image, or one stored PDF file (`pdfPages` its pages). */
export const complianceItemPages = pgTable(
  'compliance_item_pages',
  {
    organizationId: orgKey(),
    id: newId(),
    itemId: uuid('item_id').notNull(),
    seq: integer('seq').notNull(),
    imageId: uuid('image_id').references(() => images.id, { onDelete: 'cascade' }),
    pdf: bytea('pdf'),
    pdfPages: integer('pdf_pages'),
  },
  (t) => [
    primaryKey({ name: 'compliance_item_pages_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('compliance_item_pages_seq_uq').on(t.organizationId, t.itemId, t.seq),
  ],
);
