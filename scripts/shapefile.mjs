// A minimal ESRI shapefile reader for the data build scripts: polygon (type 5) and polyline (type 3)
// geometries and the dBASE attribute table, enough for the Census and Natural Earth files. Rings are grouped into polygons
// by winding (shapefile outer rings are clockwise, holes counter-clockwise), as the format defines.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Reads `<name>.shp` and `<name>.dbf` from a folder or a .zip (unpacked with `unzip` into a temporary
 * folder). Returns the GeoJSON features and the sha256 of the .shp and .dbf bytes (stable across re-zips).
 */
export function readShapefile(path) {
  let dir = path;
  let cleanup = () => {};
  if (!statSync(path).isDirectory()) {
    dir = mkdtempSync(join(tmpdir(), 'shp-'));
    execFileSync('unzip', ['-q', '-o', path, '-d', dir]);
    cleanup = () => rmSync(dir, { recursive: true, force: true });
  }
  try {
    const files = listFiles(dir);
    const shp = files.find((f) => f.endsWith('.shp'));
    const dbf = files.find((f) => f.endsWith('.dbf'));
    if (!shp) throw new Error(`no .shp in ${path}`);
    const shpBytes = readFileSync(shp);
    // Without a .dbf (a copy that lost it) the features have no properties.
    const dbfBytes = dbf ? readFileSync(dbf) : Buffer.alloc(0);
    const geometries = readGeometries(shpBytes);
    const records = dbf ? readDbf(dbfBytes) : geometries.map(() => ({}));
    if (geometries.length !== records.length) throw new Error('shapefile and dbf disagree on the record count');
    const features = geometries.map((geometry, i) => ({ type: 'Feature', properties: records[i], geometry }));
    return { features, sha256: createHash('sha256').update(shpBytes).update(dbfBytes).digest('hex') };
  } finally {
    cleanup();
  }
}

function listFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile());
}

function readGeometries(buf) {
  const out = [];
  let pos = 100;
  while (pos < buf.length) {
    const contentBytes = buf.readInt32BE(pos + 4) * 2;
    const rec = pos + 8;
    const type = buf.readInt32LE(rec);
    if (type === 0) {
      out.push(null);
    } else if (type === 5 || type === 3) {
      const numParts = buf.readInt32LE(rec + 36);
      const numPoints = buf.readInt32LE(rec + 40);
      const partsAt = rec + 44;
      const pointsAt = partsAt + numParts * 4;
      const rings = [];
      for (let p = 0; p < numParts; p++) {
        const start = buf.readInt32LE(partsAt + p * 4);
        const end = p + 1 < numParts ? buf.readInt32LE(partsAt + (p + 1) * 4) : numPoints;
        const ring = [];
        for (let i = start; i < end; i++) ring.push([buf.readDoubleLE(pointsAt + i * 16), buf.readDoubleLE(pointsAt + i * 16 + 8)]);
        rings.push(ring);
      }
      out.push(type === 5 ? polygonsFromRings(rings) : { type: 'MultiLineString', coordinates: rings });
    } else {
      throw new Error(`shape type ${type} is neither a polygon nor a polyline`);
    }
    pos = rec + contentBytes;
  }
  return out;
}

/** Twice the signed area; negative = clockwise in x-right/y-up axes (a shapefile outer ring). */
function signedArea2(ring) {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return a;
}

function contains(ring, [x, y]) {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** GeoJSON MultiPolygon with counter-clockwise outer rings (RFC 7946) and each hole in the outer ring holding it. */
function polygonsFromRings(rings) {
  const outers = [];
  const holes = [];
  for (const ring of rings) (signedArea2(ring) < 0 ? outers : holes).push(ring);
  const polygons = outers.map((r) => [[...r].reverse()]);
  for (const hole of holes) {
    const owner = polygons.find((p) => contains(p[0], hole[0])) ?? polygons[0];
    owner.push([...hole].reverse());
  }
  return { type: 'MultiPolygon', coordinates: polygons };
}

function readDbf(buf) {
  const count = buf.readUInt32LE(4);
  const headerBytes = buf.readUInt16LE(8);
  const recordBytes = buf.readUInt16LE(10);
  const fields = [];
  for (let at = 32; buf[at] !== 0x0d; at += 32) {
    fields.push({ name: buf.toString('latin1', at, at + 11).replace(/\0.*$/, ''), length: buf[at + 16] });
  }
  const records = [];
  for (let r = 0; r < count; r++) {
    let at = headerBytes + r * recordBytes + 1;
    const record = {};
    for (const f of fields) {
      record[f.name] = buf.toString('utf8', at, at + f.length).trim();
      at += f.length;
    }
    records.push(record);
  }
  return records;
}
