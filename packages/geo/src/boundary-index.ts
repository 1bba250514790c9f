// Point-in-jurisdiction and border-crossing queries over ~100,000 boundary edges in about a microsecond
// (docs/decisions/0101). Two grids: 0.25° cells, and inside every cell a boundary passes through, 10×10
// subcells of 0.025° (about 2.8 km). A cell or subcell no edge touches lies wholly in one jurisdiction
// (or in none) and answers at once; a subcell with edges lists its candidate jurisdictions, each tested
// by a ray cast over that jurisdiction's edges in one 0.02° latitude strip. Brute-force references
// (locateBruteForce, crossingsBruteForce) stay beside it and the tests compare them on random input.
//
// Coordinates are x = longitude, y = latitude, except that east longitudes (the Aleutians west of the
// antimeridian) are taken as lon − 360, so Alaska stays one piece of plane.
//
// The index stays in memory for the life of the server (the IFTA miles of every ingested fix), so what
// holds a jurisdiction number is a byte (at most 127 jurisdictions), and a subcell with edges is
// numbered within its block (at most 100) from the block's first: 13.6 -> 9.3 MB (decision 0161).
// Edge e runs from point e to point e + 1 of one list of ring points (a ring's edges share their
// points; the step from one ring's end to the next ring's start is a gap no list holds), and a coarse
// cell fits 16 bits: 9.8 -> 7.4 MB, same doubles, same answers (decision 0170).

/** One jurisdiction's polygons: rings of [lon, lat] pairs (closed or not; holes by even-odd rule). */
export interface JurisdictionShape {
  rings: ReadonlyArray<ReadonlyArray<readonly number[]>>;
}

const COARSE = 0.25;
const SUB = 10;
const FINE = COARSE / SUB;
const STRIP = 0.02;
const NONE = -1;
/** owner[] of a ring point that starts no edge (a ring's last point). */
const GAP = 255;
const DX = [-1, 1, 0, 0];
const DY = [0, 0, -1, 1];

/** Longitude as the index's x: east longitudes (the western Aleutians) continue Alaska westward. */
export const toX = (lon: number): number => (lon > 0 ? lon - 360 : lon);

/** Growable Int32 list for building the CSR arrays. */
class IntList {
  data = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/**
 * Fine cells (gx, gy) a segment touches, in fine-grid units (one unit = FINE degrees), written as pairs
 * into `out`. Conservative: a segment along a cell side counts in both cells. Returns the pair count.
 */
function cellsOfSegment(u1: number, v1: number, u2: number, v2: number, out: IntList): void {
  if (u1 > u2) [u1, v1, u2, v2] = [u2, v2, u1, v1];
  const eps = 1e-9;
  const c0 = Math.floor(u1 - eps);
  const c1 = Math.floor(u2 + eps);
  const du = u2 - u1;
  for (let c = c0; c <= c1; c++) {
    let va: number;
    let vb: number;
    if (du < 1e-12) {
      va = v1;
      vb = v2;
    } else {
      const ua = Math.max(u1, c);
      const ub = Math.min(u2, c + 1);
      va = v1 + ((ua - u1) / du) * (v2 - v1);
      vb = v1 + ((ub - u1) / du) * (v2 - v1);
    }
    const r0 = Math.floor(Math.min(va, vb) - eps);
    const r1 = Math.floor(Math.max(va, vb) + eps);
    for (let r = r0; r <= r1; r++) {
      out.push(c);
      out.push(r);
    }
  }
}

export class BoundaryIndex {
  readonly count: number;
  private readonly minX: number;
  private readonly minY: number;
  private readonly cols: number;
  private readonly rows: number;
  // Ring points; edge e runs from point e to point e + 1 and belongs to jurisdiction owner[e] (GAP: no edge).
  private readonly px: Float64Array;
  private readonly py: Float64Array;
  private readonly owner: Uint8Array;
  // Per jurisdiction: bounding box and latitude strips (CSR into stripEdges).
  private readonly jMinX: Float64Array;
  private readonly jMinY: Float64Array;
  private readonly jMaxX: Float64Array;
  private readonly jMaxY: Float64Array;
  private readonly jStripBase: Int32Array;
  private readonly jStrips: Int32Array;
  private readonly stripStart: Int32Array;
  private readonly stripEdges: Int32Array;
  /** Coarse cell: jurisdiction ≥ 0, NONE, or −2 − block for a cell with edges. */
  private coarse: Int16Array | Int32Array;
  /**
   * Subcells of the blocks (100 each): jurisdiction ≥ 0, NONE, or −2 − r for the block's r-th subcell
   * with edges, which is subcell k = blockEdgeBase[block] + r of the lists below.
   */
  private readonly fine: Int8Array;
  private readonly blockEdgeBase: Int32Array;
  /** The coarse cell of each block. */
  private readonly blockCell: Int32Array;
  /** Per subcell with edges (k): its slice of fineEdges. */
  private readonly edgeStart: Int32Array;
  private readonly fineEdges: Int32Array;
  private readonly candStart!: Int32Array;
  private readonly cand!: Uint8Array;
  private readonly scratch = new IntList();

  /** Builds the index; jurisdictions earlier in the list win where polygons overlap. */
  constructor(shapes: readonly JurisdictionShape[]) {
    this.count = shapes.length;
    const n = shapes.length;
    if (n > 127) throw new Error(`BoundaryIndex: ${n} jurisdictions, at most 127 (they are stored in bytes)`);
    let total = 0;
    for (const shape of shapes) for (const ring of shape.rings) total += ring.length + 1;
    this.px = new Float64Array(total);
    this.py = new Float64Array(total);
    this.owner = new Uint8Array(total).fill(GAP);
    this.jMinX = new Float64Array(n).fill(Infinity);
    this.jMinY = new Float64Array(n).fill(Infinity);
    this.jMaxX = new Float64Array(n).fill(-Infinity);
    this.jMaxY = new Float64Array(n).fill(-Infinity);
    let count = 0;
    for (let j = 0; j < n; j++) {
      let minX = Infinity;
      let minY = Infinity;
      let maxX = -Infinity;
      let maxY = -Infinity;
      for (const ring of shapes[j]!.rings) {
        if (!ring.length) continue;
        const last = ring[ring.length - 1]!;
        let px = toX(last[0]!);
        let py = last[1]!;
        // The ring's first point (its closing one); each point that moves on ends an edge.
        this.px[count] = px;
        this.py[count] = py;
        for (const p of ring) {
          const x = toX(p[0]!);
          const y = p[1]!;
          if (x < minX) minX = x;
          if (x > maxX) maxX = x;
          if (y < minY) minY = y;
          if (y > maxY) maxY = y;
          if (x !== px || y !== py) {
            this.owner[count] = j;
            count++;
            this.px[count] = x;
            this.py[count] = y;
          }
          px = x;
          py = y;
        }
        count++;
      }
      this.jMinX[j] = minX;
      this.jMinY[j] = minY;
      this.jMaxX[j] = maxX;
      this.jMaxY[j] = maxY;
    }
    this.px = this.px.slice(0, count);
    this.py = this.py.slice(0, count);
    this.owner = this.owner.slice(0, count);
    const edges = count;

    // Latitude strips per jurisdiction.
    this.jStripBase = new Int32Array(n);
    this.jStrips = new Int32Array(n);
    let strips = 0;
    for (let j = 0; j < n; j++) {
      this.jStripBase[j] = strips;
      this.jStrips[j] = Number.isFinite(this.jMinY[j]!) ? Math.floor((this.jMaxY[j]! - this.jMinY[j]!) / STRIP) + 1 : 0;
      strips += this.jStrips[j]!;
    }
    const stripOf = (e: number, y: number): number => Math.min(this.jStrips[this.owner[e]!]! - 1, Math.floor((y - this.jMinY[this.owner[e]!]!) / STRIP));
    const stripCount = new Int32Array(strips + 1);
    for (let e = 0; e < edges; e++) {
      if (this.owner[e] === GAP) continue;
      const base = this.jStripBase[this.owner[e]!]!;
      const s0 = stripOf(e, Math.min(this.py[e]!, this.py[e + 1]!));
      const s1 = stripOf(e, Math.max(this.py[e]!, this.py[e + 1]!));
      for (let s = s0; s <= s1; s++) stripCount[base + s + 1]!++;
    }
    for (let s = 0; s < strips; s++) stripCount[s + 1]! += stripCount[s]!;
    this.stripStart = stripCount.slice();
    this.stripEdges = new Int32Array(stripCount[strips]!);
    const fill = stripCount.slice();
    for (let e = 0; e < edges; e++) {
      if (this.owner[e] === GAP) continue;
      const base = this.jStripBase[this.owner[e]!]!;
      const s0 = stripOf(e, Math.min(this.py[e]!, this.py[e + 1]!));
      const s1 = stripOf(e, Math.max(this.py[e]!, this.py[e + 1]!));
      for (let s = s0; s <= s1; s++) this.stripEdges[fill[base + s]!++] = e;
    }

    // Grids over the extent of all jurisdictions.
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let j = 0; j < n; j++) {
      minX = Math.min(minX, this.jMinX[j]!);
      minY = Math.min(minY, this.jMinY[j]!);
      maxX = Math.max(maxX, this.jMaxX[j]!);
      maxY = Math.max(maxY, this.jMaxY[j]!);
    }
    this.minX = Math.floor(minX / COARSE) * COARSE;
    this.minY = Math.floor(minY / COARSE) * COARSE;
    this.cols = Math.ceil((maxX - this.minX) / COARSE) + 1;
    this.rows = Math.ceil((maxY - this.minY) / COARSE) + 1;

    // Which fine cells each edge touches.
    const pairs = new IntList();
    const cellEdge = new IntList();
    const fineCols = this.cols * SUB;
    const fineRows = this.rows * SUB;
    for (let e = 0; e < edges; e++) {
      if (this.owner[e] === GAP) continue;
      const before = pairs.length;
      cellsOfSegment(
        (this.px[e]! - this.minX) / FINE,
        (this.py[e]! - this.minY) / FINE,
        (this.px[e + 1]! - this.minX) / FINE,
        (this.py[e + 1]! - this.minY) / FINE,
        pairs,
      );
      for (let k = before; k < pairs.length; k += 2) {
        const gx = pairs.data[k]!;
        const gy = pairs.data[k + 1]!;
        if (gx < 0 || gy < 0 || gx >= fineCols || gy >= fineRows) continue;
        cellEdge.push(gy * fineCols + gx);
        cellEdge.push(e);
      }
    }

    // Blocks: the coarse cells with edges.
    this.coarse = new Int32Array(this.cols * this.rows).fill(NONE);
    let blocks = 0;
    const blockCells = new IntList();
    for (let k = 0; k < cellEdge.length; k += 2) {
      const g = cellEdge.data[k]!;
      const c = Math.floor(Math.floor(g / fineCols) / SUB) * this.cols + Math.floor((g % fineCols) / SUB);
      if (this.coarse[c] === NONE) {
        this.coarse[c] = -2 - blocks++;
        blockCells.push(c);
      }
    }
    this.blockCell = blockCells.data.slice(0, blocks);
    // Per block, the jurisdictions whose bounding box meets it: the only ones a point test there can hit.
    const nearBlock: number[][] = [];
    for (let b = 0; b < blocks; b++) {
      const c = this.blockCell[b]!;
      const x0 = this.minX + (c % this.cols) * COARSE;
      const y0 = this.minY + Math.floor(c / this.cols) * COARSE;
      const list: number[] = [];
      for (let j = 0; j < n; j++) {
        if (this.jMaxX[j]! >= x0 && this.jMinX[j]! <= x0 + COARSE && this.jMaxY[j]! >= y0 && this.jMinY[j]! <= y0 + COARSE) list.push(j);
      }
      nearBlock.push(list);
    }
    const fineIndex = (g: number): number => {
      const gx = g % fineCols;
      const gy = Math.floor(g / fineCols);
      const block = -2 - this.coarse[Math.floor(gy / SUB) * this.cols + Math.floor(gx / SUB)]!;
      return block * SUB * SUB + (gy % SUB) * SUB + (gx % SUB);
    };
    const fineCells = blocks * SUB * SUB;
    const fineCount = new Int32Array(fineCells + 1);
    for (let k = 0; k < cellEdge.length; k += 2) fineCount[fineIndex(cellEdge.data[k]!) + 1]!++;
    for (let f = 0; f < fineCells; f++) fineCount[f + 1]! += fineCount[f]!;
    // Subcells with edges are numbered k = 0, 1, …; only they get edge and candidate lists.
    this.fine = new Int8Array(fineCells).fill(NONE);
    this.blockEdgeBase = new Int32Array(blocks);
    const edgeCells = new IntList();
    for (let f = 0; f < fineCells; f++) {
      const block = Math.floor(f / (SUB * SUB));
      if (f % (SUB * SUB) === 0) this.blockEdgeBase[block] = edgeCells.length;
      if (fineCount[f + 1]! > fineCount[f]!) {
        this.fine[f] = -2 - (edgeCells.length - this.blockEdgeBase[block]!);
        edgeCells.push(f);
      }
    }
    const withEdges = edgeCells.length;
    this.edgeStart = new Int32Array(withEdges + 1);
    for (let k = 0; k < withEdges; k++) this.edgeStart[k + 1] = fineCount[edgeCells.data[k]! + 1]!;
    this.fineEdges = new Int32Array(fineCount[fineCells]!);
    const at = fineCount.slice();
    for (let k = 0; k < cellEdge.length; k += 2) this.fineEdges[at[fineIndex(cellEdge.data[k]!)]!++] = cellEdge.data[k + 1]!;

    // Cells and subcells without edges: each connected group lies in one jurisdiction (or none), so one
    // point test per group classifies it.
    this.classifyGroups(nearBlock);
    // Coarse cells hold a jurisdiction (< 128) or −2 − block: 16 bits while the blocks are few.
    if (blocks < 32_000) this.coarse = Int16Array.from(this.coarse);

    // Candidates of the subcells with edges: the owners of their edges, and the jurisdiction holding the
    // whole subcell when it owns none of them (a Census state under a 1:50m Canadian outline's edge).
    const candStart = new Int32Array(withEdges + 1);
    const cand = new IntList();
    const here: number[] = [];
    for (let k = 0; k < withEdges; k++) {
      const f = edgeCells.data[k]!;
      here.length = 0;
      for (let i = this.edgeStart[k]!; i < this.edgeStart[k + 1]!; i++) {
        const j = this.owner[this.fineEdges[i]!]!;
        if (!here.includes(j)) here.push(j);
      }
      const [cx, cy] = this.fineCentre(f);
      for (const j of nearBlock[Math.floor(f / (SUB * SUB))]!) if (!here.includes(j) && this.inside(j, cx, cy)) here.push(j);
      here.sort((a, b) => a - b);
      for (const j of here) cand.push(j);
      candStart[k + 1] = cand.length;
    }
    this.candStart = candStart;
    this.cand = Uint8Array.from(cand.data.subarray(0, cand.length));
  }

  private fineCentre(f: number): [number, number] {
    return this.subCentre(this.blockCell[Math.floor(f / (SUB * SUB))]!, f % (SUB * SUB));
  }

  private subCentre(c: number, s: number): [number, number] {
    const cx = c % this.cols;
    const cy = Math.floor(c / this.cols);
    return [this.minX + cx * COARSE + ((s % SUB) + 0.5) * FINE, this.minY + cy * COARSE + (Math.floor(s / SUB) + 0.5) * FINE];
  }

  /** Flood-fills the edge-free cells and subcells and classifies each group by one point test. */
  private classifyGroups(nearBlock: readonly (readonly number[])[]): void {
    const coarseDone = new Uint8Array(this.coarse.length);
    const stack: number[] = [];
    const group: number[] = [];
    const done = new Uint8Array(SUB * SUB);
    for (let start = 0; start < this.coarse.length; start++) {
      if (coarseDone[start] || this.coarse[start] !== NONE) continue;
      group.length = 0;
      stack.push(start);
      coarseDone[start] = 1;
      while (stack.length) {
        const c = stack.pop()!;
        group.push(c);
        const x = c % this.cols;
        const y = Math.floor(c / this.cols);
        for (let d = 0; d < 4; d++) {
          const nx = x + DX[d]!;
          const ny = y + DY[d]!;
          if (nx < 0 || ny < 0 || nx >= this.cols || ny >= this.rows) continue;
          const k = ny * this.cols + nx;
          if (!coarseDone[k] && this.coarse[k] === NONE) {
            coarseDone[k] = 1;
            stack.push(k);
          }
        }
      }
      const j = this.locateSlow(this.minX + ((start % this.cols) + 0.5) * COARSE, this.minY + (Math.floor(start / this.cols) + 0.5) * COARSE);
      for (const c of group) this.coarse[c] = j;
    }
    // Subcells, group by group within each block.
    for (let c = 0; c < this.coarse.length; c++) {
      const v = this.coarse[c]!;
      if (v >= NONE) continue;
      const base = (-2 - v) * SUB * SUB;
      const near = nearBlock[-2 - v]!;
      done.fill(0);
      for (let s0 = 0; s0 < SUB * SUB; s0++) {
        if (done[s0] || this.fine[base + s0]! < NONE) continue;
        group.length = 0;
        stack.push(s0);
        done[s0] = 1;
        while (stack.length) {
          const s = stack.pop()!;
          group.push(s);
          const x = s % SUB;
          const y = Math.floor(s / SUB);
          for (let d = 0; d < 4; d++) {
            const nx = x + DX[d]!;
            const ny = y + DY[d]!;
            if (nx < 0 || ny < 0 || nx >= SUB || ny >= SUB) continue;
            const k = ny * SUB + nx;
            if (!done[k] && this.fine[base + k]! >= NONE) {
              done[k] = 1;
              stack.push(k);
            }
          }
        }
        const [px, py] = this.subCentre(c, s0);
        let j = NONE;
        for (const k of near) {
          if (this.inside(k, px, py)) {
            j = k;
            break;
          }
        }
        for (const s of group) this.fine[base + s] = j;
      }
    }
  }

  /** Ray cast to the east over jurisdiction j's edges in the point's latitude strip (even-odd rule). */
  inside(j: number, x: number, y: number): boolean {
    if (y < this.jMinY[j]! || y > this.jMaxY[j]! || x < this.jMinX[j]! || x > this.jMaxX[j]!) return false;
    const s = Math.min(this.jStrips[j]! - 1, Math.floor((y - this.jMinY[j]!) / STRIP));
    const base = this.jStripBase[j]! + s;
    let inside = false;
    for (let k = this.stripStart[base]!, end = this.stripStart[base + 1]!; k < end; k++) {
      const e = this.stripEdges[k]!;
      const y1 = this.py[e]!;
      const y2 = this.py[e + 1]!;
      if (y1 > y !== y2 > y) {
        const x1 = this.px[e]!;
        if (x < x1 + ((y - y1) * (this.px[e + 1]! - x1)) / (y2 - y1)) inside = !inside;
      }
    }
    return inside;
  }

  private locateSlow(x: number, y: number): number {
    for (let j = 0; j < this.count; j++) if (this.inside(j, x, y)) return j;
    return NONE;
  }

  /** The jurisdiction containing the point (index into the shapes given), or −1. */
  locate(lat: number, lon: number): number {
    const x = toX(lon);
    const gx = (x - this.minX) / COARSE;
    const gy = (lat - this.minY) / COARSE;
    if (!(gx >= 0 && gy >= 0 && gx < this.cols && gy < this.rows)) return NONE;
    const cx = Math.floor(gx);
    const cy = Math.floor(gy);
    const v = this.coarse[cy * this.cols + cx]!;
    if (v >= NONE) return v;
    const f = (-2 - v) * SUB * SUB + Math.min(SUB - 1, Math.floor((gy - cy) * SUB)) * SUB + Math.min(SUB - 1, Math.floor((gx - cx) * SUB));
    const w = this.fine[f]!;
    if (w >= NONE) return w;
    const sub = this.blockEdgeBase[-2 - v]! - 2 - w;
    for (let k = this.candStart[sub]!, end = this.candStart[sub + 1]!; k < end; k++) {
      const j = this.cand[k]!;
      if (this.inside(j, x, lat)) return j;
    }
    return NONE;
  }

  /**
   * A key of the cell or subcell holding the point when no boundary passes through it, else −1: a
   * segment between two points with the same key (≥ 0) crosses no border.
   */
  uniformCellKey(lat: number, lon: number): number {
    const x = toX(lon);
    const gx = (x - this.minX) / COARSE;
    const gy = (lat - this.minY) / COARSE;
    if (!(gx >= 0 && gy >= 0 && gx < this.cols && gy < this.rows)) return -1;
    const cx = Math.floor(gx);
    const cy = Math.floor(gy);
    const c = cy * this.cols + cx;
    const v = this.coarse[c]!;
    if (v >= NONE) return c;
    const f = (-2 - v) * SUB * SUB + Math.min(SUB - 1, Math.floor((gy - cy) * SUB)) * SUB + Math.min(SUB - 1, Math.floor((gx - cx) * SUB));
    return this.fine[f]! >= NONE ? this.coarse.length + f : -1;
  }

  /**
   * The nearest jurisdiction whose boundary is within `radiusM` metres of the point, and how far, or
   * null. Used for points in no polygon (lakes, coasts, slivers between datasets).
   */
  nearest(lat: number, lon: number, radiusM: number): { index: number; distanceM: number } | null {
    const x = toX(lon);
    const ky = 110_574;
    const kx = 111_320 * Math.cos((lat * Math.PI) / 180);
    const rx = Math.ceil(radiusM / (kx * FINE));
    const ry = Math.ceil(radiusM / (ky * FINE));
    const gx0 = Math.floor((x - this.minX) / FINE);
    const gy0 = Math.floor((lat - this.minY) / FINE);
    let best = NONE;
    let bestD2 = radiusM * radiusM;
    for (let gy = gy0 - ry; gy <= gy0 + ry; gy++) {
      if (gy < 0 || gy >= this.rows * SUB) continue;
      for (let gx = gx0 - rx; gx <= gx0 + rx; gx++) {
        if (gx < 0 || gx >= this.cols * SUB) continue;
        const v = this.coarse[Math.floor(gy / SUB) * this.cols + Math.floor(gx / SUB)]!;
        if (v >= NONE) continue;
        const w = this.fine[(-2 - v) * SUB * SUB + (gy % SUB) * SUB + (gx % SUB)]!;
        if (w >= NONE) continue;
        const sub = this.blockEdgeBase[-2 - v]! - 2 - w;
        for (let k = this.edgeStart[sub]!, end = this.edgeStart[sub + 1]!; k < end; k++) {
          const e = this.fineEdges[k]!;
          const ax = (this.px[e]! - x) * kx;
          const ay = (this.py[e]! - lat) * ky;
          const dx = (this.px[e + 1]! - this.px[e]!) * kx;
          const dy = (this.py[e + 1]! - this.py[e]!) * ky;
          const len2 = dx * dx + dy * dy;
          const t = len2 > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2)) : 0;
          const px = ax + t * dx;
          const py = ay + t * dy;
          const d2 = px * px + py * py;
          if (d2 < bestD2 || (d2 === bestD2 && best !== NONE && this.owner[e]! < best)) {
            bestD2 = d2;
            best = this.owner[e]!;
          }
        }
      }
    }
    return best === NONE ? null : { index: best, distanceM: Math.sqrt(bestD2) };
  }

  /**
   * Where the straight (in longitude and latitude) segment from a to b crosses boundary edges, as
   * fractions 0…1 of the way, appended to `out` unsorted (an edge two jurisdictions share appears twice).
   */
  crossings(aLat: number, aLon: number, bLat: number, bLon: number, out: number[]): void {
    const ax = toX(aLon);
    let bx = toX(bLon);
    // A pair straddling the antimeridian goes the short way.
    if (bx - ax > 180) bx -= 360;
    else if (ax - bx > 180) bx += 360;
    const cells = this.scratch;
    cells.length = 0;
    cellsOfSegment((ax - this.minX) / FINE, (aLat - this.minY) / FINE, (bx - this.minX) / FINE, (bLat - this.minY) / FINE, cells);
    const dx = bx - ax;
    const dy = bLat - aLat;
    for (let k = 0; k < cells.length; k += 2) {
      const gx = cells.data[k]!;
      const gy = cells.data[k + 1]!;
      if (gx < 0 || gy < 0 || gx >= this.cols * SUB || gy >= this.rows * SUB) continue;
      const v = this.coarse[Math.floor(gy / SUB) * this.cols + Math.floor(gx / SUB)]!;
      if (v >= NONE) continue;
      const w = this.fine[(-2 - v) * SUB * SUB + (gy % SUB) * SUB + (gx % SUB)]!;
      if (w >= NONE) continue;
      const sub = this.blockEdgeBase[-2 - v]! - 2 - w;
      for (let i = this.edgeStart[sub]!, end = this.edgeStart[sub + 1]!; i < end; i++) {
        const e = this.fineEdges[i]!;
        const t = segmentHit(ax, aLat, dx, dy, this.px[e]!, this.py[e]!, this.px[e + 1]!, this.py[e + 1]!);
        if (t >= 0) out.push(t);
      }
    }
  }

  /** Every boundary edge as [x1, y1, x2, y2, owner], for the brute-force references and tests. */
  edgeList(): Array<[number, number, number, number, number]> {
    const out: Array<[number, number, number, number, number]> = [];
    this.owner.forEach((j, e) => {
      if (j !== GAP) out.push([this.px[e]!, this.py[e]!, this.px[e + 1]!, this.py[e + 1]!, j]);
    });
    return out;
  }
}

/** Fraction along segment (ax, ay) + t·(dx, dy) where it meets edge (x1, y1)–(x2, y2), or −1. */
export function segmentHit(ax: number, ay: number, dx: number, dy: number, x1: number, y1: number, x2: number, y2: number): number {
  const ex = x2 - x1;
  const ey = y2 - y1;
  const denom = dx * ey - dy * ex;
  if (denom === 0) return -1; // parallel: a track along a border edge; the pieces' midpoints decide
  const qx = x1 - ax;
  const qy = y1 - ay;
  const t = (qx * ey - qy * ex) / denom;
  const u = (qx * dy - qy * dx) / denom;
  return t >= 0 && t <= 1 && u >= 0 && u <= 1 ? t : -1;
}

/** Reference for {@link BoundaryIndex.locate}: a ray cast over every edge of every jurisdiction. */
export function locateBruteForce(edges: ReadonlyArray<readonly [number, number, number, number, number]>, count: number, lat: number, lon: number): number {
  const x = toX(lon);
  const inside = new Array<boolean>(count).fill(false);
  for (const [x1, y1, x2, y2, j] of edges) {
    if (y1 > lat !== y2 > lat && x < x1 + ((lat - y1) * (x2 - x1)) / (y2 - y1)) inside[j] = !inside[j];
  }
  return inside.indexOf(true);
}
