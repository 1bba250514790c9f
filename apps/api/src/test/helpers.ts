import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { isErrorCode, type ErrorCode, type SignInResponse } from '@fleet/api-contract';
import { buildApp } from '../app.ts';
import { testConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { seed } from '../seed/seed.ts';
import { leasePoolDatabase } from './citus-pool.ts';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A new, empty database on the PostgreSQL server `serverUrl` names: its URL, and a function that
 * drops it (ending whatever is still connected).
 */
export async function createScratchDatabase(serverUrl: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

// Declared here, not in global-setup.ts: the bench project type-checks this file alone.
declare module 'vitest' {
  export interface ProvidedContext {
    /** File holding a migrated PGlite data directory (PGlite pass). */
    pgliteTemplate: string;
    /** A migrated database on the TEST_DATABASE_URL server, to copy with CREATE DATABASE … TEMPLATE. */
    pgTemplate: string;
  }
}

/** What the API project's global setup provided (test/global-setup.ts); nothing outside vitest. */
function provided(key: 'pgliteTemplate' | 'pgTemplate'): string {
  try {
    return inject(key) ?? '';
  } catch {
    return '';
  }
}

/** The migrated PGlite database the global setup dumped, as a Blob to open from (undefined outside vitest's API project). */
export function pgliteTemplateBlob(): Blob | undefined {
  const file = provided('pgliteTemplate');
  return file ? new Blob([fs.readFileSync(file)]) : undefined;
}

/** The Citus pass: TEST_CITUS_URL names a coordinator (it wins over TEST_DATABASE_URL). */
export const onCitus = (): boolean => !!process.env.TEST_CITUS_URL;
/** A database server pass, PostgreSQL or Citus (not the embedded PGlite). */
export const onServer = (): boolean => !!(process.env.TEST_CITUS_URL || process.env.TEST_DATABASE_URL);

/**
 * A database on the test server for a test that opens its own connections or servers: a new,
 * empty one on TEST_DATABASE_URL's server, a leased pool database on Citus (migrated, distributed,
 * emptied). `drop` gives it back.
 */
export async function serverDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const citusUrl = process.env.TEST_CITUS_URL;
  if (citusUrl) {
    const { url, release } = await leasePoolDatabase(citusUrl);
    return { url, drop: release };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('serverDatabase: set TEST_DATABASE_URL or TEST_CITUS_URL');
  // Empty, not from the template: these tests start servers that migrate it themselves.
  return createScratchDatabase(serverUrl);
}

/**
 * A fresh database per test file: in-memory PGlite by default, a new database on the PostgreSQL
 * server named by TEST_DATABASE_URL, or an emptied pool database on the Citus coordinator named by
 * TEST_CITUS_URL (the CI runs the suite on PGlite and PostgreSQL).
 */
async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void>; seeded: boolean; url?: string }> {
  if (onCitus()) {
    const { url, drop } = await serverDatabase();
    try {
      return { database: await openDatabase({ databaseUrl: url, dataDir: 'memory', poolSize: 10 }), drop, seeded: false, url };
    } catch (err) {
      await drop();
      throw err;
    }
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    // PGLITE_THREAD=main runs the suite with the database on the test's own thread (decision 0170).
    const pgliteThread = process.env.PGLITE_THREAD === 'main' ? 'main' : 'worker';
    const template = pgliteTemplateBlob();
    const database = await openDatabase({ dataDir: 'memory', pgliteTemplate: template, pgliteThread });
    return { database, drop: async () => undefined, seeded: !!template };
  }
  const template = provided('pgTemplate') || undefined;
  const { url, drop } = await createScratchDatabase(serverUrl, template);
  // Each app holds four connections on LISTEN (auth, live map, notifications, duty status); some tests build a
  // second app on the same pool.
  const database = await openDatabase({ databaseUrl: url, dataDir: 'memory', poolSize: 10 });
  return { database, drop, seeded: !!template, url };
}

/**
 * What every test database starts with: the super administrator and the demo organization, as a
 * first start seeds them with the test configuration. The global setup writes it into the template
 * once (test/global-setup.ts), so a file's database starts seeded: seeding per file (argon2 hashes,
 * the demo registry) was a second of CPU for each of some 80 test apps.
 */
export async function seedTestDatabase(db: Database['db']): Promise<void> {
  await seed(db, { ...testConfig({ dataDir: os.tmpdir() }), demo: true }, () => undefined);
}

/** Builds the app on a fresh database with the super administrator and demo organization seeded. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-'));
  // TEST_LOG_LEVEL=warn shows the app's warnings and errors (a 500's cause) while chasing a failure.
  const logLevel = process.env.TEST_LOG_LEVEL as Config['logLevel'] | undefined;
  const config = testConfig({ dataDir, publicUrl: 'http://fleet.test', ...(logLevel ? { logLevel } : {}), ...overrides });
  const { database, drop, seeded, url } = await freshDatabase();
  const app = await buildApp({ config, database });
  if (!seeded) await seedTestDatabase(database.db);
  await app.ready();
  return {
    app,
    database,
    config,
    dataDir,
    async close() {
      await named('app.close()', () => app.close());
      await named('database.close()', () => database.close(), url ? () => serverSessions(database, url) : undefined);
      await named('dropping the database', drop);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a step of a test app's close, saying which one after a minute without an end (a hook that
 * times out says only that the hook did), with what `state` tells of why: it still waits for it,
 * hiding nothing.
 */
async function named(step: string, fn: () => Promise<void>, state?: () => Promise<string>): Promise<void> {
  const started = Date.now();
  const timer = setInterval(() => {
    const head = `test app close: ${step} has not ended after ${Math.round((Date.now() - started) / 1000)} s`;
    if (!state) return console.warn(head);
    void state().then(
      (s) => console.warn(`${head}; ${s}`),
      (err: unknown) => console.warn(`${head}; its state could not be read (${String(err)})`),
    );
  }, 60_000);
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
}

/**
 * Why a server database's pool may not end: its connections checked out and waited for, and the
 * database's sessions as the server sees them (a pool's end waits for every connection given back;
 * a close once hung for minutes under a full run's load, and the hook's timeout said nothing more).
 */
async function serverSessions(database: Database, url: string): Promise<string> {
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ s: string }>(
      `select format('%s %s %s/%s %s', pid, coalesce(application_name, ''), coalesce(state, ''), coalesce(wait_event, ''), left(regexp_replace(query, '\\s+', ' ', 'g'), 80)) as s
       from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return `pool: ${pool.totalCount} connections, ${pool.idleCount} idle, ${pool.waitingCount} waiting; sessions: ${rows.map((r) => r.s).join(' | ') || 'none'}`;
  } finally {
    await c.end();
  }
}

export const DEMO = {
  superAdmin: { email: 'superadmin@fleet.test', password: 'SuperAdmin#2026' },
  admin: { email: 'admin@demofreight.test', password: 'DemoAdmin#2026' },
  dispatcher: { email: 'dispatcher@demofreight.test', password: 'Dispatch#2026' },
};

export async function login(app: FastifyInstance, who: { email: string; password: string }, ip = '10.0.0.1'): Promise<SignInResponse> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/authenticate', payload: who, remoteAddress: ip });
  if (res.statusCode !== 200) throw new Error(`login ${who.email} failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

let counter = 0;
/** Registers a brand-new organization through the public endpoint and signs its admin in. */
export async function registerOrganization(app: FastifyInstance, name = `Carrier ${++counter}`): Promise<SignInResponse & { password: string }> {
  const email = `owner${Date.now()}${++counter}@${name.toLowerCase().replace(/[^a-z0-9]/g, '')}.test`;
  const password = 'Str0ngPassword!';
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { firstname: 'Olive', lastname: 'Owner', organizationName: name, email, password },
    remoteAddress: `10.9.${counter % 250}.${(counter * 7) % 250}`,
  });
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { ...res.json(), password };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** zod's own texts ("Invalid input: expected string, received undefined", "Too small: …"): never shown. */
const RAW_VALIDATOR_TEXT =
  /Invalid input|Too (small|big):|expected \w+, received|Invalid (string|option|number): |Invalid (email address|UUID|ISO|URL|key in|element in)|Unrecognized key/;
/** Database constraint and index names (`assets_org_unit_uq`, `…_fkey`): never shown. */
const CONSTRAINT_NAME = /\b[a-z0-9]+(_[a-z0-9]+)+_(uq|key|fkey|fk|pk|pkey|check)\b/;

/**
 * Asserts the spec's error body and returns it. Every error test also checks that a 400 never
 * carries the validator's raw text and that no error names a database constraint.
 */
export function expectErrorBody(body: unknown, status: number): { code: ErrorCode; message: string; technicalMessage: string } {
  const b = body as Record<string, unknown>;
  if (b.status !== status || typeof b.message !== 'string' || typeof b.technicalMessage !== 'string' || typeof b.timestamp !== 'string') {
    throw new Error(`not an error body with status ${status}: ${JSON.stringify(body)}`);
  }
  // Decision 0257: every error carries a code of the contract's catalogue.
  if (!isErrorCode(b.code)) throw new Error(`error body without a catalogued code: ${JSON.stringify(body)}`);
  if (Number.isNaN(Date.parse(b.timestamp))) throw new Error('timestamp is not a date');
  for (const text of [b.message, b.technicalMessage]) {
    if (RAW_VALIDATOR_TEXT.test(text)) throw new Error(`error body carries the validator's raw text: ${JSON.stringify(body)}`);
    if (CONSTRAINT_NAME.test(text)) throw new Error(`error body names a database constraint: ${JSON.stringify(body)}`);
  }
  return { code: b.code, message: b.message, technicalMessage: b.technicalMessage };
}

/**
 * Asserts a 400 or 409 naming each field in words: the message says every `words`, and the
 * technical message pairs each with its path (`vin: VIN is a required field`).
 */
export function expectFieldErrors(
  body: unknown,
  status: 400 | 409,
  fields: Record<string, string>,
): { code: ErrorCode; message: string; technicalMessage: string } {
  const b = expectErrorBody(body, status);
  for (const [path, words] of Object.entries(fields)) {
    if (!b.message.includes(words)) throw new Error(`message does not say "${words}": ${b.message}`);
    if (!b.technicalMessage.includes(`${path}: ${words}`)) throw new Error(`technical message does not pair ${path} with "${words}": ${b.technicalMessage}`);
  }
  return b;
}

export function readOutbox(dataDir: string): Array<{ to: string; subject: string; text: string }> {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}

/**
 * Retries `fn` until `done` holds or the time is up (for cross-connection NOTIFY delivery, a job's
 * next pass). It returns as soon as `done` holds, so the time only bounds a failure: never under 15 s,
 * whatever `timeoutMs` says, since a loaded CI machine delivered late what takes milliseconds alone
 * (1-3 s limits failed there). Every caller waits for something to happen, none for it not to.
 */
export async function eventually<T>(fn: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + Math.max(timeoutMs, 15_000);
  for (;;) {
    const v = await fn();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
}
