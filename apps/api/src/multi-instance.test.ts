import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '@fleet/api-contract';
import { migrationsFolder, openDatabase, type Database } from './db/client.ts';
import { hashPassword } from './modules/auth/index.ts';
import { DEMO, onServer, serverDatabase } from './test/helpers.ts';
import { signIn, startServer, type ServerProcess } from './test/server-process.ts';
import { countStored, sigtermUnderLoad } from './test/shutdown-under-load.ts';
import { openLiveStream } from './test/sse-client.ts';

// Several API instances behind a load balancer on one PostgreSQL: two real server processes,
// started together on an empty database, each check made through one and seen through the other.
// PostgreSQL only (PGlite is one process's database): runs in the suite's PostgreSQL pass.

// A PostgreSQL server or the Citus coordinator (TEST_CITUS_URL: a pool database).
const serverUrl = onServer();

let one: ServerProcess;
let two: ServerProcess;
let database: Database;
let dropDatabase: () => Promise<void> = async () => undefined;

// The answers are read as the test needs them; their shapes are asserted, not typed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(server: ServerProcess, method: string, url: string, token: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server.url}/api/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** The retention-purge lines of a server's log (pino JSON). */
function purgeLines(server: ServerProcess): Array<{ pid: number; msg: string; ran: boolean; slot: string }> {
  return server
    .output()
    .split('\n')
    .filter((l) => l.includes('"job":"retention-purge"'))
    .map((l) => JSON.parse(l));
}

describe.skipIf(!serverUrl)('two API instances on one PostgreSQL (PostgreSQL pass only: set TEST_DATABASE_URL)', () => {
  beforeAll(async () => {
    const scratch = await serverDatabase();
    dropDatabase = scratch.drop;
    const env = { DATABASE_URL: scratch.url, DEMO: '1', SIMULATOR: '0', LOG_LEVEL: 'info' };
    // At the same moment on an empty database, as in a rolling start of a new installation.
    const started = await Promise.allSettled([startServer({ env }), startServer({ env: { ...env, SHUTDOWN_DRAIN_MS: '1000' } })]);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop('SIGKILL') : null)));
      throw failed.reason;
    }
    [one, two] = started.map((s) => (s as PromiseFulfilledResult<ServerProcess>).value) as [ServerProcess, ServerProcess];
    database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory', poolSize: 2 });
  });

  afterAll(async () => {
    await Promise.all([one?.stop('SIGKILL'), two?.stop('SIGKILL')]);
    await database?.close();
    await dropDatabase();
  });

  const rows = async <T>(q: ReturnType<typeof sql>) => ((await database.db.execute(q)) as unknown as { rows: T[] }).rows;

  it('start together on an empty database: migrations applied once, the demo organization seeded once', async () => {
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    const [counts] = await rows<{ migrations: number; orgs: number; superadmins: number; users: number; devices: number }>(sql`
      select (select count(*)::int from drizzle.__drizzle_migrations) as migrations,
             (select count(*)::int from organizations where name = 'Demo Freight') as orgs,
             (select count(*)::int from users where role = 'SUPER_ADMIN') as superadmins,
             (select count(*)::int from users) as users,
             (select count(*)::int from gateways) as devices`);
    expect(counts).toEqual({ migrations: journal.entries.length, orgs: 1, superadmins: 1, users: 6, devices: 25 }); // users: admin, dispatcher, three drivers, the super administrator
    for (const s of [one, two]) expect(s.output()).not.toContain('"level":50');
  });

  it('runs the retention purge on exactly one of them; the other logs that it skipped', async () => {
    // Both run the latest daily slot at start (nobody ran it yet); the slot is claimed once.
    const until = Date.now() + 15_000;
    while (purgeLines(one).length + purgeLines(two).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const lines = [...purgeLines(one), ...purgeLines(two)];
    expect(lines).toHaveLength(2);
    const ran = lines.filter((l) => l.ran);
    expect(ran).toHaveLength(1);
    expect(ran[0]!.msg).toBe('retention purge finished');
    expect(lines.find((l) => !l.ran)!.msg).toMatch(/^retention purge skipped: another instance (already ran|is running) it$/);
    expect(new Set(lines.map((l) => l.slot)).size).toBe(1);
    const [run] = await rows<{ status: string; ranBy: string }>(sql`select status, summary->>'ranBy' as "ranBy" from job_runs where name = 'retention-purge'`);
    expect(run!.status).toBe('OK');
    expect(run!.ranBy).toMatch(new RegExp(` pid ${ran[0]!.pid}$`));
    expect([one.pid, two.pid]).toContain(ran[0]!.pid);
  });

  it('delivers a position sent to instance 1 to a live stream on instance 2 within a second', async () => {
    const admin = await signIn(two, DEMO.admin);
    const orgId = admin.user.organization!.id;
    const stream = await openLiveStream(`${two.url}/api/v1/organizations/${orgId}/assets/stream`, admin.accessToken);
    expect(stream.status).toBe(200);
    await stream.next((e) => e.event === 'snapshot');
    const latitude = Number((39 + Math.random()).toFixed(6));
    const sentAt = Date.now();
    const res = await fetch(`http://127.0.0.1:${one.osmandPort}/?id=demo-truck-05&lat=${latitude}&lon=-94.58&timestamp=${Math.floor(sentAt / 1000)}&speed=55`);
    expect(res.status).toBe(200);
    const event = await stream.next((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === latitude), 5000);
    stream.close();
    expect(event.data.vehicles.find((v) => v.latitude === latitude)?.unitNumber).toBe('105');
    expect(event.at - sentAt).toBeLessThan(1000);
  });

  it("shows a vehicle edited through instance 1 in instance 2's list page and search on the next request", async () => {
    const admin = await signIn(one, DEMO.admin);
    const orgId = admin.user.organization!.id;
    const page = `/organizations/${orgId}/assets?type=VEHICLE&page=0&size=15&sort=unitNumber,asc`;
    // Instance 2 has both lists in memory before the edit.
    const before = await call(two, 'GET', page, admin.accessToken);
    const found = await call(two, 'GET', `/organizations/${orgId}/assets?search=112`, admin.accessToken);
    const vehicle = (found.json.content as Asset[]).find((a) => a.unitNumber === '112')!;
    expect(before.json.content.map((a: Asset) => a.unitNumber)).toContain('112');
    expect(await call(two, 'GET', `/organizations/${orgId}/assets?search=112-x`, admin.accessToken)).toMatchObject({ json: { totalElements: 0 } });

    const { json: d } = await call(one, 'GET', `/organizations/${orgId}/assets/${vehicle.id}`, admin.accessToken);
    const input = { type: 'VEHICLE', unitNumber: '112-X', vin: d.vin, make: d.make, model: d.model, year: d.year, plate: d.plate, plateState: d.plateState };
    const edited = await call(one, 'PUT', `/organizations/${orgId}/assets/${vehicle.id}`, admin.accessToken, {
      ...input,
      fuelType: d.fuelType,
      iftaQualified: d.iftaQualified,
      odometerKm: d.odometerKm,
      status: d.status,
      notes: 'renumbered through instance 1',
    });
    expect(edited.status).toBe(200);

    const after = await call(two, 'GET', page, admin.accessToken);
    const row = (after.json.content as Asset[]).find((a) => a.id === vehicle.id);
    expect(row).toMatchObject({ unitNumber: '112-X', notes: 'renumbered through instance 1' });
    const search = await call(two, 'GET', `/organizations/${orgId}/assets?search=112-x`, admin.accessToken);
    expect(search.json.totalElements).toBe(1);
    expect(search.json.content[0].id).toBe(vehicle.id);
  });

  it('refuses a user deactivated through instance 1 on instance 2 at once, though instance 2 had the user cached', async () => {
    const admin = await signIn(one, DEMO.admin);
    const dispatcher = await signIn(two, DEMO.dispatcher);
    const orgId = dispatcher.user.organization!.id;
    const list = `/organizations/${orgId}/assets?size=1`;
    // Two requests: the second is served from instance 2's auth cache.
    expect((await call(two, 'GET', list, dispatcher.accessToken)).status).toBe(200);
    expect((await call(two, 'GET', list, dispatcher.accessToken)).status).toBe(200);

    const off = await call(one, 'POST', `/organizations/${orgId}/users/${dispatcher.user.id}/deactivate`, admin.accessToken);
    expect(off.status).toBe(200);
    const refused = await call(two, 'GET', list, dispatcher.accessToken);
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ status: 401 });
  });

  it("ends the live map and notifications streams on instance 2 within a second of their user's deactivation through instance 1", async () => {
    const admin = await signIn(one, DEMO.admin);
    const orgId = admin.user.organization!.id;
    const email = `watcher${Date.now()}@demofreight.test`;
    const password = 'Watcher#2026';
    const [role] = await rows<{ id: string }>(
      sql`insert into roles (organization_id, name, permissions) values (${orgId}, ${`Watcher ${Date.now()}`}, '{ASSET_LIST}') returning id`,
    );
    const [user] = await rows<{ id: string }>(
      sql`insert into users (organization_id, role, role_id, email, username, password_hash) values (${orgId}, 'USER', ${role!.id}, ${email}, ${email}, ${await hashPassword(password)}) returning id`,
    );
    const watcher = await signIn(two, { email, password });
    const live = await openLiveStream(`${two.url}/api/v1/organizations/${orgId}/assets/stream`, watcher.accessToken);
    const bell = await openLiveStream(`${two.url}/api/v1/organizations/${orgId}/notifications/stream`, watcher.accessToken);
    await Promise.all([live.next((e) => e.event === 'snapshot'), bell.next((e) => e.event === 'unread')]);

    const off = await call(one, 'POST', `/organizations/${orgId}/users/${user!.id}/deactivate`, admin.accessToken);
    const at = Date.now();
    expect(off.status).toBe(200);
    for (const stream of [live, bell]) {
      const last = await stream.next((e) => e.event === 'revoked', 5000);
      expect(last.at - at).toBeLessThan(1000);
      expect((await stream.ended).how).toBe('end');
    }
    // The fleet keeps moving; the deactivated user sees none of it.
    const res = await fetch(`http://127.0.0.1:${one.osmandPort}/?id=demo-truck-07&lat=38.5&lon=-90.1&timestamp=${Math.floor(Date.now() / 1000)}`);
    expect(res.status).toBe(200);
    // The time passing is the subject: nothing follows the revocation.
    await new Promise((r) => setTimeout(r, 300));
    expect(live.events.at(-1)!.event).toBe('revoked');
  });

  it('revokes the whole session on both instances when a rotated refresh token is presented again to the other', async () => {
    const session = await signIn(one, DEMO.admin);
    const rotate = (server: ServerProcess, token: string) => call(server, 'POST', '/auth/refresh-token', token);
    const rotated = await rotate(one, session.refreshToken);
    expect(rotated.status).toBe(200);
    const reused = await rotate(two, session.refreshToken);
    expect(reused.status).toBe(401);
    expect(reused.json.technicalMessage).toBe('Refresh token reuse detected; session revoked');
    // The family's newest token, which nobody reused, no longer works on instance 1 either.
    const newest = await rotate(one, rotated.json.refreshToken);
    expect(newest.status).toBe(401);
    expect(newest.json.technicalMessage).toBe('Refresh token revoked');
  });

  it('keeps the live stream and the auth cache right after losing its LISTEN connections (database restart, failover)', async () => {
    const admin = await signIn(two, DEMO.admin);
    const orgId = admin.user.organization!.id;
    const stream = await openLiveStream(`${two.url}/api/v1/organizations/${orgId}/assets/stream`, admin.accessToken);
    await stream.next((e) => e.event === 'snapshot');
    const listeners = sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name like 'fleetline listen %'`;
    // Four per instance: auth changes, the live map, notifications, duty-status changes.
    expect((await rows<{ n: number }>(listeners))[0]!.n).toBe(8);
    await rows(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name like 'fleetline listen %'`);

    // While instance 2 listens again, its cache cannot be vouched for: requests are answered from the database.
    const during = await call(two, 'GET', `/organizations/${orgId}/assets?size=1`, admin.accessToken);
    expect(during.status).toBe(200);
    // A position committed in the gap was never notified; the reconnected hub sends it anyway.
    const latitude = Number((38 + Math.random()).toFixed(6));
    const res = await fetch(`http://127.0.0.1:${one.osmandPort}/?id=demo-truck-06&lat=${latitude}&lon=-90.2&timestamp=${Math.floor(Date.now() / 1000)}`);
    expect(res.status).toBe(200);
    await stream.next((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === latitude), 10_000);
    stream.close();
    const until = Date.now() + 10_000;
    while ((await rows<{ n: number }>(listeners))[0]!.n < 8 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect((await rows<{ n: number }>(listeners))[0]!.n).toBe(8);
    expect(two.output()).toContain('database: LISTEN auth_change connection lost');
  });

  it('SIGTERM under load: every acknowledged position is stored, streams end, /readyz says 503, exit 0; the other instance carries on', async () => {
    const admin = await signIn(two, DEMO.admin);
    const orgId = admin.user.organization!.id;
    const run = await sigtermUnderLoad(two, { orgId, accessToken: admin.accessToken });

    expect(run.exit).toEqual({ code: 0, signal: null });
    expect(run.exitedAt - run.sigtermAt).toBeLessThan(1000 + 15_000);
    expect(run.readyz.filter((r) => r.at < run.sigtermAt).every((r) => r.status === 200)).toBe(true);
    expect(run.readyz.some((r) => r.at > run.sigtermAt && r.status === 503)).toBe(true);
    expect(run.stream.how).toBe('end');
    expect(run.stream.at).toBeLessThanOrEqual(run.exitedAt);
    expect(run.ackedBy.osmandPort).toBeGreaterThan(0);
    expect(run.ackedBy.apiOsmand).toBeGreaterThan(0);
    expect(run.ackedBy.batch).toBeGreaterThan(0);
    // The drain kept serving after the signal.
    expect(run.ackedAfterSigterm).toBeGreaterThan(0);
    expect(await countStored(database.db, run.acked)).toBe(run.acked.length);

    // A client whose stream ended reconnects (through the load balancer) to instance 1, which
    // shows what instance 2 acknowledged.
    const again = await openLiveStream(`${one.url}/api/v1/organizations/${orgId}/assets/stream`, admin.accessToken);
    const snapshot = await again.next((e) => e.event === 'snapshot');
    again.close();
    const lastAcked = run.acked
      .filter((a) => a.uniqueId === 'demo-truck-11')
      .map((a) => a.fixTime)
      .sort()
      .at(-1)!;
    const truck = snapshot.data.vehicles.find((v) => v.unitNumber === '111');
    expect(Date.parse(truck!.fixTime)).toBeGreaterThanOrEqual(Date.parse(lastAcked));
  });
});
