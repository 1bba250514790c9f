import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceCommand, Page } from '@fleet/api-contract';
import { createTestApp, eventually, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { activityRows, registryActors, userWithPermissions } from '../../test/registry.ts';
import { createApiToken } from '../../test/api-tokens.ts';
import { testAvlRecord } from '../../test/teltonika.ts';
import { createTestVehicle } from '../../test/vehicles.ts';
import { decodeCodec12, encodeAvlPacket, encodeImei, encodeResponse, TeltonikaServer } from '../positions/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { PACKET_ROUND_MS } from './device-commands.dispatch.ts';

// Commands to a device (issue 73, decision 0318) through HTTP and a simulated Teltonika device on a
// real socket: queued while connected and written at once as codec 12, answered, stored; queued
// while away and sent at the handshake; expired unanswered; refused without GAT_COMMAND, with bad
// text, and for another organization's device; every command in the activity log.

/** A device's side of the connection: writes bytes, reads whole frames the server sends. */
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

  /** The next `n` bytes from the server, or null when none come within `ms`. */
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

  /** The next codec 12 frame the server writes (its command), or null. */
  async command(ms?: number): Promise<{ type: number; text: string } | null> {
    const head = await this.read(8, ms);
    if (!head) return null;
    const rest = await this.read(head.readUInt32BE(4) + 4, ms);
    return rest ? decodeCodec12(Buffer.concat([head, rest])) : null;
  }

  end(): Promise<void> {
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.end();
    });
  }
}

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
let server: TeltonikaServer;
let port: number;
let gatewayId: string;
const IMEI = '356307042449901';

const url = (orgId = a.orgId, id = gatewayId) => `/api/v1/organizations/${orgId}/gateways/${id}/commands`;
const queue = (text: unknown, headers: Record<string, string> = a.admin, orgId = a.orgId) =>
  t.app.inject({ method: 'POST', url: url(orgId), headers, payload: { text } });
const list = async () => (await t.app.inject({ method: 'GET', url: url(), headers: a.admin })).json() as Page<DeviceCommand>;
const one = async (id: string) => (await list()).content.find((c) => c.id === id);
const sql = (q: string) => t.database.db.execute(q as never);

beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
  gatewayId = (await createTestVehicle(t.app.db, a.orgId, { uniqueId: IMEI })).gatewayId;
  server = new TeltonikaServer(t.app.ingest);
  port = (await server.listen({ port: 0, host: '127.0.0.1' })).port;
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('commands to a device', () => {
  it('writes a command queued while the device is connected as codec 12, and stores its answer', async () => {
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    const res = await queue('getinfo');
    expect(res.statusCode).toBe(201);
    const queued = res.json() as DeviceCommand;
    expect(queued).toMatchObject({ gatewayId, text: 'getinfo', answer: null, queuedBy: { email: 'admin@demofreight.test', token: null } });
    expect(Date.parse(queued.expiresAt) - Date.parse(queued.createdAt)).toBe(24 * 3_600_000);

    expect(await d.command()).toEqual({ type: 0x05, text: 'getinfo' });
    expect(await one(queued.id)).toMatchObject({ status: 'SENT', sentAt: expect.any(String) as string });

    d.send(encodeResponse('RTC:2026/11/30 20:00 RST:2 ERR:1 GPS:1 SAT:9'));
    const answered = await eventually(
      () => one(queued.id),
      (c) => c?.status === 'ANSWERED',
    );
    expect(answered).toMatchObject({ answer: 'RTC:2026/11/30 20:00 RST:2 ERR:1 GPS:1 SAT:9', answeredAt: expect.any(String) as string });
    await d.end();
  });

  it('sends one command at a time: the next waits for the answer to the first', async () => {
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    const first = (await queue('setdigout 1')).json() as DeviceCommand;
    const second = (await queue('getio')).json() as DeviceCommand;
    expect(await d.command()).toEqual({ type: 0x05, text: 'setdigout 1' });
    expect(await d.command(500)).toBeNull();
    expect((await one(second.id))?.status).toBe('QUEUED');
    d.send(encodeResponse('DOUT1:1 Timeout:INFINITY'));
    expect(await d.command()).toEqual({ type: 0x05, text: 'getio' });
    d.send(encodeResponse('DI1:0 AIN1:0 DO1:1'));
    await eventually(
      () => one(second.id),
      (c) => c?.status === 'ANSWERED',
    );
    expect(await one(first.id)).toMatchObject({ status: 'ANSWERED', answer: 'DOUT1:1 Timeout:INFINITY' });
    expect(await one(second.id)).toMatchObject({ status: 'ANSWERED', answer: 'DI1:0 AIN1:0 DO1:1' });
    await d.end();
  });

  it('keeps a command queued while the device is away and sends it when the device connects', async () => {
    const queued = (await queue('getgps')).json() as DeviceCommand;
    expect(queued.status).toBe('QUEUED');
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    expect(await d.command()).toEqual({ type: 0x05, text: 'getgps' });
    d.send(encodeResponse('GPS:1 Sat:11 Lat:39.0997 Long:-94.5786'));
    await eventually(
      () => one(queued.id),
      (c) => c?.status === 'ANSWERED',
    );
    await d.end();
  });

  it('expires a command unanswered past its time, and never sends it after', async () => {
    const queued = (await queue('getver')).json() as DeviceCommand;
    await sql(`update device_commands set expires_at = now() - interval '1 minute' where id = '${queued.id}'`);
    expect(await one(queued.id)).toMatchObject({ status: 'EXPIRED', sentAt: null, answer: null });
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    expect(await d.command(500)).toBeNull();
    await d.end();
  });

  it('lists the commands newest first with their status', async () => {
    const page = await list();
    expect(page.totalElements).toBe(5);
    expect(page.content.map((c) => [c.text, c.status])).toEqual([
      ['getver', 'EXPIRED'],
      ['getgps', 'ANSWERED'],
      ['getio', 'ANSWERED'],
      ['setdigout 1', 'ANSWERED'],
      ['getinfo', 'ANSWERED'],
    ]);
  });

  it('refuses a user without GAT_COMMAND (403), and lets a token with it queue', async () => {
    const viewer = await userWithPermissions(t, a.orgId, ['GAT_LIST', 'GAT_READ']);
    const res = await queue('getinfo', viewer);
    expectErrorBody(res.json(), 403);
    expect(res.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: url(), headers: viewer })).statusCode).toBe(200);

    const token = await createApiToken(t.app, a.orgId, a.admin, ['GAT_LIST', 'GAT_READ', 'GAT_COMMAND'], 'Dispatch integration');
    const byToken = await queue('getstatus', { authorization: `Bearer ${token.token}` });
    expect(byToken.statusCode).toBe(201);
    expect((byToken.json() as DeviceCommand).queuedBy).toMatchObject({ email: 'admin@demofreight.test', token: 'Dispatch integration' });
  });

  it('refuses empty, blank and too long text (400) and stores nothing', async () => {
    const before = (await list()).totalElements;
    expectFieldErrors((await queue('')).json(), 400, { text: 'Command is a required field' });
    expectFieldErrors((await queue('   ')).json(), 400, { text: 'Command is a required field' });
    expectFieldErrors((await queue('x'.repeat(201))).json(), 400, { text: 'Command must be at most 200 characters' });
    expectFieldErrors((await queue('getinfo\nreset')).json(), 400, { text: 'Command may use printable ASCII characters only' });
    expectFieldErrors((await queue('réglage')).json(), 400, { text: 'Command may use printable ASCII characters only' });
    expect((await queue(undefined)).statusCode).toBe(400);
    expect((await list()).totalElements).toBe(before);
  });

  it("answers another organization's device as missing (404), both ways", async () => {
    expectErrorBody((await queue('getinfo', a.other, a.otherOrgId)).json(), 404);
    const res = await t.app.inject({ method: 'GET', url: url(a.otherOrgId), headers: a.other });
    expectErrorBody(res.json(), 404);
  });

  it('logs every command in the activity log', async () => {
    const rows = (await activityRows(t.database.db, gatewayId)).filter((r) => r.action === 'SEND_COMMAND');
    expect(rows).toHaveLength((await list()).totalElements);
    expect(rows.every((r) => r.entity_type === 'GATEWAY')).toBe(true);
  });

  // Last: the command is stored as another instance stores it, without this one's activity entry.
  it('sends a command another instance queued after the next packet of the device connected here, once', async () => {
    await sql(`update device_commands set status = 'EXPIRED' where status = 'QUEUED'`); // the earlier tests' leftovers
    const d = new Device(port);
    expect(await d.handshake(IMEI)).toBe(0x01);
    // The handshake's own moment to send runs after its answer: let it find nothing first.
    await new Promise((r) => setTimeout(r, 500));
    const { id } = rowsOf<{ id: string }>(
      await sql(
        `insert into device_commands (organization_id, gateway_id, text, expires_at) values ('${a.orgId}', '${gatewayId}', 'getinfo', now() + interval '1 hour') returning id`,
      ),
    )[0]!;
    expect(await d.command(PACKET_ROUND_MS + 300)).toBeNull();
    const start = Date.now() - 60_000;
    d.send(encodeAvlPacket(0x08, [testAvlRecord(start, 0)]));
    expect((await d.read(4))?.readUInt32BE(0)).toBe(1);
    const started = Date.now();
    expect(await d.command()).toEqual({ type: 0x05, text: 'getinfo' });
    expect(Date.now() - started).toBeLessThan(PACKET_ROUND_MS + 1000);
    expect(await one(id)).toMatchObject({ status: 'SENT' });
    // More packets while it waits for its answer send nothing again.
    d.send(encodeAvlPacket(0x08, [testAvlRecord(start, 1)]));
    expect((await d.read(4))?.readUInt32BE(0)).toBe(1);
    expect(await d.command(PACKET_ROUND_MS + 500)).toBeNull();
    d.send(encodeResponse('RTC:2026/12/03 16:30 RST:2 ERR:1 GPS:1 SAT:9'));
    await eventually(
      () => one(id),
      (c) => c?.status === 'ANSWERED',
    );
    await d.end();
  });
});
