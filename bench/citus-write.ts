// The group commit on a Citus cluster, statement against delegated function, interleaved (issue 49,
// decision 0203):
//   DATABASE_URL=<a distributed database on the coordinator> node --import tsx bench/citus-write.ts [commits] [rows]
// e.g. a test pool database after scripts/test-citus.sh (it holds the demo organization). Writes
// `commits` group commits of `rows` positions each (default 200 × 1, then 40 × 1,000) for one
// device of the first organization with a paired vehicle, in blocks of 20 commits alternating
// between WRITE_SQL (position-store.ts, what main ran) and the `fleet_positions_write` call, so the
// machine's load drifts over both alike; prints per commit the wall time and the CPU of every node
// (postmaster and children, /proc), and this database's multi-shard executions (citus_stat_counters,
// every node). Fix times are new each run: nothing already stored is hit.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { GROUP_COMMIT_TEXTS, writeParams } from '../apps/api/src/modules/positions/pipeline/position-store.ts';
import type { PositionRow } from '../apps/api/src/modules/positions/pipeline/position-row.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL to a distributed database on the coordinator');
const commits = Number(process.argv[2] ?? 200);
const rowsPer = Number(process.argv[3] ?? 1);
const BLOCK = 20;

const pool = new pg.Pool({ connectionString: url, max: 1 });
const admin = new pg.Client({ connectionString: url });
await admin.connect();

/** Every node's postmaster (coordinator first). */
const nodes = [
  { name: 'coordinator', port: Number(new URL(url).port) },
  ...(await admin.query<{ nodeport: number }>('select nodeport from pg_dist_node where groupid <> 0 order by nodeport')).rows.map((r, i) => ({
    name: `worker ${i + 1}`,
    port: r.nodeport,
  })),
];
const postmasters = await Promise.all(
  nodes.map(async (n) => {
    const c = new pg.Client({ connectionString: Object.assign(new URL(url), { port: String(n.port) }).toString() });
    await c.connect();
    const dir = (await c.query<{ d: string }>(`select current_setting('data_directory') as d`)).rows[0]!.d;
    await c.end();
    return Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }),
);
function cpu(): number {
  const stats = new Map<number, { ppid: number; own: number; children: number }>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(d), { ppid: Number(f[1]), own: (Number(f[11]) + Number(f[12])) / 100, children: (Number(f[13]) + Number(f[14])) / 100 });
    } catch {
      // ended meanwhile
    }
  }
  let t = 0;
  for (const pm of postmasters) {
    const p = stats.get(pm);
    if (!p) continue;
    t += p.own + p.children;
    for (const s of stats.values()) if (s.ppid === pm) t += s.own;
  }
  return t;
}
async function multiShard(): Promise<number> {
  const q = `select coalesce(sum(query_execution_multi_shard), 0)::int as n from citus_stat_counters where name = current_database()`;
  const here = (await admin.query<{ n: number }>(q)).rows[0]!.n;
  const there = (await admin.query<{ result: string }>(`select result from run_command_on_workers($$${q}$$)`)).rows.reduce((a, r) => a + Number(r.result), 0);
  return here + there;
}

const found = (
  await admin.query<{ o: string; g: string; a: string }>(
    `select g.organization_id as o, g.id as g, g.asset_id as a from gateways g where g.asset_id is not null order by g.organization_id, g.id limit 1`,
  )
).rows;
if (found.length === 0) throw new Error('no device paired with a vehicle in this database');
const pair = found[0]!;
const db = (await admin.query<{ d: string }>('select current_database() as d')).rows[0]!.d;
for (const c of [`alter database ${pg.escapeIdentifier(db)} set citus.enable_stat_counters = on`]) {
  await admin.query(c);
  await admin.query('select run_command_on_workers($1)', [c]);
}

let t0 = Date.now() - 30 * 86_400_000 + Math.floor(Math.random() * 86_400_000);
function rows(): PositionRow[] {
  return Array.from({ length: rowsPer }, () => ({
    organizationId: pair.o,
    gatewayId: pair.g,
    assetId: pair.a,
    driverId: null,
    fixTime: new Date((t0 += 1000)),
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
}

const kinds = [
  { name: 'WRITE_SQL (main)', text: GROUP_COMMIT_TEXTS.statement, stmt: 'bench_write_sql' },
  { name: 'fleet_positions_write call', text: GROUP_COMMIT_TEXTS.citusCall, stmt: 'bench_write_call' },
] as const;
const totals = kinds.map(() => ({ n: 0, wallMs: 0, cpuS: 0, multi: 0 }));
const c = await pool.connect();
// One warm-up commit of each (prepares both named statements on the connection).
for (const k of kinds) await c.query({ name: k.stmt, text: k.text, values: writeParams(rows(), pair.o, new Date()) });
for (let done = 0; done < commits; done += BLOCK) {
  for (let i = 0; i < kinds.length; i++) {
    const k = kinds[i]!;
    const m0 = await multiShard();
    const c0 = cpu();
    const w0 = performance.now();
    for (let j = 0; j < BLOCK; j++) await c.query({ name: k.stmt, text: k.text, values: writeParams(rows(), pair.o, new Date()) });
    const wall = performance.now() - w0;
    const spentS = cpu() - c0;
    const m1 = await multiShard();
    totals[i]!.n += BLOCK;
    totals[i]!.wallMs += wall;
    totals[i]!.cpuS += spentS;
    totals[i]!.multi += m1 - m0;
  }
}
c.release();
console.log(
  `\n### Group commit on Citus, ${rowsPer} position${rowsPer > 1 ? 's' : ''} a commit (${commits} commits of each, blocks of ${BLOCK} interleaved; load ${(await import('node:os')).loadavg()[0]!.toFixed(1)})\n`,
);
console.log('| commit | commits | wall ms a commit | nodes CPU ms a commit | nodes CPU µs a position | multi-shard executions |');
console.log('|---|---|---|---|---|---|');
kinds.forEach((k, i) => {
  const t = totals[i]!;
  console.log(
    `| ${k.name} | ${t.n} | ${(t.wallMs / t.n).toFixed(2)} | ${((t.cpuS * 1000) / t.n).toFixed(2)} | ${((t.cpuS * 1e6) / t.n / rowsPer).toFixed(0)} | ${t.multi} |`,
  );
});
await pool.end();
await admin.end();
