import type { AvlRecord } from '../modules/positions/pipeline/teltonika/codec.ts';

/** A Teltonika AVL record of a truck near Kansas City at 72 km/h, the i-th of a run 30 s apart from `start`, with `io` (tests). */
export function testAvlRecord(start: number, i: number, io: AvlRecord['io'] = new Map(), over: Partial<AvlRecord> = {}): AvlRecord {
  return {
    timestamp: start + i * 30_000,
    priority: 0,
    longitude: -94.5786 + i * 0.001,
    latitude: 39.0997,
    altitude: 270,
    angle: 90,
    satellites: 11,
    speed: 72,
    eventIoId: 0,
    io,
    ...over,
  };
}
