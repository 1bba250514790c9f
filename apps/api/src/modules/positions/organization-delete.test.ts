import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, testPositionRow } from '../../test/vehicles.ts';
import { writePositions } from './pipeline/position-store.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('an organization deleted (PGlite, PostgreSQL and Citus)', () => {
  it('takes its positions and every row of its own, and no other organization’s (migration 0009)', async () => {
    // positions has no key to organizations (decision 0055) but a delete trigger on it; on Citus
    // organizations is a reference table, so the trigger runs on each node's copy, and only the
    // node holding the organization's positions shard deletes them, there (db:distribute).
    const db = t.database.db;
    const orgs = await db
      .insert(organizations)
      .values([
        { name: 'Leaving carrier', timeZone: 'America/Chicago' },
        { name: 'Staying carrier', timeZone: 'America/Chicago' },
      ])
      .returning({ id: organizations.id });
    const T0 = Date.now() - 3_600_000;
    for (const [k, { id }] of orgs.entries()) {
      const v = await createTestVehicle(db, id, { uniqueId: `org-delete-${k}` });
      const rows = Array.from({ length: 30 }, (_, i) => testPositionRow(v, id, new Date(T0 + i * 1000)));
      expect((await writePositions(db, rows)).stored.every(Boolean)).toBe(true);
    }
    const left = async (org: string) =>
      rowsOf<{ p: number; a: number }>(
        await db.execute(
          sql`select (select count(*) from positions where organization_id = ${org})::int as p, (select count(*) from assets where organization_id = ${org})::int as a`,
        ),
      )[0]!;
    const [leaving, staying] = orgs.map((o) => o.id) as [string, string];
    expect(await left(leaving)).toEqual({ p: 30, a: 1 });
    await db.execute(sql`delete from organizations where id = ${leaving}`);
    expect(await left(leaving)).toEqual({ p: 0, a: 0 });
    expect(await left(staying)).toEqual({ p: 30, a: 1 });
  });
});
