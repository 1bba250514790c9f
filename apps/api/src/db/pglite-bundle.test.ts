import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpMigratedPglite, openDatabase, type Database } from './client.ts';
import { keptRanges, onlyForInitdbOrUnused, parseBundleFiles } from './pglite-bundle.ts';

const pgliteDir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
const bundleSize = fs.statSync(path.join(pgliteDir, 'pglite.data')).size;

describe("PGlite's file bundle without initdb's files", () => {
  it("reads the file list from PGlite's loader and leaves out only initdb's and unused files", () => {
    const loader = fs
      .readdirSync(pgliteDir)
      .find((n) => n.endsWith('.js') && fs.readFileSync(path.join(pgliteDir, n), 'utf8').includes('remote_package_size:'));
    const files = parseBundleFiles(fs.readFileSync(path.join(pgliteDir, loader!), 'utf8'), bundleSize);
    expect(files).not.toBeNull();
    const names = files!.map((f) => f.name);
    expect(names).toContain('/pglite/share/postgresql/postgres.bki');
    expect(onlyForInitdbOrUnused('/pglite/share/postgresql/postgres.bki')).toBe(true);
    // What a running server reads stays: time zones, text search, PL/pgSQL, ICU, extensions, the
    // conversions between UTF-8 and the Latin and Windows character sets.
    for (const kept of [
      '/pglite/lib/postgresql/plpgsql.so',
      '/pglite/lib/postgresql/dict_snowball.so',
      '/pglite/lib/postgresql/utf8_and_iso8859_1.so',
      '/pglite/share/postgresql/timezonesets/Default',
    ]) {
      expect(names).toContain(kept);
      expect(onlyForInitdbOrUnused(kept)).toBe(false);
    }
    expect(names.filter((n) => n.includes('/timezone/') || n.includes('/extension/') || n.startsWith('/pglite/icu/')).some(onlyForInitdbOrUnused)).toBe(false);
    const kept = keptRanges(files!).reduce((n, [a, b]) => n + (b - a), 0);
    expect(kept).toBeLessThan(bundleSize - 3 * 2 ** 20);
    expect(kept).toBeGreaterThan(2 * 2 ** 20);
  });

  it('merges adjacent kept files into one range and skips the others', () => {
    const files = [
      { name: '/pglite/a', start: 0, end: 10 },
      { name: '/pglite/share/postgresql/postgres.bki', start: 10, end: 20 },
      { name: '/pglite/b', start: 20, end: 25 },
      { name: '/pglite/c', start: 25, end: 30 },
    ];
    expect(keptRanges(files)).toEqual([
      [0, 10],
      [20, 30],
    ]);
  });

  it('does not take a loader whose list does not add up to the bundle', () => {
    expect(parseBundleFiles('{filename:"/pglite/a",start:0,end:10}],remote_package_size:11', 11)).toBeNull();
    expect(parseBundleFiles('nothing here', 11)).toBeNull();
  });

  describe('an open of a migrated database with it', () => {
    let database: Database;
    beforeAll(async () => {
      database = await openDatabase({ dataDir: 'memory', pgliteTemplate: await dumpMigratedPglite() });
    });
    afterAll(async () => {
      await database.close();
    });

    it('answers what a running server asks: time zones, text search, PL/pgSQL', async () => {
      const run = async (sql: string) => ((await database.db.execute(sql)) as unknown as { rows: Array<Record<string, unknown>> }).rows[0];
      expect(await run(`select to_char(timestamptz '2026-07-01 12:00Z' at time zone 'America/Chicago', 'HH24:MI') as t`)).toEqual({ t: '07:00' });
      expect(await run(`select to_tsvector('english', 'drivers driving')::text as v`)).toEqual({ v: "'drive':2 'driver':1" });
      await database.db.execute(`create function bundle_probe() returns int language plpgsql as $$ begin return 1; end $$`);
      expect(await run(`select bundle_probe() as one`)).toEqual({ one: 1 });
      // No conversion between character sets here: PGlite 0.5.16 hangs on convert_to(…, 'SJIS') and
      // answers no row for 'LATIN1' with its whole bundle too.
    });
  });
});
