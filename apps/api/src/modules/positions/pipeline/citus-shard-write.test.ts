import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../db/client.ts';
import { organizations } from '../../../db/schema/index.ts';
import { onCitus, serverDatabase } from '../../../test/helpers.ts';
import { createTestVehicle, testPositionRow, type TestVehicle } from '../../../test/vehicles.ts';
import type { PositionRow } from './position-row.ts';
import { GROUP_COMMIT_TEXTS, writeParams, writePositions } from './position-store.ts';

// Decision 0208: on the worker holding the organization's shards, the group commit runs the
// single server's statement on the shards themselves, under the shards' metadata lock that a move
// holds exclusively; a call reaching a node without them writes through Citus. Shown with Citus'
// own counters (a statement Citus plans on a worker counts there; the statement on the shards does
// not), and with a block_writes move of the organization's shards under writes. Citus pass only.

describe.skipIf(!onCitus())('the group commit on the organization’s shards (Citus pass: TEST_CITUS_URL)', () => {
  let server: { url: string; drop: () => Promise<void> };
  let database: Database;
  let admin: pg.Client;
  let orgId: string;
  let v: TestVehicle;
  let shardId: string;
  let nodes: Array<{ host: string; port: number; holds: boolean }>;
  let minute = 0;
  const T0 = Date.now() - 6 * 3_600_000;

  /** The next `n` fixes of the vehicle, each a second after the last. */
  const fixes = (n: number): PositionRow[] => Array.from({ length: n }, () => testPositionRow(v, orgId, new Date(T0 + minute++ * 1000)));
  const nodeUrl = (n: { host: string; port: number }) => Object.assign(new URL(server.url), { hostname: n.host, port: String(n.port) }).toString();
  /** Statements Citus planned as one shard's task on a node, in this database. */
  const singleShard = async (n: { host: string; port: number }) => {
    const c = new pg.Client({ connectionString: nodeUrl(n) });
    await c.connect();
    try {
      return (
        await c.query<{ n: number }>(`select coalesce(sum(query_execution_single_shard), 0)::int as n from citus_stat_counters where name = current_database()`)
      ).rows[0]!.n;
    } finally {
      await c.end();
    }
  };
  const storedCount = async (from: Date, to: Date) =>
    (
      await admin.query<{ n: number }>(
        `select count(*)::int as n from positions where organization_id = $1 and gateway_id = $2 and fix_time >= $3 and fix_time < $4`,
        [orgId, v.gatewayId, from, to],
      )
    ).rows[0]!.n;
  /** The placements earlier moves left to Citus' deferred drop, dropped (the procedure skips one in use: asked again). */
  const cleanUp = async () => {
    for (let i = 0; i < 100; i++) {
      await admin.query('call citus_cleanup_orphaned_resources()');
      if ((await admin.query<{ n: number }>('select count(*)::int as n from pg_dist_cleanup')).rows[0]!.n === 0) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const holder = () => nodes.find((n) => n.holds)!;
  const other = () => nodes.find((n) => !n.holds)!;

  beforeAll(async () => {
    server = await serverDatabase();
    admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    // Counters on for the database's sessions on every node (new sessions take it).
    const db = (await admin.query<{ d: string }>('select current_database() as d')).rows[0]!.d;
    const set = `alter database ${pg.escapeIdentifier(db)} set citus.enable_stat_counters = on`;
    await admin.query(set);
    await admin.query('select run_command_on_workers($1)', [set]);
    database = await openDatabase({ databaseUrl: server.url, dataDir: 'memory', poolSize: 4 });
    const [org] = await database.db
      .insert(organizations)
      .values({ name: 'Shard write carrier', timeZone: 'America/Chicago' })
      .returning({ id: organizations.id });
    orgId = org!.id;
    v = await createTestVehicle(database.db, orgId, { uniqueId: 'shard-write-1' });
    shardId = (await admin.query<{ s: string }>(`select get_shard_id_for_distribution_column('positions', $1::uuid)::text as s`, [orgId])).rows[0]!.s;
    const placed = await admin.query<{ host: string; port: number; holds: boolean }>(
      `select n.nodename as host, n.nodeport as port, exists (select 1 from pg_dist_placement p where p.shardid = $1 and p.groupid = n.groupid) as holds
       from pg_dist_node n where n.groupid <> 0 and n.isactive order by n.nodeport`,
      [shardId],
    );
    nodes = placed.rows;
  });
  afterAll(async () => {
    await database?.close();
    // The move back's old placements too, so the next lease of this database starts without any.
    if (admin) await cleanUp().catch(() => undefined);
    await admin?.end();
    await server?.drop();
  });

  it('writes on the holding worker with nothing planned by Citus there, and tells what was already stored', async () => {
    expect(nodes.filter((n) => n.holds)).toHaveLength(1);
    await writePositions(database.db, fixes(3));
    const before = await singleShard(holder());
    const batch = fixes(500);
    const first = await writePositions(database.db, batch);
    expect(first.stored.every(Boolean)).toBe(true);
    // The same batch again with one new fix and one repeated within it: only the new one is stored.
    const [fresh] = fixes(1);
    const again = await writePositions(database.db, [...batch.slice(0, 10), fresh!, fresh!]);
    expect(again.stored).toEqual([...Array(10).fill(false), true, false]);
    for (let i = 0; i < 20; i++) await writePositions(database.db, fixes(1));
    expect(await singleShard(holder())).toBe(before);
    expect(await storedCount(new Date(T0), new Date(T0 + minute * 1000))).toBe(minute);
    const latest = await admin.query<{ t: Date }>(`select fix_time as t from latest_positions where organization_id = $1 and asset_id = $2`, [
      orgId,
      v.assetId,
    ]);
    expect(latest.rows[0]!.t.getTime()).toBe(T0 + (minute - 1) * 1000);
  });

  it('writes through Citus when the call reaches a worker without the shards (the control: its counter moves)', async () => {
    const before = await singleShard(other());
    const rows = fixes(5);
    const c = new pg.Client({ connectionString: nodeUrl(other()) });
    await c.connect();
    try {
      const call = (values: unknown[]) => c.query<{ w: { moved: string[]; dups: number[] } }>(GROUP_COMMIT_TEXTS.citusCall, values);
      const w = (await call(writeParams(rows, orgId, new Date()))).rows[0]!.w;
      expect(w).toEqual({ moved: [v.assetId], dups: [] });
      const again = (await call(writeParams([rows[0]!, ...fixes(1)], orgId, new Date()))).rows[0]!.w;
      expect(again.dups).toEqual([1]);
    } finally {
      await c.end();
    }
    expect(await singleShard(other())).toBeGreaterThan(before);
    expect(await storedCount(rows[0]!.fixTime, new Date(T0 + minute * 1000))).toBe(6);
  });

  /**
   * Runs `change` while a writer sends the organization's fixes 20 at a time, then checks that every
   * acknowledged fix is stored once and nothing the writer was not told stored.
   */
  const underWrites = async (change: () => Promise<void>) => {
    const from = new Date(T0 + minute * 1000);
    const acked: number[] = [];
    let failures = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const rows = fixes(20);
        try {
          const { stored } = await writePositions(database.db, rows);
          rows.forEach((r, i) => stored[i] && acked.push(r.fixTime.getTime()));
        } catch {
          // A move holding the shards answers the lock timeout: the devices would send again.
          failures++;
        }
      }
    })();
    try {
      await change();
      // The time passing is the subject: writes go on after the change, on its new placement.
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      writing = false;
      await writer;
    }
    expect(acked.length).toBeGreaterThan(100);
    expect(await storedCount(from, new Date(T0 + minute * 1000))).toBe(acked.length);
    expect(new Set(acked).size).toBe(acked.length);
    expect(failures).toBeLessThan(acked.length);
  };

  it('loses and doubles nothing while a block_writes move takes the organization’s shards to the other worker and back', async () => {
    await underWrites(async () => {
      for (const [a, b] of [
        [holder(), other()],
        [other(), holder()],
      ] as const) {
        // The time passing is the subject: writes are under way when each move starts.
        await new Promise((r) => setTimeout(r, 300));
        await cleanUp();
        await admin.query(`select citus_move_shard_placement($1, $2, $3, $4, $5, 'block_writes')`, [shardId, a.host, a.port, b.host, b.port]);
      }
    });
  }, 120_000);

  // Deploy 7.3: a large carrier split from the organizations hashed with it, then given a worker of
  // its own. Splitting leaves this pool database with more shards than the pool's, so the next file
  // to lease it makes it again (citus-pool.ts). Last in the file: it changes the shard of the rest.
  it('isolates the organization to a shard of its own under writes and moves it alone, writing on its new shard', async () => {
    const shardOf = async (org: string) =>
      (await admin.query<{ s: string }>(`select get_shard_id_for_distribution_column('positions', $1::uuid)::text as s`, [org])).rows[0]!.s;
    // Another organization hashed to the same shard group, with a vehicle and fixes of its own.
    let neighbour = '';
    for (let i = 0; i < 400 && !neighbour; i++) {
      const id = randomUUID();
      if ((await shardOf(id)) === shardId) neighbour = id;
    }
    expect(neighbour).not.toBe('');
    await database.db.insert(organizations).values({ id: neighbour, name: 'Neighbour carrier', timeZone: 'America/Chicago' });
    const nv = await createTestVehicle(database.db, neighbour, { uniqueId: 'shard-write-neighbour' });
    const theirs = Array.from({ length: 50 }, (_, i) => testPositionRow(nv, neighbour, new Date(T0 + i * 1000)));
    expect((await writePositions(database.db, theirs)).stored.every(Boolean)).toBe(true);
    const theirCount = async () =>
      (await admin.query<{ n: number }>(`select count(*)::int as n from positions where organization_id = $1`, [neighbour])).rows[0]!.n;

    let isolated = '';
    await underWrites(async () => {
      // The time passing is the subject here and below: writes are under way when each change starts.
      await new Promise((r) => setTimeout(r, 300));
      await cleanUp();
      isolated = (
        await admin.query<{ s: string }>(
          `select isolate_tenant_to_new_shard('positions', $1::uuid, 'CASCADE', shard_transfer_mode => 'block_writes')::text as s`,
          [orgId],
        )
      ).rows[0]!.s;
      // Then to the other worker, alone: the neighbour's group stays where it was.
      await new Promise((r) => setTimeout(r, 300));
      await cleanUp();
      await admin.query(`select citus_move_shard_placement($1, $2, $3, $4, $5, 'block_writes')`, [
        isolated,
        holder().host,
        holder().port,
        other().host,
        other().port,
      ]);
    });
    expect(await shardOf(orgId)).toBe(isolated);
    const range = await admin.query<{ one: boolean }>(`select shardminvalue = shardmaxvalue as one from pg_dist_shard where shardid = $1`, [isolated]);
    expect(range.rows[0]!.one).toBe(true);
    const placedOn = async (shard: string) =>
      (
        await admin.query<{ port: number }>(`select n.nodeport as port from pg_dist_placement p join pg_dist_node n using (groupid) where p.shardid = $1`, [
          shard,
        ])
      ).rows.map((r) => r.port);
    expect(await placedOn(isolated)).toEqual([other().port]);
    expect(await placedOn(await shardOf(neighbour))).toEqual([holder().port]);
    expect(await theirCount()).toBe(50);

    // On the new worker the write runs on the new shard itself: nothing planned by Citus there.
    const mine = other();
    const before = await singleShard(mine);
    const rows = fixes(200);
    expect((await writePositions(database.db, rows)).stored.every(Boolean)).toBe(true);
    expect(await singleShard(mine)).toBe(before);
    expect(await storedCount(rows[0]!.fixTime, new Date(T0 + minute * 1000))).toBe(200);
  }, 120_000);
});
