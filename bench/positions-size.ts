// Disk per stored position (table and indexes), for sizing a PostgreSQL server.
// Run: DATABASE_URL=postgres://user@host/db node --import tsx bench/positions-size.ts [devices] [fixes per device]
// The URL's user must be allowed to create databases: the bench migrates its own scratch database,
// writes synthetic fixes 10 s apart into this month's partition (the columns a Traccar Client
// sends, with and without a small attributes object), prints bytes per row and drops the database.
import { openDatabase } from '../apps/api/src/db/client.ts';
import { createScratchDatabase } from '../apps/api/src/test/helpers.ts';
import pg from 'pg';

const devices = Number(process.argv[2] ?? 100);
const perDevice = Number(process.argv[3] ?? 2000);
if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL to a PostgreSQL server whose user may create databases');

for (const withAttributes of [false, true]) {
  const scratch = await createScratchDatabase(process.env.DATABASE_URL);
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory', poolSize: 2 });
  await database.close();
  const c = new pg.Client({ connectionString: scratch.url });
  await c.connect();
  try {
    const org = (await c.query<{ id: string }>(`insert into organizations (name) values ('Bench size') returning id`)).rows[0]!.id;
    // Devices interleaved in time, as a fleet reports: the key and asset/driver indexes grow as in ingest.
    await c.query(
      `insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, latitude, longitude, speed, course, altitude, accuracy, odometer, ignition, protocol, attributes)
       select $1, d.g, d.a, d.r, date_trunc('month', now()) + make_interval(secs => i * 10), 41 + i * 1e-5, -87 - i * 1e-5, 88.5, 271.3, 190, 4.8, 1.2e8 + i * 250, true, 'osmand',
         case when $2 then '{"batt": 87.5, "motion": true}'::jsonb else '{}'::jsonb end
       from generate_series(1, $3::int) i, (select gen_random_uuid() g, gen_random_uuid() a, gen_random_uuid() r from generate_series(1, $4::int)) d`,
      [org, withAttributes, perDevice, devices],
    );
    await c.query('vacuum analyze positions');
    const r = (
      await c.query<{ n: string; heap: string; idx: string }>(`
        select (select count(*) from positions) as n, sum(pg_table_size(i.inhrelid)) as heap, sum(pg_indexes_size(i.inhrelid)) as idx
        from pg_inherits i where i.inhparent = 'positions'::regclass`)
    ).rows[0]!;
    const n = Number(r.n);
    const per = (Number(r.heap) + Number(r.idx)) / n;
    console.log(
      `${withAttributes ? 'with {"batt","motion"} attributes' : 'empty attributes               '}: ${n.toLocaleString('en-US')} rows, table ${(Number(r.heap) / n).toFixed(0)} B/row, ` +
        `indexes ${(Number(r.idx) / n).toFixed(0)} B/row, total ${per.toFixed(0)} B/row; ` +
        `a vehicle at one fix per 10 s for 10 h a day: ${((per * 3600) / 1e6).toFixed(2)} MB/day`,
    );
  } finally {
    await c.end();
    await scratch.drop();
  }
}
