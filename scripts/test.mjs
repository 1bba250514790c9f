// `npm test`: the production build, then the browser tests against it in the background while lint,
// import rules, typecheck and the unit + API tests run (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
// Ends with one "N passed, N failed" line.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { e2eShards } from './e2e-shards.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-run-'));
const skipE2e = process.env.SKIP_E2E === '1';
let passed = 0;
let failed = 0;
const failedNames = [];
const flakyNames = [];
const problems = [];
// Steps that yield the CPU run detached (yieldCpu): an interrupted run ends them on its way out.
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

const stepTimes = [];

/**
 * A step's command run under bash, whose `times` then writes the CPU its children spent (user and
 * system, every process it waited for: Chromium, test servers, workers) to cpuFile: CI's log says
 * where the cores went, not only the wall.
 */
function timed(cmd, args, cpuFile) {
  return ['bash', ['-c', 'f=$1; shift; "$@"; rc=$?; times > "$f"; exit $rc', 'timed', cpuFile, cmd, ...args]];
}

/** The children's CPU-seconds `times` wrote (its second line: "1m2.5s 0m3.1s"). */
function cpuSeconds(cpuFile) {
  try {
    const line = fs.readFileSync(cpuFile, 'utf8').trim().split('\n')[1] ?? '';
    return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
  } catch {
    return null;
  }
}

/** Prints how a step ended (wall and CPU) and notes a failure. */
function reportEnd(label, started, code, cpuFile) {
  const wall = (Date.now() - started) / 1000;
  const cpu = cpuFile ? cpuSeconds(cpuFile) : null;
  stepTimes.push({ label, wall, cpu });
  console.log(`=== ${label}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${wall.toFixed(1)} s${cpu === null ? '' : `, ${cpu.toFixed(0)} CPU-s`}`);
  if (code !== 0) problems.push(label);
  return code === 0;
}

let stepCount = 0;
const cpuFileOf = () => path.join(tmp, `cpu-${++stepCount}.txt`);

/**
 * Runs a step with its output on the terminal. Spawned, not spawnSync: the event loop keeps
 * turning, so a background step's end is reported when it happens.
 */
function run(label, cmd, args, env = {}, { yielding = false } = {}) {
  console.log(`\n=== ${label}`);
  const started = Date.now();
  const cpuFile = cpuFileOf();
  // Yielding: a session of its own (detached), so its scheduling group can be niced (below).
  const child = spawn(...timed(cmd, args, cpuFile), { cwd: root, stdio: 'inherit', env: { ...process.env, ...env }, detached: yielding });
  if (yielding) yieldCpu(child);
  return new Promise((resolve) => {
    child.on('close', (code) => resolve(reportEnd(label, started, code, cpuFile)));
  });
}

/**
 * A step run in the background with its output kept in a file (printed when it ends), so it can
 * overlap the browser tests, which mostly wait on the browser and the server.
 */
function runInBackground(label, cmd, args, env = {}, { yielding = false, logFile = path.join(tmp, `${label.replace(/\W+/g, '-')}.log`) } = {}) {
  const started = Date.now();
  const out = fs.openSync(logFile, 'w');
  const cpuFile = cpuFileOf();
  const child = spawn(...timed(cmd, args, cpuFile), { cwd: root, stdio: ['ignore', out, out], env: { ...process.env, ...env }, detached: yielding });
  if (yielding) yieldCpu(child);
  console.log(`\n=== ${label}: started in the background`);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      fs.closeSync(out);
      console.log(`\n=== ${label}`);
      process.stdout.write(fs.readFileSync(logFile, 'utf8'));
      resolve(reportEnd(label, started, code, cpuFile));
    });
  });
}

/** Runs the commands two at a time (both cores, yielding to the browser tests), each step's output printed whole when it ends. */
async function runPairs(steps) {
  const queue = [...steps];
  const worker = async () => {
    for (let step = queue.shift(); step; step = queue.shift()) await runInBackground(...step, {}, { yielding: true });
  };
  await Promise.all([worker(), worker()]);
}

/**
 * The API test files that reach a database (an app, a database or a server of their own, or the
 * PostgreSQL server itself): the PostgreSQL pass runs only these, since pure unit files (and the
 * PGlite-only ones) would run the same code a second time.
 */
function databaseTestFiles() {
  const dir = path.join(root, 'apps/api/src');
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => /\b(createTestApp|openDatabase|startServer|TEST_DATABASE_URL)\b/.test(fs.readFileSync(path.join(dir, f), 'utf8')))
    .map((f) => path.join('apps/api/src', f));
}

/**
 * The database test files whose subject is the embedded database itself, or that behaves differently
 * on it: the PGlite client, its worker thread and restarts, the embedded jobs, first start, and the
 * position pipeline (its group commit is the embedded path's own). They name PGlite or the embedded
 * database, or live under modules/positions. With a PostgreSQL server these run on both databases;
 * every other database file runs on the server only (decision 0192).
 */
function embeddedTestFiles() {
  return databaseTestFiles().filter(
    (f) => f.startsWith('apps/api/src/modules/positions/') || /pglite|embedded/i.test(fs.readFileSync(path.join(root, f), 'utf8')),
  );
}

/**
 * The first lines of a failure's message, indented under its name: CI shows only the tail of its log,
 * so the tail must say why, not only what, failed.
 */
function why(message) {
  const lines = String(message ?? '')
    // eslint-disable-next-line no-control-regex -- the terminal's colour codes are what is removed
    .replace(/\u001b\[[0-9;]*m/g, '')
    // Vitest's timeout error carries the stack of an error it made beforehand, named this.
    .replace('Error: STACK_TRACE_ERROR', 'Error: timed out (the test or hook ran past its timeout)')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 4);
  return lines.length ? `\n${lines.map((l) => `      ${l.slice(0, 240)}`).join('\n')}` : '';
}

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  for (const f of r.testResults ?? []) {
    const names = (f.assertionResults ?? [])
      .filter((t) => t.status === 'failed')
      .map((t) => `${path.relative(root, f.name)} > ${t.fullName ?? t.title}${why(t.failureMessages?.[0])}`);
    // A file that failed outside its tests (a hook, an import) counts no failed test: named with its message.
    if (!names.length && f.status === 'failed')
      names.push(
        `${path.relative(root, f.name)} (the file: ${String(f.message ?? '')
          .split('\n')[0]
          .slice(0, 200)})`,
      );
    failedNames.push(...names);
  }
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const s = JSON.parse(fs.readFileSync(file, 'utf8')).stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === 'unexpected') {
          const error = t.results?.at(-1)?.error;
          const at = error?.location ? ` (line ${error.location.line})` : '';
          failedNames.push(`${spec.file ?? file} > ${spec.title}${at}${why(error?.message)}`);
        } else if (t.status === 'flaky') flakyNames.push(`${spec.file ?? file} > ${spec.title}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  for (const suite of JSON.parse(fs.readFileSync(file, 'utf8')).suites ?? []) walk(suite, suite.file);
}

/** The soak's checks, one "PASS …" or "MISS …" line each under its "## Checks". */
function countSoak(file) {
  if (!fs.existsSync(file)) return;
  const checks = fs.readFileSync(file, 'utf8').split('\n## Checks\n')[1] ?? '';
  passed += (checks.match(/^PASS /gm) ?? []).length;
  failed += (checks.match(/^MISS /gm) ?? []).length;
  for (const line of checks.match(/^MISS .*$/gm) ?? []) failedNames.push(`soak > ${line.slice(5)}`);
}

// Chromium's headless shell first: a third less CPU than the full browser's headless mode for the
// same tests (decision 0216); the full browser when only it is installed.
function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  return candidates.find((p) => fs.existsSync(p));
}

// Debian's Chromium (its headless shell) for the browser tests: installed here when running as root, else explained.
if (!skipE2e && !chromiumPath()) {
  if (process.getuid?.() === 0) {
    await run('install chromium', 'bash', [
      '-c',
      'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium-headless-shell fonts-liberation >/dev/null',
    ]);
  }
  if (!chromiumPath()) {
    console.error('Chromium is missing. Install it with: sudo apt-get install -y chromium-headless-shell fonts-liberation');
    process.exit(1);
  }
}

// deps: the import rules of .dependency-cruiser.cjs (no circle, one-way layers; docs/decisions/0149).
const checks = [
  ['lint', bin('eslint'), ['.', '--max-warnings=0']],
  ['import rules (dependency-cruiser)', 'npm', ['run', '--silent', 'deps']],
  // The formatter's shape (.prettierrc.json; `npm run format` writes it).
  ['format (prettier --check)', bin('prettier'), ['--check', '.', '--log-level', 'warn']],
];
// The types, by TypeScript 7's native compiler (decision 0307: 45 CPU-s where TypeScript 6 took
// 170), one checker thread each. The Node side (API, benches, packages) is one program
// (tsconfig.node.json); the web app has the DOM's types, so it stays apart: one step, both programs.
checks.push(['typecheck (TypeScript 7)', 'npm', ['run', '--silent', 'typecheck']]);
/**
 * The browser tests read the demo organization's "today" (America/Chicago): a run that spans its
 * midnight, or starts just after it, sees the day turn under a test or a day with no data yet. Near
 * that midnight the run (its server and Chromium inherit the clock) runs 100 minutes behind under
 * libfaketime, so it starts between 22:00 and 23:40 and ends before midnight (decision 0174).
 * E2E_FAKETIME=<offset> forces an offset (`-100m`), `off` never shifts.
 */
function e2eClock() {
  const forced = process.env.E2E_FAKETIME;
  if (forced === 'off') return null;
  const [h, m] = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Chicago', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .format(new Date())
    .split(':')
    .map(Number);
  const minutes = h * 60 + m;
  const offset = forced ?? (minutes >= 23 * 60 + 40 || minutes < 80 ? '-100m' : null);
  if (!offset) return null;
  if (spawnSync('faketime', ['-f', '+0', 'true']).status !== 0) {
    console.warn(
      `\n=== browser tests: Chicago's local time is ${h}:${String(m).padStart(2, '0')}, near the demo's midnight, and faketime is missing (apt-get install faketime): tests that read "today" may fail`,
    );
    return null;
  }
  console.log(
    `\n=== browser tests: Chicago's local time is ${h}:${String(m).padStart(2, '0')}; they run on a clock ${offset} (faketime) so the demo's day does not turn under them`,
  );
  return offset;
}

// The browser tests are the longest step and mostly wait on the browser and the server, so they
// start first, right after the build, in the background; the checks and the CPU-bound vitest passes
// fill the cores beside them, one after the other, yielding to them (yieldCpu).
// They run as E2E_SHARDS (default 2) Playwright processes side by side, each on a share of the files
// with its own server, ports and data directory: one process left its waits unfilled (1,879 s for
// the run, 1,799 s with two); more shards only took CPU from the niced steps (decision 0211).
let e2e = Promise.resolve(true);
const e2eShardCount = Math.max(1, Number(process.env.E2E_SHARDS ?? 2));
const e2eJsons = [];
// Built in this run: the API tests' server processes run the build (TEST_SERVER_ENTRY, server-process.ts).
let built = false;
if (!skipE2e && fs.existsSync(path.join(root, 'apps/web/playwright.config.ts'))) {
  if ((built = await run('build web app and API', 'npm', ['run', 'build']))) {
    const shift = e2eClock();
    const shards = e2eShards(e2eShardCount);
    e2e = Promise.all(
      shards.map((shard, k) => {
        const json = path.join(tmp, `playwright-${k + 1}.json`);
        e2eJsons.push(json);
        // Shard 1 keeps the config's ports (8181-8184, devices on 5099); each next one 10 higher.
        const port = 8181 + 10 * k;
        const playwright = [
          bin('playwright'),
          'test',
          '-c',
          'apps/web/playwright.config.ts',
          '--reporter=line,json',
          '--output',
          path.join(tmp, `e2e-results-${k + 1}`),
          ...(shards.length > 1 ? shard.filters : []),
        ];
        const [cmd, ...args] = shift ? ['faketime', '-f', shift, ...playwright] : playwright;
        const label =
          shards.length > 1
            ? `browser tests ${k + 1} of ${shards.length} (Playwright + Debian Chromium, ${shard.filters.length} files)`
            : 'browser tests (Playwright + Debian Chromium)';
        return runInBackground(label, cmd, args, {
          PLAYWRIGHT_JSON_OUTPUT_NAME: json,
          CHROMIUM_PATH: chromiumPath(),
          TEST_DATABASE_URL: '',
          E2E_PORT: String(port),
          OSMAND_PORT: String(k === 0 ? 5099 : port + 1),
          TELTONIKA_PORT: String(port + 2),
          FMCSA_PORT: String(port + 3),
          E2E_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-e2e-web-')),
        });
      }),
    ).then((oks) => oks.every(Boolean));
  }
}

// The soak with faults, CI's flavour (bench/soak.ts, issue 43): 100 devices for 3 minutes on PGlite,
// every fault, no position lost or stored twice, derived facts equal to a clean replay. About 4
// minutes and 100 CPU-s; in the background at the browser tests' priority, since its servers must
// answer the devices in time. SKIP_SOAK=1 leaves it out.
let soak = Promise.resolve(true);
const soakLog = path.join(tmp, 'soak.log');
if (process.env.SKIP_SOAK !== '1') {
  soak = runInBackground(
    'soak with faults (npm run soak -- --ci)',
    'node',
    ['--import', 'tsx', 'bench/soak.ts', '--ci'],
    { DATABASE_URL: '' },
    { logFile: soakLog },
  );
}

const niced = spawnSync('nice', ['-n', '10', 'true']).status === 0;
const vitest = (args) => (niced ? ['nice', ['-n', '10', bin('vitest'), ...args]] : [bin('vitest'), args]);

// The restarts on the demo data (apps/api/src/restart.test.ts, issue 66): PGlite only, one file of
// about four minutes alone, mostly the demo seeding. Inside the PGlite pass it was that pass's tail
// (the other files done, one core idle); here it starts beside the checks, in the background,
// yielding like them, and the PGlite pass leaves it out.
const restartFile = 'apps/api/src/restart.test.ts';
const restartJson = path.join(tmp, 'vitest-restart.json');
const restarts = fs.existsSync(path.join(root, restartFile))
  ? runInBackground(
      'restarts on the demo data (PGlite)',
      ...vitest(['run', '--project', 'api', '--reporter=default', '--reporter=json', `--outputFile=${restartJson}`, restartFile]),
      { TEST_DATABASE_URL: '', TEST_SERVER_ENTRY: built ? 'compiled' : '' },
      { yielding: true },
    )
  : Promise.resolve(true);

await runPairs(checks);

/**
 * The vitest passes yield the CPU to the browser tests. Those mostly wait, on a server and a browser
 * that then need a core at once; beside two vitest workers at the same priority each of their steps
 * waited for one (CI: 21 minutes of browser tests, 11 alone on the same 2 cores). Linux schedules
 * sessions as groups (autogroup), so a plain `nice` changes nothing against the browser and the
 * server, which Playwright starts in sessions of their own: the pass runs in its own session, whose
 * group is niced to 19 (/proc/<pid>/autogroup), and under `nice` where there are no such groups.
 * Measured with the vitest pass beside 18 browser tests: 195 s (plain nice) -> 160 s (118 s alone).
 */
function yieldCpu(child) {
  try {
    fs.writeFileSync(`/proc/${child.pid}/autogroup`, '19');
  } catch {
    // No autogroup here (another OS, or turned off): `nice` below does it.
  }
  // Detached, it would outlive an interrupted run: it ends with this process.
  const end = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.once('exit', end);
  child.once('close', () => process.off('exit', end));
}

const unitJson = path.join(tmp, 'vitest.json');
const serverEntry = { TEST_SERVER_ENTRY: built ? 'compiled' : '' };
// With a PostgreSQL server, the database files that are not about the embedded database run on the
// server only: the same SQL a second time on PGlite was two thirds of this pass (decision 0192).
// Without one (the README's `npm test` on a laptop), every file runs here.
const embedded = new Set(embeddedTestFiles());
const serverOnly = process.env.TEST_DATABASE_URL ? databaseTestFiles().filter((f) => !embedded.has(f)) : [];
const excludes = [...serverOnly, restartFile].flatMap((f) => ['--exclude', path.relative('apps/api', f)]);
const pgliteLabel = serverOnly.length
  ? `unit and API tests (embedded PGlite; ${serverOnly.length} database files on the server only)`
  : 'unit and API tests (embedded PGlite)';
await run(
  pgliteLabel,
  ...vitest(['run', '--reporter=default', '--reporter=json', `--outputFile=${unitJson}`, ...excludes]),
  { TEST_DATABASE_URL: '', ...serverEntry },
  { yielding: true },
);
countVitest(unitJson);

// After the PGlite pass, not beside it: beside it (and the browser tests, and the PostgreSQL
// server's own backends, which are not niced) the PGlite pass's databases stalled for minutes in
// two runs out of two (hooks and tests timed out at 60-180 s that take 2 s alone; the CI soak's
// server stopped answering once), though it left a core idle here for 3-4 minutes. One worker:
// alone on the machine it takes 145 s on one, 149 s on two (the server's side bounds it).
const pgJson = path.join(tmp, 'vitest-pg.json');
if (process.env.TEST_DATABASE_URL) {
  await run(
    'API tests (PostgreSQL server)',
    ...vitest(['run', '--project', 'api', '--maxWorkers=1', '--reporter=default', '--reporter=json', `--outputFile=${pgJson}`, ...databaseTestFiles()]),
    serverEntry,
    { yielding: true },
  );
  countVitest(pgJson);
}

await restarts;
countVitest(restartJson);
await e2e;
for (const json of e2eJsons) countPlaywright(json);
await soak;
countSoak(soakLog);

// TEST_KEEP_DIR=<dir>: the run's reports (vitest and Playwright JSON, the soak's log) are kept there, to see where its time went.
if (process.env.TEST_KEEP_DIR) fs.cpSync(tmp, process.env.TEST_KEEP_DIR, { recursive: true });
fs.rmSync(tmp, { recursive: true, force: true });
console.log(
  `\nSteps (wall s, CPU-s of their processes):\n${stepTimes.map((t) => `  ${t.label}: ${t.wall.toFixed(0)} s, ${t.cpu === null ? '?' : t.cpu.toFixed(0)} CPU-s`).join('\n')}`,
);
console.log(`  all: ${process.uptime().toFixed(0)} s`);
// Named last, so the tail of a CI log says which tests failed (and which passed only on a retry).
if (flakyNames.length) console.log(`\nPassed on a retry:\n${flakyNames.map((n) => `  ${n}`).join('\n')}`);
if (failedNames.length) console.log(`\nFailed tests:\n${failedNames.map((n) => `  ${n}`).join('\n')}`);
if (problems.length) console.log(`\nFailed steps: ${problems.join(', ')}`);
// A failed step that ran no counted test (lint, typecheck, build) still fails the run.
if (problems.length && failed === 0) failed = problems.length;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(problems.length ? 1 : 0);
