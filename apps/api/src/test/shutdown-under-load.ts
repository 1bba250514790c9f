import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { demoIngestToken } from '../seed/demo-fleet.ts';
import type { ServerProcess } from './server-process.ts';
import { openLiveStream, type LiveStream } from './sse-client.ts';

// SIGTERM to a real server process while devices post positions and a live stream is open, for
// the graceful-shutdown tests on both databases. Needs the demo fleet (DEMO=1) on the server.

/** A position the server answered 200 for: it must be in the database afterwards. */
export interface AckedFix {
  uniqueId: string;
  /** ISO-8601, whole seconds. */
  fixTime: string;
}

export interface ShutdownRun {
  exit: { code: number | null; signal: NodeJS.Signals | null };
  sigtermAt: number;
  exitedAt: number;
  /** Every /readyz answer from a poller running throughout (status, or 0 when refused). */
  readyz: Array<{ at: number; status: number }>;
  /** How the stream opened before the signal ended ('hang' when it was still open after the process had exited for a second). */
  stream: { how: 'end' | 'error' | 'hang'; at: number };
  acked: AckedFix[];
  /** Acknowledged per path: the OsmAnd port, the API's OsmAnd route, the JSON batch route. */
  ackedBy: { osmandPort: number; apiOsmand: number; batch: number };
  ackedAfterSigterm: number;
  /** Requests that got no 200 (refused connections, cut connections, 503 while closing). */
  unacknowledged: number;
}

const OSMAND_PORT_DEVICES = ['demo-truck-11', 'demo-truck-12', 'demo-truck-13'];
const API_OSMAND_DEVICE = 'demo-truck-14';
const BATCH_DEVICE = 'demo-truck-15';
const BATCH_SIZE = 25;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts continuous ingest (three devices on the OsmAnd port, one on the API's OsmAnd route, one
 * gateway posting batches, each request waiting for the previous answer), a /readyz poller and
 * a live stream; after `loadMs` sends SIGTERM and keeps everything running until the process has
 * exited. Fix times are distinct per device, three hours back, one second apart.
 */
export async function sigtermUnderLoad(server: ServerProcess, opts: { orgId: string; accessToken: string; loadMs?: number }): Promise<ShutdownRun> {
  const base = Math.floor(Date.now() / 1000) - 3 * 3600;
  const acked: Array<AckedFix & { at: number }> = [];
  const ackedBy = { osmandPort: 0, apiOsmand: 0, batch: 0 };
  let unacknowledged = 0;
  let stopped = false;
  const iso = (sec: number) => new Date(sec * 1000).toISOString().replace('.000Z', 'Z');

  const osmandLoop = async (url: string, uniqueId: string, kind: 'osmandPort' | 'apiOsmand') => {
    for (let i = 0; !stopped; i++) {
      const t = base + i;
      const q = `id=${uniqueId}&timestamp=${t}&lat=${(41.8 + i * 1e-4).toFixed(5)}&lon=-87.6&speed=20`;
      try {
        const res = await fetch(`${url}?${q}`);
        await res.arrayBuffer();
        if (res.status === 200) {
          acked.push({ uniqueId, fixTime: iso(t), at: Date.now() });
          ackedBy[kind]++;
          continue;
        }
      } catch {
        // refused or cut: not acknowledged, the device would send it again
      }
      unacknowledged++;
      await sleep(20);
    }
  };

  const batchLoop = async () => {
    for (let b = 0; !stopped; b++) {
      const times = Array.from({ length: BATCH_SIZE }, (_, j) => base + b * BATCH_SIZE + j);
      const positions = times.map((t, j) => ({ fixTime: iso(t), latitude: 40 + j * 1e-4, longitude: -88, speed: 30 }));
      try {
        const res = await fetch(`${server.url}/api/v1/ingest/positions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${demoIngestToken(BATCH_DEVICE)}`, 'content-type': 'application/json' },
          body: JSON.stringify({ positions }),
        });
        const body = (await res.json()) as { accepted?: number };
        if (res.status === 200) {
          // Every fix is new, so a 200 must have stored all of them.
          if (body.accepted !== BATCH_SIZE) throw new Error(`batch answered 200 but accepted ${body.accepted}`);
          const at = Date.now();
          for (const t of times) acked.push({ uniqueId: BATCH_DEVICE, fixTime: iso(t), at });
          ackedBy.batch += BATCH_SIZE;
          continue;
        }
      } catch (err) {
        if (err instanceof Error && err.message.startsWith('batch answered')) throw err;
      }
      unacknowledged++;
      await sleep(20);
    }
  };

  const readyz: ShutdownRun['readyz'] = [];
  const readyzLoop = async () => {
    while (!stopped) {
      try {
        const res = await fetch(`${server.url}/readyz`);
        await res.arrayBuffer();
        readyz.push({ at: Date.now(), status: res.status });
      } catch {
        readyz.push({ at: Date.now(), status: 0 });
      }
      await sleep(50);
    }
  };

  const stream: LiveStream = await openLiveStream(`${server.url}/api/v1/organizations/${opts.orgId}/assets/stream`, opts.accessToken);
  if (stream.status !== 200) throw new Error(`live stream answered ${stream.status}`);
  await stream.next((e) => e.event === 'snapshot');

  const loops = [
    ...OSMAND_PORT_DEVICES.map((d) => osmandLoop(`http://127.0.0.1:${server.osmandPort}/`, d, 'osmandPort')),
    osmandLoop(`${server.url}/api/v1/ingest/osmand`, API_OSMAND_DEVICE, 'apiOsmand'),
    batchLoop(),
    readyzLoop(),
  ];
  await sleep(opts.loadMs ?? 800);
  const sigtermAt = Date.now();
  const exit = await server.stop('SIGTERM');
  const exitedAt = Date.now();
  const ended = await Promise.race([stream.ended, sleep(1000).then(() => ({ how: 'hang' as const, at: Date.now() }))]);
  stopped = true;
  stream.close();
  await Promise.all(loops);
  return {
    exit,
    sigtermAt,
    exitedAt,
    readyz,
    stream: { how: ended.how, at: ended.at },
    acked: acked.map(({ uniqueId, fixTime }) => ({ uniqueId, fixTime })),
    ackedBy,
    ackedAfterSigterm: acked.filter((a) => a.at > sigtermAt).length,
    unacknowledged,
  };
}

/**
 * How many of `fixes` are stored (by device unique id and fix time). The devices' stored fix times
 * are read in one statement and matched here: a join of positions and gateways on the organization
 * too, which Citus runs on every shard (a correlated check beside the JSON recordset it refuses).
 */
export async function countStored(db: Db, fixes: readonly AckedFix[]): Promise<number> {
  if (fixes.length === 0) return 0;
  const ids = [...new Set(fixes.map((f) => f.uniqueId))];
  const times = fixes.map((f) => Date.parse(f.fixTime));
  const res = await db.execute(sql`
    select g.unique_id as id, (extract(epoch from p.fix_time) * 1000)::float8 as t
    from positions p join gateways g on g.organization_id = p.organization_id and g.id = p.gateway_id
    where g.unique_id = any(${`{${ids.join(',')}}`}::text[])
      and p.fix_time >= ${new Date(Math.min(...times)).toISOString()}::timestamptz and p.fix_time <= ${new Date(Math.max(...times)).toISOString()}::timestamptz`);
  const stored = new Set((res as unknown as { rows: Array<{ id: string; t: number | string }> }).rows.map((r) => `${r.id}|${Math.round(Number(r.t))}`));
  return fixes.filter((f) => stored.has(`${f.uniqueId}|${Date.parse(f.fixTime)}`)).length;
}
