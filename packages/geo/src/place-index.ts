import { distanceM } from './distance.ts';
import type { Place } from './places.ts';

const RAD = Math.PI / 180;

/** Beyond this ring radius (degrees) a lookup scans every place instead: mid-ocean points only. */
const MAX_RING_DEG = 20;

export interface NearestPlace {
  place: Place;
  /** Great-circle (haversine) distance from the point to the place, metres. */
  distanceM: number;
}

/**
 * Reference answer: every place, haversine distance, first of equals wins. Linear in the number of
 * places; the grid index below must agree with it (place-index.test.ts).
 */
export function nearestPlaceBruteForce(places: readonly Place[], lat: number, lon: number): NearestPlace {
  let best = -1;
  let bestD = Infinity;
  for (let i = 0; i < places.length; i++) {
    const d = distanceM({ lat, lon }, places[i]!);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  if (best < 0) throw new Error('no places');
  return { place: places[best]!, distanceM: bestD };
}

/**
 * Nearest place by great-circle distance over a grid of `cellDeg`-degree cells. Places are stored
 * sorted by cell (compressed-row layout) as unit vectors, so comparing two candidates is a dot product.
 * A lookup scans square rings of cells around the point's cell until no unscanned cell can hold a
 * closer place: after ring r every unscanned place is at least r·cellDeg of latitude away, or
 * r·cellDeg of longitude away, which on the sphere is at least asin(cos φ · sin(r·cellDeg)).
 */
export class PlaceIndex {
  readonly size: number;
  private readonly rows: number;
  private readonly cols: number;
  private readonly cellStart: Int32Array;
  private readonly xyz: Float64Array;
  private readonly order: readonly Place[];

  constructor(places: readonly Place[], private readonly cellDeg = 1) {
    if (places.length === 0) throw new Error('PlaceIndex needs at least one place');
    if (!(cellDeg > 0) || 180 % cellDeg !== 0) throw new Error('cellDeg must divide 180');
    this.size = places.length;
    this.rows = 180 / cellDeg;
    this.cols = 360 / cellDeg;
    const cellOf = places.map((p) => this.rowOf(p.lat) * this.cols + this.colOf(p.lon));
    const counts = new Int32Array(this.rows * this.cols + 1);
    for (const c of cellOf) counts[c + 1]!++;
    for (let i = 1; i < counts.length; i++) counts[i]! += counts[i - 1]!;
    this.cellStart = counts;
    const next = counts.slice(0, -1);
    const order: Place[] = new Array<Place>(places.length);
    this.xyz = new Float64Array(places.length * 3);
    places.forEach((p, i) => {
      const slot = next[cellOf[i]!]!++;
      order[slot] = p;
      const phi = p.lat * RAD;
      const lambda = p.lon * RAD;
      this.xyz[slot * 3] = Math.cos(phi) * Math.cos(lambda);
      this.xyz[slot * 3 + 1] = Math.cos(phi) * Math.sin(lambda);
      this.xyz[slot * 3 + 2] = Math.sin(phi);
    });
    this.order = order;
  }

  private rowOf(lat: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((lat + 90) / this.cellDeg)));
  }

  private colOf(lon: number): number {
    const c = Math.floor((lon + 180) / this.cellDeg) % this.cols;
    return c < 0 ? c + this.cols : c;
  }

  nearest(lat: number, lon: number): NearestPlace {
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat < -90 || lat > 90) throw new RangeError(`not a position: ${lat}, ${lon}`);
    const phi = lat * RAD;
    const lambda = lon * RAD;
    const qx = Math.cos(phi) * Math.cos(lambda);
    const qy = Math.cos(phi) * Math.sin(lambda);
    const qz = Math.sin(phi);
    const row = this.rowOf(lat);
    const col = this.colOf(lon);
    const cosPhi = Math.cos(phi);
    let best = -1;
    let bestDot = -2;
    const scanCell = (r: number, c: number): void => {
      if (r < 0 || r >= this.rows) return;
      const cell = r * this.cols + (((c % this.cols) + this.cols) % this.cols);
      const end = this.cellStart[cell + 1]!;
      const xyz = this.xyz;
      for (let i = this.cellStart[cell]!; i < end; i++) {
        const dot = qx * xyz[i * 3]! + qy * xyz[i * 3 + 1]! + qz * xyz[i * 3 + 2]!;
        if (dot > bestDot) {
          bestDot = dot;
          best = i;
        }
      }
    };
    for (let ring = 0; ; ring++) {
      if (ring === 0) scanCell(row, col);
      else {
        for (let d = -ring; d <= ring; d++) {
          scanCell(row - ring, col + d);
          scanCell(row + ring, col + d);
        }
        for (let d = -ring + 1; d <= ring - 1; d++) {
          scanCell(row + d, col - ring);
          scanCell(row + d, col + ring);
        }
      }
      const reachDeg = ring * this.cellDeg;
      if (best >= 0) {
        const bound = Math.min(reachDeg * RAD, Math.asin(cosPhi * Math.sin(reachDeg * RAD)));
        if (bestDot >= Math.cos(bound)) break;
      }
      if (reachDeg >= MAX_RING_DEG) return nearestPlaceBruteForce(this.order, lat, lon);
    }
    const place = this.order[best]!;
    return { place, distanceM: distanceM({ lat, lon }, place) };
  }
}
