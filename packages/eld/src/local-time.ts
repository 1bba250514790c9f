// Instants to home-terminal local time, for callers that store UTC (hos_events.event_time). The file
// model holds local time only (model.ts); these helpers are the one place a zone is applied. They use
// the runtime's Intl time-zone data: no clock, no I/O, the same answer for the same instant and zone.

import { EldInputError } from './errors.ts';
import type { LocalDateTime } from './model.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      throw new EldInputError('timeZone', `${JSON.stringify(timeZone)} is not an IANA time zone`);
    }
    formatters.set(timeZone, f);
  }
  return f;
}

function epochMs(instant: Date | string | number): number {
  // A string without an offset would be read in the host's zone: refuse it rather than guess.
  if (typeof instant === 'string' && !/(Z|[+-]\d{2}:?\d{2})$/i.test(instant)) {
    throw new EldInputError('instant', `${JSON.stringify(instant)} has no UTC offset`);
  }
  const ms = instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : Date.parse(instant);
  if (!Number.isFinite(ms)) throw new EldInputError('instant', `${JSON.stringify(instant)} is not an instant`);
  return Math.floor(ms / 1000) * 1000;
}

function parts(ms: number, timeZone: string): { local: LocalDateTime; offsetMinutes: number } {
  const p: Record<string, string> = {};
  for (const { type, value } of formatter(timeZone).formatToParts(ms)) p[type] = value;
  const local = `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return { local, offsetMinutes: Math.round((asUtc - ms) / 60_000) };
}

/** The instant as home-terminal date and time, e.g. `2026-06-01T06:30:00` for 11:30 UTC in America/Chicago. */
export function homeTerminalTime(instant: Date | string | number, timeZone: string): LocalDateTime {
  return parts(epochMs(instant), timeZone).local;
}

/**
 * The header's Time Zone Offset from UTC (7.41) at that instant: whole hours, sign omitted (5 for
 * Chicago in summer, 6 in winter). The rule asks for the offset "in effect", so pass the file's
 * creation time.
 */
export function utcOffsetHours(instant: Date | string | number, timeZone: string): number {
  return Math.round(Math.abs(parts(epochMs(instant), timeZone).offsetMinutes) / 60);
}
