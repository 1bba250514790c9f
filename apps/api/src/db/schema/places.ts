import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { drivers, groups } from './fleet.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

// Places, their visits, trips and stops (issue 32, decisions 0162 and 0163), and the scheduled
// reports. Visits, trips and stops are kept behind ingest by followers of the position commit; they
// carry no foreign key to assets (like positions), so a removed vehicle's history stays readable.

const orgKey = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

/** A place: a GeoJSON Point with a radius (a circle) or a Polygon; the bounding box is kept for area filters and the spatial index. */
export const places = pgTable(
  'places',
  {
    id: id(),
    organizationId: orgKey(),
    name: text('name').notNull(),
    category: text('category', { enum: ['CUSTOMER', 'TERMINAL', 'YARD', 'FUEL', 'RESTRICTED', 'OTHER'] }).notNull(),
    geometry: jsonb('geometry').$type<{ type: 'Point'; coordinates: [number, number] } | { type: 'Polygon'; coordinates: [number, number][][] }>().notNull(),
    radiusM: doublePrecision('radius_m'),
    arrivalDwellS: integer('arrival_dwell_s').notNull().default(120),
    departureDwellS: integer('departure_dwell_s').notNull().default(60),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'set null' }),
    address: text('address'),
    notes: text('notes'),
    minLat: doublePrecision('min_lat').notNull(),
    minLon: doublePrecision('min_lon').notNull(),
    maxLat: doublePrecision('max_lat').notNull(),
    maxLon: doublePrecision('max_lon').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('places_org_name_idx').on(t.organizationId, t.name), index('places_org_bbox_idx').on(t.organizationId, t.minLon, t.maxLon)],
);

/**
 * A vehicle's stay at a place, from the fix that began the arrival dwell to the fix that began the
 * departure dwell. `departedAt` null: still there. Recomputed from positions when fixes arrive late.
 */
export const placeVisits = pgTable(
  'place_visits',
  {
    id: id(),
    organizationId: orgKey(),
    placeId: uuid('place_id')
      .notNull()
      .references(() => places.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id').notNull(),
    driverId: uuid('driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }).notNull(),
    departedAt: timestamp('departed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('place_visits_org_time_idx').on(t.organizationId, t.arrivedAt.desc()),
    index('place_visits_asset_time_idx').on(t.assetId, t.arrivedAt.desc()),
    index('place_visits_place_time_idx').on(t.placeId, t.arrivedAt.desc()),
  ],
);

/** A trip: from moving to stopped (ignition off, else speed under the stop threshold for the stop time). */
export const trips = pgTable(
  'trips',
  {
    id: id(),
    organizationId: orgKey(),
    assetId: uuid('asset_id').notNull(),
    driverId: uuid('driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
    startLat: doublePrecision('start_lat').notNull(),
    startLon: doublePrecision('start_lon').notNull(),
    endLat: doublePrecision('end_lat').notNull(),
    endLon: doublePrecision('end_lon').notNull(),
    startPlaceId: uuid('start_place_id').references(() => places.id, { onDelete: 'set null' }),
    endPlaceId: uuid('end_place_id').references(() => places.id, { onDelete: 'set null' }),
    startAddress: text('start_address'),
    endAddress: text('end_address'),
    distanceM: doublePrecision('distance_m').notNull(),
    maxSpeedKmh: real('max_speed_kmh').notNull(),
    avgSpeedKmh: real('avg_speed_kmh').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('trips_org_time_idx').on(t.organizationId, t.startedAt.desc()),
    index('trips_asset_time_idx').on(t.assetId, t.startedAt.desc()),
    index('trips_driver_time_idx').on(t.driverId, t.startedAt.desc()),
  ],
);

/** A stop between trips; `endedAt` null while the vehicle is still stopped. */
export const vehicleStops = pgTable(
  'vehicle_stops',
  {
    id: id(),
    organizationId: orgKey(),
    assetId: uuid('asset_id').notNull(),
    driverId: uuid('driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    lat: doublePrecision('lat').notNull(),
    lon: doublePrecision('lon').notNull(),
    placeId: uuid('place_id').references(() => places.id, { onDelete: 'set null' }),
    address: text('address'),
    idleS: integer('idle_s').notNull().default(0),
    engineOn: boolean('engine_on'),
    createdAt: createdAt(),
  },
  (t) => [
    index('vehicle_stops_org_time_idx').on(t.organizationId, t.startedAt.desc()),
    index('vehicle_stops_asset_time_idx').on(t.assetId, t.startedAt.desc()),
    index('vehicle_stops_driver_time_idx').on(t.driverId, t.startedAt.desc()),
  ],
);

/** A user's scheduled report (`report-subscriptions`). */
export const reportSubscriptions = pgTable(
  'report_subscriptions',
  {
    id: id(),
    organizationId: orgKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    report: text('report', { enum: ['VISITS', 'TRIPS', 'STOPS', 'SUMMARY', 'SAFETY_EVENTS', 'SAFETY_SCORES'] }).notNull(),
    filters: jsonb('filters').$type<Record<string, string>>().notNull().default({}),
    frequency: text('frequency', { enum: ['DAILY', 'WEEKLY'] }).notNull(),
    timeOfDay: text('time_of_day').notNull(),
    weekday: integer('weekday'),
    timeZone: text('time_zone').notNull(),
    formats: text('formats')
      .array()
      .notNull()
      .default(sql`'{pdf,csv}'::text[]`),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('report_subscriptions_org_user_idx').on(t.organizationId, t.userId), index('report_subscriptions_next_run_idx').on(t.nextRunAt)],
);

/** One run of a subscription per scheduled time: the primary key makes it once, whatever the number of API instances. */
export const reportRuns = pgTable(
  'report_runs',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => reportSubscriptions.id, { onDelete: 'cascade' }),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }).notNull(),
    organizationId: orgKey(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    outcome: text('outcome'),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.scheduledFor] })],
);

/** How far the geofence follower has worked each vehicle's positions: its start-up catch-up begins there (decision 0162). */
export const placeVisitMarks = pgTable('place_visit_marks', {
  assetId: uuid('asset_id').primaryKey(),
  organizationId: orgKey(),
  coveredUntil: timestamp('covered_until', { withTimezone: true }).notNull(),
});
