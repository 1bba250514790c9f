import { z } from 'zod';

// The fleet overview (`GET organizations/{orgId}/fleet/overview`, sign-in only: each part is shown
// only when the caller may open the list it counts): vehicles, trailers, drivers and devices with
// counts by status, and the records missing a link.

const statusCount = z.object({ key: z.string(), label: z.string(), value: z.number().int(), link: z.string().nullable() });

export const fleetSectionSchema = z.object({
  key: z.enum(['vehicles', 'trailers', 'drivers', 'devices']),
  label: z.string(),
  total: z.number().int(),
  /** The settings list. */
  link: z.string(),
  byStatus: z.array(statusCount),
  /** Records missing a link (vehicle without driver or device, device not paired, driver without vehicle). */
  unassigned: z.array(statusCount),
});

export const fleetOverviewSchema = z.object({
  sections: z.array(fleetSectionSchema),
  /** A few of the unassigned records, to act on at once. */
  unassignedVehicles: z.array(z.object({ id: z.string(), unitNumber: z.string(), missing: z.array(z.enum(['driver', 'device'])) })),
  unpairedDevices: z.array(z.object({ id: z.string(), name: z.string(), uniqueId: z.string(), lastSeenAt: z.string().nullable() })),
});
export type FleetOverview = z.infer<typeof fleetOverviewSchema>;
export type FleetSection = z.infer<typeof fleetSectionSchema>;

/** A device with no report for this long counts as offline on the dashboard, the overview and the devices list. */
export const DEVICE_OFFLINE_HOURS = 24;
