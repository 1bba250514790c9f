import type { LiveVehicle } from '@fleet/api-contract';
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
  return { schedule: (cb: () => void) => queue.push(cb), run: () => queue.splice(0).forEach((cb) => cb()), get pending() { return queue.length; } };
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
    expect(store.getState().sorted.map((v) => [v.unitNumber, v.latitude])).toEqual([['T9', 35], ['T10', 36]]);
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

describe('connectLiveStream', () => {
  it('feeds snapshot and position events into the store and reports reconnection', () => {
    const listeners = new Map<string, (e: MessageEvent<string>) => void>();
    const es: EventSourceLike & { readyState: number } = {
      addEventListener: (type, l) => listeners.set(type, l),
      onerror: null,
      onopen: null,
      close: vi.fn(),
      readyState: 0,
    };
    const f = frames();
    const store = new LiveStore(f.schedule, { minInterval: () => 0 });
    const status = vi.fn();
    const created: string[] = [];
    const stop = connectLiveStream(store, '/stream', status, (u) => (created.push(u), es));
    expect(created).toEqual(['/stream']);
    const v = vehicle();
    es.onopen?.(new Event('open'));
    listeners.get('snapshot')!(new MessageEvent('snapshot', { data: JSON.stringify({ vehicles: [v] }) }));
    listeners.get('positions')!(new MessageEvent('positions', { data: JSON.stringify({ vehicles: [{ ...v, speed: 12, fixTime: '2026-11-20T12:00:05.000Z' }] }) }));
    f.run();
    expect(store.getState().vehicles.get(v.assetId)!.speed).toBe(12);
    es.onerror?.(new Event('error'));
    expect(status.mock.calls.map((c) => c[0])).toEqual(['open', 'reconnecting']);
    stop();
    expect(es.close).toHaveBeenCalled();
  });

  it('builds the stream URL with the token and group', () => {
    expect(liveStreamUrl('org-1', 'tok en', 'g-1')).toBe('/api/v1/organizations/org-1/assets/stream?access_token=tok+en&group=g-1');
  });
});
