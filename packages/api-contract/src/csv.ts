// The one rule for CSV cells a spreadsheet would run as a formula (decision 0141), shared by the
// API's exports and those the web app builds, so both sides write the same file.

/**
 * A text cell a spreadsheet would run as a formula: it starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return, and is not a plain number ("-18.07", "+1,250.5" stay numbers a spreadsheet
 * reads; they cannot call anything). No `$` anchor, so a value with a line break after the
 * formula is caught too (papaparse's own default pattern, /^[=+\-@\t\r].*$/, misses those).
 * Given to papaparse's `unparse` as `escapeFormulae`: a matching cell is written with a leading
 * `'`, which spreadsheets show as text. Cells typed as numbers are never touched.
 */
export const CSV_FORMULA_CELL = /^(?![-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$)[=+\-@\t\r]/;

/** What an export neutralized, read back: the `'` that `CSV_FORMULA_CELL` put before a formula-like cell is dropped on import. */
export const restoreCsvCell = (cell: string): string => (cell.startsWith("'") && CSV_FORMULA_CELL.test(cell.slice(1)) ? cell.slice(1) : cell);
