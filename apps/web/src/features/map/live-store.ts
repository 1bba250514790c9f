import type { LiveVehicle, StreamRevoked, VehicleStatus } from '@fleet/api-contract';
import { STREAM_REVOKED_EVENT } from '@fleet/api-contract/auth';
import { parseStreamRevoked } from '../../lib/stream-revoked.ts';

// The live vehicles the map and the side list read. Server-Sent Events can bring thousands of
// updates a second; they are merged by vehicle and applied in one go, on an animation frame, at
// most every `liveApplyInterval` ms (traccar-web's throttle idea, frame-aligned). Each apply
// re-renders the side list and re-clusters the map's source, so a 5,000-vehicle fleet updating
// every second is applied once a second instead of 60 times (bench/map-fps.ts).

export type StatusCounts = Record<VehicleStatus, number>;

export interface LiveState {
  /** Bumped on every applied frame; cheap change detection for useSyncExternalStore. */
  version: number;
  vehicles: ReadonlyMap<string, LiveVehicle>;
  /** The same vehicles in unit-number order; re-sorted only when the set or a unit number changes. */
  sorted: readonly LiveVehicle[];
  counts: StatusCounts;
  /** False until the first snapshot. */
  loaded: boolean;
}

type Schedule = (cb: () => void) => unknown;

/**
 * Minimum time between two applies for a fleet of `size` vehicles: small fleets see every report
 * at once; big ones once a second, which is how often their devices report anyway.
 */
export function liveApplyInterval(size: number): number {
  return size > 1000 ? 1000 : size > 200 ? 500 : 0;
}

export interface LiveStoreOptions {
  /** Defaults to liveApplyInterval. */
  minInterval?: (size: number) => number;
  now?: () => number;
  delay?: (cb: () => void, ms: number) => unknown;
}

const emptyCounts = (): StatusCounts => ({ MOVING: 0, IDLING: 0, STOPPED: 0, OFFLINE: 0 });

export class LiveStore {
  private state: LiveState = { version: 0, vehicles: new Map(), sorted: [], counts: emptyCounts(), loaded: false };
  private pending = new Map<string, LiveVehicle>();
  private pendingSnapshot: LiveVehicle[] | null = null;
  private scheduled = false;
  private lastApply = -Infinity;
  private listeners = new Set<() => void>();
  private readonly minInterval: (size: number) => number;
  private readonly now: () => number;
  private readonly delay: (cb: () => void, ms: number) => unknown;

  /** `schedule` defaults to requestAnimationFrame (tests pass their own, and a clock). */
  constructor(
    private readonly schedule: Schedule = (cb) => requestAnimationFrame(cb),
    opts: LiveStoreOptions = {},
  ) {
    this.minInterval = opts.minInterval ?? liveApplyInterval;
    this.now = opts.now ?? (() => performance.now());
    this.delay = opts.delay ?? ((cb, ms) => setTimeout(cb, ms));
  }

  getState = (): LiveState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Replaces everything (a stream's `snapshot`, or the REST fallback). */
  setSnapshot(vehicles: LiveVehicle[]): void {
    this.pendingSnapshot = vehicles;
    this.pending.clear();
    this.request();
  }

  /** Queues changes; the newest fix of a vehicle wins, older ones arriving late are ignored. */
  update(vehicles: readonly LiveVehicle[]): void {
    for (const v of vehicles) {
      const queued = this.pending.get(v.assetId);
      if (!queued || queued.fixTime <= v.fixTime) this.pending.set(v.assetId, v);
    }
    this.request();
  }

  /** Applies what is queued now (the frame callback; also for tests). */
  flush = (): void => {
    this.scheduled = false;
    if (!this.pendingSnapshot && this.pending.size === 0) return;
    const next = new Map(this.pendingSnapshot ? this.pendingSnapshot.map((v) => [v.assetId, v] as const) : this.state.vehicles);
    // Positions change every second, the list order (by unit) almost never: keep it unless a
    // vehicle appeared, left or was renumbered.
    let reorder = this.pendingSnapshot !== null;
    for (const [id, v] of this.pending) {
      const cur = next.get(id);
      // A status change from the server's sweep has the same fix time: take it too.
      if (!cur || cur.fixTime <= v.fixTime) {
        if (!cur || cur.unitNumber !== v.unitNumber) reorder = true;
        next.set(id, v);
      }
    }
    const sorted = reorder ? [...next.values()].sort(byUnit) : this.state.sorted.map((v) => next.get(v.assetId)!);
    this.pending.clear();
    const loaded = this.state.loaded || this.pendingSnapshot !== null;
    this.pendingSnapshot = null;
    this.lastApply = this.now();
    const counts = emptyCounts();
    for (const v of next.values()) counts[v.status]++;
    this.state = { version: this.state.version + 1, vehicles: next, sorted, counts, loaded };
    for (const l of this.listeners) l();
  };

  private request(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // A snapshot is applied at once; changes wait out the interval since the last apply.
    const wait = this.pendingSnapshot ? 0 : this.lastApply + this.minInterval(this.state.vehicles.size) - this.now();
    if (wait <= 0) this.schedule(this.flush);
    else this.delay(() => this.schedule(this.flush), wait);
  }
}

export interface VehicleFilter {
  search?: string;
  status?: VehicleStatus | null;
  groupId?: string | null;
}

function matcher(f: VehicleFilter): (v: LiveVehicle) => boolean {
  const q = f.search?.trim().toLowerCase() ?? '';
  return (v) =>
    (!f.status || v.status === f.status) &&
    (!f.groupId || v.groupIds.includes(f.groupId)) &&
    (!q || v.unitNumber.toLowerCase().includes(q) || (v.driverName ?? '').toLowerCase().includes(q));
}

/**
 * What the side list shows: search by unit or driver, a status and a group filter, in unit order.
 * `presorted` says the input is already in unit order (LiveState.sorted), which saves a sort of
 * the whole fleet on every applied update.
 */
export function filterVehicles(vehicles: Iterable<LiveVehicle>, f: VehicleFilter, presorted = false): LiveVehicle[] {
  const keep = matcher(f);
  const out: LiveVehicle[] = [];
  for (const v of vehicles) if (keep(v)) out.push(v);
  return presorted ? out : out.sort(byUnit);
}

/** Vehicles per status among those the filter keeps (the status filter's own counts). */
export function countByStatus(vehicles: Iterable<LiveVehicle>, f: Omit<VehicleFilter, 'status'>): StatusCounts {
  const keep = matcher(f);
  const c = emptyCounts();
  for (const v of vehicles) if (keep(v)) c[v.status]++;
  return c;
}

// One collator for every sort: `localeCompare` with options builds a new one per comparison,
// which made sorting 5,000 units take tens of milliseconds.
const unitOrder = new Intl.Collator(undefined, { numeric: true });
const byUnit = (a: LiveVehicle, b: LiveVehicle) => unitOrder.compare(a.unitNumber, b.unitNumber);

/** The EventSource surface we use (the browser's, or a test double). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void): void;
  onerror: ((e: Event) => void) | null;
  onopen: ((e: Event) => void) | null;
  close(): void;
  readonly readyState: number;
}

export type LiveStreamStatus = 'open' | 'reconnecting' | 'closed';

export interface LiveStreamOptions {
  /**
   * The URL of one connection, asked for before every (re)connect: its ticket opens one stream
   * only, so EventSource must never reconnect to the same URL by itself.
   */
  url: (signal: AbortSignal) => Promise<string>;
  /** For the "reconnecting" / "stopped" badge. */
  onStatus?: (s: LiveStreamStatus) => void;
  /** True when `url` failed for good (no permission, organization gone): stop trying. Default: never. */
  isFatal?: (err: unknown) => boolean;
  /**
   * The server ended the stream because the user's access ended or changed (`revoked`). One new
   * connection follows, whose `url` (a ticket request) decides: signed out on a 401 whose refresh
   * fails, stopped on a 403 (isFatal), open again when the session goes on (a password changed here).
   */
  onRevoked?: (revoked: StreamRevoked) => void;
  /** Wait before reconnect attempt `n` (1, 2, …). Default: 1 s doubling up to 30 s, with jitter. */
  retryDelay?: (attempt: number) => number;
  create?: (url: string) => EventSourceLike;
  setTimer?: (cb: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** 1 s, 2 s, 4 s … 30 s, each between half and all of it so a restarted server is not hit by every map at once. */
export function defaultRetryDelay(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
}

/**
 * Connects the store to `GET …/assets/stream`. Each connection gets a fresh URL from `url` (a new
 * single-use ticket: EventSource cannot send the Authorization header). On any error the
 * EventSource is closed, not left to retry the spent URL, and a new connection follows after
 * `retryDelay`; the attempt count starts over once a connection opens. Returns `stop`.
 */
export function connectLiveStream(store: LiveStore, opts: LiveStreamOptions): () => void {
  const onStatus = opts.onStatus ?? (() => undefined);
  const isFatal = opts.isFatal ?? (() => false);
  const onRevoked = opts.onRevoked ?? (() => undefined);
  const retryDelay = opts.retryDelay ?? defaultRetryDelay;
  const create = opts.create ?? ((u) => new EventSource(u) as unknown as EventSourceLike);
  const setTimer = opts.setTimer ?? ((cb, ms) => setTimeout(cb, ms));
  const clearTimer = opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const abort = new AbortController();
  let source: EventSourceLike | null = null;
  let timer: unknown = null;
  let attempt = 0;

  const retry = () => {
    if (abort.signal.aborted) return;
    onStatus('reconnecting');
    attempt++;
    timer = setTimer(() => {
      timer = null;
      void connect();
    }, retryDelay(attempt));
  };

  const connect = async () => {
    let url: string;
    try {
      url = await opts.url(abort.signal);
    } catch (err) {
      if (abort.signal.aborted) return;
      if (isFatal(err)) onStatus('closed');
      else retry();
      return;
    }
    if (abort.signal.aborted) return;
    const es = create(url);
    source = es;
    es.addEventListener('snapshot', (e) => store.setSnapshot((JSON.parse(e.data) as { vehicles: LiveVehicle[] }).vehicles));
    es.addEventListener('positions', (e) => store.update((JSON.parse(e.data) as { vehicles: LiveVehicle[] }).vehicles));
    es.addEventListener(STREAM_REVOKED_EVENT, (e) => {
      // Not left to fail and retry the same way: the server said why it ended.
      es.close();
      if (source !== es) return;
      source = null;
      onRevoked(parseStreamRevoked(e.data));
      retry();
    });
    es.onopen = () => {
      attempt = 0;
      onStatus('open');
    };
    es.onerror = () => {
      es.close();
      if (source !== es) return;
      source = null;
      retry();
    };
  };

  void connect();
  return () => {
    abort.abort();
    if (timer !== null) clearTimer(timer);
    source?.close();
    source = null;
  };
}

/** The stream URL for an organization with a ticket from `POST …/assets/stream/ticket`, optionally one group. */
export function liveStreamUrl(orgId: string, ticket: string, groupId?: string | null): string {
  const q = new URLSearchParams({ ticket });
  if (groupId) q.set('group', groupId);
  return `/api/v1/organizations/${encodeURIComponent(orgId)}/assets/stream?${q.toString()}`;
}
