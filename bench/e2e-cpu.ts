// Where the browser tests' CPU goes: runs Playwright (scripts/e2e-copy.sh: a fresh build copy, its own
// ports) on the given specs, samples /proc every 2 s for every process under it, and prints the CPU
// of Chromium (by process type), the e2e server and the test runner, per spec and for the ten
// costliest tests. CI is CPU-bound on 2 cores, so these are the seconds a cut saves.
//
//   node --import tsx bench/e2e-cpu.ts [specs or Playwright arguments...]   (no argument: every spec)
//   E2E_CPU_PORT=8900 to move its ports; E2E_CPU_SAMPLE_MS=200 to sample more often (default 2000: a
//   process ending between two samples loses what it spent since the last one).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type Sample = { t: number; by: Record<string, number> };
interface PwResult {
  startTime: string;
  duration: number;
}
interface PwSuite {
  file?: string;
  specs?: { title: string; file?: string; tests: { results: PwResult[] }[] }[];
  suites?: PwSuite[];
}

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.E2E_CPU_PORT ?? 8900);
const json = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-cpu-')), 'playwright.json');

/** Parent pid, CPU seconds and command line of every process, from /proc. */
function processes(): Map<number, { ppid: number; cpu: number; cmd: string }> {
  const out = new Map<number, { ppid: number; cpu: number; cmd: string }>();
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      out.set(Number(p), {
        ppid: Number(f[1]),
        cpu: (Number(f[11]) + Number(f[12])) / 100,
        cmd: fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' '),
      });
    } catch {
      // gone between the listing and the read
    }
  }
  return out;
}

/** What a process is, for the table: Chromium by its --type, the compiled API server, the rest. */
function category(cmd: string): string {
  if (/chromium|chrome/.test(cmd)) return `chromium ${/--type=([a-z-]+)/.exec(cmd)?.[1] ?? 'browser'}`;
  if (/dist-e2ecpu\/main\.js/.test(cmd)) return 'e2e server';
  return 'runner and build';
}

// The largest CPU seen of each process under the run: an exited process keeps counting.
const seen = new Map<number, { cat: string; cpu: number }>();
const samples: Sample[] = [];
function sample(rootPid: number) {
  const all = processes();
  const children = new Map<number, number[]>();
  for (const [pid, p] of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    queue.push(...(children.get(pid) ?? []));
    const p = all.get(pid);
    if (p) seen.set(pid, { cat: category(p.cmd), cpu: Math.max(seen.get(pid)?.cpu ?? 0, p.cpu) });
  }
  const by: Record<string, number> = {};
  for (const { cat, cpu } of seen.values()) by[cat] = (by[cat] ?? 0) + cpu;
  samples.push({ t: Date.now(), by });
}

const run = spawn('scripts/e2e-copy.sh', ['e2ecpu', String(port), '--reporter=line,json', ...process.argv.slice(2)], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: json },
});
const timer = setInterval(() => sample(run.pid!), Number(process.env.E2E_CPU_SAMPLE_MS ?? 2000));
const code = await new Promise<number>((resolve) => run.on('close', (c) => resolve(c ?? 1)));
clearInterval(timer);
sample(run.pid!);

const at = (t: number) => (samples.findLast((s) => s.t <= t) ?? samples[0]!).by;
const chromium = (by: Record<string, number>) => Object.entries(by).reduce((a, [k, v]) => (k.startsWith('chromium') ? a + v : a), 0);
const rows: { file: string; title: string; wall: number; chromium: number; server: number }[] = [];
const walk = (s: PwSuite, file: string) => {
  for (const spec of s.specs ?? [])
    for (const t of spec.tests)
      for (const r of t.results) {
        const a = at(Date.parse(r.startTime));
        const b = at(Date.parse(r.startTime) + r.duration);
        rows.push({
          file: spec.file ?? file,
          title: spec.title,
          wall: r.duration / 1000,
          chromium: chromium(b) - chromium(a),
          server: (b['e2e server'] ?? 0) - (a['e2e server'] ?? 0),
        });
      }
  for (const c of s.suites ?? []) walk(c, c.file ?? file);
};
if (fs.existsSync(json)) for (const s of (JSON.parse(fs.readFileSync(json, 'utf8')) as { suites: PwSuite[] }).suites) walk(s, s.file ?? '');

const whole = samples.at(-1)?.by ?? {};
console.log(`\n### The whole run (CPU-s by process; build included in "runner and build"), exit ${code}\n`);
console.log('| process | CPU-s |\n|---|---|');
for (const [k, v] of Object.entries(whole).sort((a, b) => b[1] - a[1])) console.log(`| ${k} | ${v.toFixed(0)} |`);
const bySpec = new Map<string, { n: number; wall: number; chromium: number; server: number }>();
for (const r of rows) {
  const s = bySpec.get(r.file) ?? { n: 0, wall: 0, chromium: 0, server: 0 };
  bySpec.set(r.file, { n: s.n + 1, wall: s.wall + r.wall, chromium: s.chromium + r.chromium, server: s.server + r.server });
}
console.log('\n### Per spec, costliest first\n\n| spec | tests | wall s | Chromium CPU-s | e2e server CPU-s |\n|---|---|---|---|---|');
for (const [f, s] of [...bySpec].sort((a, b) => b[1].chromium - a[1].chromium))
  console.log(`| ${f} | ${s.n} | ${s.wall.toFixed(0)} | ${s.chromium.toFixed(1)} | ${s.server.toFixed(1)} |`);
console.log('\n### The ten costliest tests\n\n| test | wall s | Chromium CPU-s |\n|---|---|---|');
for (const r of rows.sort((a, b) => b.chromium - a.chromium).slice(0, 10))
  console.log(`| ${r.file} > ${r.title.slice(0, 80)} | ${r.wall.toFixed(0)} | ${r.chromium.toFixed(1)} |`);
process.exit(code);
