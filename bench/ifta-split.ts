// IFTA distance split speed (docs/decisions/0101, 0102): loading the bundled boundaries, point
// lookups, one pair of fixes (inside a state, across a border), and a vehicle's day at 1 Hz
// (issue 17's target: 86,400 fixes under 50 ms). Points and tracks are deterministic.
// Run: node --expose-gc --import tsx bench/ifta-split.ts
import { performance } from 'node:perf_hooks';

const gc = (globalThis as { gc?: () => void }).gc;
const memory = (): number => {
  gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;

/** mulberry32: the same points every run. */
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

/** Median of `runs` timings of fn, in ms. */
function time(runs: number, fn: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

const before = memory();
let t0 = performance.now();
const { bundledBoundaries } = await import('../packages/geo/src/boundaries.ts');
const { splitByJurisdiction, splitPair } = await import('../packages/geo/src/ifta-split.ts');
const { highwayRoute } = await import('../packages/geo/src/highway-route.ts');
const { lineLengthM } = await import('../packages/geo/src/geodesic.ts');
const importMs = performance.now() - t0;
t0 = performance.now();
const { index } = bundledBoundaries();
const buildMs = performance.now() - t0;
console.log(`load: import ${importMs.toFixed(0)} ms, parse + index ${buildMs.toFixed(0)} ms, ${mb(memory() - before)} held (heap + typed arrays)`);

// Point lookups: anywhere in the contiguous US box, and within 0.02° of a boundary edge.
const random = prng(17);
const anywhere: number[] = [];
for (let i = 0; i < 200_000; i++) anywhere.push(25 + random() * 24, -124 + random() * 57);
const edges = index.edgeList();
const nearBorder: number[] = [];
for (let i = 0; i < 200_000; i++) {
  const [x1, y1, x2, y2] = edges[Math.floor(random() * edges.length)]!;
  nearBorder.push((y1 + y2) / 2 + (random() - 0.5) * 0.04, (x1 + x2) / 2 + (random() - 0.5) * 0.04);
}
for (const [name, pts] of [
  ['anywhere in the US box', anywhere],
  ['within 0.02° of a border or coast', nearBorder],
] as const) {
  let sink = 0;
  const ms = time(5, () => {
    for (let i = 0; i < pts.length; i += 2) sink += index.locate(pts[i]!, pts[i + 1]!);
  });
  console.log(`locate, ${name}: ${((ms * 1000) / (pts.length / 2)).toFixed(3)} µs (${sink > 0 ? 'ok' : ''})`);
}

// One day of one truck at 1 Hz: 11 hours driving I-80 west from Chicago at 100-110 km/h with an
// odometer, then parked (GPS jitter of a few metres) for the rest of the day.
const route = highwayRoute({ lat: 41.8781, lon: -87.6298 }, { lat: 41.14, lon: -104.8202 });
const day: Array<{ time: number; lat: number; lon: number; speedKmh: number; odometerM: number }> = [];
const start = Date.UTC(2026, 3, 1);
let seg = 1;
let along = 0;
let segStart = 0;
let odo = 250_000_000;
for (let s = 0; s < 86_400; s++) {
  if (s < 11 * 3600 && seg < route.length) {
    const kmh = 100 + 10 * Math.sin(s / 600);
    along += kmh / 3.6;
    odo += kmh / 3.6;
    let a = route[seg - 1]!;
    let b = route[seg]!;
    let len = lineLengthM(a.lat, a.lon, b.lat, b.lon);
    while (along - segStart > len && seg < route.length - 1) {
      segStart += len;
      seg++;
      a = route[seg - 1]!;
      b = route[seg]!;
      len = lineLengthM(a.lat, a.lon, b.lat, b.lon);
    }
    const f = Math.min(1, (along - segStart) / len);
    day.push({ time: start + s * 1000, lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f, speedKmh: kmh, odometerM: Math.round(odo) });
  } else {
    const last = day[day.length - 1]!;
    day.push({
      time: start + s * 1000,
      lat: last.lat + (random() - 0.5) * 4e-5,
      lon: last.lon + (random() - 0.5) * 4e-5,
      speedKmh: 0,
      odometerM: last.odometerM,
    });
  }
}
const result = splitByJurisdiction(day);
const states = Object.entries(result.byJurisdiction).map(([code, r]) => `${code} ${(r.metres / 1609.344).toFixed(1)} mi`);
console.log(
  `day: ${day.length} fixes, ${(result.totalMetres / 1609.344).toFixed(0)} mi, ${result.crossings.length} crossings (${states.join(', ')}), ${result.flagged.length} flagged`,
);
const dayMs = time(9, () => splitByJurisdiction(day));
console.log(`splitByJurisdiction, 1 Hz day: ${dayMs.toFixed(1)} ms (${((dayMs * 1000) / day.length).toFixed(3)} µs a fix)`);
const gpsOnly = day.map(({ odometerM: _, ...f }) => f);
console.log(`splitByJurisdiction, same day without odometer: ${time(9, () => splitByJurisdiction(gpsOnly)).toFixed(1)} ms`);

// Single pairs: consecutive 1 Hz fixes of the drive (inside a state), and pairs straddling a border.
const driving = day.slice(0, 11 * 3600);
let sink = 0;
const pairMs = time(5, () => {
  for (let i = 1; i < driving.length; i++) sink += splitPair(driving[i - 1]!, driving[i]!).metres;
});
console.log(`splitPair, consecutive 1 Hz fixes of the drive: ${((pairMs * 1000) / (driving.length - 1)).toFixed(3)} µs a pair`);
const straddling = result.crossings.map((c) => {
  const i = day.findIndex((f) => f.time > c.time);
  return [day[i - 1]!, day[i]!] as const;
});
const borderMs = time(5, () => {
  for (let k = 0; k < 2000; k++) for (const [a, b] of straddling) sink += splitPair(a, b).metres;
});
console.log(`splitPair, a 1 Hz pair across a state line: ${((borderMs * 1000) / (2000 * straddling.length)).toFixed(2)} µs`);
const gapA = { time: 0, lat: 36.73, lon: -108.2, speedKmh: 90 };
const gapB = { time: 3 * 3_600_000, lat: 38.57, lon: -109.55, speedKmh: 90 };
const gapMs = time(5, () => {
  for (let k = 0; k < 2000; k++) sink += splitPair(gapA, gapB).metres;
});
console.log(`splitPair, a 236 km gap through three states: ${((gapMs * 1000) / 2000).toFixed(1)} µs`);
const lakeA = { time: 0, lat: 43.955, lon: -86.452, speedKmh: 25 };
const lakeB = { time: 4 * 3_600_000, lat: 44.09, lon: -87.655, speedKmh: 25 };
const lakeMs = time(5, () => {
  for (let k = 0; k < 50; k++) sink += splitPair(lakeA, lakeB).metres;
});
console.log(`splitPair, one 98 km pair across Lake Michigan (snapping walk): ${((lakeMs * 1000) / 50).toFixed(0)} µs ${sink > 0 ? '' : '?'}`);
