/**
 * Units of measure. Everything is stored and sent metric (metres, km, km/h, litres); an
 * organization shows it in its unit system (organization settings `units`). The conversions and
 * the display precision live here so the web screens and the CSV export show the same digits.
 */

/** International mile (1959): exactly 1.609344 km. */
export const KM_PER_MILE = 1.609344;
/** International foot: exactly 0.3048 m. */
export const M_PER_FOOT = 0.3048;
/** US liquid gallon: exactly 231 cubic inches = 3.785411784 L (IFTA's gallon). */
export const L_PER_US_GALLON = 3.785411784;

export type UnitSystem = 'IMPERIAL' | 'METRIC';

/** The short unit names each system shows, per quantity. */
export const UNIT_LABELS = {
  IMPERIAL: { distance: 'mi', speed: 'mph', length: 'ft', volume: 'gal', economy: 'mpg' },
  METRIC: { distance: 'km', speed: 'km/h', length: 'm', volume: 'L', economy: 'L/100 km' },
} as const satisfies Record<UnitSystem, Record<string, string>>;

export type UnitLabels = (typeof UNIT_LABELS)[UnitSystem];

/**
 * Decimals shown per quantity. Odometers and trailer lengths are also typed back in these units;
 * one decimal of a mile or a foot survives the API's own rounding (0.1 km, 0.01 m) exactly.
 */
export const DISPLAY_DECIMALS = {
  IMPERIAL: { distance: 1, odometer: 1, length: 1, volume: 1, economy: 1, speed: 0 },
  METRIC: { distance: 1, odometer: 1, length: 2, volume: 1, economy: 1, speed: 0 },
} as const satisfies Record<UnitSystem, Record<string, number>>;

/** `v` rounded to `digits` decimals. */
export function roundTo(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Kilometres in the system's distance unit (mi or km). */
export const distanceFromKm = (km: number, units: UnitSystem): number => (units === 'IMPERIAL' ? km / KM_PER_MILE : km);
/** A distance in the system's unit back to kilometres. */
export const distanceToKm = (v: number, units: UnitSystem): number => (units === 'IMPERIAL' ? v * KM_PER_MILE : v);

/** km/h in the system's speed unit (mph or km/h). */
export const speedFromKmh = (kmh: number, units: UnitSystem): number => (units === 'IMPERIAL' ? kmh / KM_PER_MILE : kmh);
export const speedToKmh = (v: number, units: UnitSystem): number => (units === 'IMPERIAL' ? v * KM_PER_MILE : v);

/** Metres in the system's length unit (ft or m). */
export const lengthFromM = (m: number, units: UnitSystem): number => (units === 'IMPERIAL' ? m / M_PER_FOOT : m);
export const lengthToM = (v: number, units: UnitSystem): number => (units === 'IMPERIAL' ? v * M_PER_FOOT : v);

/** Litres in the system's volume unit (US gal or L). */
export const volumeFromL = (l: number, units: UnitSystem): number => (units === 'IMPERIAL' ? l / L_PER_US_GALLON : l);
export const volumeToL = (v: number, units: UnitSystem): number => (units === 'IMPERIAL' ? v * L_PER_US_GALLON : v);

/**
 * Fuel economy of `km` driven on `litres`: miles per US gallon, or litres per 100 km (the two
 * systems measure it the other way round). Null when either side is zero (nothing to divide).
 */
export function fuelEconomy(km: number, litres: number, units: UnitSystem): number | null {
  if (!(km > 0) || !(litres > 0)) return null;
  return units === 'IMPERIAL' ? km / KM_PER_MILE / (litres / L_PER_US_GALLON) : (litres / km) * 100;
}

/**
 * Fuel economy given in litres per 100 km (fleet performance's wire unit) in the system's own
 * measure: miles per US gallon, or L/100 km unchanged. Null when unknown or not positive.
 */
export function economyFromLPer100Km(lPer100Km: number | null, units: UnitSystem): number | null {
  if (lPer100Km === null || !(lPer100Km > 0)) return null;
  return units === 'IMPERIAL' ? (100 * L_PER_US_GALLON) / (KM_PER_MILE * lPer100Km) : lPer100Km;
}

/** An odometer (km on the wire) as the organization reads it, rounded as shown. */
export const odometerForDisplay = (km: number, units: UnitSystem): number => roundTo(distanceFromKm(km, units), DISPLAY_DECIMALS[units].odometer);
/** An odometer typed in the organization's unit, in km to the metre (what the API stores). */
export const odometerKmFromInput = (v: number, units: UnitSystem): number => roundTo(distanceToKm(v, units), 3);

/** A trailer length (m on the wire) as the organization reads it, rounded as shown. */
export const lengthForDisplay = (m: number, units: UnitSystem): number => roundTo(lengthFromM(m, units), DISPLAY_DECIMALS[units].length);
/** A length typed in the organization's unit, in metres to the millimetre. */
export const lengthMFromInput = (v: number, units: UnitSystem): number => roundTo(lengthToM(v, units), 3);
