// Fleet registry: 10,000 vehicles and 10,000 drivers in one organization, loaded through the CSV
// import endpoint (5,000 rows per file, timed), then searched and sorted pages of 15 under load.
// Run: node --import tsx bench/registry-list.ts [seconds]   (set DATABASE_URL to bench PostgreSQL)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { withVinCheckDigit } from '@fleet/api-contract';

const root = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.argv[2] ?? 10);
const connections = 20;
const port = Number(process.env.BENCH_PORT ?? 8200);
const origin = `http://127.0.0.1:${port}`;

const MAKES = [['Freightliner', 'Cascadia'], ['Kenworth', 'T680'], ['Peterbilt', '579'], ['Volvo', 'VNL 860'], ['International', 'LT625'], ['Mack', 'Anthem']] as const;
const STATES = ['IL', 'IN', 'OH', 'TX', 'GA', 'TN', 'CO', 'CA', 'AZ', 'PA', 'WI', 'MN', 'MO', 'KY', 'NC'];
const FIRST = ['James', 'Maria', 'Robert', 'Linda', 'Michael', 'Patricia', 'David', 'Jennifer', 'William', 'Elizabeth', 'Carlos', 'Aisha', 'Wei', 'Olga', 'Tyrone', 'Priya'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin'];

function vehiclesCsv(from: number, count: number): string {
  const lines = ['Unit number,VIN,Make,Model,Year,Plate,Plate state,Fuel type,IFTA qualified,Odometer (mi)'];
  for (let i = from; i < from + count; i++) {
    const [make, model] = MAKES[i % MAKES.length] as (typeof MAKES)[number];
    const vin = withVinCheckDigit(`1XKYD49X0N${String.fromCharCode(65 + (i % 8))}${String(i).padStart(6, '0')}`);
    lines.push(`B${String(i).padStart(5, '0')},${vin},${make},${model},${2015 + (i % 11)},P${String(i * 7).padStart(6, '0')},${STATES[i % STATES.length]},DIESEL,yes,${50_000 + ((i * 7919) % 600_000)}`);
  }
  return lines.join('\n');
}

function driversCsv(from: number, count: number): string {
  const lines = ['First name,Last name,Email,Employee id,Licence number,Licence state,Licence class,Home time zone'];
  for (let i = from; i < from + count; i++) {
    const first = FIRST[i % FIRST.length] as string;
    const last = `${LAST[(i * 7) % LAST.length]}${i >= LAST.length ? '' : ''}`;
    lines.push(`${first},${last},${first.toLowerCase()}.${last.toLowerCase()}${i}@bench.test,EMP${i},D${String(i).padStart(8, '0')},${STATES[i % STATES.length]},A,America/Chicago`);
  }
  return lines.join('\n');
}

async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-registry-'));
const api = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEMO: '1', SIMULATOR: '0', LOG_LEVEL: 'warn', NODE_ENV: 'development', WEB_DIST: '/nonexistent' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  await waitFor(`${origin}/api/v1/health`);
  const login = await fetch(`${origin}/api/v1/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demofreight.test', password: 'DemoAdmin#2026' }),
  });
  const session = (await login.json()) as { accessToken: string; user: { organization: { id: string } } };
  const auth = { authorization: `Bearer ${session.accessToken}` };
  const org = `${origin}/api/v1/organizations/${session.user.organization.id}`;

  const imports: Array<{ kind: string; rows: number; ms: number; imported: number }> = [];
  for (const [kind, make] of [['vehicles', vehiclesCsv], ['drivers', driversCsv]] as const) {
    for (const from of [0, 5000]) {
      const csv = make(from, 5000);
      const started = performance.now();
      const res = await fetch(`${org}/imports/${kind}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ csv }) });
      const ms = performance.now() - started;
      const body = (await res.json()) as { imported?: number; message?: string };
      if (!res.ok) throw new Error(`${kind} import failed: ${res.status} ${body.message}`);
      imports.push({ kind, rows: 5000, ms, imported: body.imported ?? 0 });
    }
  }

  // Searches a dispatcher types: unit fragments, VIN tails, makes, plates; names, licences.
  const vehicleSearches = ['b0042', 'b1234', 'kenworth', 'volvo', '00777', 'p0049', 'vnl', 'b099'];
  const driverSearches = ['garcia', 'maria', 'd0000123', 'emp77', 'lopez', 'wei', 'bench.test', 'smith'];
  const scenario = async (name: string, paths: string[]) => {
    let i = 0;
    const r = await autocannon({
      url: origin,
      connections,
      duration: seconds,
      headers: auth,
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] as string }) }],
    });
    return { name, r };
  };
  const prefix = new URL(org).pathname;
  const results = [
    await scenario(
      'vehicles: search + sort, page of 15',
      vehicleSearches.flatMap((s) => [`${prefix}/assets?type=VEHICLE&search=${s}&sort=unitNumber,asc&size=15`, `${prefix}/assets?type=VEHICLE&search=${s}&sort=year,desc&size=15&page=1`]),
    ),
    await scenario(
      'drivers: search + sort, page of 15',
      driverSearches.flatMap((s) => [`${prefix}/drivers?search=${s}&sort=lastName,asc&size=15`, `${prefix}/drivers?search=${s}&sort=licenseExpiry,desc&size=15`]),
    ),
    await scenario('vehicles: no search, sorted by unit, page 40', [`${prefix}/assets?type=VEHICLE&sort=unitNumber,asc&size=15&page=40`]),
  ];

  console.log(`\ndatabase: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}; 10,025 vehicles, 10,025 drivers in the organization`);
  console.log('| CSV import (one transaction) | rows | seconds |\n|---|---|---|');
  for (const i of imports) console.log(`| ${i.kind} | ${i.imported} | ${(i.ms / 1000).toFixed(2)} |`);
  console.log(`\n${seconds} s per scenario, ${connections} connections`);
  console.log('| scenario | req/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|');
  for (const { name, r } of results) console.log(`| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} |`);
} finally {
  api.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
