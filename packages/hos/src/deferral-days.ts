import { HosInputError } from './errors.ts';
import type { HosOptions } from './types.ts';

// C6 declarations read from the options (context.ts); applying them to the days is deferral.ts.

export const NO_DAYS: ReadonlySet<number> = new Set();
const DAY = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Epoch day of a 'YYYY-MM-DD' calendar date, NaN if it is not one. */
function epochDay(text: unknown): number {
  const m = typeof text === 'string' ? DATE.exec(text) : null;
  if (!m) return NaN;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === text ? ms / DAY : NaN;
}

/** C6 declarations: valid dates, each declared once, and no day 2 that is itself a day 1. */
export function readDeferrals(list: HosOptions['deferrals']): ReadonlySet<number> {
  if (list === undefined || (Array.isArray(list) && list.length === 0)) return NO_DAYS;
  if (!Array.isArray(list)) throw new HosInputError('deferrals must be an array', null, 'deferrals');
  const days = new Set<number>();
  for (let i = 0; i < list.length; i++) {
    const day = epochDay((list[i] as { day?: unknown } | null)?.day);
    if (Number.isNaN(day)) throw new HosInputError('deferral day is not a YYYY-MM-DD date', null, `deferrals[${i}].day`);
    if (days.has(day)) throw new HosInputError('deferral day is declared twice', null, `deferrals[${i}].day`);
    days.add(day);
  }
  // s. 16: day 2 must take the deferred time, so it cannot defer its own off-duty time.
  for (let i = 0; i < list.length; i++) {
    const day = epochDay(list[i]!.day);
    if (days.has(day - 1))
      throw new HosInputError('this day is day 2 of the deferral declared the day before and cannot itself be a day 1', null, `deferrals[${i}].day`);
  }
  return days;
}
