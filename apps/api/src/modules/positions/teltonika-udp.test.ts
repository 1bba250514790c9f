import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/sql/rows.ts';
import { createTestApp, DEMO, login, type TestContext } from '../../test/helpers.ts';
import { testAvlRecord } from '../../test/teltonika.ts';
import { createTestVehicle } from '../../test/vehicles.ts';
import { type AvlRecord, crc16Ibm, encodeAvlPacket } from './pipeline/teltonika/codec.ts';
import { encodeUdpPacket, readUdpHeader, TeltonikaUdpServer, udpAck } from './teltonika-udp.ts';

// Teltonika over UDP (decision 0323), through a real socket: answered once committed, a resend
// stored once, a data field it cannot read answered and recorded, an unknown IMEI not answered.

let t: TestContext;
let server: TeltonikaUdpServer;
let port: number;
const IMEI = '356307042441099';
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const stored = () =>
  sql<{ fix_time: Date; latitude: number; attributes: Record<string, unknown> }>(
    `select p.fix_time, p.latitude, p.attributes from positions p join gateways g on g.organization_id = p.organization_id and g.id = p.gateway_id where g.unique_id = '${IMEI}' order by p.fix_time`,
  );

const base = Date.now() - 3_600_000;
const rec = (i: number): AvlRecord =>
  testAvlRecord(
    base,
    i,
    new Map<number, number | bigint | Buffer>([
      [239, 1],
      [25, 0xfb5d],
    ]),
  );

/** Sends a datagram and waits for the answer (null when none comes within `ms`). */
async function exchange(packet: Buffer, ms = 5000): Promise<Buffer | null> {
  const client = dgram.createSocket('udp4');
  try {
    return await new Promise<Buffer | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), ms);
      client.on('message', (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      client.send(packet, port, '127.0.0.1');
    });
  } finally {
    client.close();
  }
}

beforeAll(async () => {
  t = await createTestApp();
  const orgId = (await login(t.app, DEMO.admin)).user.organization!.id;
  await createTestVehicle(t.app.db, orgId, { uniqueId: IMEI });
  server = new TeltonikaUdpServer(t.app.ingest, { ioMapTtlMs: 0 });
  port = (await server.listen({ port: 0, host: '127.0.0.1' })).port;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('Teltonika UDP', () => {
  it('reads the header as the protocol lays it out, and answers in its shape', () => {
    const p = encodeUdpPacket(IMEI, 0xcafe, 0xdd, encodeAvlPacket(0x08, [rec(0)]));
    expect(p.subarray(0, 8).toString('hex')).toBe(`${(p.length - 2).toString(16).padStart(4, '0')}cafe01dd000f`);
    expect(readUdpHeader(p)).toEqual({ packetId: 0xcafe, avlPacketId: 0xdd, imei: IMEI, dataStart: 23 });
    expect(udpAck(0xcafe, 0xdd, 1).toString('hex')).toBe('0005cafe01dd01');
    expect(readUdpHeader(p.subarray(0, p.length - 1))).toBeNull();
  });

  it('stores a packet once committed, answers it, and stores its resend once', async () => {
    const packet = encodeUdpPacket(IMEI, 7, 1, encodeAvlPacket(0x8e, [rec(1), rec(2)]));
    expect((await exchange(packet))?.toString('hex')).toBe('0005000701' + '01' + '02');
    expect((await exchange(packet))?.toString('hex')).toBe('0005000701' + '01' + '02');
    const rows = await stored();
    expect(rows).toHaveLength(2);
    expect(rows[0]!.attributes).toMatchObject({ ignition: true, bleTemp1: -11.87 });
    // The BLE sensor's temperature went to the cold chain once, signed and scaled (decision 0323).
    const readings = await sql<{ sensor: string; celsius: number }>(
      `select r.sensor, r.celsius from temperature_readings r join gateways g on g.organization_id = r.organization_id and g.id = r.gateway_id where g.unique_id = '${IMEI}'`,
    );
    expect(readings).toEqual([
      { sensor: 'bleTemp1', celsius: -11.87 },
      { sensor: 'bleTemp1', celsius: -11.87 },
    ]);
  });

  it('answers a codec 16 packet and one it cannot read, recording the latter', async () => {
    expect((await exchange(encodeUdpPacket(IMEI, 8, 2, encodeAvlPacket(0x10, [rec(3)]))))?.readUInt8(6)).toBe(1);
    const before = t.app.ingest.refused.undecodable;
    const frame = encodeAvlPacket(0x08, [rec(4), rec(5)]);
    frame[8] = 0x0f;
    frame.writeUInt32BE(crc16Ibm(frame, 8, frame.length - 4), frame.length - 4);
    expect((await exchange(encodeUdpPacket(IMEI, 9, 3, frame)))?.toString('hex')).toBe('0005000901' + '03' + '02');
    expect(t.app.ingest.refused.undecodable).toBe(before + 1);
    expect(await stored()).toHaveLength(3);
  });

  it('does not answer an unknown IMEI, and notes it for the devices screen', async () => {
    const before = server.counts.unknownImei;
    expect(await exchange(encodeUdpPacket('999000111222333', 1, 1, encodeAvlPacket(0x08, [rec(6)])), 1500)).toBeNull();
    expect(server.counts.unknownImei).toBe(before + 1);
  });
});
