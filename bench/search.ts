// Search everywhere (issue 18): 10,000 vehicles and 10,000 drivers in one organization (imported as
// bench/registry-list.ts does), then `GET …/search?q=` under 20 connections with terms a dispatcher
// types (unit and VIN fragments, names, licences, device ids, a name and a date). Target: p99 < 30 ms
// (issue 34; it was 50 ms in issue 18).
// Run: node --import tsx bench/search.ts [seconds]      (DATABASE_URL=postgres://…/emptydb for PostgreSQL;
//   BENCH_ENTRY=compiled runs `npm run build`'s output; PGLITE_THREAD=main runs the embedded database
//   on the API's thread instead of its worker thread)
import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { benchEntry, requestedPort, startBenchServer } from './bench-server.ts';
import { pgCpuMeter } from './pg-cpu.ts';
import { cpuSeconds, threadCpuSeconds } from './process-meter.ts';
import { driversCsv, vehiclesCsv } from './registry-data.ts';

const seconds = Number(process.argv[2] ?? 10);
const connections = 20;
const P99_TARGET_MS = 30;

const port = await requestedPort(process.env.BENCH_PORT, 'BENCH_PORT');
const api = await startBenchServer({
  entry: benchEntry('source'),
  env: { DEMO: '1', SIMULATOR: '0', LOG_LEVEL: 'warn', DATABASE_URL: process.env.DATABASE_URL ?? '', ...(port ? { PORT: String(port) } : {}) },
  readyTimeoutMs: 180_000,
});
const cpu = () => cpuSeconds(api.pid);
try {
  const login = await fetch(`${api.url}/api/v1/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demofreight.test', password: 'DemoAdmin#2026' }),
  });
  const session = (await login.json()) as { accessToken: string; user: { organization: { id: string } } };
  const auth = { authorization: `Bearer ${session.accessToken}` };
  const orgPath = `/api/v1/organizations/${session.user.organization.id}`;
  for (const [kind, make] of [
    ['vehicles', vehiclesCsv],
    ['drivers', driversCsv],
  ] as const) {
    for (const from of [0, 5000]) {
      const res = await fetch(`${api.url}${orgPath}/imports/${kind}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ csv: make(from, 5000) }),
      });
      if (!res.ok) throw new Error(`${kind} import failed: ${res.status} ${await res.text()}`);
    }
  }
  // What a dispatcher types in the box: unit numbers, VIN fragments, makes, names, licences, devices, a log day.
  const terms = [
    'b0042',
    'b123',
    '00777',
    'kenworth',
    'volvo',
    'p0049',
    '9x0nc0012',
    'x0nd',
    '49x0',
    'garcia',
    'maria',
    'lopez 2026-06-01',
    'd0000123',
    'emp77',
    'smith',
    'wei',
    'demo-truck-0',
    '107',
    'east',
    'marco',
    'b09',
    'cascadia',
    'aisha',
    'thomas',
  ];
  const paths = terms.map((t, i) => `${orgPath}/search?q=${encodeURIComponent(t)}${i % 5 === 0 ? '&tags=vehicle,driver' : ''}`);
  for (const p of paths) {
    const r = await fetch(`${api.url}${p}`, { headers: auth });
    if (!r.ok) throw new Error(`search ${p} answered ${r.status}: ${await r.text()}`);
  }
  let i = 0;
  const run = (duration: number) =>
    autocannon({
      url: api.url,
      connections,
      duration,
      headers: auth,
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] as string }) }],
    });
  await run(3); // warm-up: the lists are read into memory, statements prepared, the JIT settles
  const pgMeter = await pgCpuMeter(process.env.DATABASE_URL);
  await pgMeter?.lap();
  const cpu0 = cpu();
  const threads0 = threadCpuSeconds(api.pid);
  const self0 = process.cpuUsage();
  const r = await run(seconds);
  const n = Math.max(1, r.requests.total);
  const self = process.cpuUsage(self0);
  const pgS = pgMeter ? await pgMeter.lap() : Number.NaN;
  await pgMeter?.close();
  const apiMs = ((cpu() - cpu0) * 1000) / n;
  const threads = threadCpuSeconds(api.pid);
  const mainMs = ((threads.main - threads0.main) * 1000) / n;
  const otherMs = ((threads.others - threads0.others) * 1000) / n;
  const embedded = `PGlite (embedded, ${process.env.PGLITE_THREAD === 'main' ? "on the API's thread" : 'in its worker thread'})`;
  console.log(
    `\ndatabase: ${process.env.DATABASE_URL ? 'PostgreSQL' : embedded}; 10,025 vehicles, 10,025 drivers, 25 devices; ${terms.length} distinct searches`,
  );
  console.log(
    `| scenario | req/s | p50 ms | p99 ms | non-2xx | API CPU ms/req (main thread + others) | PostgreSQL CPU ms/req | autocannon CPU ms/req | p99 < ${P99_TARGET_MS} ms |\n|---|---|---|---|---|---|---|---|---|`,
  );
  console.log(
    `| search, ${connections} connections, ${seconds} s | ${r.requests.average.toFixed(0)} | ${r.latency.p50.toFixed(1)} | ${r.latency.p99.toFixed(1)} | ${r.non2xx} | ${apiMs.toFixed(2)} (${mainMs.toFixed(2)} + ${otherMs.toFixed(2)}) | ${Number.isNaN(pgS) ? 'n/a' : ((pgS * 1000) / n).toFixed(2)} | ${((self.user + self.system) / 1000 / n).toFixed(2)} | ${r.latency.p99 < P99_TARGET_MS && r.non2xx === 0 ? 'PASS' : 'MISS'} |`,
  );
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (${os.cpus().length} cores)`,
  );
} finally {
  await api.stop();
  fs.rmSync(api.dataDir, { recursive: true, force: true });
}
