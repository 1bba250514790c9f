import type pg from 'pg';

// On a Citus cluster: connections straight to the worker holding an organization's shards, so that
// the group commit's call runs there without the coordinator delegating it (decision 0217). Made
// from the coordinator's pool on first use: the same user, password and database at the worker's
// address as the coordinator's metadata names it. PostgreSQL and PGlite never make one.

/** How long an organization's route is trusted before it is looked up again (a shard move elsewhere). */
const ROUTE_TTL_MS = 30_000;
/** How long a worker whose connection failed is left out: its organizations go through the coordinator. */
const UNREACHABLE_MS = 30_000;

/** A worker's pool and its Citus group (what the write function answers with, to tell a stale route). */
export interface WorkerRoute {
  pool: pg.Pool;
  group: number;
  key: string;
}

interface Cached {
  at: number;
  route: Promise<WorkerRoute | null>;
}

export class CitusWorkers {
  private readonly pools = new Map<string, pg.Pool>();
  private readonly routes = new Map<string, Cached>();
  private readonly downUntil = new Map<string, number>();
  private closed = false;

  /**
   * @param coordinator the API's pool on the coordinator (metadata look-ups run on it)
   * @param makePool opens a pool like the coordinator's for another connection string
   */
  constructor(
    private readonly coordinator: pg.Pool,
    private readonly coordinatorUrl: string,
    private readonly makePool: (url: string) => pg.Pool,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The worker holding the organization's `positions` shard, or null when the coordinator should
   * run the call as before: the shard is on the coordinator itself, the worker's last connection
   * failed a short while ago, or these connections are closed.
   */
  async route(orgId: string): Promise<WorkerRoute | null> {
    if (this.closed) return null;
    const t = this.now();
    let cached = this.routes.get(orgId);
    if (!cached || t - cached.at > ROUTE_TTL_MS) {
      cached = { at: t, route: this.lookUp(orgId) };
      this.routes.set(orgId, cached);
      // A failed look-up is asked again on the next write.
      cached.route.catch(() => this.routes.delete(orgId));
    }
    const route = await cached.route;
    if (!route || (this.downUntil.get(route.key) ?? 0) > t) return null;
    return route;
  }

  /** The route answered from another group than it was looked up for (a move): looked up again next time. */
  forget(orgId: string): void {
    this.routes.delete(orgId);
  }

  /** A connection to the worker failed before anything was sent: its organizations go through the coordinator for a while. */
  unreachable(route: WorkerRoute, err: unknown): void {
    if ((this.downUntil.get(route.key) ?? 0) <= this.now())
      console.warn(`database: the Citus worker ${route.key} did not take a connection (${err instanceof Error ? err.message : String(err)}); its organizations' writes go through the coordinator for ${UNREACHABLE_MS / 1000} s`);
    this.downUntil.set(route.key, this.now() + UNREACHABLE_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    this.routes.clear();
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
  }

  private async lookUp(orgId: string): Promise<WorkerRoute | null> {
    const { rows } = await this.coordinator.query<{ host: string; port: number; group: number }>({
      name: 'citus_worker_route',
      text: `select n.nodename as host, n.nodeport as port, n.groupid as "group"
        from pg_dist_placement p join pg_dist_node n on n.groupid = p.groupid
        where p.shardid = get_shard_id_for_distribution_column('positions', $1::uuid) and n.isactive and n.noderole = 'primary'
        order by p.placementid desc limit 1`,
      values: [orgId],
    });
    const w = rows[0];
    // Group 0 is the coordinator: the call runs where it is sent anyway.
    if (!w || w.group === 0 || this.closed) return null;
    const key = `${w.host}:${w.port}`;
    let pool = this.pools.get(key);
    if (!pool) {
      const url = new URL(this.coordinatorUrl);
      url.hostname = w.host;
      url.port = String(w.port);
      url.searchParams.delete('host');
      url.searchParams.delete('port');
      pool = this.makePool(url.toString());
      this.pools.set(key, pool);
    }
    return { pool, group: w.group, key };
  }
}

const registry = new WeakMap<pg.Pool, CitusWorkers>();

/** Direct writes to the workers for this coordinator pool (db/client.ts registers them; off with CITUS_DIRECT_WRITES=0). */
export function registerCitusWorkers(pool: pg.Pool, workers: CitusWorkers): void {
  registry.set(pool, workers);
}

/** The pool's worker connections, when direct writes are on for it. */
export function citusWorkersOf(pool: pg.Pool): CitusWorkers | undefined {
  return registry.get(pool);
}
