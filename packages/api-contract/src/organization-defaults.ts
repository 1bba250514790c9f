import type { RULESET_IDS } from '@fleet/hos/ruleset-facts';

// The organization's defaults without zod (issue 67: every screen reads the unit system before the
// settings load); organizations.ts re-exports them.

export const UNIT_SYSTEMS = ['IMPERIAL', 'METRIC'] as const;

/** Defaults the map and the HoS engine read when an organization never saved its settings. */
export const DEFAULT_ORGANIZATION_SETTINGS = {
  units: 'IMPERIAL' as (typeof UNIT_SYSTEMS)[number],
  /** Start of the carrier's 24-hour period (FMCSA lets a carrier pick it), HH:MM in the home-terminal time zone. */
  periodStartTime: '00:00',
  defaultRuleset: 'US_PROPERTY_70_8' as (typeof RULESET_IDS)[number],
  darkMode: { isEnabled: false, defaultTheme: 'light' as 'light' | 'dark' },
  telematics: {
    /** A vehicle reporting but not moving for this long shows as idle. */
    idleMinutes: 5,
    /** A vehicle with no report for this long shows as offline. */
    offlineMinutes: 60,
    /** Fleet performance counts a speeding event each time a vehicle goes above this (105 km/h = 65 mph). */
    speedLimitKmh: 105,
  },
  /** Waiting at a customer place beyond this many minutes from arrival is detention (issue 32, decision 0162). */
  detention: { freeMinutes: 120 },
  /** A fuel-card transaction is verified when the truck was this close to the station this near its time (issue 68). */
  fuelCards: { radiusM: 150, windowMinutes: 15 },
  /** A paper of the compliance files is EXPIRING this many days before its due date (issue 71, decision 0300). */
  complianceExpiringDays: 30,
};
