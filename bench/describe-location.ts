// ELD location description speed (docs/decisions/0092): how long the bundled place list takes to
// load and index, how much memory it holds, and lookups per second for the grid index, the full
// describeLocation (normal and reduced precision) and the brute-force reference.
// Points are random (seeded): over the box of the US and Canada, 24-70°N, 53-168°W (a sixth of it
// sea or Arctic, over 1,000 km from any place), and within 0.5° of a place, where trucks drive.
// Run: node --expose-gc --import tsx bench/describe-location.ts [lookups]     (default 1000000)
import { performance } from 'node:perf_hooks';

const lookups = Number(process.argv[2] ?? 1_000_000);
const gc = (globalThis as { gc?: () => void }).gc;

/** mulberry32: small deterministic PRNG so every run benches the same points. */
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

function memory(): { heap: number; external: number } {
  gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external }; // external includes the typed arrays' buffers
}

const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(2)} MB`;

const before = memory();
let t0 = performance.now();
const { bundledPlaces } = await import('../packages/geo/src/places.ts');
const { bundledPlaceIndex, describeLocation } = await import('../packages/geo/src/location-description.ts');
const { nearestPlaceBruteForce } = await import('../packages/geo/src/place-index.ts');
const importMs = performance.now() - t0;
const afterImport = memory();

t0 = performance.now();
const places = bundledPlaces();
const parseMs = performance.now() - t0;
t0 = performance.now();
const index = bundledPlaceIndex();
const indexMs = performance.now() - t0;
const afterLoad = memory();

console.log(`places: ${places.length}`);
console.log(`import (module source through tsx, not what the compiled API pays): ${importMs.toFixed(1)} ms`);
console.log(`parse on first use: ${parseMs.toFixed(1)} ms, build grid index: ${indexMs.toFixed(1)} ms`);
console.log(
  `memory: module ${mb(afterImport.heap - before.heap)} heap; parsed places and index ${mb(afterLoad.heap - afterImport.heap)} heap + ${mb(afterLoad.external - afterImport.external)} typed arrays${gc ? '' : ' (run with --expose-gc for steady figures)'}`,
);

const rnd = prng(92);
const box = { lat: new Float64Array(lookups), lon: new Float64Array(lookups) };
const near = { lat: new Float64Array(lookups), lon: new Float64Array(lookups) };
for (let i = 0; i < lookups; i++) {
  box.lat[i] = 24 + rnd() * 46;
  box.lon[i] = -168 + rnd() * 115;
  const p = places[Math.floor(rnd() * places.length)]!;
  near.lat[i] = p.lat + rnd() - 0.5;
  near.lon[i] = p.lon + rnd() - 0.5;
}

function rate(label: string, n: number, run: (i: number) => unknown): void {
  for (let i = 0; i < Math.min(n, 20_000); i++) run(i); // warm-up
  let answered = 0;
  const start = performance.now();
  for (let i = 0; i < n; i++) if (run(i)) answered++;
  const ms = performance.now() - start;
  if (answered !== n) throw new Error(`${label}: ${n - answered} points without an answer`);
  console.log(
    `${label}: ${Math.round((n / ms) * 1000).toLocaleString('en-US')} lookups/s, ${((ms * 1000) / n).toFixed(2)} µs each (${n.toLocaleString('en-US')} points)`,
  );
}

for (const [name, pts] of [
  ['near places', near],
  ['US/Canada box', box],
] as const) {
  rate(`${name}: PlaceIndex.nearest`, lookups, (i) => index.nearest(pts.lat[i]!, pts.lon[i]!));
  rate(`${name}: describeLocation`, lookups, (i) => describeLocation(pts.lat[i]!, pts.lon[i]!));
  rate(`${name}: describeLocation reduced`, lookups, (i) => describeLocation(pts.lat[i]!, pts.lon[i]!, { reduced: true }));
}
rate('brute force (reference)', Math.min(lookups, 5_000), (i) => nearestPlaceBruteForce(places, box.lat[i]!, box.lon[i]!));
