// Each driver's active duty events kept in memory between requests (decisions 0098, 0099): the fleet
// reads (availability, violations, the daily list) need every driver's last 15 days or more, which is
// far too many rows to read and parse on every page. An entry is keyed on the driver's version in
// hos_driver_versions, which a trigger moves in every transaction that writes the driver's events or
// the log facts the engine reads (co-driver, deferral), so a request that finds the version unchanged
// in the database may use the entry, and any instance sees another's writes.
import { HOS_EVENT_TYPES } from '@fleet/api-contract';
import { dutyPeriods, type DutyEventFacts, type MsPeriod } from './hos.periods.ts';
import type { FleetDriver, LogFacts, PcDistanceFact } from './hos.types.ts';
import { LruMap } from '../../lib/lru-map.ts';

/** One driver's active duty-status and special-category events, sorted by time then sequence. */
export interface DriverEvents {
  /** The driver's version (hos_driver_versions) read before the events were. */
  version: number;
  /** Every event at or after this instant is here, and the last of each type before it. */
  from: number;
  /**
   * The events, built once: a request slices references and allocates no event of its own (at 2,000
   * drivers the garbage collector was most of a page).
   */
  events: readonly DutyEventFacts[];
  /** The log facts of the days from the log day holding `from` (minus one, for any home zone) on. */
  facts: LogFacts;
  /** The duty periods of all the events, the last one open (end +Infinity); built on first need. */
  periods?: MsPeriod[];
}

const NO_FACTS: LogFacts = { deferrals: [], teamDays: new Set() };

/** Packs events already sorted by time then sequence. */
export function packEvents(events: ReadonlyArray<DutyEventFacts & { seq: number }>, version: number, from: number, facts: LogFacts = NO_FACTS): DriverEvents {
  return { version, from, facts, events: events.map((x) => ({ eventType: x.eventType, eventCode: x.eventCode, at: x.at })) };
}

/**
 * The entry `e` reaching further back, to `from`: `older` is what readDutyEvents answers for
 * [from, e.from) (those events and the last of each type before `from`), complete for every instant
 * before e.from, so it replaces whatever `e` held before e.from; `olderFacts` the facts of the log
 * days up to the one holding e.from. A new entry: requests under way keep the one they hold.
 */
export function extendEvents(
  e: DriverEvents,
  older: ReadonlyArray<DutyEventFacts & { seq: number }>,
  from: number,
  olderFacts: LogFacts = NO_FACTS,
): DriverEvents {
  const kept = e.events.filter((x) => x.at >= e.from);
  const events = [...older.map((x) => ({ eventType: x.eventType, eventCode: x.eventCode, at: x.at })), ...kept];
  const deferrals = [...new Set([...olderFacts.deferrals, ...e.facts.deferrals])].sort();
  // Crossings are read whole with any days' facts: both hold all of them.
  const crossings = e.facts.crossings ?? olderFacts.crossings;
  // Declarations too (decision 0314).
  const declarations = e.facts.declarations ?? olderFacts.declarations;
  // PC distances are read by log day: the older days' and the entry's together, each stretch once.
  const pcDistances = mergePc(olderFacts.pcDistances, e.facts.pcDistances);
  const facts =
    deferrals.length || olderFacts.teamDays.size || e.facts.teamDays.size || crossings || declarations || pcDistances
      ? {
          deferrals,
          teamDays: new Set([...olderFacts.teamDays, ...e.facts.teamDays]),
          ...(crossings ? { crossings } : {}),
          ...(declarations ? { declarations } : {}),
          ...(pcDistances ? { pcDistances } : {}),
        }
      : NO_FACTS;
  return { version: e.version, from, facts, events };
}

/** Two lists of PC distances as one, each stretch once, in time order; undefined when both are. */
function mergePc(a: PcDistanceFact[] | undefined, b: PcDistanceFact[] | undefined): PcDistanceFact[] | undefined {
  if (!a) return b;
  if (!b) return a;
  const seen = new Map<number, PcDistanceFact>();
  for (const x of [...a, ...b]) seen.set(x.startMs, x);
  return [...seen.values()].sort((x, y) => x.startMs - y.startMs);
}

/** The facts of log days from `fromDate` to `toDate` (inclusive, YYYY-MM-DD). */
export function sliceFacts(f: LogFacts, fromDate: string, toDate: string): LogFacts | undefined {
  if (f.deferrals.length === 0 && f.teamDays.size === 0 && !f.crossings && !f.declarations && !f.pcDistances) return undefined;
  const deferrals = f.deferrals.filter((d) => d >= fromDate && d <= toDate);
  const teamDays = new Set([...f.teamDays].filter((d) => d >= fromDate && d <= toDate));
  // Crossings are kept whole: the last one before the range says which rules are in force at its start.
  // Declarations too: a switch before the range says which cycle is in force at its start. PC
  // distances too: the engine takes those of the periods it is given.
  if (f.crossings || f.declarations || f.pcDistances)
    return {
      deferrals,
      teamDays,
      ...(f.crossings ? { crossings: f.crossings } : {}),
      ...(f.declarations ? { declarations: f.declarations } : {}),
      ...(f.pcDistances ? { pcDistances: f.pcDistances } : {}),
    };
  return deferrals.length || teamDays.size ? { deferrals, teamDays } : undefined;
}

/**
 * What the database answers for [fromMs, toMs) (hos.repository.ts readDutyEvents): the events in the
 * range and, before them, the last event of each type before `fromMs`. Needs fromMs >= e.from.
 */
export function sliceEvents(e: DriverEvents, fromMs: number, toMs: number): DutyEventFacts[] {
  const list = e.events;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.at < fromMs) lo = mid + 1;
    else hi = mid;
  }
  // The last event of each type before the range: the status (and special category) it starts in
  // (the entry holds the two types only).
  const before: number[] = [];
  const seen = new Set<number>();
  for (let i = lo - 1; i >= 0 && seen.size < 2; i--) {
    const t = list[i]!.eventType;
    if (seen.has(t)) continue;
    seen.add(t);
    before.push(i);
  }
  before.sort((x, y) => x - y);
  const out: DutyEventFacts[] = before.map((i) => list[i]!);
  for (let i = lo; i < list.length && list[i]!.at < toMs; i++) out.push(list[i]!);
  return out;
}

/** Index of the first event at or after `ms` (binary search over the entry's sorted events). */
function firstEventAt(list: readonly DutyEventFacts[], ms: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.at < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Exactly `dutyPeriods(sliceEvents(e, fromMs, untilMs), untilMs)` (the plain reference; a random test
 * compares the two), without building a period object per period per request: the periods that start
 * inside the window are the entry's own periods (built once per entry), since the state entering the
 * window is the same in both; only the periods begun by the events before the window (at most two)
 * and the last one, cut at `untilMs`, are new objects. Needs fromMs >= e.from.
 */
export function windowPeriods(e: DriverEvents, fromMs: number, untilMs: number): MsPeriod[] {
  const all = (e.periods ??= dutyPeriods(e.events, Infinity));
  // The periods starting inside the window: by start, the first at or after fromMs.
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (all[mid]!.start < fromMs) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < all.length && all[end]!.start < untilMs) end++;
  // The head: what the last event of each type before the window begins, up to the window's first change.
  const list = e.events;
  const first = firstEventAt(list, fromMs);
  const before: DutyEventFacts[] = [];
  for (let i = first - 1, seen = 0; i >= 0 && seen !== 3; i--) {
    const bit = list[i]!.eventType === HOS_EVENT_TYPES.DUTY_STATUS ? 1 : 2;
    if (seen & bit) continue;
    seen |= bit;
    before.unshift(list[i]!);
  }
  const headEnd = Math.min(lo < end ? all[lo]!.start : Infinity, untilMs);
  const out = before.length ? dutyPeriods(before, headEnd) : [];
  for (let i = lo; i < end; i++) out.push(all[i]!);
  const last = out[out.length - 1];
  if (last && last.end > untilMs)
    out[out.length - 1] = last.special
      ? { status: last.status, start: last.start, end: untilMs, special: last.special }
      : { status: last.status, start: last.start, end: untilMs };
  return out;
}

/**
 * Most events kept per database client (about 150 bytes each with the text of their time): 600,000
 * (about 90 MB) holds 2,000 drivers' 4 weeks; the least recently used drivers go first.
 */
export const EVENT_CACHE_MAX_EVENTS = 600_000;

/** Drivers' events of one database, least recently used first. */
export class DriverEventsCache {
  private readonly entries = new Map<string, DriverEvents>();
  private events = 0;

  constructor(readonly maxEvents = EVENT_CACHE_MAX_EVENTS) {}

  /** Events held, all drivers together. */
  get eventCount(): number {
    return this.events;
  }

  get(driverId: string): DriverEvents | undefined {
    const e = this.entries.get(driverId);
    if (e) {
      this.entries.delete(driverId);
      this.entries.set(driverId, e);
    }
    return e;
  }

  set(driverId: string, e: DriverEvents): void {
    this.delete(driverId);
    this.entries.set(driverId, e);
    this.events += e.events.length;
    for (const [id] of this.entries) {
      if (this.events <= this.maxEvents || id === driverId) break;
      this.delete(id);
    }
  }

  delete(driverId: string): void {
    const old = this.entries.get(driverId);
    if (!old) return;
    this.entries.delete(driverId);
    this.events -= old.events.length;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** An organization's drivers' versions as of one fingerprint (sum and count of its hos_driver_versions rows). */
export interface OrgVersions {
  fingerprint: string;
  versions: Map<string, number>;
}

/** What one database client keeps for HoS reads. */
export class HosMemory {
  readonly events: DriverEventsCache;
  /** Per organization: its drivers' versions at the last fingerprint read. */
  readonly orgVersions = new LruMap<OrgVersions>(500);
  /** Per organization: its active drivers (the engine's columns and vehicle) at a drivers list version. */
  readonly drivers = new LruMap<{ version: string; rows: readonly FleetDriver[] }>(500);
  constructor(maxEvents?: number) {
    this.events = new DriverEventsCache(maxEvents);
  }
}

const memories = new WeakMap<object, HosMemory>();

/**
 * What one database client (a pool or an embedded database) keeps: tests open many side by side.
 * The first call for a client sets the events cap (the app does so at start-up from HOS_EVENT_CACHE_EVENTS).
 */
export function hosMemoryOf(client: object, maxEvents?: number): HosMemory {
  let m = memories.get(client);
  if (!m) memories.set(client, (m = new HosMemory(maxEvents)));
  return m;
}

export function eventsCacheOf(client: object, maxEvents?: number): DriverEventsCache {
  return hosMemoryOf(client, maxEvents).events;
}

/** The cache of a Drizzle database (not a transaction), or undefined for a transaction. */
export function eventsCacheOfDb(db: object, maxEvents?: number): DriverEventsCache | undefined {
  const client = (db as { $client?: object }).$client;
  return client ? eventsCacheOf(client, maxEvents) : undefined;
}
