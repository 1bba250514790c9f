import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deviceModels, gateways } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { createTestApp, DEMO, login, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { testAvlRecord } from '../../test/teltonika.ts';
import { type AvlRecord, crc16Ibm, encodeAvlPacket, encodeImei } from './pipeline/teltonika/codec.ts';
import { TRACCAR_FRAMES } from './pipeline/teltonika/traccar-frames.ts';
import { TeltonikaServer } from './teltonika-server.ts';

// The Teltonika port through a real socket (decision 0153): handshake, acknowledgement after commit,
// resends stored once, a bad CRC left unacknowledged, an unknown IMEI refused and noted.

/** A device's side of the connection: writes bytes, reads exactly what the server answers. */
class Device {
  private readonly socket: net.Socket;
  private buf = Buffer.alloc(0);
  private waiter: (() => void) | null = null;
  readonly closed: Promise<void>;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (b: Buffer) => {
      this.buf = Buffer.concat([this.buf, b]);
      this.waiter?.();
    });
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()));
    this.socket.on('close', () => this.waiter?.());
    this.socket.on('error', () => undefined);
  }

  send(b: Buffer): void {
    this.socket.write(b);
  }

  /** The next `n` bytes the server sends, or null when none come within `ms` (or the connection closes). */
  async read(n: number, ms = 3000): Promise<Buffer | null> {
    const until = Date.now() + ms;
    while (this.buf.length < n) {
      if (this.socket.destroyed || Date.now() >= until) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, until - Date.now());
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  async handshake(imei: string): Promise<number | null> {
    this.send(encodeImei(imei));
    const a = await this.read(1);
    return a ? a[0]! : null;
  }

  async ack(ms?: number): Promise<number | null> {
    const a = await this.read(4, ms);
    return a ? a.readUInt32BE(0) : null;
  }

  end(): void {
    this.socket.end();
  }
}

interface Row {
  fix_time: string | Date;
  latitude: number;
  longitude: number;
  speed: number;
  course: number;
  altitude: number;
  odometer: number | null;
  odometer_source: string | null;
  engine_hours: number | null;
  ignition: boolean | null;
  protocol: string;
  asset_id: string | null;
  driver_id: string | null;
  attributes: Record<string, unknown>;
}

let t: TestContext;
let server: TeltonikaServer;
let port: number;
let truck: TestVehicle;
let other: TestVehicle;
const IMEI = '356307042441013';
const OTHER_IMEI = '356307042441014';

const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const stored = (imei: string) =>
  sql<Row>(
    `select p.* from positions p join gateways g on g.organization_id = p.organization_id and g.id = p.gateway_id where g.unique_id = '${imei}' order by p.fix_time`,
  );

const base = Date.now() - 3_600_000;
const VIN = '1FUJGLDR5CLBP8834';
function canRecord(i: number, over: Partial<AvlRecord> = {}): AvlRecord {
  const io = new Map<number, number | bigint | Buffer>([
    [239, 1],
    [240, 1],
    [66, 13_845],
    [16, 5_000_000 + i * 600],
    [87, 1_234_567_000 + i * 600],
    [102, 301_290 + i],
    [85, 1450],
    [256, Buffer.from(VIN, 'ascii')],
  ]);
  return testAvlRecord(base, i, io, over);
}

beforeAll(async () => {
  t = await createTestApp();
  const orgId = (await login(t.app, DEMO.admin)).user.organization!.id;
  truck = await createTestVehicle(t.app.db, orgId, { uniqueId: IMEI });
  other = await createTestVehicle(t.app.db, orgId, { uniqueId: OTHER_IMEI });
  server = new TeltonikaServer(t.app.ingest, { ioMapTtlMs: 0 });
  port = (await server.listen({ port: 0, host: '127.0.0.1' })).port;
});
afterAll(async () => {
  await server.close();
  await t.close();
});
beforeEach(async () => {
  await sql('delete from positions');
  await sql('delete from latest_positions');
});

describe('Teltonika TCP port', () => {
  it('refuses an unknown IMEI with 00, closes, and notes the id for the devices screen', async () => {
    const d = new Device(port);
    expect(await d.handshake('359632098765432')).toBe(0x00);
    await d.closed;
    const noted = t.app.ingest.unknownDevices.recent().find((u) => u.uniqueId === '359632098765432');
    expect(noted).toMatchObject({ protocol: 'teltonika', organizationId: null, remoteAddress: expect.stringContaining('127.0.0.1') as string });
  });

  it('accepts a registered IMEI, stores a multi-record 8E packet with its engine data, and acknowledges after commit', async () => {
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    d.send(
      encodeAvlPacket(0x8e, [
        canRecord(0),
        canRecord(1),
        canRecord(2, {
          io: new Map([
            [239, 0],
            [240, 0],
          ]),
          eventIoId: 239,
        }),
      ]),
    );
    expect(await d.ack()).toBe(3);
    // Acknowledged means committed: the rows are there the moment the device has its answer.
    const rows = await stored(IMEI);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      latitude: 39.0997,
      longitude: -94.5786,
      speed: 72,
      course: 90,
      altitude: 270,
      protocol: 'teltonika',
      odometer: 1_234_567_000,
      odometer_source: 'ECM',
      ignition: true,
      asset_id: truck.assetId,
      driver_id: truck.driverId,
    });
    expect(rows[0]!.engine_hours).toBeCloseTo(301_290 / 60, 9);
    expect(rows[0]!.attributes).toMatchObject({
      ignition: true,
      motion: true,
      power: 13.845,
      gpsOdometer: 5_000_000,
      vehicleOdometer: 1_234_567_000,
      rpm: 1450,
      vin: VIN,
      satellites: 11,
    });
    expect((rows[0]!.attributes.io as Record<string, unknown>)['256']).toBe(Buffer.from(VIN).toString('hex'));
    expect((rows[0]!.attributes.io as Record<string, unknown>)['87']).toBe(1_234_567_000);
    // The last record only says the ignition went off: no engine odometer, no hours.
    expect(rows[2]).toMatchObject({ ignition: false, odometer: null, odometer_source: null, engine_hours: null });
    expect(rows[2]!.attributes).toMatchObject({ ignition: false, motion: false, event: 239 });
    d.end();
  });

  it('stores a resent packet once and acknowledges it again', async () => {
    const packet = encodeAvlPacket(0x08, [
      canRecord(10, {
        io: new Map([
          [239, 1],
          [16, 42],
        ]),
      }),
      canRecord(11, {
        io: new Map([
          [239, 1],
          [16, 43],
        ]),
      }),
    ]);
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    d.send(packet);
    expect(await d.ack()).toBe(2);
    d.end();
    // The device did not see the first answer: it reconnects and sends the same packet.
    const again = new Device(port);
    expect(await again.handshake(IMEI)).toBe(0x01);
    again.send(packet);
    expect(await again.ack()).toBe(2);
    const rows = await stored(IMEI);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => [r.odometer, r.odometer_source])).toEqual([
      [42, 'GPS'],
      [43, 'GPS'],
    ]);
    again.end();
  });

  it('leaves a packet with a bad CRC unacknowledged, and takes its resend on the same connection', async () => {
    const good = encodeAvlPacket(0x8e, [canRecord(20)]);
    const bad = Buffer.from(good);
    bad[30] = (bad[30] as number) ^ 0xff;
    const before = server.counts.badCrc;
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    d.send(bad);
    expect(await d.ack(700)).toBeNull();
    expect(server.counts.badCrc).toBe(before + 1);
    expect(await stored(IMEI)).toHaveLength(0);
    d.send(good);
    expect(await d.ack()).toBe(1);
    expect(await stored(IMEI)).toHaveLength(1);
    d.end();
  });

  it('cuts packets delivered in pieces and several at once, acknowledging each in order', async () => {
    const a = encodeAvlPacket(0x8e, [canRecord(30), canRecord(31)]);
    const b = encodeAvlPacket(0x08, [canRecord(32, { io: new Map([[239, 1]]) })]);
    const d = new Device(port);
    const stream = Buffer.concat([encodeImei(IMEI), a, b]);
    for (let i = 0; i < stream.length; i += 7) d.send(stream.subarray(i, i + 7));
    expect(await d.read(1)).toEqual(Buffer.from([0x01]));
    expect(await d.ack()).toBe(2);
    expect(await d.ack()).toBe(1);
    expect(await stored(IMEI)).toHaveLength(3);
    d.end();
  });

  it('acknowledges records the fix check refuses, counting them: a device must not resend them for ever', async () => {
    const tooOld = t.app.ingest.refused.tooOld;
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    // A real device's packet (Traccar's capture, 14 records of 2017): years old, refused one by one.
    d.send(Buffer.from(TRACCAR_FRAMES.find((f) => f.line === 97)!.hex, 'hex'));
    expect(await d.ack()).toBe(14);
    d.send(encodeAvlPacket(0x8e, [canRecord(40), canRecord(41, { latitude: 95 })]));
    expect(await d.ack()).toBe(2);
    expect(t.app.ingest.refused.tooOld).toBe(tooOld + 14);
    expect(await stored(IMEI)).toHaveLength(1);
    d.end();
  });

  it('acknowledges a record dated past year 9999 as badTime, its time kept as text on the device (issue 66)', async () => {
    const badTime = t.app.ingest.refused.badTime;
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    const far = Date.parse('+010000-01-01T00:00:00Z');
    d.send(encodeAvlPacket(0x8e, [canRecord(60, { timestamp: far })]));
    expect(await d.ack()).toBe(1);
    expect(t.app.ingest.refused.badTime).toBe(badTime + 1);
    await t.app.ingest.refusedFixes?.flush();
    const [row] = await sql<{ fix_time: unknown; fix_time_text: string }>(
      `select r.fix_time, r.fix_time_text from refused_fixes r join gateways g on g.organization_id = r.organization_id and g.id = r.gateway_id where g.unique_id = '${IMEI}' and r.reason = 'badTime'`,
    );
    expect(row).toEqual({ fix_time: null, fix_time_text: '+010000-01-01T00:00:00.000Z' });
    d.end();
  });

  /** A record without the VIN's variable-length element (codecs 8 and 16 have none). */
  const plainRecord = (i: number, over: Partial<AvlRecord> = {}) =>
    canRecord(i, {
      io: new Map<number, number | bigint | Buffer>([
        [239, 1],
        [240, 1],
        [66, 13_845],
        [10800, 0xfb5d],
      ]),
      ...over,
    });

  it('stores codec 16 records, ids above 255 and the generation type included (decision 0323)', async () => {
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    d.send(encodeAvlPacket(0x10, [plainRecord(70, { generationType: 5 }), plainRecord(71)]));
    expect(await d.ack()).toBe(2);
    const rows = await stored(IMEI);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.attributes).toMatchObject({ ignition: true, eyeTemp1: -11.87 });
    expect(rows[0]!.latitude).toBeCloseTo(39.0997, 6);
    d.end();
  });

  it('acknowledges a frame of a codec it does not speak, keeps the connection and records it on the device (decision 0323)', async () => {
    const before = t.app.ingest.refused.undecodable;
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    // A codec 8 frame relabelled 0x0f (a codec Teltonika has not defined), its CRC made good.
    const frame = encodeAvlPacket(0x08, [
      plainRecord(80, { io: new Map([[239, 1]]) }),
      plainRecord(81, { io: new Map([[239, 1]]) }),
      plainRecord(82, { io: new Map([[239, 1]]) }),
    ]);
    frame[8] = 0x0f;
    frame.writeUInt32BE(crc16Ibm(frame, 8, frame.length - 4), frame.length - 4);
    d.send(frame);
    expect(await d.ack()).toBe(3);
    // The connection stays open: a good packet after it is stored.
    d.send(encodeAvlPacket(0x08, [plainRecord(83, { io: new Map([[239, 1]]) })]));
    expect(await d.ack()).toBe(1);
    expect(await stored(IMEI)).toHaveLength(1);
    expect(t.app.ingest.refused.undecodable).toBe(before + 1);
    await t.app.ingest.refusedFixes?.flush();
    const orgId = (await login(t.app, DEMO.admin)).user.organization!.id;
    const token = (await login(t.app, DEMO.admin)).accessToken;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/gateways/${truck.gatewayId}/refused-fixes`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const row = (res.json() as { content: { reason: string; message: string; hint: string | null; fixTime: string | null }[] }).content.find(
      (r) => r.reason === 'undecodable',
    );
    expect(row).toMatchObject({ message: 'sent codec 15: not supported', fixTime: null });
    expect(row!.hint).toContain('codec 8');
    d.end();
  });

  it('records a codec 13 frame (a command answer nobody asked for) without acknowledging it', async () => {
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    // Traccar's captured codec 13 frame: "#GET DATAORDER\r\n" answered by a device.
    d.send(Buffer.from('000000000000001C0D01050000001056E924222347455420444154414F524445520D0A0100004990', 'hex'));
    expect(await d.read(1, 500)).toBeNull();
    d.send(encodeAvlPacket(0x08, [plainRecord(90, { io: new Map([[239, 1]]) })]));
    expect(await d.ack()).toBe(1);
    d.end();
  });

  it("maps IO elements with the device model's map, multiplier included", async () => {
    const [model] = await t.app.db
      .insert(deviceModels)
      .values({
        name: 'FMC650 test',
        protocol: 'teltonika',
        ioMap: { '239': { attribute: 'ignition' }, '200': { attribute: 'engineHours', multiplier: 0.05 }, '201': { attribute: 'fuelLevel' } },
      })
      .returning({ id: deviceModels.id });
    await t.app.db.update(gateways).set({ deviceModelId: model!.id }).where(eq(gateways.id, other.gatewayId));
    const d = new Device(port);
    expect(await d.handshake(OTHER_IMEI)).toBe(0x01);
    d.send(
      encodeAvlPacket(0x8e, [
        canRecord(50, {
          io: new Map([
            [239, 1],
            [200, 2000],
            [201, 57],
            [87, 999],
          ]),
        }),
      ]),
    );
    expect(await d.ack()).toBe(1);
    const [row] = await stored(OTHER_IMEI);
    expect(row).toMatchObject({ engine_hours: 100, ignition: true, odometer: null });
    expect(row!.attributes).toMatchObject({ ignition: true, engineHours: 100, fuelLevel: 57, io: { '239': 1, '200': 2000, '201': 57, '87': 999 } });
    expect(row!.attributes).not.toHaveProperty('vehicleOdometer');
    d.end();
  });

  it('drops a connection that sends data before its IMEI, or a frame over the size limit', async () => {
    const d = new Device(port);
    d.send(encodeAvlPacket(0x8e, [canRecord(60)]));
    await d.closed;
    const big = new Device(port);
    expect(await big.handshake(IMEI)).toBe(0x01);
    const header = Buffer.alloc(8);
    header.writeUInt32BE(1_000_000, 4);
    big.send(header);
    await big.closed;
    expect(await stored(IMEI)).toHaveLength(0);
  });

  it('ends idle connections when it closes, after acknowledging what it holds', async () => {
    const s = new TeltonikaServer(t.app.ingest);
    const p = (await s.listen({ port: 0, host: '127.0.0.1' })).port;
    const d = new Device(p);
    expect(await d.handshake(IMEI)).toBe(0x01);
    d.send(encodeAvlPacket(0x8e, [canRecord(70)]));
    expect(await d.ack()).toBe(1);
    await s.close();
    await d.closed;
    expect(await stored(IMEI)).toHaveLength(1);
  });
});
