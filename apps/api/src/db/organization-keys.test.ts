import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, onCitus, type TestContext } from '../test/helpers.ts';
import { rowsOf } from './sql/rows.ts';

/**
 * Migration 0034: Citus enforces a key of a distributed table only when it holds the distribution
 * column. A later migration that adds a key without organization_id would distribute (db:distribute
 * rewrites it) but leave this schema and the cluster's apart; this keeps them one.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The organization's tables: a NOT NULL organization_id, less the reference and coordinator ones. */
const TENANT = sql`c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
  and c.relname not in ('users', 'roles', 'stream_tickets', 'device_ids')
  and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'organization_id' and a.attnotnull)`;

describe('keys of the organization tables (migration 0034, decision 0169)', () => {
  it('every primary key and unique index holds organization_id, but the device id (global, section 7.2)', async () => {
    const missing = rowsOf<{ name: string }>(
      await t.database.db.execute(sql`select ci.relname as name from pg_index i join pg_class c on c.oid = i.indrelid join pg_class ci on ci.oid = i.indexrelid
        where i.indisunique and ${TENANT}
          and not exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'organization_id' and a.attnum = any (i.indkey))
        order by 1`),
    ).map((r) => r.name);
    if (onCitus()) {
      // db:distribute swaps the global index for (unique_id, organization_id) (a shard cannot check
      // a key across organizations); the device-id directory's key keeps the id global (0169, 7.2).
      expect(missing).toEqual([]);
      const idx = (table: string) =>
        t.database.db.execute(sql`select ci.relname as name, i.indisprimary as pk, array(select a.attname::text from unnest(i.indkey) with ordinality k(n, o)
            join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.n order by k.o) as cols
          from pg_index i join pg_class ci on ci.oid = i.indexrelid where i.indrelid = ${table}::regclass and i.indisunique order by 1`);
      const gatewayKeys = rowsOf<{ name: string; cols: string[] }>(await idx('gateways'));
      expect(gatewayKeys).toContainEqual(expect.objectContaining({ name: 'gateways_org_unique_id_uq', cols: ['unique_id', 'organization_id'] }));
      expect(gatewayKeys.map((k) => k.name)).not.toContain('gateways_unique_id_uq');
      const directoryKeys = rowsOf<{ pk: boolean; cols: string[] }>(await idx('device_ids'));
      expect(directoryKeys).toContainEqual(expect.objectContaining({ pk: true, cols: ['unique_id'] }));
    } else {
      expect(missing).toEqual(['gateways_unique_id_uq']);
    }
    // Many keys were rewritten, so the check above looked at real tables.
    const [keys] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from pg_index i join pg_class c on c.oid = i.indrelid where i.indisprimary and ${TENANT}`),
    );
    expect(keys!.n).toBeGreaterThan(40);
  });

  it('every foreign key between two of them names organization_id on both sides, in the same place', async () => {
    const bad = rowsOf<{ name: string }>(
      await t.database.db.execute(sql`select k.conname as name from pg_constraint k join pg_class c on c.oid = k.conrelid
        where k.contype = 'f' and ${TENANT} and k.confrelid in (select c.oid from pg_class c where ${TENANT})
          and not ((select attname from pg_attribute where attrelid = k.conrelid and attnum = k.conkey[1]) = 'organization_id'
               and (select attname from pg_attribute where attrelid = k.confrelid and attnum = k.confkey[1]) = 'organization_id')
        order by 1`),
    ).map((r) => r.name);
    expect(bad).toEqual([]);
  });

  it('every table has a primary key or a replica identity (logical shard moves, migration 0038)', async () => {
    // Citus's logical move replays UPDATE and DELETE by the replica identity: without one, 'auto'
    // refuses to move the organization's whole shard group (docs/deploy.md 7.3).
    const bare = rowsOf<{ name: string }>(
      await t.database.db.execute(sql`select c.relname as name from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
          and c.relname <> 'fleet_test_pool_tables' -- the test cluster's pool bookkeeping (test/citus-pool.ts)
          and not (c.relreplident = 'f'
            or (c.relreplident = 'd' and exists (select 1 from pg_index i where i.indrelid = c.oid and i.indisprimary))
            or (c.relreplident = 'i' and exists (select 1 from pg_index i where i.indrelid = c.oid and i.indisreplident)))
        order by 1`),
    ).map((r) => r.name);
    expect(bare).toEqual([]);
    // The two IFTA tables without a key replicate whole rows, and partitions were looked at.
    const [full] = rowsOf<{ n: number; parts: number }>(
      await t.database.db.execute(sql`select count(*) filter (where relreplident = 'f' and relname in ('ifta_crossings', 'ifta_flagged_segments'))::int as n,
        count(*) filter (where relispartition)::int as parts from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'`),
    );
    expect(full!.n).toBe(2);
    expect(full!.parts).toBeGreaterThan(0);
  });
});
