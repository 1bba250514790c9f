/**
 * Strict ISO-8601 instant parser: `YYYY-MM-DDTHH:mm[:ss[.fraction]]` followed by `Z` or `±HH:mm`
 * (`±HHmm`, `±HH` too). Returns epoch ms, or NaN when the text is not such an instant. Hand-written
 * because Date.parse accepts local times without an offset (which would silently depend on the
 * machine's zone) and costs several times more; a fleet audit parses millions of these.
 * The offset is in the string, so this is plain arithmetic, not time-zone maths.
 */
function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1000;
}
function two(s: string, i: number): number {
  return digit(s, i) * 10 + digit(s, i + 1);
}
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function parseInstant(s: string): number {
  const n = s.length;
  if (n < 17) return NaN;
  const t = s.charCodeAt(10);
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || (t !== 84 && t !== 116) || s.charCodeAt(13) !== 58) {
    return NaN;
  }
  const year = two(s, 0) * 100 + two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return NaN;
  if (day > DAYS_IN_MONTH[month - 1]!) return NaN;
  if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return NaN;
  let i = 16;
  let second = 0;
  let ms = 0;
  if (s.charCodeAt(i) === 58) {
    second = two(s, i + 1);
    if (second < 0 || second > 59) return NaN;
    i += 3;
    const sep = s.charCodeAt(i);
    if (sep === 46 || sep === 44) {
      i++;
      let digits = 0;
      let scale = 100;
      for (;;) {
        const d = digit(s, i);
        if (d < 0) break;
        if (digits < 3) ms += d * scale;
        scale /= 10;
        digits++;
        i++;
      }
      if (digits === 0) return NaN;
    }
  }
  let offsetMin: number;
  const z = s.charCodeAt(i);
  if (z === 90 || z === 122) {
    if (i + 1 !== n) return NaN;
    offsetMin = 0;
  } else if (z === 43 || z === 45) {
    const oh = two(s, i + 1);
    let om = 0;
    let j = i + 3;
    if (j < n) {
      if (s.charCodeAt(j) === 58) j++;
      om = two(s, j);
      j += 2;
    }
    if (j !== n || oh < 0 || oh > 23 || om < 0 || om > 59) return NaN;
    offsetMin = (z === 45 ? -1 : 1) * (oh * 60 + om);
  } else {
    return NaN;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMin * 60_000;
}

/** Epoch ms → ISO-8601 in UTC (`Z`), the engine's output form. */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString();
}
