// The soak's report: positions acknowledged, stored, stored twice and lost; the answers that were not
// acknowledgements, by cause and by fault; the server log's error lines; the poisoned fixes; derived
// facts against the clean replay; memory over time and CPU; then the checks, PASS or MISS.
import os from 'node:os';
import type { Ledger, StoredComparison } from './accounting.ts';
import type { FactDifference } from './derived-facts.ts';
import { clock, type FaultRecord } from './faults.ts';
import { rssGrowth, type RssSample } from './meter.ts';
import { poisonVerdict } from './poison.ts';
import type { LogGroup } from './server-log.ts';
import type { ServerLife } from './soak-server.ts';

export interface SoakResult {
  title: string;
  /** The demo fleet ran beside the devices. */
  demo: boolean;
  windowStart: number;
  windowMs: number;
  ledger: Ledger;
  stored: StoredComparison;
  storedTwice: { pairs: number; extraRows: number };
  /** Fixes devices still held when the drain ended: recorded, never acknowledged. */
  neverAcknowledged: number;
  faults: FaultRecord[];
  /** Per poison kind, how many of its fixes the database holds. */
  poisonStored: Map<string, number>;
  lives: ServerLife[];
  gracefulStop: { ending: string; seconds: number };
  logGroups: LogGroup[];
  rss: RssSample[];
  cpu: { api: number; postgres: number | null; soak: number };
  facts: FactDifference[] | null;
  replay: { fed: number; stored: number; notTaken: string[]; seconds: number } | null;
  replayError: string | null;
}

export interface Check {
  name: string;
  ok: boolean;
}

const n = (x: number) => x.toLocaleString('en-US');

function table(say: (l: string) => void, head: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>): void {
  say(`| ${head.join(' | ')} |`);
  say(`|${head.map(() => '---').join('|')}|`);
  for (const r of rows) say(`| ${r.join(' | ')} |`);
}

/** The fault whose minute after it a moment falls in (failures and losses are laid at its door), or "-". */
function faultAt(faults: readonly FaultRecord[], sinceStartMs: number): string {
  const f = faults.filter((x) => sinceStartMs >= x.atMs && sinceStartMs < x.atMs + x.tookMs + 60_000).at(-1);
  return f ? f.name : '-';
}

function positions(r: SoakResult, say: (l: string) => void): void {
  const s = r.stored;
  say('\n## Positions of the soak organization');
  table(
    say,
    [
      'acknowledged',
      'distinct (device, fix time)',
      'stored',
      'stored twice (pairs, whole table)',
      'lost (acknowledged, not stored)',
      'stored, never acknowledged',
      'still held by devices at the end',
      'refused in batch answers',
    ],
    [
      [
        n(s.acknowledged),
        n(s.acknowledgedDistinct),
        n(s.stored),
        `${n(r.storedTwice.pairs)} (${n(r.storedTwice.extraRows)} extra rows)`,
        `**${n(s.lost.length)}**`,
        n(s.storedUnacknowledged),
        n(r.neverAcknowledged),
        n(r.ledger.refused.length),
      ],
    ],
  );
  if (s.lost.length) {
    const byFault = new Map<string, number>();
    for (const l of s.lost) {
      const f = faultAt(r.faults, l.ackedAt - r.windowStart);
      byFault.set(f, (byFault.get(f) ?? 0) + 1);
    }
    say(`lost by the fault they were acknowledged after (within a minute): ${[...byFault].map(([f, c]) => `${f} ${n(c)}`).join(', ')}`);
    say('first lost fixes (device, fix time, acknowledged at):');
    for (const l of s.lost.slice(0, 10)) say(`  ${l.uniqueId}  ${new Date(l.time).toISOString()}  acknowledged ${clock(l.ackedAt - r.windowStart)}`);
  }
  for (const x of r.ledger.refused.slice(0, 5)) say(`refused: ${x.uniqueId} ${new Date(x.time).toISOString()}: ${x.message}`);
}

function failures(r: SoakResult, say: (l: string) => void): void {
  const sends = [...r.ledger.sends].map(([p, c]) => `${p} ${n(c)}`).join(', ');
  say(`\n## Sends not acknowledged, by cause (sends: ${sends})`);
  const by = new Map<string, number>();
  for (const f of r.ledger.failures) {
    const key = `${f.protocol}|${f.cause}|${faultAt(r.faults, f.at - r.windowStart)}`;
    by.set(key, (by.get(key) ?? 0) + 1);
  }
  const rows = [...by].sort((a, b) => b[1] - a[1]).map(([k, c]) => [...k.split('|'), n(c)]);
  if (rows.length) table(say, ['protocol', 'answer', 'within a minute of fault', 'sends'], rows);
  else say('none');
}

function serverLog(r: SoakResult, say: (l: string) => void): void {
  const errors = r.logGroups.filter((g) => g.level === 'error');
  const warns = r.logGroups.filter((g) => g.level === 'warn');
  say(
    `\n## Server log: ${n(errors.reduce((a, g) => a + g.count, 0))} error lines, ${n(warns.reduce((a, g) => a + g.count, 0))} warnings (numbers and ids blanked)`,
  );
  for (const g of errors.slice(0, 15)) say(`  ${String(g.count).padStart(6)}  ${g.text}`);
  if (warns.length) say('  warnings:');
  for (const g of warns.slice(0, 8)) say(`  ${String(g.count).padStart(6)}  ${g.text}`);
}

function faultsAndPoison(r: SoakResult, say: (l: string) => void, checks: Check[]): void {
  say('\n## Faults');
  table(
    say,
    ['at', 'fault', 'what happened', 'took'],
    r.faults.map((f) => [clock(f.atMs), f.name, f.note, `${(f.tookMs / 1000).toFixed(1)} s`]),
  );
  const poison = r.faults.flatMap((f) => f.poison ?? []);
  if (!poison.length) return;
  say('\n## Poisoned fixes from the second organization');
  table(
    say,
    ['fix', 'answers (after 2 resends)', 'stored', 'for the device'],
    poison.map((p) => {
      const v = poisonVerdict(p);
      checks.push({ name: `poisoned fix "${p.kind}" acknowledged`, ok: v.ok });
      return [
        p.kind,
        Object.entries(p.answers)
          .map(([a, c]) => `${a} ×${c}`)
          .join(', '),
        n(r.poisonStored.get(p.kind) ?? 0),
        v.words,
      ];
    }),
  );
}

function facts(r: SoakResult, say: (l: string) => void, checks: Check[]): void {
  say('\n## Derived facts of the soak organization against a clean replay of its stored positions');
  if (!r.facts || !r.replay) {
    say(`replay FAILED: ${r.replayError ?? 'not run'}`);
    checks.push({ name: 'derived facts equal to the clean replay', ok: false });
    return;
  }
  say(`replay: ${n(r.replay.fed)} positions fed as JSON batches, ${n(r.replay.stored)} stored, in ${r.replay.seconds.toFixed(0)} s (fresh server, no faults)`);
  for (const x of r.replay.notTaken.slice(0, 5)) say(`  not taken: ${x}`);
  table(
    say,
    ['fact', 'soak', 'replay', 'differing'],
    r.facts.map((f) => [f.kind, n(f.soak), n(f.replay), f.differing ? `**${n(f.differing)}**` : '0']),
  );
  for (const f of r.facts.filter((x) => x.differing)) {
    say(`${f.kind}: only in the soak ${n(f.onlySoak.length)}, only in the replay ${n(f.onlyReplay.length)}`);
    for (const l of f.onlySoak.slice(0, 5)) say(`  soak:   ${l}`);
    for (const l of f.onlyReplay.slice(0, 5)) say(`  replay: ${l}`);
  }
  if (r.demo)
    say('The demo fleet is not compared: its week of history is written by the seed, not through ingest, so no replay of its positions derives the same.');
  const empty = r.facts.filter((f) => f.soak === 0 && f.replay === 0).map((f) => f.kind);
  if (empty.length) say(`none derived at all (the run may be too short for them): ${empty.join(', ')}`);
  checks.push({ name: 'derived facts equal to the clean replay', ok: r.facts.every((f) => f.differing === 0) && r.replay.stored === r.stored.stored });
}

function memory(r: SoakResult, say: (l: string) => void, checks: Check[]): void {
  say('\n## Minute by minute: server memory (RSS, first sample of the minute), positions acknowledged, sends not acknowledged');
  const minuteOf = (t: number) => Math.floor((t - r.windowStart) / 60_000);
  const acked = new Map<number, number>();
  for (const list of r.ledger.acked.values()) for (const [, at] of list) acked.set(minuteOf(at), (acked.get(minuteOf(at)) ?? 0) + 1);
  const failed = new Map<number, number>();
  for (const f of r.ledger.failures) failed.set(minuteOf(f.at), (failed.get(minuteOf(f.at)) ?? 0) + 1);
  const last = Math.max(Math.floor((r.rss.at(-1)?.atMs ?? 0) / 60_000), ...acked.keys(), ...failed.keys());
  const rows: string[][] = [];
  const mbOf = (v: number | null | undefined) => (v == null ? '-' : v.toFixed(0));
  for (let m = 0; m <= last; m++) {
    const s = r.rss.find((x) => x.atMs >= m * 60_000 && x.atMs < (m + 1) * 60_000);
    // The minute's highest sample: a rise and its parts (V8 heap, the database's pages, the rest).
    const top = r.rss.filter((x) => x.atMs >= m * 60_000 && x.atMs < (m + 1) * 60_000).sort((a, b) => b.rssMb - a.rssMb)[0];
    const p = top?.parts;
    rows.push([
      String(m),
      s ? s.rssMb.toFixed(0) : '-',
      top ? top.rssMb.toFixed(0) : '-',
      mbOf(p?.heapUsedMb),
      mbOf(p?.heapTotalMb),
      mbOf(p?.externalMb),
      mbOf(p?.databaseMb),
      mbOf(p?.anonymousMb),
      s ? String(s.life) : '-',
      n(acked.get(m) ?? 0),
      n(failed.get(m) ?? 0),
    ]);
  }
  say(
    "(the parts are those of the minute's highest sample: V8 heap used and reserved, external buffers, the embedded database's resident pages, all anonymous memory)",
  );
  table(
    say,
    ['minute', 'RSS MB', 'highest', 'heap used', 'heap', 'external', 'database', 'anonymous', 'server life', 'acknowledged', 'not acknowledged'],
    rows,
  );
  for (const life of r.lives) {
    const lifeStartMs = life.listeningAt - r.windowStart;
    const g = rssGrowth(r.rss, life.life, Math.max(5 * 60_000, lifeStartMs + 5 * 60_000));
    if (!g) {
      say(`life ${life.life}: too short to measure growth after its first 5 minutes of traffic`);
      continue;
    }
    const ok = g.percent < 10;
    say(
      `life ${life.life}: RSS after 5 minutes of traffic ${g.atStartMb.toFixed(0)} MB, highest in the ${g.minutes.toFixed(0)} minutes after ${g.maxMb.toFixed(0)} MB: ${g.percent >= 0 ? '+' : ''}${g.percent.toFixed(1)} % (target under 10 %; median of those samples ${g.medianMb.toFixed(0)} MB)`,
    );
    checks.push({ name: `RSS growth of server life ${life.life} under 10 % after its first 5 minutes`, ok });
  }
}

function cpu(r: SoakResult, say: (l: string) => void): void {
  const wall = (Math.max(...r.lives.map((l) => l.endedAt ?? Date.now())) - Math.min(...r.lives.map((l) => l.startedAt))) / 1000;
  const pct = (s: number) => `${((s / wall) * 100).toFixed(0)} % of one core`;
  say(
    `\n## CPU over the server's ${(wall / 60).toFixed(1)} minutes (${os.cpus().length} cores, load average now ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  const perFix = (s: number) => `${((s * 1e6) / Math.max(1, r.stored.acknowledged)).toFixed(0)} µs per acknowledged position`;
  say(
    `API process (every life, embedded database included when PGlite): ${r.cpu.api.toFixed(0)} s = ${pct(r.cpu.api)}, ${perFix(r.cpu.api)} (the demo fleet's work and the first start's seeding included)`,
  );
  if (r.cpu.postgres !== null)
    say(
      `PostgreSQL backends of the soak database: ${r.cpu.postgres.toFixed(0)} s = ${pct(r.cpu.postgres)} (sampled every 15 s: a terminated backend's last seconds are missed)`,
    );
  say(`soak process (devices, faults, accounting): ${r.cpu.soak.toFixed(0)} s = ${pct(r.cpu.soak)}`);
}

/** Prints the report; the checks, each PASS or MISS. */
export function printReport(r: SoakResult, say: (l: string) => void): Check[] {
  const checks: Check[] = [];
  say(`\n# ${r.title}`);
  positions(r, say);
  checks.push({ name: 'no acknowledged position lost', ok: r.stored.lost.length === 0 });
  checks.push({ name: 'no position stored twice', ok: r.storedTwice.pairs === 0 });
  failures(r, say);
  serverLog(r, say);
  faultsAndPoison(r, say, checks);
  facts(r, say, checks);
  memory(r, say, checks);
  cpu(r, say);
  const crashes = r.lives.filter((l) => l.crashed);
  const at = (t: number) => (t < r.windowStart ? `${clock(r.windowStart - t)} before the traffic` : clock(t - r.windowStart));
  say('\n## Server lives and readiness (/readyz polled every 5 s)');
  for (const l of r.lives) {
    say(
      `life ${l.life}: serving ${at(l.listeningAt)}, ready ${l.readyAt ? at(l.readyAt) : 'NEVER'}, ${l.ending ?? 'running'}${l.endedAt ? ` at ${at(l.endedAt)}` : ''}`,
    );
    for (const x of l.readiness.slice(l.readyAt === l.listeningAt ? 1 : 0))
      say(`  ${at(x.at)}  /readyz ${x.status || 'no answer'}${x.status === 200 ? '' : `: ${x.reason}`}`);
  }
  checks.push({
    name: `the server never stopped by itself${crashes.length ? ` (it did ${crashes.length} times: see the server log above)` : ''}`,
    ok: crashes.length === 0,
  });
  say(`graceful stop (SIGTERM): ${r.gracefulStop.ending} after ${r.gracefulStop.seconds.toFixed(1)} s`);
  checks.push({ name: 'graceful stop exits 0', ok: r.gracefulStop.ending === 'SIGTERM exit 0' });
  say('\n## Checks');
  for (const c of checks) say(`${c.ok ? 'PASS' : 'MISS'} ${c.name}`);
  return checks;
}
