import { distanceM } from './distance.ts';
import type { Place } from './places.ts';

const RAD = Math.PI / 180;

/** How far (degrees) the fine grid scans before the coarse grid takes over: sparse country, the sea. */
const FINE_REACH_DEG = 3;

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
 * Places sorted into `cellDeg`-degree cells (compressed-row layout: cell starts in one Int32Array,
 * unit vectors in one Float64Array), so comparing two candidates is a dot product.
 */
class Grid {
  readonly rows: number;
  readonly cols: number;
  readonly cellStart: Int32Array;
  readonly xyz: Float64Array;
  readonly order: readonly Place[];

  constructor(
    places: readonly Place[],
    readonly cellDeg: number,
  ) {
    this.rows = 180 / cellDeg;
    this.cols = 360 / cellDeg;
    const cellOf = places.map((p) => this.rowOf(p.lat) * this.cols + this.colOf(p.lon));
    const starts = new Int32Array(this.rows * this.cols + 1);
    for (const c of cellOf) starts[c + 1]!++;
    for (let i = 1; i < starts.length; i++) starts[i]! += starts[i - 1]!;
    this.cellStart = starts;
    const next = starts.slice(0, -1);
    const order = new Array<Place>(places.length);
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

  rowOf(lat: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((lat + 90) / this.cellDeg)));
  }

  colOf(lon: number): number {
    const c = Math.floor((lon + 180) / this.cellDeg) % this.cols;
    return c < 0 ? c + this.cols : c;
  }

  /**
   * The slot of the place nearest to unit vector (qx, qy, qz) at latitude `lat`, longitude `lon`,
   * scanning square rings of cells outwards; -1 if that is not settled within `maxReachDeg`.
   * After ring r every unscanned place is at least r·cellDeg of latitude away, or r·cellDeg of
   * longitude away, which on the sphere is at least asin(cos φ · sin(r·cellDeg)) (also true beyond
   * 90° of longitude, where the distance is at least 90° − |φ|).
   */
  nearestSlot(lat: number, lon: number, qx: number, qy: number, qz: number, maxReachDeg: number): number {
    const { cols, rows, cellStart, xyz } = this;
    const row = this.rowOf(lat);
    const col = this.colOf(lon);
    const cosPhi = Math.cos(lat * RAD);
    let best = -1;
    let bestDot = -2;
    const scan = (r: number, c: number): void => {
      if (r < 0 || r >= rows) return;
      const cell = r * cols + (((c % cols) + cols) % cols);
      const end = cellStart[cell + 1]!;
      for (let i = cellStart[cell]!; i < end; i++) {
        const dot = qx * xyz[i * 3]! + qy * xyz[i * 3 + 1]! + qz * xyz[i * 3 + 2]!;
        if (dot > bestDot) {
          bestDot = dot;
          best = i;
        }
      }
    };
    for (let ring = 0; ; ring++) {
      if (ring === 0) scan(row, col);
      else {
        for (let d = -ring; d <= ring; d++) {
          scan(row - ring, col + d);
          scan(row + ring, col + d);
        }
        for (let d = -ring + 1; d <= ring - 1; d++) {
          scan(row + d, col - ring);
          scan(row + d, col + ring);
        }
      }
      const reachDeg = ring * this.cellDeg;
      if (best >= 0) {
        const bound = Math.min(reachDeg * RAD, Math.asin(cosPhi * Math.sin(Math.min(90, reachDeg) * RAD)));
        if (bestDot >= Math.cos(bound)) return best;
      }
      if (reachDeg >= maxReachDeg) return -1;
    }
  }

  /** Every place, by dot product: the last resort, a few microseconds. */
  nearestSlotOfAll(qx: number, qy: number, qz: number): number {
    const { xyz } = this;
    let best = 0;
    let bestDot = -2;
    for (let i = 0; i < this.order.length; i++) {
      const dot = qx * xyz[i * 3]! + qy * xyz[i * 3 + 1]! + qz * xyz[i * 3 + 2]!;
      if (dot > bestDot) {
        bestDot = dot;
        best = i;
      }
    }
    return best;
  }
}

/**
 * Nearest place by great-circle distance. A fine grid (`cellDeg`, default 1°) answers where places
 * are dense, within a few cells; where it would have to scan far (sparse north, the sea) a coarse
 * grid (`coarseDeg`, default 5°) takes over, and past 90° of reach a scan of every place.
 */
export class PlaceIndex {
  readonly size: number;
  private readonly fine: Grid;
  private readonly coarse: Grid | null;

  constructor(places: readonly Place[], cellDeg = 1, coarseDeg = 5) {
    if (places.length === 0) throw new Error('PlaceIndex needs at least one place');
    for (const d of [cellDeg, coarseDeg]) if (!(d > 0) || 180 % d !== 0) throw new Error('cell sizes must divide 180');
    this.size = places.length;
    this.fine = new Grid(places, cellDeg);
    this.coarse = coarseDeg > cellDeg * FINE_REACH_DEG ? new Grid(places, coarseDeg) : null;
  }

  nearest(lat: number, lon: number): NearestPlace {
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat < -90 || lat > 90) throw new RangeError(`not a position: ${lat}, ${lon}`);
    const phi = lat * RAD;
    const lambda = lon * RAD;
    const qx = Math.cos(phi) * Math.cos(lambda);
    const qy = Math.cos(phi) * Math.sin(lambda);
    const qz = Math.sin(phi);
    let grid = this.fine;
    let slot = grid.nearestSlot(lat, lon, qx, qy, qz, this.coarse ? FINE_REACH_DEG * grid.cellDeg : 90);
    if (slot < 0 && this.coarse) {
      grid = this.coarse;
      slot = grid.nearestSlot(lat, lon, qx, qy, qz, 90);
    }
    if (slot < 0) slot = grid.nearestSlotOfAll(qx, qy, qz);
    const place = grid.order[slot]!;
    return { place, distanceM: distanceM({ lat, lon }, place) };
  }
}
