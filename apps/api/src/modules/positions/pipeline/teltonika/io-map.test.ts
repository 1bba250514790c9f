import { TELTONIKA_DEFAULT_IO_MAP } from '@fleet/api-contract';
import { describe, expect, it } from 'vitest';
import { decodeAvlPacket } from './codec.ts';
import { effectiveIoMap, ioAttributes } from './io-map.ts';
import { TRACCAR_FRAMES } from './traccar-frames.ts';

describe('Teltonika IO map', () => {
  it("uses the model's map when it has one, else Teltonika's default", () => {
    expect(effectiveIoMap({})).toBe(TELTONIKA_DEFAULT_IO_MAP);
    expect(effectiveIoMap(null)).toBe(TELTONIKA_DEFAULT_IO_MAP);
    const own = { '1': { attribute: 'ignition' } };
    expect(effectiveIoMap(own)).toBe(own);
  });

  it('names elements with their unit, keeps every raw element, and reads the VIN as ASCII', () => {
    const io = new Map<number, number | bigint | Buffer>([
      [239, 1],
      [240, 0],
      [66, 12_845],
      [102, 90],
      [87, 4_000_000_000n],
      [256, Buffer.from('WV1ZZZ2EZ86015388\u0000\u0000', 'latin1')],
      [11, 0xffffffffffffffffn],
      [999, 7],
    ]);
    expect(ioAttributes(io, TELTONIKA_DEFAULT_IO_MAP)).toEqual({
      ignition: true,
      motion: false,
      power: 12.845,
      engineHours: 1.5,
      vehicleOdometer: 4_000_000_000,
      vin: 'WV1ZZZ2EZ86015388',
      io: { '239': 1, '240': 0, '66': 12_845, '102': 90, '87': 4_000_000_000, '256': Buffer.from('WV1ZZZ2EZ86015388\u0000\u0000', 'latin1').toString('hex'), '11': 'ffffffffffffffff', '999': 7 },
    });
  });

  it("maps a real CAN adapter's frame (Traccar's line 55): ignition, movement, voltage, GNSS odometer, VIN", () => {
    const r = decodeAvlPacket(Buffer.from(TRACCAR_FRAMES.find((f) => f.line === 55)!.hex, 'hex')).records[0]!;
    expect(ioAttributes(r.io, TELTONIKA_DEFAULT_IO_MAP)).toMatchObject({ ignition: true, motion: true, power: 14.304, gpsOdometer: 41_397, vin: 'WV1ZZZ2EZ86015388' });
  });
});
