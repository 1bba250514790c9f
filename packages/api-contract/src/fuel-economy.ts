import { z } from 'zod';
import { dayField } from './dates.ts';

// Fuel economy and idling (issue 68, decision 0280): `GET organizations/{orgId}/fuel-economy`,
// ANALYTICS_FLEET_PERFORMANCE. Per vehicle or per driver over calendar days of the organization:
// distance, fuel used and economy (from the engine's total fuel counter where the truck reports it,
// else from the purchases between two fills), idle time and idle fuel, and the fleet's medians.
// Metric on the wire (metres, litres, L/100 km); the screens show the organization's units.

/** A quarter: the fuel comes from the positions of every vehicle-day in the range (decision 0280). */
export const FUEL_ECONOMY_MAX_DAYS = 92;
export const FUEL_ECONOMY_GROUP_BY = ['vehicle', 'driver'] as const;
export type FuelEconomyGroupBy = (typeof FUEL_ECONOMY_GROUP_BY)[number];

/**
 * Where a figure's fuel comes from: `ENGINE` the engine's total fuel used (Teltonika IO 83, the
 * `fuelUsed` attribute) over the distance driven while it was read; `PURCHASES` the fuel bought after
 * the first fill up to and including the last, over the distance between those fills; `MIXED` a
 * driver or a total made of both.
 */
export const FUEL_BASES = ['ENGINE', 'PURCHASES', 'MIXED'] as const;
export type FuelBasis = (typeof FUEL_BASES)[number];

export const fuelEconomyQuery = z.object({
  from: dayField('From'),
  to: dayField('To'),
  groupBy: z.enum(FUEL_ECONOMY_GROUP_BY, { error: () => 'groupBy must be vehicle or driver' }).default('vehicle'),
  groupId: z.uuid('groupId must be a group id').optional(),
  /** Only this vehicle's row (the vehicle page); the medians stay the fleet's. */
  assetId: z.uuid('assetId must be a vehicle id').optional(),
  /** Only this driver's row (the driver's scorecard); the medians stay the fleet's. */
  driverId: z.uuid('driverId must be a driver id').optional(),
});
export type FuelEconomyQuery = z.input<typeof fuelEconomyQuery>;

export const fuelEconomyFigureSchema = z.object({
  basis: z.enum(FUEL_BASES),
  /** Litres used over `distanceM`. */
  fuelL: z.number(),
  /** The distance the fuel was used over (metres): driven while the engine counter was read, or between the fills. */
  distanceM: z.number(),
  lPer100Km: z.number(),
  /** The first and last instant the figure covers (engine: counted readings; purchases: the first and last fill). */
  from: z.string(),
  to: z.string(),
  /** A vehicle's purchases: the fills counted (purchases with no trip between them are one fill); null otherwise. */
  fills: z.number().int().nullable(),
});
export type FuelEconomyFigure = z.infer<typeof fuelEconomyFigureSchema>;

export const fuelEconomyRowSchema = z.object({
  /** The vehicle's or the driver's id. */
  id: z.string(),
  /** Unit number, or the driver's name. */
  name: z.string(),
  /** Distance driven in the range (a vehicle: its daily statistics; a driver: the trips attributed to them). */
  distanceM: z.number(),
  drivingMs: z.number(),
  /** Null without fuel data. */
  economy: fuelEconomyFigureSchema.nullable(),
  /** Idling as the safety settings define it (the idling events started in the range). */
  idleMs: z.number(),
  idleEvents: z.number().int(),
  /** Fuel burnt idling, from the engine counter at each idling's start and end; null when no idling had it. */
  idleFuelL: z.number().nullable(),
  /** Idle time over engine-on time (driving + idling), percent; null without either. */
  idleSharePct: z.number().nullable(),
});
export type FuelEconomyRow = z.infer<typeof fuelEconomyRowSchema>;

export const fuelEconomySchema = z.object({
  from: z.string(),
  to: z.string(),
  groupBy: z.enum(FUEL_ECONOMY_GROUP_BY),
  /** The organization's medians per vehicle (or per driver), whatever the filters: what each row is compared with. */
  median: z.object({
    lPer100Km: z.number().nullable(),
    /** How many vehicles (drivers) had an economy. */
    economyCount: z.number().int(),
    idleSharePct: z.number().nullable(),
    idleShareCount: z.number().int(),
  }),
  /** The rows of this answer together: fuel over distance of those with an economy, and their idling. */
  totals: z.object({
    economy: fuelEconomyFigureSchema.nullable(),
    distanceM: z.number(),
    idleMs: z.number(),
    idleFuelL: z.number().nullable(),
    idleSharePct: z.number().nullable(),
  }),
  rows: z.array(fuelEconomyRowSchema),
});
export type FuelEconomy = z.infer<typeof fuelEconomySchema>;
