import Papa from 'papaparse';
import { CSV_FORMULA_CELL } from '@fleet/api-contract/csv';

/**
 * CSV text of a header row and data rows (CR LF between rows, no final line end) for the files the
 * web app builds itself, written as the API writes its exports: a text cell a spreadsheet would run
 * as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`; numbers, and text that is a
 * plain number, stay as they are (decision 0141).
 */
export function unparseCsv(fields: readonly string[], data: ReadonlyArray<ReadonlyArray<unknown>>): string {
  return Papa.unparse({ fields: [...fields], data: data.map((row) => [...row]) }, { escapeFormulae: CSV_FORMULA_CELL });
}
