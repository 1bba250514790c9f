// The registry list statements (assets.list-query.ts, drivers.list-query.ts) for the searches and
// sorts of bench/registry-list.ts, on a PostgreSQL database the bench has loaded: per search path,
// the server's CPU per execution (the statement run 40 times on one connection as the API runs it:
// the page's ids unnamed, the rows by id named; planning included; utime+stime of that backend from /proc), and EXPLAIN ANALYZE's
// planning and execution time with the scans chosen, to review the plans (docs/style.md §13).
// Run: DATABASE_URL=postgres://…/db node --import tsx bench/registry-explain.ts
import fs from 'node:fs';
import pg from 'pg';
import { asc, desc, fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { assets, drivers } from '../apps/api/src/db/schema/index.ts';
import { pageIdsSql as assetPage, pageRowsSql as assetRows } from '../apps/api/src/modules/assets/assets.list-query.ts';
import { pageIdsSql as driverPage, pageRowsSql as driverRows } from '../apps/api/src/modules/drivers/drivers.list-query.ts';

const RUNS = 40;
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
// PLAN_CACHE_MODE=force_custom_plan|force_generic_plan compares against the server's default (auto).
if (process.env.PLAN_CACHE_MODE) await client.query(`set plan_cache_mode = ${client.escapeLiteral(process.env.PLAN_CACHE_MODE)}`);
const backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid ?? 0;
const cpuMs = () => {
  const f = fs.readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(f[11]) + Number(f[12])) * 10;
};
const org = (await client.query(`select organization_id from assets group by 1 order by count(*) desc limit 1`)).rows[0].organization_id;
const d = new PgDialect();
let n = 0;
const totals: Record<string, number[]> = {};
// The page's ids and count run unnamed as in the app (planned per run); the rows by id named.
const show = async (group: string, label: string, q: ReturnType<typeof sql>, values: Record<string, unknown>, named = false) => {
  const r = d.sqlToQuery(q);
  const params = fillPlaceholders(r.params, values);
  const name = named ? `explain_${n++}` : undefined;
  for (let i = 0; i < 6; i++) await client.query({ name, text: r.sql, values: params }); // past the custom-plan trials
  const c0 = cpuMs();
  for (let i = 0; i < RUNS; i++) await client.query({ name, text: r.sql, values: params });
  const perRun = (cpuMs() - c0) / RUNS;
  (totals[group] ??= []).push(perRun);
  const res = await client.query(`explain (analyze, summary) ${r.sql}`, params);
  const lines = res.rows.map((x) => x['QUERY PLAN'] as string);
  const times = lines
    .filter((l) => /Planning Time|Execution Time/.test(l))
    .map((l) => l.replace(' Time', ''))
    .join(', ');
  const scans = lines
    .filter((l) => /Scan on (assets|drivers)|Scan using \w+ on (assets|drivers)|Sort Method/.test(l))
    .map((l) =>
      l
        .trim()
        .replace(/\s*\(cost=.*$/, '')
        .slice(0, 70),
    )
    .join(' ; ');
  console.log(`${label.padEnd(26)} ${perRun.toFixed(2).padStart(6)} ms CPU/exec | ${times} | ${scans}`);
};
const assetUnit = [sql`lower(${assets.unitNumber}) asc nulls last`, asc(assets.id)];
const assetYear = [sql`${desc(assets.year)} nulls last`, asc(assets.id)];
for (const s of ['b0042', 'b1234', 'kenworth', 'volvo', '00777', 'p0049', 'vnl', 'b099']) {
  await show('vehicles searched', `asset ${s} unit`, assetPage({ type: 'VEHICLE', search: 'x' }, assetUnit), {
    org,
    type: 'VEHICLE',
    search: `%${s}%`,
    limit: 15,
    offset: 0,
  });
  await show('vehicles searched', `asset ${s} year p1`, assetPage({ type: 'VEHICLE', search: 'x' }, assetYear), {
    org,
    type: 'VEHICLE',
    search: `%${s}%`,
    limit: 15,
    offset: 15,
  });
}
await show('vehicles page 40', 'asset page 40', assetPage({ type: 'VEHICLE' }, assetUnit), { org, type: 'VEHICLE', limit: 15, offset: 600 });
const driverLast = [sql`lower(${drivers.lastName}) asc nulls last`, sql`lower(${drivers.firstName})`, asc(drivers.id)];
const driverExpiry = [sql`${desc(drivers.licenseExpiry)} nulls last`, asc(drivers.id)];
for (const s of ['garcia', 'maria', 'd0000123', 'emp77', 'lopez', 'wei', 'bench.test', 'smith']) {
  await show('drivers searched', `driver ${s} last`, driverPage({ search: 'x' }, driverLast), { org, search: `%${s}%`, limit: 15, offset: 0 });
  await show('drivers searched', `driver ${s} expiry`, driverPage({ search: 'x' }, driverExpiry), { org, search: `%${s}%`, limit: 15, offset: 0 });
}
const assetIds = (await client.query(`select id from assets where organization_id = $1 and type = 'VEHICLE' order by id limit 15`, [org])).rows.map(
  (r) => r.id,
);
const driverIds = (await client.query(`select id from drivers where organization_id = $1 order by id limit 15`, [org])).rows.map((r) => r.id);
await show('rows of a page (named)', 'asset rows of 15 ids', assetRows(), { ids: `{${assetIds.join(',')}}`, org }, true);
await show('rows of a page (named)', 'driver rows of 15 ids', driverRows(), { ids: `{${driverIds.join(',')}}`, org }, true);
console.log(
  `\nPostgreSQL CPU per execution, mean over the scenario's paths (as bench/registry-list.ts mixes them), and the worst path; a list request runs its ids statement and, unless the page is empty, the rows statement:`,
);
for (const [group, v] of Object.entries(totals))
  console.log(`  ${group}: mean ${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(2)} ms, worst ${Math.max(...v).toFixed(2)} ms`);
await client.end();
