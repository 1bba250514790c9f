import { z } from 'zod';
import { dayField } from './dates.ts';

// Fleet performance (`GET organizations/{orgId}/analytics/fleet-performance`,
// ANALYTICS_FLEET_PERFORMANCE): per vehicle and per group over a date range, from the daily
// aggregates ingest keeps (vehicle_daily_stats), plus the per-day series the charts draw.

export const FLEET_PERFORMANCE_MAX_DAYS = 366;

const day = (label: string) => dayField(label);

export const fleetPerformanceQuery = z.object({
  from: day('From'),
  to: day('To'),
  groupId: z.uuid('groupId must be a group id').optional(),
});
export type FleetPerformanceQuery = z.input<typeof fleetPerformanceQuery>;

export const performanceTotalsSchema = z.object({
  distanceM: z.number(),
  drivingMs: z.number(),
  idleMs: z.number(),
  /** Engine-on time (driving + idle) over the hours of the range, percent. */
  utilizationPct: z.number(),
  /** Distance over driving time, km/h; null without driving. */
  avgSpeedKmh: z.number().nullable(),
  topSpeedKmh: z.number().nullable(),
  speedingEvents: z.number().int(),
  stops: z.number().int(),
  /** Days with driving. */
  activeDays: z.number().int(),
  /**
   * Litres per 100 km from fuel purchases: the fuel and the distance of the same vehicles over the
   * same days (each vehicle's days with positions in the range, fuel bought on them); null without both.
   */
  fuelLPer100Km: z.number().nullable(),
  /** What fuel economy was computed from: the days it had data for, the vehicles, their distance and fuel. Null with no figure. */
  fuelSpan: z.object({ from: z.string(), to: z.string(), vehicles: z.number().int(), distanceM: z.number(), litres: z.number() }).nullable(),
});
export type PerformanceTotals = z.infer<typeof performanceTotalsSchema>;

export const fleetPerformanceSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.number().int(),
  speedLimitKmh: z.number(),
  fleet: performanceTotalsSchema.extend({ vehicles: z.number().int() }),
  vehicles: z.array(performanceTotalsSchema.extend({ assetId: z.string(), unitNumber: z.string(), groups: z.array(z.string()) })),
  groups: z.array(performanceTotalsSchema.extend({ groupId: z.string().nullable(), name: z.string(), vehicles: z.number().int() })),
  perDay: z.array(
    z.object({
      date: z.string(),
      distanceM: z.number(),
      drivingMs: z.number(),
      idleMs: z.number(),
      speedingEvents: z.number().int(),
      vehiclesDriven: z.number().int(),
    }),
  ),
});
export type FleetPerformance = z.infer<typeof fleetPerformanceSchema>;
