import { describe, expect, it } from 'vitest';
import { decodeAvlData, decodeAvlPacket, type DecodedAvlRecord, encodeAvlPacket, TeltonikaFrameError } from './codec.ts';
import { TRACCAR_FRAME_BAD_CRC, TRACCAR_FRAMES, TRACCAR_FRAMES_16_AND_7, TRACCAR_SOURCE, TRACCAR_SOURCE_2 } from './traccar-frames.ts';

// Real devices' frames (Traccar's decoder tests, see traccar-frames.ts). Expected values read off the
// hex: a record is time (8 bytes, ms) | priority (1) | longitude, latitude (4 each, signed, 1e-7°) | ...
// e.g. line 97's last record `0000015d12b276c0 00 fadaa73f 18678ae6 ...`: 0xfadaa73f = -86333633
// (-8.6333633°), 0x18678ae6 = 409438950 (40.943895°), and the frame's last count byte 0x0e = 14.

// line, codec, records, first time, last time, first lat, lon, last lat, lon
const EXPECTED: readonly [number, number, number, string, string, number, number, number, number][] = [
  [19, 0x8e, 2, '2025-06-13T15:18:07.000Z', '2025-06-13T15:17:50.011Z', 41.4349316, 2.2190583, 41.4349316, 2.2190583],
  [22, 0x8e, 1, '2024-06-03T04:11:04.011Z', '2024-06-03T04:11:04.011Z', -27.4388733, 153.080315, -27.4388733, 153.080315],
  [40, 0x8e, 4, '2022-08-16T14:14:43.091Z', '2022-08-16T14:14:33.101Z', -33.7335583, -70.7196233, -33.7338166, -70.7199066],
  [55, 0x8e, 1, '2021-04-08T10:52:26.000Z', '2021-04-08T10:52:26.000Z', 52.0296716, 6.7877833, 52.0296716, 6.7877833],
  [58, 0x8e, 2, '2020-08-31T06:00:56.001Z', '2020-08-31T06:00:26.001Z', 55.365185, 10.2598799, 55.365185, 10.2598799],
  [76, 0x8e, 1, '2018-11-05T10:26:18.000Z', '2018-11-05T10:26:18.000Z', 54.6708533, 25.2545883, 54.6708533, 25.2545883],
  [153, 0x8e, 1, '2024-11-06T10:57:17.000Z', '2024-11-06T10:57:17.000Z', -6.2906716, 106.8097266, -6.2906716, 106.8097266],
  [97, 0x08, 14, '2017-07-05T12:49:14.000Z', '2017-07-05T12:21:12.000Z', 40.9420533, -8.6313433, 40.943895, -8.6333633],
  [100, 0x08, 8, '2017-02-24T20:25:28.000Z', '2017-02-25T14:20:03.000Z', 50.8797408, 5.0109436, 50.8795968, 5.0107116],
  [121, 0x08, 6, '2013-04-30T09:58:03.211Z', '2013-05-01T01:58:12.201Z', -6.27658, 106.7956096, -6.2766352, 106.7955712],
  [46, 0x08, 3, '2022-08-12T20:54:20.000Z', '2022-08-12T10:53:23.000Z', 55.9511166, 23.291255, 55.9510533, 23.2913183],
  [88, 0x08, 1, '2018-03-28T00:00:25.000Z', '2018-03-28T00:00:25.000Z', 48.2316083, 17.367425, 48.2316083, 17.367425],
  [142, 0x08, 1, '2017-09-25T03:17:54.000Z', '2017-09-25T03:17:54.000Z', 56.8255366, 60.4544333, 56.8255366, 60.4544333],
  [145, 0x08, 1, '2017-09-26T02:56:53.000Z', '2017-09-26T02:56:53.000Z', 56.9463366, 60.5131366, 56.9463366, 60.5131366],
];

const frame = (line: number): Buffer => Buffer.from(TRACCAR_FRAMES.find((f) => f.line === line)!.hex, 'hex');

describe("Traccar's captured Teltonika frames", () => {
  it('record where they came from', () => {
    expect(TRACCAR_SOURCE).toMatchObject({ repository: 'https://github.com/traccar/traccar', licence: expect.stringContaining('Apache-2.0') as string });
    expect(TRACCAR_SOURCE.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(TRACCAR_FRAMES.map((f) => f.line).sort()).toEqual(EXPECTED.map((e) => e[0]).sort());
  });

  it.each(EXPECTED)('line %i decodes exactly (codec %i, %i records)', (line, codec, count, first, last, lat0, lon0, latN, lonN) => {
    const decoded = decodeAvlPacket(frame(line));
    expect(decoded.codec).toBe(codec);
    expect(decoded.records).toHaveLength(count);
    const a = decoded.records[0]!;
    const z = decoded.records[count - 1]!;
    expect([new Date(a.timestamp).toISOString(), new Date(z.timestamp).toISOString()]).toEqual([first, last]);
    expect([a.latitude, a.longitude, z.latitude, z.longitude]).toEqual([lat0, lon0, latN, lonN]);
  });

  it('reads IO values as the hex says', () => {
    // line 142: `... 0e 06 ef01 f001 5001 1503 c800 4501 08 b5000b b60006 423827 ...`
    const fmb = decodeAvlPacket(frame(142)).records[0]!;
    expect([fmb.altitude, fmb.angle, fmb.satellites, fmb.speed]).toEqual([311, 95, 18, 95]);
    expect([fmb.io.get(239), fmb.io.get(240), fmb.io.get(66), fmb.io.get(181)]).toEqual([1, 1, 0x3827, 11]);
    expect(fmb.io.size).toBe(14);

    // line 55, NX section `0002 0100 0011 5756315a...` : the VIN (256) as 17 ASCII bytes, then the DTC list (281).
    const can = decodeAvlPacket(frame(55)).records[0]!;
    expect((can.io.get(256) as Buffer).toString('ascii')).toBe('WV1ZZZ2EZ86015388');
    expect((can.io.get(281) as Buffer).toString('ascii')).toBe('P0299,P0675,P0674,P0672,P0671,P0471,P2BAC');
    expect(can.io.get(16)).toBe(0xa1b5);
    expect((decodeAvlPacket(frame(76)).records[0]!.io.get(256) as Buffer).toString('ascii')).toBe('1A1JC5444R7252367');

    // line 40: an 8-byte value (11, ICCID `000000d14675f360`), empty NX values and a 34-byte one (387).
    const big = decodeAvlPacket(frame(40)).records[0]!;
    expect(big.eventIoId).toBe(0xf7);
    expect(big.io.get(11)).toBe(0xd14675f360n);
    expect(big.io.get(331)).toEqual(Buffer.alloc(0));
    expect((big.io.get(387) as Buffer).length).toBe(34);
    expect(decodeAvlPacket(frame(40)).records[3]!.io).toEqual(new Map([[247, 5]]));

    // line 88, LV-CAN: 1-byte group `08 01 01 4f 00 51 00 55 0f ...` (engine speed 85 = 15), 2-byte `... 42 6f98`,
    // 4-byte `0b 54 00000000 56 00004527 57 00000047 ...` (vehicle mileage 87 = 71).
    const lvcan = decodeAvlPacket(frame(88)).records[0]!;
    expect([lvcan.io.get(85), lvcan.io.get(87), lvcan.io.get(66)]).toEqual([15, 0x47, 0x6f98]);

    // line 153: 2-byte ids above 255.
    expect(decodeAvlPacket(frame(153)).records[0]!.io.get(10800)).toBe(0xfb5d);
  });

  it('encode gives back the same records for every frame', () => {
    for (const f of TRACCAR_FRAMES) {
      const { codec, records } = decodeAvlPacket(Buffer.from(f.hex, 'hex'));
      const strip = (rs: DecodedAvlRecord[]) => rs.map(({ ioWidths: _w, ...r }) => r);
      expect(strip(decodeAvlPacket(encodeAvlPacket(codec as 0x08 | 0x8e, records)).records)).toEqual(strip(records));
    }
  });

  it('refuses a frame whose CRC does not match, captured or corrupted by us', () => {
    expect(() => decodeAvlPacket(Buffer.from(TRACCAR_FRAME_BAD_CRC.hex, 'hex'))).toThrow(expect.objectContaining({ reason: 'crc' }) as unknown as Error);
    const bytes = frame(97);
    bytes[500] = (bytes[500] as number) ^ 0x40;
    expect(() => decodeAvlPacket(bytes)).toThrow(TeltonikaFrameError);
    expect(() => decodeAvlPacket(bytes)).toThrow(/CRC/);
  });
});

// Codec 16 and codec 7 (decision 0323). Expected values read off the hex: codec 16's record is codec
// 8's with 2-byte ids and a generation type (line 48: `0000 07 0a 05 0001 00 ...`: event 0, generation
// type 7, 10 elements, five of 1 byte); codec 7's time is 4 bytes, its top 2 bits the priority and the
// rest seconds since 2007-01-01 (0x50aa1432: priority 1, 0x10aa1432 s), its coordinates 32-bit floats.
const frame2 = (line: number): Buffer => Buffer.from(TRACCAR_FRAMES_16_AND_7.find((f) => f.line === line)!.hex, 'hex');

describe("Traccar's captured codec 16 and codec 7 frames", () => {
  it('record where they came from', () => {
    expect(TRACCAR_SOURCE_2.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(TRACCAR_FRAMES_16_AND_7.map((f) => f.line)).toEqual([48, 51, 81, 96, 99]);
  });

  it('line 48: codec 16, two records, 2-byte ids, generation type, 8-byte values (its CRC as captured does not match: its data field is read)', () => {
    const bytes = frame2(48);
    expect(() => decodeAvlPacket(bytes)).toThrow(expect.objectContaining({ reason: 'crc' }) as unknown as Error);
    const { codec, records } = decodeAvlData(bytes, 8, bytes.length - 4);
    expect(codec).toBe(0x10);
    expect(records).toHaveLength(2);
    const [a, b] = records as [DecodedAvlRecord, DecodedAvlRecord];
    expect(new Date(a.timestamp).toISOString()).toBe('2013-07-17T06:34:09.140Z');
    expect([a.longitude, a.latitude, a.altitude, a.angle, a.satellites, a.speed]).toEqual([25.2618832, 54.6990336, 174, 185, 11, 0]);
    expect([a.eventIoId, a.generationType]).toEqual([0, 7]);
    expect([...a.io]).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 0],
      [0x120, 0],
      [0x18, 0],
      [0x46, 0x129],
      [0xc7, 0],
      [0x4c, 0],
      [0x3e, 0n],
    ]);
    expect([a.ioWidths.get(0x120), a.ioWidths.get(0x46), a.ioWidths.get(0xc7), a.ioWidths.get(0x3e)]).toEqual([1, 2, 4, 8]);
    expect(new Date(b.timestamp).toISOString()).toBe('2017-03-29T10:11:27.000Z');
    expect([b.longitude, b.latitude]).toEqual([25.2558416, 54.6670383]);
  });

  it('line 51: codec 16, 32 elements with ids above 255, south and west', () => {
    const [r] = decodeAvlPacket(frame2(51)).records;
    expect(new Date(r!.timestamp).toISOString()).toBe('2018-07-26T20:43:43.000Z');
    expect([r!.longitude, r!.latitude, r!.altitude, r!.angle, r!.satellites]).toEqual([-70.64967, -33.4379166, 571, 282, 6]);
    expect(r!.io.size).toBe(32);
    expect([r!.io.get(0x100), r!.io.get(0x11f), r!.io.get(0x101), r!.io.get(0x104)]).toEqual([0, 0, 0, 0]);
    expect([r!.ioWidths.get(0x100), r!.ioWidths.get(0x101), r!.ioWidths.get(0x104)]).toEqual([1, 2, 4]);
  });

  it('line 81: codec 7, records without a place, with one, and with IO of every width', () => {
    const { codec, records } = decodeAvlPacket(frame2(81));
    expect(codec).toBe(7);
    expect(records.map((r) => [new Date(r.timestamp).toISOString(), r.priority])).toEqual([
      ['2015-11-10T21:35:46.000Z', 1],
      ['2015-11-10T21:51:47.000Z', 1],
      ['2015-11-10T22:06:34.000Z', 1],
      ['2015-11-10T22:09:39.000Z', 1],
    ]);
    // No GNSS part: no place and no satellites (placed where the device last was, like a receiver without a fix).
    expect([records[0]!.latitude, records[0]!.longitude, records[0]!.satellites]).toEqual([0, 0, 0]);
    expect([...records[0]!.io]).toEqual([[0xf0, 1]]);
    const placed = records[1]!;
    expect(placed.latitude).toBeCloseTo(44.7913055, 6);
    expect(placed.longitude).toBeCloseTo(18.4797592, 6);
    expect([placed.altitude, placed.angle, placed.speed, placed.satellites]).toEqual([141, 0, 2, 9]);
    // Signal quality and operator only (mask 0xc0), then 1-, 2- and 4-byte IO.
    const last = records[3]!;
    expect([last.latitude, last.satellites]).toEqual([0, 0]);
    expect([...last.io]).toEqual([
      [0x01, 0x64],
      [0xf4, 0],
      [0xdd, 0],
      [0xf0, 1],
      [0x43, 0x100c],
      [0x05, 5],
    ]);
  });

  it('lines 96 and 99: codec 7 with the cell, signal and operator (line 96 as captured lacks a byte of its CRC: its data field is read)', () => {
    const bytes = frame2(96);
    expect(() => decodeAvlPacket(bytes)).toThrow(expect.objectContaining({ reason: 'format' }) as unknown as Error);
    const { records } = decodeAvlData(bytes, 8, 8 + bytes.readUInt32BE(4));
    expect(records).toHaveLength(4);
    const r = records[0]!;
    expect(new Date(r.timestamp).toISOString()).toBe('2007-12-06T12:36:00.000Z');
    expect(r.latitude).toBeCloseTo(54.7146873, 6);
    expect(r.longitude).toBeCloseTo(25.3037682, 6);
    expect([r.altitude, r.angle, r.speed, r.satellites]).toEqual([158, 25, 5, 7]);
    expect([...r.io]).toEqual([
      [0x01, 0x5e],
      [0x02, 0],
      [0x14, 0x66],
      [0x15, 0x0a],
      [0x16, 0x67],
      [0x05, 0xce4],
    ]);
    const two = decodeAvlPacket(frame2(99)).records;
    expect(two.map((x) => new Date(x.timestamp).toISOString())).toEqual(['2013-07-31T22:30:35.000Z', '2013-07-31T22:30:03.000Z']);
    expect(two[0]!.latitude).toBeCloseTo(44.4401893, 6);
    expect(two[0]!.longitude).toBeCloseTo(26.0931262, 6);
    expect([two[0]!.altitude, two[0]!.satellites]).toEqual([61, 5]);
  });
});
