import { sql } from 'drizzle-orm';
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { drivers, groups } from './fleet.ts';
import { organizations } from './organizations.ts';

// Inspections and maintenance (issue 31, decision 0158). A report is kept for its legal period even
// after its vehicle is removed, so reports and defects carry no foreign key to assets: they keep the
// unit numbers as inspected. Distances in metres; money in integer cents (as IFTA).

/** The organization a row belongs to; removing the organization removes the row. */
const orgKey = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

/** One stored item of a report, as the driver signed it. */
export interface DvirItemRow {
  item: string;
  label: string;
  assetId: string;
  ok: boolean;
  note: string | null;
  imageIds: string[];
  safety: boolean;
}

/** A driver vehicle inspection report (49 CFR 396.11, 396.13): immutable once stored, except the next driver's review. */
export const dvirs = pgTable(
  'dvirs',
  {
    id: id(),
    organizationId: orgKey(),
    assetId: uuid('asset_id').notNull(),
    unitNumber: text('unit_number').notNull(),
    /** `[{ id, unitNumber }]` of the trailers inspected with the vehicle. */
    trailers: jsonb('trailers').$type<Array<{ id: string; unitNumber: string }>>().notNull().default([]),
    driverId: uuid('driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    driverName: text('driver_name').notNull(),
    kind: text('kind', { enum: ['PRE_TRIP', 'POST_TRIP'] }).notNull(),
    inspectedAt: timestamp('inspected_at', { withTimezone: true }).notNull(),
    odometerM: doublePrecision('odometer_m'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    location: text('location'),
    items: jsonb('items').$type<DvirItemRow[]>().notNull(),
    hasDefects: boolean('has_defects').notNull(),
    signatureName: text('signature_name').notNull(),
    signatureImageId: uuid('signature_image_id'),
    remarks: text('remarks'),
    reviewedByDriverId: uuid('reviewed_by_driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    reviewerName: text('reviewer_name'),
    reviewSignatureName: text('review_signature_name'),
    reviewSignatureImageId: uuid('review_signature_image_id'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdByUserId: uuid('created_by_user_id'),
    /** The driver's phone's Idempotency-Key: a resend of the report answers the first (decision 0184). */
    clientId: text('client_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('dvirs_client_uq')
      .on(t.organizationId, t.driverId, t.clientId)
      .where(sql`${t.clientId} is not null`),
    index('dvirs_org_asset_time_idx').on(t.organizationId, t.assetId, t.inspectedAt.desc()),
    index('dvirs_org_time_idx').on(t.organizationId, t.inspectedAt.desc()),
    index('dvirs_org_driver_time_idx').on(t.organizationId, t.driverId, t.inspectedAt.desc()),
  ],
);

/** A failed item of a report, or an engine fault made a defect: open until a mechanic certifies it repaired, or that repair is unnecessary. */
export const vehicleDefects = pgTable(
  'vehicle_defects',
  {
    id: id(),
    organizationId: orgKey(),
    /** Null for a defect made of an engine fault (decision 0191). */
    dvirId: uuid('dvir_id').references(() => dvirs.id, { onDelete: 'cascade' }),
    /** The engine fault it was made of (decision 0191). */
    engineFaultId: uuid('engine_fault_id'),
    /** The annual inspection (a compliance item) whose failed item it is (decision 0305). */
    complianceItemId: uuid('compliance_item_id'),
    assetId: uuid('asset_id').notNull(),
    unitNumber: text('unit_number').notNull(),
    item: text('item').notNull(),
    label: text('label').notNull(),
    note: text('note'),
    imageIds: uuid('image_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    safety: boolean('safety').notNull(),
    status: text('status', { enum: ['OPEN', 'REPAIRED', 'NOT_NEEDED'] })
      .notNull()
      .default('OPEN'),
    workOrderId: uuid('work_order_id'),
    certifiedAt: timestamp('certified_at', { withTimezone: true }),
    certifiedByName: text('certified_by_name'),
    certifiedByImageId: uuid('certified_by_image_id'),
    certifiedByUserId: uuid('certified_by_user_id'),
    certification: text('certification'),
    createdAt: createdAt(),
  },
  (t) => [
    index('vehicle_defects_org_status_idx').on(t.organizationId, t.status, t.assetId),
    index('vehicle_defects_dvir_idx').on(t.dvirId),
    uniqueIndex('vehicle_defects_compliance_item_uq')
      .on(t.organizationId, t.complianceItemId, t.label)
      .where(sql`${t.complianceItemId} is not null`),
    index('vehicle_defects_work_order_idx')
      .on(t.workOrderId)
      .where(sql`${t.workOrderId} is not null`),
  ],
);

/** A repair or service job on a vehicle or trailer. */
export const workOrders = pgTable(
  'work_orders',
  {
    id: id(),
    organizationId: orgKey(),
    assetId: uuid('asset_id').notNull(),
    unitNumber: text('unit_number').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    status: text('status', { enum: ['OPEN', 'IN_PROGRESS', 'DONE'] })
      .notNull()
      .default('OPEN'),
    assignee: text('assignee'),
    parts: text('parts'),
    laborHours: real('labor_hours'),
    costCents: bigint('cost_cents', { mode: 'number' }),
    scheduleId: uuid('schedule_id'),
    createdByUserId: uuid('created_by_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('work_orders_org_status_idx').on(t.organizationId, t.status, t.createdAt.desc()),
    index('work_orders_org_asset_idx').on(t.organizationId, t.assetId),
  ],
);

/** Preventive maintenance: every N metres, N engine hours or N days, for one vehicle or a group's vehicles. */
export const maintenanceSchedules = pgTable(
  'maintenance_schedules',
  {
    id: id(),
    organizationId: orgKey(),
    assetId: uuid('asset_id'),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    everyM: doublePrecision('every_m'),
    everyEngineHours: doublePrecision('every_engine_hours'),
    everyDays: integer('every_days'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('maintenance_schedules_org_idx').on(t.organizationId, t.name)],
);

/** When each vehicle of a schedule was last serviced (or entered the schedule): the intervals count from here. */
export const maintenanceServices = pgTable(
  'maintenance_services',
  {
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => maintenanceSchedules.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id').notNull(),
    organizationId: orgKey(),
    doneAt: timestamp('done_at', { withTimezone: true }).notNull(),
    odometerM: doublePrecision('odometer_m'),
    engineHours: doublePrecision('engine_hours'),
    workOrderId: uuid('work_order_id'),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.assetId] }), index('maintenance_services_org_asset_idx').on(t.organizationId, t.assetId)],
);

/** The items an organization adds to the 396.11 list (issue 31): every inspection reports them too. */
export const inspectionItems = pgTable('inspection_items', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  items: jsonb('items')
    .$type<Array<{ name: string; trailer: boolean }>>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  updatedAt: updatedAt(),
});
