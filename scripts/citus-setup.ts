// The per-database part of a Citus cluster that `npm run db:distribute` does before distributing
// (decision 0169): Citus keeps its extension and its node list per database, so a database created
// on the coordinator is a plain PostgreSQL database until each node has it with the extension, and
// the coordinator knows the workers.
import pg from 'pg';

export interface CitusNode {
  host: string;
  port: number;
}

/** `host:port,host:port` (CITUS_WORKERS); a missing port is 5432. */
export function parseNodes(list: string | undefined): CitusNode[] {
  return (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^(.+?)(?::(\d+))?$/.exec(s);
      if (!m) throw new Error(`CITUS_WORKERS: cannot read "${s}" (host:port)`);
      return { host: m[1]!.replace(/^\[|\]$/g, ''), port: m[2] ? Number(m[2]) : 5432 };
    });
}

function urlFor(base: string, node: CitusNode | null, database: string): string {
  const u = new URL(base);
  if (node) {
    u.hostname = node.host;
    u.port = String(node.port);
  }
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** One connection for `fn`, closed whatever happens. */
export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function ensureDatabase(maintenanceUrl: string, database: string): Promise<boolean> {
  return withClient(maintenanceUrl, async (c) => {
    const { rowCount } = await c.query('select 1 from pg_database where datname = $1', [database]);
    if (rowCount) return false;
    await c.query(`create database ${pg.escapeIdentifier(database)}`);
    return true;
  });
}

/** The workers registered in the coordinator's maintenance database (scripts/citus-cluster.sh registers them there). */
async function registeredWorkers(maintenanceUrl: string): Promise<CitusNode[]> {
  return withClient(maintenanceUrl, async (c) => {
    const { rows } = await c.query<{ citus: boolean }>(`select exists (select 1 from pg_extension where extname = 'citus') as citus`);
    if (!rows[0]?.citus) return [];
    const nodes = await c.query<{ host: string; port: number }>(
      `select nodename as host, nodeport as port from pg_dist_node where groupid <> 0 and noderole = 'primary' and isactive order by nodeid`,
    );
    return nodes.rows;
  });
}

/**
 * Makes DATABASE_URL's database a Citus database: on the coordinator and every worker (CITUS_WORKERS,
 * else the workers registered in the coordinator's `postgres` database) the database and the citus
 * extension exist, the coordinator's host is set (CITUS_COORDINATOR=host:port, else the URL's) and the
 * workers are registered. Each step is skipped when done, so a second run changes nothing.
 */
export async function ensureCitusDatabase(url: string, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<void> {
  const database = decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';
  const maintenance = env.CITUS_MAINTENANCE_DB ?? 'postgres';
  if (database !== maintenance && (await ensureDatabase(urlFor(url, null, maintenance), database))) log(`created database ${database} on the coordinator`);

  const state = await withClient(url, async (c) => {
    const { rows } = await c.query<{ available: boolean; installed: boolean }>(
      `select exists (select 1 from pg_available_extensions where name = 'citus') as available,
              exists (select 1 from pg_extension where extname = 'citus') as installed`,
    );
    return rows[0]!;
  });
  if (!state.available) throw new Error('this server has no citus extension: DATABASE_URL must be a Citus coordinator (scripts/citus-cluster.sh)');
  if (!state.installed) {
    await withClient(url, (c) => c.query('create extension citus'));
    log('created the citus extension on the coordinator');
  }

  const workers = env.CITUS_WORKERS ? parseNodes(env.CITUS_WORKERS) : database === maintenance ? [] : await registeredWorkers(urlFor(url, null, maintenance));
  const coordinator = env.CITUS_COORDINATOR
    ? parseNodes(env.CITUS_COORDINATOR)[0]!
    : { host: new URL(url).hostname.replace(/^\[|\]$/g, '') || 'localhost', port: Number(new URL(url).port || 5432) };

  for (const w of workers) {
    const label = `${w.host}:${w.port}`;
    try {
      if (database !== maintenance && (await ensureDatabase(urlFor(url, w, maintenance), database))) log(`created database ${database} on ${label}`);
      await withClient(urlFor(url, w, database), async (c) => {
        const { rowCount } = await c.query(`select 1 from pg_extension where extname = 'citus'`);
        if (!rowCount) {
          await c.query('create extension citus');
          log(`created the citus extension on ${label}`);
        }
      });
    } catch (e) {
      // A worker down now: the node registration below says so, or the distribution fails clearly.
      log(`cannot reach worker ${label}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  await withClient(url, async (c) => {
    const nodes = (
      await c.query<{ host: string; port: number; group: number }>('select nodename as host, nodeport as port, groupid as group from pg_dist_node')
    ).rows;
    if (!nodes.some((n) => n.group === 0)) {
      await c.query('select citus_set_coordinator_host($1, $2)', [coordinator.host, coordinator.port]);
      log(`coordinator host set to ${coordinator.host}:${coordinator.port}`);
    }
    for (const w of workers) {
      if (nodes.some((n) => n.host === w.host && n.port === w.port)) continue;
      await c.query('select citus_add_node($1, $2)', [w.host, w.port]);
      log(`worker ${w.host}:${w.port} registered`);
    }
  });
}
