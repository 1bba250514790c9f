import type { RawLog } from './raw-log.ts';
import type { DutyPeriodInput } from './types.ts';

/**
 * One-entry memo of the pure function "period texts → parsed log" (decision 0015). The API asks
 * for a driver's violations and clocks together (auditLog then clocksAt on the same periods), and
 * reading the ISO instants is over half of each call, so the second call reuses the first call's
 * reading when every period still has the very same field values. The comparison is by value
 * (===, strings by content) over every field of every period, so mutating the array or its objects
 * between calls, or passing an equal copy, gives exactly what a fresh parse would. Only logs whose
 * fields are all primitive strings (or, for instants, numbers) are kept (a String object could stringify differently the next
 * time), at most MAX_PERIODS periods, and the memo owns copies of the parsed arrays (the workspace
 * that produced them is reused by the next call).
 *
 * A call made from inside another (a getter on a period calling the engine) may replace the memo
 * while the outer call compares or records it: a generation number makes the outer call notice,
 * and it then parses normally or does not record.
 */
const MAX_PERIODS = 20_000;

let texts: unknown[] = [];
let count = -1;
/** Set by note() when a field is not a primitive string (instants: or a number; special: or undefined). */
let impure = false;
let raw: RawLog = { n: 0, start: new Float64Array(0), end: new Float64Array(0), cat: new Uint8Array(0), hasPassenger: false };
let generation = 0;

/** The memo's parsed log when `periods` has the same field values as the last recorded log; null otherwise. */
export function recalled(periods: readonly DutyPeriodInput[]): RawLog | null {
  const n = periods.length;
  if (n !== count || n === 0) return null;
  const gen = generation;
  const t = texts;
  for (let i = 0, k = 0; i < n; i++, k += 4) {
    const p = periods[i];
    if (p === null || typeof p !== 'object') return null;
    if (p.start !== t[k] || p.end !== t[k + 1] || p.status !== t[k + 2] || p.special !== t[k + 3]) return null;
  }
  // A nested call (a getter) may have replaced the memo while we compared.
  return gen === generation ? raw : null;
}

/** Strings and numbers compare by value with ===, so a later log with the same ones is the same log. */
const instantPrimitive = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number';

/** Starts recording the log about to be parsed; returns a token for record(). */
export function begin(n: number): number {
  count = -1; // invalid until record() completes
  impure = false;
  return n > 0 && n <= MAX_PERIODS ? ++generation : -1;
}

/** Notes the field values of period i (called by the parser as it reads them). */
export function note(token: number, i: number, start: unknown, end: unknown, status: unknown, special: unknown): void {
  if (token !== generation) return;
  if (!instantPrimitive(start) || !instantPrimitive(end) || typeof status !== 'string' || (special !== undefined && typeof special !== 'string')) impure = true;
  const k = 4 * i;
  texts[k] = start;
  texts[k + 1] = end;
  texts[k + 2] = status;
  texts[k + 3] = special;
}

/** Keeps a copy of the parsed log if every field noted was a primitive (see note()) and nothing intervened. */
export function record(token: number, n: number, parsed: RawLog): void {
  if (token !== generation || impure) return;
  // texts may hold more than 4n entries from a longer log: only the first 4n are compared (count).
  const m = parsed.n;
  if (raw.start.length < m) {
    raw = { n: 0, start: new Float64Array(2 * m), end: new Float64Array(2 * m), cat: new Uint8Array(2 * m), hasPassenger: false };
  }
  for (let i = 0; i < m; i++) {
    raw.start[i] = parsed.start[i]!;
    raw.end[i] = parsed.end[i]!;
    raw.cat[i] = parsed.cat[i]!;
  }
  raw.n = m;
  raw.hasPassenger = parsed.hasPassenger;
  count = n;
}

/** Forgets the recorded log (tests). */
export function forget(): void {
  count = -1;
  texts = [];
  generation++;
}
