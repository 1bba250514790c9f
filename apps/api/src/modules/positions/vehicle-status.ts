import type { VehicleStatus } from '@fleet/api-contract';
import type { OrganizationSettings } from '../../db/schema/index.ts';

/** At or above this speed (km/h) a vehicle is moving; below it GPS noise dominates. */
export const MOVING_SPEED_KMH = 5;

export interface TelematicsSettings {
  /** A vehicle standing still with its engine on becomes IDLING after this long. */
  idleAfterMinutes: number;
  /** A vehicle with no report for longer than this is OFFLINE. */
  offlineAfterMinutes: number;
}

export const DEFAULT_TELEMATICS_SETTINGS: TelematicsSettings = { idleAfterMinutes: 5, offlineAfterMinutes: 60 };

/** The organization's thresholds (`settings.telematics`), defaults where unset or nonsense. */
export function telematicsSettings(settings: OrganizationSettings | null | undefined): TelematicsSettings {
  // Stored by the organization account form as { idleMinutes, offlineMinutes } (api-contract).
  const t = settings?.telematics as { idleMinutes?: unknown; offlineMinutes?: unknown } | undefined;
  const pick = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback);
  return {
    idleAfterMinutes: pick(t?.idleMinutes, DEFAULT_TELEMATICS_SETTINGS.idleAfterMinutes),
    offlineAfterMinutes: pick(t?.offlineMinutes, DEFAULT_TELEMATICS_SETTINGS.offlineAfterMinutes),
  };
}

export interface StatusInput {
  speed: number | null;
  ignition: boolean | null;
  /** Server time of the newest report. */
  lastReportAt: Date;
  lastMovingAt: Date | null;
  stationarySince: Date | null;
}

/**
 * The map status of a vehicle at `now`:
 * - OFFLINE: no report for longer than offlineAfterMinutes;
 * - MOVING: at moving speed, or halted for less than idleAfterMinutes (a red light is not idling);
 * - IDLING: standing still for longer than idleAfterMinutes with the ignition on, or, for devices
 *   that report no ignition, standing still with movement in the last offlineAfterMinutes;
 * - STOPPED: ignition off, or no ignition reported and no recent movement.
 */
export function vehicleStatus(v: StatusInput, now: Date, s: TelematicsSettings): { status: VehicleStatus; since: Date | null } {
  const idleMs = s.idleAfterMinutes * 60_000;
  const offlineMs = s.offlineAfterMinutes * 60_000;
  if (now.getTime() - v.lastReportAt.getTime() > offlineMs) return { status: 'OFFLINE', since: new Date(v.lastReportAt.getTime() + offlineMs) };
  if (v.speed !== null && v.speed >= MOVING_SPEED_KMH) return { status: 'MOVING', since: v.stationarySince ? null : v.lastMovingAt };
  if (v.ignition === false) return { status: 'STOPPED', since: v.stationarySince };
  const still = v.stationarySince ? now.getTime() - v.stationarySince.getTime() : 0;
  if (still < idleMs && v.lastMovingAt) return { status: 'MOVING', since: v.lastMovingAt };
  if (v.ignition === true) return { status: 'IDLING', since: v.stationarySince };
  const recentlyMoved = v.lastMovingAt !== null && now.getTime() - v.lastMovingAt.getTime() <= offlineMs;
  return recentlyMoved ? { status: 'IDLING', since: v.stationarySince } : { status: 'STOPPED', since: v.stationarySince };
}
