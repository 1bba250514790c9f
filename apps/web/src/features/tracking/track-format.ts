import { speedFromKmh, UNIT_LABELS, type UnitSystem } from '@fleet/api-contract/units';
import type { Language } from '../../i18n/language.ts';

// Times on the public tracking page: in the viewer's browser zone (a customer anywhere), in their
// language's local form, with the zone named once in the page's footer and on the ETA.

/** The browser's own tag for `lng` (en-GB keeps its 24-hour clock), else the language itself. */
export function localeFor(
  lng: Language,
  languages: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]),
): string {
  return languages.find((tag) => tag.toLowerCase().split('-')[0] === lng) ?? lng;
}

export function viewerZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const dayKey = (d: Date, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);

export interface TrackClock {
  locale: string;
  zone: string;
}

/** "3:40 PM": the clock time alone. */
export function clockTime(iso: string, c: TrackClock): string {
  return new Intl.DateTimeFormat(c.locale, { timeZone: c.zone, hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
}

/** The zone's short name at an instant ("CST", "GMT+1"). */
export function zoneName(iso: string | Date, c: TrackClock): string {
  const parts = new Intl.DateTimeFormat(c.locale, { timeZone: c.zone, timeZoneName: 'short' }).formatToParts(new Date(iso));
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? c.zone;
}

/** "Tue, Dec 1": the day, or "" when it is today (then the time alone says it). */
export function dayText(iso: string, c: TrackClock, now: Date = new Date()): string {
  const d = new Date(iso);
  if (dayKey(d, c.zone) === dayKey(now, c.zone)) return '';
  return new Intl.DateTimeFormat(c.locale, { timeZone: c.zone, weekday: 'short', month: 'short', day: 'numeric' }).format(d);
}

/** "Tue, Dec 1, 3:40 PM" (or "3:40 PM" today). */
export function when(iso: string, c: TrackClock, now: Date = new Date()): string {
  const day = dayText(iso, c, now);
  return day ? `${day}, ${clockTime(iso, c)}` : clockTime(iso, c);
}

/** An appointment window: "Dec 1, 8:00 AM – 10:00 AM" (one day) or both ends in full. */
export function windowText(start: string, end: string, c: TrackClock, now: Date = new Date()): string {
  const sameDay = dayKey(new Date(start), c.zone) === dayKey(new Date(end), c.zone);
  return sameDay ? `${when(start, c, now)} – ${clockTime(end, c)}` : `${when(start, c, now)} – ${when(end, c, now)}`;
}

/** A speed in the carrier's units: "54 mph". */
export function speedText(kmh: number, units: UnitSystem): string {
  return `${Math.round(speedFromKmh(kmh, units))} ${UNIT_LABELS[units].speed}`;
}

/**
 * A temperature in the carrier's units, one decimal ("-18.0 °C", "-0.4 °F"). The contract's own
 * helper lives beside zod, which this page's bundle leaves out (decision 0286): same rule, here.
 */
export function temperatureText(c: number, units: UnitSystem, span = false): string {
  const v = units === 'IMPERIAL' ? (c * 9) / 5 + (span ? 0 : 32) : c;
  return `${v.toFixed(1)} ${units === 'IMPERIAL' ? '°F' : '°C'}`;
}
