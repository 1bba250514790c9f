// CPU time of the API process per registry list request, measured in-process (app.inject, no
// HTTP socket, no load generator competing for the cores): the figure to optimise while the
// machine is shared. Loads 10,000 vehicles and 10,000 drivers through the CSV import endpoint
// (timed) unless the PostgreSQL database already holds them.
// Run: node --import tsx bench/registry-cpu.ts [requests per scenario]   (DATABASE_URL for PostgreSQL)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/api/src/app.ts';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { seed } from '../apps/api/src/seed/seed.ts';
import { pgCpuMeter } from './pg-cpu.ts';
import { driversCsv, listScenarios, vehiclesCsv } from './registry-data.ts';

const perScenario = Number(process.argv[2] ?? 300);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-regcpu-'));
const config = testConfig({ dataDir, databaseUrl: process.env.DATABASE_URL });
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: 'memory' });
const app = await buildApp({ config, database });
await seed(database.db, { ...config, demo: true }, () => undefined);
await app.ready();
try {
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/authenticate',
    payload: { email: 'admin@demofreight.test', password: 'DemoAdmin#2026' },
  });
  const session = login.json() as { accessToken: string; user: { organization: { id: string } } };
  const headers = { authorization: `Bearer ${session.accessToken}` };
  const prefix = `/api/v1/organizations/${session.user.organization.id}`;

  const existing = (await app.inject({ method: 'GET', url: `${prefix}/drivers?size=1`, headers })).json() as { totalElements: number };
  if (existing.totalElements < 10_000) {
    for (const [kind, make] of [
      ['vehicles', vehiclesCsv],
      ['drivers', driversCsv],
    ] as const) {
      for (const from of [0, 5000]) {
        const payload = { csv: make(from, 5000) };
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const res = await app.inject({ method: 'POST', url: `${prefix}/imports/${kind}`, headers, payload });
        const ms = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        if (res.statusCode !== 200) throw new Error(`${kind} import: ${res.statusCode} ${res.body}`);
        console.log(`import ${kind} 5,000 rows: ${(ms / 1000).toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s API CPU`);
      }
    }
  }

  // The floor: an authenticated route answered from the auth cache (no query), for comparison.
  const floor = { name: 'floor: GET /auth/me (cached, no query)', paths: ['/api/v1/auth/me'] };
  // The PostgreSQL server's share: CPU of this database's backends per request.
  const pgMeter = await pgCpuMeter(process.env.DATABASE_URL);
  for (const { name, paths } of [floor, ...listScenarios(prefix)]) {
    for (let i = 0; i < 30; i++) await app.inject({ method: 'GET', url: paths[i % paths.length] as string, headers });
    await pgMeter?.lap();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < perScenario; i++) {
      const res = await app.inject({ method: 'GET', url: paths[i % paths.length] as string, headers });
      if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
    }
    const wall = (performance.now() - t0) / perScenario;
    const cpu = process.cpuUsage(cpu0);
    const pgMs = pgMeter ? `, ${(((await pgMeter.lap()) * 1000) / perScenario).toFixed(3)} ms PostgreSQL CPU/request` : '';
    console.log(
      `${name}: ${((cpu.user + cpu.system) / 1000 / perScenario).toFixed(3)} ms API CPU/request (user ${(cpu.user / 1000 / perScenario).toFixed(3)}, system ${(cpu.system / 1000 / perScenario).toFixed(3)})${pgMs}, ${wall.toFixed(2)} ms wall/request (sequential)`,
    );
  }
  await pgMeter?.close();
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores, shared)`,
  );
} finally {
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
