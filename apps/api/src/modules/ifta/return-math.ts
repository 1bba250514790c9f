import type { IftaReturn, IftaReturnRow } from '@fleet/api-contract';

// Pure: the IFTA return of one fuel type from miles, fuel and rates, rounded as reference section
// 5.1 says (decision 0122). Every amount is an integer: whole miles and gallons, rates in
// ten-thousandths of a dollar, money in cents, interest rates in millionths a month. The only
// divisions are the ones the form itself makes (miles ÷ gallons, miles ÷ MPG, ×rate), each
// rounded once, half away from zero, in integer arithmetic: no float drift reaches a cent.

export const METRES_PER_MILE = 1609.344;

/** round(n / d) for integers, halves away from zero (d > 0). */
export function roundDiv(n: number, d: number): number {
  if (d <= 0 || !Number.isInteger(n) || !Number.isInteger(d)) throw new Error(`roundDiv needs integers and d > 0: ${n} / ${d}`);
  const q = Math.floor(Math.abs(n) / d);
  const r = Math.abs(n) - q * d;
  const abs = 2 * r >= d ? q + 1 : q;
  return n < 0 ? -abs : abs;
}

/** Whole miles from metres (the distance tables' unit), half up. */
export const milesOf = (metres: number): number => Math.round(metres / METRES_PER_MILE);

/** Monthly interest rates of late returns (IFTA, per month or part month), millionths. */
const INTEREST_PPM_BY_YEAR: Record<number, number> = { 2021: 4167, 2022: 4167, 2023: 6667, 2024: 8333, 2025: 7500 };
/** Years after the last published rate use it (stated in the report; update when IFTA publishes). */
export function interestRatePpm(year: number): number {
  const years = Object.keys(INTEREST_PPM_BY_YEAR).map(Number);
  const known = INTEREST_PPM_BY_YEAR[year];
  if (known !== undefined) return known;
  return year > Math.max(...years) ? INTEREST_PPM_BY_YEAR[Math.max(...years)]! : INTEREST_PPM_BY_YEAR[Math.min(...years)]!;
}

/** Months (or part months) between a month-end due date and the filing day: 0 when on time. */
export function monthsLate(dueDate: string, filedOn: string): number {
  if (filedOn <= dueDate) return 0;
  const [dy, dm] = dueDate.split('-').map(Number) as [number, number];
  const [fy, fm] = filedOn.split('-').map(Number) as [number, number];
  return Math.max(1, (fy - dy) * 12 + (fm - dm));
}

export interface JurisdictionInput {
  jurisdiction: string;
  name: string;
  country: string;
  /** IFTA member: gets a row; others only count in the fleet's total miles. */
  member: boolean;
  /** GPS and odometer miles plus the adjustments that add miles (metres). */
  metres: number;
  /** Of those, exempt (off-highway, trip permit), metres. */
  exemptMetres: number;
  /** Tax-paid fuel bought there, thousandths of a US gallon. */
  taxPaidMilliGallons: number;
}

export interface RateInput {
  /** US$ per US gallon × 10^4, null when the matrix has none. */
  rateE4: number | null;
  surchargeE4: number | null;
}

export interface ReturnInput {
  fuelType: string;
  lines: readonly JurisdictionInput[];
  /** Every gallon of the fuel type placed in the qualified vehicles (tax-paid or not), thousandths. */
  totalMilliGallons: number;
  rates: ReadonlyMap<string, RateInput>;
  /** Months late (0 = on time) and the monthly interest rate in millionths. */
  monthsLate: number;
  interestPpm: number;
}

const cents = (c: number): number => c / 100;
const rate = (e4: number | null): number | null => (e4 === null ? null : e4 / 10_000);

/**
 * The return: per member jurisdiction, total and taxable miles (whole), taxable gallons (taxable miles
 * ÷ fleet MPG, whole), tax-paid gallons (whole), net taxable gallons, tax or credit (net × rate, cents),
 * surcharge (taxable gallons × surcharge rate, no credit for fuel bought), interest on what is due when
 * late (per month or part month); the fleet's total miles (every jurisdiction, members or not), total
 * gallons (whole) and MPG (2 decimals); and a late-filing penalty, the greater of $50 or 10 % of the net
 * tax due.
 */
export function computeReturn(input: ReturnInput): IftaReturn {
  const lines = input.lines.map((l) => {
    const totalMiles = milesOf(l.metres);
    const taxableMiles = Math.max(0, totalMiles - milesOf(l.exemptMetres));
    return { ...l, totalMiles, taxableMiles };
  });
  const totalMiles = lines.reduce((s, l) => s + l.totalMiles, 0);
  const nonMemberMiles = lines.filter((l) => !l.member).reduce((s, l) => s + l.totalMiles, 0);
  const totalGallons = roundDiv(input.totalMilliGallons, 1000);
  // MPG in hundredths, from whole miles and whole gallons as the form has them.
  const mpgCenti = totalGallons > 0 ? roundDiv(totalMiles * 100, totalGallons) : null;

  const rows: IftaReturnRow[] = [];
  let dueCents = 0;
  for (const l of lines) {
    if (!l.member) continue;
    if (l.totalMiles === 0 && l.taxPaidMilliGallons === 0) continue;
    const r = input.rates.get(l.jurisdiction) ?? { rateE4: null, surchargeE4: null };
    // Without fuel there is no MPG: nothing is taxable until purchases are entered (flagged in the report).
    const taxableGallons = mpgCenti && mpgCenti > 0 ? roundDiv(l.taxableMiles * 100, mpgCenti) : 0;
    const taxPaidGallons = roundDiv(l.taxPaidMilliGallons, 1000);
    const net = taxableGallons - taxPaidGallons;
    const taxCents = roundDiv(net * (r.rateE4 ?? 0), 100);
    const surchargeCents = roundDiv(taxableGallons * (r.surchargeE4 ?? 0), 100);
    const owed = taxCents + surchargeCents;
    const interestCents = owed > 0 && input.monthsLate > 0 ? roundDiv(owed * input.interestPpm * input.monthsLate, 1_000_000) : 0;
    dueCents += owed;
    rows.push({
      jurisdiction: l.jurisdiction,
      name: l.name,
      country: l.country,
      fuelType: input.fuelType,
      totalMiles: l.totalMiles,
      taxableMiles: l.taxableMiles,
      taxableGallons,
      taxPaidGallons,
      netTaxableGallons: net,
      rate: rate(r.rateE4),
      tax: cents(taxCents),
      surchargeRate: rate(r.surchargeE4),
      surcharge: cents(surchargeCents),
      interest: cents(interestCents),
      total: cents(owed + interestCents),
    });
  }
  rows.sort((a, b) => a.jurisdiction.localeCompare(b.jurisdiction));
  const sumCents = (f: (r: IftaReturnRow) => number) => rows.reduce((s, r) => s + Math.round(f(r) * 100), 0);
  const penaltyCents = input.monthsLate > 0 ? Math.max(5000, roundDiv(Math.max(0, dueCents) * 10, 100)) : 0;
  return {
    totals: {
      totalMiles,
      nonMemberMiles,
      totalGallons,
      mpg: mpgCenti === null ? null : mpgCenti / 100,
      taxableMiles: rows.reduce((s, r) => s + r.taxableMiles, 0),
      taxableGallons: rows.reduce((s, r) => s + r.taxableGallons, 0),
      taxPaidGallons: rows.reduce((s, r) => s + r.taxPaidGallons, 0),
      tax: cents(sumCents((r) => r.tax)),
      surcharge: cents(sumCents((r) => r.surcharge)),
      interest: cents(sumCents((r) => r.interest)),
      penalty: cents(penaltyCents),
      total: cents(sumCents((r) => r.total) + penaltyCents),
    },
    rows,
  };
}

/** Litres or gallons in thousandths of a US gallon: exact for gallons; litres ÷ 3.785411784 (exact factor), rounded once. */
export function milliGallons(quantityMilli: number, unit: 'GAL' | 'L'): number {
  if (unit === 'GAL') return quantityMilli;
  // Thousandths of a litre × 10^9 / 3,785,411,784 in BigInt: the product passes 2^53 above 9,000 L.
  const n = BigInt(quantityMilli) * 1_000_000_000n;
  const d = 3_785_411_784n;
  const q = n / d;
  return Number(2n * (n % d) >= d ? q + 1n : q);
}
