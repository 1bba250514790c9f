import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpMigratedPglite, openDatabase } from '../db/client.ts';
import { ensurePoolDatabase, poolPrefix } from './citus-pool.ts';
import { createScratchDatabase, seedTestDatabase } from './helpers.ts';

/**
 * Migrates and seeds one database per run and lets every test file start from a copy of it: an
 * in-memory PGlite's initdb, the migrations and the seed cost seconds per file on the 2-core CI machine.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const citusUrl = process.env.TEST_CITUS_URL;
  if (citusUrl) {
    // The Citus pass: no template, a pool of distributed databases kept between runs (citus-pool.ts),
    // one per worker made here, one at a time, so the files do not wait on each other's distribution.
    const workers = Math.max(1, Math.min(project.config.maxWorkers, project.globalConfig.maxWorkers));
    for (let n = 0; n < workers; n++) {
      const ms = await ensurePoolDatabase(citusUrl, `${poolPrefix()}${n}`);
      if (ms > 0) console.log(`citus pool: ${poolPrefix()}${n} distributed in ${ms} ms`);
    }
    project.provide('pgTemplate', '');
    project.provide('pgliteTemplate', '');
    return async () => undefined;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = await createScratchDatabase(serverUrl);
    const database = await openDatabase({ databaseUrl: template.url, dataDir: 'memory', poolSize: 1 });
    try {
      await seedTestDatabase(database.db);
    } finally {
      await database.close();
    }
    project.provide('pgTemplate', new URL(template.url).pathname.slice(1));
    project.provide('pgliteTemplate', '');
    return template.drop;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  fs.writeFileSync(file, Buffer.from(await (await dumpMigratedPglite(seedTestDatabase)).arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('pgTemplate', '');
  return async () => fs.rmSync(dir, { recursive: true, force: true });
}
