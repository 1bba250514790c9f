// Teltonika TCP ingest (issue 30, decision 0153).
//   node --import tsx bench/teltonika-tcp.ts [seconds=30]     (BENCH_CONNECTIONS=1000, BENCH_KILL_SECONDS=10,
//   BENCH_WARM_SECONDS=5, BENCH_ENTRY=compiled runs `npm run build`'s output instead of the TypeScript through tsx;
//   BENCH_PG=postgres://user@host:port/db runs on a new database of that PostgreSQL server instead of PGlite,
//   BENCH_PROF_DIR=dir writes a V8 CPU profile of each API process there, to find where a record's CPU goes)
// 1. Sustained load: the real server in its own process on a new PGlite data directory (free ports),
//    1,000 registered devices; a load generator in another process opens 1,000 TCP connections, does
//    the IMEI handshake on each, then every device sends codec 8E packets of 1-50 CAN records (random)
//    one after the other, each once the previous one is acknowledged, for `seconds`. Printed:
//    acknowledged records/s, acknowledgement latency, CPU of the API and of the load generator per record.
// 2. kill -9 under load: the same again, and the server is killed (SIGKILL) in the middle; it is
//    restarted on the same data directory (time to ready printed).
// 3. Then the server is stopped and the bench opens the data directory itself: every acknowledged
//    record of both runs must be stored, exactly once (per device, the acknowledged records are the
//    first N of its sequence, each with its own fix time).
import { spawn } from 'node:child_process';
import pg from 'pg';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { rowsOf } from '../apps/api/src/db/sql/rows.ts';
import { type AvlRecord, encodeAvlPacket, encodeImei } from '../apps/api/src/modules/positions/pipeline/teltonika/codec.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { freePort } from '../apps/api/src/test/server-process.ts';
import { createTestVehicle } from '../apps/api/src/test/vehicles.ts';
import { benchEntry, productionEnv, startBenchServer } from './bench-server.ts';
import { cpuSeconds, ownCpuSeconds } from './process-meter.ts';

interface LoadArgs {
  port: number;
  connections: number;
  seconds: number;
  /** Epoch ms of each device's first record in this run; record k is 1 s after record k-1. */
  base: number;
}

interface LoadResult {
  /** Acknowledged records per device, in device order. */
  acked: number[];
  /** Records acknowledged between `start` and `stop` (the rate's numerator). */
  ackedInWindow: number;
  windowMs: number;
  packets: number;
  latenciesMs: number[];
  handshakeMs: number;
  refusedHandshakes: number;
  wrongAcks: number;
  closedEarly: number;
}

const imeiOf = (i: number) => `35800${String(i).padStart(10, '0')}`;
const VIN = Buffer.from('1FUJGLDR5CLBP8834', 'ascii');

function canRecord(device: number, k: number, base: number): AvlRecord {
  return {
    timestamp: base + k * 1000,
    priority: 0,
    longitude: -97.5 + device * 0.001 + k * 0.0002,
    latitude: 35.2 + (device % 100) * 0.001,
    altitude: 380,
    angle: 90,
    satellites: 12,
    speed: 88,
    eventIoId: 0,
    io: new Map<number, number | bigint | Buffer>([
      [239, 1],
      [240, 1],
      [21, 5],
      [66, 13_900],
      [67, 4_050],
      [16, 1_000_000 + k * 24],
      [81, 88],
      [85, 1_350],
      [87, 812_345_000 + k * 24],
      [102, 600_000 + Math.floor(k / 60)],
      [256, VIN],
    ]),
  };
}

// ---------------------------------------------------------------------------------------------
// The load generator (its own process: it must not share the bench's or the server's event loop).

class Wire {
  private buf: Buffer = Buffer.alloc(0);
  private want = 0;
  private resolve: ((b: Buffer | null) => void) | null = null;
  closed = false;

  constructor(readonly socket: net.Socket) {
    socket.on('data', (b: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, b]) : b;
      this.settle();
    });
    const end = () => {
      this.closed = true;
      this.settle();
    };
    socket.on('close', end);
    socket.on('error', end);
  }

  read(n: number): Promise<Buffer | null> {
    return new Promise((resolve) => {
      this.want = n;
      this.resolve = resolve;
      this.settle();
    });
  }

  private settle(): void {
    if (!this.resolve) return;
    if (this.buf.length >= this.want) {
      const out = this.buf.subarray(0, this.want);
      this.buf = this.buf.subarray(this.want);
      const r = this.resolve;
      this.resolve = null;
      r(out);
    } else if (this.closed) {
      const r = this.resolve;
      this.resolve = null;
      r(null);
    }
  }
}

async function loadMain(args: LoadArgs): Promise<void> {
  const say = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);
  const result: LoadResult = {
    acked: new Array<number>(args.connections).fill(0),
    ackedInWindow: 0,
    windowMs: 0,
    packets: 0,
    latenciesMs: [],
    handshakeMs: 0,
    refusedHandshakes: 0,
    wrongAcks: 0,
    closedEarly: 0,
  };
  const t0 = performance.now();
  const wires = await Promise.all(
    Array.from({ length: args.connections }, async (_, i) => {
      // Spread over the first second, as devices reconnecting after a restart would be.
      await new Promise((r) => setTimeout(r, (i * 1000) / args.connections));
      const socket = net.connect({ port: args.port, host: '127.0.0.1' });
      socket.setNoDelay(true);
      const w = new Wire(socket);
      socket.write(encodeImei(imeiOf(i)));
      const a = await w.read(1);
      if (!a || a[0] !== 0x01) result.refusedHandshakes++;
      return w;
    }),
  );
  result.handshakeMs = performance.now() - t0;
  let stopping = false;
  let inWindow = true;
  const start = performance.now();
  say({ type: 'start' });
  let rnd = 0x2545f491;
  const random = () => {
    rnd ^= rnd << 13;
    rnd ^= rnd >>> 17;
    rnd ^= rnd << 5;
    return (rnd >>> 0) / 0x1_0000_0000;
  };
  const device = async (i: number): Promise<void> => {
    const w = wires[i]!;
    let k = 0;
    while (!stopping && !w.closed) {
      const n = 1 + Math.floor(random() * 50);
      const records = Array.from({ length: n }, (_, j) => canRecord(i, k + j, args.base));
      const sentAt = performance.now();
      w.socket.write(encodeAvlPacket(0x8e, records));
      const ack = await w.read(4);
      if (!ack) {
        result.closedEarly++;
        return;
      }
      const count = ack.readUInt32BE(0);
      if (count !== n) {
        result.wrongAcks++;
        return;
      }
      result.latenciesMs.push(performance.now() - sentAt);
      result.packets++;
      result.acked[i]! += n;
      if (inWindow) result.ackedInWindow += n;
      k += n;
    }
  };
  const running = wires.map((_, i) => device(i));
  await new Promise((r) => setTimeout(r, args.seconds * 1000));
  inWindow = false;
  result.windowMs = performance.now() - start;
  say({ type: 'stop' });
  // No new packets; the ones in flight are acknowledged (or their connection is gone).
  stopping = true;
  await Promise.all(running);
  for (const w of wires) w.socket.end();
  say({ type: 'done', result });
}

if (process.argv[2] === '--load') {
  await loadMain(JSON.parse(process.argv[3]!) as LoadArgs);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// The bench.

const seconds = Number(process.argv[2] ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1000);
const KILL_SECONDS = Number(process.env.BENCH_KILL_SECONDS ?? 10);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 5);
const entry = benchEntry('source');
const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-teltonika-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

console.log(
  `\nTeltonika TCP benchmark: ${process.env.BENCH_PG ? 'PostgreSQL' : 'PGlite'}, ${CONNECTIONS} connections, ${seconds} s sustained, kill -9 after ${KILL_SECONDS / 2} s of a ${KILL_SECONDS} s run; ${os.cpus().length} cores shared with the load generator; load average ${load()}`,
);

// PostgreSQL: a new database on BENCH_PG's server, dropped at the end.
const pgServer = process.env.BENCH_PG;
const dbName = `fleet_teltonika_bench_${process.pid}`;
const admin = async (statement: string) => {
  const c = new pg.Client({ connectionString: pgServer });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
};
let databaseUrl: string | undefined;
if (pgServer) {
  await admin(`create database ${dbName}`);
  const u = new URL(pgServer);
  u.pathname = `/${dbName}`;
  databaseUrl = u.toString();
}
const dbKind = databaseUrl ? 'PostgreSQL' : 'PGlite';
const open = () => openDatabase(databaseUrl ? { databaseUrl, dataDir, poolSize: 2 } : { dataDir });

// The devices, registered before the server starts (as an organization would have them).
{
  const database = await open();
  await seed(database.db, { ...testConfig({ dataDir, logLevel: 'silent' }), demo: true }, () => undefined);
  const [org] = rowsOf<{ id: string }>(await database.db.execute(`select id from organizations where name = 'Demo Freight'` as never));
  for (let i = 0; i < CONNECTIONS; i++) await createTestVehicle(database.db, org!.id, { uniqueId: imeiOf(i), unitNumber: `T${i}` });
  await database.close();
}

const teltonikaPort = await freePort();
const serverEnv = {
  ...productionEnv(),
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? '',
  TELTONIKA_PORT: String(teltonikaPort),
  DEMO: '0',
  SIMULATOR: '0',
  LOG_LEVEL: 'warn',
};
const profDir = process.env.BENCH_PROF_DIR;
const nodeArgs = profDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profDir)] : [];
let api = await startBenchServer({ entry, env: serverEnv, nodeArgs, readyTimeoutMs: 180_000 });

interface RunOutcome {
  result: LoadResult;
  apiCpu: number;
  loadCpu: number;
  /** The PostgreSQL backends serving the bench database (0 on PGlite). */
  pgCpu: number;
}

/** The pids of the PostgreSQL backends connected to the bench database (its server's pool). */
let pgPids: number[] = [];
async function findPgBackends(): Promise<void> {
  if (!pgServer) return;
  const c = new pg.Client({ connectionString: pgServer });
  await c.connect();
  try {
    pgPids = (await c.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [dbName])).rows.map((r) => r.pid);
  } finally {
    await c.end();
  }
}
const pgCpuNow = () => sum(pgPids.map(cpuSeconds));

/** Runs the load generator; `during(ms since start)` is called once it starts sending. */
function runLoad(args: LoadArgs, during?: () => Promise<void>): Promise<RunOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/teltonika-tcp.ts'), '--load', JSON.stringify(args)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let apiAt = 0;
    let loadAt = 0;
    let apiCpu = 0;
    let loadCpu = 0;
    let pgAt = 0;
    let pgCpu = 0;
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = JSON.parse(line) as { type: string; result?: LoadResult };
      if (m.type === 'start') {
        apiAt = cpuSeconds(api.pid);
        loadAt = cpuSeconds(child.pid!);
        pgAt = pgCpuNow();
        void during?.();
      } else if (m.type === 'stop') {
        apiCpu = cpuSeconds(api.pid) - apiAt;
        loadCpu = cpuSeconds(child.pid!) - loadAt;
        pgCpu = pgCpuNow() - pgAt;
      } else if (m.type === 'done') resolve({ result: m.result!, apiCpu, loadCpu, pgCpu });
    });
    child.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`load generator exited ${code}`))));
  });
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

// 1. Sustained load, after a warm-up run (not counted: the server's first packets load what the work
// behind ingest needs once, e.g. IFTA's boundary index). Fix times start 5 hours back for the
// warm-up, 3 for the measured run and 1 for the kill run, 1 s apart per device.
const baseW = Date.now() - 5 * 3_600_000;
const baseA = Date.now() - 3 * 3_600_000;
const baseB = Date.now() - 3_600_000;
const benchCpu0 = ownCpuSeconds();
const warm = await runLoad({ port: teltonikaPort, connections: CONNECTIONS, seconds: WARM_SECONDS, base: baseW });
await findPgBackends();
console.log(`\n0. Warm-up: ${sum(warm.result.acked)} records acknowledged in ${WARM_SECONDS} s (not counted)`);
const a = await runLoad({ port: teltonikaPort, connections: CONNECTIONS, seconds, base: baseA });
const rateA = (a.result.ackedInWindow / a.result.windowMs) * 1000;
const usPerRecord = (a.apiCpu * 1e6) / Math.max(1, a.result.ackedInWindow);
const loadUsPerRecord = (a.loadCpu * 1e6) / Math.max(1, a.result.ackedInWindow);
const pgUsPerRecord = (a.pgCpu * 1e6) / Math.max(1, a.result.ackedInWindow);
console.log(
  `\n1. Sustained: ${a.result.ackedInWindow} records acknowledged in ${(a.result.windowMs / 1000).toFixed(1)} s = ${rateA.toFixed(0)} records/s ` +
    `(${a.result.packets} packets, ${(sum(a.result.acked) / Math.max(1, a.result.packets)).toFixed(1)} records/packet), handshakes of ${CONNECTIONS} devices in ${a.result.handshakeMs.toFixed(0)} ms` +
    `\n   acknowledgement latency p50 ${pct(a.result.latenciesMs, 0.5).toFixed(0)} ms, p99 ${pct(a.result.latenciesMs, 0.99).toFixed(0)} ms, max ${pct(a.result.latenciesMs, 1).toFixed(0)} ms` +
    `\n   CPU: API ${a.apiCpu.toFixed(1)} s = ${usPerRecord.toFixed(1)} µs/record${databaseUrl ? ' (PostgreSQL server not included)' : ' (PGlite included)'}, load generator ${a.loadCpu.toFixed(1)} s = ${loadUsPerRecord.toFixed(1)} µs/record` +
    (pgServer ? `, PostgreSQL backends (${pgPids.length}) ${a.pgCpu.toFixed(1)} s = ${pgUsPerRecord.toFixed(1)} µs/record` : '') +
    `; sum ${(usPerRecord + loadUsPerRecord + pgUsPerRecord).toFixed(1)} µs = at most ${((os.cpus().length * 1e6) / (usPerRecord + loadUsPerRecord + pgUsPerRecord)).toFixed(0)} records/s on ${os.cpus().length} cores; load average ${load()}` +
    `\n   refused handshakes ${a.result.refusedHandshakes}, wrong acknowledgements ${a.result.wrongAcks}, connections lost ${a.result.closedEarly}`,
);

if (profDir) {
  // A profile is written when the process exits on its own: stop it gently, and skip the kill run.
  await api.stop();
  console.log(`\nCPU profile of the API written to ${path.resolve(profDir)} (the kill run is skipped when profiling)`);
  process.exit(0);
}

// 2. kill -9 in the middle of a run, restart on the same data directory.
let killedAt = 0;
const b = await runLoad({ port: teltonikaPort, connections: CONNECTIONS, seconds: KILL_SECONDS, base: baseB }, async () => {
  await sleep((KILL_SECONDS / 2) * 1000);
  killedAt = Date.now();
  await api.stop('SIGKILL');
});
const restartT0 = Date.now();
api = await startBenchServer({ entry, env: serverEnv, nodeArgs, readyTimeoutMs: 180_000 });
const restartMs = Date.now() - restartT0;
console.log(
  `\n2. kill -9 after ${KILL_SECONDS / 2} s: ${sum(b.result.acked)} records acknowledged before the kill (${b.result.packets} packets), ${b.result.closedEarly} connections cut mid-packet; ` +
    `restarted on the same data directory, ready in ${(restartMs / 1000).toFixed(1)} s (killed ${killedAt ? 'yes' : 'NO'})`,
);
await api.stop('SIGTERM');

// 3. Every acknowledged record stored, exactly once.
const database = await open();
const values = (acked: number[]) => acked.map((n, i) => `('${imeiOf(i)}', ${n})`).join(',');
const check = async (acked: number[], base: number) => {
  const rows = rowsOf<{ stored: number; missing: number; devices_short: number }>(
    await database.db.execute(
      `with acked(unique_id, n) as (values ${values(acked)}),
            counted as (
              select a.unique_id, a.n,
                     (select count(*)::int from positions p join gateways g on g.id = p.gateway_id
                       where g.unique_id = a.unique_id and p.fix_time >= to_timestamp(${base} / 1000.0)
                         and p.fix_time < to_timestamp((${base} + a.n * 1000) / 1000.0)) as stored
                from acked a)
       select sum(stored)::int as stored, sum(greatest(n - stored, 0))::int as missing, count(*) filter (where stored <> n)::int as devices_short from counted` as never,
    ),
  );
  return rows[0]!;
};
const okW = await check(warm.result.acked, baseW);
const okA = await check(a.result.acked, baseA);
const okB = await check(b.result.acked, baseB);
const [{ total }] = rowsOf<{ total: number }>(
  await database.db.execute(`select count(*)::int as total from positions where protocol = 'teltonika'` as never),
) as [{ total: number }];
await database.close();
const lost = okW.missing + okA.missing + okB.missing;
console.log(
  `\n3. Acknowledged and stored: warm-up ${okW.stored} of ${sum(warm.result.acked)}, sustained run ${okA.stored} of ${sum(a.result.acked)}, kill run ${okB.stored} of ${sum(b.result.acked)}; ` +
    `${lost} acknowledged records lost, ${okW.devices_short + okA.devices_short + okB.devices_short} device runs with a difference; ${total} Teltonika rows in all (unacknowledged packets in flight at the kill may be stored too)`,
);
const pass = rateA >= 10_000 && lost === 0 && a.result.wrongAcks === 0;
console.log(
  `\n${pass ? 'PASS' : 'MISS'} Teltonika ingest on ${dbKind} ${rateA.toFixed(0)} records/s from ${CONNECTIONS} connections (target >= 10,000), API CPU ${usPerRecord.toFixed(1)} µs/record, ` +
    `${lost === 0 ? '0 acknowledged records lost (kill -9 included)' : `${lost} ACKNOWLEDGED RECORDS LOST`}; bench process ${(ownCpuSeconds() - benchCpu0).toFixed(1)} s CPU`,
);
if (pgServer) await admin(`drop database ${dbName}`);
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(pass ? 0 : 1);
