import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers.ts';
import { CHECKPOINT_EVERY_SECONDS, CHECKPOINT_WAL_BYTES, checkpointDue, runEmbeddedCheckpoint, walState } from './embedded-checkpoint.ts';

describe('checkpointDue', () => {
  it("follows the checkpointer's two triggers: log written, or time with something written", () => {
    expect(checkpointDue({ walBytes: CHECKPOINT_WAL_BYTES, ageSeconds: 1 })).toBe(true);
    expect(checkpointDue({ walBytes: CHECKPOINT_WAL_BYTES - 1, ageSeconds: 1 })).toBe(false);
    expect(checkpointDue({ walBytes: 1024 * 1024, ageSeconds: CHECKPOINT_EVERY_SECONDS })).toBe(true);
    expect(checkpointDue({ walBytes: 1024 * 1024, ageSeconds: CHECKPOINT_EVERY_SECONDS - 1 })).toBe(false);
    // An idle database: the last checkpoint's own record is not a reason for another.
    expect(checkpointDue({ walBytes: 200, ageSeconds: 3600 })).toBe(false);
  });
});

describe('embedded database checkpoint', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ends the log the embedded database wrote (PGlite has no checkpointer; a server has its own)', async () => {
    const db = t.database.db;
    onTestFinished(async () => {
      await db.execute(sql`drop table if exists checkpoint_probe`);
    });
    await db.execute(sql`drop table if exists checkpoint_probe`);
    await db.execute(sql`create table checkpoint_probe (id int primary key, v text)`);
    await db.execute(sql`insert into checkpoint_probe select g, repeat('x', 200) from generate_series(1, 5000) g`);
    const before = await walState(t.database);
    expect(before.walBytes).toBeGreaterThan(1_000_000);
    // Under the thresholds nothing happens.
    expect(await runEmbeddedCheckpoint(t.database)).toBe(false);
    const ran = await runEmbeddedCheckpoint(t.database, { walBytes: 1_000_000, everySeconds: CHECKPOINT_EVERY_SECONDS });
    if (t.database.kind === 'pglite') {
      expect(ran).toBe(true);
      const after = await walState(t.database);
      expect(after.walBytes).toBeLessThan(64 * 1024);
      expect(after.ageSeconds).toBeLessThan(5);
      // What was written is still there after the checkpoint.
      expect(await db.execute(sql`select count(*)::int as n from checkpoint_probe`)).toMatchObject({ rows: [{ n: 5000 }] });
    } else {
      expect(ran).toBe(false);
    }
  });
});
