// @vitest-environment node
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { unparseCsv } from './csv.ts';

const cells = (csv: string) => Papa.parse<string[]>(csv).data[1]!;

describe('unparseCsv', () => {
  it('quotes text starting with each character a spreadsheet runs as a formula, and the quote parses back', () => {
    const row = ['=1+1', '+1-2', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1', '=1+1\nline two'];
    expect(
      cells(
        unparseCsv(
          row.map((_, i) => `c${i}`),
          [row],
        ),
      ),
    ).toEqual(row.map((c) => `'${c}`));
  });

  it('leaves numbers, text that is a plain number and ordinary text as they are', () => {
    const row = [-18.07, '-18.07', '+1,250.50', 0, 'Truck 117', 'a=b', ''];
    expect(
      cells(
        unparseCsv(
          row.map((_, i) => `c${i}`),
          [row],
        ),
      ),
    ).toEqual(['-18.07', '-18.07', '+1,250.50', '0', 'Truck 117', 'a=b', '']);
  });
});
