import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpMigratedPglite, openDatabase } from '../db/client.ts';
import { createScratchDatabase } from './helpers.ts';

/**
 * Migrates one database per run and lets every test file start from a copy of it: an in-memory
 * PGlite's initdb and twenty migrations cost seconds per file on the 2-core CI machine.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = await createScratchDatabase(serverUrl);
    const database = await openDatabase({ databaseUrl: template.url, dataDir: 'memory', poolSize: 1 });
    await database.close();
    project.provide('pgTemplate', new URL(template.url).pathname.slice(1));
    project.provide('pgliteTemplate', '');
    return template.drop;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  fs.writeFileSync(file, Buffer.from(await (await dumpMigratedPglite()).arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('pgTemplate', '');
  return async () => fs.rmSync(dir, { recursive: true, force: true });
}
