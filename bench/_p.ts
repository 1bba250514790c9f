import { highwayNetwork } from '@fleet/geo/highways';
import { locateJurisdiction } from '@fleet/geo/jurisdictions';
import { SpeedLimitIndex } from '@fleet/geo/speed-limits';
const pts: number[] = [];
for (const pc of highwayNetwork().pieces) for (let i = 1; i < pc.points.length; i++) { const [ax, ay] = pc.points[i - 1]!; const [bx, by] = pc.points[i]!; for (let s = 0; s < 1; s += 0.05) pts.push(ay + (by - ay) * s, ax + (bx - ax) * s); }
const idx = new SpeedLimitIndex();
const n = pts.length / 2;
let t = performance.now();
for (let i = 0; i < pts.length; i += 2) locateJurisdiction(pts[i]!, pts[i + 1]!, 500);
console.log('jurisdiction first', ((performance.now() - t) * 1000 / n).toFixed(2));
t = performance.now();
for (let i = 0; i < pts.length; i += 2) locateJurisdiction(pts[i]!, pts[i + 1]!, 500);
console.log('jurisdiction again', ((performance.now() - t) * 1000 / n).toFixed(2));
const a = idx as unknown as { nearRoad(a: number, b: number): boolean; inTown(a: number, b: number): boolean; cells: Map<number, number> };
t = performance.now();
for (let i = 0; i < pts.length; i += 2) a.nearRoad(pts[i]!, pts[i + 1]!);
console.log('nearRoad', ((performance.now() - t) * 1000 / n).toFixed(2));
t = performance.now();
for (let i = 0; i < pts.length; i += 2) a.inTown(pts[i]!, pts[i + 1]!);
console.log('inTown', ((performance.now() - t) * 1000 / n).toFixed(2));
t = performance.now();
for (let i = 0; i < pts.length; i += 2) idx.classAt(pts[i]!, pts[i + 1]!);
console.log('classAt first', ((performance.now() - t) * 1000 / n).toFixed(2), a.cells.size);
t = performance.now();
for (let i = 0; i < pts.length; i += 2) idx.classAt(pts[i]!, pts[i + 1]!);
console.log('classAt again', ((performance.now() - t) * 1000 / n).toFixed(2));
{
  const C = 0.0025;
  const centres: number[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < pts.length; i += 2) { const cx = Math.floor(pts[i + 1]! / C), cy = Math.floor(pts[i]! / C); const k = `${cx},${cy}`; if (!seen.has(k)) { seen.add(k); centres.push((cy + 0.5) * C, (cx + 0.5) * C); } }
  const idx2 = new SpeedLimitIndex() as unknown as { nearRoad(a: number, b: number): boolean; inTown(a: number, b: number): boolean; segments: Map<number, number[]> };
  let t2 = performance.now();
  for (let i = 0; i < centres.length; i += 2) idx2.nearRoad(centres[i]!, centres[i + 1]!);
  console.log('nearRoad at centres', ((performance.now() - t2) * 1000 / (centres.length / 2)).toFixed(2), centres.length / 2);
  t2 = performance.now();
  for (let i = 0; i < centres.length; i += 2) idx2.inTown(centres[i]!, centres[i + 1]!);
  console.log('inTown at centres', ((performance.now() - t2) * 1000 / (centres.length / 2)).toFixed(2));
  const lens = [...idx2.segments.values()].map((l) => l.length / 4).sort((a, b) => a - b);
  console.log('segments per cell median', lens[lens.length >> 1], 'p90', lens[Math.floor(lens.length * 0.9)], 'max', lens.at(-1), 'cells', lens.length);
}
