// Authenticated GET auth/me vs a bare Fastify route, 50 connections, plus idle RSS of the server.
// Run: node --import tsx bench/auth-throughput.ts [seconds]   (set DATABASE_URL to bench PostgreSQL)
// Both servers listen on ports the kernel picks; the API runs through tsx (BENCH_ENTRY=compiled for
// `npm run build`'s output, as `npm start` runs it).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { benchEntry, startBenchServer } from './bench-server.ts';
import { rssMb } from './process-meter.ts';

const root = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.argv[2] ?? 10);
const connections = 50;
const entry = benchEntry('source');

function load(url: string, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration: seconds, headers, pipelining: 1 });
}

/**
 * The bare server: binds a port of the kernel's choosing and sends it over IPC, so the bench
 * talks to this process and no other. It answers /bare with {ok:true}, and /bare-same with the
 * exact bytes and headers of auth/me (posted to it after sign-in), so the second ratio isolates our
 * per-request work (token check, cache, serialization) from the load generator's cost of parsing
 * a bigger answer.
 */
async function startBare(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const f=require('fastify')();let same={body:'{}',headers:{}};
       f.get('/bare',async()=>({ok:true}));
       f.post('/set',async(r)=>{same=r.body;return {}});
       f.get('/bare-same',async(r,reply)=>{reply.headers(same.headers);reply.type('application/json');return same.body});
       f.listen({port:0,host:'127.0.0.1'}).then(()=>process.send(f.server.address().port),(e)=>{console.error(e);process.exit(1)})`,
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve(Number(m)));
    child.once('exit', (code) => reject(new Error(`the bare Fastify server exited (${code}) before listening`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

const api = await startBenchServer({
  entry,
  env: { DEMO: '1', SIMULATOR: '0', LOG_LEVEL: 'warn', DATABASE_URL: process.env.DATABASE_URL ?? '' },
});
let bare: ChildProcess | null = null;
try {
  const bareServer = await startBare();
  bare = bareServer.child;
  const bareUrl = bareServer.url;
  await new Promise((r) => setTimeout(r, 3000));
  const idleRss = rssMb(api.pid);
  const login = await fetch(`${api.url}/api/v1/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demofreight.test', password: 'DemoAdmin#2026' }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
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
  const me = await load(`${api.url}/api/v1/auth/me`, { authorization: `Bearer ${accessToken}` });
  const b = await load(`${bareUrl}/bare`);
  const same = await load(`${bareUrl}/bare-same`);
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
  bare?.kill('SIGTERM');
  await api.stop();
  fs.rmSync(api.dataDir, { recursive: true, force: true });
}
