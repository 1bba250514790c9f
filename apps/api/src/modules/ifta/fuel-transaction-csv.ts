import Papa from 'papaparse';
import {
  FUEL_IMPORT_FIELD_LABELS,
  FUEL_JURISDICTION_RULE,
  type DateFormat,
  type FuelImportField,
  type FuelImportMapping,
  type FuelTransactionInput,
  type VolumeUnit,
} from '@fleet/api-contract';
import { classifyProduct, decimalUnits, jurisdictionCode, localDateTime, matchHeaders, MAX_FUEL_ROWS, MappingError } from './fuel-csv.ts';

// Pure: a card portal's transaction export read through a column mapping into the transactions the
// API takes (issue 68). Lines that are not motor fuel (DEF, reefer, cash, fees) are listed as
// skipped; each bad cell is an error naming the line and column, as the purchase import does.

export interface TransactionCsvOptions {
  mapping: FuelImportMapping;
  defaultUnit: VolumeUnit;
  dateFormat: DateFormat;
  fuelType: FuelTransactionInput['fuelType'];
  /** Local time → UTC (ms) for times written without an offset. */
  toUtc: (localMs: number) => number;
}

export interface TransactionCsvParse {
  headers: string[];
  mapping: FuelImportMapping;
  unmappedColumns: string[];
  totalRows: number;
  rows: Array<{ line: number; input: FuelTransactionInput }>;
  errors: Array<{ line: number; field: string; message: string }>;
  skipped: Array<{ line: number; productCode: string; reason: string }>;
  badLines: Set<number>;
}

export function parseTransactionCsv(csv: string, o: TransactionCsvOptions): TransactionCsvParse {
  const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy', transform: (v) => v.trim() });
  const headers = (parsed.meta.fields ?? []).filter((h) => h.trim() !== '');
  const mapping: FuelImportMapping = matchHeaders<FuelImportField>(headers, o.mapping);
  const used = new Set(Object.values(mapping));
  const out: TransactionCsvParse = {
    headers,
    mapping,
    unmappedColumns: headers.filter((h) => !used.has(h)),
    totalRows: parsed.data.length,
    rows: [],
    errors: [],
    skipped: [],
    badLines: new Set(),
  };
  const need: Array<[string, boolean]> = [
    ['the transaction id', mapping.transactionId !== undefined],
    ['a date (Date, or Date and time)', mapping.date !== undefined || mapping.dateTime !== undefined],
    ['a quantity (Quantity, gallons or litres)', mapping.quantity !== undefined || mapping.gallons !== undefined || mapping.litres !== undefined],
    ['the state or the station coordinates', mapping.state !== undefined || (mapping.latitude !== undefined && mapping.longitude !== undefined)],
    [
      'the truck (unit number, card number or driver name)',
      mapping.unitNumber !== undefined || mapping.cardNumber !== undefined || mapping.driverName !== undefined,
    ],
  ];
  const missing = need.filter(([, ok]) => !ok).map(([w]) => w);
  if (missing.length) throw new MappingError(`The column mapping names no column for ${missing.join(', ')}`);
  if (parsed.data.length > MAX_FUEL_ROWS) throw new MappingError(`The file can hold at most ${MAX_FUEL_ROWS} rows`);

  const fail = (line: number, f: FuelImportField | 'row', message: string) => {
    out.badLines.add(line);
    if (out.errors.length < 1000) out.errors.push({ line, field: f === 'row' ? 'row' : (mapping[f] ?? FUEL_IMPORT_FIELD_LABELS[f]), message });
  };
  for (const e of parsed.errors) if (e.row !== undefined && e.code !== 'UndetectableDelimiter') fail(e.row + 2, 'row', e.message);

  parsed.data.forEach((rec, i) => {
    const line = i + 2;
    if (out.badLines.has(line)) return;
    const cell = (f: FuelImportField): string => (mapping[f] ? (rec[mapping[f]] ?? '').trim() : '');
    const productCode = cell('productCode') || null;
    const notFuel = classifyProduct(productCode);
    if (notFuel) {
      out.skipped.push({ line, productCode: productCode ?? '', reason: notFuel });
      return;
    }
    let bad = false;
    const err = (f: FuelImportField, m: string) => {
      bad = true;
      fail(line, f, m);
    };
    const transactionId = cell('transactionId');
    if (!transactionId) err('transactionId', 'The transaction id is empty');
    else if (transactionId.length > 64) err('transactionId', 'The transaction id is longer than 64 characters');
    const dateField: FuelImportField = mapping.dateTime ? 'dateTime' : 'date';
    const dateText = cell(dateField);
    let time = 0;
    if (!dateText) err(dateField, 'The date is empty');
    else {
      const withOffset = /[T ]\d{1,2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/i.test(dateText) ? Date.parse(dateText) : NaN;
      const local = Number.isNaN(withOffset) ? localDateTime(dateText, mapping.time ? cell('time') || null : null, o.dateFormat) : undefined;
      if (!Number.isNaN(withOffset)) time = withOffset;
      else if (local === undefined) err(dateField, `"${dateText}${mapping.time ? ` ${cell('time')}` : ''}" is not a date and time`);
      else time = o.toUtc(local);
    }
    const qField: FuelImportField = mapping.gallons ? 'gallons' : mapping.litres ? 'litres' : 'quantity';
    const unit: VolumeUnit = qField === 'gallons' ? 'GAL' : qField === 'litres' ? 'L' : o.defaultUnit;
    const qText = cell(qField);
    const quantityMilli = decimalUnits(qText, 3);
    if (quantityMilli === undefined || quantityMilli <= 0)
      err(qField, qText ? `"${qText}" is not a positive quantity with at most 3 decimals` : 'The quantity is empty');
    const stateText = cell('state');
    const state = stateText ? jurisdictionCode(stateText) : null;
    if (stateText && !state) err('state', `"${stateText}" is not ${FUEL_JURISDICTION_RULE}`);
    const latText = cell('latitude');
    const lonText = cell('longitude');
    const latitude = latText ? Number(latText) : null;
    const longitude = lonText ? Number(lonText) : null;
    if (latitude !== null && !(latitude >= -90 && latitude <= 90)) err('latitude', `"${latText}" is not a latitude`);
    if (longitude !== null && !(longitude >= -180 && longitude <= 180)) err('longitude', `"${lonText}" is not a longitude`);
    if ((latitude === null) !== (longitude === null)) err(latitude === null ? 'latitude' : 'longitude', 'Give both the latitude and the longitude, or neither');
    if (!stateText && latitude === null) err('state', 'The state or province is empty and the station has no coordinates');
    const price = cell('unitPrice');
    const unitPriceMilli = price ? decimalUnits(price, 3) : null;
    if (unitPriceMilli === undefined || (unitPriceMilli !== null && unitPriceMilli < 0)) err('unitPrice', `"${price}" is not a price with at most 3 decimals`);
    const totalText = cell('total');
    const totalCents = totalText ? decimalUnits(totalText, 2) : null;
    if (totalCents === undefined) err('total', `"${totalText}" is not an amount with at most 2 decimals`);
    const odoText = cell('odometer');
    const odometer = odoText ? Number(odoText.replace(/,/g, '')) : null;
    if (odometer !== null && !(odometer >= 0)) err('odometer', `"${odoText}" is not an odometer reading`);
    const card = cell('cardNumber').replace(/\D/g, '');
    const unitNumber = cell('unitNumber');
    const driverName = cell('driverName');
    if (!unitNumber && card.length < 4 && !driverName)
      err(mapping.unitNumber ? 'unitNumber' : mapping.cardNumber ? 'cardNumber' : 'driverName', 'No unit number, card number or driver name');
    if (bad) return;
    out.rows.push({
      line,
      input: {
        transactionId,
        cardNumberLast4: card.length >= 4 ? card.slice(-4) : null,
        unitNumber: unitNumber || null,
        driverName: driverName || null,
        time: new Date(time).toISOString(),
        latitude,
        longitude,
        merchant: cell('merchant') || null,
        city: cell('city') || null,
        state,
        fuelType: o.fuelType,
        quantity: quantityMilli! / 1000,
        unit,
        unitPrice: unitPriceMilli == null ? null : unitPriceMilli / 1000,
        total: totalCents == null ? null : totalCents / 100,
        odometer,
      },
    });
  });
  return out;
}
