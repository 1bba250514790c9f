import { describe, expect, it } from 'vitest';
import { type AvlRecord, crc16Ibm, decodeAvlData, decodeAvlPacket, type DecodedAvlRecord, encodeAvlPacket, encodeImei, TeltonikaFrameError } from './codec.ts';
import { TeltonikaFrameSplitter } from './frames.ts';

// Teltonika's own protocol examples (wiki.teltonika-gps.com, "Codec"): one codec 8 and one codec 8E packet.
const WIKI_CODEC_8 = '000000000000003608010000016B40D8EA30010000000000000000000000000000000105021503010101425E0F01F10000601A014E0000000000000000010000C7CF';
const WIKI_CODEC_8E =
  '000000000000004A8E010000016B412CEE000100000000000000000000000000000000010005000100010100010011001D00010010015E2C880002000B000000003544C87A000E000000001DD7E06A00000100002994';

function record(over: Partial<AvlRecord> = {}): AvlRecord {
  return {
    timestamp: Date.UTC(2026, 10, 25, 9, 30, 0, 0),
    priority: 0,
    longitude: -87.6297982,
    latitude: 41.8781136,
    altitude: 181,
    angle: 270,
    satellites: 12,
    speed: 88,
    eventIoId: 0,
    io: new Map(),
    ...over,
  };
}

/** A decoded record without the wire widths of its values, to compare with what was encoded. */
const plain = ({ ioWidths: _widths, ...r }: DecodedAvlRecord): AvlRecord => r;
const plainPacket = (p: { codec: number; records: DecodedAvlRecord[] }) => ({ codec: p.codec, records: p.records.map(plain) });

describe('CRC-16/IBM', () => {
  it('matches the standard check value', () => {
    expect(crc16Ibm(Buffer.from('123456789', 'ascii'))).toBe(0xbb3d);
  });
});

describe('Teltonika codec', () => {
  it("decodes Teltonika's codec 8 example", () => {
    const { codec, records } = decodeAvlPacket(Buffer.from(WIKI_CODEC_8, 'hex'));
    expect(codec).toBe(8);
    expect(records).toHaveLength(1);
    const r = records[0]!;
    expect(r.timestamp).toBe(0x16b40d8ea30);
    expect(r.priority).toBe(1);
    expect(r.eventIoId).toBe(1);
    expect([...r.io]).toEqual([
      [0x15, 3],
      [0x01, 1],
      [0x42, 0x5e0f],
      [0xf1, 0x601a],
      [0x4e, 0n],
    ]);
  });

  it("decodes Teltonika's codec 8 Extended example", () => {
    const { codec, records } = decodeAvlPacket(Buffer.from(WIKI_CODEC_8E, 'hex'));
    expect(codec).toBe(0x8e);
    expect(records).toHaveLength(1);
    const r = records[0]!;
    expect(r.timestamp).toBe(0x16b412cee00);
    expect(r.io.get(0x11)).toBe(0x1d);
    expect(r.io.get(0x10)).toBe(0x015e2c88);
    expect(r.io.get(0x0b)).toBe(0x3544c87an);
    expect(r.io.get(0x0e)).toBe(0x1dd7e06an);
  });

  it('round-trips records through codec 8, negative coordinates and all value widths included', () => {
    const records = [
      record({
        io: new Map<number, number | bigint | Buffer>([
          [239, 1],
          [240, 0],
          [66, 12_845],
          [16, 123_456_789],
          [78, 0xfedcba9876543210n],
        ]),
      }),
      record({
        timestamp: Date.UTC(2026, 10, 25, 9, 30, 30),
        priority: 2,
        longitude: 151.2092955,
        latitude: -33.8688197,
        altitude: -12,
        eventIoId: 239,
        io: new Map([[239, 0]]),
      }),
    ];
    const frame = encodeAvlPacket(0x08, records);
    expect(frame.readUInt8(8)).toBe(8);
    expect(plainPacket(decodeAvlPacket(frame))).toEqual({ codec: 8, records });
  });

  it('round-trips codec 8 Extended with 2-byte ids and variable-length values (a VIN)', () => {
    const vin = Buffer.from('1FUJGLDR5CLBP8834', 'ascii');
    const records = Array.from({ length: 50 }, (_, i) =>
      record({
        timestamp: Date.UTC(2026, 10, 25, 9, 0, i),
        eventIoId: 385,
        io: new Map<number, number | bigint | Buffer>([
          [239, 1],
          [87, 987_654_321],
          [102, 301_290],
          [385, 0xabcd],
          [256, vin],
          [1148, Buffer.alloc(0)],
        ]),
      }),
    );
    const frame = encodeAvlPacket(0x8e, records);
    const decoded = decodeAvlPacket(frame);
    expect(decoded.codec).toBe(0x8e);
    expect(decoded.records.map(plain)).toEqual(records);
    expect((decoded.records[49]!.io.get(256) as Buffer).toString('ascii')).toBe('1FUJGLDR5CLBP8834');
  });

  it('refuses what it cannot encode', () => {
    expect(() => encodeAvlPacket(0x08, [record({ io: new Map([[256, Buffer.from('x')]]) })])).toThrow(RangeError);
    expect(() => encodeAvlPacket(0x08, [record({ io: new Map([[300, 1]]) })])).toThrow(RangeError);
    expect(() => encodeAvlPacket(0x08, [record({ io: new Map([[1, -1]]) })])).toThrow(RangeError);
    expect(() => encodeAvlPacket(0x08, [])).toThrow(RangeError);
  });

  it('refuses a corrupted CRC, a truncated frame and an unknown codec', () => {
    const good = encodeAvlPacket(0x8e, [record({ io: new Map([[239, 1]]) })]);
    const badCrc = Buffer.from(good);
    badCrc[20] = (badCrc[20] as number) ^ 0x01;
    expect(() => decodeAvlPacket(badCrc)).toThrow(expect.objectContaining({ reason: 'crc' }) as unknown as Error);
    expect(() => decodeAvlPacket(good.subarray(0, good.length - 1))).toThrow(TeltonikaFrameError);
    const codec13 = Buffer.from(good);
    codec13[8] = 0x0d;
    codec13.writeUInt32BE(crc16Ibm(codec13, 8, codec13.length - 4), codec13.length - 4);
    expect(() => decodeAvlPacket(codec13)).toThrow(
      expect.objectContaining({ reason: 'codec', message: expect.stringContaining('codec 13 is not supported') }) as unknown as Error,
    );
  });

  it('round-trips codec 16: 2-byte ids, 1-byte counts and the generation type', () => {
    const records = [
      record({
        eventIoId: 385,
        generationType: 5,
        io: new Map<number, number | bigint | Buffer>([
          [239, 1],
          [10800, 0xfb5d],
          [385, 123_456],
          [1148, 7n],
        ]),
      }),
      record({ timestamp: Date.UTC(2026, 10, 25, 9, 31), generationType: 7, io: new Map([[240, 0]]) }),
    ];
    const frame = encodeAvlPacket(0x10, records);
    expect(frame.readUInt8(8)).toBe(0x10);
    // The first record's IO: event id 0x0181, generation type 5, 4 elements; one 1-byte element with id 0x00ef.
    expect(frame.subarray(10 + 24, 10 + 24 + 8).toString('hex')).toBe('0181' + '05' + '04' + '01' + '00ef' + '01');
    const decoded = decodeAvlPacket(frame);
    expect(plainPacket(decoded)).toEqual({ codec: 0x10, records });
    expect([...decoded.records[0]!.ioWidths]).toEqual([
      [239, 1],
      [10800, 2],
      [385, 4],
      [1148, 8],
    ]);
  });

  it('reads a UDP data field (no preamble, no CRC) as the TCP frame around it', () => {
    const frame = encodeAvlPacket(0x08, [record({ io: new Map([[239, 1]]) })]);
    expect(decodeAvlData(frame, 8, frame.length - 4)).toEqual(decodeAvlPacket(frame));
  });
});

describe('Teltonika frame splitter', () => {
  it('cuts a stream delivered byte by byte, and several messages delivered at once', () => {
    const imei = encodeImei('356307042441013');
    const a = encodeAvlPacket(0x08, [record({ io: new Map([[239, 1]]) })]);
    const b = encodeAvlPacket(0x8e, [record(), record()]);
    const stream = Buffer.concat([imei, a, Buffer.from([0xff]), b]);

    const oneByOne = new TeltonikaFrameSplitter();
    const got = [];
    for (const byte of stream) got.push(...oneByOne.push(Buffer.from([byte])));
    expect(got).toEqual([
      { kind: 'imei', imei: '356307042441013' },
      { kind: 'avl', frame: a },
      { kind: 'avl', frame: b },
    ]);
    expect(oneByOne.pending).toBe(0);

    const atOnce = new TeltonikaFrameSplitter();
    expect(atOnce.push(stream).map((m) => m.kind)).toEqual(['imei', 'avl', 'avl']);
  });

  it('refuses a frame over the size limit before it arrives, and garbage', () => {
    const big = encodeAvlPacket(
      0x8e,
      Array.from({ length: 40 }, () => record({ io: new Map([[256, Buffer.alloc(200)]]) })),
    );
    expect(() => new TeltonikaFrameSplitter(1024).push(big.subarray(0, 8))).toThrow(TeltonikaFrameError);
    expect(() => new TeltonikaFrameSplitter().push(Buffer.from('0000ffff00000000', 'hex'))).toThrow(TeltonikaFrameError);
  });
});
