import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, testConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { rowsOf } from './db/sql/rows.ts';
import { encodeAvlPacket, encodeImei } from './modules/positions/pipeline/teltonika/codec.ts';
import { seed } from './seed/seed.ts';
import { startServer, type ServerProcess } from './test/server-process.ts';
import { onServer } from './test/helpers.ts';
import { createTestVehicle } from './test/vehicles.ts';

// The Teltonika port as `npm start` opens it (main.ts, TELTONIKA_PORT; decision 0153): a device is
// answered by the server process, and SIGTERM ends its connection after the acknowledged packet.

const IMEI = '352093081452251';

describe('TELTONIKA_PORT', () => {
  it('is 5027 unless set, and 0 turns it off', () => {
    expect(loadConfig({}).teltonikaPort).toBe(5027);
    expect(loadConfig({ TELTONIKA_PORT: '0' }).teltonikaPort).toBe(0);
    expect(loadConfig({ TELTONIKA_PORT: '6001' }).teltonikaPort).toBe(6001);
    expect(() => loadConfig({ TELTONIKA_PORT: '70000' })).toThrow();
  });
});

let server: ServerProcess | undefined;

describe.skipIf(onServer())('the Teltonika port of a server process (PGlite pass)', () => {
  afterAll(async () => {
    await server?.stop('SIGKILL');
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('handshakes, stores and acknowledges a packet, and closes the connection on SIGTERM with exit 0', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-teltonika-port-'));
    {
      const database = await openDatabase({ dataDir });
      await seed(database.db, { ...testConfig({ dataDir }), demo: true }, () => undefined);
      const [org] = rowsOf<{ id: string }>(await database.db.execute(`select id from organizations where name = 'Demo Freight'` as never));
      await createTestVehicle(database.db, org!.id, { uniqueId: IMEI });
      await database.close();
    }
    server = await startServer({ env: { DATA_DIR: dataDir } });
    expect(server.teltonikaPort).not.toBe(5027);

    const socket = net.connect(server.teltonikaPort, '127.0.0.1');
    let received = Buffer.alloc(0);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (b: Buffer) => (received = Buffer.concat([received, b])));
    socket.on('error', () => undefined);
    // Up to 30 s: the server's answer waits on its database, which a loaded CI machine slows (5 s missed).
    const bytes = async (n: number) => {
      for (let i = 0; i < 600 && received.length < n; i++) await new Promise((r) => setTimeout(r, 50));
      return received;
    };
    socket.write(encodeImei(IMEI));
    expect((await bytes(1))[0]).toBe(0x01);
    const fixTime = Date.now() - 60_000;
    socket.write(
      encodeAvlPacket(0x8e, [
        {
          timestamp: fixTime,
          priority: 0,
          longitude: -94.58,
          latitude: 39.1,
          altitude: 270,
          angle: 0,
          satellites: 9,
          speed: 0,
          eventIoId: 0,
          io: new Map([
            [239, 1],
            [87, 5_000_000],
          ]),
        },
      ]),
    );
    expect((await bytes(5)).subarray(1, 5).readUInt32BE(0)).toBe(1);

    const exit = await server.stop('SIGTERM');
    await closed;
    expect(exit).toEqual({ code: 0, signal: null });
    const database = await openDatabase({ dataDir });
    try {
      const rows = rowsOf<{ odometer: number; odometer_source: string; ignition: boolean; protocol: string }>(
        await database.db.execute(
          `select p.odometer, p.odometer_source, p.ignition, p.protocol from positions p join gateways g on g.organization_id = p.organization_id and g.id = p.gateway_id where g.unique_id = '${IMEI}'` as never,
        ),
      );
      expect(rows).toEqual([{ odometer: 5_000_000, odometer_source: 'ECM', ignition: true, protocol: 'teltonika' }]);
    } finally {
      await database.close();
    }
  }, 180_000);
});
