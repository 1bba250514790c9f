import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { Ingest } from './pipeline/ingest.service.ts';
import { decodeAvlData } from './pipeline/teltonika/codec.ts';
import { loadIoMap, storeRecords, type TeltonikaDevice } from './pipeline/teltonika/records.ts';
import { noteUndecodable, undecodableMessage } from './teltonika-server.ts';

/**
 * Teltonika over UDP (decision 0323), on the TCP port's number: each datagram carries its device's
 * IMEI and one AVL data field without preamble or CRC:
 *
 *   length (2) | packet id (2) | 0x01 (1) | AVL packet id (1) | IMEI length (2) | IMEI | codec .. count
 *
 * and is answered, once its rows are committed, with `0005 | packet id | 01 | AVL packet id | records
 * accepted`. A device resends what was not answered; a resend is stored once (positions are keyed by
 * device and fix time). A data field that cannot be read is answered all the same and recorded, as
 * over TCP; an unknown IMEI gets no answer and is noted for the devices screen. A device's datagrams
 * are handled one after another, in the order they came.
 */

export interface TeltonikaUdpCounts {
  packets: number;
  acknowledged: number;
  /** Datagrams whose header does not add up: no device to answer. */
  badPackets: number;
  undecodable: number;
  unknownImei: number;
}

/** The parts of a datagram's header; null when it does not add up. */
export function readUdpHeader(msg: Buffer): { packetId: number; avlPacketId: number; imei: string; dataStart: number } | null {
  if (msg.length < 8 || msg.readUInt16BE(0) !== msg.length - 2) return null;
  const imeiLength = msg.readUInt16BE(6);
  const dataStart = 8 + imeiLength;
  if (imeiLength === 0 || imeiLength > 64 || msg.length < dataStart + 3) return null;
  return { packetId: msg.readUInt16BE(2), avlPacketId: msg.readUInt8(5), imei: msg.toString('latin1', 8, dataStart), dataStart };
}

/** The answer to a datagram: how many of its records were accepted. */
export function udpAck(packetId: number, avlPacketId: number, accepted: number): Buffer {
  const b = Buffer.alloc(7);
  b.writeUInt16BE(5, 0);
  b.writeUInt16BE(packetId, 2);
  b.writeUInt8(0x01, 4);
  b.writeUInt8(avlPacketId, 5);
  b.writeUInt8(accepted, 6);
  return b;
}

/** A device's datagram as a device builds it (the tests, the simulator). */
export function encodeUdpPacket(imei: string, packetId: number, avlPacketId: number, tcpFrame: Buffer): Buffer {
  const data = tcpFrame.subarray(8, tcpFrame.length - 4);
  const id = Buffer.from(imei, 'ascii');
  const b = Buffer.alloc(8 + id.length + data.length);
  b.writeUInt16BE(b.length - 2, 0);
  b.writeUInt16BE(packetId, 2);
  b.writeUInt8(0x01, 4);
  b.writeUInt8(avlPacketId, 5);
  b.writeUInt16BE(id.length, 6);
  id.copy(b, 8);
  data.copy(b, 8 + id.length);
  return b;
}

export class TeltonikaUdpServer {
  readonly socket: dgram.Socket;
  readonly counts: TeltonikaUdpCounts = { packets: 0, acknowledged: 0, badPackets: 0, undecodable: 0, unknownImei: 0 };
  /** Each device's state and the tail of its queue of datagrams. */
  private readonly devices = new Map<string, { device: TeltonikaDevice | null; ioMapAt: number; tail: Promise<void> }>();
  private closing = false;

  constructor(
    private readonly ingest: Ingest,
    private readonly opts: { ioMapTtlMs?: number } = {},
  ) {
    this.socket = dgram.createSocket('udp4');
    this.socket.on('message', (msg, rinfo) => this.onMessage(msg, rinfo));
    this.socket.on('error', (err) => this.ingest.logError(err, 'teltonika udp: socket error'));
  }

  listen(opts: { port: number; host?: string }): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.bind(opts.port, opts.host, () => {
        this.socket.off('error', reject);
        resolve(this.socket.address());
      });
    });
  }

  /** Stops taking datagrams once those in hand are committed and answered. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.devices.values()].map((d) => d.tail));
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  private onMessage(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    if (this.closing) return;
    const header = readUdpHeader(msg);
    if (!header) {
      this.counts.badPackets++;
      return;
    }
    let state = this.devices.get(header.imei);
    if (!state) {
      state = { device: null, ioMapAt: 0, tail: Promise.resolve() };
      this.devices.set(header.imei, state);
    }
    const s = state;
    s.tail = s.tail
      .then(() => this.handle(s, msg, header, rinfo))
      .catch((err: unknown) => {
        // An internal error (the database): not answered, so the device sends the datagram again.
        this.ingest.health.serverError('teltonika');
        this.ingest.logError(err, `teltonika udp: a packet of device ${header.imei} was not acknowledged (the device sends it again)`);
      });
  }

  private async handle(
    s: { device: TeltonikaDevice | null; ioMapAt: number },
    msg: Buffer,
    h: NonNullable<ReturnType<typeof readUdpHeader>>,
    rinfo: dgram.RemoteInfo,
  ): Promise<void> {
    const gw = /^\d{1,20}$/.test(h.imei) ? await this.ingest.directory.byUniqueId(h.imei) : null;
    if (!gw) {
      this.counts.unknownImei++;
      this.ingest.unknownDevices.note(h.imei, 'teltonika', null, rinfo.address);
      return;
    }
    if (!s.device || s.device.gw.id !== gw.id || Date.now() - s.ioMapAt > (this.opts.ioMapTtlMs ?? 60_000)) {
      s.device = { gw, ioMap: await loadIoMap(this.ingest.db, gw.id), lastFix: s.device?.gw.id === gw.id ? s.device.lastFix : null, lastFixLoaded: false };
      s.ioMapAt = Date.now();
    }
    const device = s.device;
    device.gw = gw;
    const announced = msg.readUInt8(h.dataStart + 1);
    let records;
    try {
      ({ records } = decodeAvlData(msg, h.dataStart, msg.length));
    } catch (err) {
      this.counts.undecodable++;
      noteUndecodable(this.ingest, gw, undecodableMessage(msg.readUInt8(h.dataStart), err, ' over UDP'));
      this.send(udpAck(h.packetId, h.avlPacketId, announced), rinfo);
      return;
    }
    await storeRecords(this.ingest, device, records);
    this.send(udpAck(h.packetId, h.avlPacketId, records.length), rinfo);
    this.counts.packets++;
    this.counts.acknowledged += records.length;
  }

  private send(b: Buffer, rinfo: dgram.RemoteInfo): void {
    this.socket.send(b, rinfo.port, rinfo.address);
  }
}
