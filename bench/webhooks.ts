// Webhook fan-out and an outage (issue 48, decision 0198).
//
//   node --import tsx bench/webhooks.ts [postgresServerUrl]
//
// On the PostgreSQL server when one answers (BENCH_PG_URL or the argument, a scratch database), else
// on the embedded database (PGlite, a temporary data directory). The sender runs as in an API
// instance, in this process; the receivers run in a child process, and on a server the producer too
// (one transaction per event, its own connections), so this process's main thread is the sender
// alone (on PGlite the producer stays here), read from /proc per thread.
//
// Phase 1, fan-out: SUBS subscriptions (default 100) of one organization, all to the receiver; RATE
// events a minute (default 1,000), one transaction each, for SECONDS (default 60); every event goes to
// every subscription (100 × 1,000 = 100,000 deliveries a minute). Printed: p50/p99/max from each
// event's commit to its first attempt's arrival, the main thread's CPU share of one core and the
// database's (targets: p99 < 2 s, ≤ 10 %).
// Phase 2, outage: 10 subscriptions to a receiver that answers 503 for "an hour" on a clock shortened
// by WEBHOOK_RETRY_SCALE (OUTAGE_SCALE, default 0.005: an hour is 18 s; the schedule's 5 s / 5 min /
// 30 min / 2 h are 25 ms / 1.5 s / 9 s / 36 s), events still committed meanwhile; then 200 again.
// Printed: whether every subscription got every event, in order, and when the last one arrived.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../apps/api/src/db/client.ts';
import { organizations, webhookSubscriptions } from '../apps/api/src/db/schema/index.ts';
import { emitWebhookEvent, registerWebhookOrganization } from '../apps/api/src/modules/webhooks/webhook-outbox.ts';
import { WebhookSender } from '../apps/api/src/modules/webhooks/webhook-sender.ts';
import { threadCpuSeconds } from './process-meter.ts';
import { pgCpuMeter } from './pg-cpu.ts';

const SERVER =
  process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : (process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:54329/postgres');
const SUBS = Number(process.env.SUBS ?? 100);
const RATE = Number(process.env.RATE ?? 1000);
const SECONDS = Number(process.env.SECONDS ?? 60);
const OUTAGE_SCALE = Number(process.env.OUTAGE_SCALE ?? 0.005);
const OUTAGE_SUBS = 10;

if (process.argv.includes('--receiver')) {
  // ---------------------------------------------------------------- the receivers' child
  let down = false;
  const got: Got[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const status = down && req.url!.startsWith('/o') ? 503 : 200;
      if (status === 200) {
        const p = JSON.parse(body) as { data: { number: string } };
        got.push({ sub: req.url!.slice(1), seq: Number(p.data.number.slice(2)), at: Date.now(), id: String(req.headers['webhook-id']) });
      }
      res.writeHead(status).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
  process.on('message', (m) => {
    if (m === 'down') down = true;
    else if (m === 'up') down = false;
    else if (m === 'count') process.send!({ count: got.length, distinct: new Set(got.map((g) => `${g.sub}|${g.seq}`)).size });
    else if (m === 'report') {
      fs.writeFileSync(path.join(os.tmpdir(), `bench-hooks-${process.pid}.json`), JSON.stringify(got));
      got.length = 0;
      process.send!({ file: path.join(os.tmpdir(), `bench-hooks-${process.pid}.json`) });
    } else if (m === 'exit') process.exit(0);
  });
}

/** Commits `total` events, one transaction each, at RATE a minute from `t0`; notes each commit's time. */
async function produce(db: Database['db'], orgId: string, total: number, t0: number, committedAt: Map<number, number>): Promise<void> {
  const gap = 60_000 / RATE;
  for (let seq = 0; seq < total; seq++) {
    const due = t0 + seq * gap;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    await db.transaction(async (tx) => {
      await emitWebhookEvent(tx, {
        orgId,
        type: 'load.status_changed',
        at: new Date(),
        data: { id: String(seq), number: `L-${seq}`, status: 'EN_ROUTE', previousStatus: 'ASSIGNED', changedAt: new Date().toISOString(), note: null },
      });
    });
    committedAt.set(seq, Date.now());
  }
}

if (process.argv.includes('--producer')) {
  // ---------------------------------------------------------------- the producer's child (server runs)
  const database = await openDatabase({ databaseUrl: process.env.P_URL, dataDir: os.tmpdir(), poolSize: 2 });
  const committedAt = new Map<number, number>();
  const c0 = process.cpuUsage();
  await produce(database.db, process.env.P_ORG!, Number(process.env.P_TOTAL), Number(process.env.P_T0), committedAt);
  const c = process.cpuUsage(c0);
  await database.close();
  const file = path.join(os.tmpdir(), `bench-hooks-producer-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify([...committedAt]));
  process.send!({ file, cpu: (c.user + c.system) / 1e6 });
  process.exit(0);
}

interface Got {
  sub: string;
  seq: number;
  at: number;
  id: string;
}

/** The main thread's user and kernel CPU seconds (the kernel's share is mostly the loopback sockets' sends). */
function mainUserSys(): { user: number; sys: number } {
  const f = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(f[11]) / 100, sys: Number(f[12]) / 100 };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** The receivers' child: its port, and a way to ask it things. */
async function startReceivers(): Promise<{ child: ChildProcess; url: string; ask: <T>(m: string) => Promise<T> }> {
  const child = fork(new URL(import.meta.url).pathname, ['--receiver'], { execArgv: ['--import', 'tsx'] });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (m) => resolve(m as { port: number })));
  const ask = <T>(m: string) =>
    new Promise<T>((resolve) => {
      child.once('message', (r) => resolve(r as T));
      child.send(m);
    });
  return { child, url: `http://127.0.0.1:${port}`, ask };
}

async function serverUp(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const onServer = await serverUp(SERVER);
  const name = `bench_hooks_${Date.now().toString(36)}`;
  let url: string | undefined;
  let dataDir = os.tmpdir();
  if (onServer) {
    const admin = new pg.Client({ connectionString: SERVER });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(SERVER);
    u.pathname = `/${name}`;
    url = u.toString();
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-hooks-'));
  }
  console.log(
    `database: ${onServer ? `PostgreSQL server (${SERVER.replace(/\/\/[^@]*@/, '//')})` : 'embedded PGlite (no PostgreSQL server answered)'}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const database: Database = await openDatabase({ databaseUrl: url, dataDir, poolSize: 10 });
  const db = database.db;
  const rx = await startReceivers();
  const senderFor = (scale: number) => {
    const sender = new WebhookSender(
      db,
      {
        allowHttp: true,
        allowPrivate: true,
        sender: true,
        timeoutMs: 10_000,
        retryScale: scale,
        pollMs: 1000,
        idlePollMs: 30_000,
        concurrency: 200,
        maxPerOrg: 50,
      },
      (err, what) => console.error(what, err),
      async () => {},
    );
    return sender;
  };
  // As in the app: woken by the commits' notification on the notification hub's channel.
  let current: WebhookSender | null = null;
  const listener = await database.listen('notifications', (payload) => {
    if (payload.includes('"w"')) current?.kick();
  });
  try {
    const [org] = await db.insert(organizations).values({ name: 'Bench Hooks' }).returning({ id: organizations.id });
    const orgId = org!.id;

    // ------------------------------------------------------------ phase 1: fan-out
    await registerWebhookOrganization(db, orgId);
    await db.insert(webhookSubscriptions).values(
      Array.from({ length: SUBS }, (_, i) => ({
        organizationId: orgId,
        url: `${rx.url}/s${i}`,
        events: ['load.status_changed'],
        secret: `whsec_${Buffer.alloc(32, i + 1).toString('base64')}`,
      })),
    );
    current = senderFor(1);
    current.start();
    const meter = await pgCpuMeter(url);
    const committedAt = new Map<number, number>();
    const cpu0 = threadCpuSeconds(process.pid);
    const us0 = mainUserSys();
    const t0 = Date.now();
    const total = Math.round((RATE * SECONDS) / 60);
    let producerCpu: number | null = null;
    if (onServer) {
      // On a server the events are committed by a child process (its own connections), so this
      // process's main thread is the sender alone (with the notification listener that wakes it).
      const child = fork(new URL(import.meta.url).pathname, ['--producer'], {
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, P_URL: url!, P_ORG: orgId, P_TOTAL: String(total), P_T0: String(t0) },
      });
      const done = await new Promise<{ file: string; cpu: number }>((resolve) => child.on('message', (m) => resolve(m as { file: string; cpu: number })));
      for (const [seq, at] of JSON.parse(fs.readFileSync(done.file, 'utf8')) as Array<[number, number]>) committedAt.set(seq, at);
      producerCpu = done.cpu;
    } else await produce(db, orgId, total, t0, committedAt);
    const produced = Date.now();
    while ((await rx.ask<{ distinct: number }>('count')).distinct < total * SUBS && Date.now() - produced < 120_000)
      await new Promise((r) => setTimeout(r, 250));
    const wall = (Date.now() - t0) / 1000;
    const cpu1 = threadCpuSeconds(process.pid);
    const us1 = mainUserSys();
    const pgCpu = (await meter?.lap()) ?? 0;
    await current.stop();
    const got = JSON.parse(fs.readFileSync((await rx.ask<{ file: string }>('report')).file, 'utf8')) as Got[];
    const firsts = new Map<string, number>();
    for (const g of got) {
      const k = `${g.sub}|${g.seq}`;
      if (!firsts.has(k)) firsts.set(k, g.at - committedAt.get(g.seq)!);
    }
    const lags = [...firsts.values()].sort((a, b) => a - b);
    const mainCpu = cpu1.main - cpu0.main;
    const dbCpu = onServer ? pgCpu : cpu1.others - cpu0.others;
    console.log(
      `fan-out: ${SUBS} subscriptions × ${RATE} events/min for ${SECONDS} s = ${total} events, ${total * SUBS} deliveries expected, ${firsts.size} received (${got.length} requests) in ${wall.toFixed(1)} s`,
    );
    console.log(`  commit → first attempt: p50 ${pct(lags, 50)} ms, p99 ${pct(lags, 99)} ms, max ${lags.at(-1)} ms  (target p99 < 2,000 ms)`);
    console.log(
      `  sender (main thread${producerCpu === null ? ', with the producer' : ''}) CPU ${mainCpu.toFixed(1)} s over ${wall.toFixed(1)} s = ${((100 * mainCpu) / wall).toFixed(1)} % of a core (target ≤ 10 %; user ${(us1.user - us0.user).toFixed(1)} s, kernel ${(us1.sys - us0.sys).toFixed(1)} s); database ${onServer ? 'server backends' : 'thread and others'} ${dbCpu.toFixed(1)} s = ${((100 * dbCpu) / wall).toFixed(1)} %`,
    );
    console.log(
      `  per delivery: sender ${((1e6 * mainCpu) / Math.max(1, firsts.size)).toFixed(0)} µs, database ${((1e6 * dbCpu) / Math.max(1, firsts.size)).toFixed(0)} µs${producerCpu === null ? '' : `; the producer's process ${producerCpu.toFixed(1)} s CPU`}`,
    );
    await meter?.close();
    await db.execute(sql`delete from webhook_subscriptions`);

    // ------------------------------------------------------------ phase 2: a receiver down for "an hour"
    await rx.ask('count');
    rx.child.send('down');
    await db.insert(webhookSubscriptions).values(
      Array.from({ length: OUTAGE_SUBS }, (_, i) => ({
        organizationId: orgId,
        url: `${rx.url}/o${i}`,
        events: ['load.status_changed'],
        secret: `whsec_${Buffer.alloc(32, i + 7).toString('base64')}`,
      })),
    );
    current = senderFor(OUTAGE_SCALE);
    current.start();
    const hourMs = 3_600_000 * OUTAGE_SCALE;
    let seq2 = 0;
    const s0 = Date.now();
    let back = 0;
    // A steady trickle (4 events a second) during the outage and for 2 s after it.
    while (Date.now() - s0 < hourMs + 2000) {
      await db.transaction(async (tx) => {
        await emitWebhookEvent(tx, {
          orgId,
          type: 'load.status_changed',
          at: new Date(),
          data: { id: String(seq2), number: `O-${seq2}`, status: 'AT_STOP', previousStatus: 'EN_ROUTE', changedAt: new Date().toISOString(), note: null },
        });
      });
      seq2++;
      if (Date.now() - s0 >= hourMs && !back) {
        back = Date.now();
        rx.child.send('up');
        console.log(`outage: receiver back after ${((back - s0) / 1000).toFixed(1)} s (an hour at scale ${OUTAGE_SCALE}); ${seq2} events committed meanwhile`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const need = seq2 * OUTAGE_SUBS;
    const deadline = Date.now() + 3 * 60_000;
    while ((await rx.ask<{ distinct: number }>('count')).distinct < need && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    await current.stop();
    const out = JSON.parse(fs.readFileSync((await rx.ask<{ file: string }>('report')).file, 'utf8')) as Got[];
    const distinct = new Set(out.map((g) => `${g.sub}|${g.seq}`)).size;
    let inOrder = true;
    for (let i = 0; i < OUTAGE_SUBS; i++) {
      const seen = out.filter((g) => g.sub === `o${i}`).map((g) => g.seq);
      const firstSeen = seen.filter((x, k) => seen.indexOf(x) === k);
      if (firstSeen.some((x, k) => k > 0 && x < firstSeen[k - 1]!)) inOrder = false;
    }
    const last = Math.max(...out.map((g) => g.at));
    console.log(
      `  after its return: ${distinct} of ${need} deliveries (${seq2} events × ${OUTAGE_SUBS} subscriptions), every subscription in order: ${inOrder ? 'yes' : 'NO'}, the last ${((last - back) / 1000).toFixed(1)} s after the return (${((last - back) / 1000 / OUTAGE_SCALE / 60).toFixed(0)} min on the real clock)`,
    );
  } finally {
    rx.child.send('exit');
    await listener.stop();
    await database.close();
    if (onServer) {
      const admin = new pg.Client({ connectionString: SERVER });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    } else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!process.argv.includes('--receiver') && !process.argv.includes('--producer')) await main();
