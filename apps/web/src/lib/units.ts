import { DEFAULT_ORGANIZATION_SETTINGS } from '@fleet/api-contract/organization-defaults';
import {
  DISPLAY_DECIMALS,
  UNIT_LABELS,
  distanceFromKm,
  lengthFromM,
  economyFromLPer100Km,
  fuelEconomy,
  lengthForDisplay,
  odometerForDisplay,
  speedFromKmh,
  speedToKmh,
  volumeFromL,
  type UnitLabels,
  type UnitSystem,
} from '@fleet/api-contract/units';
import i18next from 'i18next';
import { intlLocale } from '../i18n/i18n.ts';
import { useOrgSettings } from './org-settings.ts';

// Every screen shows distances, speeds, odometers, lengths and fuel through this module, in the
// organization's unit system (settings `units`); the API always speaks metric. The conversions and
// their precision come from the contract, so the CSV export shows the same digits as the screens.

export type { UnitLabels, UnitSystem };

/** The organization's unit system; the default (Imperial) until its settings have loaded. */
export function useUnits(): UnitSystem {
  const units = useOrgSettings().data?.units ?? DEFAULT_ORGANIZATION_SETTINGS.units;
  setScoreDistances(units);
  return units;
}

/**
 * The safety score's distances (issue 47: "per 1,000 miles", "once 100 miles have been driven") in
 * the organization's units, as every translation's {{scoreHundred}} and {{scoreThousand}}: i18next
 * reads its default variables on each t() call, and the screens that say them read useUnits first.
 */
function setScoreDistances(units: UnitSystem): void {
  const vars = i18next.options?.interpolation?.defaultVariables as Record<string, string> | undefined;
  if (!vars) return;
  const lng = i18next.language;
  const [hundred, thousand] = units === 'METRIC' ? [161, 1609] : [100, 1000];
  const unit = units === 'METRIC' ? 'km' : 'mi';
  vars.scoreHundred = `${grouped(hundred, 0, false, lng)} ${unit}`;
  vars.scoreThousand = `${grouped(thousand, 0, false, lng)} ${unit}`;
}

/**
 * The unit system once it is known, undefined while the settings load. Forms wait for it: what a
 * person types is read in these units, so they must not change under the form.
 */
export function useLoadedUnits(): UnitSystem | undefined {
  const q = useOrgSettings();
  if (q.data) return q.data.units;
  // Unreadable (or no organization to ask): the default is the best guess, as in useUnits.
  return q.isError || q.fetchStatus === 'idle' ? DEFAULT_ORGANIZATION_SETTINGS.units : undefined;
}

/** Short unit names: `mi`, `mph`, `ft`, `gal`, `mpg`, or `km`, `km/h`, `m`, `L`, `L/100 km`. */
export const unitLabels = (units: UnitSystem): UnitLabels => UNIT_LABELS[units];

const DASH = '—';
const missing = (v: number | null | undefined): v is null | undefined => v === null || v === undefined || Number.isNaN(v);
/** Digits grouped in en-US, or in a driver's language (`lng`, issue 44: "412 000,5" in French). */
const grouped = (v: number, decimals: number, fixed = false, lng?: string) =>
  v.toLocaleString(lng ? intlLocale(lng) : 'en-US', { maximumFractionDigits: decimals, minimumFractionDigits: fixed ? decimals : 0 });

/** A speed (km/h on the wire) in the organization's units, as the chart and legend plot it. */
export const speedIn = (kmh: number, units: UnitSystem): number => speedFromKmh(kmh, units);

/** A speed typed in the organization's units, in km/h (what the API stores). */
export const kmhFromSpeed = (v: number, units: UnitSystem): number => speedToKmh(v, units);

/** "55 mph" or "88 km/h"; a dash when unknown. */
export function formatSpeed(kmh: number | null | undefined, units: UnitSystem): string {
  if (missing(kmh)) return DASH;
  return `${Math.round(speedFromKmh(kmh, units))} ${UNIT_LABELS[units].speed}`;
}

/** A trip or route distance given in metres: "12.4 mi" or "20.0 km" (digits in `lng`, a driver's language). */
export function formatDistance(m: number | null | undefined, units: UnitSystem, lng?: string): string {
  if (missing(m)) return DASH;
  const d = DISPLAY_DECIMALS[units].distance;
  return `${grouped(distanceFromKm(m / 1000, units), d, true, lng)} ${UNIT_LABELS[units].distance}`;
}

/** An odometer given in km: "412,000 mi" or "663,049.7 km" (tenths only when there are any; digits in `lng`, a driver's language). */
export function formatOdometer(km: number | null | undefined, units: UnitSystem, lng?: string): string {
  if (missing(km)) return DASH;
  return `${grouped(odometerForDisplay(km, units), DISPLAY_DECIMALS[units].odometer, false, lng)} ${UNIT_LABELS[units].distance}`;
}

/** A length given in metres (a trailer's): "53 ft" or "16.15 m". */
export function formatLength(m: number | null | undefined, units: UnitSystem): string {
  if (missing(m)) return DASH;
  return `${grouped(lengthForDisplay(m, units), DISPLAY_DECIMALS[units].length)} ${UNIT_LABELS[units].length}`;
}

/**
 * A place-sized distance given in metres (a circle's radius), rounded to a unit that fits it: whole
 * feet or metres under 1,000 ("984 ft", "300 m"), else miles or kilometres to two decimals under 10
 * and to one above ("0.19 mi", "1.25 km", "31.1 mi"). Not for typing back: the form keeps its own.
 */
export function formatShortDistance(m: number | null | undefined, units: UnitSystem): string {
  if (missing(m)) return DASH;
  const short = lengthFromM(m, units);
  if (Math.round(short) < 1000) return `${Math.round(short)} ${UNIT_LABELS[units].length}`;
  const long = distanceFromKm(m / 1000, units);
  return `${grouped(long, long < 10 ? 2 : 1)} ${UNIT_LABELS[units].distance}`;
}

/** A fuel quantity given in litres: "125.3 gal" or "474.3 L". */
export function formatFuelVolume(litres: number | null | undefined, units: UnitSystem): string {
  if (missing(litres)) return DASH;
  return `${grouped(volumeFromL(litres, units), DISPLAY_DECIMALS[units].volume, true)} ${UNIT_LABELS[units].volume}`;
}

/** Fuel economy of a distance (km) on a fuel quantity (litres): "6.7 mpg" or "35.3 L/100 km". */
export function formatFuelEconomy(km: number | null | undefined, litres: number | null | undefined, units: UnitSystem): string {
  const e = missing(km) || missing(litres) ? null : fuelEconomy(km, litres, units);
  return e === null ? DASH : `${grouped(e, DISPLAY_DECIMALS[units].economy, true)} ${UNIT_LABELS[units].economy}`;
}

/** Fuel economy in L/100 km (fleet performance's wire unit) in the organization's measure, rounded as shown: mpg or L/100 km. */
export function fuelEconomyIn(lPer100Km: number | null | undefined, units: UnitSystem): number | null {
  const e = missing(lPer100Km) ? null : economyFromLPer100Km(lPer100Km, units);
  return e === null ? null : Math.round(e * 10 ** DISPLAY_DECIMALS[units].economy) / 10 ** DISPLAY_DECIMALS[units].economy;
}

/** Fuel economy given in L/100 km: "6.7 mpg" or "35.3 L/100 km"; a dash when unknown. */
export function formatFuelEconomyLPer100Km(lPer100Km: number | null | undefined, units: UnitSystem): string {
  const e = fuelEconomyIn(lPer100Km, units);
  return e === null ? DASH : `${grouped(e, DISPLAY_DECIMALS[units].economy, true)} ${UNIT_LABELS[units].economy}`;
}
