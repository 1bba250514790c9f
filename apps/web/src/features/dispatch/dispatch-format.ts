import type { FreeAfter, Load, LoadStop, PlanSegment, PlanSegmentKind } from '@fleet/api-contract';
import { KM_PER_MILE, type UnitSystem } from '@fleet/api-contract/units';
import { formatShortDateTime, formatTime, todayIn } from '../../lib/dates.ts';

// Pure helpers of the dispatch screens: the board's grouping by day in the viewer's zone, a lane's
// words, money, weight and plan distances in the organization's units, a plan's timeline layout and
// an ETA against its window. No React, so they are tested alone.

const KG_PER_LB = 0.45359237;

/** A weight (kg on the wire) as the organization reads it: pounds or kilograms, whole. */
export const weightFromKg = (kg: number, units: UnitSystem): number => Math.round(units === 'IMPERIAL' ? kg / KG_PER_LB : kg);
/** A weight typed in the organization's units, in kg (what the API takes), to the gram. */
export const weightToKg = (v: number, units: UnitSystem): number => Math.round((units === 'IMPERIAL' ? v * KG_PER_LB : v) * 1000) / 1000;
export const weightUnit = (units: UnitSystem): string => (units === 'IMPERIAL' ? 'lb' : 'kg');

/** "42,000 lb" or "19,051 kg"; a dash when unknown. */
export function formatWeight(kg: number | null | undefined, units: UnitSystem): string {
  if (kg === null || kg === undefined) return '—';
  return `${weightFromKg(kg, units).toLocaleString('en-US')} ${weightUnit(units)}`;
}

/** A plan's miles (the issue's unit) in the organization's: "412 mi" or "663 km". */
export function formatPlanMiles(miles: number, units: UnitSystem): string {
  const v = units === 'IMPERIAL' ? miles : miles * KM_PER_MILE;
  return `${Math.round(v).toLocaleString('en-US')} ${units === 'IMPERIAL' ? 'mi' : 'km'}`;
}

/** "10 h 30 min", "45 min". */
export function formatMinutes(min: number): string {
  const m = Math.max(0, Math.round(min));
  const h = Math.floor(m / 60);
  const r = m % 60;
  if (!h) return `${r} min`;
  return r ? `${h} h ${r} min` : `${h} h`;
}

/** The city of an address written "street, city, ST zip" ("Joliet, IL"), else the address as it is. */
export function cityOf(address: string | null | undefined): string | null {
  if (!address?.trim()) return null;
  const parts = address
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length >= 3) {
    const state = parts[parts.length - 1]!.split(/\s+/)[0]!;
    return `${parts[parts.length - 2]}, ${state}`;
  }
  return parts.join(', ');
}

/** How a stop is named on a card: its place, else its address's city, else its coordinates. */
export function stopName(s: Pick<LoadStop, 'placeName' | 'address' | 'latitude' | 'longitude'>): string {
  return s.placeName ?? cityOf(s.address) ?? `${s.latitude.toFixed(3)}, ${s.longitude.toFixed(3)}`;
}

/** "Chicago, IL → Dallas, TX": first pick-up to last delivery. */
export function laneText(load: Pick<Load, 'stops'>): string {
  const first = load.stops[0];
  const last = load.stops[load.stops.length - 1];
  if (!first || !last) return '—';
  const name = (s: LoadStop) => cityOf(s.address) ?? s.placeName ?? stopName(s);
  return `${name(first)} → ${name(last)}`;
}

/** A stop's number as people say it (1 for the first), by its place in the load's order. */
export const stopNumber = (stops: readonly Pick<LoadStop, 'id'>[], stop: Pick<LoadStop, 'id'>): number => stops.findIndex((s) => s.id === stop.id) + 1;

/** The stop the truck heads to next (the first not yet departed), or null once all are done. */
export function nextStop(load: Pick<Load, 'stops'>): LoadStop | null {
  return load.stops.find((s) => !s.departedAt) ?? null;
}

/** The first pick-up's window start: a load's day on the board. */
export const pickupStart = (load: Pick<Load, 'stops'>): string | null => load.stops[0]?.windowStart ?? null;

/** The calendar day (YYYY-MM-DD) an instant falls on in `zone`. */
export const dayIn = (iso: string, zone: string): string => todayIn(zone, new Date(iso));

export interface DayGroup<T> {
  /** YYYY-MM-DD in the zone, or '' for loads without a stop. */
  day: string;
  loads: T[];
}

/**
 * Loads by the day of their first pick-up in `zone` (the viewer's, decision 0140), days in order,
 * each day's loads by pick-up time; loads without stops last.
 */
export function groupByDay<T extends Pick<Load, 'stops'>>(loads: readonly T[], zone: string): DayGroup<T>[] {
  const byDay = new Map<string, T[]>();
  for (const l of loads) {
    const start = pickupStart(l);
    const day = start ? dayIn(start, zone) : '';
    const list = byDay.get(day) ?? [];
    list.push(l);
    byDay.set(day, list);
  }
  const t = (l: T) => Date.parse(pickupStart(l) ?? '') || Infinity;
  return [...byDay.entries()]
    .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)))
    .map(([day, list]) => ({ day, loads: list.sort((a, b) => t(a) - t(b)) }));
}

/** "Tue, Nov 24" for a YYYY-MM-DD day; "Today"/"Tomorrow" relative to `today`. */
export function dayHeading(day: string, today: string): string {
  if (!day) return 'No stops';
  const name = new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
  const diff = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  if (diff === 0) return `Today, ${name}`;
  if (diff === 1) return `Tomorrow, ${name}`;
  if (diff === -1) return `Yesterday, ${name}`;
  return name;
}

/** Whether an ETA meets a window: early (waits for it to open), on time, or late by some minutes. */
export function etaVersusWindow(eta: string, windowStart: string, windowEnd: string): { state: 'early' | 'on-time' | 'late'; minutes: number } {
  const t = Date.parse(eta);
  if (t > Date.parse(windowEnd)) return { state: 'late', minutes: Math.round((t - Date.parse(windowEnd)) / 60_000) };
  if (t < Date.parse(windowStart)) return { state: 'early', minutes: Math.round((Date.parse(windowStart) - t) / 60_000) };
  return { state: 'on-time', minutes: 0 };
}

export const SEGMENT_COLORS: Record<PlanSegmentKind, string> = {
  DEADHEAD: 'gray.6',
  DRIVE: 'blue.7',
  BREAK: 'yellow.5',
  REST: 'violet.6',
  RESTART: 'grape.8',
  STOP: 'teal.7',
};

export interface TimelineBar {
  segment: PlanSegment;
  /** Percent of the plan's span from its start. */
  left: number;
  /** Percent of the span it covers (at least `minWidth`, so a 30-minute break shows). */
  width: number;
  minutes: number;
}

export interface TimelineLayout {
  start: number;
  end: number;
  bars: TimelineBar[];
  /** Midnights in `zone` inside the span, as percent positions with their day. */
  days: Array<{ left: number; day: string }>;
}

/**
 * A plan's segments as bars along one time axis (the plan's first start to its last end): each bar's
 * offset and width in percent. Short segments get `minWidth` percent so they remain visible and
 * clickable; the day marks are the viewer's midnights.
 */
export function timelineLayout(segments: readonly PlanSegment[], zone: string, minWidth = 0.6): TimelineLayout | null {
  if (!segments.length) return null;
  const start = Math.min(...segments.map((s) => Date.parse(s.start)));
  const end = Math.max(...segments.map((s) => Date.parse(s.end)));
  const span = Math.max(end - start, 60_000);
  const pct = (t: number) => ((t - start) / span) * 100;
  const bars = segments.map((segment) => {
    const s = Date.parse(segment.start);
    const e = Date.parse(segment.end);
    const left = Math.min(pct(s), 100 - minWidth);
    return { segment, left, width: Math.max(pct(e) - pct(s), minWidth), minutes: Math.round((e - s) / 60_000) };
  });
  const days: TimelineLayout['days'] = [];
  // Step by quarter hours, so a daylight-saving day and a half-hour zone still find their midnight.
  const step = 900_000;
  let prev = dayIn(new Date(start).toISOString(), zone);
  for (let t = start - (start % step) + step; t < end; t += step) {
    const d = dayIn(new Date(t).toISOString(), zone);
    if (d !== prev) days.push({ left: pct(t), day: d });
    prev = d;
  }
  return { start, end, bars, days };
}

/**
 * When a driver on other loads is free, in the viewer's zone and named by its abbreviation: "1:00 PM
 * CST" today, "Nov 27, 1:00 PM CST" another day (issue 46).
 */
export function freeAtText(after: Pick<FreeAfter, 'freeAt'>, zone: string, now: Date = new Date()): string {
  return dayIn(after.freeAt, zone) === todayIn(zone, now) ? formatTime(after.freeAt, zone) : formatShortDateTime(after.freeAt, zone);
}

/** "after L-1064, free in Minneapolis, MN at 1:00 PM CST" (two loads ahead: "after L-1064 (2 loads), …"). */
export function freeAfterText(after: FreeAfter, zone: string, now: Date = new Date()): string {
  const which = after.loads > 1 ? `${after.number} (${after.loads} loads)` : after.number;
  return `after ${which}, free${after.place ? ` in ${after.place}` : ''} at ${freeAtText(after, zone, now)}`;
}
