import { describe, expect, it } from 'vitest';
import { computeReturn, interestRatePpm, METRES_PER_MILE, milesOf, milliGallons, monthsLate, roundDiv, type JurisdictionInput } from './return-math.ts';

const line = (jurisdiction: string, miles: number, taxPaidGallons = 0, opts: Partial<JurisdictionInput> = {}): JurisdictionInput => ({
  jurisdiction,
  name: jurisdiction,
  country: 'US',
  member: true,
  metres: miles * METRES_PER_MILE,
  exemptMetres: 0,
  taxPaidMilliGallons: taxPaidGallons * 1000,
  ...opts,
});

// 2Q2026 diesel rates (reference section 5.4), ten-thousandths of US$ per gallon.
const RATES = new Map([
  ['IL', { rateE4: 7380, surchargeE4: null }],
  ['KY', { rateE4: 2200, surchargeE4: 1050 }],
  ['IN', { rateE4: 6300, surchargeE4: null }],
  ['VA', { rateE4: 3270, surchargeE4: 1430 }],
  ['OR', { rateE4: null, surchargeE4: null }],
]);

describe('the return maths (reference 5.1)', () => {
  it('rounds halves away from zero in integers', () => {
    expect([roundDiv(5, 10), roundDiv(-5, 10), roundDiv(4, 10), roundDiv(-15, 10), roundDiv(14, 10)]).toEqual([1, -1, 0, -2, 1]);
    expect(() => roundDiv(1.5, 2)).toThrow();
    expect(milesOf(0.5 * METRES_PER_MILE)).toBe(1);
  });

  it('converts litres to US gallons with the exact factor', () => {
    expect(milliGallons(378_541, 'L')).toBe(100_000);
    expect(milliGallons(1_000, 'L')).toBe(264);
    expect(milliGallons(123_456, 'GAL')).toBe(123_456);
    // Large volumes stay exact (the BigInt path).
    expect(milliGallons(378_541_178_400, 'L')).toBe(100_000_000_000);
  });

  it('worked example: MPG to 2 decimals, whole taxable gallons, a surcharge without credit, a credit, non-member miles in the total only', () => {
    const r = computeReturn({
      fuelType: 'DIESEL',
      lines: [line('IL', 10_000, 500), line('KY', 5_000), line('IN', 3_000, 2_500), line('DC', 100, 0, { member: false })],
      totalMilliGallons: 3_000_000,
      rates: RATES,
      monthsLate: 0,
      interestPpm: 7500,
    });
    // 18,100 / 3,000 = 6.0333 → 6.03.
    expect(r.totals).toMatchObject({ totalMiles: 18_100, nonMemberMiles: 100, totalGallons: 3_000, mpg: 6.03 });
    const row = (j: string) => r.rows.find((x) => x.jurisdiction === j)!;
    // 10,000 / 6.03 = 1,658.37 → 1,658; net 1,158 × 0.7380 = 854.604 → 854.60.
    expect(row('IL')).toMatchObject({
      totalMiles: 10_000,
      taxableMiles: 10_000,
      taxableGallons: 1658,
      taxPaidGallons: 500,
      netTaxableGallons: 1158,
      rate: 0.738,
      tax: 854.6,
      surcharge: 0,
      total: 854.6,
    });
    // 5,000 / 6.03 = 829.19 → 829; tax 829 × 0.22 = 182.38; surcharge on taxable gallons 829 × 0.1050 = 87.045 → 87.05.
    expect(row('KY')).toMatchObject({ taxableGallons: 829, netTaxableGallons: 829, tax: 182.38, surchargeRate: 0.105, surcharge: 87.05, total: 269.43 });
    // 3,000 / 6.03 = 497.51 → 498; 498 − 2,500 = −2,002 × 0.63 = −1,261.26 (a credit).
    expect(row('IN')).toMatchObject({ taxableGallons: 498, netTaxableGallons: -2002, tax: -1261.26, total: -1261.26 });
    expect(r.rows.map((x) => x.jurisdiction)).toEqual(['IL', 'IN', 'KY']);
    expect(r.totals).toMatchObject({ tax: -224.28, surcharge: 87.05, interest: 0, penalty: 0, total: -137.23, taxableGallons: 2985, taxPaidGallons: 3000 });
  });

  it('adds interest per month or part month on what is due, and the penalty, when filed late', () => {
    expect(monthsLate('2026-07-31', '2026-07-31')).toBe(0);
    expect(monthsLate('2026-07-31', '2026-08-01')).toBe(1);
    expect(monthsLate('2026-07-31', '2026-08-31')).toBe(1);
    expect(monthsLate('2026-07-31', '2026-09-01')).toBe(2);
    expect(monthsLate('2026-01-31', '2027-02-15')).toBe(13);
    expect([interestRatePpm(2024), interestRatePpm(2025), interestRatePpm(2030)]).toEqual([8333, 7500, 7500]);
    const r = computeReturn({
      fuelType: 'DIESEL',
      lines: [line('IL', 10_000, 500), line('KY', 5_000), line('IN', 3_000, 2_500), line('DC', 100, 0, { member: false })],
      totalMilliGallons: 3_000_000,
      rates: RATES,
      monthsLate: 1,
      interestPpm: 7500,
    });
    const row = (j: string) => r.rows.find((x) => x.jurisdiction === j)!;
    // 854.60 × 0.0075 = 6.4095 → 6.41; KY (182.38 + 87.05) × 0.0075 = 2.0207 → 2.02; no interest on a credit.
    expect([row('IL').interest, row('KY').interest, row('IN').interest]).toEqual([6.41, 2.02, 0]);
    // A net credit still owes the $50 minimum penalty when late.
    expect(r.totals).toMatchObject({ interest: 8.43, penalty: 50, total: -78.8 });
  });

  it('takes 10 % of the net tax as penalty when above $50, exempt miles off the taxable miles, and a zero rate for Oregon', () => {
    const r = computeReturn({
      fuelType: 'DIESEL',
      lines: [line('VA', 20_000, 0, { exemptMetres: 1_000 * METRES_PER_MILE }), line('OR', 2_000, 300)],
      totalMilliGallons: 3_300_000,
      rates: RATES,
      monthsLate: 2,
      interestPpm: 7500,
    });
    const va = r.rows.find((x) => x.jurisdiction === 'VA')!;
    // MPG 22,000 / 3,300 = 6.67; taxable 19,000 / 6.67 = 2,848.58 → 2,849.
    expect(r.totals.mpg).toBe(6.67);
    expect(va).toMatchObject({ totalMiles: 20_000, taxableMiles: 19_000, taxableGallons: 2849, tax: 931.62, surcharge: 407.41 });
    // (931.62 + 407.41) × 0.0075 × 2 = 20.085… → 20.09.
    expect(va.interest).toBe(20.09);
    expect(r.rows.find((x) => x.jurisdiction === 'OR')).toMatchObject({ rate: null, tax: 0, taxPaidGallons: 300, netTaxableGallons: 300 - 300 });
    // 10 % of 1,339.03 = 133.90.
    expect(r.totals.penalty).toBe(133.9);
  });

  it('taxes nothing without fuel (no MPG) and lists a jurisdiction where fuel was bought without miles', () => {
    const noFuel = computeReturn({ fuelType: 'DIESEL', lines: [line('IL', 500)], totalMilliGallons: 0, rates: RATES, monthsLate: 0, interestPpm: 7500 });
    expect(noFuel.totals.mpg).toBeNull();
    expect(noFuel.rows[0]).toMatchObject({ taxableGallons: 0, tax: 0 });
    const fuelOnly = computeReturn({
      fuelType: 'DIESEL',
      lines: [line('IL', 600), line('IN', 0, 100)],
      totalMilliGallons: 100_000,
      rates: RATES,
      monthsLate: 0,
      interestPpm: 7500,
    });
    expect(fuelOnly.rows.find((x) => x.jurisdiction === 'IN')).toMatchObject({ totalMiles: 0, taxPaidGallons: 100, netTaxableGallons: -100, tax: -63 });
  });
});
