import { sql } from 'drizzle-orm';
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';
import type { IoMap } from '@fleet/api-contract';

// Fleet registry: the records every other feature hangs on. Stored metric (metres); shown per the
// organization's unit setting. Enumerated values are validated by the zod schemas of api-contract.

/** Global catalogue of device (gateway) models, managed by super administrators. */
export const deviceModels = pgTable(
  'device_models',
  {
    id: id(),
    name: text('name').notNull(),
    manufacturer: text('manufacturer'),
    protocol: text('protocol').notNull().default('osmand'),
    /** Numbered IO elements (Teltonika) to named attributes: `{ "239": { "attribute": "ignition" } }`. */
    ioMap: jsonb('io_map').$type<IoMap>().notNull().default({}),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('device_models_name_uq').on(sql`lower(${t.name})`)],
);

/**
 * An organization's home terminal (issue 46, decision 0188): an address with its IANA time zone. A
 * driver belongs to one; the log's header and the roadside view show its address and the driver's
 * log days follow its zone. Keys lead with organization_id (decision 0169, migration 0044).
 */
export const terminals = pgTable(
  'terminals',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    addressLine1: text('address_line1').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    postalCode: text('postal_code'),
    timeZone: text('time_zone').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] }), uniqueIndex('terminals_org_name_uq').on(t.organizationId, sql`lower(${t.name})`)],
);

export const drivers = pgTable(
  'drivers',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    phone: text('phone'),
    employeeId: text('employee_id'),
    licenseNumber: text('license_number'),
    licenseState: text('license_state'),
    licenseClass: text('license_class'),
    licenseExpiry: date('license_expiry'),
    /** Home-terminal IANA zone: HoS log days and cycle days are counted in it. */
    homeTimeZone: text('home_time_zone').notNull().default('America/Chicago'),
    /** The driver's home terminal (its zone is copied into homeTimeZone when chosen); null: the main office is the home terminal. */
    homeTerminalId: uuid('home_terminal_id'),
    /** A RulesetId of @fleet/hos. */
    ruleset: text('ruleset').notNull().default('US_PROPERTY_70_8'),
    shortHaul150: boolean('short_haul_150').notNull().default(false),
    sixteenHour: boolean('sixteen_hour').notNull().default(false),
    /** Oilfield operations (49 CFR §395.1(d), US property rulesets): 24-h restart, well-site waiting time. */
    oilfield: boolean('oilfield').notNull().default(false),
    personalConveyanceAllowed: boolean('personal_conveyance_allowed').notNull().default(false),
    yardMovesAllowed: boolean('yard_moves_allowed').notNull().default(false),
    eldExempt: boolean('eld_exempt').notNull().default(false),
    eldExemptReason: text('eld_exempt_reason'),
    status: text('status', { enum: ['ACTIVE', 'INACTIVE'] })
      .notNull()
      .default('ACTIVE'),
    /** Optional sign-in account of the driver (one account per driver). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The driver's iButton or RFID card as 16 upper-case hex digits (decision 0324); one driver per card. */
    cardNumber: text('card_number'),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('drivers_org_idx').on(t.organizationId, t.lastName, t.firstName),
    uniqueIndex('drivers_org_license_uq')
      .on(t.organizationId, t.licenseState, sql`upper(${t.licenseNumber})`)
      .where(sql`${t.licenseNumber} is not null`),
    uniqueIndex('drivers_user_uq')
      .on(t.userId)
      .where(sql`${t.userId} is not null`),
    uniqueIndex('drivers_org_card_uq')
      .on(t.organizationId, t.cardNumber)
      .where(sql`${t.cardNumber} is not null`),
  ],
);

/**
 * Each change of driver card a device read (decision 0324), once: (gateway, time) names it, so a
 * resent packet records and assigns nothing twice. `driverId` null: no driver has the card.
 */
export const driverCardReads = pgTable(
  'driver_card_reads',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    gatewayId: uuid('gateway_id').notNull(),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }).notNull(),
    assetId: uuid('asset_id'),
    cardNumber: text('card_number').notNull(),
    driverId: uuid('driver_id'),
    /** The read made the driver the vehicle's driver. */
    assigned: boolean('assigned').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'driver_card_reads_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('driver_card_reads_gateway_uq').on(t.organizationId, t.gatewayId, t.readAt),
    index('driver_card_reads_asset_idx').on(t.organizationId, t.assetId, t.readAt),
  ],
);

/** Vehicles and trailers (type). Trailers use the subset of columns that applies to them. */
export const assets = pgTable(
  'assets',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['VEHICLE', 'TRAILER'] }).notNull(),
    unitNumber: text('unit_number').notNull(),
    vin: text('vin'),
    make: text('make'),
    model: text('model'),
    year: integer('year'),
    plate: text('plate'),
    plateState: text('plate_state'),
    /** IFTA fuel type (vehicles). */
    fuelType: text('fuel_type'),
    iftaQualified: boolean('ifta_qualified').notNull().default(true),
    odometerM: doublePrecision('odometer_m'),
    /** Vehicles: fuel tank capacity in litres; null = 300 US gallons assumed (a larger fuel purchase needs confirming). */
    tankCapacityL: doublePrecision('tank_capacity_l'),
    /** DRY_VAN, REEFER, FLATBED, TANKER, OTHER (trailers). */
    trailerType: text('trailer_type'),
    lengthM: doublePrecision('length_m'),
    status: text('status', { enum: ['ACTIVE', 'INACTIVE'] })
      .notNull()
      .default('ACTIVE'),
    /** The driver assigned now (history in asset_driver_assignments). */
    currentDriverId: uuid('current_driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('assets_org_type_idx').on(t.organizationId, t.type, t.unitNumber),
    uniqueIndex('assets_org_unit_uq').on(t.organizationId, sql`lower(${t.unitNumber})`),
    uniqueIndex('assets_org_vin_uq')
      .on(t.organizationId, sql`upper(${t.vin})`)
      .where(sql`${t.vin} is not null`),
    uniqueIndex('assets_current_driver_uq')
      .on(t.currentDriverId)
      .where(sql`${t.currentDriverId} is not null`),
  ],
);

/** Who drove which vehicle when: one open row per vehicle and per driver at a time. */
export const assetDriverAssignments = pgTable(
  'asset_driver_assignments',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('asset_driver_assignments_asset_idx').on(t.assetId, t.startedAt.desc()),
    index('asset_driver_assignments_driver_idx').on(t.driverId, t.startedAt.desc()),
    uniqueIndex('asset_driver_assignments_open_asset_uq')
      .on(t.assetId)
      .where(sql`${t.endedAt} is null`),
    uniqueIndex('asset_driver_assignments_open_driver_uq')
      .on(t.driverId)
      .where(sql`${t.endedAt} is null`),
  ],
);

/** Trailers attached to vehicles over time; a trailer hangs on one vehicle at a time. */
export const trailerAttachments = pgTable(
  'trailer_attachments',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    trailerId: uuid('trailer_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    attachedAt: timestamp('attached_at', { withTimezone: true }).notNull().defaultNow(),
    detachedAt: timestamp('detached_at', { withTimezone: true }),
  },
  (t) => [
    index('trailer_attachments_vehicle_idx').on(t.vehicleId, t.attachedAt.desc()),
    uniqueIndex('trailer_attachments_open_trailer_uq')
      .on(t.trailerId)
      .where(sql`${t.detachedAt} is null`),
  ],
);

/** Devices (gateways): GPS trackers, ELD gateways, phones running Traccar Client. */
export const gateways = pgTable(
  'gateways',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** IMEI or serial; what the device sends as its id. Unique across all organizations. */
    uniqueId: text('unique_id').notNull(),
    name: text('name').notNull(),
    deviceModelId: uuid('device_model_id').references(() => deviceModels.id, { onDelete: 'set null' }),
    phone: text('phone'),
    firmware: text('firmware'),
    status: text('status', { enum: ['ACTIVE', 'INACTIVE'] })
      .notNull()
      .default('ACTIVE'),
    /** The vehicle paired now (history in gateway_pairings); one device per vehicle. */
    assetId: uuid('asset_id').references(() => assets.id, { onDelete: 'set null' }),
    /** SHA-256 of the batch-ingest token, shown once when the device is created. */
    ingestTokenHash: text('ingest_token_hash'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    notes: text('notes'),
    /** Store fixes at the time received, not the device's (Traccar's `time.override`): a clock that cannot be fixed (issue 43). */
    useReceivedTime: boolean('use_received_time').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('gateways_unique_id_uq').on(t.uniqueId),
    index('gateways_org_idx').on(t.organizationId, t.name),
    uniqueIndex('gateways_asset_uq')
      .on(t.assetId)
      .where(sql`${t.assetId} is not null`),
  ],
);

/**
 * The device-id directory (migration 0036, docs/deploy.md 7.2): every device's unique id and batch
 * token hash once, across organizations, with its organization. Written by the API with the device
 * (modules/gateways/device-ids.ts); on Citus a reference table, so ingest finds a device's
 * organization before it reads the device's shard.
 */
export const deviceIds = pgTable(
  'device_ids',
  {
    uniqueId: text('unique_id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    gatewayId: uuid('gateway_id').notNull(),
    ingestTokenHash: text('ingest_token_hash'),
  },
  (t) => [uniqueIndex('device_ids_token_uq').on(t.ingestTokenHash), index('device_ids_gateway_idx').on(t.gatewayId)],
);

export const gatewayPairings = pgTable(
  'gateway_pairings',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    gatewayId: uuid('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    pairedAt: timestamp('paired_at', { withTimezone: true }).notNull().defaultNow(),
    unpairedAt: timestamp('unpaired_at', { withTimezone: true }),
  },
  (t) => [index('gateway_pairings_gateway_idx').on(t.gatewayId, t.pairedAt.desc()), index('gateway_pairings_asset_idx').on(t.assetId, t.pairedAt.desc())],
);

/** Groups of users, drivers and assets; they filter lists and the map. */
export const groups = pgTable(
  'groups',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('groups_org_name_uq').on(t.organizationId, sql`lower(${t.name})`)],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    memberType: text('member_type', { enum: ['USER', 'DRIVER'] }).notNull(),
    memberId: uuid('member_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.memberType, t.memberId] }), index('group_members_member_idx').on(t.memberId)],
);

export const groupAssets = pgTable(
  'group_assets',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.assetId] }), index('group_assets_asset_idx').on(t.assetId)],
);

// Free-text search text of the registry lists: a stored generated column per table (the
// lower-cased concatenation of the searched fields) with a trigram GIN index on it, both created by
// the custom migration 0010_registry_search_text (docs/decisions/0046), so `col LIKE '%term%'` uses
// the index and its recheck reads a stored string. The column is deliberately not declared in the
// tables above: whole-row selects, `returning()` and activity-log snapshots stay without it, and
// inserts never name it (PostgreSQL computes it).
export const assetSearchDoc = sql`${assets}.search_text`;
export const driverSearchDoc = sql`${drivers}.search_text`;
export const gatewaySearchDoc = sql`${gateways}.search_text`;
