import {
  DEFAULT_TANK_CAPACITY_L,
  distanceText,
  exceedsTank,
  quantityLitres,
  tankCapacityText,
  type FuelFillFinding,
  type FuelTransactionCheck,
  type FuelVerificationDetails,
  type UnitSystem,
} from '@fleet/api-contract';
import { distanceM } from '@fleet/geo';
import { locateJurisdiction } from '@fleet/geo/jurisdictions';
import { describeLocation } from '@fleet/geo/places';
import { volumeText } from './fuel-event-words.ts';

// Pure: a fuel-card transaction against where its truck was, what its tank holds and, when the truck
// reports its fuel level, whether the level rose (issue 68, decisions 0274 and 0276). The statements
// that find the fixes, the levels and the refuels are in the repositories.

/** A purchase under this share of the tank is less than the level shows as a refuel (10 %, with a margin for the sensor). */
export const FILL_VISIBLE_PCT = 15;
/** The level may read this share of the tank off: a purchase over the room left by less is not over the tank. */
export const LEVEL_TOLERANCE_PCT = 5;
/** How long after the purchase the level must have been read before "no rise followed" is said: twice the window. */
export const fillWaitMs = (windowMinutes: number): number => 2 * windowMinutes * 60_000;

/** What the truck's fuel level says around one transaction (null: it reports none there). */
export interface LevelProbe {
  /** The lowest level its fixes read within the window, percent of the tank. */
  lowPct: number | null;
  /** The refuel of the truck matched to the time (within the window of its start and end), if any. */
  refuel: { id: string; levelBeforeL: number; quantityL: number } | null;
  /** The truck's level was read (and worked by the follower) far enough after the purchase to tell. */
  decided: boolean;
}

/** What the positions say about one transaction: the fix closest to the station and the fix closest in time, within the window. */
export interface PositionProbe {
  nearest: { lat: number; lon: number; t: number } | null;
  closestInTime: { lat: number; lon: number; t: number } | null;
}

export interface VerifyInput {
  time: number;
  stationLat: number | null;
  stationLon: number | null;
  state: string | null;
  quantityMilli: number;
  unit: 'GAL' | 'L';
  tankCapacityL: number | null;
  /** What its fuel level says; absent or null when the truck reports none around the time. */
  level?: LevelProbe | null;
}

/** A short distance as the organization reads it: feet or metres below half a mile or a kilometre, else miles or kilometres. */
export function shortDistanceText(metres: number, units: UnitSystem): string {
  if (units === 'IMPERIAL' && metres < 804) return `${(Math.round(metres / 0.3048 / 10) * 10).toLocaleString('en-US')} ft`;
  if (units === 'METRIC' && metres < 1000) return `${Math.round(metres).toLocaleString('en-US')} m`;
  return distanceText(metres, units);
}

export interface Match {
  radiusM: number;
  windowMinutes: number;
}

export interface Verification {
  check: FuelTransactionCheck;
  details: FuelVerificationDetails;
}

/**
 * The result: OVER_TANK first (the quantity cannot be right whatever the place: more than the tank
 * holds, or than it could take given its fuel level before), then the place: VERIFIED within the
 * radius of the station (or, without its coordinates, in its state), a LOCATION_MISMATCH elsewhere,
 * NO_POSITION without a fix in the window; a place VERIFIED is NO_FILL_SEEN when the truck reports
 * its level, the purchase is large enough to show, and no refuel followed.
 */
export function verify(input: VerifyInput, probe: PositionProbe, match: Match): Verification {
  const details: FuelVerificationDetails = { radiusM: match.radiusM, windowMinutes: match.windowMinutes };
  const at = probe.closestInTime;
  let location: 'VERIFIED' | 'LOCATION_MISMATCH' | 'NO_POSITION';
  if (!at) {
    location = 'NO_POSITION';
    details.truck = null;
  } else {
    const where = locateJurisdiction(at.lat, at.lon)?.jurisdiction.code ?? null;
    details.truck = { lat: at.lat, lon: at.lon, at: new Date(at.t).toISOString(), place: placeOf(at.lat, at.lon), jurisdiction: where };
    if (input.stationLat !== null && input.stationLon !== null) {
      details.basis = 'STATION';
      const near = probe.nearest ?? at;
      const d = distanceM({ lat: near.lat, lon: near.lon }, { lat: input.stationLat, lon: input.stationLon });
      details.distanceM = Math.round(d);
      location = d <= match.radiusM ? 'VERIFIED' : 'LOCATION_MISMATCH';
    } else {
      details.basis = 'STATE';
      details.distanceM = null;
      location = where !== null && where === input.state ? 'VERIFIED' : 'LOCATION_MISMATCH';
    }
  }
  const quantityL = quantityLitres(input.quantityMilli / 1000, input.unit);
  const capacityL = input.tankCapacityL ?? DEFAULT_TANK_CAPACITY_L;
  const fill = fillOf(input.level ?? null, quantityL, capacityL);
  if (fill) details.fill = fill;
  const overCapacity = exceedsTank(input.quantityMilli / 1000, input.unit, input.tankCapacityL);
  const overLevel = !overCapacity && fill?.roomL !== undefined && quantityL > fill.roomL + (capacityL * LEVEL_TOLERANCE_PCT) / 100;
  if (overCapacity || overLevel) {
    details.quantityL = Math.round(quantityL * 1000) / 1000;
    details.tankCapacityL = input.tankCapacityL;
    details.location = location;
    details.overBy = overCapacity ? 'CAPACITY' : 'LEVEL';
    return { check: 'OVER_TANK', details };
  }
  if (location === 'VERIFIED' && fill?.status === 'NOT_SEEN') {
    details.location = location;
    return { check: 'NO_FILL_SEEN', details };
  }
  return { check: location, details };
}

const r1 = (v: number) => Math.round(v * 10) / 10;

/** What the level says of a purchase of `quantityL`; undefined when the truck reports no level around it. */
function fillOf(level: LevelProbe | null, quantityL: number, capacityL: number): FuelFillFinding | undefined {
  if (!level || (level.lowPct === null && !level.refuel)) return undefined;
  const beforeL = level.refuel ? level.refuel.levelBeforeL : ((level.lowPct ?? 0) * capacityL) / 100;
  const room = { levelBeforeL: r1(beforeL), roomL: r1(Math.max(0, capacityL - beforeL)) };
  if (level.refuel) return { status: 'SEEN', eventId: level.refuel.id, risenL: r1(level.refuel.quantityL), ...room };
  if (quantityL < (capacityL * FILL_VISIBLE_PCT) / 100) return { status: 'TOO_SMALL', ...room };
  return { status: level.decided ? 'NOT_SEEN' : 'PENDING', ...room };
}

function placeOf(lat: number, lon: number): string | null {
  try {
    return describeLocation(lat, lon).place;
  } catch {
    return null;
  }
}

/** The verification in words, in the organization's units (the review queue's "reason"). */
export function verificationReason(check: FuelTransactionCheck, d: FuelVerificationDetails, units: UnitSystem, state: string | null): string {
  const radius = shortDistanceText(d.radiusM ?? 150, units);
  const window = `±${d.windowMinutes ?? 15} min`;
  const truck = d.truck;
  const near = truck?.place ? ` near ${truck.place}` : truck?.jurisdiction ? ` in ${truck.jurisdiction}` : '';
  const place = (c: typeof check): string => {
    switch (c) {
      case 'VERIFIED':
        return d.basis === 'STATE'
          ? `The truck was in ${state} at that time; the station's coordinates are not known, so only the state was compared`
          : `The truck was ${shortDistanceText(d.distanceM ?? 0, units)} from the station within ${window} of the time (within ${radius})`;
      case 'LOCATION_MISMATCH':
        return d.basis === 'STATE'
          ? `The truck was${near}, not in ${state}, at that time`
          : `The truck was ${shortDistanceText(d.distanceM ?? 0, units)} from the station at the closest within ${window}${near ? `; at that time it was${near}` : ''}`;
      case 'NO_POSITION':
        return `No position of the truck within ${window} of the time`;
      default:
        return '';
    }
  };
  const fill = d.fill;
  const risen = fill?.status === 'SEEN' && fill.risenL !== undefined ? `; its fuel level rose by ${volumeText(fill.risenL, units)}` : '';
  switch (check) {
    case 'OVER_TANK':
      if (d.overBy === 'LEVEL' && fill)
        return `${tankCapacityText(d.quantityL ?? 0, units)} is more than the truck's tank could take: it held ${volumeText(fill.levelBeforeL ?? 0, units)} of ${tankCapacityText(
          d.tankCapacityL,
          units,
        )}, room for ${volumeText(fill.roomL ?? 0, units)}. ${d.location ? place(d.location) : ''}`.trim();
      return `${tankCapacityText(d.quantityL ?? 0, units)} is more than the truck's ${tankCapacityText(d.tankCapacityL, units)} tank${
        d.tankCapacityL == null ? ' (the default; set the tank capacity on the vehicle)' : ''
      }. ${d.location ? place(d.location) : ''}`.trim();
    case 'NO_FILL_SEEN':
      return fill
        ? `${d.basis === 'STATE' ? `The truck was in ${state}` : `The truck was ${shortDistanceText(d.distanceM ?? 0, units)} from the station`}, but its fuel level did not rise after the purchase (${volumeText(fill.levelBeforeL ?? 0, units)} in the tank)`
        : "The truck's fuel level did not rise after the purchase";
    case 'NO_VEHICLE':
      return 'No vehicle found for it: the unit number, card and driver name match none; give the card to a vehicle or a driver';
    default:
      return `${place(check)}${risen}`;
  }
}
