import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IFTA_JURISDICTIONS } from '@fleet/geo/jurisdictions';
import { IFTA_2Q2026_CSV, IFTA_2Q2026_SHA256 } from './rates-2q2026.ts';
import { parseRateMatrix, quarterFromTitle, rateE4 } from './rate-matrix.ts';

const m = parseRateMatrix(IFTA_2Q2026_CSV);
const rate = (j: string, fuel = 'DIESEL', kind: 'BASE' | 'SURCHARGE' = 'BASE') =>
  m.rates.find((r) => r.jurisdiction === j && r.fuelType === fuel && r.kind === kind);

describe('the official IFTA rate matrix CSV (the bundled 2Q2026 copy)', () => {
  it('is the file recorded in docs/data-sources.md, byte for byte', () => {
    expect(createHash('sha256').update(IFTA_2Q2026_CSV, 'utf8').digest('hex')).toBe(IFTA_2Q2026_SHA256);
  });

  it('reads the quarter, every member jurisdiction and no error', () => {
    expect(m.quarter).toBe('2026Q2');
    expect(m.errors).toEqual([]);
    expect(m.missing).toEqual([]);
    expect(m.skipped).toEqual([]);
    expect(new Set(m.rates.filter((r) => r.kind === 'BASE').map((r) => r.jurisdiction))).toEqual(IFTA_JURISDICTIONS);
    // 58 jurisdictions × 15 fuel columns, plus the surcharge rows' rated fuels.
    expect(m.rates.filter((r) => r.kind === 'BASE')).toHaveLength(58 * 15);
  });

  it('matches the special diesel rates of reference section 5.4', () => {
    const expected: Record<string, number> = {
      AL: 3100,
      AZ: 2600,
      CA: 9710,
      CO: 3250,
      CT: 4890,
      IL: 7380,
      IN: 6300,
      IA: 3250,
      KY: 2200,
      MD: 4675,
      MA: 2400,
      NV: 2700,
      NY: 3805,
      PA: 7410,
      TX: 2000,
      VA: 3270,
      WA: 5840,
      WY: 2400,
      ON: 2490,
      QC: 5588,
      AB: 3596,
      NL: 2628,
    };
    for (const [j, e4] of Object.entries(expected)) expect([j, rate(j)?.usdPerGallonE4]).toEqual([j, e4]);
    expect(rate('ON')?.cadPerLitreE4).toBe(900);
    expect(rate('QC')?.cadPerLitreE4).toBe(2020);
    // Oregon taxes trucks by weight-mile: no IFTA diesel rate.
    expect(rate('OR')?.usdPerGallonE4).toBeNull();
    expect(rate('NH', 'GASOLINE')?.usdPerGallonE4).toBeNull();
  });

  it('keeps the Kentucky and Virginia surcharges apart, and Indiana’s in the propane column where the file has it', () => {
    expect(rate('KY', 'DIESEL', 'SURCHARGE')).toMatchObject({ usdPerGallonE4: 1050, cadPerLitreE4: 379 });
    expect(rate('KY', 'GASOLINE', 'SURCHARGE')?.usdPerGallonE4).toBe(450);
    expect(rate('VA', 'DIESEL', 'SURCHARGE')).toMatchObject({ usdPerGallonE4: 1430 });
    expect(rate('VA', 'GASOLINE', 'SURCHARGE')?.usdPerGallonE4).toBe(1530);
    expect(m.rates.filter((r) => r.jurisdiction === 'IN' && r.kind === 'SURCHARGE')).toEqual([
      { jurisdiction: 'IN', fuelType: 'PROPANE', kind: 'SURCHARGE', usdPerGallonE4: 6100, cadPerLitreE4: 2206 },
    ]);
    expect(rate('IN', 'DIESEL', 'SURCHARGE')).toBeUndefined();
  });

  it('reads rates exactly as text and names the line and column of a bad one', () => {
    expect([rateE4('$ 0.7380 '), rateE4('$-'), rateE4(''), rateE4('$ 1.2'), rateE4('0.97')]).toEqual([7380, null, null, 12000, 9700]);
    expect(rateE4('$ 0.73x0')).toBeUndefined();
    expect(rateE4('$ 0.12345')).toBeUndefined();
    const broken = parseRateMatrix(IFTA_2Q2026_CSV.replace('$ 0.9710 ,$-', '$ 0.97z ,$-'));
    expect(broken.errors).toEqual([{ line: 43, field: 'Special Diesel', message: 'CALIFORNIA: "$ 0.97z" is not a rate' }]);
    const lost = parseRateMatrix(IFTA_2Q2026_CSV.replace(/\r\nMAINE ,U\.S\.[^\r]*\r\n,Can[^\r]*/, ''));
    expect(lost.missing).toEqual(['ME']);
  });

  it('finds the quarter in the title line however it is written', () => {
    expect([
      quarterFromTitle('2nd Quarter 2026'),
      quarterFromTitle('Fourth Quarter 2025'),
      quarterFromTitle('3Q2025'),
      quarterFromTitle('2026 Q1'),
      quarterFromTitle('rates'),
    ]).toEqual(['2026Q2', '2025Q4', '2025Q3', '2026Q1', null]);
  });
});
