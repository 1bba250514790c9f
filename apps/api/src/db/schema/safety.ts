import { sql } from 'drizzle-orm';
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { SafetyEventHistory, SafetyEventType, SafetySettings, SafetySeverity, SafetySource, SafetyStatus, SpeedingBand } from '@fleet/api-contract';
import { organizations } from './organizations.ts';

// Driver safety (issue 47, decisions 0194 and 0195). Keys lead with organization_id (decision 0169).

/**
 * One safety event: a point event a device reported, or an episode the follower derived from the
 * fixes. (asset, type, source, started_at) names it: a replay of the same fixes writes the same row,
 * and a review (status, coach, notes) survives it.
 */
export const safetyEvents = pgTable(
  'safety_events',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    /** No foreign keys to the vehicle and driver: the history outlives them, as positions do. */
    assetId: uuid('asset_id').notNull(),
    driverId: uuid('driver_id'),
    type: text('type').$type<SafetyEventType>().notNull(),
    source: text('source').$type<SafetySource>().notNull(),
    severity: text('severity').$type<SafetySeverity>().notNull(),
    status: text('status').$type<SafetyStatus>().notNull().default('NEW'),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }).notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    speedBeforeKph: real('speed_before_kph'),
    speedAfterKph: real('speed_after_kph'),
    maxSpeedKph: real('max_speed_kph'),
    limitKph: real('limit_kph'),
    limitSource: text('limit_source'),
    /** SPEEDING: the speed held on the stretch that set the band (issue 66). */
    heldSpeedKph: real('held_speed_kph'),
    band: text('band').$type<SpeedingBand>(),
    /** Speeding: seconds in each band (the score weighs them by share of driving time). */
    bandSeconds: jsonb('band_seconds').$type<Partial<Record<SpeedingBand, number>>>(),
    strengthMps2: real('strength_mps2'),
    fuelBurnedL: real('fuel_burned_l'),
    /** Still under way when last written (its end may still move). */
    open: boolean('open').notNull().default(false),
    coachId: uuid('coach_id'),
    dueAt: timestamp('due_at', { withTimezone: true, precision: 3 }),
    note: text('note'),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true, precision: 3 }),
    disputeNote: text('dispute_note'),
    disputedAt: timestamp('disputed_at', { withTimezone: true, precision: 3 }),
    history: jsonb('history')
      .$type<SafetyEventHistory[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('safety_events_key_uq').on(t.organizationId, t.assetId, t.type, t.source, t.startedAt),
    index('safety_events_time_idx').on(t.organizationId, t.startedAt.desc()),
    index('safety_events_driver_idx').on(t.organizationId, t.driverId, t.startedAt),
    index('safety_events_status_idx').on(t.organizationId, t.status),
  ],
);

/** The organization's safety settings (absent: the defaults). */
export const safetySettings = pgTable('safety_settings', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').$type<SafetySettings>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** How far each vehicle's positions are worked (the start-up catch-up begins there). */
export const safetyMarks = pgTable(
  'safety_marks',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id').notNull(),
    coveredUntil: timestamp('covered_until', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.assetId] })],
);

/**
 * Each vehicle's trips summed per driver (null: none known) and UTC day (decision 0199): the scores
 * read these for the whole days of a period. Kept by the trips writer in its transaction
 * (db/sql/trip-daily-totals.ts), so always the sum of the trips as they are.
 */
export const safetyDailyTotals = pgTable(
  'safety_daily_totals',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id').notNull(),
    driverId: uuid('driver_id'),
    day: date('day').notNull(),
    distanceM: doublePrecision('distance_m').notNull(),
    drivingS: doublePrecision('driving_s').notNull(),
    trips: integer('trips').notNull(),
  },
  (t) => [index('safety_daily_totals_day_idx').on(t.organizationId, t.day), index('safety_daily_totals_asset_idx').on(t.organizationId, t.assetId, t.day)],
);
