import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.ts';
import { DEMO, onServer } from './test/helpers.ts';
import { signIn, startServer, type ServerProcess } from './test/server-process.ts';
import { countStored, sigtermUnderLoad } from './test/shutdown-under-load.ts';

// The server process on its embedded database, stopped while devices post and a map is open.
// The PostgreSQL pass checks the same with two instances (multi-instance.test.ts).

let server: ServerProcess;

describe.skipIf(onServer())('graceful shutdown on the embedded database (PGlite pass)', () => {
  beforeAll(async () => {
    server = await startServer({ env: { DEMO: '1', SIMULATOR: '0', SHUTDOWN_DRAIN_MS: '1000' } });
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('SIGTERM under load: every acknowledged position is on disk, the stream ends, /readyz says 503, exit 0', async () => {
    const admin = await signIn(server, DEMO.admin);
    const run = await sigtermUnderLoad(server, { orgId: admin.user.organization!.id, accessToken: admin.accessToken });

    expect(run.exit).toEqual({ code: 0, signal: null });
    expect(run.exitedAt - run.sigtermAt).toBeLessThan(1000 + 15_000);
    expect(run.readyz.some((r) => r.at > run.sigtermAt && r.status === 503)).toBe(true);
    expect(run.stream.how).toBe('end');
    expect(run.stream.at).toBeLessThanOrEqual(run.exitedAt);
    expect(run.ackedBy.osmandPort).toBeGreaterThan(0);
    expect(run.ackedBy.apiOsmand).toBeGreaterThan(0);
    expect(run.ackedBy.batch).toBeGreaterThan(0);
    expect(run.ackedAfterSigterm).toBeGreaterThan(0);
    // The process is gone: its data directory, opened again, holds every acknowledged fix.
    const database = await openDatabase({ dataDir: server.dataDir });
    try {
      expect(await countStored(database.db, run.acked)).toBe(run.acked.length);
    } finally {
      await database.close();
    }
  });
});
