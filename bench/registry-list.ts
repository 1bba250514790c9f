// Fleet registry (issue 5): 10,000 vehicles and 10,000 drivers in one organization, loaded through
// the CSV import endpoint (5,000 rows per file, each timed against the 5 s target), then searched
// and sorted pages of 15 under 20 connections (p99 against the 30 ms target), with the CPU time
// the API process spent per request (the figure that load on a shared machine distorts least).
// Run: node --import tsx bench/registry-list.ts [seconds per scenario]
//   The server listens on a free port (BENCH_PORT=n to choose one: the bench refuses it if taken)
//   and runs through tsx (BENCH_ENTRY=compiled for `npm run build`'s output, as `npm start` runs it).
//   DATABASE_URL=postgres://…/emptydb node --import tsx bench/registry-list.ts 10   (an empty database)
// The load generator is wrk when /usr/bin/wrk is installed (apt-get install wrk), else autocannon;
// BENCH_LOADGEN=autocannon forces autocannon.
import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { benchEntry, requestedPort, startBenchServer } from './bench-server.ts';
import { pgCpuMeter } from './pg-cpu.ts';
import { cpuSeconds } from './process-meter.ts';
import { driversCsv, listScenarios, vehiclesCsv } from './registry-data.ts';
import { wrk, wrkInstalled } from './wrk.ts';

const seconds = Number(process.argv[2] ?? 10);
const connections = 20;
const P99_TARGET_MS = 30;
const IMPORT_TARGET_S = 5;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

const entry = benchEntry('source');
const port = await requestedPort(process.env.BENCH_PORT, 'BENCH_PORT');
const api = await startBenchServer({
  entry,
  env: { DEMO: '1', SIMULATOR: '0', LOG_LEVEL: 'warn', DATABASE_URL: process.env.DATABASE_URL ?? '', ...(port ? { PORT: String(port) } : {}) },
  readyTimeoutMs: 180_000,
});
const origin = api.url;
// CPU seconds the API process used (user + system), from /proc.
const cpu = () => cpuSeconds(api.pid);
try {
  const login = await fetch(`${origin}/api/v1/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demofreight.test', password: 'DemoAdmin#2026' }),
  });
  const session = (await login.json()) as { accessToken: string; user: { organization: { id: string } } };
  const auth = { authorization: `Bearer ${session.accessToken}` };
  const org = `${origin}/api/v1/organizations/${session.user.organization.id}`;

  const imports: Array<{ kind: string; ms: number; cpuS: number; imported: number }> = [];
  for (const [kind, make] of [
    ['vehicles', vehiclesCsv],
    ['drivers', driversCsv],
  ] as const) {
    for (const from of [0, 5000]) {
      const csv = make(from, 5000);
      const cpu0 = cpu();
      const started = performance.now();
      const res = await fetch(`${org}/imports/${kind}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ csv }),
      });
      const ms = performance.now() - started;
      const body = (await res.json()) as { imported?: number; message?: string };
      if (!res.ok) throw new Error(`${kind} import failed: ${res.status} ${body.message}`);
      if (body.imported !== 5000) throw new Error(`${kind} import saved ${body.imported} of 5,000 rows: run the bench on an empty database`);
      imports.push({ kind, ms, cpuS: cpu() - cpu0, imported: body.imported });
    }
  }

  const useWrk = process.env.BENCH_LOADGEN !== 'autocannon' && wrkInstalled();
  const loadgen = useWrk ? 'wrk' : 'autocannon';
  const scenario = async (name: string, paths: string[]) => {
    if (useWrk) {
      wrk(origin, paths, auth, connections, 2); // warm-up: every pooled connection prepares its statements, the JIT settles
      await pgMeter?.lap();
      const cpuBefore = cpu();
      const w = wrk(origin, paths, auth, connections, seconds);
      const n = Math.max(1, w.requests);
      const pgS = pgMeter ? await pgMeter.lap() : Number.NaN;
      const r = { requests: { average: w.perSecond }, latency: { p50: w.p50Ms, p99: w.p99Ms }, non2xx: w.non2xx };
      return { name, r, cpuMs: ((cpu() - cpuBefore) * 1000) / n, pgMs: (pgS * 1000) / n, loadMs: (w.cpuS * 1000) / n };
    }
    let i = 0;
    const run = (duration: number) =>
      autocannon({
        url: origin,
        connections,
        duration,
        headers: auth,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] as string }) }],
      });
    await run(2); // warm-up: every pooled connection prepares its statements, the JIT settles
    await pgMeter?.lap();
    const cpuBefore = cpu();
    const selfBefore = process.cpuUsage();
    const r = await run(seconds);
    const n = Math.max(1, r.requests.total);
    const self = process.cpuUsage(selfBefore);
    const pgS = pgMeter ? await pgMeter.lap() : Number.NaN;
    return { name, r, cpuMs: ((cpu() - cpuBefore) * 1000) / n, pgMs: (pgS * 1000) / n, loadMs: (self.user + self.system) / 1000 / n };
  };
  // The PostgreSQL server's share (its backends for this database) and the load generator's
  // (autocannon runs in this process): with the API's, the CPU one request costs the machine.
  const pgMeter = await pgCpuMeter(process.env.DATABASE_URL);
  const results = [];
  for (const s of listScenarios(new URL(org).pathname)) results.push(await scenario(s.name, s.paths));
  await pgMeter?.close();

  // The first page after a change: the API's list index (decision 0083) reads the changed list
  // again. One vehicle's notes edited, then one searched page timed, five times.
  const afterEdit: number[] = [];
  const page = await fetch(`${org}/assets?type=VEHICLE&search=b0042&size=1`, { headers: auth });
  const vehicle = ((await page.json()) as { content: Array<Record<string, unknown>> }).content[0];
  if (!vehicle) throw new Error('no vehicle B00042');
  for (let k = 0; k < 5; k++) {
    const body = {
      type: 'VEHICLE',
      unitNumber: vehicle.unitNumber,
      vin: vehicle.vin,
      make: vehicle.make,
      model: vehicle.model,
      year: vehicle.year,
      plate: vehicle.plate,
      plateState: vehicle.plateState,
      fuelType: vehicle.fuelType,
      iftaQualified: vehicle.iftaQualified,
      odometerKm: vehicle.odometerKm,
      status: 'ACTIVE',
      notes: `edit ${k}`,
    };
    const put = await fetch(`${org}/assets/${vehicle.id}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!put.ok) throw new Error(`edit failed: ${put.status} ${await put.text()}`);
    const started = performance.now();
    const res = await fetch(`${org}/assets?type=VEHICLE&search=kenworth&sort=unitNumber,asc&size=15`, { headers: auth });
    await res.arrayBuffer();
    afterEdit.push(performance.now() - started);
  }

  console.log(`\ndatabase: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}; 10,025 vehicles, 10,025 drivers in the organization`);
  console.log(`| CSV import, 5,000 rows, one transaction | seconds | API CPU s | target < ${IMPORT_TARGET_S} s |\n|---|---|---|---|`);
  for (const i of imports) console.log(`| ${i.kind} | ${(i.ms / 1000).toFixed(2)} | ${i.cpuS.toFixed(2)} | ${verdict(i.ms < IMPORT_TARGET_S * 1000)} |`);
  console.log(`\n${seconds} s per scenario, ${connections} connections, load generator ${loadgen}`);
  console.log(
    `CPU ms per request: API process, PostgreSQL backends of this database (n/a on PGlite: inside the API), load generator; their sum over ${os.cpus().length} cores bounds req/s`,
  );
  console.log(
    `| scenario | req/s | p50 ms | p99 ms | non-2xx | API CPU | PostgreSQL CPU | ${loadgen} CPU | sum | p99 < ${P99_TARGET_MS} ms |\n|---|---|---|---|---|---|---|---|---|---|`,
  );
  for (const { name, r, cpuMs, pgMs, loadMs } of results) {
    const sum = cpuMs + (Number.isNaN(pgMs) ? 0 : pgMs) + loadMs;
    console.log(
      `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50.toFixed(1)} | ${r.latency.p99.toFixed(1)} | ${r.non2xx} | ${cpuMs.toFixed(2)} | ${Number.isNaN(pgMs) ? 'n/a' : pgMs.toFixed(2)} | ${loadMs.toFixed(2)} | ${sum.toFixed(2)} | ${verdict(r.latency.p99 < P99_TARGET_MS && r.non2xx === 0)} |`,
    );
  }
  console.log(`\nfirst vehicle page after an edit (the list read into memory again): ${afterEdit.map((ms) => ms.toFixed(0)).join(', ')} ms`);
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
