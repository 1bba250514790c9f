// The memory of an idle demo server over ten minutes after its first start (docs/benchmarks/idle-memory.md).
//   nice node --import tsx bench/idle-memory.ts [--minutes 11] [--every 5] [--main apps/api/dist/main.js]
// Starts the built server as `npm run serve` does (its environment and flags; the caller's environment
// is passed on beneath them, so `MALLOC_ARENA_MAX=2 node … bench/idle-memory.ts` tries a setting) on
// free ports with a new data directory and the demo fleet (DEMO=1, simulator on, PGlite), waits for
// /readyz, then samples the RSS of the process and its children every few seconds. It prints the
// samples a minute apart, the figures the target is read on (RSS at ready; the highest and lowest from
// one minute after ready to the end; the drift over the last nine minutes) and the CPU the server
// spent, to ready and while idle. Needs `npm run build -w apps/api`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { freePort, serveCommand } from '../apps/api/src/test/server-process.ts';
import { cpuSeconds, rssMb } from './process-meter.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '11' },
    every: { type: 'string', default: '5' },
    main: { type: 'string', default: process.env.BENCH_MAIN ?? 'apps/api/dist/main.js' },
    // Seconds after ready at which the server's own split is read too (e.g. 0,30,60,120): where memory goes down.
    splits: { type: 'string', default: '' },
  },
});
const minutes = Number(values.minutes);
const everyMs = Number(values.every) * 1000;
const main = values.main;
if (!fs.existsSync(main)) {
  console.error(`${main} is missing: run \`npm run build -w apps/api\` first`);
  process.exit(1);
}
const SUPER = { email: 'bench-super@fleet.test', password: 'Bench-Super#2026' };
// A first start seeds the demo fleet: minutes alone, over 10 on a 2-core machine at a load of 25.
const GIVE_UP_MS = Number(process.env.BENCH_GIVE_UP_MS ?? 2_400_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** `pid` and every process below it (a server that forks a helper counts it too). */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks: string[];
    try {
      tasks = fs.readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        for (const child of fs.readFileSync(`/proc/${out[i]}/task/${tid}/children`, 'utf8').trim().split(/\s+/)) if (child) out.push(Number(child));
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return out;
}

const treeRss = (pid: number) => processTree(pid).reduce((n, p) => n + (fs.existsSync(`/proc/${p}`) ? rssMb(p) : 0), 0);
const treeCpu = (pid: number) => processTree(pid).reduce((n, p) => n + cpuSeconds(p), 0);

const [port, osmandPort, teltonikaPort] = [await freePort(), await freePort(), await freePort()];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-idle-memory-'));
const command = serveCommand();
const env = {
  ...(process.env as Record<string, string>),
  ...command.env,
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  PORT: String(port),
  OSMAND_PORT: String(osmandPort),
  TELTONIKA_PORT: String(teltonikaPort),
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  DEMO: '1',
  SIMULATOR: '1',
  WEB_DIST: '/nonexistent',
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  SUPERADMIN_EMAIL: SUPER.email,
  SUPERADMIN_PASSWORD: SUPER.password,
};
const extra = Object.entries(process.env).filter(([k]) => /^(MALLOC_|GLIBC_TUNABLES|NODE_OPTIONS)/.test(k) && !(k in command.env));
console.log(
  `${main}, ${os.cpus().length} cores, serve: ${Object.entries(command.env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')} node ${command.args.slice(0, -1).join(' ')}${extra.length ? `; also ${extra.map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}`,
);
console.log(`load average (1, 5, 15 min) at the start: ${load()}`);

const t0 = Date.now();
const child = spawn(process.execPath, [...command.args.slice(0, -1), main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
const out: string[] = [];
child.stdout.on('data', (b: Buffer) => out.push(b.toString()));
child.stderr.on('data', (b: Buffer) => out.push(b.toString()));
let exited = false;
child.once('exit', () => (exited = true));
const pid = child.pid!;
const url = `http://127.0.0.1:${port}`;

let readyMs = 0;
let peakBeforeReady = 0;
while (!exited && Date.now() - t0 < GIVE_UP_MS) {
  peakBeforeReady = Math.max(peakBeforeReady, treeRss(pid));
  const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) }).then(
    (r) => r.status === 200,
    () => false,
  );
  if (ok) {
    readyMs = Date.now() - t0;
    break;
  }
  await sleep(1000);
}
if (!readyMs) {
  child.kill('SIGKILL');
  console.error(`not ready within ${GIVE_UP_MS / 1000} s${exited ? ' (the server exited)' : ''}:\n${out.join('').slice(-3000)}`);
  process.exit(1);
}
const cpuToReady = treeCpu(pid);
const loadAtReady = load();

/** The server's own account of its memory at the end (GET /admin/diagnostics/memory), as bench/first-start.ts prints it. */
async function memorySplit(): Promise<string> {
  const auth = (await (
    await fetch(`${url}/api/v1/auth/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SUPER) })
  ).json()) as { accessToken: string };
  const r = (await (await fetch(`${url}/api/v1/admin/diagnostics/memory`, { headers: { authorization: `Bearer ${auth.accessToken}` } })).json()) as {
    heapUsedMb: number;
    heapTotalMb: number;
    databaseThreadHeap?: { usedMb: number; totalMb: number } | null;
    regions: { nodeBinaryMb: number; databaseMb: number | null; anonymousMb: number; filesMb: number } | null;
    caches?: Record<string, unknown>;
  };
  const caches = r.caches ? `; caches ${JSON.stringify(r.caches)}` : '';
  if (!r.regions) return `heap ${r.heapUsedMb}/${r.heapTotalMb}${caches}`;
  const worker = r.databaseThreadHeap;
  return `heap ${r.heapUsedMb}/${r.heapTotalMb}, database ${r.regions.databaseMb ?? '-'}, node binary ${r.regions.nodeBinaryMb}, ${worker ? `worker heap ${worker.usedMb}/${worker.totalMb}, ` : ''}other anonymous ${(r.regions.anonymousMb - r.heapTotalMb - (worker?.totalMb ?? 0)).toFixed(1)}, files ${r.regions.filesMb}${caches}`;
}

// Idle: nothing asks the server anything but /healthz once a sample (a stall would show as its latency).
const samples: Array<{ s: number; rss: number; healthMs: number }> = [];
const splitsAt = values.splits ? values.splits.split(',').map(Number) : [];
const splitLines: string[] = [];
const end = t0 + readyMs + minutes * 60_000;
while (Date.now() < end && !exited) {
  const sentAt = Date.now();
  await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) }).then(
    (r) => r.text(),
    () => '',
  );
  samples.push({ s: (Date.now() - t0 - readyMs) / 1000, rss: treeRss(pid), healthMs: Date.now() - sentAt });
  const last = samples[samples.length - 1]!;
  while (splitsAt.length && last.s >= splitsAt[0]!) {
    splitsAt.shift();
    splitLines.push(`${Math.round(last.s)} s: RSS ${last.rss} MB; ${await memorySplit().catch((err: Error) => `(split not read: ${err.message})`)}`);
  }
  await sleep(Math.max(0, everyMs - (Date.now() - sentAt)));
}
const cpuAtEnd = treeCpu(pid);
const loadAtEnd = load();
const split = await memorySplit().catch((err: Error) => `(split not read: ${err.message})`);
const gcLines = out
  .join('')
  .split('\n')
  .filter((l) => l.includes('garbage collected in'));
// pino's line carries its time: when each collection ran, counted from ready.
const gcAt = (line: string) => (Number(/"time":(\d+)/.exec(line)?.[1] ?? NaN) - t0 - readyMs) / 1000;
child.kill('SIGTERM');
await new Promise((res) => (exited ? res(null) : child.once('exit', res)));
fs.rmSync(dataDir, { recursive: true, force: true });

const mb = (x: number) => `${x.toFixed(0)} MB`;
console.log(
  `ready after ${(readyMs / 1000).toFixed(1)} s, CPU to ready ${cpuToReady.toFixed(1)} s, load at ready ${loadAtReady}, highest RSS before ready ${mb(peakBeforeReady)}`,
);
for (const l of gcLines) console.log(`server, ${gcAt(l).toFixed(0)} s after ready: ${/garbage collected in[^"]*/.exec(l)?.[0] ?? l}`);
console.log('\n| after ready | RSS | /healthz |');
console.log('|---|---|---|');
let nextMinute = 0;
for (const x of samples) {
  if (x.s + everyMs / 2000 < nextMinute) continue;
  console.log(`| ${x.s.toFixed(0)} s | ${mb(x.rss)} | ${x.healthMs} ms |`);
  nextMinute = x.s < 60 ? (x.s < 10 ? 10 : x.s < 30 ? 30 : 60) : nextMinute + 60;
}
const settled = samples.filter((x) => x.s >= 60);
const atMinute = (m: number) => settled.find((x) => x.s >= m * 60)?.rss ?? NaN;
const highest = Math.max(...settled.map((x) => x.rss));
const lowest = Math.min(...settled.map((x) => x.rss));
const last = settled.at(-1)?.rss ?? NaN;
console.log(
  `\nRSS at ready ${mb(samples[0]?.rss ?? NaN)}; from 1 min after ready to ${minutes} min: highest ${mb(highest)}, lowest ${mb(lowest)}; at 1, 2 and ${minutes} min ${mb(atMinute(1))}, ${mb(atMinute(2))}, ${mb(last)} (drift from 2 min to the end ${(last - atMinute(2)).toFixed(1)} MB)`,
);
console.log(
  `CPU: ${cpuToReady.toFixed(1)} s to ready, ${(cpuAtEnd - cpuToReady).toFixed(1)} s over ${minutes} idle minutes (${(((cpuAtEnd - cpuToReady) / (minutes * 60)) * 100).toFixed(1)} % of a core); slowest /healthz ${Math.max(...samples.map((x) => x.healthMs))} ms; load at the end ${loadAtEnd}`,
);
for (const line of splitLines) console.log(`split at ${line}`);
console.log(`split at the end (MB): ${split}`);
console.log(`target (under 256 MB from 1 min after ready): ${highest < 256 ? 'met' : 'missed'}`);
