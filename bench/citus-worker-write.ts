// The group commit on the worker holding the organization (issue 49, decision 0208): the write
// function called on that worker directly, against the single server's statement on the shard
// tables, unnamed and prepared:
//   DATABASE_URL=<a distributed database on the coordinator> node --import tsx bench/citus-worker-write.ts [rows] [commits]
// (default 1,000 rows and 20 commits of each; e.g. a test pool database after scripts/test-citus.sh:
// it needs a device paired with a vehicle). Prints per commit the wall time and the CPU of the
// worker's backend (/proc: run it on the cluster's machine). Fix times are new each run.
import fs from 'node:fs';
import pg from 'pg';
import { GROUP_COMMIT_TEXTS, writeParams } from '../apps/api/src/modules/positions/pipeline/position-store.ts';
import type { PositionRow } from '../apps/api/src/modules/positions/pipeline/position-row.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL to a distributed database on the coordinator');
const rowsPer = Number(process.argv[2] ?? 1000);
const commits = Number(process.argv[3] ?? 20);

const admin = new pg.Client({ connectionString: url });
await admin.connect();
const pair = (
  await admin.query<{ o: string; g: string; a: string }>(
    `select g.organization_id as o, g.id as g, g.asset_id as a from gateways g where g.asset_id is not null order by g.organization_id, g.id limit 1`,
  )
).rows[0];
if (!pair) throw new Error('no device paired with a vehicle in this database');
const shards = (
  await admin.query<{ p: string; l: string; g: string; port: number }>(
    `select get_shard_id_for_distribution_column('positions', $1::uuid) as p, get_shard_id_for_distribution_column('latest_positions', $1::uuid) as l,
       get_shard_id_for_distribution_column('gateways', $1::uuid) as g,
       (select n.nodeport from pg_dist_placement p join pg_dist_node n using (groupid) where p.shardid = get_shard_id_for_distribution_column('positions', $1::uuid)) as port`,
    [pair.o],
  )
).rows[0]!;
await admin.end();

const worker = new pg.Client({ connectionString: Object.assign(new URL(url), { port: String(shards.port) }).toString() });
await worker.connect();
const pid = (await worker.query<{ p: number }>('select pg_backend_pid() as p')).rows[0]!.p;
/** The worker backend's CPU so far (ms). */
function cpuMs(): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

const onShards = GROUP_COMMIT_TEXTS.statement
  .replace('insert into positions (', `insert into positions_${shards.p} (`)
  .replace(/\blatest_positions\b/g, `latest_positions_${shards.l}`)
  .replace('update gateways set', `update gateways_${shards.g} set`);
let t = Date.now() - 20 * 86_400_000 + Math.floor(Math.random() * 86_400_000);
const rows = (): PositionRow[] =>
  Array.from({ length: rowsPer }, () => ({
    organizationId: pair.o,
    gatewayId: pair.g,
    assetId: pair.a,
    driverId: null,
    fixTime: new Date((t += 1000)),
    latitude: 41.5,
    longitude: -90.5,
    speed: 50,
    course: 90,
    altitude: null,
    accuracy: null,
    odometer: null,
    odometerSource: null,
    engineHours: null,
    ignition: true,
    protocol: 'batch',
    attributes: {},
  }));
const kinds: Array<[string, (values: unknown[]) => Promise<unknown>]> = [
  ['the write function, called on the worker', (values) => worker.query({ name: 'call', text: GROUP_COMMIT_TEXTS.citusCall, values })],
  ['the statement on the shards, unnamed', (values) => worker.query({ text: onShards, values })],
  ['the statement on the shards, prepared', (values) => worker.query({ name: 'shards', text: onShards, values })],
];
// One warm-up commit of each (prepares the named statements).
for (const [, run] of kinds) await run(writeParams(rows(), pair.o, new Date()));
console.log(`| commit (${rowsPer} rows, ${commits} commits of each) | wall ms a commit | worker backend CPU ms a commit |\n|---|---|---|`);
for (const [name, run] of kinds) {
  const c0 = cpuMs();
  const w0 = performance.now();
  for (let i = 0; i < commits; i++) await run(writeParams(rows(), pair.o, new Date()));
  console.log(`| ${name} | ${((performance.now() - w0) / commits).toFixed(2)} | ${((cpuMs() - c0) / commits).toFixed(2)} |`);
}
await worker.end();
