import Papa from 'papaparse';
import { FUEL_TYPES, JURISDICTIONS, type FuelType } from '@fleet/api-contract';
import { IFTA_JURISDICTIONS } from '@fleet/geo/jurisdictions';

// Pure: the official IFTA tax-rate matrix CSV (iftach.org TaxDownload, reference section 5.4)
// into rates (decision 0123). Layout: a title line "2nd Quarter 2026"; a header of fuel columns
// (Gasoline, Special/Diesel on two lines, …) that repeats every dozen jurisdictions; per
// jurisdiction a "NAME #footnote,U.S.,$ 0.3100 ,…" row and a ",Can,$ 0.1121 ,…" row; surcharge
// rows "KENTUCKY SurChg"; blanks "$-". Columns are taken from the header each time it appears, so
// a value is never read under the wrong fuel.

export interface ParsedRate {
  jurisdiction: string;
  fuelType: FuelType;
  kind: 'BASE' | 'SURCHARGE';
  /** Ten-thousandths of US$ per US gallon; null for "$-". */
  usdPerGallonE4: number | null;
  cadPerLitreE4: number | null;
}

export interface MatrixError {
  line: number;
  field: string;
  message: string;
}

export interface ParsedMatrix {
  quarter: string | null;
  rates: ParsedRate[];
  errors: MatrixError[];
  /** Jurisdiction names that are not IFTA members (or not recognised), skipped. */
  skipped: string[];
  /** Members with no row in the file. */
  missing: string[];
}

/** Header words → fuel type; "Special" + "Diesel" on the next line is Special Diesel. */
const HEADER_WORDS: Record<string, FuelType> = Object.fromEntries(
  FUEL_TYPES.map(([code, label]) => [label.toUpperCase().replace(/[^A-Z0-9]/g, ''), code]),
) as Record<string, FuelType>;
HEADER_WORDS.SPECIAL = 'DIESEL';

const NAMES = new Map<string, string>(JURISDICTIONS.map(([code, name]) => [name.toUpperCase(), code]));
// The matrix's own spellings.
NAMES.set('NEWFOUNDLAND', 'NL');
NAMES.set('NEWFOUNDLAND AND LABRADOR', 'NL');
NAMES.set('PRINCE EDWARD ISLAND', 'PE');

const ORDINALS: Record<string, number> = { '1ST': 1, '2ND': 2, '3RD': 3, '4TH': 4, FIRST: 1, SECOND: 2, THIRD: 3, FOURTH: 4 };

/** "2nd Quarter 2026" or "2Q2026" → 2026Q2. */
export function quarterFromTitle(text: string): string | null {
  const t = text.toUpperCase();
  let m = /\b(1ST|2ND|3RD|4TH|FIRST|SECOND|THIRD|FOURTH)\s+QUARTER\s+(\d{4})\b/.exec(t);
  if (m) return `${m[2]}Q${ORDINALS[m[1]!]}`;
  m = /\b([1-4])Q(\d{4})\b/.exec(t);
  if (m) return `${m[2]}Q${m[1]}`;
  m = /\b(\d{4})\s*Q([1-4])\b/.exec(t);
  return m ? `${m[1]}Q${m[2]}` : null;
}

/** "$ 0.7380 " → 7380; "$-" or empty → null; anything else → undefined (an error). Exact: read as text. */
export function rateE4(cell: string): number | null | undefined {
  const s = cell.replace(/\s+/g, '');
  if (s === '' || s === '$-' || s === '-' || s === '$') return null;
  const m = /^\$?(\d{1,3})(?:\.(\d{1,4}))?$/.exec(s);
  if (!m) return undefined;
  return Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0'));
}

/** The jurisdiction's name without footnote marks ("ALABAMA #35"), and whether it is a surcharge row. */
function nameOf(cell: string): { name: string; surcharge: boolean } {
  const surcharge = /\bSURCHG\b|\bSURCHARGE\b/i.test(cell);
  const name = cell
    .replace(/#\s*\d+/g, '')
    .replace(/\bSURCHG\b|\bSURCHARGE\b/gi, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
  return { name, surcharge };
}

export function parseRateMatrix(csv: string): ParsedMatrix {
  const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: false });
  const rows = parsed.data;
  const out: ParsedMatrix = { quarter: null, rates: [], errors: [], skipped: [], missing: [] };
  let columns: Array<FuelType | null> | null = null;
  const seen = new Set<string>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const line = i + 1;
    const first = (row[0] ?? '').trim();
    const second = (row[1] ?? '').trim();
    if (!out.quarter && first && quarterFromTitle(first)) {
      out.quarter = quarterFromTitle(first);
      continue;
    }
    // A header line: fuel names from the third column on.
    if (first === '' && second === '' && row.slice(2).some((c) => HEADER_WORDS[c.toUpperCase().replace(/[^A-Z0-9]/g, '')] !== undefined)) {
      columns = row.map((c, k) => (k < 2 ? null : (HEADER_WORDS[c.toUpperCase().replace(/[^A-Z0-9]/g, '')] ?? null)));
      continue;
    }
    if (first === '' || second.toUpperCase() !== 'U.S.') continue;
    const { name, surcharge } = nameOf(first);
    const code = NAMES.get(name);
    if (!code || !IFTA_JURISDICTIONS.has(code)) {
      out.skipped.push(first);
      continue;
    }
    if (!columns) {
      out.errors.push({ line, field: 'header', message: `The rates of ${name} come before any header line naming the fuel columns` });
      continue;
    }
    const can = rows[i + 1];
    const canOk = can !== undefined && (can[0] ?? '').trim() === '' && (can[1] ?? '').trim().toUpperCase() === 'CAN';
    if (!canOk) out.errors.push({ line: line + 1, field: 'Can', message: `The Can$ per litre row of ${name} is missing (it must follow its U.S. row)` });
    const kind = surcharge ? 'SURCHARGE' : 'BASE';
    if (!surcharge) seen.add(code);
    columns.forEach((fuel, k) => {
      if (!fuel) return;
      const us = rateE4(row[k] ?? '');
      const ca = canOk ? rateE4(can![k] ?? '') : null;
      const label = FUEL_TYPES.find(([c]) => c === fuel)![1];
      if (us === undefined) return out.errors.push({ line, field: label, message: `${name}: "${(row[k] ?? '').trim()}" is not a rate` });
      if (ca === undefined) return out.errors.push({ line: line + 1, field: label, message: `${name}: "${(can![k] ?? '').trim()}" is not a rate` });
      // A surcharge row lists only the fuels it applies to.
      if (kind === 'SURCHARGE' && us === null && ca === null) return;
      out.rates.push({ jurisdiction: code, fuelType: fuel, kind, usdPerGallonE4: us, cadPerLitreE4: ca });
    });
    if (canOk) i++;
  }
  out.missing = [...IFTA_JURISDICTIONS].filter((c) => !seen.has(c)).sort();
  return out;
}
