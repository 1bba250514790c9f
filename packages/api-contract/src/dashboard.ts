import { z } from 'zod';
import { queryNumber } from './numbers.ts';
import { instantField } from './dates.ts';
import { VIOLATION_RULES } from './hos.ts';
import { driverRef } from './registry-fields.ts';

// The dashboard (`GET organizations/{orgId}/dashboard/charts`, ORG_DASH_READ): counters, charts and
// short lists of the organization (or one group) at one instant. Each counter says which list it
// counts, with the filters that list takes, so the web app links it and the numbers match.

export const DASHBOARD_PERIODS = [7, 14, 30] as const;

const ianaZone = z
  .string()
  .max(64)
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      return true;
    } catch {
      return false;
    }
  }, 'tz must be a time zone like America/Chicago');

export const dashboardQuery = z.object({
  /** Days of the charts (7, 14 or 30; default 30). */
  days: queryNumber(
    z
      .number()
      .int()
      .refine((v) => (DASHBOARD_PERIODS as readonly number[]).includes(v), 'days must be 7, 14 or 30'),
  ).default(30),
  /** Only this group's drivers and vehicles. */
  groupId: z.uuid('groupId must be a group id').optional(),
  /** A zone for "today" and the chart days (default: the user's profile zone, else the organization's; decision 0140). */
  tz: ianaZone.optional(),
  /** The instant the counters are judged at (default now; tests pin it). */
  at: instantField('at').optional(),
});
export type DashboardQuery = z.input<typeof dashboardQuery>;

export const DASHBOARD_COUNTERS = [
  'vehiclesMoving',
  'vehiclesIdle',
  'vehiclesStopped',
  'vehiclesOffline',
  'driversDriving',
  'driversOnDuty',
  'driversOffDuty',
  'driversUnderOneHour',
  'violationsToday',
  'violations7Days',
  'uncertifiedLogDays',
  'unidentifiedDrivingHours',
  'devicesOffline',
  'inspectionsDue',
  'openDefects',
  'serviceOverdue',
] as const;
export type DashboardCounterKey = (typeof DASHBOARD_COUNTERS)[number];

export const dashboardCounterSchema = z.object({
  key: z.enum(DASHBOARD_COUNTERS),
  label: z.string(),
  /** Null when the data behind it does not exist yet (e.g. a table another module adds). */
  value: z.number().nullable(),
  /** The list it counts: a web path with the filters that make it show exactly these (null: no list). */
  link: z.string().nullable(),
  /** How it reads: nothing wrong, neutral, worth a look, needs action. */
  tone: z.enum(['ok', 'info', 'warn', 'bad']),
});
export type DashboardCounter = z.infer<typeof dashboardCounterSchema>;

const ruleCounts = z.object(Object.fromEntries(VIOLATION_RULES.map((r) => [r, z.number().int()])) as Record<(typeof VIOLATION_RULES)[number], z.ZodNumber>);

export const dashboardSchema = z.object({
  at: z.string(),
  timeZone: z.string(),
  today: z.string(),
  days: z.number().int(),
  groupId: z.string().nullable(),
  /** Groups the signed-in user is a member of (the screen starts on them). */
  myGroups: z.array(z.object({ id: z.string(), name: z.string() })),
  counters: z.array(dashboardCounterSchema),
  charts: z.object({
    /** Per day: violations that began that day, by rule. */
    violationsPerDay: z.array(z.object({ date: z.string(), total: z.number().int(), byRule: ruleCounts.partial() })),
    /** Per day: hours of the fleet's drivers in each duty status. */
    hoursPerDay: z.array(z.object({ date: z.string(), OFF: z.number(), SB: z.number(), D: z.number(), ON: z.number() })),
    /** Per day: distance driven by the fleet's vehicles (metres) and how many vehicles drove. */
    distancePerDay: z.array(
      z.object({ date: z.string(), distanceM: z.number(), vehiclesDriven: z.number().int(), activeVehicles: z.number().int(), utilizationPct: z.number() }),
    ),
  }),
  lists: z.object({
    closestToLimit: z.array(
      z.object({
        driver: driverRef,
        status: z.string().nullable(),
        availableDriveMs: z.number(),
        limit: z.enum(['drive', 'window', 'break', 'cycle']),
        vehicleUnit: z.string().nullable(),
      }),
    ),
    latestViolations: z.array(
      z.object({ driver: driverRef, rule: z.string(), start: z.string(), durationMs: z.number(), logId: z.string().nullable(), severity: z.string() }),
    ),
    offlineVehicles: z.array(z.object({ assetId: z.string(), unitNumber: z.string(), lastReportAt: z.string(), driverName: z.string().nullable() })),
  }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
