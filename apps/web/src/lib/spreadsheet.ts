import Papa from 'papaparse';
import { ApiError } from './api-client.ts';
import { readTextFile } from './text-file.ts';

/** What an import's file input accepts: CSV, and Excel's workbook (.xlsx). */
export const SPREADSHEET_ACCEPT = '.csv,text/csv,.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export type SheetCell = string | number | boolean | Date | null;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A cell as the CSV import reads it. Excel keeps dates as numbers with a date format; the reader
 * gives them as Dates holding the wall time in UTC, written here as ISO text (`2026-11-24 14:05`),
 * which the import reads whatever day order it is told. A time-only cell (Excel's day zero,
 * 1899-12-30) is its time alone; a date at midnight its day alone.
 */
export function cellText(v: SheetCell): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) {
    const time = `${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}${v.getUTCSeconds() ? `:${pad(v.getUTCSeconds())}` : ''}`;
    if (v.getUTCFullYear() < 1900) return time;
    const day = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    return v.getUTCHours() || v.getUTCMinutes() || v.getUTCSeconds() ? `${day} ${time}` : day;
  }
  // Numbers as JavaScript writes them: no thousands separators, a dot for decimals.
  return String(v);
}

/** A sheet's rows as CSV text, for the same import as a CSV file. */
export function rowsToCsv(rows: readonly (readonly SheetCell[])[]): string {
  return Papa.unparse(rows.map((r) => r.map(cellText)));
}

const isXlsx = (f: File) => /\.xlsx$/i.test(f.name) || f.type === XLSX_TYPE;

/**
 * A chosen import file as CSV text: a CSV file's text, or the first sheet of an Excel workbook
 * (read in the browser; the reader loads only when a workbook is chosen). The old binary .xls is
 * refused with a clear message, as the API refuses a bad file.
 */
export async function readImportFile(file: File): Promise<string> {
  if (/\.xls$/i.test(file.name)) throw fileError(file, 'is an Excel 97-2003 workbook (.xls): save it as .xlsx or .csv and choose it again');
  if (!isXlsx(file)) return readTextFile(file);
  const { readSheet } = await import('read-excel-file/universal');
  let rows: SheetCell[][];
  try {
    rows = (await readSheet(file)) as SheetCell[][];
  } catch {
    throw fileError(file, 'could not be read as an Excel workbook (.xlsx)');
  }
  if (rows.length === 0) throw fileError(file, 'has no rows in its first sheet');
  return rowsToCsv(rows);
}

function fileError(file: File, message: string): ApiError {
  return new ApiError(400, {
    message: `${file.name} ${message}`,
    technicalMessage: `file: ${message}`,
    status: 400,
    timestamp: new Date().toISOString(),
  });
}
