import { date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';

/**
 * One row per vehicle and day (the organization's calendar day), kept by the fleet-stats job right
 * behind ingest (docs/decisions/0131): fleet performance and the dashboard's distance charts read
 * these instead of positions. `carry` is what the next fix continues from (the day's last fix and
 * whether the vehicle was stopped or speeding), so each fix is read once.
 */
export const vehicleDailyStats = pgTable(
  'vehicle_daily_stats',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id').notNull(),
    day: date('day').notNull(),
    distanceM: doublePrecision('distance_m').notNull().default(0),
    drivingMs: doublePrecision('driving_ms').notNull().default(0),
    idleMs: doublePrecision('idle_ms').notNull().default(0),
    maxSpeedKmh: real('max_speed_kmh'),
    speedingEvents: integer('speeding_events').notNull().default(0),
    stops: integer('stops').notNull().default(0),
    fixes: integer('fixes').notNull().default(0),
    lastFixAt: timestamp('last_fix_at', { withTimezone: true }),
    carry: jsonb('carry').$type<Record<string, unknown> | null>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.day] }), index('vehicle_daily_stats_org_day_idx').on(t.organizationId, t.day)],
);
