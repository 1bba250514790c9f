import { TELTONIKA_DEFAULT_IO_MAP } from '@fleet/api-contract';
import { describe, expect, it } from 'vitest';
import { decodeAvlPacket } from './codec.ts';
import { effectiveIoMap, ioAttributes } from './io-map.ts';
import { TRACCAR_FRAMES } from './traccar-frames.ts';
import { faultReport } from '../../../engine-faults/index.ts';

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
      io: {
        '239': 1,
        '240': 0,
        '66': 12_845,
        '102': 90,
        '87': 4_000_000_000,
        '256': Buffer.from('WV1ZZZ2EZ86015388\u0000\u0000', 'latin1').toString('hex'),
        '11': 'ffffffffffffffff',
        '999': 7,
      },
    });
  });

  it("maps a real CAN adapter's frame (Traccar's line 55): ignition, movement, voltage, GNSS odometer, VIN", () => {
    const r = decodeAvlPacket(Buffer.from(TRACCAR_FRAMES.find((f) => f.line === 55)!.hex, 'hex')).records[0]!;
    expect(ioAttributes(r.io, TELTONIKA_DEFAULT_IO_MAP)).toMatchObject({
      ignition: true,
      motion: true,
      power: 14.304,
      gpsOdometer: 41_397,
      vin: 'WV1ZZZ2EZ86015388',
    });
  });

  it("reads a real FMB frame's Fault Codes (281, Traccar's line 55) through Teltonika's default map", () => {
    const r = decodeAvlPacket(Buffer.from(TRACCAR_FRAMES.find((f) => f.line === 55)!.hex, 'hex')).records[0]!;
    const attributes = ioAttributes(r.io, TELTONIKA_DEFAULT_IO_MAP);
    expect(attributes.dtcs).toBe('P0299,P0675,P0674,P0672,P0671,P0471,P2BAC');
    const report = faultReport(attributes)!;
    expect(report.malformed).toBe(0);
    expect(report.channels).toHaveLength(1);
    expect(report.channels[0]).toMatchObject({ channel: 'dtcs', kind: 'LIST' });
    expect(report.channels[0]!.faults.map((f) => f.code)).toEqual(['P0299', 'P0675', 'P0674', 'P0672', 'P0671', 'P0471', 'P2BAC']);
    expect(report.channels[0]!.faults.every((f) => f.source === 'OBD')).toBe(true);
  });
});
