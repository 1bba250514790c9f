// How values are written in the file (Appendix A 4.8.2.1 and the data dictionary, section 7) and read
// back. Kept in one module so the writer and the parser cannot disagree on a format.

import type { EldPosition, LocalDate, LocalDateTime } from './model.ts';

// Letters NFKD does not decompose into ASCII plus accents.
const TRANSLITERATIONS: Readonly<Record<string, string>> = {
  ß: 'ss',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  Ø: 'O',
  ø: 'o',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Þ: 'Th',
  þ: 'th',
  Ð: 'D',
  ð: 'd',
  ı: 'i',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '–': '-',
  '—': '-',
  '‐': '-',
  '‑': '-',
  '−': '-',
  '«': '"',
  '»': '"',
  '\u00a0': ' ',
  '…': '...',
  '•': '-',
  '€': 'EUR',
  '°': ' deg ',
};

/**
 * The file is ASCII (ANSI INCITS 4, Appendix A 4.8.2.1(b)): accents are dropped (`Núñez` → `Nunez`),
 * a few letters are spelled out (`ß` → `ss`), other whitespace becomes a space and any character
 * still outside printable ASCII becomes `?`, so nothing is lost silently from a count of characters.
 */
export function toAscii(value: string): string {
  // Fast path: most values are already printable ASCII.
  if (/^[\x20-\x7e]*$/.test(value)) return value;
  let out = '';
  for (const char of value.normalize('NFKD')) {
    const code = char.charCodeAt(0);
    if (code >= 0x20 && code <= 0x7e) out += char;
    else if (/\p{M}/u.test(char)) continue;
    else if (TRANSLITERATIONS[char] !== undefined) out += TRANSLITERATIONS[char];
    else if (/\s/u.test(char)) out += ' ';
    else out += '?';
  }
  return out;
}

/**
 * A free-text value as a field: a comma or a line break inside it becomes `;` (4.8.2.1(b)(3): a
 * value may contain neither), then ASCII, trimmed, and cut to `maxLength` (the field's length in
 * section 7) when given.
 */
export function fieldText(value: string, maxLength?: number): string {
  const text = toAscii(value.replace(/\r\n|[\r\n,]/g, ';')).trim();
  return maxLength !== undefined && text.length > maxLength ? text.slice(0, maxLength).trimEnd() : text;
}

const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;
const LOCAL_TIME = /^(\d{2}):(\d{2}):(\d{2})$/;

function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

function validTime(h: number, m: number, s: number): boolean {
  return h <= 23 && m <= 59 && s <= 59;
}

export function isLocalDate(value: string): value is LocalDate {
  const m = LOCAL_DATE.exec(value);
  return m !== null && validDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

export function isLocalDateTime(value: string): value is LocalDateTime {
  const m = LOCAL_DATE_TIME.exec(value);
  return m !== null && validDay(Number(m[1]), Number(m[2]), Number(m[3])) && validTime(Number(m[4]), Number(m[5]), Number(m[6]));
}

export function isLocalTime(value: string): boolean {
  const m = LOCAL_TIME.exec(value);
  return m !== null && validTime(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** `2026-06-01` → `060126` (7.8, MMDDYY). The caller has checked the date. */
export function fileDate(date: LocalDate): string {
  return date.slice(5, 7) + date.slice(8, 10) + date.slice(2, 4);
}

/** `06:30:00` → `063000` (7.40, HHMMSS). */
export function fileTime(time: string): string {
  return time.slice(0, 2) + time.slice(3, 5) + time.slice(6, 8);
}

/** A local date-time as the file's date and time fields. */
export function fileDateTime(at: LocalDateTime): [date: string, time: string] {
  return [fileDate(at.slice(0, 10)), fileTime(at.slice(11))];
}

/**
 * `MMDDYY` → `YYYY-MM-DD`, or null when not a date. Two-digit years are read as 20YY: ELD records
 * start in 2015 and a file covers 8 days.
 */
export function readFileDate(text: string): LocalDate | null {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (m === null) return null;
  const [, mm = '', dd = '', yy = ''] = m;
  return validDay(2000 + Number(yy), Number(mm), Number(dd)) ? `20${yy}-${mm}-${dd}` : null;
}

/** `HHMMSS` → `HH:MM:SS`, or null when not a time of day. */
export function readFileTime(text: string): string | null {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (m === null) return null;
  const [, h = '', mi = '', s = ''] = m;
  return validTime(Number(h), Number(mi), Number(s)) ? `${h}:${mi}:${s}` : null;
}

/** Sequence id in hexadecimal, 1-4 upper-case digits without padding (7.24). */
export function fileSequenceId(id: number): string {
  return id.toString(16).toUpperCase();
}

/** Whole miles (4.3.1.3); blank when unknown. Fractions are dropped, as an odometer shows them. */
export function fileMiles(miles: number | null): string {
  return miles === null ? '' : String(Math.floor(miles));
}

/** Engine hours with one decimal (7.19); blank when unknown. */
export function fileHours(hours: number | null): string {
  return hours === null ? '' : hours.toFixed(1);
}

function coordinate(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  // A value that rounds to zero carries no sign (7.31: the minus sign marks south or west).
  return /^-0\.0+$/.test(text) ? text.slice(1) : text;
}

/** Latitude and longitude fields of a position (7.31, 7.33, 4.6.1.4). */
export function filePosition(position: EldPosition): [latitude: string, longitude: string] {
  switch (position.kind) {
    case 'fix': {
      const decimals = position.reduced ? 1 : 2;
      return [coordinate(position.latitude, decimals), coordinate(position.longitude, decimals)];
    }
    case 'none':
      return ['X', 'X'];
    case 'manual':
      return ['M', 'M'];
    case 'malfunction':
      return ['E', 'E'];
  }
}

const MARKERS: Readonly<Record<string, EldPosition>> = {
  X: { kind: 'none' },
  M: { kind: 'manual' },
  E: { kind: 'malfunction' },
};

/**
 * Reads a latitude/longitude pair: the same marker twice, or two decimal numbers with the same
 * number of decimals (2, or 1 for reduced precision). Null when neither.
 */
export function readPosition(latitude: string, longitude: string): EldPosition | null {
  if (latitude === longitude && MARKERS[latitude] !== undefined) return MARKERS[latitude];
  const lat = /^-?\d{1,2}\.(\d{1,2})$/.exec(latitude);
  const lon = /^-?\d{1,3}\.(\d{1,2})$/.exec(longitude);
  if (lat === null || lon === null || lat[1]?.length !== lon[1]?.length) return null;
  const la = Number(latitude);
  const lo = Number(longitude);
  if (Math.abs(la) > 90 || lo > 180 || lo < -180) return null;
  return { kind: 'fix', latitude: la, longitude: lo, reduced: lat[1]?.length === 1 };
}
