// Authenticated GET auth/me vs a bare Fastify route, 50 connections, and the API's memory before and after.
// Run: node --import tsx bench/auth-throughput.ts [seconds]   (BENCH_ENTRY=source for tsx)
// The API runs as `npm start` runs it (`npm run build` first) unless BENCH_ENTRY=source; set DATABASE_URL
// to run it on PostgreSQL. Every port is chosen free and checked, so no other server is measured.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { assertPortFree, freePort } from '../apps/api/src/test/server-process.ts';
import { benchEntry, startBenchServer } from './bench-server.ts';
import { cpuSeconds, ownCpuSeconds, rssMb } from './process-meter.ts';

const seconds = Number(process.argv[2] ?? 10);
// Memory after this bench is an issue-14 target for the server as production runs it.
const entry = benchEntry('compiled');
const connections = 50;
const SUPER = { email: 'bench-super@fleet.test', password: 'Bench-Super#2026' };
const ADMIN = { email: 'bench-admin@demofreight.test', password: 'Bench-Admin#2026' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function load(url: string, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration: seconds, headers, pipelining: 1 });
}

async function signIn(url: string, who: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who) });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function memory(
  url: string,
  token: string,
): Promise<{ heapUsedMb: number; heapTotalMb: number; regions: { databaseMb: number | null; anonymousMb: number; nodeBinaryMb: number } | null }> {
  return (await (await fetch(`${url}/api/v1/admin/diagnostics/memory`, { headers: { authorization: `Bearer ${token}` } })).json()) as never;
}

const api = await startBenchServer({
  entry,
  env: {
    DEMO: '1',
    SIMULATOR: '0',
    LOG_LEVEL: 'warn',
    SUPERADMIN_EMAIL: SUPER.email,
    SUPERADMIN_PASSWORD: SUPER.password,
    DEMO_ADMIN_EMAIL: ADMIN.email,
    DEMO_ADMIN_PASSWORD: ADMIN.password,
    DATABASE_URL: process.env.DATABASE_URL ?? '',
  },
});
// The bare server answers /bare with {ok:true}, and /bare-same with the exact bytes and headers
// of auth/me (posted to it after sign-in), so the second ratio isolates our per-request work
// (token check, cache, serialization) from the load generator's cost of parsing a bigger answer.
const barePort = await freePort();
await assertPortFree(barePort);
const bare = spawn(
  process.execPath,
  [
    '-e',
    `const f=require('fastify')();let same={body:'{}',headers:{}};
     f.get('/bare',async()=>({ok:true}));
     f.post('/set',async(r)=>{same=r.body;return {}});
     f.get('/bare-same',async(r,reply)=>{reply.headers(same.headers);reply.type('application/json');return same.body});
     f.listen({port:${barePort},host:'127.0.0.1'}).then(()=>console.log('bare listening'))`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const bareUrl = `http://127.0.0.1:${barePort}`;
try {
  await new Promise<void>((resolve, reject) => {
    bare.stdout!.once('data', () => resolve());
    bare.once('exit', () => reject(new Error('the bare server did not start')));
  });
  await sleep(3000);
  const suToken = await signIn(api.url, SUPER);
  const idleRss = rssMb(api.pid);
  const idleMem = await memory(api.url, suToken);
  const accessToken = await signIn(api.url, ADMIN);
  const sample = await fetch(`${api.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  const sameHeaders: Record<string, string> = {};
  sample.headers.forEach((v, k) => {
    if (!['content-length', 'date', 'connection', 'keep-alive', 'content-type'].includes(k)) sameHeaders[k] = v;
  });
  await fetch(`${bareUrl}/set`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ body: await sample.text(), headers: sameHeaders }),
  });

  const cpu = () => ({ api: cpuSeconds(api.pid), bare: cpuSeconds(bare.pid!), gen: ownCpuSeconds() });
  const c0 = cpu();
  const me = await load(`${api.url}/api/v1/auth/me`, { authorization: `Bearer ${accessToken}` });
  const c1 = cpu();
  const afterRss = rssMb(api.pid);
  const b = await load(`${bareUrl}/bare`);
  const c2 = cpu();
  const same = await load(`${bareUrl}/bare-same`);
  const c3 = cpu();
  await sleep(10_000);
  const settledRss = rssMb(api.pid);
  const settledMem = await memory(api.url, suToken);

  const us = (s: number, n: number) => ((s / n) * 1e6).toFixed(0);
  const row = (name: string, r: autocannon.Result, server: number, gen: number) =>
    `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} | ${us(server, r.requests.total)} / ${us(gen, r.requests.total)} |`;
  console.log(`\n${seconds} s per route, ${connections} connections, API: ${entry}, database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`);
  console.log('| route | req/s | p50 ms | p99 ms | non-2xx | CPU µs per request: server / load generator |\n|---|---|---|---|---|---|');
  console.log(row('GET /api/v1/auth/me (JWT + user lookup)', me, c1.api - c0.api, c1.gen - c0.gen));
  console.log(row('bare Fastify GET /bare ({ok:true})', b, c2.bare - c1.bare, c2.gen - c1.gen));
  console.log(row('bare Fastify GET /bare-same (same bytes and headers as auth/me)', same, c3.bare - c2.bare, c3.gen - c2.gen));
  console.log(`\nratio authenticated / bare: ${((me.requests.average / b.requests.average) * 100).toFixed(0)} %`);
  console.log(`ratio authenticated / bare with the same answer: ${((me.requests.average / same.requests.average) * 100).toFixed(0)} %`);
  const split = (m: typeof idleMem) =>
    m.regions
      ? `heap ${m.heapUsedMb}/${m.heapTotalMb} MB, database ${m.regions.databaseMb ?? '–'} MB, other anonymous ${(m.regions.anonymousMb - m.heapTotalMb).toFixed(1)} MB`
      : `heap ${m.heapUsedMb}/${m.heapTotalMb} MB`;
  console.log(
    `RSS of the API: 3 s after ready ${idleRss.toFixed(0)} MB (${split(idleMem)}); right after auth/me load ${afterRss.toFixed(0)} MB; 10 s later ${settledRss.toFixed(0)} MB (${split(settledMem)})`,
  );
} finally {
  bare.kill('SIGTERM');
  await api.stop();
  fs.rmSync(api.dataDir, { recursive: true, force: true });
}
