// HoS engine speed (issue 4): auditLog + clocksAt for one driver, a 10,000-driver fleet, and how the
// cost grows with the length of the history. Logs are synthetic but realistic (about 12 duty
// periods a day: pre-trip, driving legs, breaks, loading, sometimes a sleeper-berth split) and
// deterministic (seeded PRNG), written with a -05:00 offset like an ELD in Chicago would send them.
// Run: node --import tsx bench/hos-engine.ts [drivers] [ruleset]     (default 10000, US_PROPERTY_70_8;
// e.g. CA_SOUTH_CYCLE_1 times the same logs under Canada's rules, day-level findings included)
import os from 'node:os';
import { auditLog, clocksAt, type DutyPeriod, type HosOptions, type RulesetId } from '../packages/hos/src/index.ts';

const H = 3_600_000;
const MIN = 60_000;
const drivers = Number(process.argv[2] ?? 10_000);
const options: HosOptions = { ruleset: (process.argv[3] ?? 'US_PROPERTY_70_8') as RulesetId, timeZone: 'America/Chicago' };

/** mulberry32: small deterministic PRNG so every run benches the same logs. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function iso(ms: number): string {
  // Home-terminal offset as an ELD would write it (CDT in June).
  return new Date(ms - 5 * H).toISOString().slice(0, 19) + '-05:00';
}

/** A driver's log of `days` days ending 2026-06-20, ~12 periods a day. */
function driverLog(seed: number, days: number): DutyPeriod[] {
  const rnd = prng(seed);
  const r = (lo: number, hi: number) => Math.round((lo + rnd() * (hi - lo)) * 4) / 4; // quarter hours
  const out: DutyPeriod[] = [];
  let t = Date.parse('2026-06-20T00:00:00-05:00') - days * 24 * H;
  const push = (status: DutyPeriod['status'], hours: number, special?: DutyPeriod['special']) => {
    const end = t + Math.max(MIN, Math.round(hours * H));
    const p: DutyPeriod = { status, start: iso(t), end: iso(end) };
    if (special) p.special = special;
    out.push(p);
    t = end;
  };
  const dayEnd = () => t + 24 * H;
  const restDay = Math.floor(rnd() * 7); // one day off a week: a 34-h restart
  for (let d = 0; d < days; d++) {
    const end = dayEnd();
    if (d % 7 === restDay) {
      push('OFF', 24);
      continue;
    }
    push('OFF', r(0.5, 2));
    push('ON', r(0.25, 0.75)); // pre-trip inspection
    push('D', r(2, 3.5));
    push('ON', r(0.25, 1)); // fuel, loading
    push('D', r(1, 2.5));
    push('OFF', r(0.5, 1)); // 30-minute break
    push('D', r(1, 2.5));
    if (rnd() < 0.3) {
      push('SB', r(2, 3)); // short berth period: half of a split
      push('D', r(0.5, 1.5));
    } else {
      push('ON', r(0.25, 1)); // delivery
      push('D', r(0.5, 1.5));
    }
    push('ON', r(0.25, 0.5), rnd() < 0.3 ? 'YM' : undefined); // yard move or paperwork
    push('ON', r(0.25, 0.5)); // post-trip inspection
    push(rnd() < 0.5 ? 'SB' : 'OFF', Math.max(1, (end - t) / H - 1));
    push('OFF', Math.max(0.25, (end - t) / H));
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/**
 * µs per call of fn over `logs`, median of `rounds` rounds: wall time and this process's CPU time.
 * The machine is shared, so CPU time (what the engine itself costs) is the steadier figure.
 */
function time(logs: DutyPeriod[][], fn: (l: DutyPeriod[]) => unknown, rounds = 5): { wall: number; cpu: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (const l of logs) fn(l);
    const c = process.cpuUsage(c0);
    wall.push(((performance.now() - t0) * 1000) / logs.length);
    cpu.push((c.user + c.system) / logs.length);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

const fmt = (t: { wall: number; cpu: number }) => `${t.cpu.toFixed(1).padStart(7)} µs CPU  ${t.wall.toFixed(1).padStart(7)} µs wall`;

/** Logs as the API would hand them over: parsed from JSON (flat strings, no shared objects). */
const asJson = (logs: DutyPeriod[][]): DutyPeriod[][] => JSON.parse(JSON.stringify(logs)) as DutyPeriod[][];

const audit = (l: DutyPeriod[]) => auditLog(l, options);
const clocks = (l: DutyPeriod[]) => clocksAt(l, l[l.length - 1]!.end, options);
const both = (l: DutyPeriod[]) => {
  auditLog(l, options);
  clocksAt(l, l[l.length - 1]!.end, options);
};

console.log(
  `node ${process.version}, ${drivers} drivers, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`,
);

// Reference for reading the figures on a shared machine: the cost of one Date.parse right now.
{
  const texts = asJson([driverLog(7, 30)])
    .flat()
    .map((p) => p.start);
  let z = 0;
  for (let r = 0; r < 3; r++) for (const t of texts) z += Date.parse(t);
  const c0 = process.cpuUsage();
  for (let r = 0; r < 200; r++) for (const t of texts) z += Date.parse(t);
  const c = process.cpuUsage(c0);
  console.log(`reference: Date.parse of one ISO instant = ${(((c.user + c.system) * 1000) / (200 * texts.length)).toFixed(0)} ns CPU${z ? '' : ' '}`);
}

// Warm up the JIT on a different set of logs.
const warm = asJson(Array.from({ length: 2000 }, (_, i) => driverLog(1_000_000 + i, 8)));
time(warm, both, 3);

// 1. One driver, 8 days.
const sample = asJson(Array.from({ length: 2000 }, (_, i) => driverLog(i, 8)));
const periods8 = sample.reduce((n, l) => n + l.length, 0) / sample.length;
const violations = sample.reduce((n, l) => n + auditLog(l, options).violations.length, 0);
console.log(`\none driver, 8 days (${periods8.toFixed(0)} periods on average, ${(violations / sample.length).toFixed(2)} violations per log)`);
const mark = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
const tAudit = time(sample, audit);
const tClocks = time(sample, clocks);
const tBoth = time(sample, both);
console.log(`  auditLog            ${fmt(tAudit)}   (cold: a different log than the call before)`);
console.log(`  clocksAt            ${fmt(tClocks)}   (cold)`);
console.log(`  auditLog + clocksAt ${fmt(tBoth)}   ${mark(tBoth.cpu < 50)} target < 50 µs CPU (clocksAt reuses the log auditLog read, decision 0015)`);
console.log(
  `  sum of the cold calls ${(tAudit.cpu + tClocks.cpu).toFixed(1).padStart(5)} µs CPU   ${mark(tAudit.cpu + tClocks.cpu < 50)} same target, as if both calls had to read the log`,
);

// 2. The fleet: every driver audited and clocked once.
const fleet = asJson(Array.from({ length: drivers }, (_, i) => driverLog(10_000 + i, 8)));
const fleetPeriods = fleet.reduce((n, l) => n + l.length, 0);
const f = time(fleet, both, 3);
const fleetCpuS = (f.cpu * drivers) / 1e6;
const fleetWallS = (f.wall * drivers) / 1e6;
console.log(`\nfleet: ${drivers} drivers x 8 days = ${fleetPeriods} periods, auditLog + clocksAt for every driver (median of 3)`);
const fleet10k = (fleetCpuS * 10_000) / drivers;
console.log(
  `  ${fleetCpuS.toFixed(3)} s CPU, ${fleetWallS.toFixed(3)} s wall   ${mark(fleet10k < 0.5)} target < 0.5 s CPU on one core for 10,000 drivers${drivers === 10_000 ? '' : ` (${fleet10k.toFixed(3)} s scaled to 10,000)`}`,
);
console.log(
  `  throughput: ${Math.round(fleetPeriods / fleetCpuS).toLocaleString('en-US')} periods/s of CPU, ${Math.round(fleetPeriods / fleetWallS).toLocaleString('en-US')} periods/s wall`,
);

// 3. Growth with history length.
console.log('\nhistory length (auditLog + clocksAt)');
console.log('  days  periods   µs CPU/call  ns CPU/period  µs wall/call');
const perPeriod: Record<number, number> = {};
for (const days of [1, 8, 30, 180]) {
  const n = days >= 180 ? 100 : days >= 30 ? 400 : 2000;
  const logs = asJson(Array.from({ length: n }, (_, i) => driverLog(500_000 + i, days)));
  const p = logs.reduce((s, l) => s + l.length, 0) / logs.length;
  const t = time(logs, both);
  perPeriod[days] = (t.cpu * 1000) / p;
  console.log(
    `  ${String(days).padStart(4)}  ${p.toFixed(0).padStart(7)}  ${t.cpu.toFixed(1).padStart(12)}  ${((t.cpu * 1000) / p).toFixed(0).padStart(13)}  ${t.wall.toFixed(1).padStart(12)}`,
  );
}
const growth = perPeriod[180]! / perPeriod[8]!;
console.log(`  cost per period at 180 days / at 8 days = ${growth.toFixed(2)}   ${mark(growth < 1.5)} linear (target: flat cost per period, < 1.5x)`);
