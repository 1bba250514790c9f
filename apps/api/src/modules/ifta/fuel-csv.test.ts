import { describe, expect, it } from 'vitest';
import { classifyProduct, decimalUnits, jurisdictionCode, localDateTime, parseFuelCsv, resolveMapping } from './fuel-csv.ts';

const utc = (ms: number) => ms;

describe('fuel-card CSV', () => {
  it('keeps IFTA-taxable fuel and names why other product lines are skipped', () => {
    expect(['Diesel #2', 'ULSD', 'DSL', 'B20', 'Unleaded', '', null].map(classifyProduct)).toEqual([null, null, null, null, null, null, null]);
    expect(classifyProduct('Reefer Diesel')).toMatch(/Reefer/);
    expect(classifyProduct('RFR')).toMatch(/Reefer/);
    expect(classifyProduct('DEF')).toMatch(/exhaust/);
    expect(classifyProduct('Oil 15W40')).toMatch(/Oil/);
    expect(classifyProduct('Cash Advance')).toMatch(/Cash/);
    expect(classifyProduct('Scale')).toMatch(/Not fuel/);
    expect(classifyProduct('Snacks')).toBe('Not a motor fuel product');
  });

  it('reads decimals exactly, with thousands separators, currency signs and accounting negatives', () => {
    expect([decimalUnits('1,234.567', 3), decimalUnits('$3.899', 3), decimalUnits('(12.50)', 2), decimalUnits('100', 3), decimalUnits('0.1', 2)]).toEqual([
      1_234_567, 3_899, -1_250, 100_000, 10,
    ]);
    expect(decimalUnits('1.2345', 3)).toBeUndefined();
    expect(decimalUnits('abc', 3)).toBeUndefined();
    expect(decimalUnits('1.50000', 2)).toBe(150);
  });

  it('reads dates in the chosen order, with 12- or 24-hour times, and refuses impossible ones', () => {
    expect(localDateTime('05/12/2026', '3:05 PM', 'MDY')).toBe(Date.UTC(2026, 4, 12, 15, 5));
    expect(localDateTime('12/05/2026', '15:05', 'DMY')).toBe(Date.UTC(2026, 4, 12, 15, 5));
    expect(localDateTime('2026-05-12 07:30:10', null, 'MDY')).toBe(Date.UTC(2026, 4, 12, 7, 30, 10));
    expect(localDateTime('5/12/26', '0730', 'MDY')).toBe(Date.UTC(2026, 4, 12, 7, 30));
    expect(localDateTime('02/30/2026', null, 'MDY')).toBeUndefined();
    expect(localDateTime('13/01/2026', null, 'MDY')).toBeUndefined();
    expect(localDateTime('05/12/2026', '25:00', 'MDY')).toBeUndefined();
  });

  it('names states by code or name', () => {
    expect([jurisdictionCode('il'), jurisdictionCode('Ontario'), jurisdictionCode('ZZ')]).toEqual(['IL', 'ON', null]);
  });

  it('starts from a preset, lets the upload change any column, and matches headers loosely', () => {
    const headers = ['TRANSACTION DATE', 'Transaction Time', 'Vehicle Number', 'Merchant State', 'Qty', 'Transaction Number', 'Product Description'];
    const m = resolveMapping(headers, 'WEX', { gallons: '', quantity: 'Qty' });
    expect(m).toEqual({
      date: 'TRANSACTION DATE',
      time: 'Transaction Time',
      unitNumber: 'Vehicle Number',
      jurisdiction: 'Merchant State',
      productCode: 'Product Description',
      receiptNumber: 'Transaction Number',
      quantity: 'Qty',
    });
  });

  it('reads an EFS export: one date-time column, litres by the default unit, Canadian purchases in CAD, per-row errors', () => {
    const csv = [
      'Tran Date,Unit,Card #,Location Name,City,State/Prov,Item,Qty,Unit Price,Amt,Invoice #,Currency',
      '2026-05-12 14:02,101,****9,Flying J,London,ON,ULSD,400.25,1.589,636.00,E-1,CAD',
      '2026-05-12 14:03,101,****9,Flying J,London,ON,DEFD,20,1.2,24,E-2,CAD',
      '2026-05-13 09:00,101,****9,Petro,Erie,XX,ULSD,100,1.5,150,E-3,USD',
      '2026-05-13 09:00,,****9,Petro,Erie,PA,ULSD,100,1.5,150,,USD',
    ].join('\r\n');
    const r = parseFuelCsv(csv, { preset: 'EFS', mapping: {}, defaultUnit: 'L', toUtc: utc });
    expect(r.totalRows).toBe(4);
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({
      line: 2,
      unitNumber: '101',
      jurisdiction: 'ON',
      quantityMilli: 400_250,
      volumeUnit: 'L',
      pricePerUnitMilli: 1_589,
      totalCents: 63_600,
      currency: 'CAD',
      receiptNumber: 'E-1',
      purchasedAt: Date.UTC(2026, 4, 12, 14, 2),
    });
    expect(r.skipped).toEqual([{ line: 3, productCode: 'DEFD', reason: 'Not a motor fuel product' }]);
    expect(r.errors).toEqual([
      {
        line: 4,
        field: 'State/Prov',
        message: '"XX" is not an IFTA member (a US state or Canadian province) or a known non-member (AK, HI, DC, PR, YT, NT, NU, MX)',
      },
      { line: 5, field: 'Unit', message: 'The unit number is empty' },
      { line: 5, field: 'Invoice #', message: 'The receipt number is empty' },
    ]);
  });

  it('refuses a mapping without the columns a purchase needs', () => {
    expect(() => parseFuelCsv('a,b\n1,2', { preset: 'CUSTOM', mapping: { date: 'a', unitNumber: 'b' }, defaultUnit: 'GAL', toUtc: utc })).toThrow(
      /the state or province, a quantity .*, the receipt or transaction number/,
    );
  });
});
