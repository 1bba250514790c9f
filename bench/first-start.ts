// The first start of `npm start` as a new user meets it, and the memory it settles at.
//   node --import tsx bench/first-start.ts [--runs 5] [--parallel] [--idle 60] [--main apps/api/dist/main.js]
// Each run starts the built server (`npm run serve`'s flags, `--main` as its entry) on free ports with a
// new data directory and the demo fleet (DEMO=1, simulator on, PGlite), and polls it from the moment it
// is spawned: /healthz every 250 ms, /readyz every 500 ms, a demo admin sign-in until it works, then the
// dashboard every second. Requests are sent on the clock, not one after the other, so a blocked event
// loop shows as the latency of every request caught behind it. It reports the time to listen (first
// /healthz answer), to ready (/readyz 200), to a usable dashboard (200 with the week's distance and
// driving hours in it), the worst latency before and after ready, the CPU the process spent, and after
// `--idle` seconds past ready its RSS, split by part (GET /admin/diagnostics/memory). Needs `npm run build`.
// BENCH_PROF_DIR=dir writes a CPU profile of each server there (the worst latencies name their second).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { freePort, serveCommand } from '../apps/api/src/test/server-process.ts';
import { cpuSeconds, rssMb } from './process-meter.ts';

const { values } = parseArgs({
  options: {
    parallel: { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    idle: { type: 'string', default: '60' },
    main: { type: 'string', default: process.env.BENCH_MAIN ?? 'apps/api/dist/main.js' },
  },
});
const runs = Number(values.runs);
const idleSeconds = Number(values.idle);
const main = values.main;
if (!fs.existsSync(main)) {
  console.error(`${main} is missing: run \`npm run build\` first`);
  process.exit(1);
}
const SUPER = { email: 'bench-super@fleet.test', password: 'Bench-Super#2026' };
const ADMIN = { email: 'admin@demofreight.test', password: 'DemoAdmin#2026' };
const REQUEST_TIMEOUT_MS = 30_000;
const GIVE_UP_MS = Number(process.env.BENCH_GIVE_UP_MS ?? 300_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Sample {
  kind: string;
  sentAt: number;
  ms: number;
  status: number;
}

interface Answer {
  status: number;
  text(): string;
  json(): unknown;
}

async function timed(kind: string, url: string, init: RequestInit, t0: number, samples: Sample[]): Promise<Answer | null> {
  const sentAt = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = await res.text();
    samples.push({ kind, sentAt: sentAt - t0, ms: Date.now() - sentAt, status: res.status });
    return { status: res.status, text: () => body, json: () => JSON.parse(body) as unknown };
  } catch (err) {
    // Refused before the server listens: not a latency. A timeout is one.
    if ((err as Error).name === 'TimeoutError') samples.push({ kind, sentAt: sentAt - t0, ms: Date.now() - sentAt, status: 0 });
    return null;
  }
}

interface Run {
  listenMs: number;
  readyMs: number;
  dashboardMs: number;
  worstBeforeReady: Sample | null;
  worstAfterReady: Sample | null;
  cpuToReady: number;
  cpuToDashboard: number;
  cpuToIdle: number;
  idleRss: number;
  parts: string;
  loadAtReady: string;
  loadAtIdle: string;
  readyBodies: string[];
}

/**
 * BENCH_SMAPS=1: the process's largest resident mappings at the idle end (size, RSS, permissions,
 * name), to see what "other anonymous" is made of: thread stacks, malloc arenas, WebAssembly code.
 */
function largestMappings(pid: number, top = 15): string {
  const maps: Array<{ head: string; size: number; rss: number }> = [];
  for (const block of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(block)?.[1] ?? 0);
    const [range = '', perms = '', , , , name = ''] = block.split('\n')[0]!.split(/\s+/);
    maps.push({ head: `${perms} ${name || '[anon]'} (${range})`, size: kb('Size'), rss: kb('Rss') });
  }
  maps.sort((a, b) => b.rss - a.rss);
  return maps
    .slice(0, top)
    .map((m) => `${(m.rss / 1024).toFixed(1).padStart(6)} MB of ${(m.size / 1024).toFixed(1).padStart(8)} MB  ${m.head}`)
    .join('\n');
}

async function once(): Promise<Run> {
  const port = await freePort();
  const osmandPort = await freePort();
  const teltonikaPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-first-start-'));
  const command = serveCommand();
  // BENCH_PROF_DIR=dir: a V8 CPU profile of each server, written when it is stopped (to find a stall).
  const prof = process.env.BENCH_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_PROF_DIR)] : [];
  const args = [...prof, ...command.args.slice(0, -1), main];
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
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    SUPERADMIN_EMAIL: SUPER.email,
    SUPERADMIN_PASSWORD: SUPER.password,
  };
  const t0 = Date.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: string[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b.toString()));
  child.stderr.on('data', (b: Buffer) => out.push(b.toString()));
  if (process.env.BENCH_VERBOSE) child.stdout.pipe(process.stderr);
  let exited = false;
  child.once('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  const samples: Sample[] = [];
  let listenMs = 0;
  let readyMs = 0;
  let dashboardMs = 0;
  let cpuToReady = 0;
  let cpuToDashboard = 0;
  let loadAtReady = '';
  let token: string | null = null;
  let orgId: string | null = null;
  let signingIn = false;
  let lastDashboard = '';
  const readyBodies = new Set<string>();
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, fn: () => void) => timers.push(setInterval(fn, ms));
  every(250, () => {
    void timed('healthz', `${url}/healthz`, {}, t0, samples).then((r) => {
      if (r && !listenMs) listenMs = Date.now() - t0;
    });
  });
  every(500, () => {
    if (readyMs) return;
    void timed('readyz', `${url}/readyz`, {}, t0, samples).then((r) => {
      if (!r) return;
      if (r.status === 200) {
        if (!readyMs) {
          readyMs = Date.now() - t0;
          cpuToReady = cpuSeconds(child.pid!);
          loadAtReady = load();
        }
      } else readyBodies.add((r.json() as { message?: string }).message ?? String(r.status));
    });
  });
  // One dashboard request at a time, every 5 s while seeding (a browser asks every 60 s) and every
  // second once ready: enough to time it without queueing work on the server's one connection.
  let dashboardBusy = false;
  let lastDashboardAt = 0;
  every(1000, () => {
    if (dashboardMs || dashboardBusy || (!readyMs && Date.now() - lastDashboardAt < 5000)) return;
    if (!token) {
      if (signingIn || !listenMs) return;
      signingIn = true;
      void timed(
        'sign-in',
        `${url}/api/v1/auth/authenticate`,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) },
        t0,
        samples,
      )
        .then((r) => {
          if (r?.status !== 200) return;
          const body = r.json() as { accessToken: string; user: { organization: { id: string } | null } };
          token = body.accessToken;
          orgId = body.user.organization?.id ?? null;
        })
        .finally(() => (signingIn = false));
      return;
    }
    dashboardBusy = true;
    lastDashboardAt = Date.now();
    void timed('dashboard', `${url}/api/v1/organizations/${orgId}/dashboard/charts?days=7`, { headers: { authorization: `Bearer ${token}` } }, t0, samples)
      .finally(() => (dashboardBusy = false))
      .then((r) => {
        if (r && r.status !== 200) lastDashboard = `${r.status} ${r.text().slice(0, 300)}`;
        if (r?.status !== 200 || !readyMs || dashboardMs) return;
        const d = r.json() as { charts: { distancePerDay: Array<{ distanceM: number }>; hoursPerDay: Array<{ D: number }> } };
        const distance = d.charts.distancePerDay.reduce((n, x) => n + x.distanceM, 0);
        const driving = d.charts.hoursPerDay.reduce((n, x) => n + x.D, 0);
        lastDashboard = `200, distance ${distance} m, driving ${driving} h`;
        if (distance > 0 && driving > 0) {
          dashboardMs = Date.now() - t0;
          cpuToDashboard = cpuSeconds(child.pid!);
        }
      });
  });
  while (!(readyMs && dashboardMs) && !exited && Date.now() - t0 < GIVE_UP_MS) await sleep(100);
  if (!readyMs || !dashboardMs) {
    timers.forEach(clearInterval);
    child.kill('SIGKILL');
    throw new Error(
      `no usable dashboard within ${GIVE_UP_MS / 1000} s${exited ? ' (the server exited)' : ''} (ready at ${readyMs}, last dashboard ${lastDashboard}):\n${out.join('').slice(-3000)}`,
    );
  }
  // Idle: only the liveness probe, to see a stall if one comes.
  timers.splice(1).forEach(clearInterval);
  await sleep(Math.max(0, readyMs + idleSeconds * 1000 - (Date.now() - t0)));
  timers.forEach(clearInterval);
  const idleRss = rssMb(child.pid!);
  if (process.env.BENCH_SMAPS) console.error(largestMappings(child.pid!));
  const cpuToIdle = cpuSeconds(child.pid!);
  const loadAtIdle = load();
  const auth = (await (
    await fetch(`${url}/api/v1/auth/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SUPER) })
  ).json()) as { accessToken: string };
  const r = (await (await fetch(`${url}/api/v1/admin/diagnostics/memory`, { headers: { authorization: `Bearer ${auth.accessToken}` } })).json()) as {
    heapUsedMb: number;
    heapTotalMb: number;
    databaseThreadHeap?: { usedMb: number; totalMb: number } | null;
    databaseContexts?: Array<{ name: string; mb: number }> | null;
    regions: { nodeBinaryMb: number; databaseMb: number | null; anonymousMb: number; filesMb: number } | null;
  };
  const parts = r.regions
    ? `heap ${r.heapUsedMb}/${r.heapTotalMb}, database ${r.regions.databaseMb ?? '–'}, node binary ${r.regions.nodeBinaryMb}, ${r.databaseThreadHeap ? `worker heap ${r.databaseThreadHeap.usedMb}/${r.databaseThreadHeap.totalMb}, ` : ''}other anonymous ${(r.regions.anonymousMb - r.heapTotalMb - (r.databaseThreadHeap?.totalMb ?? 0)).toFixed(1)}, files ${r.regions.filesMb}`
    : `heap ${r.heapUsedMb}/${r.heapTotalMb}`;
  if (process.env.BENCH_SMAPS && r.databaseContexts)
    console.error(`database memory contexts (MB): ${r.databaseContexts.map((c) => `${c.name} ${c.mb}`).join(', ')}`);
  child.kill('SIGTERM');
  await new Promise((res) => (exited ? res(null) : child.once('exit', res)));
  fs.rmSync(dataDir, { recursive: true, force: true });
  const worst = (list: Sample[]) => list.reduce<Sample | null>((w, s) => (!w || s.ms > w.ms ? s : w), null);
  return {
    listenMs,
    readyMs,
    dashboardMs,
    worstBeforeReady: worst(samples.filter((s) => s.sentAt < readyMs)),
    worstAfterReady: worst(samples.filter((s) => s.sentAt >= readyMs)),
    cpuToReady,
    cpuToDashboard,
    cpuToIdle,
    idleRss,
    parts,
    loadAtReady,
    loadAtIdle,
    readyBodies: [...readyBodies],
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const w = (x: Sample | null) => (x ? `${x.ms} ms (${x.kind} at ${s(x.sentAt)}${x.status ? '' : ', timed out'})` : '–');
const rows: Run[] = [];
console.log(`${main}, ${os.cpus().length} cores; load average (1, 5, 15 min) at the start: ${load()}`);
console.log(
  '| run | listen | ready | usable dashboard | worst latency before ready | worst after ready | CPU to ready / dashboard / idle end | load at ready | load at idle end | idle RSS | idle split (MB) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
// --parallel starts the runs together: their RSS is still each start's own, their times are not.
const parallel = values.parallel ? await Promise.all(Array.from({ length: runs }, () => once())) : null;
for (let i = 1; i <= runs; i++) {
  const m = parallel ? parallel[i - 1]! : await once();
  rows.push(m);
  console.log(
    `| ${i} | ${s(m.listenMs)} | ${s(m.readyMs)} | ${s(m.dashboardMs)} | ${w(m.worstBeforeReady)} | ${w(m.worstAfterReady)} | ${m.cpuToReady.toFixed(1)} / ${m.cpuToDashboard.toFixed(1)} / ${m.cpuToIdle.toFixed(1)} s | ${m.loadAtReady} | ${m.loadAtIdle} | **${m.idleRss.toFixed(0)} MB** | ${m.parts} |`,
  );
  if (i === 1) console.log(`<!-- /readyz said before ready: ${m.readyBodies.join(' | ') || '(nothing but 200)'} -->`);
}
if (runs > 1) {
  const max = (f: (r: Run) => number) => Math.max(...rows.map(f));
  console.log(
    `\nmax over ${runs}: ready ${s(max((r) => r.readyMs))}, usable dashboard ${s(max((r) => r.dashboardMs))}, worst latency ${max((r) => Math.max(r.worstBeforeReady?.ms ?? 0, r.worstAfterReady?.ms ?? 0))} ms, idle RSS ${max((r) => r.idleRss).toFixed(0)} MB`,
  );
}
