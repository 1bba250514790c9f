import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { images } from './files.ts';
import { assets, drivers } from './fleet.ts';
import { organizations } from './organizations.ts';
import { places } from './places.ts';
import { users } from './users.ts';

// Dispatch (issue 33, decisions 0165-0168): loads, their stops in driving order, the history of
// their status, and the photographed papers. Money is kept in cents (whole numbers add exactly),
// distances in metres and weights in kilograms, as everywhere.

const orgKey = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

/** The last load number given in each organization (numbers are per organization: L-1001, L-1002, …). */
export const loadCounters = pgTable('load_counters', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  last: integer('last').notNull(),
});

export interface AccessorialRow {
  kind: 'DETENTION' | 'LAYOVER' | 'LUMPER' | 'STOP_OFF' | 'TARP' | 'OTHER';
  amountCents: number;
  note: string | null;
}

export const loads = pgTable(
  'loads',
  {
    id: id(),
    organizationId: orgKey(),
    number: text('number').notNull(),
    /** The name printed on the load: the customer's name when `customerId` names one (issue 70). */
    customer: text('customer').notNull(),
    /** The customer of the registry; its key is (organization_id, customer_id) -> customers, set null (migration 0060). */
    customerId: uuid('customer_id'),
    customerPlaceId: uuid('customer_place_id').references(() => places.id, { onDelete: 'set null' }),
    bolNumber: text('bol_number'),
    poNumber: text('po_number'),
    commodity: text('commodity'),
    weightKg: doublePrecision('weight_kg'),
    status: text('status', { enum: ['PLANNED', 'ASSIGNED', 'EN_ROUTE', 'AT_STOP', 'DELIVERED', 'CANCELLED'] })
      .notNull()
      .default('PLANNED'),
    lineHaulCents: integer('line_haul_cents').notNull().default(0),
    fuelSurchargeCents: integer('fuel_surcharge_cents').notNull().default(0),
    accessorials: jsonb('accessorials').$type<AccessorialRow[]>().notNull().default([]),
    currency: text('currency').notNull().default('USD'),
    /** The lead driver; a team's second driver is `coDriverId`. */
    driverId: uuid('driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    coDriverId: uuid('co_driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    assetId: uuid('asset_id').references(() => assets.id, { onDelete: 'set null' }),
    trailerId: uuid('trailer_id').references(() => assets.id, { onDelete: 'set null' }),
    /** Road distance from the first pick-up to the last delivery, by the routing port. */
    loadedM: doublePrecision('loaded_m'),
    /** Live ETA state: an appointment will be missed, why, and when the dispatcher was told (once). */
    atRisk: boolean('at_risk').notNull().default(false),
    riskReason: text('risk_reason'),
    riskNotifiedAt: timestamp('risk_notified_at', { withTimezone: true }),
    etaUpdatedAt: timestamp('eta_updated_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    notes: text('notes'),
    /** Reefer settings typed on the load (issue 73, migration 0071); null: the commodity's defaults. */
    reeferSetPointC: doublePrecision('reefer_set_point_c'),
    reeferToleranceC: doublePrecision('reefer_tolerance_c'),
    reeferDelayMinutes: integer('reefer_delay_minutes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('loads_org_number_uq').on(t.organizationId, t.number),
    index('loads_org_status_idx').on(t.organizationId, t.status),
    index('loads_org_driver_idx').on(t.organizationId, t.driverId),
    index('loads_org_delivered_idx').on(t.organizationId, t.deliveredAt),
    index('loads_org_customer_idx')
      .on(t.organizationId, t.customerId)
      .where(sql`${t.customerId} is not null`),
  ],
);

/** A stop in driving order. Arrival and departure come from the place's visits, the driver or the dispatcher. */
export const loadStops = pgTable(
  'load_stops',
  {
    id: id(),
    organizationId: orgKey(),
    loadId: uuid('load_id')
      .notNull()
      .references(() => loads.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    kind: text('kind', { enum: ['PICKUP', 'DELIVERY'] }).notNull(),
    placeId: uuid('place_id').references(() => places.id, { onDelete: 'set null' }),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    address: text('address'),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    windowEnd: timestamp('window_end', { withTimezone: true }).notNull(),
    serviceMinutes: integer('service_minutes').notNull(),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    departedAt: timestamp('departed_at', { withTimezone: true }),
    arrivalSource: text('arrival_source', { enum: ['PLACE', 'DRIVER', 'DISPATCHER'] }),
    departureSource: text('departure_source', { enum: ['PLACE', 'DRIVER', 'DISPATCHER'] }),
    /** The place visit the arrival came from (so a recomputed visit moves the stop with it). */
    placeVisitId: uuid('place_visit_id'),
    eta: timestamp('eta', { withTimezone: true }),
    windowMet: boolean('window_met'),
  },
  (t) => [uniqueIndex('load_stops_load_seq_uq').on(t.loadId, t.seq), index('load_stops_org_place_idx').on(t.organizationId, t.placeId)],
);

/** Every status a load went through, when and by whom (null: the system, from a place event). */
export const loadStatusEvents = pgTable(
  'load_status_events',
  {
    id: id(),
    organizationId: orgKey(),
    loadId: uuid('load_id')
      .notNull()
      .references(() => loads.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['PLANNED', 'ASSIGNED', 'EN_ROUTE', 'AT_STOP', 'DELIVERED', 'CANCELLED'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
  },
  (t) => [index('load_status_events_load_idx').on(t.loadId, t.at)],
);

/** The paper kinds a load keeps (issue 70 added the lumper receipt and the scale ticket). */
export const LOAD_DOCUMENT_TYPES = ['BOL', 'POD', 'LUMPER', 'SCALE', 'OTHER'] as const;

/**
 * A photographed paper of a load: a bill of lading, proof of delivery, lumper receipt, scale ticket
 * or other, of one page or several (`loadDocumentPages`, in the order taken; `imageId` is the first).
 */
export const loadDocuments = pgTable(
  'load_documents',
  {
    id: id(),
    organizationId: orgKey(),
    loadId: uuid('load_id')
      .notNull()
      .references(() => loads.id, { onDelete: 'cascade' }),
    stopId: uuid('stop_id').references(() => loadStops.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: LOAD_DOCUMENT_TYPES }).notNull(),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    pageCount: integer('page_count').notNull().default(1),
    /** The phone's Idempotency-Key: the document a resend from the offline outbox answers. */
    clientId: text('client_id'),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('load_documents_load_idx').on(t.loadId),
    uniqueIndex('load_documents_client_uq')
      .on(t.organizationId, t.loadId, t.clientId)
      .where(sql`${t.clientId} is not null`),
  ],
);

/** The pages of a load's document, in the order they were taken (`seq` from 0). */
export const loadDocumentPages = pgTable(
  'load_document_pages',
  {
    organizationId: orgKey(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    /** The document (migration 0061's key on (organization_id, document_id), deleted with it). */
    documentId: uuid('document_id').notNull(),
    seq: integer('seq').notNull(),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'load_document_pages_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('load_document_pages_seq_uq').on(t.organizationId, t.documentId, t.seq),
  ],
);
