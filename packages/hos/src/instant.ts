/**
 * Strict ISO-8601 instant parser: `YYYY-MM-DDTHH:mm[:ss[.fraction]]` followed by `Z` or `±HH:mm`
 * (`±HHmm`, `±HH` too). Returns epoch ms, or NaN when the text is not such an instant. Hand-written
 * because Date.parse accepts local times without an offset (which would silently depend on the
 * machine's zone) and costs twice as much; a fleet audit parses millions of these.
 * The offset is in the string, so this is plain arithmetic, not time-zone maths.
 */
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * One-entry memo of the pure function date → epoch day (the last valid YYYYMMDD read and its day
 * number). Only a valid date is ever stored, so a hit needs no validation; it holds two numbers and
 * is read and written within one parse, so no caller can observe it.
 */
let lastKey = -1;
let lastDays = 0;

/** Two decimal digits at i, or a negative number when either is not a digit. */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

export function parseInstant(s: string): number {
  const n = s.length;
  if (n < 17 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58) return NaN;
  const t = s.charCodeAt(10);
  if (t !== 84 && t !== 116) return NaN;
  const yh = two(s, 0);
  const yl = two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  if (yh < 0 || yl < 0 || month < 1 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return NaN;
  // Most instants of a log fall on the date of the one before: reuse its (validated) day number.
  const key = (yh * 100 + yl) * 10_000 + month * 100 + day;
  let days = lastDays;
  if (key !== lastKey) {
    const year = yh * 100 + yl;
    if (month > 12 || day > DAYS_IN_MONTH[month - 1]! || (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)))) {
      return NaN;
    }
    days = daysFromCivil(year, month, day);
    lastKey = key;
    lastDays = days;
  }
  let i = 16;
  let second = 0;
  let ms = 0;
  let c = s.charCodeAt(i);
  if (c === 58) {
    second = two(s, 17);
    if (second < 0 || second > 59) return NaN;
    i = 19;
    c = s.charCodeAt(i);
    if (c === 46 || c === 44) {
      let scale = 100;
      const from = ++i;
      for (;;) {
        const d = s.charCodeAt(i) - 48;
        if (!(d >= 0 && d <= 9)) break;
        ms += d * scale;
        scale /= 10;
        i++;
      }
      if (i === from) return NaN;
      ms = Math.floor(ms);
      c = s.charCodeAt(i);
    }
  }
  let offsetMin = 0;
  if (c === 90 || c === 122) {
    if (i + 1 !== n) return NaN;
  } else if (c === 43 || c === 45) {
    const oh = two(s, i + 1);
    let om = 0;
    let j = i + 3;
    if (j < n) {
      if (s.charCodeAt(j) === 58) j++;
      om = two(s, j);
      j += 2;
    }
    if (j !== n || oh < 0 || oh > 23 || om < 0 || om > 59) return NaN;
    offsetMin = c === 45 ? -(oh * 60 + om) : oh * 60 + om;
  } else {
    return NaN;
  }
  return (days * 1440 + hour * 60 + minute - offsetMin) * 60_000 + second * 1000 + ms;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Epoch ms → ISO-8601 in UTC (`Z`), the engine's output form. */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString();
}
