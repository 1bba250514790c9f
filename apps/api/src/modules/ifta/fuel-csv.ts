import Papa from 'papaparse';
import {
  FUEL_CSV_FIELD_LABELS,
  FUEL_CSV_PRESET_COLUMNS,
  FUEL_JURISDICTION_CODES,
  FUEL_JURISDICTION_RULE,
  STATE_OPTIONS,
  type DateFormat,
  type FuelCsvField,
  type FuelCsvPreset,
  type VolumeUnit,
} from '@fleet/api-contract';

// Pure: a fuel-card export (WEX, Comdata, EFS or any other) read through the column mapping chosen
// at upload (decision 0124). One row per product line; lines that are not IFTA-taxable fuel are
// listed as skipped, never silently dropped; each bad cell is an error naming the line and column.

export interface FuelCsvOptions {
  preset: FuelCsvPreset;
  mapping: Partial<Record<FuelCsvField, string>>;
  defaultUnit: VolumeUnit;
  dateFormat?: DateFormat;
  /** Local time → UTC (ms) for times written without an offset. */
  toUtc: (localMs: number) => number;
}

export interface FuelCsvRow {
  line: number;
  purchasedAt: number;
  unitNumber: string;
  cardNumber: string | null;
  jurisdiction: string;
  city: string | null;
  vendor: string | null;
  productCode: string | null;
  quantityMilli: number;
  volumeUnit: VolumeUnit;
  pricePerUnitMilli: number | null;
  totalCents: number | null;
  receiptNumber: string;
  stationLat: number | null;
  stationLon: number | null;
  taxPaid: boolean;
  currency: 'USD' | 'CAD';
  /** Confirmed bulk withdrawal or split receipt: may exceed the vehicle's tank. */
  bulk: boolean;
}

export interface FuelCsvParse {
  headers: string[];
  /** Field → header actually used. */
  mapping: Partial<Record<FuelCsvField, string>>;
  unmappedColumns: string[];
  totalRows: number;
  rows: FuelCsvRow[];
  errors: Array<{ line: number; field: string; message: string }>;
  skipped: Array<{ line: number; productCode: string; reason: string }>;
  /** Lines with at least one error. */
  badLines: Set<number>;
}

const NON_TAXABLE: Array<[RegExp, string]> = [
  [/\b(reefer|rfr|reef|rdsl|ref diesel|refr)\b/i, 'Reefer fuel (not used to propel the vehicle)'],
  [/\b(def|diesel exhaust fluid|adblue|urea)\b/i, 'Diesel exhaust fluid'],
  [/\b(oil|lube|lubricant|grease|antifreeze|coolant)\b/i, 'Oil and fluids'],
  [/\b(cash|advance|adv|atm|check|express code|comchek)\b/i, 'Cash advance'],
  [
    /\b(fee|fees|scale|scales|wash|parking|shower|toll|tire|tires|repair|merch|merchandise|food|discount|rebate|permit)\b/i,
    'Not fuel (fees, services, merchandise)',
  ],
];
const TAXABLE =
  /\b(diesel|dsl|ulsd|d2|#2|no\.?\s?2|fuel|gas|gasoline|unleaded|unl|reg|regular|premium|bio|biodiesel|b\d{1,3}|cng|lng|propane|lpg|e85|ethanol|tractor)\b/i;

/** Whether a product line is IFTA-taxable motor fuel; null reason = taxable. */
export function classifyProduct(code: string | null): string | null {
  if (!code || code.trim() === '') return null;
  for (const [re, why] of NON_TAXABLE) if (re.test(code)) return why;
  return TAXABLE.test(code) ? null : 'Not a motor fuel product';
}

const norm = (h: string) => h.toLowerCase().replace(/[^a-z0-9#]/g, '');

/** The mapping to use: the preset's columns, replaced field by field by the upload's own choices; headers matched loosely. */
export function resolveMapping(
  headers: readonly string[],
  preset: FuelCsvPreset,
  mapping: Partial<Record<FuelCsvField, string>>,
): Partial<Record<FuelCsvField, string>> {
  const base = preset === 'CUSTOM' ? {} : FUEL_CSV_PRESET_COLUMNS[preset].columns;
  const wanted: Partial<Record<FuelCsvField, string>> = { ...base };
  for (const [f, h] of Object.entries(mapping) as Array<[FuelCsvField, string]>) {
    if (h === '') delete wanted[f];
    else wanted[f] = h;
  }
  return matchHeaders(headers, wanted);
}

/** Each field's wanted column found in `headers`: the same name, else the same loosely (case, spaces, punctuation aside). */
export function matchHeaders<F extends string>(headers: readonly string[], wanted: Partial<Record<F, string>>): Partial<Record<F, string>> {
  const byNorm = new Map(headers.map((h) => [norm(h), h]));
  const out: Partial<Record<F, string>> = {};
  for (const [f, h] of Object.entries(wanted) as Array<[F, string]>) {
    const found = headers.includes(h) ? h : byNorm.get(norm(h));
    if (found) out[f] = found;
  }
  return out;
}

// The codes the API accepts (an IFTA member or a known non-member), by code or by name.
const STATES = new Map<string, string>(
  STATE_OPTIONS.filter((s) => FUEL_JURISDICTION_CODES.has(s.code)).flatMap((s) => [
    [s.code, s.code] as [string, string],
    [s.name.toUpperCase(), s.code] as [string, string],
  ]),
);
STATES.set('MX', 'MX');
STATES.set('MEXICO', 'MX');

/** "IL", "Illinois", "il " → IL; null when not an IFTA member or a known non-member. */
export function jurisdictionCode(text: string): string | null {
  const code = STATES.get(text.trim().toUpperCase()) ?? null;
  return code !== null && FUEL_JURISDICTION_CODES.has(code) ? code : null;
}

/** A decimal written in a CSV ("1,234.56", "$3.899", "(12.00)") in 10^-digits units; undefined when it is not one or has more decimals. */
export function decimalUnits(cell: string, digits: number): number | undefined {
  let s = cell
    .trim()
    .replace(/[$\s]/g, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (s.startsWith('-')) {
    negative = !negative;
    s = s.slice(1);
  }
  const m = /^(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return undefined;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > digits) return undefined;
  const v = Number(m[1]) * 10 ** digits + Number(frac.padEnd(digits, '0') || '0');
  return negative ? -v : v;
}

/** A date (and optional time) in the given order into local milliseconds (as if UTC); undefined when unreadable. */
export function localDateTime(dateText: string, timeText: string | null, order: DateFormat): number | undefined {
  const d = dateText.trim();
  let y: number;
  let mo: number;
  let da: number;
  let rest: string;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](.*))?$/.exec(d);
  if (m) {
    [y, mo, da] = [Number(m[1]), Number(m[2]), Number(m[3])];
    rest = m[4] ?? '';
  } else {
    m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2,4})(?:\s+(.*))?$/.exec(d);
    if (!m) return undefined;
    const a = Number(m[1]);
    const b = Number(m[2]);
    y = Number(m[3]);
    if (y < 100) y += 2000;
    if (order === 'DMY') [da, mo] = [a, b];
    else [mo, da] = [a, b];
    rest = m[4] ?? '';
  }
  const t = (timeText ?? rest).trim();
  let h = 0;
  let mi = 0;
  let s = 0;
  if (t !== '') {
    const tm = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(AM|PM|A|P)?$/i.exec(t) ?? /^(\d{2})(\d{2})$/.exec(t);
    if (!tm) return undefined;
    h = Number(tm[1]);
    mi = Number(tm[2]);
    s = Number(tm[3] ?? 0);
    const ap = tm[4]?.toUpperCase();
    if (ap?.startsWith('P') && h < 12) h += 12;
    if (ap?.startsWith('A') && h === 12) h = 0;
    if (h > 23 || mi > 59 || s > 59) return undefined;
  }
  if (mo < 1 || mo > 12 || da < 1 || da > 31) return undefined;
  const ms = Date.UTC(y, mo - 1, da, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== da) return undefined;
  return ms;
}

const YES = /^(y|yes|true|1|t)$/i;
const NO = /^(n|no|false|0|f)$/i;

export const MAX_FUEL_ROWS = 20_000;

export function parseFuelCsv(csv: string, o: FuelCsvOptions): FuelCsvParse {
  const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy', transform: (v) => v.trim() });
  const headers = (parsed.meta.fields ?? []).filter((h) => h.trim() !== '');
  const mapping = resolveMapping(headers, o.preset, o.mapping);
  const used = new Set(Object.values(mapping));
  const out: FuelCsvParse = {
    headers,
    mapping,
    unmappedColumns: headers.filter((h) => !used.has(h)),
    totalRows: parsed.data.length,
    rows: [],
    errors: [],
    skipped: [],
    badLines: new Set(),
  };
  const dateFormat = o.dateFormat ?? (o.preset !== 'CUSTOM' ? FUEL_CSV_PRESET_COLUMNS[o.preset].dateFormat : 'MDY');

  const fail = (line: number, field: FuelCsvField | 'row', message: string) => {
    out.badLines.add(line);
    if (out.errors.length < 1000) out.errors.push({ line, field: field === 'row' ? 'row' : (mapping[field] ?? FUEL_CSV_FIELD_LABELS[field]), message });
  };
  // The file must say when, which vehicle, where, how much and which receipt.
  const need: Array<[string, boolean]> = [
    ['a date (Date, or Date and time)', mapping.date !== undefined || mapping.dateTime !== undefined],
    ['the unit number', mapping.unitNumber !== undefined],
    ['the state or province', mapping.jurisdiction !== undefined],
    ['a quantity (Quantity, gallons or litres)', mapping.quantity !== undefined || mapping.gallons !== undefined || mapping.litres !== undefined],
    ['the receipt or transaction number', mapping.receiptNumber !== undefined],
  ];
  const missing = need.filter(([, ok]) => !ok).map(([w]) => w);
  if (missing.length) throw new MappingError(`The column mapping names no column for ${missing.join(', ')}`);
  if (parsed.data.length > MAX_FUEL_ROWS) throw new MappingError(`The file can hold at most ${MAX_FUEL_ROWS} rows`);

  for (const e of parsed.errors) if (e.row !== undefined && e.code !== 'UndetectableDelimiter') fail(e.row + 2, 'row', e.message);

  parsed.data.forEach((rec, i) => {
    const line = i + 2;
    if (out.badLines.has(line)) return;
    const cell = (f: FuelCsvField): string => (mapping[f] ? (rec[mapping[f]!] ?? '').trim() : '');
    const productCode = cell('productCode') || null;
    const notFuel = classifyProduct(productCode);
    if (notFuel) {
      out.skipped.push({ line, productCode: productCode ?? '', reason: notFuel });
      return;
    }
    let bad = false;
    const err = (f: FuelCsvField, m: string) => {
      bad = true;
      fail(line, f, m);
    };
    const dateText = mapping.dateTime ? cell('dateTime') : cell('date');
    let purchasedAt = 0;
    if (!dateText) err(mapping.dateTime ? 'dateTime' : 'date', 'The date is empty');
    else {
      const withOffset = /[T ]\d{1,2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/i.test(dateText) ? Date.parse(dateText) : NaN;
      const local = Number.isNaN(withOffset) ? localDateTime(dateText, mapping.time ? cell('time') || null : null, dateFormat) : undefined;
      if (!Number.isNaN(withOffset)) purchasedAt = withOffset;
      else if (local === undefined)
        err(
          mapping.dateTime ? 'dateTime' : 'date',
          `"${dateText}${mapping.time ? ` ${cell('time')}` : ''}" is not a date and time (${dateFormat === 'MDY' ? 'MM/DD/YYYY' : dateFormat === 'DMY' ? 'DD/MM/YYYY' : 'YYYY-MM-DD'})`,
        );
      else purchasedAt = o.toUtc(local);
    }
    const unitNumber = cell('unitNumber');
    if (!unitNumber) err('unitNumber', 'The unit number is empty');
    const jurText = cell('jurisdiction');
    const jurisdiction = jurisdictionCode(jurText);
    if (!jurisdiction) err('jurisdiction', jurText ? `"${jurText}" is not ${FUEL_JURISDICTION_RULE}` : 'The state or province is empty');
    let volumeUnit: VolumeUnit = o.defaultUnit;
    const qField: FuelCsvField = mapping.gallons ? 'gallons' : mapping.litres ? 'litres' : 'quantity';
    if (qField === 'gallons') volumeUnit = 'GAL';
    if (qField === 'litres') volumeUnit = 'L';
    const qText = cell(qField);
    const quantityMilli = decimalUnits(qText, 3);
    if (quantityMilli === undefined || quantityMilli <= 0)
      err(qField, qText ? `"${qText}" is not a positive quantity with at most 3 decimals` : 'The quantity is empty');
    const price = cell('pricePerUnit');
    const pricePerUnitMilli = price ? decimalUnits(price, 3) : null;
    if (pricePerUnitMilli === undefined || (pricePerUnitMilli !== null && pricePerUnitMilli < 0))
      err('pricePerUnit', `"${price}" is not a price with at most 3 decimals`);
    const total = cell('totalAmount');
    const totalCents = total ? decimalUnits(total, 2) : null;
    if (totalCents === undefined) err('totalAmount', `"${total}" is not an amount with at most 2 decimals`);
    const receiptNumber = cell('receiptNumber');
    if (!receiptNumber) err('receiptNumber', 'The receipt number is empty');
    else if (receiptNumber.length > 64) err('receiptNumber', 'The receipt number is longer than 64 characters');
    const latText = cell('stationLat');
    const lonText = cell('stationLon');
    const stationLat = latText ? Number(latText) : null;
    const stationLon = lonText ? Number(lonText) : null;
    if (stationLat !== null && !(stationLat >= -90 && stationLat <= 90)) err('stationLat', `"${latText}" is not a latitude`);
    if (stationLon !== null && !(stationLon >= -180 && stationLon <= 180)) err('stationLon', `"${lonText}" is not a longitude`);
    const taxText = cell('taxPaid');
    if (taxText && !YES.test(taxText) && !NO.test(taxText)) err('taxPaid', `"${taxText}" is not Y or N`);
    const curText = cell('currency').toUpperCase();
    if (curText && curText !== 'USD' && curText !== 'CAD' && curText !== 'US' && curText !== 'CA') err('currency', `"${curText}" is not USD or CAD`);
    const bulkText = cell('bulk');
    if (bulkText && !YES.test(bulkText) && !NO.test(bulkText)) err('bulk', `"${bulkText}" is not Y or N`);
    if (bad) return;
    out.rows.push({
      line,
      purchasedAt,
      unitNumber,
      cardNumber: cell('cardNumber') || null,
      jurisdiction: jurisdiction!,
      city: cell('city') || null,
      vendor: cell('vendor') || null,
      productCode,
      quantityMilli: quantityMilli!,
      volumeUnit,
      pricePerUnitMilli: pricePerUnitMilli ?? null,
      totalCents: totalCents ?? null,
      receiptNumber,
      stationLat,
      stationLon,
      taxPaid: taxText ? YES.test(taxText) : true,
      currency: curText === 'CAD' || curText === 'CA' ? 'CAD' : 'USD',
      bulk: bulkText ? YES.test(bulkText) : false,
    });
  });
  return out;
}

/** The mapping cannot read the file at all (a 400 on the mapping, not per row). */
export class MappingError extends Error {}
