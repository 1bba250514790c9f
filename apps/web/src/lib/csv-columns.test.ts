// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { csvHeaders, matchColumns, withColumn } from './csv-columns.ts';

describe('csv columns', () => {
  it('reads the header row trimmed, without a byte-order mark or empty names', () => {
    expect(csvHeaders('\uFEFF Trans Date ,Unit #,,Gallons\n1/2/2026,125,,40')).toEqual(['Trans Date', 'Unit #', 'Gallons']);
  });

  it('finds a wanted column by its name, else loosely (case, spaces, punctuation aside), else not at all', () => {
    const headers = ['Transaction Date', 'UNIT #', 'Qty'];
    expect(matchColumns({ date: 'Transaction Date', unit: 'Unit#', qty: 'Gallons' }, headers)).toEqual({ date: 'Transaction Date', unit: 'UNIT #' });
  });

  it('sets a field to a column, or to none', () => {
    const m = { date: 'Date', unit: 'Unit' };
    expect(withColumn(m, 'unit', 'Truck')).toEqual({ date: 'Date', unit: 'Truck' });
    expect(withColumn(m, 'unit', '')).toEqual({ date: 'Date' });
    expect(m).toEqual({ date: 'Date', unit: 'Unit' });
  });
});
