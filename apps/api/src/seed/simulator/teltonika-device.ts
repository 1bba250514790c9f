import net from 'node:net';
import type { Ingest } from '../../modules/positions/pipeline/ingest.service.ts';
import { CODEC_8E, decodeAvlPacket, encodeAvlPacket, encodeImei, type AvlRecord } from '../../modules/positions/pipeline/teltonika/codec.ts';
import { decodeCodec12, encodeResponse } from '../../modules/positions/pipeline/teltonika/codec12.ts';
import { loadIoMap, recordsToRows, type TeltonikaDevice } from '../../modules/positions/pipeline/teltonika/records.ts';
import { avlRecord, IO, type EngineProfile } from './engine-data.ts';
import { TruckPlan, warmUp } from './truck-plan.ts';

// The demo's Teltonika trucks live (decision 0156): each behaves as an FMC650 does. It records AVL
// records into its memory (every few seconds on the road, every minute idling, every five minutes
// parked, and at once when the ignition changes), and every 30-60 s sends what it holds as codec 8E
// packets over TCP to the server's Teltonika port, after the IMEI handshake. A record leaves the
// device's memory only when the server acknowledges it (the server does so once it is committed): a
// packet without an acknowledgement is sent again, and a closed connection is opened again. With
// the port off, the same packets are decoded and handed to ingest in process.

/** Recording periods: on the road (within the ELD's 5 s of engine data), idling, parked. */
export const RECORD_EVERY_MS = { DRIVE: 5_000, IDLE: 60_000, PARK: 300_000 } as const;
/** At most this many records a packet (the server takes 1-255; devices send tens). */
const PACKET_RECORDS = 50;
/** How the devices time their packets (tests shorten them). */
export interface TeltonikaTiming {
  /** Without an acknowledgement this long after a packet, the connection is dropped and the packet resent. */
  ackTimeoutMs: number;
  /** The pause before the next packet: 30-60 s. */
  sendPause: () => number;
  /** How often the devices record and send. */
  tickMs: number;
  /** A connection refused or lost is tried again after this long. */
  retryMs: number;
}

export const TIMING: TeltonikaTiming = { ackTimeoutMs: 20_000, sendPause: () => 30_000 + Math.random() * 30_000, tickMs: 1000, retryMs: 5_000 };
/** A day on the road at RECORD_EVERY_MS: the oldest are dropped beyond it (a device's memory is finite too). */
const MAX_BUFFERED = 20_000;

/** Where the packets go: the server's Teltonika port, or ingest in process when the port is off. */
export type TeltonikaTarget = { port: number; host?: string } | { ingest: Ingest };

export interface TeltonikaTruck {
  index: number;
  engine: EngineProfile;
  /** Where the device's recording starts (the end of the seeded history); now when absent. */
  recordingFrom?: number;
}

export interface TeltonikaFleetHandle {
  stop(): void;
  /** Records the server has acknowledged (or ingest stored in process). */
  readonly acknowledged: number;
  /** Packets sent again (no or a short acknowledgement). */
  readonly resent: number;
  /** Records the devices hold, not acknowledged yet. */
  readonly buffered: number;
}

/** One FMC650: its plan, its memory of records and its link (exported for tests). */
export class SimulatedFmc {
  readonly plan: TruckPlan;
  private readonly vin: Buffer;
  /** Recorded, not acknowledged: the head is what is in flight. */
  private buffer: AvlRecord[] = [];
  private lastRecordAt = -Infinity;
  private nextRecordAt = Infinity;
  private ignition: boolean | null = null;
  private nextSendAt = 0;
  private socket: net.Socket | null = null;
  private connecting = false;
  private retryAt = 0;
  private inFlight: { count: number; sentAt: number } | null = null;
  private inProcess: TeltonikaDevice | null = null;
  acknowledged = 0;
  resent = 0;

  constructor(
    readonly truck: TeltonikaTruck,
    private readonly target: TeltonikaTarget,
    private readonly onError: (err: unknown) => void,
    private readonly timing: TeltonikaTiming,
  ) {
    this.plan = new TruckPlan(truck.index);
    this.vin = Buffer.from(truck.engine.vin, 'ascii');
  }

  get held(): number {
    return this.buffer.length;
  }

  /** The records held, oldest first. */
  get records(): readonly AvlRecord[] {
    return this.buffer;
  }

  /** Starts recording at `from` (the plan is warmed up to there) and sends the first packet 30-60 s after `now`. */
  start(from: number, now: number): void {
    this.nextRecordAt = from;
    this.nextSendAt = now + this.timing.sendPause();
  }

  /**
   * Records what the device would have up to `now`: periodic records, and an event record where the
   * ignition changes (found within a record period on the road; standing, the period ends where the
   * truck's stop ends), standing still as the engine starts or stops.
   */
  record(now: number): void {
    let t = this.nextRecordAt;
    while (t <= now) {
      const seg = this.plan.segmentAt(t);
      const s = this.plan.stateAt(t);
      const changed = this.ignition !== null && s.ignition !== this.ignition;
      this.ignition = s.ignition;
      if (changed) {
        const at = Math.max(this.plan.ignitionSince(t), this.lastRecordAt + 1);
        this.push(avlRecord(this.truck.engine, at, { ...this.plan.stateAt(at), speed: 0 }, IO.ignition.id, this.vin));
      }
      if (!changed || this.lastRecordAt < t) this.push(avlRecord(this.truck.engine, t, s, 0, this.vin));
      t = s.kind === 'DRIVE' ? t + RECORD_EVERY_MS.DRIVE : Math.min(t + RECORD_EVERY_MS[s.kind], seg.end);
    }
    this.nextRecordAt = t;
  }

  private push(r: AvlRecord): void {
    this.buffer.push(r);
    this.lastRecordAt = r.timestamp;
    if (this.buffer.length > MAX_BUFFERED && !this.inFlight) this.buffer = this.buffer.slice(this.buffer.length - MAX_BUFFERED);
  }

  /** Sends the next packet when it is time and none is waiting for its acknowledgement. */
  send(now: number): void {
    if (this.inFlight) {
      // No acknowledgement: the server or the link is gone. Reconnect and resend.
      if (now - this.inFlight.sentAt > this.timing.ackTimeoutMs) this.socket?.destroy();
      return;
    }
    if (this.buffer.length === 0 || now < this.nextSendAt) return;
    if ('ingest' in this.target) {
      void this.ingestInProcess(this.target.ingest, now);
      return;
    }
    if (!this.socket) {
      if (!this.connecting && now >= this.retryAt) this.connect(this.target, now);
      return;
    }
    const batch = this.buffer.slice(0, PACKET_RECORDS);
    this.inFlight = { count: batch.length, sentAt: now };
    this.socket.write(encodeAvlPacket(CODEC_8E, batch));
  }

  /** The server acknowledged `n` records of the packet in flight. */
  private acked(n: number, now: number): void {
    const sent = this.inFlight;
    if (!sent) return;
    this.inFlight = null;
    if (n === sent.count) {
      this.buffer = this.buffer.slice(n);
      this.acknowledged += n;
      // More recorded than a packet holds (after a time offline): the next packet at once.
      this.nextSendAt = this.buffer.length >= PACKET_RECORDS ? now : now + this.timing.sendPause();
    } else {
      // Not all taken: the whole packet again (the server stores a resent record once).
      this.resent++;
      this.nextSendAt = now + this.timing.retryMs;
    }
  }

  private connect(target: { port: number; host?: string }, now: number): void {
    this.connecting = true;
    this.retryAt = now + this.timing.retryMs;
    const socket = net.connect({ port: target.port, host: target.host ?? '127.0.0.1' });
    socket.setNoDelay(true);
    let accepted = false;
    let pending: Buffer = Buffer.alloc(0);
    socket.on('connect', () => socket.write(encodeImei(this.truck.engine.imei)));
    // No answer to the handshake: give up on this connection and try again.
    socket.setTimeout(this.timing.ackTimeoutMs, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      if (!accepted) {
        if (pending[0] !== 0x01) {
          // Refused (not registered, or deactivated): try again in a minute.
          this.retryAt = Date.now() + 60_000;
          socket.destroy();
          return;
        }
        accepted = true;
        socket.setTimeout(0);
        this.connecting = false;
        this.socket = socket;
        pending = pending.subarray(1);
        this.send(Date.now());
      }
      while (pending.length >= 4) {
        // A zero where an acknowledgement would be (the server never acknowledges 0 records): a codec 12 command (issue 73).
        if (pending.readUInt32BE(0) === 0) {
          if (pending.length < 8 || pending.length < 12 + pending.readUInt32BE(4)) break;
          const size = 12 + pending.readUInt32BE(4);
          socket.write(encodeResponse(this.answer(decodeCodec12(pending.subarray(0, size)).text)));
          pending = pending.subarray(size);
          continue;
        }
        this.acked(pending.readUInt32BE(0), Date.now());
        pending = pending.subarray(4);
        this.send(Date.now());
      }
    });
    socket.on('error', (err) => this.onError(err));
    socket.on('close', () => {
      this.connecting = false;
      if (this.socket === socket) this.socket = null;
      if (this.inFlight) {
        this.inFlight = null;
        this.resent++;
      }
    });
  }

  /** What an FMC650 answers a command with, in its own format (the demo's command console). */
  answer(command: string): string {
    const r = this.buffer.at(-1);
    const [name, ...args] = command.trim().split(/\s+/);
    switch (name) {
      case 'getinfo':
        return `RTC:${new Date().toISOString().slice(0, 16).replace('T', ' ')} Init:${new Date(Date.now() - 86_400_000).toISOString().slice(0, 16).replace('T', ' ')} UpTime:86400s PWR:PwrVoltage RST:0 GPS:3 SAT:${r?.satellites ?? 0} TTFF:12 TTLF:0 NOGPS:0:0 SR:0 FG:0 FL:0 SMS:0 REC:${this.buffer.length} MD:0 DB:0`;
      case 'getver':
        return `Ver:03.27.14_00 GPS:AXN_5.1.9 Hw:FMC650 Mod:38 IMEI:${this.truck.engine.imei} Init:${new Date(Date.now() - 86_400_000).toISOString().slice(0, 16).replace('T', ' ')} Uptime:86400 BOOT:Rev12`;
      case 'getstatus':
        return `Data Link: 1 GPRS: 1 Phone: 0 SIM: 0 OP: 310260 Signal: 5 NewSMS: 0 Roaming: 0 SMSFull: 0 LAC: 1 Cell ID: 1 NetType: 1 FwUpd: -1`;
      case 'getgps':
        return r
          ? `GPS:1 Sat:${r.satellites} Lat:${r.latitude.toFixed(6)} Long:${r.longitude.toFixed(6)} Alt:${r.altitude} Speed:${r.speed} Dir:${r.angle} Date: ${new Date(r.timestamp).toISOString().slice(0, 10)} Time: ${new Date(r.timestamp).toISOString().slice(11, 19)}`
          : 'GPS:0 Sat:0';
      case 'getio':
        return `DI1:${this.ignition ? 1 : 0} DI2:0 DI3:0 AIN1:0 AIN2:0 DO1:0 DO2:0 DO3:0`;
      case 'readio':
        return args[0] && /^\d+$/.test(args[0]) ? `IO ID:${args[0]} Value:${String(r?.io.get(Number(args[0])) ?? 0)}` : 'Param ID:0 missing';
      case 'setdigout':
        return `DOUT1:${args[0]?.[0] === '1' ? 1 : 0} DOUT2:${args[0]?.[1] === '1' ? 1 : 0} DOUT3:${args[0]?.[2] === '1' ? 1 : 0}`;
      case 'cpureset':
        return 'CPU reset in 5 seconds';
      default:
        return `Unknown command: ${command}`;
    }
  }

  /** The port is off: the packet decoded and its rows committed in process, as the server would. */
  private async ingestInProcess(ingest: Ingest, now: number): Promise<void> {
    const batch = this.buffer.slice(0, PACKET_RECORDS);
    this.inFlight = { count: batch.length, sentAt: now };
    try {
      if (!this.inProcess) {
        const gw = await ingest.directory.byUniqueId(this.truck.engine.imei);
        if (!gw) throw new Error(`device ${this.truck.engine.imei} is not registered`);
        this.inProcess = { gw, ioMap: await loadIoMap(ingest.db, gw.id), lastFix: null, lastFixLoaded: false };
      }
      const { records } = decodeAvlPacket(encodeAvlPacket(CODEC_8E, batch));
      const { rows } = await recordsToRows(ingest, this.inProcess, records);
      if (rows.length) await ingest.committer.write(rows);
      this.acked(batch.length, Date.now());
    } catch (err) {
      this.inFlight = null;
      this.inProcess = null;
      this.nextSendAt = Date.now() + this.timing.retryMs;
      this.onError(err);
    }
  }

  stop(): void {
    this.socket?.destroy();
    this.socket = null;
  }
}

/**
 * Drives the Teltonika trucks: their plans are warmed up with the event loop turning, then every
 * second each records and, when due, sends. `onError` is told of a failure at most once a minute.
 */
export function runTeltonikaTrucks(
  trucks: readonly TeltonikaTruck[],
  target: TeltonikaTarget,
  onError: (err: unknown) => void,
  timing: Partial<TeltonikaTiming> = {},
): TeltonikaFleetHandle {
  const t0: TeltonikaTiming = { ...TIMING, ...timing };
  let lastError = 0;
  const report = (err: unknown) => {
    if (Date.now() - lastError < 60_000) return;
    lastError = Date.now();
    onError(err);
  };
  const devices = trucks.map((t) => new SimulatedFmc(t, target, report, t0));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const started = Date.now();
  void warmUp(
    devices.map((d) => d.plan),
    Math.min(started, ...trucks.map((t) => t.recordingFrom ?? started)),
    () => stopped,
  ).then(() => {
    if (stopped) return;
    const now = Date.now();
    for (const d of devices) d.start(Math.min(d.truck.recordingFrom ?? now, now), now);
    timer = setInterval(() => {
      const t = Date.now();
      for (const d of devices) {
        d.record(t);
        d.send(t);
      }
    }, t0.tickMs);
    timer.unref();
  }, onError);
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
      for (const d of devices) d.stop();
    },
    get acknowledged() {
      return devices.reduce((n, d) => n + d.acknowledged, 0);
    },
    get resent() {
      return devices.reduce((n, d) => n + d.resent, 0);
    },
    get buffered() {
      return devices.reduce((n, d) => n + d.held, 0);
    },
  };
}
