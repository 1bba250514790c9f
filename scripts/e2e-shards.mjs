// The browser test files split into shards of about equal time, each run by its own Playwright
// process against its own server (decision 0211). The times are a run's seconds per file
// (apps/web/e2e/timings.json); a file not listed there counts as TYPICAL_S. To refresh them from a
// run: `node scripts/e2e-shards.mjs <playwright json report>` (npm test's PLAYWRIGHT_JSON_OUTPUT_NAME).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const e2eDir = path.join(root, 'apps/web/e2e');
const timingsFile = path.join(e2eDir, 'timings.json');
const TYPICAL_S = 25;

/** The spec files, each with its expected seconds. */
function specTimes() {
  const timings = fs.existsSync(timingsFile) ? JSON.parse(fs.readFileSync(timingsFile, 'utf8')) : {};
  return fs
    .readdirSync(e2eDir)
    .filter((f) => f.endsWith('.spec.ts'))
    .sort()
    .map((file) => ({ file, s: timings[file] ?? TYPICAL_S }));
}

/**
 * The files in `n` shards, longest first onto the shard with the least time so far (a greedy
 * split: within the longest file of the optimum). Each shard as Playwright filters: a file's path
 * as a regular expression anchored at its end, so `driver.spec.ts` does not also pick `dvir-driver.spec.ts`.
 */
export function e2eShards(n) {
  const shards = Array.from({ length: n }, () => ({ s: 0, files: [] }));
  for (const spec of specTimes().sort((a, b) => b.s - a.s || a.file.localeCompare(b.file))) {
    const least = shards.reduce((a, b) => (b.s < a.s ? b : a));
    least.s += spec.s;
    least.files.push(spec.file);
  }
  return shards.map((x) => ({ seconds: x.s, filters: x.files.sort().map((f) => `/e2e/${f.replace(/\./g, '\\.')}$`) }));
}

/** Writes the seconds per file of a Playwright JSON report to timings.json. */
function refresh(reportFile) {
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  const ms = {};
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) for (const r of t.results ?? []) ms[spec.file ?? file] = (ms[spec.file ?? file] ?? 0) + r.duration;
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  const out = Object.fromEntries(
    Object.entries(ms)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([f, v]) => [path.basename(f), Math.round(v / 1000)]),
  );
  fs.writeFileSync(timingsFile, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`${timingsFile}: ${Object.keys(out).length} files`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  if (process.argv[2]) refresh(process.argv[2]);
  else for (const [k, x] of e2eShards(Number(process.env.E2E_SHARDS ?? 2)).entries()) console.log(`shard ${k + 1}: ${x.seconds} s, ${x.filters.length} files`);
}
