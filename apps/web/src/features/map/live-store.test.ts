// @vitest-environment node
import type { LiveVehicle, StreamRevoked } from '@fleet/api-contract';
import { describe, expect, it, vi } from 'vitest';
import { connectLiveStream, countByStatus, filterVehicles, liveApplyInterval, liveStreamUrl, LiveStore, type EventSourceLike } from './live-store.ts';

let n = 0;
const vehicle = (over: Partial<LiveVehicle> = {}): LiveVehicle => ({
  assetId: `a-${++n}`,
  unitNumber: String(100 + n),
  gatewayId: 'g',
  driverId: null,
  driverName: null,
  latitude: 35,
  longitude: -97,
  speed: 90,
  course: 90,
  ignition: true,
  fixTime: '2026-11-20T12:00:00.000Z',
  status: 'MOVING',
  statusSince: null,
  groupIds: [],
  ...over,
});

/** A frame scheduler the test advances by hand. */
function frames() {
  const queue: Array<() => void> = [];
  return {
    schedule: (cb: () => void) => queue.push(cb),
    run: () => queue.splice(0).forEach((cb) => cb()),
    get pending() {
      return queue.length;
    },
  };
}

describe('LiveStore', () => {
  it('keeps the vehicles in unit order, re-sorting only when a vehicle appears or is renumbered', () => {
    const f = frames();
    const store = new LiveStore(f.schedule, { minInterval: () => 0 });
    const a = vehicle({ unitNumber: 'T10' });
    const b = vehicle({ unitNumber: 'T9' });
    store.setSnapshot([a, b]);
    f.run();
    expect(store.getState().sorted.map((v) => v.unitNumber)).toEqual(['T9', 'T10']);
    // A new position keeps the order and carries the new fix.
    store.update([{ ...a, latitude: 36, fixTime: '2026-11-20T12:00:05.000Z' }]);
    f.run();
    expect(store.getState().sorted.map((v) => [v.unitNumber, v.latitude])).toEqual([
      ['T9', 35],
      ['T10', 36],
    ]);
    // A vehicle that appears and one that is renumbered take their places.
    const c = vehicle({ unitNumber: 'T1' });
    store.update([c, { ...b, unitNumber: 'T99', fixTime: '2026-11-20T12:00:06.000Z' }]);
    f.run();
    expect(store.getState().sorted.map((v) => v.unitNumber)).toEqual(['T1', 'T10', 'T99']);
    expect(filterVehicles(store.getState().sorted, { search: 't' }, true).map((v) => v.unitNumber)).toEqual(['T1', 'T10', 'T99']);
  });

  it('counts vehicles per status under the search and group filters', () => {
    const vs = [vehicle({ status: 'MOVING', groupIds: ['g1'] }), vehicle({ status: 'STOPPED', groupIds: ['g1'] }), vehicle({ status: 'STOPPED' })];
    expect(countByStatus(vs, {})).toEqual({ MOVING: 1, IDLING: 0, STOPPED: 2, OFFLINE: 0 });
    expect(countByStatus(vs, { groupId: 'g1' })).toEqual({ MOVING: 1, IDLING: 0, STOPPED: 1, OFFLINE: 0 });
    expect(countByStatus(vs, { search: vs[0]!.unitNumber })).toEqual({ MOVING: 1, IDLING: 0, STOPPED: 0, OFFLINE: 0 });
  });

  it('applies a burst of updates once per frame, newest fix per vehicle winning', () => {
    const f = frames();
    const store = new LiveStore(f.schedule, { minInterval: () => 0 });
    const listener = vi.fn();
    store.subscribe(listener);
    const a = vehicle();
    store.setSnapshot([a]);
    f.run();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getState()).toMatchObject({ loaded: true, counts: { MOVING: 1, IDLING: 0, STOPPED: 0, OFFLINE: 0 } });

    for (let i = 0; i < 500; i++) store.update([{ ...a, latitude: 35 + i / 1000, fixTime: new Date(Date.UTC(2026, 10, 20, 12, 0, i)).toISOString() }]);
    store.update([{ ...a, latitude: 1, fixTime: '2026-11-20T11:00:00.000Z' }]);
    expect(f.pending).toBe(1);
    expect(listener).toHaveBeenCalledTimes(1);
    f.run();
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.getState().vehicles.get(a.assetId)!.latitude).toBeCloseTo(35.499, 6);
  });

  it('counts statuses and keeps the state object stable between frames', () => {
    const f = frames();
    const store = new LiveStore(f.schedule, { minInterval: () => 0 });
    store.setSnapshot([vehicle(), vehicle({ status: 'IDLING' }), vehicle({ status: 'OFFLINE' }), vehicle({ status: 'OFFLINE' })]);
    f.run();
    const s = store.getState();
    expect(s.counts).toEqual({ MOVING: 1, IDLING: 1, STOPPED: 0, OFFLINE: 2 });
    expect(store.getState()).toBe(s);
    f.run();
    expect(store.getState()).toBe(s);
  });
});

describe('LiveStore with a big fleet', () => {
  it('applies changes at most once a second above 1,000 vehicles, a snapshot at once', () => {
    const f = frames();
    let clock = 0;
    const timers: Array<{ at: number; cb: () => void }> = [];
    const store = new LiveStore(f.schedule, { now: () => clock, delay: (cb, ms) => timers.push({ at: clock + ms, cb }) });
    const fleet = Array.from({ length: 1500 }, () => vehicle());
    store.setSnapshot(fleet);
    f.run();
    expect(store.getState().vehicles.size).toBe(1500);
    const listener = vi.fn();
    store.subscribe(listener);

    clock = 100;
    store.update([{ ...fleet[0]!, speed: 1, fixTime: '2026-11-20T12:00:01.000Z' }]);
    store.update([{ ...fleet[1]!, speed: 2, fixTime: '2026-11-20T12:00:01.000Z' }]);
    // Nothing on the next frame: the second is not over yet.
    expect(f.pending).toBe(0);
    expect(timers.map((t) => t.at)).toEqual([1000]);
    clock = 1000;
    timers.shift()!.cb();
    f.run();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getState().vehicles.get(fleet[1]!.assetId)!.speed).toBe(2);

    // A snapshot (reconnect) does not wait.
    clock = 1100;
    store.setSnapshot(fleet.slice(0, 10));
    expect(f.pending).toBe(1);
  });

  it('applies at once for a small fleet', () => {
    expect(liveApplyInterval(25)).toBe(0);
    expect(liveApplyInterval(5000)).toBe(1000);
  });
});

describe('filterVehicles', () => {
  const list = [
    vehicle({ unitNumber: '110', driverName: 'Maria Garcia', status: 'MOVING', groupIds: ['g1'] }),
    vehicle({ unitNumber: '102', driverName: 'Tom Nguyen', status: 'STOPPED' }),
    vehicle({ unitNumber: '9', driverName: null, status: 'MOVING' }),
  ];
  it('searches unit and driver, filters status and group, sorts units naturally', () => {
    expect(filterVehicles(list, {}).map((v) => v.unitNumber)).toEqual(['9', '102', '110']);
    expect(filterVehicles(list, { search: 'garc' }).map((v) => v.unitNumber)).toEqual(['110']);
    expect(filterVehicles(list, { status: 'MOVING' }).map((v) => v.unitNumber)).toEqual(['9', '110']);
    expect(filterVehicles(list, { groupId: 'g1' }).map((v) => v.unitNumber)).toEqual(['110']);
  });
});

/** An EventSource double the test drives: events, open, error. */
function fakeSource(url: string) {
  const listeners = new Map<string, (e: MessageEvent<string>) => void>();
  const es = {
    url,
    addEventListener: (type: string, l: (e: MessageEvent<string>) => void) => listeners.set(type, l),
    onerror: null as ((e: Event) => void) | null,
    onopen: null as ((e: Event) => void) | null,
    close: vi.fn(),
    readyState: 0,
    emit: (type: string, data: unknown) => listeners.get(type)!(new MessageEvent(type, { data: JSON.stringify(data) })),
  } satisfies EventSourceLike & Record<string, unknown>;
  return es;
}

/** connectLiveStream with tickets t1, t2, … (or failures), sources and timers held by the test. */
function harness(tickets: Array<string | Error>, isFatal?: (e: unknown) => boolean, onRevoked?: (r: StreamRevoked) => void) {
  const sources: Array<ReturnType<typeof fakeSource>> = [];
  const timers: Array<{ cb: () => void; ms: number; cleared: boolean }> = [];
  const status = vi.fn();
  const asked = vi.fn();
  const f = frames();
  const store = new LiveStore(f.schedule, { minInterval: () => 0 });
  const stop = connectLiveStream(store, {
    url: async () => {
      asked();
      const t = tickets.shift();
      if (t === undefined || t instanceof Error) throw t ?? new Error('no ticket left');
      return liveStreamUrl('org-1', t);
    },
    onStatus: status,
    isFatal,
    onRevoked,
    retryDelay: (attempt) => attempt * 1000,
    create: (u) => {
      const es = fakeSource(u);
      sources.push(es);
      return es;
    },
    setTimer: (cb, ms) => {
      const t = { cb, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearTimer: (h) => ((h as { cleared: boolean }).cleared = true),
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { sources, timers, status, asked, store, frames: f, stop, settle };
}

describe('connectLiveStream', () => {
  it('opens the stream with a ticket and feeds snapshot and position events into the store', async () => {
    const h = harness(['t1']);
    await h.settle();
    expect(h.sources.map((s) => s.url)).toEqual(['/api/v1/organizations/org-1/assets/stream?ticket=t1']);
    const es = h.sources[0]!;
    const v = vehicle();
    es.onopen?.(new Event('open'));
    es.emit('snapshot', { vehicles: [v] });
    es.emit('positions', { vehicles: [{ ...v, speed: 12, fixTime: '2026-11-20T12:00:05.000Z' }] });
    h.frames.run();
    expect(h.store.getState().vehicles.get(v.assetId)!.speed).toBe(12);
    expect(h.status.mock.calls.map((c) => c[0])).toEqual(['open']);
    h.stop();
    expect(es.close).toHaveBeenCalled();
  });

  it('on an error closes the source (its ticket is spent) and reconnects with a new ticket after a growing delay', async () => {
    const h = harness(['t1', 't2', 't3']);
    await h.settle();
    const first = h.sources[0]!;
    first.onopen?.(new Event('open'));
    first.onerror?.(new Event('error'));
    // EventSource would retry the same URL by itself: it is closed instead.
    expect(first.close).toHaveBeenCalled();
    expect(h.status.mock.calls.map((c) => c[0])).toEqual(['open', 'reconnecting']);
    expect(h.timers.map((t) => t.ms)).toEqual([1000]);
    h.timers[0]!.cb();
    await h.settle();
    expect(h.sources.map((s) => s.url.split('?')[1])).toEqual(['ticket=t1', 'ticket=t2']);
    // It fails again before opening: the next wait is longer.
    h.sources[1]!.onerror?.(new Event('error'));
    expect(h.timers.map((t) => t.ms)).toEqual([1000, 2000]);
    h.timers[1]!.cb();
    await h.settle();
    h.sources[2]!.onopen?.(new Event('open'));
    expect(h.sources.map((s) => s.url.split('?')[1])).toEqual(['ticket=t1', 'ticket=t2', 'ticket=t3']);
    expect(h.status.mock.calls.at(-1)![0]).toBe('open');
    h.stop();
  });

  it('retries when the ticket request fails, and stops for good on a fatal answer', async () => {
    const forbidden = Object.assign(new Error('no permission'), { fatal: true });
    const h = harness([new Error('network down'), forbidden], (e) => (e as { fatal?: boolean }).fatal === true);
    await h.settle();
    expect(h.sources).toHaveLength(0);
    expect(h.status.mock.calls.map((c) => c[0])).toEqual(['reconnecting']);
    h.timers[0]!.cb();
    await h.settle();
    expect(h.asked).toHaveBeenCalledTimes(2);
    expect(h.status.mock.calls.map((c) => c[0])).toEqual(['reconnecting', 'closed']);
    expect(h.timers).toHaveLength(1);
    h.stop();
  });

  it('on `revoked` tells why, closes the source and asks for one new ticket, whose refusal stops it (never a loop)', async () => {
    const forbidden = Object.assign(new Error('no permission'), { fatal: true });
    const revoked = vi.fn();
    const h = harness(['t1', forbidden], (e) => (e as { fatal?: boolean }).fatal === true, revoked);
    await h.settle();
    const es = h.sources[0]!;
    es.onopen?.(new Event('open'));
    es.emit('revoked', { reason: 'forbidden', message: 'You no longer have access to this.' });
    expect(revoked).toHaveBeenCalledWith({ reason: 'forbidden', message: 'You no longer have access to this.' });
    expect(es.close).toHaveBeenCalled();
    // The end of the stream that follows is not a second reconnect.
    es.onerror?.(new Event('error'));
    expect(h.timers).toHaveLength(1);
    h.timers[0]!.cb();
    await h.settle();
    expect(h.asked).toHaveBeenCalledTimes(2);
    expect(h.sources).toHaveLength(1);
    expect(h.status.mock.calls.map((c) => c[0])).toEqual(['open', 'reconnecting', 'closed']);
    h.stop();
  });

  it('reads an unreadable `revoked` as the end of the session', async () => {
    const revoked = vi.fn();
    const h = harness(['t1'], undefined, revoked);
    await h.settle();
    h.sources[0]!.emit('revoked', 'not an object');
    expect(revoked.mock.calls[0]![0]).toMatchObject({ reason: 'session' });
    h.stop();
  });

  it('stop cancels a pending reconnect and a ticket that arrives afterwards opens nothing', async () => {
    const h = harness(['t1', 't2']);
    await h.settle();
    h.sources[0]!.onerror?.(new Event('error'));
    h.stop();
    expect(h.timers[0]!.cleared).toBe(true);
    const late = harness(['t1']);
    late.stop();
    await late.settle();
    expect(late.sources).toHaveLength(0);
  });

  it('builds the stream URL with the ticket and group, never an access token', () => {
    expect(liveStreamUrl('org-1', 'tick et', 'g-1')).toBe('/api/v1/organizations/org-1/assets/stream?ticket=tick+et&group=g-1');
  });
});
