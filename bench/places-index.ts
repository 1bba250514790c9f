// Geofence check speed (issue 32, decision 0162): one position checked against the 10,000 places of
// its organization through the spatial index (flatbush over the shapes' boxes, then the exact
// circle or polygon test), against the linear scan for reference. Places: half circles of
// 100-800 m, half polygons of 5-24 corners about 150-900 m across, spread over the lower 48 states
// and thicker around 40 freight cities (where customers are). Positions: half on the way between
// cities, half within 2 km of a place (a truck at or near a customer: the expensive case).
// Run: node --import tsx bench/places-index.ts [places] [checks]      (default 10000, 1000000)
import { performance } from 'node:perf_hooks';
import { destination } from '../packages/geo/src/distance.ts';
import { PlaceIndex, type IndexedPlace } from '../apps/api/src/modules/places/place-index.ts';

const count = Number(process.argv[2] ?? 10_000);
const checks = Number(process.argv[3] ?? 1_000_000);

/** mulberry32: the same places and points every run. */
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
const rnd = prng(32);
const cities = Array.from({ length: 40 }, () => ({ lat: 30 + rnd() * 16, lon: -122 + rnd() * 47 }));
const places: IndexedPlace[] = [];
for (let i = 0; i < count; i++) {
  const city = cities[i % cities.length]!;
  // Most within 60 km of a city, a fifth anywhere.
  const at = rnd() < 0.8 ? destination(city, rnd() * 360, rnd() * 60_000) : { lat: 26 + rnd() * 22, lon: -124 + rnd() * 57 };
  const base = { id: `p${i}`, name: `Place ${i}`, category: 'CUSTOMER' as const, groupId: null, arrivalDwellS: 120, departureDwellS: 60 };
  if (i % 2 === 0) places.push({ ...base, geometry: { type: 'Point', coordinates: [at.lon, at.lat] }, radiusM: 100 + rnd() * 700 });
  else {
    const corners = 5 + Math.floor(rnd() * 20);
    const ring: Array<[number, number]> = [];
    for (let k = 0; k < corners; k++) {
      const p = destination(at, (360 * k) / corners, 75 + rnd() * 375);
      ring.push([p.lon, p.lat]);
    }
    ring.push(ring[0]!);
    places.push({ ...base, geometry: { type: 'Polygon', coordinates: [ring] }, radiusM: null });
  }
}

const t0 = performance.now();
const index = new PlaceIndex(places);
const buildMs = performance.now() - t0;

const points: Array<{ lat: number; lon: number }> = [];
for (let i = 0; i < 100_000; i++) {
  if (i % 2 === 0) {
    const a = cities[Math.floor(rnd() * cities.length)]!;
    const b = cities[Math.floor(rnd() * cities.length)]!;
    const f = rnd();
    points.push({ lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f });
  } else {
    const p = places[Math.floor(rnd() * places.length)]!;
    const c = p.geometry.type === 'Point' ? p.geometry.coordinates : p.geometry.coordinates[0]![0]!;
    points.push(destination({ lat: c[1], lon: c[0] }, rnd() * 360, rnd() * 2000));
  }
}

function measure(fn: (lat: number, lon: number) => IndexedPlace[], n: number): { us: number; cpuUs: number; hits: number } {
  let hits = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const p = points[i % points.length]!;
    hits += fn(p.lat, p.lon).length;
  }
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { us: (wall * 1000) / n, cpuUs: (used.user + used.system) / n, hits };
}

// Warm-up (the JIT), then the measured runs.
measure((lat, lon) => index.placesAt(lat, lon), 50_000);
const indexed = measure((lat, lon) => index.placesAt(lat, lon), checks);
const linear = measure((lat, lon) => index.placesAtLinear(lat, lon), Math.max(1000, Math.round(checks / 500)));
const nearOnly = (() => {
  let hits = 0;
  const cpu = process.cpuUsage();
  const n = checks / 2;
  for (let i = 0; i < n; i++) hits += index.placesAt(points[(2 * i + 1) % points.length]!.lat, points[(2 * i + 1) % points.length]!.lon).length;
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / n, hits };
})();

console.log(
  `places: ${count} (${places.filter((p) => p.geometry.type === 'Polygon').length} polygons), index built in ${buildMs.toFixed(1)} ms; node ${process.version}`,
);
console.log(
  `index:  ${indexed.us.toFixed(2)} µs per position wall, ${indexed.cpuUs.toFixed(2)} µs CPU (this process), ${checks.toLocaleString('en-US')} checks, ${indexed.hits} inside`,
);
console.log(`        near places only: ${nearOnly.cpuUs.toFixed(2)} µs CPU per position`);
console.log(`linear: ${linear.us.toFixed(1)} µs per position (reference scan of every place)`);
console.log(`target: < 20 µs per position: ${indexed.cpuUs < 20 ? 'PASS' : 'MISS'}`);
