import { describe, expect, it } from 'vitest';
import { CSV_FORMULA_CELL, restoreCsvCell } from './csv.ts';

describe('CSV_FORMULA_CELL', () => {
  it('catches text starting with each of the six characters a spreadsheet runs as a formula', () => {
    for (const cell of ['=1+1', '+1-2', '-2+3', '@SUM(A1:A9)', '\t=1+1', '\r=1+1', '=HYPERLINK("http://x","y")', '-', '+']) {
      expect(CSV_FORMULA_CELL.test(cell), JSON.stringify(cell)).toBe(true);
    }
  });

  it('catches a formula followed by a line break (papaparse’s own default pattern does not)', () => {
    expect(CSV_FORMULA_CELL.test('=1+1\nmore')).toBe(true);
    expect(/^[=+\-@\t\r].*$/.test('=1+1\nmore')).toBe(false);
  });

  it('leaves plain numbers and ordinary text alone', () => {
    for (const cell of ['-18.07', '+42', '-1,250.50', '-.5', '-1e-3', '0', 'Truck 117', 'a=b', ' =not first', '']) {
      expect(CSV_FORMULA_CELL.test(cell), JSON.stringify(cell)).toBe(false);
    }
  });
});

describe('restoreCsvCell', () => {
  it('drops the apostrophe an export put before a formula-like cell, and nothing else', () => {
    expect(restoreCsvCell("'=1+1")).toBe('=1+1');
    expect(restoreCsvCell("'+1 312 555 0101")).toBe('+1 312 555 0101');
    expect(restoreCsvCell("'quoted'")).toBe("'quoted'");
    expect(restoreCsvCell("'-18.07")).toBe("'-18.07");
    expect(restoreCsvCell('=1+1')).toBe('=1+1');
  });
});
