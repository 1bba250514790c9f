import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { seed } from '../seed/seed.ts';
import { bearer, DEMO, login, onCitus, serverDatabase } from '../test/helpers.ts';
import { CITUS_POOL_SIZE, citusOf, defaultPoolSize, openDatabase, type Database } from './client.ts';

// Issue 34: every statement of one organization's request lands on one worker. The app runs on
// connections with `citus.multi_task_query_log_level = error`, so Citus fails any statement it
// would split into tasks on several shards; the main reads and writes of one organization must all
// still succeed. Issue 49 (decision 0204): the followers behind ingest run too (their failures are
// collected from the log), and ingest is checked with Citus' own counters on every node
// (citus_stat_counters: a statement run as several shards' tasks counts as multi-shard there, even
// when each task alone would pass the log level). The list index, which sweeps every organization,
// stays off. Citus pass only.

const STRICT = 'citus.multi_task_query_log_level=error';

describe.skipIf(!onCitus())('one organization, one worker (Citus pass: TEST_CITUS_URL)', () => {
  let server: { url: string; drop: () => Promise<void> };
  let database: Database;
  let app: FastifyInstance;
  let dataDir: string;
  let headers: Record<string, string>;
  let orgId: string;
  const api = (p: string) => `/api/v1/organizations/${orgId}${p}`;
  /** Requests that did not answer 200, with Citus' reason from the log: all of them at once. */
  let failed: string[] = [];
  /** What the app logged as failed (followers' rounds included). */
  const logged: string[] = [];
  const get = async (p: string) => {
    const res = await app.inject({ method: 'GET', url: api(p), headers });
    if (res.statusCode !== 200) failed.push(`GET ${p.split('?')[0]}: ${res.statusCode}`);
    return res.statusCode === 200 ? res.json() : { content: [] };
  };

  beforeAll(async () => {
    server = await serverDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-one-worker-'));
    const logLevel = process.env.TEST_LOG_LEVEL;
    const config = testConfig({ dataDir, ...(logLevel ? { logLevel } : {}), publicUrl: 'http://fleet.test', iftaRoundMs: 50, listIndexRows: 0 });
    // The demo is seeded on ordinary connections (seeding several organizations' rows at once is
    // not a request); the app then runs on strict ones.
    const seeding = await openDatabase({ databaseUrl: server.url, dataDir: 'memory', poolSize: 2 });
    await seed(seeding.db, { ...config, demo: true }, () => undefined);
    await seeding.close();
    const strict = new URL(server.url);
    strict.searchParams.set('options', `-c ${STRICT}`);
    // The counters on every node, for this database's sessions (a setting its new sessions take).
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      const db = (await admin.query<{ d: string }>('select current_database() as d')).rows[0]!.d;
      const set = `alter database ${pg.escapeIdentifier(db)} set citus.enable_stat_counters = on`;
      await admin.query(set);
      await admin.query('select run_command_on_workers($1)', [set]);
    } finally {
      await admin.end();
    }
    database = await openDatabase({ databaseUrl: strict.toString(), dataDir: 'memory', poolSize: 10 });
    app = await buildApp({ config, database });
    // Every failure the app logs (a follower's round refused by Citus among them), kept for the tests.
    const logError = app.log.error.bind(app.log);
    app.log.error = ((...args: Parameters<typeof logError>) => {
      logged.push(args.map((a) => (a instanceof Error ? a.message : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      return logError(...args);
    }) as typeof app.log.error;
    await app.ready();
    const session = await login(app, DEMO.admin);
    headers = bearer(session.accessToken);
    orgId = session.user.organization!.id;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await server?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs on connections that refuse a statement on several shards', async () => {
    const client = new pg.Client({ connectionString: new URL(`?options=${encodeURIComponent(`-c ${STRICT}`)}`, server.url).toString() });
    await client.connect();
    try {
      expect((await client.query('show citus.multi_task_query_log_level')).rows[0]).toEqual({ 'citus.multi_task_query_log_level': 'error' });
      await expect(client.query('select count(*) from assets')).rejects.toThrow(/multi-task query/);
      await client.query('select count(*) from assets where organization_id = $1', [orgId]);
    } finally {
      await client.end();
    }
  });

  it('serves the main reads of one organization', async () => {
    failed = [];
    const assets = await get('/assets?size=20');
    const drivers = await get('/drivers?size=20');
    await get('/gateways?size=20');
    await get('/groups');
    const live = await get('/assets/live');
    expect(assets.content.length).toBeGreaterThan(0);
    expect(drivers.content.length).toBeGreaterThan(0);
    const vehicle = assets.content.find((a: { type: string }) => a.type === 'VEHICLE') ?? assets.content[0];
    const now = new Date();
    await get(
      `/history-routes/assets/${vehicle.id}?from=${encodeURIComponent(new Date(now.getTime() - 24 * 3600_000).toISOString())}&to=${encodeURIComponent(now.toISOString())}`,
    );
    const driver = drivers.content[0];
    await get(`/drivers/${driver.id}/hos_log/current-day`);
    await get('/availability?size=50');
    await get(`/hos_log?date=${now.toISOString().slice(0, 10)}`);
    const quarter = `${now.getUTCFullYear()}Q${Math.floor(now.getUTCMonth() / 3) + 1}`;
    await get(`/ifta/report?quarter=${quarter}`);
    expect(failed).toEqual([]);
    expect(live).toBeDefined();
  });

  it("plans each read a user waits for as one task on the organization's shard (EXPLAIN)", async () => {
    // The statements the live map, registry lists, availability, the IFTA quarter and a history day
    // send, recorded as the app sends them, then EXPLAINed with their parameters: every Citus scan
    // in each plan is one task with no subplan (a subplan is a round trip through the coordinator).
    const drivers = await get('/drivers?size=1');
    const assets = await get('/assets?size=20');
    const vehicle = assets.content.find((a: { type: string }) => a.type === 'VEHICLE') ?? assets.content[0];
    const now = new Date();
    const quarter = `${now.getUTCFullYear()}Q${Math.floor(now.getUTCMonth() / 3) + 1}`;
    const reads: Record<string, string> = {
      'live map': '/assets/live',
      'vehicles list': '/assets?size=15',
      'drivers list': '/drivers?size=15',
      'devices list': '/gateways?size=15',
      availability: '/availability?size=50',
      'IFTA quarter': `/ifta/report?quarter=${quarter}`,
      'history day': `/history-routes/assets/${vehicle.id}?from=${encodeURIComponent(new Date(now.getTime() - 24 * 3600_000).toISOString())}&to=${encodeURIComponent(now.toISOString())}`,
      'driver log day': `/drivers/${drivers.content[0].id}/hos_log/current-day`,
    };
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    const problems: string[] = [];
    try {
      // The probe itself: a statement over every shard is seen as such.
      const control = citusScans((await client.query<{ 'QUERY PLAN': unknown }>('explain (format json) select count(*) from assets')).rows[0]!['QUERY PLAN']);
      expect(control[0]!.tasks).toBeGreaterThan(1);
      for (const [name, url] of Object.entries(reads)) {
        let scans = 0;
        const sent = await recordStatements(() => get(url));
        if (process.env.DEBUG_PROBE)
          console.log(`${name}: ${sent.length} statements\n${sent.map((q) => `  ${q.text.replace(/\s+/g, ' ').slice(0, 220)}`).join('\n')}`);
        const selects = sent.filter((q) => /^\s*(select|with)\b/i.test(q.text) && !/\bfor (update|share)\b/i.test(q.text));
        expect(selects.length, name).toBeGreaterThan(0);
        for (const q of selects) {
          // PostgreSQL 15 EXPLAINs no bound parameters: the statement is prepared and executed with them as literals.
          await client.query(`prepare read_probe as ${q.text}`);
          const used = Math.max(0, ...[...q.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
          const args = q.values
            .slice(0, used)
            .map((v) => literal(client, v))
            .join(', ');
          const plan = (await client.query<{ 'QUERY PLAN': unknown }>(`explain (format json) execute read_probe${args ? `(${args})` : ''}`)).rows[0]![
            'QUERY PLAN'
          ];
          await client.query('deallocate read_probe');
          for (const scan of citusScans(plan)) {
            scans++;
            if (scan.tasks !== 1 || scan.subplans > 0)
              problems.push(`${name}: ${scan.tasks} tasks, ${scan.subplans} subplans: ${q.text.replace(/\s+/g, ' ').slice(0, 160)}`);
          }
        }
        expect(scans, `${name}: Citus scans seen`).toBeGreaterThan(0);
      }
    } finally {
      await client.end();
    }
    expect(failed).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('takes a driver edit', async () => {
    failed = [];
    const drivers = await get('/drivers?size=1');
    const d = drivers.content[0];
    const edit = await app.inject({
      method: 'PUT',
      url: api(`/drivers/${d.id}`),
      headers,
      payload: { firstName: 'Routed', lastName: d.lastName, licenseNumber: d.licenseNumber, licenseState: d.licenseState },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await get(`/drivers/${d.id}`)).firstName).toBe('Routed');
    expect(failed).toEqual([]);
  });

  /** Statements Citus ran as one shard's task and as several shards' tasks, summed over every node, for this database. */
  async function counters(): Promise<{ single: number; multi: number }> {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const q = `select coalesce(sum(query_execution_single_shard), 0)::int as single, coalesce(sum(query_execution_multi_shard), 0)::int as multi
        from citus_stat_counters where name = current_database()`;
      const here = (await client.query<{ single: number; multi: number }>(q)).rows[0]!;
      const there = (await client.query<{ result: string }>(`select result from run_command_on_workers($$select row_to_json(x) from (${q}) x$$)`)).rows.map(
        (r) => JSON.parse(r.result) as { single: number; multi: number },
      );
      return { single: here.single + there.reduce((a, b) => a + b.single, 0), multi: here.multi + there.reduce((a, b) => a + b.multi, 0) };
    } finally {
      await client.end();
    }
  }

  it('takes positions from devices, their followers on, with no statement on several shards', async () => {
    failed = [];
    const gateways = await get('/gateways?size=50&paired=true');
    const devices = (gateways.content as Array<{ uniqueId: string; id: string }>).filter((g) => g.uniqueId);
    expect(devices.length).toBeGreaterThan(1);
    // The second device's vehicle has no driver: its driving is recorded as unidentified (records
    // without a driver, numbered per vehicle).
    const plain = new pg.Client({ connectionString: server.url });
    await plain.connect();
    try {
      const asset = `(select asset_id from gateways where organization_id = $1 and id = $2)`;
      await plain.query(`update assets set current_driver_id = null where organization_id = $1 and id = ${asset}`, [orgId, devices[1]!.id]);
      await plain.query(`delete from asset_driver_assignments where organization_id = $1 and asset_id = ${asset}`, [orgId, devices[1]!.id]);
    } finally {
      await plain.end();
    }
    const before = await counters();
    const now = Math.floor(Date.now() / 1000);
    const osmand = (payload: string) =>
      app.inject({ method: 'POST', url: '/api/v1/ingest/osmand', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
    // Singles from two devices, a fix time sent again (a duplicate), then a report without coordinates
    // (the last fix's place). The ignition goes on and off: engine power records (type 6), whose
    // driver's personal conveyance is looked up.
    for (let k = 0; k < 6; k++) {
      for (const d of devices.slice(0, 2)) {
        const fix = await osmand(
          `id=${encodeURIComponent(d.uniqueId)}&lat=${41.88 + k * 0.01}&lon=-87.63&timestamp=${now - 600 + k * 60}&speed=${k ? 60 : 0}&bearing=90&ignition=${k < 5}`,
        );
        expect(fix.statusCode, fix.body).toBe(200);
      }
    }
    expect((await osmand(`id=${encodeURIComponent(devices[0]!.uniqueId)}&lat=41.93&lon=-87.63&timestamp=${now - 300}&speed=60`)).statusCode).toBe(200);
    expect((await osmand(`id=${encodeURIComponent(devices[0]!.uniqueId)}&timestamp=${now - 30}`)).statusCode).toBe(200);
    // A late fix (before what was counted): IFTA miles marks its day and recomputes it.
    expect((await osmand(`id=${encodeURIComponent(devices[1]!.uniqueId)}&lat=41.875&lon=-87.63&timestamp=${now - 630}&speed=50`)).statusCode).toBe(200);
    const ingest = (app as unknown as { ingest: { followers: ReadonlyArray<{ idle(): Promise<void> }>; lastSeen: { flush(): Promise<void> } } }).ingest;
    const following = ingest.followers;
    // The devices' last-seen time too (written a second behind the commits), counted with the rest.
    await ingest.lastSeen.flush();
    for (const f of following) await f.idle();
    await (app as unknown as { iftaMiles: { idle(o: { dirty: boolean }): Promise<void> } }).iftaMiles.idle({ dirty: true });
    for (const f of following) await f.idle();
    const after = await counters();
    expect(failed).toEqual([]);
    // Nothing failed behind the requests: the followers' rounds, and the webhook sender's claims
    // (one per organization with webhooks, routed: decision 0206).
    expect(logged).toEqual([]);
    // Citus counted the ingest's statements, and none of them ran on several shards.
    expect(after.single).toBeGreaterThan(before.single);
    expect(after.multi - before.multi).toBe(0);
    // Stored once each: 12 fixes (the repeated fix time not again), the coordinate-less report, the late one.
    const stored = await new pg.Client({ connectionString: server.url });
    await stored.connect();
    try {
      const n = (
        await stored.query<{ n: number }>(
          `select count(*)::int as n from positions where organization_id = $1 and gateway_id = any($2::uuid[]) and fix_time > to_timestamp($3)`,
          [orgId, devices.slice(0, 2).map((d) => d.id), now - 700],
        )
      ).rows[0]!.n;
      expect(n).toBe(14);
      const engine = (
        await stored.query<{ n: number }>(
          `select count(*)::int as n from hos_events where organization_id = $1 and event_type = 6 and driver_id is not null and event_time > to_timestamp($2)`,
          [orgId, now - 700],
        )
      ).rows[0]!.n;
      expect(engine).toBeGreaterThan(0);
      const unidentified = (
        await stored.query<{ n: number }>(
          `select count(*)::int as n from hos_events where organization_id = $1 and event_type = 1 and driver_id is null and event_time > to_timestamp($2)`,
          [orgId, now - 700],
        )
      ).rows[0]!.n;
      expect(unidentified).toBeGreaterThan(0);
    } finally {
      await stored.end();
    }
  });

  it('knows when it opens that it is Citus with the write function, and takes CITUS_POOL_SIZE connections when none is configured', () => {
    expect(database.citus).toEqual({ writeFunction: true });
    expect(citusOf(database.db)).toBe(database.citus);
    expect(defaultPoolSize(database.citus)).toBe(CITUS_POOL_SIZE);
  });

  it("plans the group commit as one delegated call on the organization's worker", async () => {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const fn = (
        await client.query<{ colocated: boolean }>(
          `select d.colocationid = (select colocationid from pg_dist_partition where logicalrelid = 'positions'::regclass) as colocated
         from pg_dist_object d where d.objid = 'fleet_positions_write'::regproc`,
        )
      ).rows;
      expect(fn).toEqual([{ colocated: true }]);
      await client.query('set client_min_messages = debug1');
      const notices: string[] = [];
      client.on('notice', (n) => notices.push(n.message ?? ''));
      await client.query(
        `select fleet_positions_write('${orgId}'::uuid, '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', now(), 5, '{}', '{}', '{}')`,
      );
      expect(notices.join('\n')).toMatch(/pushing down the function call/);
    } finally {
      await client.end();
    }
  });
});

/** Every statement the app's connections send while `run` runs (text and parameters). */
async function recordStatements(run: () => Promise<unknown>): Promise<Array<{ text: string; values: unknown[] }>> {
  const sent: Array<{ text: string; values: unknown[] }> = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') sent.push({ text: first, values: Array.isArray(second) ? second : [] });
    else if (first && typeof first === 'object' && 'text' in first) {
      // drizzle passes the parameters beside the query object; node-postgres' own form puts them in it.
      sent.push({ text: String((first as { text: string }).text), values: Array.isArray(second) ? second : ((first as { values?: unknown[] }).values ?? []) });
    }
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    proto.query = original;
  }
  return sent;
}

/** A statement parameter as an SQL literal (as node-postgres would send it). */
function literal(client: pg.Client, v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof Date) return client.escapeLiteral(v.toISOString());
  if (Array.isArray(v))
    return client.escapeLiteral(
      `{${v.map((x) => (x === null ? 'NULL' : `"${String(x instanceof Date ? x.toISOString() : x).replace(/(["\\])/g, '\\$1')}"`)).join(',')}}`,
    );
  if (typeof v === 'object') return client.escapeLiteral(JSON.stringify(v));
  return client.escapeLiteral(String(v));
}

/** The Citus scans of an EXPLAIN (format json) plan: each one's task count and distributed subplans. */
function citusScans(plan: unknown): Array<{ tasks: number; subplans: number }> {
  const found: Array<{ tasks: number; subplans: number }> = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    const dq = o['Distributed Query'] as { Job?: { 'Task Count'?: number }; Subplans?: unknown[] } | undefined;
    if (dq) found.push({ tasks: Number(dq.Job?.['Task Count'] ?? 0), subplans: dq.Subplans?.length ?? 0 });
    for (const v of Object.values(o)) visit(v);
  };
  visit(plan);
  return found;
}
