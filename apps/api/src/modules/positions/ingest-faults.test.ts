import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { citusOf, openDatabase, type Database, type Db } from '../../db/client.ts';
import { carryCitusKind } from '../../db/database-kind.ts';
import { pgliteOf } from '../../db/pglite-copy.ts';
import { DatabaseUnavailableError } from '../../db/pglite-remote.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import * as schema from '../../db/schema/index.ts';
import { seed } from '../../seed/seed.ts';
import { createTestApp, onServer, type TestContext } from '../../test/helpers.ts';
import { registryActors } from '../../test/registry.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { GroupCommitter } from './pipeline/group-committer.ts';
import type { PositionRow } from './pipeline/position-row.ts';

// Issue 43, items 1 and 2: whatever fails under it (the embedded database opened again, its thread
// killed, a server's connections terminated, another organization's impossible numbers), a fix a
// device sends is answered 200 only once it is stored, stored exactly once, and one organization's
// input never fails another's. Through HTTP, on PGlite (a data directory in a worker thread, as
// `npm start` runs it) and on PostgreSQL.

const sql = async <T>(db: Db, q: string) => rowsOf<T>(await db.execute(q as never));
const count = async (db: Db, gatewayId: string) =>
  (await sql<{ n: number }>(db, `select count(*)::int as n from positions where gateway_id = '${gatewayId}'`))[0]!.n;
const osmand = (app: FastifyInstance, uniqueId: string, t: number, extra = '') =>
  app.inject({ method: 'GET', url: `/api/v1/ingest/osmand?id=${uniqueId}&timestamp=${Math.floor(t / 1000)}&lat=41.5&lon=-93.6&speed=20${extra}` });

/**
 * Waits until the database answers again: after a killed thread PGlite reopens it after a back-off
 * (2 s from the third stop in ten minutes), and a statement in between fails at once. On a loaded
 * machine a write can commit before the kill, so its answer comes before the reopen.
 */
async function opened(db: Db): Promise<void> {
  await vi.waitFor(() => sql(db, 'select 1'), { timeout: 30_000, interval: 100 });
}

/**
 * Resolves once a stall (database.faults.stall) holds the database: on a server, once its connection
 * has locked the positions tables; PGlite's one session runs the stall before anything sent after it.
 */
async function stallHolds(db: Db): Promise<void> {
  if (!onServer()) return;
  const held = `select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'positions' and l.mode = 'ExclusiveLock' and l.granted`;
  await vi.waitFor(async () => expect((await sql<{ n: number }>(db, held))[0]!.n).toBeGreaterThan(0), { timeout: 10_000, interval: 20 });
}

/** Terminates every other connection to the test's database, as a failover or an operator would. */
async function terminateConnections(db: Db): Promise<number> {
  const rows = await sql<{ n: number }>(
    db,
    `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  );
  return rows[0]!.n;
}

describe('ingest while the database goes away and comes back', () => {
  let app: FastifyInstance;
  let database: Database;
  let orgId: string;
  let v: TestVehicle;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (onServer()) {
      const t: TestContext = await createTestApp();
      ({ app, database } = t);
      cleanup = () => t.close();
    } else {
      // A data directory in a worker thread, as `npm start` runs it: a stopped thread is opened again.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-ingest-faults-'));
      database = await openDatabase({ dataDir: dir, pgliteThread: 'worker' });
      const config = testConfig({ dataDir: dir, publicUrl: 'http://fleet.test' });
      app = await buildApp({ config, database });
      await seed(database.db, { ...config, demo: true }, () => undefined);
      await app.ready();
      cleanup = async () => {
        await app.close();
        await database.close();
        fs.rmSync(dir, { recursive: true, force: true });
      };
    }
    orgId = (await registryActors(app)).orgId;
    v = await createTestVehicle(app.db, orgId, { uniqueId: 'faults-1' });
  }, 120_000);
  afterAll(async () => cleanup?.());

  it('stores every fix after the database opens again: its worker thread killed, or every connection terminated', async () => {
    const t0 = Date.now() - 3_600_000;
    expect((await osmand(app, v.uniqueId, t0)).statusCode).toBe(200);
    if (onServer()) expect(await terminateConnections(app.db)).toBeGreaterThan(0);
    else await database.faults.killThread();
    // On today's main every write after the reopen failed with 26000 (its prepared statement was remembered from the old session).
    for (let k = 1; k <= 5; k++) expect((await osmand(app, v.uniqueId, t0 + k * 10_000)).statusCode).toBe(200);
    if (onServer()) await terminateConnections(app.db);
    else await database.faults.killThread();
    for (let k = 6; k <= 8; k++) expect((await osmand(app, v.uniqueId, t0 + k * 10_000)).statusCode).toBe(200);
    expect(await count(app.db, v.gatewayId)).toBe(9);
    expect(app.ingest.health.failedRows).toBe(0);
  }, 60_000);

  it.runIf(onServer())('survives the server ending a connection that is checked out between two statements: the transaction fails, nothing else', async () => {
    let checkedOut!: () => void;
    const between = new Promise<void>((r) => (checkedOut = r));
    let terminated!: () => void;
    const afterTermination = new Promise<void>((r) => (terminated = r));
    const held = app.db.transaction(async (tx) => {
      await tx.execute('select 1' as never);
      checkedOut();
      await afterTermination;
      await tx.execute('select 2' as never);
    });
    held.catch(() => undefined); // awaited below
    await between;
    await terminateConnections(app.db);
    terminated();
    await expect(held).rejects.toThrow();
    expect((await osmand(app, v.uniqueId, Date.now() - 3_500_000)).statusCode).toBe(200);
  });

  it('runs again a commit whose database died under it: the fix is answered 200 and stored once', async () => {
    const t0 = Date.now() - 1_800_000;
    await opened(app.db);
    const before = await count(app.db, v.gatewayId);
    // The database is held (PGlite: a sleep on its one session; a server: the positions tables locked),
    // so the write is under way in it when the thread is killed or the connections are terminated.
    const stall = database.faults.stall(3000).catch(() => undefined);
    await stallHolds(app.db);
    const answer = osmand(app, v.uniqueId, t0);
    // The fault comes once the write waits in the database: a fixed pause let a loaded machine
    // commit it first, and ending the lock holder first let it run on before its own end.
    const waitUntil = Date.now() + 2500;
    if (onServer()) {
      const waiting = async () =>
        (
          await sql<{ n: number }>(app.db, `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)
        )[0]!.n;
      while ((await waiting()) === 0 && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 20));
      await sql(app.db, `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
      await new Promise((r) => setTimeout(r, 50));
      await terminateConnections(app.db);
    } else {
      while (app.ingest.health.waitingSince() === null && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 100));
      await database.faults.killThread();
    }
    expect((await answer).statusCode).toBe(200);
    await stall;
    await opened(app.db);
    expect(await count(app.db, v.gatewayId)).toBe(before + 1);
    expect((await osmand(app, v.uniqueId, t0)).statusCode).toBe(200);
    expect(await count(app.db, v.gatewayId)).toBe(before + 1);
    expect(app.ingest.health.retries).toBeGreaterThan(0);
  }, 60_000);

  it('counts how long positions wait behind a database that does not answer (what /readyz reports after a minute)', async () => {
    const t0 = Date.now() - 1_700_000;
    await opened(app.db);
    expect(app.ingest.health.waitingSince()).toBeNull();
    const stall = database.faults.stall(1500);
    await stallHolds(app.db);
    const sentAt = Date.now();
    const answer = osmand(app, v.uniqueId, t0);
    // The time passing is the subject: how long the position has waited.
    await new Promise((r) => setTimeout(r, 500));
    const since = app.ingest.health.waitingSince();
    expect(since).not.toBeNull();
    expect(since!).toBeGreaterThanOrEqual(sentAt);
    expect(Date.now() - since!).toBeGreaterThanOrEqual(400);
    expect((await answer).statusCode).toBe(200);
    await stall;
    expect(app.ingest.health.waitingSince()).toBeNull();
  }, 60_000);
});

/**
 * The database behind `db`, whose first position write commits and then fails as a session that
 * died before it answered would (the answer is lost): what a commit under way meets when the
 * embedded thread or a server connection dies at the wrong moment.
 */
function answerLost(db: Db): { db: Db; lost: () => number } {
  let lost = 0;
  const embedded = pgliteOf(db);
  if (embedded) {
    // The group commit's message (db/pglite-bind.ts) runs, and its answer is lost on the way back:
    // through the worker thread (`bound`) or on this thread (`execProtocolStream`).
    const client = new Proxy(embedded, {
      get(target, key) {
        if (key === 'bound' || key === 'execProtocolStream') {
          const call = Reflect.get(target, key, target) as (message: Uint8Array, ...rest: unknown[]) => Promise<unknown>;
          return async (message: Uint8Array, ...rest: unknown[]) => {
            const write = Buffer.from(message.buffer, message.byteOffset, message.byteLength).includes('positions_write');
            const r = await call.call(target, message, ...rest);
            if (write && lost++ === 0) throw new DatabaseUnavailableError("the embedded database's worker thread stopped (test)");
            return r;
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { db: drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db, lost: () => lost };
  }
  const pool = (db as unknown as { $client: { connect(): Promise<{ query: (...a: unknown[]) => Promise<unknown>; release: (e?: Error) => void }> } }).$client;
  const flaky = new Proxy(pool, {
    get(target, key) {
      if (key === 'connect') {
        return async () => {
          const c = await target.connect();
          return new Proxy(c, {
            get(ct, ck) {
              if (ck === 'query') {
                return async (...args: unknown[]) => {
                  const r = await ct.query(...args);
                  const name = (args[0] as { name?: string } | undefined)?.name;
                  if (name?.startsWith('positions_write') && lost++ === 0)
                    throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
                  return r;
                };
              }
              const value: unknown = Reflect.get(ct, ck, ct);
              return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(ct) : value;
            },
          });
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  // writeOrganization takes the pooled path for a pg.Pool: the proxy keeps its prototype.
  const flakyDb = drizzlePg({ client: flaky as unknown as pg.Pool, schema }) as unknown as Db;
  // On Citus the group commit calls the write function, as on the app's own handle.
  carryCitusKind(flakyDb, citusOf(db));
  return { db: flakyDb, lost: () => lost };
}

describe('organizations never share a failure', () => {
  let t: TestContext;
  let orgA: string;
  let orgB: string;
  let va: TestVehicle;
  let vb: TestVehicle;
  beforeAll(async () => {
    t = await createTestApp();
    const a = await registryActors(t.app);
    orgA = a.orgId;
    orgB = a.otherOrgId;
    va = await createTestVehicle(t.app.db, orgA, { uniqueId: 'tenant-a' });
    vb = await createTestVehicle(t.app.db, orgB, { uniqueId: 'tenant-b' });
  });
  afterAll(async () => t?.close());

  it("stores every good fix of organization A while organization B's device sends numbers no column can hold at the same time", async () => {
    const t0 = Date.now() - 7_200_000;
    const poison = ['&accuracy=1e308', '&speed=1e-320', '&altitude=1e39', '&bearing=1e-45'];
    const sends = [
      ...Array.from({ length: 300 }, (_, k) => osmand(t.app, va.uniqueId, t0 + k * 1000).then((r) => ['A', r.statusCode] as const)),
      ...Array.from({ length: 100 }, (_, k) => osmand(t.app, vb.uniqueId, t0 + k * 1000, poison[k % poison.length]).then((r) => ['B', r.statusCode] as const)),
    ];
    const answers = await Promise.all(sends);
    // B's fixes are refused for their content: answered as received, so its device moves on.
    expect(answers.filter(([, s]) => s !== 200)).toEqual([]);
    expect(await count(t.app.db, va.gatewayId)).toBe(300);
    expect(await sql(t.app.db, `select speed, course, altitude, accuracy from positions where gateway_id = '${vb.gatewayId}' limit 3`)).toEqual([]);
    expect(t.app.ingest.health.failedRows).toBe(0);
  }, 60_000);

  it('refuses only the row the database itself refuses: the rest of its organization and every other organization are stored', async () => {
    const committer = new GroupCommitter(t.app.db);
    const t0 = Date.now() - 3_000_000;
    const row = (v: TestVehicle, orgId: string, k: number, assetId = v.assetId): PositionRow => ({
      organizationId: orgId,
      gatewayId: v.gatewayId,
      assetId,
      driverId: v.driverId,
      fixTime: new Date(t0 + k * 1000),
      latitude: 41,
      longitude: -93,
      speed: 10,
      course: 0,
      altitude: null,
      accuracy: null,
      odometer: null,
      odometerSource: null,
      engineHours: null,
      ignition: true,
      protocol: 'batch',
      attributes: {},
    });
    // A vehicle deleted while its device's fixes were in flight: the latest-position row's key refuses it.
    const rows = [row(va, orgA, 1), row(vb, orgB, 1), row(vb, orgB, 2, randomUUID()), row(vb, orgB, 3), row(va, orgA, 2)];
    const { stored, refused } = await committer.write(rows);
    expect(stored).toEqual([true, true, false, true, true]);
    expect(refused?.map((r) => r?.reason ?? null)).toEqual([null, null, 'database', null, null]);
    await committer.close();
  });

  it('stores once, and tells the followers once, the rows of a commit whose answer was lost when its session died', async () => {
    const flaky = answerLost(t.app.db);
    const committer = new GroupCommitter(flaky.db);
    const t0 = Date.now() - 2_000_000;
    const rows = [0, 1, 2].map((k): PositionRow => ({
      organizationId: orgA,
      gatewayId: va.gatewayId,
      assetId: va.assetId,
      driverId: va.driverId,
      fixTime: new Date(t0 + k * 1000),
      latitude: 41,
      longitude: -93,
      speed: 10,
      course: 0,
      altitude: null,
      accuracy: null,
      odometer: null,
      odometerSource: null,
      engineHours: null,
      ignition: true,
      protocol: 'batch',
      attributes: {},
    }));
    const before = await count(t.app.db, va.gatewayId);
    const { stored } = await committer.write(rows);
    expect(flaky.lost()).toBe(2);
    // Stored by the run whose answer was lost: new rows (true), not duplicates, so the followers get them.
    expect(stored).toEqual([true, true, true]);
    expect(await count(t.app.db, va.gatewayId)).toBe(before + 3);
    // A real resend afterwards is a duplicate.
    expect((await new GroupCommitter(t.app.db).write(rows)).stored).toEqual([false, false, false]);
    await committer.close();
  });
});
