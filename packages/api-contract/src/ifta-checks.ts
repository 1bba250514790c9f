import { JURISDICTIONS } from './registry-reference.ts';
import { KM_PER_MILE, L_PER_US_GALLON, UNIT_LABELS, roundTo, volumeFromL, type UnitSystem } from './units.ts';

// The checks a fuel purchase passes before it can count in a return (issue 28, decision 0137):
// the API, the web form and the CSV import call these same functions, so they agree.

/** Jurisdictions outside IFTA that still appear on receipts and in total fleet miles. */
export const IFTA_NON_MEMBER_CODES = ['AK', 'HI', 'DC', 'PR', 'YT', 'NT', 'NU', 'MX'] as const;
const NON_MEMBERS = new Set<string>(IFTA_NON_MEMBER_CODES);
/** The 58 IFTA members: the 48 contiguous states and 10 provinces (reference 5.2). */
export const IFTA_MEMBER_CODES: readonly string[] = JURISDICTIONS.map(([code]) => code as string).filter((c) => !NON_MEMBERS.has(c));
/** Every code a fuel purchase may name: a member, or a known non-member. */
export const FUEL_JURISDICTION_CODES: ReadonlySet<string> = new Set([...IFTA_MEMBER_CODES, ...IFTA_NON_MEMBER_CODES]);
/** What a purchase's jurisdiction must be, for messages. */
export const FUEL_JURISDICTION_RULE = `an IFTA member (a US state or Canadian province) or a known non-member (${IFTA_NON_MEMBER_CODES.join(', ')})`;
export const FUEL_JURISDICTION_MESSAGE = `Jurisdiction must be ${FUEL_JURISDICTION_RULE}`;

/** Tank capacity assumed for a vehicle whose registry record has none: 300 US gallons, in litres. */
export const DEFAULT_TANK_CAPACITY_L = roundTo(300 * L_PER_US_GALLON, 3);

/** Litres of a receipt's quantity. */
export const quantityLitres = (quantity: number, volumeUnit: 'GAL' | 'L'): number => (volumeUnit === 'GAL' ? quantity * L_PER_US_GALLON : quantity);

/** True when a quantity cannot fit in one fill of the vehicle's tank (unset capacity: 300 gal). */
export function exceedsTank(quantity: number, volumeUnit: 'GAL' | 'L', tankCapacityL: number | null | undefined): boolean {
  // A thousandth of a litre of slack: the capacity itself is stored rounded to the millilitre.
  return quantityLitres(quantity, volumeUnit) > (tankCapacityL ?? DEFAULT_TANK_CAPACITY_L) + 0.001;
}

/** "300 gal" or "1,135.6 L": a tank capacity in the organization's units. */
export function tankCapacityText(tankCapacityL: number | null | undefined, units: UnitSystem): string {
  const v = roundTo(volumeFromL(tankCapacityL ?? DEFAULT_TANK_CAPACITY_L, units), 1);
  return `${v.toLocaleString('en-US')} ${UNIT_LABELS[units].volume}`;
}

/** Why a quantity is refused: it is more than one tank holds and is not marked as a bulk or split entry. */
export function tankCapacityMessage(unitNumber: string, tankCapacityL: number | null | undefined, units: UnitSystem): string {
  return `Quantity is more than the ${tankCapacityText(tankCapacityL, units)} tank of unit ${unitNumber}${tankCapacityL == null ? ' (the default; set its tank capacity on the vehicle)' : ''}: check the quantity, or mark the purchase as a bulk or split entry`;
}

/** Price × quantity may differ from the total by this share before a purchase is flagged. */
export const PRICE_TOLERANCE = 0.01;

/**
 * Whether price per unit × quantity misses the total by more than 1 % (or a cent, for tiny totals).
 * Compared in integers (thousandths × thousandths against cents), so the check itself adds no float
 * error. Without a price or a total there is nothing to compare: false.
 */
export function priceMismatch(quantity: number, pricePerUnit: number | null | undefined, totalAmount: number | null | undefined): boolean {
  if (pricePerUnit == null || totalAmount == null) return false;
  const product = Math.round(quantity * 1000) * Math.round(pricePerUnit * 1000); // millionths
  const total = Math.round(totalAmount * 100) * 10_000; // millionths
  return Math.abs(product - total) > Math.max(PRICE_TOLERANCE * total, 10_000);
}

/** The reason shown under "To review" for a price mismatch, e.g. "10 gal × $4.000 = $40.00, not $9,999.00". */
export function priceMismatchMessage(
  receipt: string,
  quantity: number,
  volumeUnit: 'GAL' | 'L',
  pricePerUnit: number,
  totalAmount: number,
  currency: 'USD' | 'CAD',
): string {
  const money = (v: number) => `${currency === 'CAD' ? 'C$' : '$'}${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const unit = volumeUnit === 'GAL' ? 'gal' : 'L';
  const product = (Math.round(quantity * 1000) * Math.round(pricePerUnit * 1000)) / 1e6;
  const price = `${currency === 'CAD' ? 'C$' : '$'}${pricePerUnit.toFixed(3)}`;
  return `Receipt ${receipt}: ${quantity.toLocaleString('en-US')} ${unit} at ${price} per ${unit === 'gal' ? 'gallon' : 'litre'} is ${money(product)}, but the total is ${money(totalAmount)} (more than 1 % apart)`;
}

/**
 * A purchase with station coordinates more than this far from where its vehicle was is flagged
 * (decision 0124; decision 0137 on the "25 miles"): 2 km, about 1.2 mi.
 */
export const FAR_FROM_STATION_M = 2000;

/** A distance in metres as the organization reads it, one decimal: "12.7 mi" or "20.5 km". */
export function distanceText(metres: number, units: UnitSystem): string {
  const km = metres / 1000;
  const v = roundTo(units === 'IMPERIAL' ? km / KM_PER_MILE : km, 1);
  return `${v.toLocaleString('en-US')} ${UNIT_LABELS[units].distance}`;
}

/** The place check's threshold in the organization's units ("1.2 mi", "2 km"). */
export const farThresholdText = (units: UnitSystem): string => distanceText(FAR_FROM_STATION_M, units);
