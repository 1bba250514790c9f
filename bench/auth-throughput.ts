// Authenticated GET auth/me vs a bare Fastify route, 50 connections, plus idle RSS of the server.
// Run: node --import tsx bench/auth-throughput.ts [seconds]   (set DATABASE_URL to bench PostgreSQL)
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.argv[2] ?? 10);
const connections = 50;

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function load(url: string, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration: seconds, headers, pipelining: 1 });
}

function start(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-'));
const api = start(['--import', 'tsx', 'apps/api/src/main.ts'], {
  PORT: '18080', DATA_DIR: dataDir, DEMO: '1', SIMULATOR: '0', LOG_LEVEL: 'warn', NODE_ENV: 'development', WEB_DIST: '/nonexistent',
});
// The bare server answers /bare with {ok:true}, and /bare-same with the exact bytes and headers
// of auth/me (posted to it after sign-in), so the second ratio isolates our per-request work
// (token check, cache, serialization) from the load generator's cost of parsing a bigger answer.
const bare = start(
  [
    '-e',
    `const f=require('fastify')();let same={body:'{}',headers:{}};
     f.get('/bare',async()=>({ok:true}));
     f.post('/set',async(r)=>{same=r.body;return {}});
     f.get('/bare-same',async(r,reply)=>{reply.headers(same.headers);reply.type('application/json');return same.body});
     f.listen({port:18081,host:'127.0.0.1'})`,
  ],
  {},
);
try {
  await waitFor('http://127.0.0.1:18080/api/v1/health');
  await waitFor('http://127.0.0.1:18081/bare');
  await new Promise((r) => setTimeout(r, 3000));
  const idleRss = rssMb(api.pid ?? 0);
  const login = await fetch('http://127.0.0.1:18080/api/v1/auth/authenticate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demofreight.test', password: 'DemoAdmin#2026' }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const sample = await fetch('http://127.0.0.1:18080/api/v1/auth/me', { headers: { authorization: `Bearer ${accessToken}` } });
  const sameHeaders: Record<string, string> = {};
  sample.headers.forEach((v, k) => {
    if (!['content-length', 'date', 'connection', 'keep-alive', 'content-type'].includes(k)) sameHeaders[k] = v;
  });
  await fetch('http://127.0.0.1:18081/set', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ body: await sample.text(), headers: sameHeaders }),
  });
  const me = await load('http://127.0.0.1:18080/api/v1/auth/me', { authorization: `Bearer ${accessToken}` });
  const b = await load('http://127.0.0.1:18081/bare');
  const same = await load('http://127.0.0.1:18081/bare-same');
  const row = (name: string, r: autocannon.Result) =>
    `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} |`;
  console.log(`\n${seconds} s per route, ${connections} connections, database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`);
  console.log('| route | req/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|');
  console.log(row('GET /api/v1/auth/me (JWT + user lookup)', me));
  console.log(row('bare Fastify GET /bare ({ok:true})', b));
  console.log(row('bare Fastify GET /bare-same (same bytes and headers as auth/me)', same));
  console.log(`\nratio authenticated / bare: ${((me.requests.average / b.requests.average) * 100).toFixed(0)} %`);
  console.log(`ratio authenticated / bare with the same answer: ${((me.requests.average / same.requests.average) * 100).toFixed(0)} %`);
  console.log(`idle RSS of the API server: ${idleRss.toFixed(0)} MB`);
} finally {
  api.kill('SIGTERM');
  bare.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
