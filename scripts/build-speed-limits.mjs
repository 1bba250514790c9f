#!/usr/bin/env node
// Builds packages/geo/src/speed-limits-data.ts, the legal default speed limits of every US state (and DC)
// and Canadian province and territory by road class, for cars and for trucks, from the OpenStreetMap
// wiki's "Default speed limits" table as westnordost/osm-legal-default-speeds parses it
// (legal_default_speeds.json; CC BY-SA 2.0; docs/data-sources.md, docs/decisions/0194).
//
// Four road classes, the ones the speed-limit lookup can tell apart offline (decision 0194):
//   HIGHWAY_RURAL  on the bundled Natural Earth major roads, outside a town (interstates, US highways)
//   HIGHWAY_URBAN  the same inside a town (falls back to HIGHWAY_RURAL where the law names no urban figure)
//   ROAD_RURAL     off the bundled roads, outside a town (the statutory "rural" default)
//   ROAD_URBAN     off the bundled roads, inside a town (the statutory "urban" default)
// Trucks: `maxspeed:hgv`, else a `maxspeed:hgv:conditional` / `maxspeed:conditional` value for heavy,
// articulated or trailer-pulling vehicles (not the length- or time-of-day-based ones), never above the car figure.
//
//   node scripts/build-speed-limits.mjs path/to/legal_default_speeds.json
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '../packages/geo/src/speed-limits-data.ts');
const [source] = process.argv.slice(2);
if (!source) {
  console.error('usage: node scripts/build-speed-limits.mjs path/to/legal_default_speeds.json');
  process.exit(2);
}
const text = readFileSync(source, 'utf8');
const sha = createHash('sha256').update(text).digest('hex');
const json = JSON.parse(text);
const MPH = 1.609344;

const CLASSES = {
  HIGHWAY_RURAL: [
    'rural US interstate highway',
    'US interstate highway',
    'US interstate highway with 2 or more lanes in each direction',
    'rural motorway',
    'motorway',
    'Newfoundland and Labrador: Trans-Canada highway',
    'rural expressway without traffic lights',
    'rural expressway',
    'expressway',
    'rural dual carriageway with 2 or more lanes in each direction',
    'dual carriageway with 2 or more lanes in each direction',
    'rural road with 2 or more lanes in each direction',
    'rural dual carriageway',
    'dual carriageway',
    'Alabama: rural highway with 2 or more lanes in each direction',
    'Alberta: Provincial highway',
    'rural numbered road',
  ],
  HIGHWAY_URBAN: [
    'urban US interstate highway',
    'urban motorway',
    'urban expressway without traffic lights',
    'urban expressway',
    'Alberta: Urban provincial highway',
  ],
  ROAD_RURAL: ['rural', null],
  ROAD_URBAN: ['urban', 'Alberta: Urban road'],
};

/** "55 mph" -> km/h; "80" -> 80 (km/h). */
function kph(v) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(mph)?\s*$/.exec(v);
  if (!m) return null;
  return m[2] ? Math.round(Number(m[1]) * MPH * 1000) / 1000 : Number(m[1]);
}
/** A truck figure from conditional values: heavy (weightrating), articulated or trailer, the lowest. */
function truckConditional(v) {
  if (!v) return null;
  let best = null;
  for (const part of v.split(';')) {
    const m = /^\s*([^@]+?)\s*@\s*\((.*)\)\s*$/.exec(part);
    if (!m || !/weightrating|articulated|trailer/.test(m[2]) || /length|sunset|sunrise|:\d\d/.test(m[2])) continue;
    const k = kph(m[1]);
    if (k !== null && (best === null || k < best)) best = k;
  }
  return best;
}

const names = { US: {}, CA: {} };
const out = {};
for (const [code, entries] of Object.entries(json.speedLimitsByCountryCode)) {
  const [country, region] = code.split('-');
  if ((country !== 'US' && country !== 'CA') || !region) continue;
  const row = {};
  for (const [cls, wanted] of Object.entries(CLASSES)) {
    let hit = null;
    for (const name of wanted) {
      hit = entries.find((e) => (e.name ?? null) === name && e.tags?.maxspeed);
      if (hit) break;
    }
    if (!hit) continue;
    const car = kph(hit.tags.maxspeed);
    if (car === null) continue;
    const hgv = hit.tags['maxspeed:hgv'] ? kph(hit.tags['maxspeed:hgv']) : null;
    const cond = truckConditional(hit.tags['maxspeed:hgv:conditional']) ?? truckConditional(hit.tags['maxspeed:conditional']);
    // A truck figure far below the car's is about some other vehicle (Arkansas' 30 mph over 64,000 lb): not taken.
    const t = hgv ?? cond;
    const truck = t !== null && t >= 0.75 * car ? Math.min(car, t) : car;
    row[cls] = [car, truck, hit.name ?? 'default'];
  }
  // No urban figure: the rural one. No highway figure at all (the wiki names only a general default):
  // null, so highways there are judged against the fleet maximum only, never a guessed limit.
  if (row.HIGHWAY_RURAL) row.HIGHWAY_URBAN ??= [...row.HIGHWAY_RURAL.slice(0, 2), `${row.HIGHWAY_RURAL[2]} (no urban figure)`];
  if (row.ROAD_RURAL) row.ROAD_URBAN ??= [...row.ROAD_RURAL.slice(0, 2), `${row.ROAD_RURAL[2]} (no urban figure)`];
  for (const cls of Object.keys(CLASSES)) row[cls] ??= null;
  if (!row.ROAD_RURAL) {
    console.error(`${code}: no default at all, left out`);
    continue;
  }
  out[region] = row;
  names[country][region] = true;
}
const meta = json.meta;
const lines = Object.keys(out)
  .sort()
  .map((r) => `  ${r}: ${JSON.stringify(out[r])},`);
const file = `// Generated by scripts/build-speed-limits.mjs; do not edit. Source and licence: docs/data-sources.md.
// Legal default speed limits (km/h) by road class, [car, truck, the OSM wiki's road type], per US state
// (and DC) and Canadian province or territory.
export const SPEED_LIMITS_SOURCE = ${JSON.stringify(`OpenStreetMap wiki "Default speed limits" revision ${meta.revisionId} (${meta.timestamp}) via osm-legal-default-speeds, ${meta.license}; legal_default_speeds.json sha256 ${sha.slice(0, 12)}`)};
export type SpeedLimitClass = 'HIGHWAY_RURAL' | 'HIGHWAY_URBAN' | 'ROAD_RURAL' | 'ROAD_URBAN';
/** null: the table has no figure for that class there (highways are then judged against the fleet maximum only). */
export const SPEED_LIMITS: Record<string, Record<SpeedLimitClass, readonly [car: number, truck: number, roadType: string] | null>> = {
${lines.join('\n')}
};
`;
writeFileSync(OUT, file);
console.log(`${Object.keys(out).length} jurisdictions written to ${OUT}`);
