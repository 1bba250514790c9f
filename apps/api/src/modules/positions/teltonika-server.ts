import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Ingest } from './pipeline/ingest.service.ts';
import { codecName, decodeAvlPacket, TeltonikaFrameError } from './pipeline/teltonika/codec.ts';
import { TeltonikaFrameSplitter, type TeltonikaMessage } from './pipeline/teltonika/frames.ts';
import { decodeCodec12, encodeCommand, isCodec12, RESPONSE_TYPE } from './pipeline/teltonika/codec12.ts';
import type { DeviceLink } from './device-links.ts';
import { loadIoMap, storeRecords, type TeltonikaDevice } from './pipeline/teltonika/records.ts';

/**
 * Teltonika's TCP port (5027; decision 0153): an FMB/FMC/FMM tracker opens a connection, sends its
 * IMEI (answered 01 when a device of any organization has it, 00 and closed otherwise), then AVL
 * packets, codec 8 or 8 Extended. Each packet is acknowledged with its record count only once its
 * rows are committed: the device keeps and resends what was not acknowledged, so nothing
 * acknowledged is lost, and a resend is stored once (positions are keyed by device and fix time).
 *
 * One packet at a time per connection: the socket is paused from a packet's arrival to its
 * acknowledgement, so a fast device cannot queue unbounded work (TCP pushes back on it).
 */

export interface TeltonikaServerOptions {
  /** Closes a connection silent for this long (devices send at least every few minutes; default 10 min). */
  idleMs?: number;
  /** The largest AVL frame accepted, in bytes (a 255-record 8E packet with large elements stays below 64 KiB). */
  maxFrameBytes?: number;
  /** How long a device's IO map is trusted before it is read again (ms). */
  ioMapTtlMs?: number;
}

/** What the server has done since start (diagnostics, the benchmark). */
export interface TeltonikaCounts {
  connections: number;
  packets: number;
  /** Records acknowledged (stored, duplicate resends and records refused by the fix check). */
  acknowledged: number;
  badCrc: number;
  badFrames: number;
  /** Frames whose checksum held that could not be read (a codec not spoken, a broken layout): acknowledged and recorded. */
  undecodable: number;
  unknownImei: number;
}

/** Codec 12, 13 and 14 frames carry commands and their answers, not records: nothing to acknowledge. */
const COMMAND_CODECS: ReadonlySet<number> = new Set([0x0c, 0x0d, 0x0e]);

/**
 * A frame a device meant but this server cannot read, recorded where its owner looks: the device's
 * page (its refused fixes, reason `undecodable`) and the ingest diagnostics' counts.
 */
export function noteUndecodable(ingest: Ingest, gw: { id: string; orgId: string }, message: string, receivedAt = new Date()): void {
  ingest.refused.undecodable++;
  ingest.refusedFixes?.note({
    organizationId: gw.orgId,
    gatewayId: gw.id,
    protocol: 'teltonika',
    receivedAt,
    fixTime: null,
    reason: 'undecodable',
    message,
    field: 'codec',
  });
}

interface Connection {
  socket: net.Socket;
  splitter: TeltonikaFrameSplitter;
  imei: string | null;
  device: TeltonikaDevice | null;
  ioMapAt: number;
  /** Whole messages not handled yet (the socket is paused while there are any). */
  queue: TeltonikaMessage[];
  busy: boolean;
  /** Where commands reach the device once its handshake is accepted (issue 73, device-links.ts). */
  link?: DeviceLink;
}

/** Ends a connection, and drops it if the other side does not close within a moment. */
function endSoon(socket: net.Socket, last?: Buffer): void {
  if (last) socket.end(last);
  else socket.end();
  setTimeout(() => socket.destroy(), 2000).unref();
}

export class TeltonikaServer {
  readonly server: net.Server;
  readonly counts: TeltonikaCounts = { connections: 0, packets: 0, acknowledged: 0, badCrc: 0, badFrames: 0, undecodable: 0, unknownImei: 0 };
  private readonly connections = new Set<Connection>();
  private closing = false;
  private readonly idleMs: number;
  private readonly maxFrameBytes: number;
  private readonly ioMapTtlMs: number;

  constructor(
    private readonly ingest: Ingest,
    opts: TeltonikaServerOptions = {},
  ) {
    this.idleMs = opts.idleMs ?? 600_000;
    this.maxFrameBytes = opts.maxFrameBytes ?? 65_536;
    this.ioMapTtlMs = opts.ioMapTtlMs ?? 60_000;
    this.server = net.createServer((socket) => this.onConnection(socket));
  }

  listen(opts: { port: number; host?: string }): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ port: opts.port, host: opts.host, backlog: 2048 }, () => {
        this.server.off('error', reject);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  /**
   * Stops accepting; each connection ends once its packet in hand is committed and acknowledged
   * (an idle one at once). The devices reconnect to another instance, or to this one restarted.
   */
  close(): Promise<void> {
    this.closing = true;
    const closed = new Promise<void>((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
    for (const c of this.connections) if (!c.busy) endSoon(c.socket);
    return closed;
  }

  private onConnection(socket: net.Socket): void {
    if (this.closing) {
      socket.destroy();
      return;
    }
    this.counts.connections++;
    const c: Connection = { socket, splitter: new TeltonikaFrameSplitter(this.maxFrameBytes), imei: null, device: null, ioMapAt: 0, queue: [], busy: false };
    this.connections.add(c);
    socket.setNoDelay(true);
    socket.setTimeout(this.idleMs, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => this.onData(c, chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.connections.delete(c);
      if (c.link) this.ingest.deviceLinks.close(c.link);
    });
  }

  private onData(c: Connection, chunk: Buffer): void {
    try {
      c.queue.push(...c.splitter.push(chunk));
    } catch {
      this.counts.badFrames++;
      c.socket.destroy();
      return;
    }
    if (!c.busy && c.queue.length > 0) this.pump(c);
  }

  private pump(c: Connection): void {
    c.busy = true;
    c.socket.pause();
    this.drain(c).then(
      (keepOpen) => {
        c.busy = false;
        if (!keepOpen || c.socket.destroyed) return;
        if (this.closing) endSoon(c.socket);
        else if (c.queue.length > 0) this.pump(c);
        else c.socket.resume();
      },
      // An internal error (the database): nothing of this packet was acknowledged; the device
      // reconnects and resends it.
      (err: unknown) => {
        this.ingest.health.serverError('teltonika');
        this.ingest.logError(err, `teltonika: a packet of device ${c.imei ?? '?'} was not acknowledged (the connection is closed; the device sends it again)`);
        c.socket.destroy();
      },
    );
  }

  /** Handles the queued messages in order; false when the connection was ended. */
  private async drain(c: Connection): Promise<boolean> {
    for (let m = c.queue.shift(); m; m = c.queue.shift()) {
      if (m.kind === 'imei') {
        if (c.imei !== null) continue; // a repeated handshake: already answered
        if (!(await this.handshake(c, m.imei))) return false;
        continue;
      }
      if (!c.device) {
        // Data before a handshake: not a device we can attribute.
        this.counts.badFrames++;
        c.socket.destroy();
        return false;
      }
      if (isCodec12(m.frame)) {
        this.commandAnswer(c, m.frame);
        continue;
      }
      if (!(await this.packet(c, m.frame))) return false;
      if (c.link) this.ingest.deviceLinks.packet(c.link);
    }
    return true;
  }

  private async handshake(c: Connection, imei: string): Promise<boolean> {
    c.imei = imei;
    const gw = /^\d{1,20}$/.test(imei) ? await this.ingest.directory.byUniqueId(imei) : null;
    if (!gw) {
      this.counts.unknownImei++;
      this.ingest.unknownDevices.note(imei, 'teltonika', null, c.socket.remoteAddress ?? null);
      endSoon(c.socket, Buffer.from([0x00]));
      return false;
    }
    c.device = { gw, ioMap: await loadIoMap(this.ingest.db, gw.id), lastFix: null, lastFixLoaded: false };
    c.ioMapAt = Date.now();
    c.socket.write(Buffer.from([0x01]));
    const socket = c.socket;
    const send = (text: string): boolean => {
      if (socket.destroyed) return false;
      socket.write(encodeCommand(text));
      return true;
    };
    c.link = { gatewayId: gw.id, orgId: gw.orgId, send };
    this.ingest.deviceLinks.open(c.link);
    return true;
  }

  /** A frame with a good checksum that cannot be read: recorded, and acknowledged unless it carries commands. */
  private undecodable(c: Connection, frame: Buffer, err: unknown): boolean {
    this.counts.undecodable++;
    noteUndecodable(this.ingest, c.device!.gw, undecodableMessage(frame.readUInt8(8), err));
    const codec = frame.readUInt8(8);
    if (!COMMAND_CODECS.has(codec)) {
      const ack = Buffer.alloc(4);
      ack.writeUInt32BE(frame.readUInt8(9), 0);
      c.socket.write(ack);
    }
    return true;
  }

  /** A codec 12 frame: the device's answer to a command, handed to the commands' owner (a bad one is dropped). */
  private commandAnswer(c: Connection, frame: Buffer): void {
    try {
      const { type, text } = decodeCodec12(frame);
      if (type === RESPONSE_TYPE && c.link) this.ingest.deviceLinks.answered(c.link, text);
    } catch {
      this.counts.badFrames++;
    }
  }

  private async packet(c: Connection, frame: Buffer): Promise<boolean> {
    let records;
    try {
      ({ records } = decodeAvlPacket(frame));
    } catch (err) {
      if (err instanceof TeltonikaFrameError && err.reason === 'crc') {
        // Not acknowledged: the device sends the packet again.
        this.counts.badCrc++;
        return true;
      }
      return this.undecodable(c, frame, err);
    }
    const device = c.device!;
    // The pairing and driver as the directory knows them now (it refreshes them every few seconds).
    const gw = await this.ingest.directory.byUniqueId(device.gw.uniqueId);
    if (!gw) {
      // Deactivated or deleted while connected: refused from now on.
      c.socket.destroy();
      return false;
    }
    device.gw = gw;
    if (Date.now() - c.ioMapAt > this.ioMapTtlMs) {
      device.ioMap = await loadIoMap(this.ingest.db, gw.id);
      c.ioMapAt = Date.now();
    }
    await storeRecords(this.ingest, device, records);
    if (c.socket.destroyed) return false;
    const ack = Buffer.alloc(4);
    ack.writeUInt32BE(records.length, 0);
    c.socket.write(ack);
    this.counts.packets++;
    this.counts.acknowledged += records.length;
    return true;
  }
}

/**
 * What the server does with a frame whose checksum holds but which it cannot read. Closing the
 * connection (as it once did) only made the device reconnect and send it again, forever, unseen:
 * an AVL frame is acknowledged with the record count it announces, so the device moves on, and
 * each is recorded on the device's page ("sent codec 13: not supported") and counted.
 */
export function undecodableMessage(codec: number, err: unknown, over = ''): string {
  if (err instanceof TeltonikaFrameError && err.reason === 'codec') return `sent codec ${codecName(codec)}${over}: not supported`;
  return `sent a codec ${codecName(codec)} frame${over} that does not add up: ${err instanceof Error ? err.message : String(err)}`;
}

/** The Teltonika port's server (not listening yet). */
export function buildTeltonikaServer(ingest: Ingest, opts: TeltonikaServerOptions = {}): TeltonikaServer {
  return new TeltonikaServer(ingest, opts);
}
