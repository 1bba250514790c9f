// `DATABASE_URL=<coordinator> npm run db:distribute`: sets the database up on the cluster, applies the
// migrations on the Citus coordinator, then distributes the schema (docs/deploy.md section 7, decision
// 0169). Idempotent: a step already done is skipped, a table already distributed or made a reference
// table is left as it is, so it can run after every upgrade (a new migration's tables are distributed
// on the next run).
//
//   setup (citus-setup.ts) DATABASE_URL's database is created where missing on the coordinator and on
//                      each worker, with the citus extension; the coordinator's host is set and the
//                      workers registered. The workers: CITUS_WORKERS=host:port,host:port, else those
//                      registered in the coordinator's `postgres` database (scripts/citus-cluster.sh
//                      registers them there). CITUS_COORDINATOR=host:port when the workers reach the
//                      coordinator by another address than DATABASE_URL's. Same user and password as
//                      DATABASE_URL on every node.
//
//     DATABASE_URL=postgres://postgres@127.0.0.1:41677/fleet npm run db:distribute
//     DATABASE_URL=… CITUS_WORKERS=10.0.0.2:5432,10.0.0.3:5432 npm run db:distribute
//
//   reference tables   organizations, users, roles, device_models, the IFTA rate tables, the
//                      device-id directory (device_ids, migration 0036) and the organizations with
//                      webhooks (migration 0050): one copy on every node, read without an organization
//   distributed        every table with a NOT NULL organization_id (less users, roles, stream_tickets
//                      and device_ids), by organization_id, co-located with assets; positions with its
//                      monthly partitions
//   coordinator        the rest: tokens, login failures, job runs, app_meta, activity_log, images and
//                      eld_transfer_checks (they hold platform rows without an organization)
//   functions          the group commit's write (apps/api/src/modules/positions/pipeline/citus-write-function.ts), distributed by
//                      organization and co-located with assets: the coordinator delegates each call
//                      to the organization's worker (decision 0203)
import pg from 'pg';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { citusFunctionStatements } from '../apps/api/src/modules/positions/pipeline/citus-write-function.ts';
import { ensureCitusDatabase } from './citus-setup.ts';

const REFERENCE = ['organizations', 'roles', 'users', 'device_models', 'ifta_rate_quarters', 'ifta_tax_rates', 'device_ids', 'webhook_organizations'];
/** Tables with organization_id that are not distributed by it (see the header). */
const NOT_DISTRIBUTED = ['users', 'roles', 'stream_tickets', 'device_ids', 'webhook_organizations'];
const COLOCATION_ANCHOR = 'assets';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('db:distribute: set DATABASE_URL to the Citus coordinator');
  process.exit(2);
}

const started = Date.now();
await ensureCitusDatabase(url, process.env, (line) => console.log(`db:distribute: ${line}`));
const database = await openDatabase({ databaseUrl: url, dataDir: 'memory', poolSize: 2 });
await database.close();
console.log(`db:distribute: migrations applied (${Date.now() - started} ms)`);

const client = new pg.Client({ connectionString: url });
await client.connect();
const q = async <T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => (await client.query<T>(text, params)).rows;

try {
  const [citus] = await q<{ v: string | null }>(`select (select extversion from pg_extension where extname = 'citus') as v`);
  if (!citus?.v) throw new Error('the citus extension is not installed in this database (create extension citus; see scripts/citus-cluster.sh)');
  const workers = await q<{ n: number }>('select count(*)::int as n from citus_get_active_worker_nodes()');
  if (!workers[0]?.n) throw new Error('no active worker: name them in CITUS_WORKERS=host:port,host:port (or register them with citus_add_node)');

  // The list_versions, HoS-version and notify triggers run on the shards (section 7.6): Citus refuses
  // tables with triggers without this, for the distribution and for the app's sessions afterwards.
  const [{ db }] = await q<{ db: string }>('select current_database() as db');
  await client.query(`alter database ${pg.escapeIdentifier(db)} set citus.enable_unsafe_triggers = on`);
  await client.query('set citus.enable_unsafe_triggers = on');
  // A table created by a later migration: its keys gain organization_id like the others (0034).
  await client.query('select fleet_org_keys_rewrite()');

  const kinds = new Map((await q<{ t: string; k: string }>(`select table_name::text as t, citus_table_type as k from citus_tables`)).map((r) => [r.t, r.k]));
  const tenant = (
    await q<{ t: string }>(
      `select c.relname as t from pg_class c
       where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition and c.relname <> all ($1)
         and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'organization_id' and a.attnotnull and not a.attisdropped)
       order by c.relname <> $2, c.relname`,
      [NOT_DISTRIBUTED, COLOCATION_ANCHOR],
    )
  ).map((r) => r.t);
  const todo = tenant.filter((t) => kinds.get(t) !== 'distributed');

  for (const t of REFERENCE) {
    if (kinds.get(t) === 'reference') continue;
    await client.query('select create_reference_table($1)', [t]);
    console.log(`db:distribute: reference ${t}`);
  }
  // Foreign keys between organization tables go while the tables are distributed one by one (Citus
  // wants both ends distributed), then come back. They are noted in a coordinator table first, so a
  // run that stops half-way puts them back on the next run.
  await client.query('create table if not exists fleet_pending_foreign_keys (tbl text not null, name text primary key, def text not null, ref text not null)');
  if (todo.length > 0) {
    await client.query(
      `insert into fleet_pending_foreign_keys
       select conrelid::regclass::text, conname, pg_get_constraintdef(oid), confrelid::regclass::text
       from pg_constraint where contype = 'f' and conrelid::regclass::text = any ($1) and confrelid::regclass::text <> all ($2)
       on conflict do nothing`,
      [todo, REFERENCE],
    );
    const pending = await q<{ tbl: string; name: string }>('select tbl, name from fleet_pending_foreign_keys');
    for (const fk of pending) await client.query(`alter table ${pg.escapeIdentifier(fk.tbl)} drop constraint if exists ${pg.escapeIdentifier(fk.name)}`);
    // A device's id is unique across organizations (OsmAnd names a device by it alone); a shard
    // cannot check that: the device-id directory does (section 7.2), the index keeps the per-organization part.
    await client.query(`drop index if exists gateways_unique_id_uq`);
    await client.query(`create unique index if not exists gateways_org_unique_id_uq on gateways (unique_id, organization_id)`);
    for (const t of todo) {
      const colocate = t === COLOCATION_ANCHOR ? 'none' : COLOCATION_ANCHOR;
      await client.query(`select create_distributed_table($1, 'organization_id', colocate_with => $2)`, [t, colocate]);
      console.log(`db:distribute: distributed ${t}`);
    }
  }
  // Citus refuses ON DELETE SET NULL in a key that holds the distribution column, even naming its
  // columns: the key is added without it, and a BEFORE DELETE trigger on the referenced table nulls
  // the referring rows first (on the shard, where the rows are co-located).
  await client.query(`create or replace function fleet_null_references() returns trigger language plpgsql as $fn$
    begin
      execute format('update %I set %I = null where organization_id = $1 and %I = $2', tg_argv[0], tg_argv[1], tg_argv[1]) using old.organization_id, old.id;
      return old;
    end $fn$`);
  for (const fk of await q<{ tbl: string; name: string; def: string; ref: string }>(
    'select tbl, name, def, ref from fleet_pending_foreign_keys order by name',
  )) {
    if (!tenant.includes(fk.ref)) {
      console.log(`db:distribute: dropped ${fk.tbl}.${fk.name} (refers to the coordinator's ${fk.ref})`);
    } else {
      const setNull = /^(.*) ON DELETE SET NULL \((\w+)\)$/.exec(fk.def);
      if (setNull) {
        const trigger = pg.escapeIdentifier(`${fk.name}_null`.slice(0, 63));
        await client.query(`drop trigger if exists ${trigger} on ${pg.escapeIdentifier(fk.ref)}`);
        await client.query(
          `create trigger ${trigger} before delete on ${pg.escapeIdentifier(fk.ref)} for each row execute function fleet_null_references(${pg.escapeLiteral(fk.tbl)}, ${pg.escapeLiteral(setNull[2]!)})`,
        );
      }
      await client.query(`alter table ${pg.escapeIdentifier(fk.tbl)} add constraint ${pg.escapeIdentifier(fk.name)} ${setNull ? setNull[1] : fk.def}`);
    }
    await client.query('delete from fleet_pending_foreign_keys where name = $1', [fk.name]);
  }
  // Deleting an organization deletes its positions (migration 0009: a trigger, not a key). On Citus
  // organizations is a reference table, so the trigger runs on every node's copy, inside the
  // coordinator's command to that node; a DELETE of the distributed positions from there is a
  // distributed query from a shard, which Citus refuses. So only the node holding the
  // organization's positions shard deletes, on the shard itself.
  await client.query(`create or replace function positions_delete_with_organization() returns trigger language plpgsql as $fn$
    declare
      v_shard bigint := get_shard_id_for_distribution_column('positions', old.id);
    begin
      if exists (select 1 from pg_dist_placement where shardid = v_shard and groupid = (select groupid from pg_dist_local_group)) then
        execute format('delete from %s where organization_id = $1', shard_name('positions', v_shard)) using old.id;
      end if;
      return old;
    end $fn$`);
  // The group commit's write function, distributed by organization beside its tables: a call is
  // run whole on the organization's worker (decision 0203). Made again on every run (a new body).
  for (const statement of citusFunctionStatements(COLOCATION_ANCHOR)) await client.query(statement);
  console.log("db:distribute: functions distributed (the group commit's write)");
  const summary = await q<{ k: string; n: number }>(`select citus_table_type as k, count(*)::int as n from citus_tables group by 1 order by 1`);
  console.log(`db:distribute: done in ${Date.now() - started} ms: ${summary.map((s) => `${s.n} ${s.k}`).join(', ')}`);
} finally {
  await client.end();
}
