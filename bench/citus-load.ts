// The load generator of bench/citus.ts, run in a child process (it must not share the bench's event
// loop, and its CPU is printed apart). One JSON job on argv[2], one JSON line of results on stdout.
//   osmand  keep-alive HTTP/1.1 GETs on the OsmAnd ports, a new fix of one device per request
//   batch   JSON batches of positions, one device token per client
//   get     GETs cycling through a list of paths with each path's own Authorization header
// Every request's start and end are kept, so the bench can print latency percentiles and, for the
// shard move, the longest stretch without a successful answer.
import net from 'node:net';

export interface OsmandJob {
  mode: 'osmand';
  seconds: number;
  /** OsmAnd ports, connections spread over them in turn. */
  ports: number[];
  connections: number;
  /** Device ids; request n reports device n % devices.length at t0 + floor(n / devices.length). */
  devices: string[];
  t0: number;
  /** Print every request (start ms, latency ms, ok) for the shard move's timeline. */
  timeline?: boolean;
  /**
   * Each device to one port only (device n to port n % ports.length), as a load balancer hashing on
   * the device's id sends it (docs/deploy.md section 3); otherwise a device's fixes go to every port
   * in turn, as round robin does. The device count must be a multiple of the port count.
   */
  sticky?: boolean;
  /** Pause between an answer and the connection's next request (a steadier, lighter load). */
  pauseMs?: number;
  /**
   * At most this many requests a second over all connections, each connection sending on its own
   * schedule (the same offered load for every database: its work per second of followers' rounds
   * shared by as many positions on each).
   */
  ratePerS?: number;
}
export interface BatchJob {
  mode: 'batch';
  seconds: number;
  clients: Array<{ port: number; token: string }>;
  size: number;
  /** Fix times from base ms on, 100 ms apart, per client. */
  baseMs: number;
}
export interface GetJob {
  mode: 'get';
  seconds: number;
  connections: number;
  requests: Array<{ port: number; path: string; auth: string }>;
}
/** Positions written straight through the coordinator, one autocommitted insert a request (the shard move's writer when the API's ingest fails on the cluster). */
export interface SqlJob {
  mode: 'sql';
  seconds: number;
  url: string;
  connections: number;
  /** Devices as "c3-<org>-<i>" with their ids; request n writes device n % length at t0 + floor(n / length). */
  devices: Array<{ uid: string; orgId: string; gatewayId: string; assetId: string }>;
  t0: number;
  pauseMs?: number;
}
export type LoadJob = OsmandJob | BatchJob | GetJob | SqlJob;

export interface LoadResult {
  requests: number;
  ok: number;
  failed: number;
  /** Positions acknowledged (osmand: one per 200; batch: the answers' `accepted`). */
  acknowledged: number;
  /** Acknowledged per device-id prefix up to the second '-' (osmand: per organization). */
  acknowledgedBy: Record<string, number>;
  s: number;
  /** Date.now() when the run began (the timeline's zero). */
  startedAt: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  cpuS: number;
  firstError: string | null;
  /** [start ms since the run began, latency ms, 1 ok / 0 failed], with `timeline`. */
  timeline?: Array<[number, number, number]>;
}

const job = JSON.parse(process.argv[2] ?? '{}') as LoadJob;
const cpu0 = process.cpuUsage();
const started = performance.now();
const startedAt = Date.now();
const until = started + job.seconds * 1000;
const latencies: number[] = [];
const timeline: Array<[number, number, number]> = [];
let ok = 0;
let failed = 0;
let acknowledged = 0;
const acknowledgedBy: Record<string, number> = {};
let firstError: string | null = null;
const record = (start: number, good: boolean, error?: string) => {
  const end = performance.now();
  latencies.push(end - start);
  if (good) ok++;
  else {
    failed++;
    firstError ??= error ?? 'failed';
  }
  if ((job.mode === 'osmand' && job.timeline) || job.mode === 'sql')
    timeline.push([Math.round(start - started), Math.round((end - start) * 10) / 10, good ? 1 : 0]);
};

async function osmand(j: OsmandJob): Promise<void> {
  let n = 0;
  // Sticky: each port's own count, whose k-th request is overall request k * ports + port (so its
  // device is always one of that port's, and every device still reports once per round).
  const perPort = j.ports.map(() => 0);
  const next = (portIndex: number) => (j.sticky ? perPort[portIndex]!++ * j.ports.length + portIndex : n++);
  const path = (i: number) => {
    const dev = j.devices[i % j.devices.length]!;
    const ts = j.t0 + Math.floor(i / j.devices.length);
    return { dev, url: `/?id=${dev}&timestamp=${ts}&lat=${35 + (i % 997) / 1e4}&lon=${-97 - (i % 991) / 1e4}&speed=${i % 60}&bearing=90&ignition=true` };
  };
  // One keep-alive connection: a request, its whole answer, the next request. A connection that
  // breaks counts its request as failed and reconnects, so an outage shows as failures, not silence.
  const connection = (port: number, portIndex: number) =>
    new Promise<void>((resolve) => {
      let socket: net.Socket;
      let buf = '';
      let sent = 0;
      let current: { dev: string } | null = null;
      // With a rate: this connection's next send, on a fixed schedule; after a slow answer it sends
      // at once until it is on schedule again, so both databases get the same number of requests.
      const every = j.ratePerS ? (1000 * j.connections) / j.ratePerS : 0;
      let nextAt = performance.now() + Math.random() * every;
      const paced = () => {
        const wait = nextAt - performance.now();
        nextAt += every;
        if (wait > 0) setTimeout(send, wait);
        else send();
      };
      const send = () => {
        if (performance.now() >= until) {
          socket.end();
          resolve();
          return;
        }
        const p = path(next(portIndex));
        current = p;
        sent = performance.now();
        socket.write(`GET ${p.url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      };
      const open = () => {
        buf = '';
        socket = net.connect(port, '127.0.0.1');
        socket.setNoDelay(true);
        socket.setEncoding('latin1');
        socket.on('connect', every ? paced : send);
        socket.on('data', (d: string) => {
          buf += d;
          for (;;) {
            const end = buf.indexOf('\r\n\r\n');
            if (end < 0) return;
            const head = buf.slice(0, end);
            const m = /\r\ncontent-length: *(\d+)/i.exec(head);
            const total = end + 4 + (m ? Number(m[1]) : 0);
            if (buf.length < total) return;
            const body = buf.slice(end + 4, total);
            buf = buf.slice(total);
            const status = Number(head.slice(9, 12));
            const good = status >= 200 && status < 300;
            if (good && current) {
              acknowledged++;
              const org = current.dev.split('-').slice(0, 2).join('-');
              acknowledgedBy[org] = (acknowledgedBy[org] ?? 0) + 1;
            }
            record(sent, good, `${status} ${body.slice(0, 300)}`);
            current = null;
            if (every) paced();
            else if (j.pauseMs) setTimeout(send, j.pauseMs);
            else send();
          }
        });
        socket.on('error', (err) => {
          if (current) record(sent, false, `socket: ${err.message}`);
          current = null;
          socket.destroy();
          if (performance.now() < until) setTimeout(open, 50);
          else resolve();
        });
      };
      open();
    });
  if (j.sticky && j.devices.length % j.ports.length !== 0) throw new Error('sticky: the device count must be a multiple of the port count');
  await Promise.all(Array.from({ length: j.connections }, (_, k) => connection(j.ports[k % j.ports.length]!, k % j.ports.length)));
}

async function batch(j: BatchJob): Promise<void> {
  await Promise.all(
    j.clients.map(async (c, k) => {
      let seq = 0;
      const base = j.baseMs + k * 1000; // clients have their own devices; kept apart anyway
      while (performance.now() < until) {
        const positions = Array.from({ length: j.size }, (_, i) => ({
          fixTime: new Date(base + (seq + i) * 100).toISOString(),
          latitude: 35 + i / 1e5,
          longitude: -97,
          speed: 88,
          course: 90,
          ignition: true,
        }));
        seq += j.size;
        const start = performance.now();
        try {
          const res = await fetch(`http://127.0.0.1:${c.port}/api/v1/ingest/positions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${c.token}` },
            body: JSON.stringify({ positions }),
          });
          const text = await res.text();
          if (res.ok) acknowledged += (JSON.parse(text) as { accepted: number }).accepted;
          record(start, res.ok, `${res.status} ${text.slice(0, 300)}`);
        } catch (err) {
          record(start, false, String(err));
        }
      }
    }),
  );
}

async function get(j: GetJob): Promise<void> {
  let n = 0;
  await Promise.all(
    Array.from({ length: j.connections }, async () => {
      while (performance.now() < until) {
        const r = j.requests[n++ % j.requests.length]!;
        const start = performance.now();
        try {
          const res = await fetch(`http://127.0.0.1:${r.port}${r.path}`, { headers: { authorization: r.auth } });
          const text = await res.text();
          record(start, res.ok, `${res.status} ${r.path.replace(/\/organizations\/[^/]+/, '/organizations/…')}: ${text.slice(0, 300)}`);
        } catch (err) {
          record(start, false, String(err));
        }
      }
    }),
  );
}

async function sqlWrites(j: SqlJob): Promise<void> {
  const { default: pg } = await import('pg');
  let n = 0;
  await Promise.all(
    Array.from({ length: j.connections }, async () => {
      let client: InstanceType<typeof pg.Client> | null = null;
      while (performance.now() < until) {
        const i = n++;
        const d = j.devices[i % j.devices.length]!;
        const start = performance.now();
        try {
          if (!client) {
            client = new pg.Client({ connectionString: j.url });
            await client.connect();
          }
          await client.query(
            `insert into positions (organization_id, gateway_id, asset_id, fix_time, latitude, longitude, speed, ignition, protocol) values ($1, $2, $3, to_timestamp($4), 35, -97, 50, true, 'osmand')`,
            [d.orgId, d.gatewayId, d.assetId, j.t0 + Math.floor(i / j.devices.length)],
          );
          acknowledged++;
          const org = d.uid.split('-').slice(0, 2).join('-');
          acknowledgedBy[org] = (acknowledgedBy[org] ?? 0) + 1;
          record(start, true);
        } catch (err) {
          record(start, false, String(err));
          await client?.end().catch(() => undefined);
          client = null;
        }
        if (j.pauseMs) await new Promise((r) => setTimeout(r, j.pauseMs));
      }
      await client?.end();
    }),
  );
}

if (job.mode === 'osmand') await osmand(job);
else if (job.mode === 'sql') await sqlWrites(job);
else if (job.mode === 'batch') await batch(job);
else await get(job);

latencies.sort((a, b) => a - b);
const pct = (p: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0) * 10) / 10;
const c = process.cpuUsage(cpu0);
const result: LoadResult = {
  requests: ok + failed,
  ok,
  failed,
  acknowledged,
  acknowledgedBy,
  s: (performance.now() - started) / 1000,
  startedAt,
  p50: pct(0.5),
  p90: pct(0.9),
  p99: pct(0.99),
  max: Math.round((latencies.at(-1) ?? 0) * 10) / 10,
  cpuS: (c.user + c.system) / 1e6,
  firstError,
  ...((job.mode === 'osmand' && job.timeline) || job.mode === 'sql' ? { timeline } : {}),
};
console.log(JSON.stringify(result));
