// Start-up time and memory of the API as `npm start` runs it, against TypeScript through tsx.
//   node --import tsx bench/startup-memory.ts [--idle 30] [--entry both|compiled|source]
// For each entry, on a new data directory with the demo fleet (DEMO=1, simulator on, as `npm start`):
// time until /readyz answers (first start: initdb, migrations, seed), the demo history backfill,
// then RSS after `--idle` seconds with the trucks posting every 10 s, split by part through
// GET /admin/diagnostics/memory; then a second start on the same directory (warm) and its idle RSS.
// Needs `npm run build` for the compiled entry. Ports are chosen free; set DATABASE_URL for PostgreSQL.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { startServer, type ServerProcess } from '../apps/api/src/test/server-process.ts';
import { cpuSeconds, rssMb } from './process-meter.ts';

const { values } = parseArgs({ options: { idle: { type: 'string', default: '30' }, entry: { type: 'string', default: 'both' } } });
const idleSeconds = Number(values.idle);
const entries = values.entry === 'both' ? (['compiled', 'source'] as const) : ([values.entry] as Array<'compiled' | 'source'>);
if (entries.includes('compiled') && !fs.existsSync('apps/api/dist/main.js')) {
  console.error('apps/api/dist/main.js is missing: run `npm run build` first');
  process.exit(1);
}
const SUPER = { email: 'bench-super@fleet.test', password: 'Bench-Super#2026' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForOutput(s: ServerProcess, text: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!s.output().includes(text)) {
    if (Date.now() - started > timeoutMs) throw new Error(`no "${text}" within ${timeoutMs} ms`);
    await sleep(200);
  }
  return Date.now() - started;
}

async function breakdown(s: ServerProcess): Promise<Record<string, unknown>> {
  const auth = await fetch(`${s.url}/api/v1/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(SUPER),
  });
  const { accessToken } = (await auth.json()) as { accessToken: string };
  return (await (await fetch(`${s.url}/api/v1/admin/diagnostics/memory`, { headers: { authorization: `Bearer ${accessToken}` } })).json()) as Record<
    string,
    unknown
  >;
}

async function measure(entry: 'compiled' | 'source', dataDir: string | undefined, firstStart: boolean) {
  const t0 = Date.now();
  const s = await startServer({
    entry,
    env: {
      DEMO: '1',
      SIMULATOR: '1',
      LOG_LEVEL: 'warn',
      SUPERADMIN_EMAIL: SUPER.email,
      SUPERADMIN_PASSWORD: SUPER.password,
      ...(dataDir ? { DATA_DIR: dataDir } : {}),
      DATABASE_URL: process.env.DATABASE_URL ?? '',
    },
    readyTimeoutMs: 300_000,
  });
  const readyMs = Date.now() - t0;
  const readyRss = rssMb(s.pid);
  const backfillMs = firstStart ? await waitForOutput(s, 'historical positions written', 600_000) : null;
  const cpu0 = cpuSeconds(s.pid);
  await sleep(idleSeconds * 1000);
  const idleCpu = (cpuSeconds(s.pid) - cpu0) / idleSeconds;
  const idleRss = rssMb(s.pid);
  const report = await breakdown(s);
  await s.stop();
  return { s, readyMs, readyRss, backfillMs, idleRss, idleCpu, report };
}

const rows: string[] = [];
for (const entry of entries) {
  const first = await measure(entry, undefined, true);
  const warm = await measure(entry, first.s.dataDir, false);
  for (const [label, m] of [
    ['first start (new data directory, backfill)', first],
    ['second start (same directory)', warm],
  ] as const) {
    const r = m.report as {
      heapUsedMb: number;
      heapTotalMb: number;
      regions: { nodeBinaryMb: number; databaseMb: number | null; anonymousMb: number; filesMb: number } | null;
    };
    const parts = r.regions
      ? `heap ${r.heapUsedMb}/${r.heapTotalMb}, database ${r.regions.databaseMb ?? '–'}, node binary ${r.regions.nodeBinaryMb}, other anonymous ${(r.regions.anonymousMb - r.heapTotalMb).toFixed(1)}, files ${r.regions.filesMb}`
      : `heap ${r.heapUsedMb}/${r.heapTotalMb}`;
    rows.push(
      `| ${entry} | ${label} | ${(m.readyMs / 1000).toFixed(1)} s | ${m.backfillMs === null ? '–' : `${(m.backfillMs / 1000).toFixed(1)} s`} | ${m.readyRss.toFixed(0)} MB | **${m.idleRss.toFixed(0)} MB** | ${parts} | ${(m.idleCpu * 100).toFixed(1)} % |`,
    );
  }
  fs.rmSync(first.s.dataDir, { recursive: true, force: true });
}
console.log(`\nDatabase: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; idle ${idleSeconds} s with the demo trucks posting every 10 s`);
console.log(
  '| entry | start | to /readyz | backfill after ready | RSS at ready | idle RSS | idle split (MB) | idle CPU of one core |\n|---|---|---|---|---|---|---|---|',
);
for (const r of rows) console.log(r);
