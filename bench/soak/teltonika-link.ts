// Teltonika over TCP, as an FMB tracker sends it: one connection, the IMEI handshake (answered 01),
// then codec 8 AVL packets of the fixes it holds, each acknowledged with its record count once the
// server committed them. No acknowledgement (a timeout, a closed connection, a short count): the
// connection is dropped and the packet sent again on a new one. The cut: half a packet, then the socket
// is destroyed.
import net from 'node:net';
import { CODEC_8, encodeAvlPacket, encodeImei, type AvlRecord } from '../../apps/api/src/modules/positions/pipeline/teltonika/codec.ts';
import { ANSWER_TIMEOUT_MS, writePartAndDestroy, type DeviceLink, type SendOutcome, type Target } from './device-link.ts';
import type { Fix } from './truck-motion.ts';

/** IO elements of Teltonika's default map (api-contract TELTONIKA_DEFAULT_IO_MAP). */
const IO = { ignition: 239, motion: 240, gpsOdometer: 16, fuelLevel: 89 } as const;

export function avlRecordOf(f: Fix): AvlRecord {
  return {
    timestamp: f.time,
    priority: 0,
    longitude: f.lon,
    latitude: f.lat,
    altitude: f.altitudeM,
    angle: f.course,
    satellites: 12,
    speed: Math.round(f.speedKmh),
    eventIoId: 0,
    io: new Map<number, number>([
      [IO.ignition, f.ignition ? 1 : 0],
      [IO.motion, f.speedKmh > 0 ? 1 : 0],
      [IO.gpsOdometer, f.odometerM],
      [IO.fuelLevel, Math.round(f.fuelPct)],
    ]),
  };
}

/** A socket read as a stream of exact-length messages; null once it closed or `timeoutMs` passed. */
class Reader {
  private buf: Buffer = Buffer.alloc(0);
  private waiting: { n: number; resolve: (b: Buffer | null) => void; timer: NodeJS.Timeout } | null = null;
  closedBecause: string | null = null;

  constructor(socket: net.Socket) {
    socket.on('data', (b: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, b]) : b;
      this.settle();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (this.closedBecause ??= err.code ?? err.message));
    socket.on('close', () => {
      this.closedBecause ??= 'connection closed';
      this.settle();
    });
  }

  read(n: number, timeoutMs: number): Promise<Buffer | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        resolve(null);
      }, timeoutMs);
      this.waiting = { n, resolve, timer };
      this.settle();
    });
  }

  private settle(): void {
    const w = this.waiting;
    if (!w) return;
    if (this.buf.length >= w.n) {
      const out = this.buf.subarray(0, w.n);
      this.buf = this.buf.subarray(w.n);
      this.done(w, out);
    } else if (this.closedBecause) this.done(w, null);
  }

  private done(w: NonNullable<Reader['waiting']>, b: Buffer | null): void {
    clearTimeout(w.timer);
    this.waiting = null;
    w.resolve(b);
  }
}

export class TeltonikaLink implements DeviceLink {
  readonly protocol = 'teltonika' as const;
  /** Fixes a packet carries at most (a device catching up after an outage sends tens at once). */
  readonly maxPerSend = 50;
  private socket: net.Socket | null = null;
  private reader: Reader | null = null;
  private cut = false;

  constructor(
    private readonly target: Target,
    private readonly imei: string,
  ) {}

  cutNextSend(): void {
    this.cut = true;
  }

  async send(fixes: readonly Fix[]): Promise<SendOutcome> {
    if (!this.socket) {
      const refused = await this.connect();
      if (refused) return { ok: false, cause: refused };
    }
    const socket = this.socket!;
    const reader = this.reader!;
    const packet = encodeAvlPacket(CODEC_8, fixes.map(avlRecordOf));
    if (this.cut) {
      this.cut = false;
      await writePartAndDestroy(socket, packet, Math.floor(packet.length / 2));
      this.drop();
      return { ok: false, cause: 'cut mid-packet (fault)' };
    }
    socket.write(packet);
    const ack = await reader.read(4, ANSWER_TIMEOUT_MS);
    if (!ack) {
      const cause = reader.closedBecause ? `no acknowledgement (${reader.closedBecause})` : 'no acknowledgement (timeout)';
      this.drop();
      return { ok: false, cause };
    }
    const n = ack.readUInt32BE(0);
    if (n !== fixes.length) {
      this.drop();
      return { ok: false, cause: `acknowledged ${n} of ${fixes.length} records` };
    }
    return { ok: true, acked: n };
  }

  /** Opens the connection and does the IMEI handshake; the failure's cause, or null once accepted. */
  private async connect(): Promise<string | null> {
    const socket = net.connect({ port: this.target.teltonikaPort, host: '127.0.0.1' });
    socket.setNoDelay(true);
    const reader = new Reader(socket);
    socket.write(encodeImei(this.imei));
    const answer = await reader.read(1, ANSWER_TIMEOUT_MS);
    if (!answer || answer[0] !== 0x01) {
      socket.destroy();
      return answer ? 'IMEI refused' : `no handshake (${reader.closedBecause ?? 'timeout'})`;
    }
    this.socket = socket;
    this.reader = reader;
    return null;
  }

  private drop(): void {
    this.socket?.destroy();
    this.socket = null;
    this.reader = null;
  }

  close(): void {
    this.drop();
  }
}
