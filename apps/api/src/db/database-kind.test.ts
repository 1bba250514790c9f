import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onCitus, onServer, serverDatabase } from '../test/helpers.ts';
import { citusOf, defaultPoolSize, dumpMigratedPglite, openDatabase, type Database } from './client.ts';

// What the database is, asked once when it opens and carried on it (decision 0254): the pool's
// default size, the group commit's Citus call and the routed inserts read that answer. Opening
// refuses a database with standard_conforming_strings off: the embedded prepared statements and
// COPY write their values into the statement as literals quoted for it being on. Citus itself is
// checked in citus-one-worker.test.ts.

const SCS_OFF = /standard_conforming_strings is off/;

describe('the database’s kind, found when it opens', () => {
  let scsOff: Blob;
  beforeAll(async () => {
    // Its one single-user backend takes the configuration file's settings (ALTER SYSTEM), not a
    // database's own (ALTER DATABASE … SET is stored but not applied).
    scsOff = await dumpMigratedPglite(async (db) => {
      await db.execute(sql`alter system set standard_conforming_strings = off`);
    });
  });

  it('takes 10 connections by default, 40 on a Citus coordinator', () => {
    expect(defaultPoolSize(null)).toBe(10);
    expect(defaultPoolSize({ writeFunction: true })).toBe(40);
  });

  it('refuses an embedded database with standard_conforming_strings off, naming the setting', async () => {
    await expect(openDatabase({ dataDir: 'memory', pgliteTemplate: scsOff })).rejects.toThrow(SCS_OFF);
  });
});

describe.skipIf(!onServer())('a server database’s kind (PostgreSQL or Citus)', () => {
  let server: { url: string; drop: () => Promise<void> };
  let database: Database | undefined;

  beforeAll(async () => {
    server = await serverDatabase();
  });
  afterAll(async () => {
    await database?.close();
    await server?.drop();
  });

  it('carries what it is on the database and its handle, and sizes the pool by it', async () => {
    database = await openDatabase({ databaseUrl: server.url, dataDir: 'memory' });
    expect(database.kind).toBe('postgres');
    expect(database.citus).toEqual(onCitus() ? { writeFunction: true } : null);
    expect(citusOf(database.db)).toBe(database.citus);
    expect((database.db as unknown as { $client: pg.Pool }).$client.options.max).toBe(onCitus() ? 40 : 10);
  });

  it('refuses a connection with standard_conforming_strings off, naming the setting', async () => {
    const url = new URL(server.url);
    url.searchParams.set('options', '-c standard_conforming_strings=off');
    await expect(openDatabase({ databaseUrl: url.toString(), dataDir: 'memory', poolSize: 1 })).rejects.toThrow(SCS_OFF);
  });

  it.skipIf(onCitus())('refuses a database set to standard_conforming_strings off', async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      await admin.query(`do $$ begin execute format('alter database %I set standard_conforming_strings = off', current_database()); end $$`);
    } finally {
      await admin.end();
    }
    await expect(openDatabase({ databaseUrl: server.url, dataDir: 'memory', poolSize: 1 })).rejects.toThrow(SCS_OFF);
  });
});
