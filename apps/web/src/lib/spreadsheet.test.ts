import { describe, expect, it } from 'vitest';
import { xlsxBytes } from '../test/xlsx-fixture.ts';
import { cellText, readImportFile, rowsToCsv } from './spreadsheet.ts';

describe('import files', () => {
  it('write dates as ISO text, time-only and midnight cells as their part, numbers plainly', () => {
    expect(cellText(new Date(Date.UTC(2026, 10, 24, 14, 5)))).toBe('2026-11-24 14:05');
    expect(cellText(new Date(Date.UTC(2026, 10, 24, 14, 5, 9)))).toBe('2026-11-24 14:05:09');
    expect(cellText(new Date(Date.UTC(2026, 10, 24)))).toBe('2026-11-24');
    expect(cellText(new Date(Date.UTC(1899, 11, 30, 6, 30)))).toBe('06:30');
    expect(cellText(1234.5)).toBe('1234.5');
    expect(cellText(null)).toBe('');
    expect(
      rowsToCsv([
        ['Merchant', 'Gallons'],
        ['Pilot, Gary', 101.2],
      ]),
    ).toBe('Merchant,Gallons\r\n"Pilot, Gary",101.2');
  });

  it('read an Excel workbook’s first sheet as the CSV the import reads', async () => {
    const bytes = xlsxBytes([
      ['Transaction ID', 'Date', 'Unit', 'Gallons', 'Merchant'],
      ['WX-1', new Date(Date.UTC(2026, 10, 24, 14, 5)), '101', 120.25, 'Pilot #123'],
      ['WX-2', new Date(Date.UTC(2026, 10, 25)), '102', 98, 'Love’s & Co'],
    ]);
    const file = new File([bytes], 'wex-export.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    expect(await readImportFile(file)).toBe(
      'Transaction ID,Date,Unit,Gallons,Merchant\r\nWX-1,2026-11-24 14:05,101,120.25,Pilot #123\r\nWX-2,2026-11-25,102,98,Love’s & Co',
    );
  });

  it('refuse the old .xls and a file that is not a workbook with a message naming it', async () => {
    await expect(readImportFile(new File(['x'], 'old.xls'))).rejects.toThrow(/old\.xls is an Excel 97-2003 workbook/);
    await expect(readImportFile(new File(['not a zip'], 'broken.xlsx'))).rejects.toThrow(/broken\.xlsx could not be read as an Excel workbook/);
  });

  it('read a CSV file as its text', async () => {
    expect(await readImportFile(new File(['a,b\n1,2'], 'x.csv', { type: 'text/csv' }))).toBe('a,b\n1,2');
  });
});
