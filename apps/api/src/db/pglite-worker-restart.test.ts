import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { pgliteTemplateBlob } from '../test/helpers.ts';
import { openDatabase, restartDelayMs, type Database } from './client.ts';
import { pgliteOf } from './pglite-copy.ts';
import { RemotePGlite } from './pglite-remote.ts';
import { rowsOf } from './sql/rows.ts';

// The embedded database's worker thread stops (here terminated, as a crash, an out-of-memory of its
// heap or a WebAssembly trap would end it; decision 0170): over HTTP, the request under way fails
// with a 503, and then either the data directory is open again in a new thread and requests succeed,
// or an in-memory database is lost and /readyz says so.

/** The worker thread behind the database (the test-only way to end it is RemotePGlite.terminate). */
function remote(database: Database): RemotePGlite {
  const client = pgliteOf(database.db);
  if (!(client instanceof RemotePGlite)) throw new Error('not a worker-thread database');
  return client;
}

// Each test opens a data directory up to three times in a new thread: on CI's loaded machine that alone
// can take most of the default 60 s, so the tests get 180 s (the waits inside stay bounded).
describe.skipIf(!!process.env.TEST_DATABASE_URL || process.env.PGLITE_THREAD === 'main')('a stopped database worker thread', { timeout: 180_000 }, () => {
  const dirs: string[] = [];
  const tmp = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  let app: FastifyInstance | undefined;
  let database: Database | undefined;
  let logged: string[];
  beforeEach(() => {
    logged = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await app?.close();
    await database?.close();
    app = database = undefined;
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The app on `d`, with a route whose statement runs until the thread stops under it. */
  async function appOn(d: Database) {
    const a = await buildApp({ config: testConfig({ dataDir: tmp('fleet-restart-files-'), publicUrl: 'http://fleet.test' }), database: d });
    let started!: () => void;
    const sleeping = new Promise<void>((r) => (started = r));
    a.get('/test/sleep', { config: { public: true } }, async () => {
      // Posted to the worker before started() runs: the thread is stopped under this statement.
      const slow = pgliteOf(a.db)!.query('select pg_sleep(60)');
      started();
      await slow;
      return { slept: true };
    });
    return { app: a, sleeping };
  }

  it('opens its data directory again in a new thread: the request under way fails with 503, the next ones succeed with the data kept', async () => {
    database = await openDatabase({ dataDir: tmp('fleet-restart-data-'), pgliteThread: 'worker' });
    await database.db.execute(sql`create table kept (v text)`);
    await database.db.execute(sql`insert into kept values ('before the crash')`);
    const heard: string[] = [];
    await database.listen('kept_channel', (p) => heard.push(p));
    const opened = await appOn(database);
    app = opened.app;
    const dead = remote(database);

    const underWay = app.inject({ method: 'GET', url: '/test/sleep' });
    await opened.sleeping;
    await dead.terminate();
    const failed = await underWay;
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toMatchObject({ status: 503, message: 'The database is not available right now. Please try again shortly.' });
    expect(failed.json().technicalMessage).toMatch(/worker thread stopped \(exit code 1\)/);
    expect(failed.headers['retry-after']).toBe('5');

    // Through Drizzle, as every route reads: waits for the new thread, then answers.
    const health = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode, health.body).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect(rowsOf<{ v: string }>(await database.db.execute(sql`select v from kept`)).map((r) => r.v)).toEqual(['before the crash']);
    // Listeners moved to the new thread.
    await database.db.execute(sql`select pg_notify('kept_channel', 'after the crash')`);
    expect(heard).toEqual(['after the crash']);
    expect(logged.some((l) => /worker thread stopped \(exit code 1\).*opening .* again in a new worker thread/.test(l))).toBe(true);
    expect(logged.some((l) => /is open again in a new worker thread/.test(l))).toBe(true);
  });

  it('a thread that stops again within 10 minutes opens after a pause, and meanwhile requests fail at once with 503', async () => {
    expect([1, 2, 3, 4, 7, 20].map(restartDelayMs)).toEqual([0, 1000, 2000, 4000, 30_000, 30_000]);
    database = await openDatabase({ dataDir: tmp('fleet-restart-again-'), pgliteThread: 'worker' });
    const opened = await appOn(database);
    app = opened.app;
    await remote(database).terminate();
    expect((await app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);

    await remote(database).terminate();
    const t0 = Date.now();
    const during = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(during.statusCode).toBe(503);
    expect(during.headers['retry-after']).toBe('5');
    // At once: well before the 1 s pause and the reopen after it (a loaded CI machine needs the slack).
    expect(Date.now() - t0).toBeLessThan(1000);
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().technicalMessage).toMatch(/stopped 2 times in 10 minutes; it opens again in 1 s/);
    expect(logged.some((l) => /opening .* again in a new worker thread in 1 s \(2 stops in 10 minutes\)/.test(l))).toBe(true);
    await vi.waitFor(async () => expect((await app!.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200), { timeout: 50_000, interval: 200 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect((await app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
  });

  it('loses an in-memory database: the request under way and later ones fail with 503, /readyz answers 503 with the reason', async () => {
    database = await openDatabase({ dataDir: 'memory', pgliteTemplate: pgliteTemplateBlob(), pgliteThread: 'worker' });
    const opened = await appOn(database);
    app = opened.app;
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    const underWay = app.inject({ method: 'GET', url: '/test/sleep' });
    await opened.sleeping;
    await remote(database).terminate();
    expect((await underWay).statusCode).toBe(503);

    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 503, message: 'Database unavailable' });
    expect(ready.json().technicalMessage).toMatch(/in-memory database is lost: .*worker thread stopped \(exit code 1\); restart the server/);
    const health = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json().technicalMessage).toMatch(/worker thread stopped/);
    expect(database.unavailable()).toMatch(/in-memory database is lost/);
    expect(logged.some((l) => /in-memory database is lost/.test(l))).toBe(true);
  });
});
