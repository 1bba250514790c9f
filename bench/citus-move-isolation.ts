// A block_writes move of one organization's shard group while another organization's group commits
// run through the write function (issue 49, decision 0203):
//   DATABASE_URL=<a distributed database on the coordinator> node --import tsx bench/citus-move-isolation.ts
// e.g. a test pool database after scripts/test-citus.sh. Adds an organization B ("Probe carrier") on
// another shard than the database's first organization A, writes one position for B every 20 ms
// through fleet_positions_write while A's group moves to the other worker with block_writes, and
// prints the move's time, B's longest gap between commits and failures, and the locks any session
// waited on meanwhile (pg_locks on every node, sampled every 100 ms). Leaves A on the other worker.
import pg from 'pg';

const base = process.env.DATABASE_URL;
if (!base) throw new Error('set DATABASE_URL to a distributed database on the coordinator');
const basePort = new URL(base).port;
const admin = new pg.Client(base);
await admin.connect();
const q = async <T extends pg.QueryResultRow>(t: string, p?: unknown[]): Promise<T[]> => (await admin.query<T>(t, p)).rows;
const [a] = await q<{ id: string }>(`select id from organizations order by created_at limit 1`);
if (!a) throw new Error('no organization in this database');
let b: { id: string } | undefined;
for (let i = 0; i < 50 && !b; i++) {
  const [r] = await q<{ id: string }>(`select gen_random_uuid() as id`);
  const [s] = await q<{ d: boolean }>(
    `select get_shard_id_for_distribution_column('assets', $1::uuid) <> get_shard_id_for_distribution_column('assets', $2::uuid) as d`,
    [r!.id, a.id],
  );
  if (s!.d) b = r;
}
if (!b) throw new Error('no second shard');
await q(`insert into organizations (id, name) values ($1, 'Probe carrier') on conflict do nothing`, [b.id]);
const shardOf = async (id: string) => (await q<{ s: string }>(`select get_shard_id_for_distribution_column('assets', $1::uuid) as s`, [id]))[0]!.s;
const shardA = await shardOf(a.id);
const shardB = await shardOf(b.id);
const place = async (s: string) => (await q<{ nodeport: number }>(`select nodeport from pg_dist_shard_placement where shardid = $1`, [s]))[0]!.nodeport;
const workers = (await q<{ nodeport: number }>(`select nodeport from pg_dist_node where groupid <> 0 order by nodeport`)).map((r) => r.nodeport);
const fromA = await place(shardA);
const toA = workers.find((w) => w !== fromA);
console.log(`A ${a.id} shard ${shardA} on ${fromA} -> ${toA}; B ${b.id} shard ${shardB} on ${await place(shardB)}`);

const writer = new pg.Client(base);
await writer.connect();
const gw = (await writer.query<{ g: string }>('select gen_random_uuid() as g')).rows[0]!.g;
const orgB = b.id;
let stop = false;
let last = Date.now();
let worst = 0;
let fails = 0;
let n = 0;
const loop = (async () => {
  let t = Date.now() - 86_400_000;
  while (!stop) {
    try {
      await writer.query(
        `select fleet_positions_write($1::uuid, $2::uuid[], '{NULL}'::uuid[], '{NULL}'::uuid[], $3::float8[], '{41.5}', '{-90.5}', '{10}', '{0}', '{NULL}', '{NULL}', '{NULL}', '{t}', '{batch}', '{NULL}', now(), 5, '{}', $2::uuid[], '{NULL}', '{NULL}')`,
        [orgB, `{${gw}}`, `{${(t += 1000)}}`],
      );
      n++;
      const now = Date.now();
      worst = Math.max(worst, now - last);
      last = now;
    } catch (e) {
      fails++;
      console.log('B write failed:', e instanceof Error ? e.message : String(e));
    }
    await new Promise((r) => setTimeout(r, 20));
  }
})();
await new Promise((r) => setTimeout(r, 1000));
const before = worst;
worst = 0;
const nodes = [Number(basePort), ...workers];
const samplers = nodes.map((port) => new pg.Client(Object.assign(new URL(base), { port: String(port) }).toString()));
for (const c of samplers) await c.connect();
const seen = new Map<string, number>();
let moving = true;
const sample = (async () => {
  while (moving) {
    for (const [i, c] of samplers.entries()) {
      const rows = (
        await c.query<{ locktype: string; mode: string; objid: number; objsubid: number; classid: number; query: string }>(
          `select l.locktype, l.mode, l.objid, l.objsubid, l.classid, a.query from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted`,
        )
      ).rows;
      for (const r of rows) {
        const k = `${nodes[i]!} ${r.locktype} ${r.mode} ${r.classid}/${r.objid}/${r.objsubid} :: ${String(r.query).replace(/\s+/g, ' ').slice(0, 90)}`;
        seen.set(k, (seen.get(k) ?? 0) + 1);
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
})();
const t0 = Date.now();
await q(`select citus_move_shard_placement($1, '127.0.0.1', $2, '127.0.0.1', $3, shard_transfer_mode => 'block_writes')`, [shardA, fromA, toA!]);
const took = Date.now() - t0;
moving = false;
await sample;
await new Promise((r) => setTimeout(r, 500));
stop = true;
await loop;
console.log(`move took ${took} ms; B: ${n} commits, ${fails} failed, longest gap during/after the move ${worst} ms (before it ${before} ms)`);
for (const [k, v] of [...seen].sort((x, y) => y[1] - x[1]).slice(0, 15)) console.log(`${v}× ${k}`);
for (const c of [...samplers, writer, admin]) await c.end();
