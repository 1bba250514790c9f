// EXPLAIN ANALYZE of the registry list statements (assets.list-query.ts, drivers.list-query.ts) for
// the searches and sorts of bench/registry-list.ts, on a PostgreSQL database the bench has loaded:
// planning and execution time and the scans chosen, to review the plans (STYLE 13).
// Run: DATABASE_URL=postgres://…/db node --import tsx bench/registry-explain.ts
import pg from 'pg';
import { asc, desc, fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { assets, drivers } from '../apps/api/src/db/schema/index.ts';
import { pageSql as assetPage } from '../apps/api/src/modules/assets/assets.list-query.ts';
import { pageSql as driverPage } from '../apps/api/src/modules/drivers/drivers.list-query.ts';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
const org = (await pool.query(`select organization_id from assets group by 1 order by count(*) desc limit 1`)).rows[0].organization_id;
const d = new PgDialect();
const show = async (label: string, q: ReturnType<typeof sql>, values: Record<string, unknown>) => {
  const r = d.sqlToQuery(q);
  const params = fillPlaceholders(r.params, values);
  await pool.query(`explain (analyze, summary) ${r.sql}`, params); // warm
  const res = await pool.query(`explain (analyze, summary) ${r.sql}`, params);
  const lines = res.rows.map((x) => x['QUERY PLAN'] as string);
  console.log(label, '|', lines.filter((l) => /Planning Time|Execution Time/.test(l)).join(' '), '|', lines.filter((l) => /Scan on (assets|drivers)|Sort Method/.test(l)).map((l) => l.trim().slice(0, 90)).join(' ; '));
};
for (const s of ['kenworth', 'b0042', 'vnl', '00777']) {
  await show(`asset ${s} unit`, assetPage({ type: 'VEHICLE', search: 'x' }, [sql`lower(${assets.unitNumber}) asc nulls last`, asc(assets.id)]), { org, type: 'VEHICLE', search: `%${s}%`, limit: 15, offset: 0 });
  await show(`asset ${s} year`, assetPage({ type: 'VEHICLE', search: 'x' }, [sql`${desc(assets.year)} nulls last`, asc(assets.id)]), { org, type: 'VEHICLE', search: `%${s}%`, limit: 15, offset: 15 });
}
await show('asset page 40', assetPage({ type: 'VEHICLE' }, [sql`lower(${assets.unitNumber}) asc nulls last`, asc(assets.id)]), { org, type: 'VEHICLE', limit: 15, offset: 600 });
for (const s of ['garcia', 'maria', 'd0000123', 'bench.test', 'smith']) {
  await show(`driver ${s} last`, driverPage({ search: 'x' }, [sql`lower(${drivers.lastName}) asc nulls last`, sql`lower(${drivers.firstName})`, asc(drivers.id)]), { org, search: `%${s}%`, limit: 15, offset: 0 });
  await show(`driver ${s} expiry`, driverPage({ search: 'x' }, [sql`${desc(drivers.licenseExpiry)} nulls last`, asc(drivers.id)]), { org, search: `%${s}%`, limit: 15, offset: 0 });
}
await pool.end();
