import {
  distanceText,
  exceedsTank,
  quantityLitres,
  tankCapacityText,
  type FuelTransactionCheck,
  type FuelVerificationDetails,
  type UnitSystem,
} from '@fleet/api-contract';
import { distanceM } from '@fleet/geo';
import { locateJurisdiction } from '@fleet/geo/jurisdictions';
import { describeLocation } from '@fleet/geo/places';

// Pure: a fuel-card transaction against where its truck was and what its tank holds (issue 68,
// decision 0274). The statement that finds the fixes is in fuel-transactions.repository.ts.

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
 * The result: OVER_TANK first (the quantity cannot be right whatever the place), then the place:
 * VERIFIED within the radius of the station (or, without its coordinates, in its state), a
 * LOCATION_MISMATCH elsewhere, NO_POSITION without a fix in the window. NO_FILL_SEEN needs a fuel
 * level per position, which no way in stores yet (part 2 of issue 68).
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
  if (exceedsTank(input.quantityMilli / 1000, input.unit, input.tankCapacityL)) {
    details.quantityL = Math.round(quantityLitres(input.quantityMilli / 1000, input.unit) * 1000) / 1000;
    details.tankCapacityL = input.tankCapacityL;
    details.location = location;
    return { check: 'OVER_TANK', details };
  }
  return { check: location, details };
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
  switch (check) {
    case 'OVER_TANK':
      return `${tankCapacityText(d.quantityL ?? 0, units)} is more than the truck's ${tankCapacityText(d.tankCapacityL, units)} tank${
        d.tankCapacityL == null ? ' (the default; set the tank capacity on the vehicle)' : ''
      }. ${d.location ? place(d.location) : ''}`.trim();
    case 'NO_FILL_SEEN':
      return "The truck's fuel level did not rise after the purchase";
    case 'NO_VEHICLE':
      return 'No vehicle found for it: the unit number, card and driver name match none; give the card to a vehicle or a driver';
    default:
      return place(check);
  }
}
