import { boolean, doublePrecision, index, jsonb, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { assets, drivers, gateways } from './fleet.ts';
import { organizations } from './organizations.ts';

// Telematics storage. Speed is km/h everywhere inside the product (devices send knots or m/s;
// ingest converts), distances metres, angles degrees.

/**
 * Every fix a device reported. On PostgreSQL this is a table partitioned by month on fix_time
 * (migration 0005_positions_partitions, docs/decisions/0050); the key (gateway_id, fix_time) makes
 * ingest idempotent. No foreign keys besides the organization's: they would cost an index probe
 * per inserted row, and a device or vehicle removed later must not take its history with it.
 * The data-retention job purges by (organization_id, fix_time): it prunes to the old months and
 * filters their rows by organization. There is no (organization_id, fix_time) index: no read uses
 * one, and it cost every inserted fix a third B-tree insert (docs/decisions/0071).
 */
export const positions = pgTable(
  'positions',
  {
    organizationId: uuid('organization_id').notNull(),
    gatewayId: uuid('gateway_id').notNull(),
    /** The vehicle the device was paired with at fix time (null: unpaired device). */
    assetId: uuid('asset_id'),
    /** That vehicle's driver at fix time. */
    driverId: uuid('driver_id'),
    fixTime: timestamp('fix_time', { withTimezone: true }).notNull(),
    serverTime: timestamp('server_time', { withTimezone: true }).notNull().defaultNow(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    /** km/h. */
    speed: real('speed'),
    /** Degrees clockwise from north. */
    course: real('course'),
    /** Metres above sea level. */
    altitude: real('altitude'),
    /** Metres (horizontal). */
    accuracy: real('accuracy'),
    /** Metres, as reported by the device or gateway: the engine's when it has one (odometerSource). */
    odometer: doublePrecision('odometer'),
    /** ECM: the engine's total vehicle distance; GPS: the device's GNSS odometer; null: none. */
    odometerSource: text('odometer_source', { enum: ['ECM', 'GPS'] }),
    /** The engine's total hours (ECM), as reported. */
    engineHours: doublePrecision('engine_hours'),
    ignition: boolean('ignition'),
    /** osmand | batch | simulator | import | teltonika | traccar. */
    protocol: text('protocol').notNull(),
    /** Whatever else the device sent (battery, cell towers, engine data…). */
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    primaryKey({ name: 'positions_pkey', columns: [t.gatewayId, t.fixTime] }),
    index('positions_asset_time_idx').on(t.assetId, t.fixTime),
    index('positions_driver_time_idx').on(t.driverId, t.fixTime),
  ],
);

/** The newest fix and derived status per vehicle, kept current by ingest: the map loads from it. */
export const latestPositions = pgTable(
  'latest_positions',
  {
    assetId: uuid('asset_id')
      .primaryKey()
      .references(() => assets.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    gatewayId: uuid('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    driverId: uuid('driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    fixTime: timestamp('fix_time', { withTimezone: true }).notNull(),
    serverTime: timestamp('server_time', { withTimezone: true }).notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    speed: real('speed'),
    course: real('course'),
    altitude: real('altitude'),
    accuracy: real('accuracy'),
    odometer: doublePrecision('odometer'),
    ignition: boolean('ignition'),
    /** Last fix at moving speed; null if never seen moving. */
    lastMovingAt: timestamp('last_moving_at', { withTimezone: true }),
    /** Start of the current run of stationary fixes; null while moving. */
    stationarySince: timestamp('stationary_since', { withTimezone: true }),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('latest_positions_org_idx').on(t.organizationId)],
);
