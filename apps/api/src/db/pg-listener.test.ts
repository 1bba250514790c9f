import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onServer, serverDatabase } from '../test/helpers.ts';
import { listenOnPool, sharedRoundTrips } from './pg-listener.ts';

/** Round trips whose completion the test controls, numbered in the order they were sent. */
function controlledRoundTrips() {
  const sent: Array<{ finish: (err?: Error) => void }> = [];
  const roundTrip = () =>
    new Promise<void>((resolve, reject) => {
      sent.push({ finish: (err) => (err ? reject(err) : resolve()) });
    });
  return { sent, roundTrip };
}

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  // One turn of the event loop is the subject: settled by then, or not.
  await new Promise((r) => setTimeout(r, 0));
  return done;
};

describe('shared round trips (listener sync)', () => {
  it('answers a caller only after a round trip sent after its call, sharing one among later callers', async () => {
    const { sent, roundTrip } = controlledRoundTrips();
    const sync = sharedRoundTrips(roundTrip);
    const first = sync();
    expect(sent).toHaveLength(1);
    // Arrived while the first round trip was under way: it may have been sent before them.
    const later = [sync(), sync(), sync()];
    expect(sent).toHaveLength(1);
    sent[0]!.finish();
    await first;
    expect(await settled(later[0]!)).toBe(false);
    expect(sent).toHaveLength(2);
    sent[1]!.finish();
    await Promise.all(later);
    // Nothing under way: the next caller sends its own.
    const alone = sync();
    expect(sent).toHaveLength(3);
    sent[2]!.finish();
    await alone;
  });

  it('rejects the callers of a failed round trip and recovers on the next', async () => {
    const { sent, roundTrip } = controlledRoundTrips();
    const sync = sharedRoundTrips(roundTrip);
    const first = sync();
    const queued = sync();
    sent[0]!.finish(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    // The queued caller still gets a round trip of its own after the failed one.
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    sent[1]!.finish();
    await expect(queued).resolves.toBeUndefined();
  });
});

// A PostgreSQL server or the Citus coordinator (TEST_CITUS_URL: a pool database).
const serverUrl = onServer();

describe.skipIf(!serverUrl)('LISTEN on a PostgreSQL server (PostgreSQL pass only)', () => {
  let pool: pg.Pool;
  let other: pg.Client;
  let drop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const scratch = await serverDatabase();
    drop = scratch.drop;
    pool = new pg.Pool({ connectionString: scratch.url, max: 4 });
    other = new pg.Client({ connectionString: scratch.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await pool?.end();
    await drop();
  });

  it('has every notification committed elsewhere before sync() returns, 200 times out of 200', async () => {
    const seen = new Set<string>();
    const listener = await listenOnPool(pool, 'sync_test', { onMessage: (p) => seen.add(p) });
    for (let i = 0; i < 200; i++) {
      // Another session commits (autocommit) a notification; its answer has come back.
      await other.query(`select pg_notify('sync_test', '${i}')`);
      await listener.sync();
      expect(seen.has(String(i))).toBe(true);
    }
    // (Checked without sync() on this machine, 190 of 200 had not arrived yet: decision 0088.)
    await listener.stop();
  });

  it('listens again after its connection is killed, tells the caller, and sync() fails only in the gap', async () => {
    const seen: string[] = [];
    let reconnects = 0;
    const logs: string[] = [];
    const listener = await listenOnPool(pool, 'reconnect_test', { onMessage: (p) => seen.push(p), onReconnect: () => reconnects++, log: (m) => logs.push(m) });
    const killed = await other.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'fleetline listen reconnect_test' and datname = current_database()`,
    );
    expect(killed.rowCount).toBe(1);
    await vi.waitFor(() => expect(reconnects).toBe(1), { timeout: 10_000, interval: 20 });
    expect(logs[0]).toContain('LISTEN reconnect_test connection lost');
    await other.query(`select pg_notify('reconnect_test', 'after')`);
    await listener.sync();
    expect(seen).toEqual(['after']);
    await listener.stop();
  });
});
