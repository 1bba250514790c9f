// Spreads the bench's organizations evenly over the cluster's workers (issue 49's scaling run):
// with a handful of organizations, hashing alone can leave a worker with none and another with
// three, and the figure would be the hash's, not the cluster's. Organizations sharing a shard group
// move together. Run with no load (block_writes moves); a carrier's operator does the same for its
// busiest tenants with docs/deploy.md 7.3.
import type pg from 'pg';

export async function spreadOrganizations(c: pg.Client, orgIds: string[], log: (line: string) => void): Promise<string> {
  const workers = (
    await c.query<{ port: number }>(`select nodeport as port from pg_dist_node where groupid <> 0 and noderole = 'primary' and isactive order by nodeport`)
  ).rows.map((r) => r.port);
  const groups = new Map<string, { shard: string; port: number; orgs: number }>();
  for (const id of orgIds) {
    const { rows } = await c.query<{ shard: string; port: number }>(
      `select s.shard::text as shard, p.nodeport as port
       from (select get_shard_id_for_distribution_column('assets', $1::uuid) as shard) s
       join pg_dist_shard_placement p on p.shardid = s.shard`,
      [id],
    );
    const g = groups.get(rows[0]!.shard) ?? { shard: rows[0]!.shard, port: rows[0]!.port, orgs: 0 };
    g.orgs++;
    groups.set(g.shard, g);
  }
  // Largest groups first, each to the worker holding the fewest organizations so far; a group
  // already there stays where it is when that worker is among the least loaded.
  const load = new Map(workers.map((w) => [w, 0]));
  let moves = 0;
  for (const g of [...groups.values()].sort((a, b) => b.orgs - a.orgs)) {
    const least = Math.min(...load.values());
    const to = load.get(g.port) === least ? g.port : workers.find((w) => load.get(w) === least)!;
    if (to !== g.port) {
      await c.query(`select citus_move_shard_placement($1::bigint, '127.0.0.1', $2::int, '127.0.0.1', $3::int, shard_transfer_mode => 'block_writes')`, [
        g.shard,
        g.port,
        to,
      ]);
      moves++;
      g.port = to;
    }
    load.set(to, load.get(to)! + g.orgs);
  }
  if (moves) await c.query('call citus_cleanup_orphaned_resources()');
  const spread = workers.map((w) => `:${w} ${load.get(w)}`).join(', ');
  log(`organizations spread over the workers (${moves} groups moved): ${spread}`);
  return spread;
}
