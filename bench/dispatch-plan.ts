// Legal trip planner speed (issue 33): one plan for a ~2,500-mile load with 4 stops (target < 20 ms),
// and the candidates for a load among 500 drivers (target < 1 s). Driver logs are synthetic and
// deterministic (seeded PRNG, ~12 periods a work day over 8 days, US property 70/8 in Chicago, as
// bench/hos-engine.ts writes them); roads from the built-in router over the bundled network.
// Run: node --import tsx bench/dispatch-plan.ts [drivers]     (default 500)
import os from 'node:os';
import {
  builtInRouting,
  planTrip,
  rankCandidates,
  rankCandidatesRouted,
  type CandidateDriver,
  type LatLon,
  type PlanDriver,
  type PlanStop,
} from '../packages/dispatch/src/index.ts';
import type { DutyPeriodInput, HosOptions } from '../packages/hos/src/index.ts';

const H = 3_600_000;
const MIN = 60_000;
const MILE = 1609.344;
const drivers = Number(process.argv[2] ?? 500);
const options: HosOptions = { ruleset: 'US_PROPERTY_70_8', timeZone: 'America/Chicago' };
const NOW = Date.parse('2026-06-20T07:30:00-05:00');

/** mulberry32: small deterministic PRNG so every run benches the same drivers. */
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

/** A driver's last 8 days up to NOW (epoch ms, as the API hands them over after reading the database). */
function driverLog(seed: number): DutyPeriodInput[] {
  const rnd = prng(seed);
  const r = (lo: number, hi: number) => Math.round((lo + rnd() * (hi - lo)) * 4) / 4;
  const out: DutyPeriodInput[] = [];
  let t = NOW - 8 * 24 * H - Math.round(rnd() * 12) * H;
  const push = (status: DutyPeriodInput['status'], hours: number) => {
    const end = Math.min(NOW, t + Math.max(MIN, Math.round(hours * H)));
    if (end > t) out.push({ status, start: t, end });
    t = end;
  };
  const restDay = Math.floor(rnd() * 7);
  for (let d = 0; t < NOW; d++) {
    const end = t + 24 * H;
    if (d % 7 === restDay) {
      push('OFF', 24);
      continue;
    }
    push('ON', r(0.25, 0.75));
    push('D', r(2, 3.5));
    push('ON', r(0.25, 1));
    push('D', r(1, 2.5));
    push('OFF', r(0.5, 1));
    push('D', r(1, 2.5));
    push('ON', r(0.25, 1));
    push('D', r(0.5, 1.5));
    push('ON', r(0.25, 0.5));
    push(rnd() < 0.5 ? 'SB' : 'OFF', Math.max(1, (end - t) / H));
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** ms per call of fn (median of rounds): CPU time of this process and wall time. */
async function time(fn: () => unknown, rounds: number): Promise<{ cpu: number; wall: number }> {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    const c = process.cpuUsage(c0);
    wall.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { cpu: median(cpu), wall: median(wall) };
}

const mark = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
const fmt = (t: { cpu: number; wall: number }) => `${t.cpu.toFixed(2).padStart(8)} ms CPU ${t.wall.toFixed(2).padStart(8)} ms wall`;

console.log(
  `node ${process.version}, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`,
);

// The load: picked up in Charlotte, delivered in Dallas, Phoenix and Los Angeles.
const ORIGIN: LatLon = { lat: 35.6, lon: -80.5 }; // the driver, north-east of Charlotte
const POINTS: LatLon[] = [
  { lat: 35.2271, lon: -80.8431 }, // Charlotte (pick-up)
  { lat: 32.7767, lon: -96.797 }, // Dallas
  { lat: 33.4484, lon: -112.074 }, // Phoenix
  { lat: 34.0522, lon: -118.2437 }, // Los Angeles
];
const routing = builtInRouting();
const routeCold = await time(() => routing.route([ORIGIN, ...POINTS]), 1);
const legs = await routing.route([ORIGIN, ...POINTS]);
const routeWarm = await time(() => routing.route([ORIGIN, ...POINTS]), 5);
const miles = legs.reduce((a, l) => a + l.metres, 0) / MILE;
const hours = legs.reduce((a, l) => a + l.seconds, 0) / 3600;
// Appointments a dispatcher would book: 2 h of clock per hour of driving (breaks, rests), 12-h windows.
let booked = NOW;
const stops: PlanStop[] = POINTS.map((_, i) => {
  booked += legs[i]!.seconds * 1000 * 2 + H;
  return { stopId: `s${i}`, kind: i === 0 ? 'PICKUP' : 'DELIVERY', windowStart: booked - 6 * H, windowEnd: booked + 6 * H, serviceMinutes: 60 };
});
console.log(
  `\nload: ${miles.toFixed(0)} road miles, ${hours.toFixed(1)} h of driving, ${stops.length} stops (built-in router: ${routeCold.wall.toFixed(0)} ms cold, ${routeWarm.wall.toFixed(3)} ms cached)`,
);

const driver: PlanDriver = { driverId: 'd1', periods: driverLog(1), options };
const input = { now: NOW, origin: ORIGIN, drivers: [driver], stops, legs, timeZone: 'America/Chicago' };
const sample = planTrip(input);
console.log(
  `  plan: ${sample.segments.length} segments (${['DRIVE', 'BREAK', 'REST', 'RESTART', 'STOP'].map((k) => `${sample.segments.filter((s) => s.kind === k).length} ${k}`).join(', ')}), feasible ${sample.feasible}${sample.reason ? ` (${sample.reason})` : ''}`,
);
for (let i = 0; i < 50; i++) planTrip(input); // JIT warm-up
const one = await time(() => planTrip(input), 41);
console.log(`  planTrip, one driver      ${fmt(one)}   ${mark(one.cpu < 20)} target < 20 ms`);
const teamInput = { ...input, drivers: [driver, { driverId: 'd2', periods: driverLog(2), options }] };
for (let i = 0; i < 20; i++) planTrip(teamInput);
const team = await time(() => planTrip(teamInput), 41);
console.log(`  planTrip, team of two     ${fmt(team)}   ${mark(team.cpu < 20)} target < 20 ms`);

// Candidates: drivers anywhere in the lower 48, the load's own legs routed once.
const rnd = prng(33);
const candidates: CandidateDriver[] = Array.from({ length: drivers }, (_, i) => ({
  driverId: `c${i}`,
  origin: { lat: 30 + rnd() * 17, lon: -122 + rnd() * 42 },
  drivers: [{ driverId: `c${i}`, periods: driverLog(1000 + i), options }],
}));
const load = { stops, firstStop: POINTS[0]!, loadLegs: legs.slice(1) };
console.log(
  `\ncandidates among ${drivers} drivers (8-day logs, ${(candidates.reduce((a, c) => a + c.drivers[0]!.periods.length, 0) / drivers).toFixed(0)} periods each)`,
);
rankCandidates(NOW, load, candidates.slice(0, 50));
const pure = await time(() => rankCandidates(NOW, load, candidates), 5);
console.log(`  rankCandidates, straight-line deadheads         ${fmt(pure)}   ${mark(pure.wall < 1000)} target < 1 s`);
// Issue 46: the same drivers each on a load first (delivering 200-600 miles from where they are, a
// window from 4 h on), planned from where and when it ends with the clocks it leaves them.
const busyCandidates: CandidateDriver[] = candidates.map((c, i) => {
  const at = { lat: Math.min(48, Math.max(26, c.origin.lat + (rnd() - 0.5) * 8)), lon: c.origin.lon + (rnd() - 0.5) * 10 };
  return {
    ...c,
    busy: [
      {
        loadId: `L-${2000 + i}`,
        drivers: c.drivers,
        stops: [{ stopId: `b${i}`, kind: 'DELIVERY', windowStart: NOW + 4 * H, windowEnd: NOW + 40 * H, serviceMinutes: 60, ...at }],
      },
    ],
  };
});
rankCandidates(NOW, load, busyCandidates.slice(0, 50));
const busyPure = await time(() => rankCandidates(NOW, load, busyCandidates), 5);
console.log(`  the same drivers each on a load first (issue 46)  ${fmt(busyPure)}   ${mark(busyPure.wall < 1000)} target < 1 s`);
const routedCold = await time(() => rankCandidatesRouted(builtInRouting(), NOW, load, candidates, { exactTop: 25 }), 3);
console.log(`  + built-in routing of the best 25, cold cache   ${fmt(routedCold)}   ${mark(routedCold.wall < 1000)} target < 1 s`);
const shared = builtInRouting();
await rankCandidatesRouted(shared, NOW, load, candidates, { exactTop: 25 });
const routedWarm = await time(() => rankCandidatesRouted(shared, NOW, load, candidates, { exactTop: 25 }), 3);
console.log(`  + the same, legs cached (a second request)      ${fmt(routedWarm)}`);
const all = await time(() => rankCandidatesRouted(builtInRouting(), NOW, load, candidates, { exactTop: Infinity }), 1);
console.log(`  every deadhead routed exactly, cold cache       ${fmt(all)}   (why only the best are routed)`);

// How far the straight-line estimate is from the routed deadhead, over the first 100 drivers.
const first = rankCandidates(NOW, load, candidates.slice(0, 100));
const estimated = new Map(first.map((r) => [r.driverId, r.deadheadMetres]));
const errs = candidates.slice(0, 100).map((c) => shared.leg(c.origin, load.firstStop).metres / estimated.get(c.driverId)!);
console.log(
  `  routed / estimated deadhead (100 drivers): median ${median(errs).toFixed(2)}, min ${Math.min(...errs).toFixed(2)}, max ${Math.max(...errs).toFixed(2)}`,
);
const top = rankCandidates(NOW, load, candidates);
console.log(
  `  feasible: ${top.filter((r) => r.feasible).length} of ${drivers}; first: ${top[0]!.driverId} ${(top[0]!.deadheadMetres / MILE).toFixed(0)} mi deadhead; a reason: ${top.find((r) => r.reason)?.reason}`,
);
