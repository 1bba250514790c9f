// Each driver's active duty events kept in memory between requests (decision 0098): the fleet reads
// (availability, violations, the daily list) need every driver's last 15 days or more, which is far
// too many rows to read and parse on every page. An entry is keyed on the driver's highest sequence
// id: every write to a driver's records takes a new one (an import, a new status, an edit's new
// version; the ELD rule is that a record is never changed in place), so a request that finds the
// number unchanged in the database may use the entry, and any instance sees another's writes.
import type { DutyEventFacts } from './hos.periods.ts';

/** One driver's active duty-status and special-category events, sorted by time then sequence. */
export interface DriverEvents {
  /** The driver's highest sequence id (all events, all statuses) read before the events were. */
  version: number;
  /** Every event at or after this instant is here, and the last of each type before it. */
  from: number;
  /**
   * The events with their time already formatted, built once: a request slices references and
   * allocates no event of its own (at 2,000 drivers the garbage collector was most of a page).
   */
  events: readonly DutyEventFacts[];
}

/** Packs events already sorted by time then sequence. */
export function packEvents(events: ReadonlyArray<DutyEventFacts & { seq: number }>, version: number, from: number): DriverEvents {
  return { version, from, events: events.map((x) => ({ eventType: x.eventType, eventCode: x.eventCode, at: x.at, iso: new Date(x.at).toISOString() })) };
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

const caches = new WeakMap<object, DriverEventsCache>();

/**
 * The cache of one database client (a pool or an embedded database): tests open many side by side.
 * The first call for a client sets its cap (the app does so at start-up from HOS_EVENT_CACHE_EVENTS).
 */
export function eventsCacheOf(client: object, maxEvents?: number): DriverEventsCache {
  let c = caches.get(client);
  if (!c) caches.set(client, (c = new DriverEventsCache(maxEvents)));
  return c;
}

/** The cache of a Drizzle database (not a transaction), or undefined for a transaction. */
export function eventsCacheOfDb(db: object, maxEvents?: number): DriverEventsCache | undefined {
  const client = (db as { $client?: object }).$client;
  return client ? eventsCacheOf(client, maxEvents) : undefined;
}
