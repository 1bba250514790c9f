// Teltonika's AVL protocol (decision 0153): codec 8 and 8 Extended both ways (the server decodes what
// devices send; the demo simulator, the tests and the benchmark encode what a device would send),
// codec 16 both ways and the GH trackers' codec 7 decoded (decision 0323). A TCP frame on the wire:
//
//   00000000 | data length (4) | codec id (1) | records (1) | AVL records | records (1) | CRC (4)
//
// The CRC is CRC-16/IBM (ARC: polynomial 0xA001 reflected, initial 0) over the data field, from the
// codec id to the second record count, in the last two of its four bytes. A record is the time
// (8, epoch ms), the priority (1), the GNSS element (15) and the IO element: codec 8 has 1-byte ids
// and counts and values of 1, 2, 4 or 8 bytes; codec 8E has 2-byte ids and counts and a last,
// variable-length group (NX: id, 2-byte length, bytes) for values such as the VIN. Codec 16 is codec 8
// with 2-byte ids (counts stay 1 byte) and a generation type after the event id. Codec 7 (GH3000
// trackers) packs each record: a 4-byte time (priority in its top 2 bits, seconds since 2007-01-01),
// a mask of the parts present, a GNSS element with its own mask (latitude and longitude as 32-bit
// floats), and 1-, 2- and 4-byte IO groups with 1-byte ids and counts. Over UDP the same data field
// (codec id to the second record count) comes without preamble and CRC (decodeAvlData).

export const CODEC_7 = 0x07;
export const CODEC_8 = 0x08;
export const CODEC_8E = 0x8e;
export const CODEC_16 = 0x10;
/** The codecs whose records this server stores. */
export const AVL_CODECS: ReadonlySet<number> = new Set([CODEC_7, CODEC_8, CODEC_8E, CODEC_16]);
/** Codec 7's clock starts at 2007-01-01T00:00:00Z. */
const CODEC_7_EPOCH_MS = Date.UTC(2007, 0, 1);

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
  /** Codec 16: how the record was generated (0 on exit, 1 on entrance, 2 both, 4 hysteresis, 5 on change, 6 eventual, 7 periodical). */
  generationType?: number;
}

/**
 * A decoded record and the width each fixed-size IO value had on the wire (1, 2, 4 or 8 bytes): a
 * signed element is read as two's complement of that width (io-map.ts).
 */
export interface DecodedAvlRecord extends AvlRecord {
  ioWidths: Map<number, number>;
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
export function encodeAvlPacket(codec: 0x08 | 0x8e | 0x10, records: readonly AvlRecord[]): Buffer {
  if (records.length < 1 || records.length > 255) throw new RangeError(`A packet holds 1 to 255 records, not ${records.length}`);
  const ext = codec === CODEC_8E;
  const c16 = codec === CODEC_16;
  const idSize = ext ? 2 : 1;
  // Codec 16: 2-byte ids, 1-byte counts.
  const elementIdSize = ext || c16 ? 2 : 1;
  const parts: Buffer[] = [];
  for (const r of records) {
    const groups: [number, IoValue][][] = [[], [], [], [], []]; // 1, 2, 4, 8, variable
    for (const [id, value] of r.io) {
      if (id < 0 || id > (elementIdSize === 2 ? 0xffff : 0xff)) throw new RangeError(`IO element id ${id} does not fit codec ${codec.toString(16)}`);
      const w = widthOf(value, id);
      if (w === 0 && !ext) throw new RangeError(`IO element ${id}: codec 8 has no variable-length values`);
      (groups[w === 1 ? 0 : w === 2 ? 1 : w === 4 ? 2 : w === 8 ? 3 : 4] as [number, IoValue][]).push([id, value]);
    }
    let ioSize = elementIdSize + idSize + (c16 ? 1 : 0); // event id, (generation type), total count
    for (let g = 0; g < 4; g++) ioSize += idSize + (groups[g] as [number, IoValue][]).length * (elementIdSize + [1, 2, 4, 8][g]!);
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
    const writeElementId = (v: number): void => {
      if (elementIdSize === 2) b.writeUInt16BE(v, o);
      else b.writeUInt8(v, o);
      o += elementIdSize;
    };
    writeElementId(r.eventIoId);
    if (c16) b.writeUInt8(r.generationType ?? 7, o++);
    writeId(r.io.size);
    for (let g = 0; g < 4; g++) {
      const group = groups[g] as [number, IoValue][];
      writeId(group.length);
      for (const [id, v] of group) {
        writeElementId(id);
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
export function decodeAvlPacket(frame: Buffer): { codec: number; records: DecodedAvlRecord[] } {
  if (frame.length < 8 + 3 + 4) throw new TeltonikaFrameError('format', `frame of ${frame.length} bytes is too short`);
  if (frame.readUInt32BE(0) !== 0) throw new TeltonikaFrameError('format', 'frame does not start with the 4-byte zero preamble');
  const dataLength = frame.readUInt32BE(4);
  if (frame.length !== 8 + dataLength + 4) throw new TeltonikaFrameError('format', `data length ${dataLength} does not match a frame of ${frame.length} bytes`);
  const end = 8 + dataLength;
  const crc = frame.readUInt32BE(end);
  const computed = crc16Ibm(frame, 8, end);
  if (crc !== computed) throw new TeltonikaFrameError('crc', `CRC ${crc.toString(16)} does not match the data (${computed.toString(16)})`);
  return decodeAvlData(frame, 8, end);
}

/**
 * Decodes an AVL data field, `buf[start, end)` from the codec id to the second record count: a TCP
 * frame's (after its length, before its CRC) or a UDP packet's. Throws TeltonikaFrameError ('codec'
 * for a codec that holds no AVL records this server reads, 'format' for a layout that does not add up).
 */
export function decodeAvlData(buf: Buffer, start: number, end: number): { codec: number; records: DecodedAvlRecord[] } {
  if (end - start < 3) throw new TeltonikaFrameError('format', `an AVL data field of ${end - start} bytes`);
  const codec = buf.readUInt8(start);
  if (!AVL_CODECS.has(codec)) throw new TeltonikaFrameError('codec', `codec ${codecName(codec)} is not supported (only 7, 8, 8 Extended and 16)`);
  const count = buf.readUInt8(start + 1);
  const reader = new RecordReader(buf, start + 2, end - 1);
  const records: DecodedAvlRecord[] = [];
  for (let i = 0; i < count; i++) records.push(codec === CODEC_7 ? reader.codec7Record() : reader.record(codec));
  if (reader.o !== end - 1) throw new TeltonikaFrameError('format', `${end - 1 - reader.o} bytes left after ${count} records`);
  if (buf.readUInt8(end - 1) !== count) throw new TeltonikaFrameError('format', `record counts differ (${count} and ${buf.readUInt8(end - 1)})`);
  return { codec, records };
}

/** A codec as Teltonika names it: 8, 8E, 16, 0x0d. */
export function codecName(codec: number): string {
  if (codec === CODEC_8E) return '8 Extended';
  return codec <= 0x10 ? String(codec) : `0x${codec.toString(16).padStart(2, '0')}`;
}

/** Reads records field by field, refusing to read past `limit` (the second record count). */
class RecordReader {
  constructor(
    private readonly buf: Buffer,
    public o: number,
    private readonly limit: number,
  ) {}

  private need(n: number): void {
    if (this.o + n > this.limit) throw new TeltonikaFrameError('format', `record data ends early at byte ${this.o}`);
  }

  private uint(width: 1 | 2 | 4): number {
    this.need(width);
    const v = width === 1 ? this.buf.readUInt8(this.o) : width === 2 ? this.buf.readUInt16BE(this.o) : this.buf.readUInt32BE(this.o);
    this.o += width;
    return v;
  }

  /** An IO group: its count, then (id, value) pairs of `width` bytes. */
  private group(io: Map<number, IoValue>, widths: Map<number, number>, width: 1 | 2 | 4 | 8, idSize: 1 | 2, countSize: 1 | 2): void {
    const n = this.uint(countSize);
    for (let k = 0; k < n; k++) {
      const id = this.uint(idSize);
      this.need(width);
      io.set(id, width === 8 ? this.buf.readBigUInt64BE(this.o) : this.buf.readUIntBE(this.o, width));
      widths.set(id, width);
      this.o += width;
    }
  }

  /** A codec 8, 8 Extended or 16 record. */
  record(codec: number): DecodedAvlRecord {
    const ext = codec === CODEC_8E;
    const idSize = ext || codec === CODEC_16 ? 2 : 1;
    const countSize = ext ? 2 : 1;
    this.need(8 + 1 + 15);
    const b = this.buf;
    const o = this.o;
    const timestamp = Number(b.readBigUInt64BE(o));
    const priority = b.readUInt8(o + 8);
    const longitude = b.readInt32BE(o + 9) / 1e7;
    const latitude = b.readInt32BE(o + 13) / 1e7;
    const altitude = b.readInt16BE(o + 17);
    const angle = b.readUInt16BE(o + 19);
    const satellites = b.readUInt8(o + 21);
    const speed = b.readUInt16BE(o + 22);
    this.o += 24;
    const eventIoId = this.uint(idSize);
    const generationType = codec === CODEC_16 ? this.uint(1) : undefined;
    this.uint(countSize); // the total count; the groups' own counts are what the layout follows
    const io = new Map<number, IoValue>();
    const ioWidths = new Map<number, number>();
    for (const width of [1, 2, 4, 8] as const) this.group(io, ioWidths, width, idSize, countSize);
    if (ext) {
      const n = this.uint(2);
      for (let k = 0; k < n; k++) {
        const id = this.uint(2);
        const len = this.uint(2);
        this.need(len);
        io.set(id, Buffer.from(b.subarray(this.o, this.o + len)));
        this.o += len;
      }
    }
    const r: DecodedAvlRecord = { timestamp, priority, longitude, latitude, altitude, angle, satellites, speed, eventIoId, io, ioWidths };
    if (generationType !== undefined) r.generationType = generationType;
    return r;
  }

  /**
   * A codec 7 record. Without its GNSS part it has no place (latitude and longitude 0, no
   * satellites), which the records' conversion treats as a receiver without a fix.
   */
  codec7Record(): DecodedAvlRecord {
    const stamp = this.uint(4);
    const priority = stamp >>> 30;
    const timestamp = CODEC_7_EPOCH_MS + (stamp & 0x3fffffff) * 1000;
    const parts = this.uint(1);
    const r: DecodedAvlRecord = {
      timestamp,
      priority,
      longitude: 0,
      latitude: 0,
      altitude: 0,
      angle: 0,
      satellites: 0,
      speed: 0,
      eventIoId: 0,
      io: new Map(),
      ioWidths: new Map(),
    };
    if (parts & 0x01) {
      const gnss = this.uint(1);
      if (gnss & 0x01) {
        this.need(8);
        r.latitude = Math.round(this.buf.readFloatBE(this.o) * 1e7) / 1e7;
        r.longitude = Math.round(this.buf.readFloatBE(this.o + 4) * 1e7) / 1e7;
        this.o += 8;
      }
      if (gnss & 0x02) r.altitude = this.uint(2);
      if (gnss & 0x04) r.angle = Math.round((this.uint(1) * 360) / 256);
      if (gnss & 0x08) r.speed = this.uint(1);
      if (gnss & 0x10) r.satellites = this.uint(1);
      // The cell (area code and cell id), the signal quality and the operator: not kept.
      if (gnss & 0x20) this.uint(4);
      if (gnss & 0x40) this.uint(1);
      if (gnss & 0x80) this.uint(4);
    }
    if (parts & 0x02) this.group(r.io, r.ioWidths, 1, 1, 1);
    if (parts & 0x04) this.group(r.io, r.ioWidths, 2, 1, 1);
    if (parts & 0x08) this.group(r.io, r.ioWidths, 4, 1, 1);
    return r;
  }
}
