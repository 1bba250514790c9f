#!/usr/bin/env node
// Builds packages/geo/src/highways-data.ts, the road network the demo fleet drives on (issue 17:
// "real highway geometry, not straight lines between cities"; docs/decisions/0103). Source: Natural Earth
// 1:10m roads (public domain), the contiguous-US part of a US extract of version 5.0.0 (docs/data-sources.md
// says where it came from and its sha256). Only the geometry is used: the copy found has no attribute
// table, so the network is Natural Earth's major US roads (the interstates and the main US highways),
// not the interstates alone.
//
// Lines are cut at every vertex two lines share (the junctions), loose ends within SNAP_M of a junction
// are moved onto that road, the pieces on the demo network's city links are kept, each is simplified with Douglas-Peucker at TOLERANCE_M (junctions kept), and
// written as integer 1e-4 degree steps (about 11 m): one piece per `;`, `x,y,dx,dy,dx,dy…`.
//
//   node --import tsx scripts/build-highways.mjs path/to/ne_10m_roads(.shp folder or .zip) [toleranceMetres]
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simplifyPath } from './douglas-peucker.mjs';
import { readShapefile } from './shapefile.mjs';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '../packages/geo/src/highways-data.ts');
const CONUS = { minX: -125, minY: 24.4, maxX: -66.8, maxY: 49.5 };
const SNAP_M = 1000;
const SCALE = 1e4;

const [source, tol] = process.argv.slice(2);
if (!source) {
  console.error('usage: node --import tsx scripts/build-highways.mjs path/to/ne_10m_roads [toleranceMetres]');
  process.exit(2);
}
const toleranceM = tol ? Number(tol) : 150;
const { features, sha256 } = readShapefile(source);

const inConus = ([x, y]) => x >= CONUS.minX && x <= CONUS.maxX && y >= CONUS.minY && y <= CONUS.maxY;
const lines = [];
for (const f of features) for (const line of f.geometry.coordinates) if (line.length >= 2 && line.every(inConus)) lines.push(line);

// Natural Earth's lines are not noded: roads cross without a shared vertex and end a few metres short
// of the road they join. Noding: every crossing of two lines becomes a vertex of both, and every loose
// end within SNAP_M of another line is moved onto it (a vertex there too).
const metres = (a, b) => Math.hypot((a[0] - b[0]) * 111_320 * Math.cos((a[1] * Math.PI) / 180), (a[1] - b[1]) * 110_574);
const CELL = 0.05;
const grid = new Map();
lines.forEach((line, l) => {
  for (let i = 1; i < line.length; i++) {
    const [ax, ay] = line[i - 1];
    const [bx, by] = line[i];
    for (let gx = Math.floor(Math.min(ax, bx) / CELL); gx <= Math.floor(Math.max(ax, bx) / CELL); gx++) {
      for (let gy = Math.floor(Math.min(ay, by) / CELL); gy <= Math.floor(Math.max(ay, by) / CELL); gy++) {
        const k = `${gx},${gy}`;
        if (!grid.has(k)) grid.set(k, []);
        grid.get(k).push(l, i - 1);
      }
    }
  }
});
/** Extra vertices per line: segment index, fraction along it, point. */
const inserts = lines.map(() => []);
const seenPair = new Set();
for (const list of grid.values()) {
  for (let p = 0; p < list.length; p += 2) {
    for (let q = p + 2; q < list.length; q += 2) {
      const [l1, s1, l2, s2] = [list[p], list[p + 1], list[q], list[q + 1]];
      if (l1 === l2 && Math.abs(s1 - s2) <= 1) continue;
      const pair = `${l1}:${s1}:${l2}:${s2}`;
      if (seenPair.has(pair)) continue;
      seenPair.add(pair);
      const hit = intersect(lines[l1][s1], lines[l1][s1 + 1], lines[l2][s2], lines[l2][s2 + 1]);
      if (!hit) continue;
      inserts[l1].push([s1, hit.t, hit.point]);
      inserts[l2].push([s2, hit.u, hit.point]);
    }
  }
}
let snapped = 0;
lines.forEach((line, l) => {
  for (const end of [0, line.length - 1]) {
    const p = line[end];
    let best = null;
    const gx = Math.floor(p[0] / CELL);
    const gy = Math.floor(p[1] / CELL);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        const list = grid.get(`${gx + dx},${gy + dy}`) ?? [];
        for (let k = 0; k < list.length; k += 2) {
          const [l2, s2] = [list[k], list[k + 1]];
          if (l2 === l) continue;
          const proj = project(p, lines[l2][s2], lines[l2][s2 + 1]);
          const d = metres(p, proj.point);
          if (d <= SNAP_M && (!best || d < best.d)) best = { d, l2, s2, ...proj };
        }
      }
    }
    if (best && best.d > 0) {
      line[end] = best.point;
      inserts[best.l2].push([best.s2, best.t, best.point]);
      snapped++;
    }
  }
});
const noded = lines.map((line, l) => {
  const extra = inserts[l].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const outLine = [line[0]];
  let e = 0;
  for (let i = 1; i < line.length; i++) {
    while (e < extra.length && extra[e][0] === i - 1) outLine.push(extra[e++][2]);
    outLine.push(line[i]);
  }
  return outLine;
});

// Vertices shared by lines (or ending one) are junctions; lines are cut there into pieces.
const key = ([x, y]) => `${Math.round(x * 1e5)},${Math.round(y * 1e5)}`;
const uses = new Map();
for (const line of noded) {
  const seen = new Set();
  line.forEach((p, i) => {
    const k = key(p);
    if (seen.has(k)) return;
    seen.add(k);
    uses.set(k, (uses.get(k) ?? 0) + (i === 0 || i === line.length - 1 ? 2 : 1));
  });
}
const isJunction = (p) => (uses.get(key(p)) ?? 0) >= 2;
const pieces = [];
for (const line of noded) {
  let piece = [line[0]];
  for (let i = 1; i < line.length; i++) {
    if (key(line[i]) === key(piece[piece.length - 1])) continue;
    piece.push(line[i]);
    if (isJunction(line[i]) || i === line.length - 1) {
      if (piece.length >= 2) pieces.push(piece);
      piece = [line[i]];
    }
  }
}
const joined = snapped;

// Keep the largest connected network: the fragments left (islands, roads whose gap to the rest is over
// SNAP_M) would only strand a route.
const nodeIds = new Map();
const nodeOf = (p) => {
  const k = key(p);
  if (!nodeIds.has(k)) nodeIds.set(k, nodeIds.size);
  return nodeIds.get(k);
};
const ends = pieces.map((p) => [nodeOf(p[0]), nodeOf(p[p.length - 1])]);
const parent = Array.from({ length: nodeIds.size }, (_, i) => i);
const root = (i) => (parent[i] === i ? i : (parent[i] = root(parent[i])));
for (const [a, b] of ends) parent[root(a)] = root(b);
const size = new Map();
for (let i = 0; i < parent.length; i++) size.set(root(i), (size.get(root(i)) ?? 0) + 1);
const main = [...size.entries()].sort((a, b) => b[1] - a[1])[0][0];
const connected = pieces.filter((_, i) => root(ends[i][0]) === main);

// Keep the roads the demo network drives: the shortest way between every pair of linked cities
// (apps/api/src/seed/simulator/network.ts). The whole network is 830 kB; its demo corridors a fifth.
const { CITIES, ROADS } = await import('../apps/api/src/seed/simulator/network.ts');
const used = corridors(
  connected,
  ROADS.map(([a, b]) => [CITIES[a], CITIES[b]]),
);
const kept = connected.filter((_, i) => used.has(i));

const simplified = kept.map((p) => simplifyPath(p, toleranceM));
const before = pieces.reduce((n, p) => n + p.length, 0);
const after = simplified.reduce((n, p) => n + p.length, 0);
const text = simplified
  .map((p) => {
    let px = 0;
    let py = 0;
    return p
      .map(([x, y]) => {
        const qx = Math.round(x * SCALE);
        const qy = Math.round(y * SCALE);
        const s = `${qx - px},${qy - py}`;
        px = qx;
        py = qy;
        return s;
      })
      .join(',');
  })
  .join(';');
const sourceText = `Natural Earth 1:10m roads 5.0.0, contiguous US (geometry only; .shp sha256 ${sha256.slice(0, 12)}), simplified at ${toleranceM} m, 1e-4 degree steps`;
writeFileSync(
  OUT,
  `// Generated by scripts/build-highways.mjs; do not edit. Source and licence: docs/data-sources.md.\n` +
    `export const HIGHWAYS_SOURCE = ${JSON.stringify(sourceText)};\n` +
    `export const HIGHWAYS_DATA = '${text}';\n`,
);
console.log(
  `${lines.length} lines -> ${pieces.length} pieces, ${connected.length} connected, ${kept.length} on the demo corridors (${joined} loose ends joined to a road), ${before} -> ${after} vertices at ${toleranceM} m, ${(text.length / 1024).toFixed(0)} kB -> ${OUT}`,
);

/** Indexes of the pieces on the shortest paths (Dijkstra by length) between the given point pairs. */
function corridors(all, pairs) {
  const ids = new Map();
  const node = (p) => {
    const k = key(p);
    if (!ids.has(k)) ids.set(k, { id: ids.size, p });
    return ids.get(k).id;
  };
  const adj = [];
  all.forEach((piece, i) => {
    const a = node(piece[0]);
    const b = node(piece[piece.length - 1]);
    let len = 0;
    for (let k = 1; k < piece.length; k++) len += metres(piece[k - 1], piece[k]);
    (adj[a] ??= []).push([b, i, len]);
    (adj[b] ??= []).push([a, i, len]);
  });
  const points = [...ids.values()].sort((x, y) => x.id - y.id).map((v) => v.p);
  const nearest = (c) => {
    let best = 0;
    for (let i = 1; i < points.length; i++) if (metres([c.lon, c.lat], points[i]) < metres([c.lon, c.lat], points[best])) best = i;
    return best;
  };
  const used = new Set();
  for (const [from, to] of pairs) {
    const start = nearest(from);
    const goal = nearest(to);
    const dist = new Float64Array(points.length).fill(Infinity);
    const via = new Int32Array(points.length).fill(-1);
    const prev = new Int32Array(points.length).fill(-1);
    const done = new Uint8Array(points.length);
    dist[start] = 0;
    const open = new Set([start]);
    while (open.size) {
      let u = -1;
      for (const v of open) if (u < 0 || dist[v] < dist[u]) u = v;
      open.delete(u);
      if (u === goal) break;
      done[u] = 1;
      for (const [v, piece, len] of adj[u] ?? []) {
        if (!done[v] && dist[u] + len < dist[v]) {
          dist[v] = dist[u] + len;
          via[v] = piece;
          prev[v] = u;
          open.add(v);
        }
      }
    }
    for (let v = goal; v !== start && via[v] >= 0; v = prev[v]) used.add(via[v]);
  }
  return used;
}

/** Where segments a1-a2 and b1-b2 cross (fractions t along a, u along b), or null. */
function intersect(a1, a2, b1, b2) {
  const dx = a2[0] - a1[0];
  const dy = a2[1] - a1[1];
  const ex = b2[0] - b1[0];
  const ey = b2[1] - b1[1];
  const denom = dx * ey - dy * ex;
  if (denom === 0) return null;
  const qx = b1[0] - a1[0];
  const qy = b1[1] - a1[1];
  const t = (qx * ey - qy * ex) / denom;
  const u = (qx * dy - qy * dx) / denom;
  if (t <= 0 || t >= 1 || u <= 0 || u >= 1) return null;
  return { t, u, point: [a1[0] + t * dx, a1[1] + t * dy] };
}

/** The point of segment a-b nearest to p (planar, fine at a few hundred metres). */
function project(p, a, b) {
  const k = Math.cos((p[1] * Math.PI) / 180);
  const dx = (b[0] - a[0]) * k;
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * k * dx + (p[1] - a[1]) * dy) / len2)) : 0;
  return { t, point: t === 0 ? a : t === 1 ? b : [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])] };
}
