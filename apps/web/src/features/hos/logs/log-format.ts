import { HOS_EVENT_TYPES } from '@fleet/api-contract/hos-codes';
import type { HosEvent } from '@fleet/api-contract';
import { RULESET_LABELS } from '@fleet/hos/ruleset-facts';
import { todayIn as todayInZone } from '../../../lib/dates.ts';
import { intlLocale } from '../../../i18n/i18n.ts';

// Words, clocks and calendar arithmetic of the log screens. Log days are calendar dates in a zone
// (YYYY-MM-DD); instants come from the API as ISO strings.

const MINUTE = 60_000;

/** A duration as the log prints it, hours and minutes: 9_000_000 ms → "2:30". */
export function formatHours(ms: number): string {
  const m = Math.max(0, Math.round(ms / MINUTE));
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
}

/** Today's calendar date in `timeZone` (the viewer's when absent or unknown, never the browser's: decision 0140). */
export function todayIn(timeZone: string | null | undefined, now: Date = new Date()): string {
  return todayInZone(timeZone ?? undefined, now);
}

export const isLogDate = (v: string | null | undefined): v is string => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));

/** The calendar date `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** "Tuesday, October 20, 2026" for a log date (in `locale`: "martes, 20 de octubre de 2026"). */
export function longDate(date: string, locale = 'en-US'): string {
  return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(
    new Date(`${date}T00:00:00Z`),
  );
}

/** "10/20/26" for a log date (spec section 9); in a driver's language (`lng`) its own short date. */
export function shortDate(date: string, lng?: string): string {
  if (lng && lng !== 'en')
    return new Intl.DateTimeFormat(intlLocale(lng), { timeZone: 'UTC', year: '2-digit', month: '2-digit', day: '2-digit' }).format(
      new Date(`${date}T00:00:00Z`),
    );
  const [y, m, d] = date.split('-');
  return `${m}/${d}/${y?.slice(2)}`;
}

// The clocks below are en-US 12-hour; a driver's screen passes its language (`lng`, issue 44), whose
// own clock Intl gives ("1:19 p.m.", "13 h 19"); English stays byte for byte as it was.
const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(timeZone: string, options: Intl.DateTimeFormatOptions, key: string, lng?: string): Intl.DateTimeFormat {
  const locale = lng && lng !== 'en' ? intlLocale(lng) : 'en-US';
  const local = locale === 'en-US' ? options : { ...options, hour12: undefined };
  let f = formats.get(`${key}|${timeZone}|${locale}`);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(locale, { ...local, timeZone });
    } catch {
      f = new Intl.DateTimeFormat(locale, local);
    }
    formats.set(`${key}|${timeZone}|${locale}`, f);
  }
  return f;
}

/** Clock time of an instant in a zone, 12-hour: "6:00 AM". */
export function clockIn(iso: string, timeZone: string, lng?: string): string {
  return formatIn(timeZone, { hour: 'numeric', minute: '2-digit', hour12: true }, 'clock', lng).format(new Date(iso));
}

/** Clock time with seconds (the events table: an ELD records seconds): "6:00:00 AM". */
export function clockSecondsIn(iso: string, timeZone: string, lng?: string): string {
  return formatIn(timeZone, { hour: 'numeric', minute: '2-digit', second: '2-digit', hour12: true }, 'clock-s', lng).format(new Date(iso));
}

/** The zone's short name at an instant: "CDT" ("HAC" in French). */
export function zoneAbbreviation(iso: string, timeZone: string, lng?: string): string {
  const part = formatIn(timeZone, { timeZoneName: 'short', hour: 'numeric' }, 'tzname', lng)
    .formatToParts(new Date(iso))
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

function partsIn(ms: number, timeZone: string): Record<string, number> {
  const f = formatIn(
    timeZone,
    { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
    'parts',
  );
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(ms))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

/**
 * The wall clock of an instant in a zone as a `datetime-local` value: "2026-10-20T06:00", with the
 * seconds when there are any ("2026-10-20T06:00:30"): an edit that leaves the time alone must not
 * move a record to the start of its minute, onto another record of that minute.
 */
export function toLocalInput(iso: string, timeZone: string): string {
  const p = partsIn(Date.parse(iso), timeZone);
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  const seconds = p.second ? `:${two(p.second)}` : '';
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}${seconds}`;
}

/**
 * The instant a wall-clock time (`datetime-local`, "2026-10-20T06:00") names in a zone, as an ISO
 * instant; null when the text is not a time. In the repeated hour of a fall-back day the first one.
 */
export function fromLocalInput(local: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  if (Number.isNaN(wall)) return null;
  const offsetAt = (ms: number) => {
    const p = partsIn(ms, timeZone);
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(ms / 1000) * 1000;
  };
  // Two passes settle the offset on either side of a daylight-saving change.
  let guess = wall - offsetAt(wall);
  guess = wall - offsetAt(guess);
  return new Date(guess).toISOString();
}

export const STATUS_NAMES = { OFF: 'Off duty', SB: 'Sleeper berth', D: 'Driving', ON: 'On duty' } as const;
export const SPECIAL_NAMES = {
  PC: 'Personal conveyance',
  YM: 'Yard move',
  PASSENGER: 'Passenger seat (team)',
  WAITING: 'Waiting at well site (off duty, 49 CFR 395.1(d)(2))',
} as const;
export const ORIGIN_NAMES = { AUTOMATIC: 'Automatic', DRIVER: 'Driver', OTHER: 'Other user', UNIDENTIFIED: 'Unidentified driver' } as const;

/** What an event records, in words: "Driving", "Personal conveyance", "Certification (1)", "Engine power-up". */
export function eventName(e: Pick<HosEvent, 'eventType' | 'eventCode' | 'status' | 'special'>): string {
  switch (e.eventType) {
    case HOS_EVENT_TYPES.DUTY_STATUS:
      return e.status ? STATUS_NAMES[e.status] : 'Duty status';
    case HOS_EVENT_TYPES.INTERMEDIATE_LOG:
      return 'Intermediate log';
    case HOS_EVENT_TYPES.SPECIAL_CATEGORY:
      return e.special ? SPECIAL_NAMES[e.special] : 'Special category cleared';
    case HOS_EVENT_TYPES.CERTIFICATION:
      return `Certification (${e.eventCode})`;
    case HOS_EVENT_TYPES.LOGIN_LOGOUT:
      return e.eventCode === 1 ? 'Login' : 'Logout';
    case HOS_EVENT_TYPES.ENGINE_POWER:
      return ['', 'Engine power-up', 'Engine power-up', 'Engine shutdown', 'Engine shutdown'][e.eventCode] ?? 'Engine power';
    case HOS_EVENT_TYPES.MALFUNCTION:
      // Table 6: 1 and 2 a malfunction logged and cleared, 3 and 4 a data diagnostic.
      return ['', 'Malfunction logged', 'Malfunction cleared', 'Data diagnostic logged', 'Data diagnostic cleared'][e.eventCode] ?? 'Malfunction or diagnostic';
    default:
      return `Event ${e.eventType}/${e.eventCode}`;
  }
}

/** Total engine hours as the ELD keeps them, to the tenth: "4,000.2 h" ("4 000,2 h" in French, `lng`); a dash when the device reports none. */
export function formatEngineHours(hours: number | null, lng?: string): string {
  if (hours === null || !Number.isFinite(hours)) return '—';
  return `${(Math.floor(Math.round(hours * 100) / 10) / 10).toLocaleString(lng ? intlLocale(lng) : 'en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} h`;
}

/** "DRIVING_LIMIT" → "Driving limit". */
export function words(code: string): string {
  const w = code.toLowerCase().replaceAll('_', ' ');
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** Readable names of the packages/hos ruleset ids. */
const RULESET_LABEL: Record<string, string> = RULESET_LABELS;
export const rulesetName = (id: string) => RULESET_LABEL[id] ?? words(id);

export const driverName = (d: { firstName: string; lastName: string }) => [d.firstName, d.lastName].filter(Boolean).join(' ');

/** Whose ELD a malfunction or diagnostic is: a vehicle's, or a driver's own (data transfer, codes 4 and S). */
export function diagnosticSubject(d: { vehicle: { unitNumber: string } | null; driver: { firstName: string; lastName: string } | null }): string {
  if (d.vehicle) return `Vehicle ${d.vehicle.unitNumber}`;
  return d.driver ? `${driverName(d.driver)}'s ELD` : 'ELD';
}
