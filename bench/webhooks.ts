// Webhook fan-out and an outage (issue 48, decision 0198), on the PostgreSQL server.
//
//   node --import tsx bench/webhooks.ts [serverUrl]
//
// Phase 1, fan-out: SUBS subscriptions (default 100) of one organization, all to a receiver in this
// process; this process commits RATE events a minute (default 1,000), one transaction each, for
// SECONDS (default 60): every event goes to every subscription (100 × 1,000 = 100,000 deliveries a
// minute). The sender runs alone in a child process, as an API instance's sender does; its CPU is
// read from /proc. Printed: p50/p99/max from each event's commit to its first attempt's arrival, and
// the sender's CPU share of one core (targets: p99 < 2 s, ≤ 10 %).
// Phase 2, outage: 10 subscriptions to a receiver that refuses everything for "an hour", on a clock
// shortened by WEBHOOK_RETRY_SCALE (OUTAGE_SCALE, default 0.005: an hour is 18 s, the schedule's
// 5 s / 5 min / 30 min / 2 h are 25 ms / 1.5 s / 9 s / 36 s), events still committed meanwhile;
// then the receiver answers 200 again. Printed: whether every subscription got every event, in order,
// and how long after its return the last one arrived.
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { organizations, webhookSubscriptions } from '../apps/api/src/db/schema/index.ts';
import { emitWebhookEvent } from '../apps/api/src/modules/webhooks/webhook-outbox.ts';
import { WebhookSender } from '../apps/api/src/modules/webhooks/webhook-sender.ts';
import { cpuSeconds } from './process-meter.ts';
import { pgCpuMeter } from './pg-cpu.ts';

const SERVER = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : (process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:54329/postgres');
const SUBS = Number(process.env.SUBS ?? 100);
const RATE = Number(process.env.RATE ?? 1000);
const SECONDS = Number(process.env.SECONDS ?? 60);
const OUTAGE_SCALE = Number(process.env.OUTAGE_SCALE ?? 0.005);
const OUTAGE_SUBS = 10;

// ---------------------------------------------------------------- the sender child
if (process.argv.includes('--sender')) {
  const url = process.argv[process.argv.indexOf('--sender') + 1]!;
  const scale = Number(process.argv[process.argv.indexOf('--sender') + 2]);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp', poolSize: 5 });
  const sender = new WebhookSender(database.db, { allowHttp: true, allowPrivate: true, sender: true, timeoutMs: 10_000, retryScale: scale, pollMs: 1000, concurrency: 200 }, (err, what) =>
    console.error(what, err),
  );
  // As an API instance does: woken by the commits' notification on the notification hub's channel.
  await database.listen('notifications', (payload) => {
    if (payload.includes('"w"')) sender.kick();
  });
  sender.start();
  process.on('message', async (m) => {
    if (m === 'stop') {
      await sender.stop();
      process.send!({ stats: { attempts: sender.stats.attempts, delivered: sender.stats.delivered } }, () => process.exit(0));
    }
  });
  process.send!('ready');
} else {
  await main();
}

interface Got {
  sub: string;
  seq: number;
  at: number;
  id: string;
}

function receiver(answer: () => number): Promise<{ server: http.Server; url: string; got: Got[] }> {
  const got: Got[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const status = answer();
      if (status === 200) {
        const p = JSON.parse(body) as { data: { number: string } };
        got.push({ sub: req.url!.slice(1), seq: Number(p.data.number.slice(2)), at: Date.now(), id: String(req.headers['webhook-id']) });
      }
      res.writeHead(status).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got })));
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function startSender(url: string, scale: number): Promise<ChildProcess> {
  const child = fork(new URL(import.meta.url).pathname, ['--sender', url, String(scale)], { execArgv: ['--import', 'tsx'] });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  return child;
}

async function stopSender(child: ChildProcess): Promise<{ attempts: number; delivered: number }> {
  const done = new Promise<{ attempts: number; delivered: number }>((resolve) => child.once('message', (m) => resolve((m as { stats: { attempts: number; delivered: number } }).stats)));
  child.send('stop');
  return done;
}

async function main(): Promise<void> {
  const name = `bench_hooks_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(SERVER);
  u.pathname = `/${name}`;
  const url = u.toString();
  const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp', poolSize: 8 });
  const db = database.db;
  try {
    const [org] = await db.insert(organizations).values({ name: 'Bench Hooks' }).returning({ id: organizations.id });
    const orgId = org!.id;

    // ------------------------------------------------------------ phase 1: fan-out
    const rx = await receiver(() => 200);
    await db.insert(webhookSubscriptions).values(Array.from({ length: SUBS }, (_, i) => ({ organizationId: orgId, url: `${rx.url}/s${i}`, events: ['load.status_changed'], secret: `whsec_${Buffer.alloc(32, i + 1).toString('base64')}` })));
    const child = await startSender(url, 1);
    const meter = await pgCpuMeter(url);
    const committedAt = new Map<number, number>();
    const cpu0 = cpuSeconds(child.pid!);
    const t0 = Date.now();
    const total = Math.round((RATE * SECONDS) / 60);
    const gap = 60_000 / RATE;
    for (let seq = 0; seq < total; seq++) {
      const due = t0 + seq * gap;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      await db.transaction(async (tx) => {
        await emitWebhookEvent(tx, { orgId, type: 'load.status_changed', at: new Date(), data: { id: String(seq), number: `L-${seq}`, status: 'EN_ROUTE', previousStatus: 'ASSIGNED', changedAt: new Date().toISOString(), note: null } });
      });
      committedAt.set(seq, Date.now());
    }
    const produced = Date.now();
    while (rx.got.length < total * SUBS && Date.now() - produced < 60_000) await new Promise((r) => setTimeout(r, 100));
    const wall = (Date.now() - t0) / 1000;
    const senderCpu = cpuSeconds(child.pid!) - cpu0;
    const pgCpu = (await meter?.lap()) ?? 0;
    await stopSender(child);
    const firsts = new Map<string, number>();
    for (const g of rx.got) {
      const k = `${g.sub}|${g.seq}`;
      if (!firsts.has(k)) firsts.set(k, g.at - committedAt.get(g.seq)!);
    }
    const lags = [...firsts.values()].sort((a, b) => a - b);
    console.log(`fan-out: ${SUBS} subscriptions × ${RATE} events/min for ${SECONDS} s = ${total} events, ${total * SUBS} deliveries expected, ${firsts.size} received (${rx.got.length} requests) in ${wall.toFixed(1)} s`);
    console.log(`  commit → first attempt: p50 ${pct(lags, 50)} ms, p99 ${pct(lags, 99)} ms, max ${lags.at(-1)} ms  (target p99 < 2,000 ms)`);
    console.log(`  sender process CPU ${senderCpu.toFixed(1)} s over ${wall.toFixed(1)} s = ${((100 * senderCpu) / wall).toFixed(1)} % of a core (target ≤ 10 %); PostgreSQL backends ${pgCpu.toFixed(1)} s = ${((100 * pgCpu) / wall).toFixed(1)} %`);
    console.log(`  per delivery: sender ${((1e6 * senderCpu) / Math.max(1, firsts.size)).toFixed(0)} µs, database ${((1e6 * pgCpu) / Math.max(1, firsts.size)).toFixed(0)} µs`);
    await meter?.close();
    rx.server.closeAllConnections();
    rx.server.close();
    await db.execute(sql`delete from webhook_subscriptions`);

    // ------------------------------------------------------------ phase 2: a receiver down for "an hour"
    let down = true;
    const out = await receiver(() => (down ? 503 : 200));
    await db.insert(webhookSubscriptions).values(Array.from({ length: OUTAGE_SUBS }, (_, i) => ({ organizationId: orgId, url: `${out.url}/o${i}`, events: ['load.status_changed'], secret: `whsec_${Buffer.alloc(32, i + 7).toString('base64')}` })));
    const child2 = await startSender(url, OUTAGE_SCALE);
    const hourMs = 3_600_000 * OUTAGE_SCALE;
    // A steady trickle (4 events a second) during the outage and for 2 s after it.
    const events2: number[] = [];
    const s0 = Date.now();
    let seq2 = 0;
    while (Date.now() - s0 < hourMs + 2000) {
      await db.transaction(async (tx) => {
        await emitWebhookEvent(tx, { orgId, type: 'load.status_changed', at: new Date(), data: { id: String(seq2), number: `O-${seq2}`, status: 'AT_STOP', previousStatus: 'EN_ROUTE', changedAt: new Date().toISOString(), note: null } });
      });
      events2.push(seq2++);
      if (Date.now() - s0 >= hourMs && down) {
        down = false;
        console.log(`outage: receiver back after ${((Date.now() - s0) / 1000).toFixed(1)} s (an hour at scale ${OUTAGE_SCALE}); ${seq2} events committed meanwhile`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const back = s0 + hourMs;
    const need = events2.length * OUTAGE_SUBS;
    const deadline = Date.now() + 3 * 60_000;
    const distinct = () => new Set(out.got.map((g) => `${g.sub}|${g.seq}`)).size;
    while (distinct() < need && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await stopSender(child2);
    let inOrder = true;
    for (let i = 0; i < OUTAGE_SUBS; i++) {
      const seen = out.got.filter((g) => g.sub === `o${i}`).map((g) => g.seq);
      const firstSeen = seen.filter((s, k) => seen.indexOf(s) === k);
      if (firstSeen.some((s, k) => k > 0 && s < firstSeen[k - 1]!)) inOrder = false;
    }
    const last = Math.max(...out.got.map((g) => g.at));
    console.log(`  after its return: ${distinct()} of ${need} deliveries (${events2.length} events × ${OUTAGE_SUBS} subscriptions), every subscription in order: ${inOrder ? 'yes' : 'NO'}, the last ${((last - back) / 1000).toFixed(1)} s after the return (${((last - back) / 1000 / OUTAGE_SCALE / 60).toFixed(0)} min on the real clock)`);
    out.server.closeAllConnections();
    out.server.close();
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
