import { TELTONIKA_DEFAULT_IO_MAP } from '@fleet/api-contract';
import { describe, expect, it } from 'vitest';
import { decodeAvlPacket } from './codec.ts';
import { effectiveIoMap, ioAttributes, numberOf, temperaturesOf } from './io-map.ts';
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

  it("reads the EYE sensor's -11.87 °C in a real frame (Traccar's line 153: 10800 = 0xfb5d), not the raw 64349", () => {
    const r = decodeAvlPacket(Buffer.from(TRACCAR_FRAMES.find((f) => f.line === 153)!.hex, 'hex')).records[0]!;
    expect(r.io.get(10800)).toBe(64_349);
    const attributes = ioAttributes(r.io, TELTONIKA_DEFAULT_IO_MAP, r.ioWidths);
    expect(attributes.eyeTemp1).toBe(-11.87);
    expect((attributes.io as Record<string, unknown>)['10800']).toBe(64_349);
    expect(temperaturesOf(attributes, TELTONIKA_DEFAULT_IO_MAP)).toContainEqual({ sensor: 'eyeTemp1', celsius: -11.87 });
  });

  it('signed values by the width they came with, negative and fractional multipliers, "no reading" values, driver cards', () => {
    const io = new Map<number, number | bigint | Buffer>([
      [25, 0xfb5d], // BLE temperature 1: -11.87 °C
      [26, 3000], // BLE temperature 2: sensor not found
      [72, 0xffffff9c], // 1-Wire temperature 1, 4 bytes: -100 -> -10.0 °C
      [73, 850], // 1-Wire temperature 2: not ready
      [86, 457], // BLE humidity 1: 45.7 %
      [29, 87], // BLE battery 1: 87 %
      [10808, 1], // EYE magnet 1
      [78, 0x1a0000004d5e2c01n], // iButton
      [500, 0xff], // a custom element: signed 1 byte, multiplier -0.5 -> 0.5
      [501, Buffer.from('fffe', 'hex')], // a variable-length signed value: -2
    ]);
    const widths = new Map([
      [25, 2],
      [26, 2],
      [72, 4],
      [73, 4],
      [86, 2],
      [29, 1],
      [10808, 1],
      [78, 8],
      [500, 1],
    ]);
    const map = {
      ...TELTONIKA_DEFAULT_IO_MAP,
      '500': { attribute: 'custom', multiplier: -0.5, signed: true },
      '501': { attribute: 'customBytes', signed: true },
    };
    const a = ioAttributes(io, map, widths);
    expect(a).toMatchObject({
      bleTemp1: -11.87,
      dallasTemp1: -10,
      bleHumidity1: 45.7,
      bleBattery1: 87,
      eyeMagnet1: 1,
      driverCard: '1A0000004D5E2C01',
      custom: 0.5,
      customBytes: -2,
    });
    expect(a).not.toHaveProperty('bleTemp2');
    expect(a).not.toHaveProperty('dallasTemp2');
    expect(temperaturesOf(a, map)).toEqual([
      { sensor: 'bleTemp1', celsius: -11.87 },
      { sensor: 'dallasTemp1', celsius: -10 },
    ]);
    // An iButton of 0 is no card.
    expect(ioAttributes(new Map([[78, 0n]]), map)).not.toHaveProperty('driverCard');
    // Without the wire width a signed element reads as it came (an older caller).
    expect(ioAttributes(new Map([[25, 0xfb5d]]), map).bleTemp1).toBe(643.49);
  });

  it("numberOf's two's complement matches a plain reading of random bytes", () => {
    for (let i = 0; i < 500; i++) {
      const width = ([1, 2, 4, 8] as const)[i % 4]!;
      const bytes = Buffer.from(Array.from({ length: width }, () => Math.floor(Math.random() * 256)));
      const unsigned = width === 8 ? bytes.readBigUInt64BE(0) : bytes.readUIntBE(0, width);
      const expected = width === 8 ? Number(bytes.readBigInt64BE(0)) : bytes.readIntBE(0, width);
      expect(numberOf(unsigned, width)).toBe(expected);
    }
  });
});
