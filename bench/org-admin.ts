// Retention purge throughput and activity-log list latency on a seeded data set.
// Run: node --import tsx bench/org-admin.ts [rowsPerOrg]   (set DATABASE_URL to bench PostgreSQL;
// the script creates and drops its own scratch table there, and seeds organizations named "Bench …")
import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { organizations, retentionPolicies } from '../apps/api/src/db/schema/index.ts';
import { runRetentionPurge } from '../apps/api/src/jobs/retention-purge.ts';
import { RETENTION_TARGETS } from '../apps/api/src/modules/data-retention/retention-kinds.ts';
import { listActivity } from '../apps/api/src/modules/activity-log/activity-log.query.ts';

const perOrg = Number(process.argv[2] ?? 100_000);
const orgCount = 4;
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory' });
const db = database.db;
const kind = database.kind;

const orgIds: string[] = [];
for (let i = 0; i < orgCount; i++) {
  const [o] = await db
    .insert(organizations)
    .values({ name: `Bench ${Date.now()} ${i}` })
    .returning({ id: organizations.id });
  if (!o) throw new Error('insert failed');
  orgIds.push(o.id);
  await db.insert(retentionPolicies).values({ organizationId: o.id, kind: 'POSITIONS', retentionDays: 60 });
}

await db.execute(sql`drop table if exists bench_positions`);
await db.execute(
  sql`create table bench_positions (id bigserial primary key, organization_id uuid not null, fix_time timestamptz not null, lat double precision, lon double precision)`,
);
await db.execute(sql`create index on bench_positions (organization_id, fix_time)`);
let t0 = performance.now();
for (const id of orgIds) {
  // One row every 2 minutes going back 120 days per organization, so half are past 60 days.
  await db.execute(sql`insert into bench_positions (organization_id, fix_time, lat, lon)
    select ${id}::uuid, now() - (g * (120 * 86400.0 / ${perOrg})) * interval '1 second', 41.8, -87.6 from generate_series(1, ${perOrg}) g`);
}
const seedMs = performance.now() - t0;

t0 = performance.now();
const result = await runRetentionPurge(database, { targets: { ...RETENTION_TARGETS, POSITIONS: [{ table: 'bench_positions', timeColumn: 'fix_time' }] } });
const purgeMs = performance.now() - t0;
const removed = result.removed.POSITIONS;

// Activity log: one busy organization with 200k entries, list the newest page and a filtered page.
const busy = orgIds[0] ?? '';
await db.execute(sql`insert into activity_log (organization_id, actor_email, action, entity_type, entity_id, created_at)
  select ${busy}::uuid, 'bench@x.test', (array['CREATE','UPDATE','DELETE'])[1 + g % 3], (array['USER','ROLE','VEHICLE','DRIVER'])[1 + g % 4], g::text, now() - g * interval '1 minute'
  from generate_series(1, 200000) g`);
await db.execute(sql`analyze activity_log`);
const time = async (label: string, fn: () => Promise<unknown>, runs = 20) => {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn();
    ms.push(performance.now() - s);
  }
  ms.sort((a, b) => a - b);
  return { label, p50: ms[Math.floor(runs / 2)] ?? 0, max: ms.at(-1) ?? 0 };
};
const q = { page: 0, size: 15 };
const lists = [
  await time('activity log, newest page of 15 (200k rows)', () => listActivity({ db, orgId: busy }, q)),
  await time('activity log, page 100', () => listActivity({ db, orgId: busy }, { ...q, page: 100 })),
  await time('activity log, action=UPDATE entityType=ROLE last 30 days', () =>
    listActivity({ db, orgId: busy }, { ...q, action: 'UPDATE', entityType: 'ROLE', from: new Date(Date.now() - 30 * 86_400_000).toISOString() }),
  ),
];

console.log(`database: ${kind}`);
console.log(`seeded ${orgCount} x ${perOrg} positions in ${(seedMs / 1000).toFixed(1)} s`);
console.log(
  `purge: removed ${removed} rows in ${(purgeMs / 1000).toFixed(2)} s = ${Math.round(removed / (purgeMs / 1000))} rows/s (batches of 5000, one transaction each)`,
);
for (const l of lists) console.log(`${l.label}: p50 ${l.p50.toFixed(1)} ms, max ${l.max.toFixed(1)} ms`);

await db.execute(sql`drop table bench_positions`);
if (kind === 'postgres') {
  await db.execute(sql`delete from activity_log where actor_email = 'bench@x.test'`);
  for (const id of orgIds) await db.execute(sql`delete from organizations where id = ${id}`);
}
await database.close();
