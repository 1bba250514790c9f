import { sql } from 'drizzle-orm';
import {
  bigint,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { assets, drivers } from './fleet.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

// Hours-of-service records (ELD event model, 49 CFR 395 Appendix A 4.5.1; decision 0091). Events are
// never updated in place or deleted, except by the retention purge (which reads `event_time`): an
// edit inserts a new active row and marks the old one inactive-changed. Codes are the ELD's own
// numbers (event type/code Table 6, record status 7.23, record origin 7.22), named in api-contract.

export const hosEvents = pgTable(
  'hos_events',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Null for the unidentified driver's records. No cascade: a driver with records is deactivated, not deleted. */
    driverId: uuid('driver_id').references(() => drivers.id),
    vehicleId: uuid('vehicle_id').references(() => assets.id, { onDelete: 'set null' }),
    /** Per driver, +1 for each new event (versions included). */
    sequenceId: integer('sequence_id').notNull(),
    eventType: smallint('event_type').notNull(),
    eventCode: smallint('event_code').notNull(),
    recordStatus: smallint('record_status').notNull().default(1),
    recordOrigin: smallint('record_origin').notNull(),
    /** The instant of the event (UTC). */
    eventTime: timestamp('event_time', { withTimezone: true }).notNull(),
    /** Log day of the event in the driver's home-terminal zone (from the carrier's period start time). */
    logDate: date('log_date').notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    locationDescription: text('location_description'),
    odometerM: doublePrecision('odometer_m'),
    engineHours: doublePrecision('engine_hours'),
    annotation: text('annotation'),
    /** The version this row replaced (its record status is then inactive-changed). */
    replacesEventId: uuid('replaces_event_id').references((): AnyPgColumn => hosEvents.id, { onDelete: 'set null' }),
    /** The office's edit request (proposal) this record belongs to (decision 0112); null otherwise. */
    editRequestId: uuid('edit_request_id').references((): AnyPgColumn => hosEditRequests.id, { onDelete: 'set null' }),
    /** Malfunction or data diagnostic code of a type-7 event (Table 4: P, E, T, L, R, S, O or 1-6). */
    diagnosticCode: text('diagnostic_code'),
    /** The driver's phone's Idempotency-Key of the record (sent late from offline, decision 0184); null otherwise. */
    clientId: text('client_id'),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    // A driver's active events in a time range (log days, clocks, audits): the partial index holds
    // only active rows, so inactive versions never slow the engine's reads.
    index('hos_events_driver_active_idx')
      .on(t.driverId, t.eventTime)
      .where(sql`${t.recordStatus} = 1`),
    // A driver's last active event of one type before an instant (the status a range starts in),
    // found at once however long the history behind it.
    index('hos_events_driver_type_active_idx')
      .on(t.driverId, t.eventType, t.eventTime)
      .where(sql`${t.recordStatus} = 1`),
    // Every driver of an organization for a range in one query (violations, availability, log lists).
    index('hos_events_org_time_idx')
      .on(t.organizationId, t.eventTime)
      .where(sql`${t.recordStatus} = 1`),
    index('hos_events_org_day_idx').on(t.organizationId, t.logDate),
    uniqueIndex('hos_events_driver_seq_uq').on(t.driverId, t.sequenceId),
    uniqueIndex('hos_events_client_uq')
      .on(t.organizationId, t.driverId, t.eventType, t.clientId)
      .where(sql`${t.clientId} is not null`),
    index('hos_events_replaces_idx')
      .on(t.replacesEventId)
      .where(sql`${t.replacesEventId} is not null`),
    index('hos_events_request_idx')
      .on(t.editRequestId)
      .where(sql`${t.editRequestId} is not null`),
    // The ELD's own records without a driver (unidentified driving, malfunctions) of an organization by
    // time: the unidentified driving list, the diagnostics job, the ELD output file's last segment.
    index('hos_events_org_unidentified_idx')
      .on(t.organizationId, t.eventTime)
      .where(sql`${t.driverId} is null`),
    // A vehicle's malfunctions and data diagnostics by code, the newest first (in force or cleared).
    index('hos_events_diagnostics_idx')
      .on(t.organizationId, t.vehicleId, t.diagnosticCode, t.eventTime)
      .where(sql`${t.eventType} = 7`),
    // A vehicle's engine power-up and shut-down records by time (decision 0155): the state before a fix, the power-up an event counts from.
    index('hos_events_engine_idx')
      .on(t.vehicleId, t.eventTime)
      .where(sql`${t.eventType} = 6`),
  ],
);

/**
 * An edit the office (or the system, for unidentified driving) proposed to a driver (Appendix A
 * 4.4.4.2.5-6, decision 0112): its records are hos_events rows with this id, record status
 * inactive-change-requested until the driver accepts (active; the originals inactive-changed) or
 * rejects them (inactive-change-rejected). The row itself only records who asked, when, and the outcome.
 */
export const hosEditRequests = pgTable(
  'hos_edit_requests',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id),
    kind: text('kind', { enum: ['EDIT', 'INSERT', 'ASSIGN_UNIDENTIFIED'] }).notNull(),
    state: text('state', { enum: ['PENDING', 'ACCEPTED', 'REJECTED'] })
      .notNull()
      .default('PENDING'),
    /** Log day of the first proposed record, for the driver's and the office's lists. */
    logDate: date('log_date').notNull(),
    annotation: text('annotation'),
    requestedByUserId: uuid('requested_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('hos_edit_requests_driver_idx').on(t.driverId, t.state, t.requestedAt), index('hos_edit_requests_org_idx').on(t.organizationId, t.requestedAt)],
);

/**
 * The office's note that an unidentified driving segment is nobody's driving time (a mechanic's
 * test drive, a yard move by the shop), keyed by the segment's first record (decision 0113). The
 * records themselves are never changed: the ELD rule keeps them as the unidentified profile's.
 */
export const hosUnidentifiedAnnotations = pgTable('hos_unidentified_annotations', {
  segmentEventId: uuid('segment_event_id')
    .primaryKey()
    .references(() => hosEvents.id, { onDelete: 'cascade' }),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  reason: text('reason').notNull(),
  annotatedByUserId: uuid('annotated_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  annotatedAt: timestamp('annotated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row per driver per log day, created on first need: the day's certification and §395.8 form-and-manner facts. */
export const hosLogs = pgTable(
  'hos_logs',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id),
    logDate: date('log_date').notNull(),
    certifiedAt: timestamp('certified_at', { withTimezone: true }),
    certifiedByUserId: uuid('certified_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** How many times the day was certified (ELD certification event code n). */
    certificationCount: integer('certification_count').notNull().default(0),
    shippingDocuments: text('shipping_documents')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    trailerIds: uuid('trailer_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    coDriverId: uuid('co_driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    /** Canada (SOR/2005-313 s. 16, C6): when the driver declared this day "day 1" of an off-duty deferral; null = not declared. */
    deferralDeclaredAt: timestamp('deferral_declared_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('hos_logs_driver_day_uq').on(t.driverId, t.logDate),
    index('hos_logs_org_day_idx').on(t.organizationId, t.logDate),
    // The few log days that change the engine's options (a co-driver: C7; a declared deferral: C6),
    // read for every driver on each fleet page.
    index('hos_logs_org_facts_idx')
      .on(t.organizationId, t.logDate)
      .where(sql`${t.coDriverId} is not null or ${t.deferralDeclaredAt} is not null`),
  ],
);

/**
 * A version per driver (migration 0035: fleet_next_version), taken by a trigger in every transaction that writes
 * the driver's events (decision 0099): the API keeps drivers' events in memory and trusts an entry
 * while its version is unchanged. The organization's `list_versions` row 'hos' moves with any of
 * them, so one row tells a reader whether anything changed at all.
 */
export const hosDriverVersions = pgTable(
  'hos_driver_versions',
  {
    driverId: uuid('driver_id')
      .primaryKey()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
  },
  (t) => [index('hos_driver_versions_org_idx').on(t.organizationId, t.version)],
);

/**
 * The instants a driver crossed between the US and Canada (issue 72, decision 0313): detected from
 * the truck's positions (POSITIONS) or entered by the driver or office (DRIVER). A removed or moved
 * crossing keeps its row (removed_at, removed_annotation); migration 0068 holds the foreign key to
 * drivers on (organization_id, id) and the trigger that moves the driver's HoS version.
 */
export const hosBorderCrossings = pgTable(
  'hos_border_crossings',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    driverId: uuid('driver_id').notNull(),
    vehicleId: uuid('vehicle_id'),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    fromCountry: text('from_country', { enum: ['US', 'CA'] }).notNull(),
    toCountry: text('to_country', { enum: ['US', 'CA'] }).notNull(),
    source: text('source', { enum: ['POSITIONS', 'DRIVER'] }).notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    annotation: text('annotation'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    removedAt: timestamp('removed_at', { withTimezone: true, precision: 3 }),
    removedBy: uuid('removed_by'),
    removedAnnotation: text('removed_annotation'),
  },
  (t) => [
    primaryKey({ name: 'hos_border_crossings_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('hos_border_crossings_detected_uq').on(t.organizationId, t.driverId, t.at, t.source),
  ],
);

/**
 * What a driver declares on their log that changes the rules it is judged by (issue 72, decisions
 * 0314 and 0315): a switch of Canada's cycle (CYCLE_SWITCH, `cycle` 1 or 2, s. 29), adverse driving
 * conditions claimed from `at` (ADVERSE_DRIVING) and an emergency from `at` to `until` (EMERGENCY,
 * s. 76). A withdrawn declaration keeps its row (removed_at, removed_annotation); migration 0073 holds
 * the foreign key to drivers on (organization_id, id) and the trigger that moves the driver's HoS version.
 */
export const hosDeclarations = pgTable(
  'hos_declarations',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    driverId: uuid('driver_id').notNull(),
    kind: text('kind', { enum: ['CYCLE_SWITCH', 'ADVERSE_DRIVING', 'EMERGENCY'] }).notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    until: timestamp('until', { withTimezone: true, precision: 3 }),
    cycle: smallint('cycle'),
    annotation: text('annotation').notNull(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    removedAt: timestamp('removed_at', { withTimezone: true, precision: 3 }),
    removedBy: uuid('removed_by'),
    removedAnnotation: text('removed_annotation'),
  },
  (t) => [
    primaryKey({ name: 'hos_declarations_pkey', columns: [t.organizationId, t.id] }),
    index('hos_declarations_driver_idx').on(t.organizationId, t.driverId, t.at),
  ],
);
