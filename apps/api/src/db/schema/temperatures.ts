import { boolean, doublePrecision, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { SensorRole } from '@fleet/api-contract';
import { organizations } from './organizations.ts';

// Reefer temperatures (issue 73, migration 0071, decisions 0320-0322). Keys lead with organization_id
// (decision 0169). No foreign key to gateways, assets or loads: the record outlives them, as positions do.

const orgKey = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });
const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** What each of a trailer's sensors measures. */
export const trailerSensors = pgTable(
  'trailer_sensors',
  {
    organizationId: orgKey(),
    assetId: uuid('asset_id').notNull(),
    sensor: text('sensor').notNull(),
    role: text('role').$type<SensorRole>().notNull(),
  },
  (t) => [primaryKey({ name: 'trailer_sensors_pkey', columns: [t.organizationId, t.assetId, t.sensor] })],
);

/** Every reading a gateway sent, once: (gateway, sensor, time) names it. `assetId`: the trailer it was read in. */
export const temperatureReadings = pgTable(
  'temperature_readings',
  {
    organizationId: orgKey(),
    gatewayId: uuid('gateway_id').notNull(),
    sensor: text('sensor').notNull(),
    at: instant('at').notNull(),
    assetId: uuid('asset_id'),
    celsius: doublePrecision('celsius').notNull(),
    defrost: boolean('defrost').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'temperature_readings_pkey', columns: [t.organizationId, t.gatewayId, t.sensor, t.at] }),
    index('temperature_readings_asset_idx').on(t.organizationId, t.assetId, t.at),
  ],
);

/** An excursion found on a load: (load, sensor, start) names it, so a recompute finds the same row. */
export const temperatureExcursions = pgTable(
  'temperature_excursions',
  {
    organizationId: orgKey(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    loadId: uuid('load_id').notNull(),
    assetId: uuid('asset_id').notNull(),
    sensor: text('sensor').notNull(),
    startedAt: instant('started_at').notNull(),
    endedAt: instant('ended_at'),
    direction: text('direction').$type<'HIGH' | 'LOW'>().notNull(),
    peakC: doublePrecision('peak_c').notNull(),
    setPointC: doublePrecision('set_point_c').notNull(),
    toleranceC: doublePrecision('tolerance_c').notNull(),
  },
  (t) => [
    primaryKey({ name: 'temperature_excursions_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('temperature_excursions_key_uq').on(t.organizationId, t.loadId, t.sensor, t.startedAt),
    index('temperature_excursions_asset_idx').on(t.organizationId, t.assetId, t.startedAt),
  ],
);
