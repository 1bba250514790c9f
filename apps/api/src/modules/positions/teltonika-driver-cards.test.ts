import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverCardReadListSchema, driverSchema } from '@fleet/api-contract';
import { buildApp } from '../../app.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { driverBody } from '../../test/registry.ts';
import { testAvlRecord } from '../../test/teltonika.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { type AvlRecord, encodeAvlPacket, encodeImei } from './pipeline/teltonika/codec.ts';
import { TeltonikaServer } from './teltonika-server.ts';

// Issue 73, decision 0324: the driver's card. A driver registered with a card (typed any way, stored
// as 16 hex digits, one driver per card) becomes the vehicle's driver when the vehicle's Teltonika
// device reads it (element 78 over TCP); the activity log says so once, even when the same packet
// comes again on a server started afresh; an unknown card is acknowledged, counted and listed on
// the vehicle's card reads for the office to give to a driver.

/** A device's side of the connection: writes bytes, reads exactly what the server answers. */
class Device {
  private readonly socket: net.Socket;
  private buf = Buffer.alloc(0);
  private waiter: (() => void) | null = null;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (b: Buffer) => {
      this.buf = Buffer.concat([this.buf, b]);
      this.waiter?.();
    });
    this.socket.on('close', () => this.waiter?.());
    this.socket.on('error', () => undefined);
  }

  send(b: Buffer): void {
    this.socket.write(b);
  }

  async read(n: number, ms = 5000): Promise<Buffer | null> {
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

  /** Sends a packet and answers the number of records the server acknowledged (null: none). */
  async store(packet: Buffer): Promise<number | null> {
    this.send(packet);
    const a = await this.read(4);
    return a ? a.readUInt32BE(0) : null;
  }

  end(): void {
    this.socket.end();
  }
}

let t: TestContext;
let app: FastifyInstance;
let server: TeltonikaServer;
let port: number;
let orgId: string;
let admin: Record<string, string>;
let truck: TestVehicle;
let driverId: string;
const IMEI = '356307042449117';
const CARD = 0x4d5e2c01n;
const UNKNOWN = 0x1a0000004d5e2c99n;

const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const base = Date.now() - 3_600_000;
function record(i: number, card: bigint): AvlRecord {
  const io = new Map<number, number | bigint | Buffer>([
    [239, 1],
    [78, card],
  ]);
  return testAvlRecord(base, i, io, { speed: 40, eventIoId: 78 });
}
/** Two records a minute apart with the card in the reader (an iButton stays reported while it is in). */
const cardPacket = encodeAvlPacket(0x8e, [record(0, CARD), record(1, CARD)]);

async function connect(): Promise<Device> {
  const d = new Device(port);
  expect(await d.handshake(IMEI)).toBe(1);
  return d;
}
const assignEntries = () =>
  app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/activity-logs?action=ASSIGN_DRIVER&entityId=${truck.assetId}`, headers: admin });
const currentDriver = async () => (await sql<{ d: string | null }>(`select current_driver_id as d from assets where id = '${truck.assetId}'`))[0]!.d;
const cardReads = async () => {
  const res = await app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/assets/${truck.assetId}/card-reads`, headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return driverCardReadListSchema.parse(res.json());
};

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  const owner = await registerOrganization(t.app, 'Card Carriers');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  truck = await createTestVehicle(t.app.db, orgId, { uniqueId: IMEI, unitNumber: '117', driver: false });
  server = new TeltonikaServer(t.app.ingest, { ioMapTtlMs: 0 });
  port = (await server.listen({ port: 0, host: '127.0.0.1' })).port;
});
afterAll(async () => {
  await server?.close();
  if (app !== t?.app) await app?.close();
  await t?.close();
});

describe('a driver’s card number', () => {
  it('is stored as 16 hex digits however it is typed, and refuses what is not a card with nothing changed', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${orgId}/drivers`,
      headers: admin,
      payload: driverBody({ cardNumber: 'not a card' }),
    });
    expectFieldErrors(bad.json(), 400, { cardNumber: 'Driver card must be up to 16 hex digits (0-9, A-F), not all zeros' });
    const zeros = await app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${orgId}/drivers`,
      headers: admin,
      payload: driverBody({ cardNumber: '0000' }),
    });
    expectFieldErrors(zeros.json(), 400, { cardNumber: 'Driver card must be up to 16 hex digits' });
    expect(await sql(`select id from drivers where organization_id = '${orgId}'`)).toEqual([]);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${orgId}/drivers`,
      headers: admin,
      payload: driverBody({ firstName: 'Ana', lastName: 'Ruiz', cardNumber: ' 4d5e 2c01 ' }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const driver = driverSchema.parse(res.json());
    expect(driver.cardNumber).toBe('000000004D5E2C01');
    driverId = driver.id;
  });

  it('answers 409 naming the card when another driver has it, typed another way', async () => {
    const dup = await app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${orgId}/drivers`,
      headers: admin,
      payload: driverBody({ cardNumber: '00000000-4D5E-2C01' }),
    });
    const body = expectFieldErrors(dup.json(), 409, { cardNumber: 'Card 000000004D5E2C01 is already used by another driver' });
    expect(body.code).toBe('drivers.card_taken');
    // An edit that leaves the card out keeps it.
    const keep = await app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${orgId}/drivers/${driverId}`,
      headers: admin,
      payload: driverBody({ firstName: 'Ana', lastName: 'Ruiz' }),
    });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(keep.json().cardNumber).toBe('000000004D5E2C01');
  });
});

describe('a card read in the vehicle', () => {
  it('makes the card’s driver the vehicle’s driver, and the log says so once', async () => {
    expect(await currentDriver()).toBeNull();
    const d = await connect();
    expect(await d.store(cardPacket)).toBe(2);
    d.end();
    expect(await currentDriver()).toBe(driverId);
    const log = await assignEntries();
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().content.map((e: { summary: string }) => e.summary)).toEqual([
      'System assigned driver Ana Ruiz to vehicle 117, identified by card 000000004D5E2C01',
    ]);
    const reads = await cardReads();
    expect(reads.items).toEqual([
      {
        id: expect.any(String),
        cardNumber: '000000004D5E2C01',
        readAt: new Date(base).toISOString(),
        driver: { id: driverId, name: 'Ana Ruiz' },
        assigned: true,
      },
    ]);
    expect(reads.unknownCount).toBe(0);
    // The driver's own page shows the vehicle.
    const driver = await app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/drivers/${driverId}`, headers: admin });
    expect(driver.json().vehicle).toMatchObject({ id: truck.assetId, unitNumber: '117' });
  });

  it('records and logs nothing again when the same packet comes on a server started afresh', async () => {
    await server.close();
    const restarted = await buildApp({ config: t.config, database: t.database });
    await restarted.ready();
    app = restarted;
    server = new TeltonikaServer(restarted.ingest, { ioMapTtlMs: 0 });
    port = (await server.listen({ port: 0, host: '127.0.0.1' })).port;
    const d = await connect();
    expect(await d.store(cardPacket)).toBe(2);
    d.end();
    expect((await assignEntries()).json().content).toHaveLength(1);
    expect((await cardReads()).items).toHaveLength(1);
    expect(await currentDriver()).toBe(driverId);
  });

  it('acknowledges an unknown card, keeps the driver, and lists the card as unknown', async () => {
    const d = await connect();
    expect(await d.store(encodeAvlPacket(0x8e, [record(4, UNKNOWN)]))).toBe(1);
    d.end();
    expect(await currentDriver()).toBe(driverId);
    expect((await assignEntries()).json().content).toHaveLength(1);
    const reads = await cardReads();
    expect(reads.items[0]).toMatchObject({ cardNumber: '1A0000004D5E2C99', driver: null, assigned: false, readAt: new Date(base + 4 * 30_000).toISOString() });
    expect(reads.unknownCount).toBe(1);
  });

  it('answers 401 without a session and 404 for another organization’s vehicle', async () => {
    const url = `/api/v1/organizations/${orgId}/assets/${truck.assetId}/card-reads`;
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const other = await registerOrganization(app, 'Other Cards');
    const foreign = await app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${other.user.organization!.id}/assets/${truck.assetId}/card-reads`,
      headers: bearer(other.accessToken),
    });
    expectErrorBody(foreign.json(), 404);
  });
});
