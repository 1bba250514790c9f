import Papa from 'papaparse';
import { SaxesParser } from 'saxes';
import { MS_TO_KMH } from '@fleet/geo';
import type { PositionImportFormat } from '@fleet/api-contract';
import type { PositionRow } from './pipeline/position-row.ts';

// Pure: a vehicle's GPS history from another system, as CSV (one fix a row, columns by name) or
// GPX (track points), read into fixes with the line each came from; each bad value is an error
// naming the line and the column (or GPX element). Times without an offset are local to `toUtc`.

/** A fix of the file (speed km/h, odometer metres) and the line it came from. */
export type FileFix = Pick<PositionRow, 'fixTime' | 'latitude' | 'longitude' | 'speed' | 'course' | 'altitude' | 'odometer'> & { line: number };

export interface FileError {
  line: number;
  field: string;
  message: string;
}

export interface ParsedHistory {
  format: PositionImportFormat;
  totalRows: number;
  fixes: FileFix[];
  errors: FileError[];
}

export interface ReadOptions {
  /** Local wall time (ms, as if UTC) → UTC ms, for times written without an offset. */
  toUtc: (localMs: number) => number;
}

/** GPX when the file is XML; CSV otherwise. */
export const detectFormat = (text: string): PositionImportFormat => (/^\s*(<\?xml|<gpx)/i.test(text) ? 'GPX' : 'CSV');

export function readHistoryFile(text: string, format: PositionImportFormat, opts: ReadOptions): ParsedHistory {
  return format === 'GPX' ? readGpx(text, opts) : readCsv(text, opts);
}

const MPH_TO_KMH = 1.609344;
const MILE_M = 1609.344;

/** Column names each field is read from (lower case, spaces and units in brackets ignored), with the factor to km/h or metres. */
const COLUMNS: Record<'time' | 'latitude' | 'longitude' | 'speed' | 'course' | 'altitude' | 'odometer', Array<[string, number]>> = {
  time: [
    ['time', 1],
    ['timestamp', 1],
    ['fixtime', 1],
    ['fix_time', 1],
    ['datetime', 1],
    ['date_time', 1],
    ['utc', 1],
  ],
  latitude: [
    ['latitude', 1],
    ['lat', 1],
  ],
  longitude: [
    ['longitude', 1],
    ['lon', 1],
    ['lng', 1],
    ['long', 1],
  ],
  speed: [
    ['speed', 1],
    ['speed_kmh', 1],
    ['speed(km/h)', 1],
    ['speed_mph', MPH_TO_KMH],
    ['speed(mph)', MPH_TO_KMH],
    ['speed_ms', MS_TO_KMH],
    ['speed(m/s)', MS_TO_KMH],
  ],
  course: [
    ['course', 1],
    ['heading', 1],
    ['bearing', 1],
  ],
  altitude: [
    ['altitude', 1],
    ['alt', 1],
    ['elevation', 1],
    ['ele', 1],
    ['altitude(m)', 1],
  ],
  odometer: [
    ['odometer', 1],
    ['odometer_m', 1],
    ['odometer(m)', 1],
    ['odometer_km', 1000],
    ['odometer(km)', 1000],
    ['odometer_mi', MILE_M],
    ['odometer(mi)', MILE_M],
  ],
};

const key = (h: string) => h.trim().toLowerCase().replace(/\s+/g, '');

function readCsv(text: string, opts: ReadOptions): ParsedHistory {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [header, ...data] = parsed.data;
  const errors: FileError[] = [];
  const fixes: FileFix[] = [];
  if (!header) return { format: 'CSV', totalRows: 0, fixes, errors: [{ line: 1, field: 'file', message: 'The file is empty' }] };
  const names = header.map(key);
  const col = (f: keyof typeof COLUMNS) => {
    for (const [name, factor] of COLUMNS[f]) {
      const i = names.indexOf(name);
      if (i >= 0) return { i, factor, header: header[i]!.trim() };
    }
    return null;
  };
  const cols = {
    time: col('time'),
    latitude: col('latitude'),
    longitude: col('longitude'),
    speed: col('speed'),
    course: col('course'),
    altitude: col('altitude'),
    odometer: col('odometer'),
  };
  const missing = (['time', 'latitude', 'longitude'] as const).filter((f) => !cols[f]);
  if (missing.length) {
    return {
      format: 'CSV',
      totalRows: data.length,
      fixes,
      errors: missing.map((f) => ({ line: 1, field: f, message: `No ${f} column (one of: ${COLUMNS[f].map(([n]) => n).join(', ')})` })),
    };
  }
  data.forEach((cells, k) => {
    const line = k + 2;
    const before = errors.length;
    const cell = (c: { i: number } | null) => (c ? (cells[c.i] ?? '').trim() : '');
    const fixTime = parseTime(cell(cols.time), opts);
    if (!fixTime) errors.push({ line, field: cols.time!.header, message: `"${cell(cols.time)}" is not a date and time` });
    const number = (c: { i: number; factor: number; header: string } | null, required: boolean): number | null => {
      const v = cell(c);
      if (v === '') {
        if (required) errors.push({ line, field: c!.header, message: `${c!.header} is required` });
        return null;
      }
      const n = Number(v);
      if (!Number.isFinite(n)) {
        errors.push({ line, field: c!.header, message: `"${v}" is not a number` });
        return null;
      }
      return n * c!.factor;
    };
    const latitude = number(cols.latitude, true);
    const longitude = number(cols.longitude, true);
    const speed = number(cols.speed, false);
    const course = number(cols.course, false);
    const altitude = number(cols.altitude, false);
    const odometer = number(cols.odometer, false);
    if (errors.length > before || !fixTime || latitude === null || longitude === null) return;
    fixes.push({ line, fixTime, latitude, longitude, speed, course, altitude, odometer });
  });
  return { format: 'CSV', totalRows: data.length, fixes, errors };
}

/** ISO-8601 (with or without an offset), `yyyy-MM-dd HH:mm[:ss]` local, or epoch seconds / milliseconds. */
function parseTime(v: string, opts: ReadOptions): Date | null {
  if (v === '') return null;
  if (/^\d{9,13}(\.\d+)?$/.test(v)) {
    const n = Number(v);
    return new Date(n < 1e11 ? n * 1000 : n);
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(v);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '', zone] = m;
  // Not Date.UTC: it reads years 0 to 99 as 1900 to 1999 (year 0050 was taken for 1950).
  const at = new Date(0);
  at.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  const local = at.setUTCHours(Number(h), Number(mi), Number(s), frac ? Math.round(Number(frac) * 1000) : 0);
  if (Number.isNaN(local) || new Date(local).getUTCDate() !== Number(d)) return null;
  if (!zone) return new Date(opts.toUtc(local));
  if (zone.toUpperCase() === 'Z') return new Date(local);
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return new Date(local - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000);
}

/**
 * GPX 1.0 and 1.1 track points: `lat`, `lon`, `<time>`, `<ele>`, and the speed (m/s) and course of
 * GPX 1.0 or of the Garmin/Strava extensions (any element named `speed` or `course` inside).
 */
function readGpx(text: string, opts: ReadOptions): ParsedHistory {
  const errors: FileError[] = [];
  const fixes: FileFix[] = [];
  let total = 0;
  const parser = new SaxesParser({ position: true });
  let point: { line: number; lat: string | undefined; lon: string | undefined; values: Record<string, string> } | null = null;
  let element: string | null = null;
  let textOf = '';
  parser.on('opentag', (tag) => {
    const name = tag.name.replace(/^.*:/, '').toLowerCase();
    if (name === 'trkpt') {
      total++;
      const attrs = tag.attributes as Record<string, string>;
      point = { line: parser.line, lat: attrs.lat, lon: attrs.lon, values: {} };
    } else if (point) {
      element = name;
      textOf = '';
    }
  });
  parser.on('text', (t) => {
    if (point && element) textOf += t;
  });
  parser.on('closetag', (tag) => {
    const name = tag.name.replace(/^.*:/, '').toLowerCase();
    if (name === 'trkpt' && point) {
      const p: { line: number; lat: string | undefined; lon: string | undefined; values: Record<string, string> } = point;
      point = null;
      const before = errors.length;
      const line = p.line;
      const coord = (v: string | undefined, field: string) => {
        const n = v === undefined || v.trim() === '' ? Number.NaN : Number(v);
        if (!Number.isFinite(n)) errors.push({ line, field, message: v === undefined ? `trkpt has no ${field}` : `"${v}" is not a number` });
        return n;
      };
      const latitude = coord(p.lat, 'lat');
      const longitude = coord(p.lon, 'lon');
      const time = p.values.time?.trim() ?? '';
      const fixTime = time ? parseTime(time, opts) : null;
      if (!fixTime) errors.push({ line, field: 'time', message: time ? `"${time}" is not a date and time` : 'trkpt has no time' });
      const optional = (field: string, factor = 1) => {
        const v = p.values[field]?.trim();
        if (v === undefined || v === '') return null;
        const n = Number(v);
        if (!Number.isFinite(n)) {
          errors.push({ line, field, message: `"${v}" is not a number` });
          return null;
        }
        return n * factor;
      };
      const speed = optional('speed', MS_TO_KMH);
      const course = optional('course');
      const altitude = optional('ele');
      if (errors.length === before && fixTime) fixes.push({ line, fixTime, latitude, longitude, speed, course, altitude, odometer: null });
    } else if (point && element === name) {
      point.values[name] = textOf;
      element = null;
    }
  });
  try {
    parser.write(text).close();
  } catch (err) {
    errors.push({ line: parser.line, field: 'file', message: `Not a readable GPX file: ${(err as Error).message.split('\n')[0]}` });
  }
  if (total === 0 && errors.length === 0) errors.push({ line: 1, field: 'file', message: 'The GPX file has no track points (trkpt)' });
  return { format: 'GPX', totalRows: total, fixes, errors };
}
