import { zoneOffsetMs } from '../../lib/zone-offset.ts';

// Calendar days of invoices (issue 70): an invoice is dated, due and paid on days of the
// organization's time zone, kept as `YYYY-MM-DD` text and counted in whole days.

const DAY_MS = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The day `ms` falls on in `zone`. */
export const localDay = (ms: number, zone: string): string => new Date(ms + zoneOffsetMs(ms, zone)).toISOString().slice(0, 10);

export const addDays = (day: string, days: number): string => new Date(dayMs(day) + days * DAY_MS).toISOString().slice(0, 10);

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => Math.round((dayMs(to) - dayMs(from)) / DAY_MS);
