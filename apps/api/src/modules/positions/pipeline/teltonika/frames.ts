import { TeltonikaFrameError } from './codec.ts';

// Cuts a Teltonika TCP byte stream into messages (decision 0153): TCP may deliver a packet in
// pieces or several at once. Two kinds, told apart as Traccar's TeltonikaFrameDecoder does by the
// first two bytes: a non-zero 16-bit length opens the IMEI handshake (length + ASCII IMEI), zero
// opens an AVL frame (4-byte zero preamble, 4-byte data length, data, 4-byte CRC). A lone 0xFF
// between messages is a device's keep-alive ping and is skipped.

export type TeltonikaMessage = { kind: 'imei'; imei: string } | { kind: 'avl'; frame: Buffer };

export class TeltonikaFrameSplitter {
  private buf: Buffer = Buffer.alloc(0);

  /** `maxFrame`: the largest AVL frame accepted (bytes); a device announcing more is misbehaving. */
  constructor(private readonly maxFrame = 65_536) {}

  /** Bytes waiting for the rest of their message. */
  get pending(): number {
    return this.buf.length;
  }

  /** Adds `chunk` and returns the whole messages now available (possibly none). Throws TeltonikaFrameError('format'). */
  push(chunk: Buffer): TeltonikaMessage[] {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    const out: TeltonikaMessage[] = [];
    for (;;) {
      const m = this.next();
      if (!m) break;
      out.push(m);
    }
    return out;
  }

  /** The next whole message, or null when more bytes are needed. */
  next(): TeltonikaMessage | null {
    let start = 0;
    while (start < this.buf.length && this.buf[start] === 0xff) start++;
    if (start > 0) this.buf = this.buf.subarray(start);
    if (this.buf.length < 2) return null;
    const length = this.buf.readUInt16BE(0);
    if (length > 0) {
      if (length > 64) throw new TeltonikaFrameError('format', `an IMEI of ${length} bytes`);
      if (this.buf.length < 2 + length) return null;
      const imei = this.buf.toString('latin1', 2, 2 + length);
      this.buf = this.buf.subarray(2 + length);
      return { kind: 'imei', imei };
    }
    if (this.buf.length < 8) return null;
    if (this.buf.readUInt32BE(0) !== 0) throw new TeltonikaFrameError('format', 'an AVL frame without its zero preamble');
    const dataLength = this.buf.readUInt32BE(4);
    const size = 8 + dataLength + 4;
    if (size > this.maxFrame) throw new TeltonikaFrameError('format', `an AVL frame of ${size} bytes (the limit is ${this.maxFrame})`);
    if (this.buf.length < size) return null;
    const frame = this.buf.subarray(0, size);
    this.buf = this.buf.subarray(size);
    return { kind: 'avl', frame };
  }
}
