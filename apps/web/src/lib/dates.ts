import { isSuperAdmin } from '@fleet/api-contract/permissions';
import { intlLocale } from '../i18n/i18n.ts';
import { sessionStore } from './auth-store.ts';
import { controlStore } from './control-store.ts';
import { useStore } from './create-store.ts';

// Decision 0140, one time-zone rule: a driver's log, its violations and availability are shown in
// the driver's home-terminal zone (callers pass it); everything else in the viewer's zone, the
// signed-in user's profile zone, else the organization's, never the browser's. Every time shown
// says its zone ("6:19 AM CST"), because the reader's browser may be anywhere.

/** Spec section 9: dates show as mm/dd/yy. */
export const DATE_FORMAT = 'MM/DD/YY';
/** Sunday is the first day of the week in date pickers. */
export const FIRST_DAY_OF_WEEK = 0;

type DateInput = string | number | Date | null | undefined;

/**
 * The driver's screens pass their language (issue 44): Spanish and French format by Intl in that
 * locale ("01/06/2026, 1:19 p.m. CDT", "2026-06-01 13 h 19 HAC"); English, or no language, keeps the
 * office's own formats byte for byte.
 */
const translated = (lng: string | undefined): lng is string => !!lng && lng !== 'en';
const localFormats = new Map<string, Intl.DateTimeFormat>();
function localFormat(lng: string, zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = intlLocale(lng);
  const id = `${locale}|${zone}|${JSON.stringify(options)}`;
  let f = localFormats.get(id);
  if (!f) localFormats.set(id, (f = new Intl.DateTimeFormat(locale, { ...options, timeZone: validZone(zone) ?? 'UTC' })));
  return f;
}
const LOCAL_TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };
const LOCAL_DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };

/** The zone of the screens that are not a driver's log: profile zone, else the organization's (the controlled one for a super administrator), else UTC. */
export function viewerZone(): string {
  const user = sessionStore.get().user;
  const controlled = user && isSuperAdmin(user) ? controlStore.get() : null;
  return validZone(user?.timeZone) ?? validZone(controlled?.timeZone) ?? validZone(user?.organization?.timeZone) ?? 'UTC';
}

/** The viewer's zone as a hook: screens re-render when the profile zone changes. */
export function useViewerZone(): string {
  useStore(sessionStore);
  useStore(controlStore);
  return viewerZone();
}

const known = new Map<string, boolean>();
function validZone(zone: string | null | undefined): string | null {
  if (!zone) return null;
  let ok = known.get(zone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      ok = true;
    } catch {
      ok = false;
    }
    known.set(zone, ok);
  }
  return ok ? zone : null;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(zone: string, key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `${key}|${zone}`;
  let f = formats.get(id);
  if (!f) formats.set(id, (f = new Intl.DateTimeFormat('en-US', { ...options, timeZone: validZone(zone) ?? 'UTC' })));
  return f;
}

function partsOf(d: Date, zone: string): Record<string, string> {
  const f = formatIn(zone, 'parts', {
    year: '2-digit',
    month: '2-digit',
    day: '2-digit',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    timeZoneName: 'short',
  });
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(d)) if (p.type !== 'literal') out[p.type] = p.value;
  return out;
}

/** A calendar date without a zone ("2026-06-01", or a local "2026-06-01T12:00:00") names a day, not an instant. */
const CALENDAR = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/;

function instantOf(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The zone's short name at an instant: "CST", "CDT", "GMT+9". */
export function zoneLabel(value: DateInput, zone: string = viewerZone()): string {
  const d = instantOf(value) ?? new Date();
  return partsOf(d, zone).timeZoneName ?? zone;
}

/** "06/01/26": a calendar day as it is, an instant as its day in `zone` (default the viewer's); `lng` a driver's language. */
export function formatDate(value: DateInput, zone: string = viewerZone(), lng?: string): string {
  if (typeof value === 'string') {
    const m = CALENDAR.exec(value);
    if (m && translated(lng)) return localFormat(lng, 'UTC', LOCAL_DATE).format(new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)));
    if (m) return `${m[2]}/${m[3]}/${m[1]!.slice(2)}`;
  }
  const d = instantOf(value);
  if (!d) return '';
  if (translated(lng)) return localFormat(lng, zone, LOCAL_DATE).format(d);
  const p = partsOf(d, zone);
  return `${p.month}/${p.day}/${p.year}`;
}

/** "06/01/26 6:19 AM CDT": an instant in `zone` (default the viewer's), with the zone it is in; `lng` a driver's language. */
export function formatDateTime(value: DateInput, zone: string = viewerZone(), lng?: string): string {
  const d = instantOf(value);
  if (!d) return '';
  if (translated(lng)) return localFormat(lng, zone, { ...LOCAL_DATE, ...LOCAL_TIME }).format(d);
  const p = partsOf(d, zone);
  return `${p.month}/${p.day}/${p.year} ${p.hour}:${p.minute} ${p.dayPeriod} ${p.timeZoneName}`;
}

/** "6:19 AM CDT": the clock time of an instant in `zone` (default the viewer's), with its zone; `lng` a driver's language. */
export function formatTime(value: DateInput, zone: string = viewerZone(), lng?: string): string {
  const d = instantOf(value);
  if (!d) return '';
  if (translated(lng)) return localFormat(lng, zone, LOCAL_TIME).format(d);
  const p = partsOf(d, zone);
  return `${p.hour}:${p.minute} ${p.dayPeriod} ${p.timeZoneName}`;
}

/** "Jun 1, 6:19 AM CDT": a short instant for cards and lists; `lng` a driver's language. */
export function formatShortDateTime(value: DateInput, zone: string = viewerZone(), lng?: string): string {
  const d = instantOf(value);
  if (!d) return '';
  if (translated(lng)) return localFormat(lng, zone, { month: 'short', day: 'numeric', ...LOCAL_TIME }).format(d);
  const day = formatIn(zone, 'md', { month: 'short', day: 'numeric' }).format(d);
  return `${day}, ${formatTime(d, zone)}`;
}

/** Today's calendar date (YYYY-MM-DD) in `zone` (default the viewer's). */
export function todayIn(zone: string = viewerZone(), now: Date = new Date()): string {
  return formatIn(zone, 'ymd', { year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(now)
    .replace(/^(\d{2})\/(\d{2})\/(\d{4})$/, '$3-$1-$2');
}

/** The calendar date `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function wallParts(ms: number, zone: string): Record<string, number> {
  const f = formatIn(zone, 'h23', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const p: Record<string, number> = {};
  for (const x of f.formatToParts(new Date(ms))) if (x.type !== 'literal') p[x.type] = Number(x.value);
  return p;
}

/** The instant a wall-clock time (ms as if it were UTC) names in `zone`; in a fall-back day's repeated hour the first. */
function wallToInstant(wall: number, zone: string): number {
  const offsetAt = (ms: number) => {
    const p = wallParts(ms, zone);
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(ms / 1000) * 1000;
  };
  // Two passes settle the offset on either side of a daylight-saving change.
  const guess = wall - offsetAt(wall);
  return wall - offsetAt(guess);
}

/**
 * The instant a calendar day starts in `zone` (default the viewer's), as ISO: the bounds the lists
 * send for a date range, so the days are the viewer's whatever zone the browser is in.
 */
export function dayStartIn(date: string, zone: string = viewerZone()): string {
  return new Date(wallToInstant(Date.parse(`${date}T00:00:00Z`), zone)).toISOString();
}

/** An instant as a `datetime-local` value ("2026-10-20T06:00") on the wall clock of `zone` (default the viewer's). */
export function toZoneInput(iso: string, zone: string = viewerZone()): string {
  const p = wallParts(Date.parse(iso), zone);
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

/** The ISO instant a `datetime-local` value names on the wall clock of `zone` (default the viewer's); null when it is not a time. */
export function fromZoneInput(local: string, zone: string = viewerZone()): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  return Number.isNaN(wall) ? null : new Date(wallToInstant(wall, zone)).toISOString();
}

/** Spec section 2 (avatar profile card): local time in a time zone, 12-hour en-US, optional long date; `lng` a driver's language. */
export function formatLocalTime(timeZone: string | null | undefined, now: Date = new Date(), withLongDate = false, lng?: string): string {
  const options: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', hour12: true };
  if (withLongDate) Object.assign(options, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
  if (translated(lng)) return localFormat(lng, timeZone ?? viewerZone(), { ...options, hour12: undefined }).format(now);
  return formatIn(timeZone ?? viewerZone(), withLongDate ? 'local-long' : 'local', options).format(now);
}
