// Teltonika's TCP AVL protocol, codec 8 and codec 8 Extended (decision 0153), both ways: the server
// decodes what devices send, and the demo simulator, the tests and the benchmark encode what a
// device would send. A frame on the wire:
//
//   00000000 | data length (4) | codec id (1) | records (1) | AVL records | records (1) | CRC (4)
//
// The CRC is CRC-16/IBM (ARC: polynomial 0xA001 reflected, initial 0) over the data field, from the
// codec id to the second record count, in the last two of its four bytes. A record is the time
// (8, epoch ms), the priority (1), the GNSS element (15) and the IO element: codec 8 has 1-byte ids
// and counts and values of 1, 2, 4 or 8 bytes; codec 8E has 2-byte ids and counts and a last,
// variable-length group (NX: id, 2-byte length, bytes) for values such as the VIN.

export const CODEC_8 = 0x08;
export const CODEC_8E = 0x8e;

export interface AvlRecord {
  /** Epoch ms. */
  timestamp: number;
  /** 0 low, 1 high, 2 panic. */
  priority: number;
  /** Degrees. */
  longitude: number;
  latitude: number;
  /** Metres above sea level. */
  altitude: number;
  /** Degrees from north. */
  angle: number;
  satellites: number;
  /** km/h, from the GNSS. */
  speed: number;
  /** The IO element that caused the record (0 for a periodic one). */
  eventIoId: number;
  /** IO element id -> raw value: 1-4 byte values as numbers, 8-byte ones as bigint, 8E variable-length ones as Buffer. */
  io: Map<number, number | bigint | Buffer>;
}

/** A frame that is not a valid AVL packet; `reason` tells the server whether to close (format) or wait for the resend (crc). */
export class TeltonikaFrameError extends Error {
  constructor(
    readonly reason: 'crc' | 'format' | 'codec',
    message: string,
  ) {
    super(message);
    this.name = 'TeltonikaFrameError';
  }
}

const CRC_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-16/IBM (ARC) of `buf[start, end)`. */
export function crc16Ibm(buf: Uint8Array, start = 0, end = buf.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ (CRC_TABLE[(crc ^ (buf[i] as number)) & 0xff] as number);
  return crc;
}

/** The handshake a device opens with: 2-byte length and the IMEI in ASCII. */
export function encodeImei(imei: string): Buffer {
  const text = Buffer.from(imei, 'ascii');
  const out = Buffer.alloc(2 + text.length);
  out.writeUInt16BE(text.length, 0);
  text.copy(out, 2);
  return out;
}

type IoValue = number | bigint | Buffer;

/** Width in bytes an IO value is written with; 0 = variable-length (8E's NX group). */
function widthOf(value: IoValue, id: number): 1 | 2 | 4 | 8 | 0 {
  if (Buffer.isBuffer(value)) return 0;
  if (typeof value === 'bigint') return 8;
  if (!Number.isInteger(value) || value < 0 || value > Number.MAX_SAFE_INTEGER)
    throw new RangeError(`IO element ${id}: ${value} is not an unsigned integer (pass a bigint for 8-byte two's complement values)`);
  return value <= 0xff ? 1 : value <= 0xffff ? 2 : value <= 0xffffffff ? 4 : 8;
}

/**
 * The full TCP frame of `records`. Numbers are written in the smallest of 1, 2, 4 or 8 bytes that
 * holds them, bigints in 8, Buffers in 8E's variable-length group (codec 8 has none: RangeError).
 */
export function encodeAvlPacket(codec: 0x08 | 0x8e, records: readonly AvlRecord[]): Buffer {
  if (records.length < 1 || records.length > 255) throw new RangeError(`A packet holds 1 to 255 records, not ${records.length}`);
  const ext = codec === CODEC_8E;
  const idSize = ext ? 2 : 1;
  const parts: Buffer[] = [];
  for (const r of records) {
    const groups: [number, IoValue][][] = [[], [], [], [], []]; // 1, 2, 4, 8, variable
    for (const [id, value] of r.io) {
      if (id < 0 || id > (ext ? 0xffff : 0xff)) throw new RangeError(`IO element id ${id} does not fit codec ${codec.toString(16)}`);
      const w = widthOf(value, id);
      if (w === 0 && !ext) throw new RangeError(`IO element ${id}: codec 8 has no variable-length values`);
      (groups[w === 1 ? 0 : w === 2 ? 1 : w === 4 ? 2 : w === 8 ? 3 : 4] as [number, IoValue][]).push([id, value]);
    }
    let ioSize = idSize * 2; // event id, total count
    for (let g = 0; g < 4; g++) ioSize += idSize + (groups[g] as [number, IoValue][]).length * (idSize + [1, 2, 4, 8][g]!);
    if (ext) {
      ioSize += 2;
      for (const [, v] of groups[4] as [number, Buffer][]) ioSize += 4 + v.length;
    }
    const b = Buffer.alloc(8 + 1 + 15 + ioSize);
    let o = 0;
    b.writeBigUInt64BE(BigInt(Math.round(r.timestamp)), o);
    o += 8;
    b.writeUInt8(r.priority, o++);
    b.writeInt32BE(Math.round(r.longitude * 1e7), o);
    b.writeInt32BE(Math.round(r.latitude * 1e7), o + 4);
    b.writeInt16BE(Math.round(r.altitude), o + 8);
    b.writeUInt16BE(Math.round(r.angle), o + 10);
    b.writeUInt8(r.satellites, o + 12);
    b.writeUInt16BE(Math.round(r.speed), o + 13);
    o += 15;
    const writeId = (v: number): void => {
      if (ext) b.writeUInt16BE(v, o);
      else b.writeUInt8(v, o);
      o += idSize;
    };
    writeId(r.eventIoId);
    writeId(r.io.size);
    for (let g = 0; g < 4; g++) {
      const group = groups[g] as [number, IoValue][];
      writeId(group.length);
      for (const [id, v] of group) {
        writeId(id);
        if (g === 0) b.writeUInt8(v as number, o);
        else if (g === 1) b.writeUInt16BE(v as number, o);
        else if (g === 2) b.writeUInt32BE(v as number, o);
        else b.writeBigUInt64BE(BigInt.asUintN(64, typeof v === 'bigint' ? v : BigInt(v as number)), o);
        o += [1, 2, 4, 8][g]!;
      }
    }
    if (ext) {
      const group = groups[4] as [number, Buffer][];
      writeId(group.length);
      for (const [id, v] of group) {
        writeId(id);
        b.writeUInt16BE(v.length, o);
        v.copy(b, o + 2);
        o += 2 + v.length;
      }
    }
    parts.push(b);
  }
  const body = Buffer.concat(parts);
  const dataLength = 1 + 1 + body.length + 1;
  const frame = Buffer.alloc(8 + dataLength + 4);
  frame.writeUInt32BE(0, 0);
  frame.writeUInt32BE(dataLength, 4);
  frame.writeUInt8(codec, 8);
  frame.writeUInt8(records.length, 9);
  body.copy(frame, 10);
  frame.writeUInt8(records.length, 10 + body.length);
  frame.writeUInt32BE(crc16Ibm(frame, 8, 8 + dataLength), 8 + dataLength);
  return frame;
}

/** Decodes one full TCP frame (preamble to CRC). Throws TeltonikaFrameError on a bad CRC, codec or layout. */
export function decodeAvlPacket(frame: Buffer): { codec: number; records: AvlRecord[] } {
  if (frame.length < 8 + 3 + 4) throw new TeltonikaFrameError('format', `frame of ${frame.length} bytes is too short`);
  if (frame.readUInt32BE(0) !== 0) throw new TeltonikaFrameError('format', 'frame does not start with the 4-byte zero preamble');
  const dataLength = frame.readUInt32BE(4);
  if (frame.length !== 8 + dataLength + 4) throw new TeltonikaFrameError('format', `data length ${dataLength} does not match a frame of ${frame.length} bytes`);
  const end = 8 + dataLength;
  const crc = frame.readUInt32BE(end);
  const computed = crc16Ibm(frame, 8, end);
  if (crc !== computed) throw new TeltonikaFrameError('crc', `CRC ${crc.toString(16)} does not match the data (${computed.toString(16)})`);
  const codec = frame.readUInt8(8);
  if (codec !== CODEC_8 && codec !== CODEC_8E) throw new TeltonikaFrameError('codec', `codec 0x${codec.toString(16)} is not supported (only 8 and 8 Extended)`);
  const ext = codec === CODEC_8E;
  const count = frame.readUInt8(9);
  let o = 10;
  const need = (n: number): void => {
    if (o + n > end - 1) throw new TeltonikaFrameError('format', `record data ends early at byte ${o}`);
  };
  const readId = (): number => {
    need(ext ? 2 : 1);
    const v = ext ? frame.readUInt16BE(o) : frame.readUInt8(o);
    o += ext ? 2 : 1;
    return v;
  };
  const records: AvlRecord[] = [];
  for (let i = 0; i < count; i++) {
    need(8 + 1 + 15);
    const timestamp = Number(frame.readBigUInt64BE(o));
    const priority = frame.readUInt8(o + 8);
    o += 9;
    const longitude = frame.readInt32BE(o) / 1e7;
    const latitude = frame.readInt32BE(o + 4) / 1e7;
    const altitude = frame.readInt16BE(o + 8);
    const angle = frame.readUInt16BE(o + 10);
    const satellites = frame.readUInt8(o + 12);
    const speed = frame.readUInt16BE(o + 13);
    o += 15;
    const eventIoId = readId();
    readId(); // the total count; the groups' own counts are what the layout follows
    const io = new Map<number, IoValue>();
    for (const width of [1, 2, 4, 8] as const) {
      const n = readId();
      for (let k = 0; k < n; k++) {
        const id = readId();
        need(width);
        io.set(id, width === 1 ? frame.readUInt8(o) : width === 2 ? frame.readUInt16BE(o) : width === 4 ? frame.readUInt32BE(o) : frame.readBigUInt64BE(o));
        o += width;
      }
    }
    if (ext) {
      const n = readId();
      for (let k = 0; k < n; k++) {
        const id = readId();
        need(2);
        const len = frame.readUInt16BE(o);
        o += 2;
        need(len);
        io.set(id, Buffer.from(frame.subarray(o, o + len)));
        o += len;
      }
    }
    records.push({ timestamp, priority, longitude, latitude, altitude, angle, satellites, speed, eventIoId, io });
  }
  if (o !== end - 1) throw new TeltonikaFrameError('format', `${end - 1 - o} bytes left after ${count} records`);
  if (frame.readUInt8(end - 1) !== count) throw new TeltonikaFrameError('format', `record counts differ (${count} and ${frame.readUInt8(end - 1)})`);
  return { codec, records };
}
