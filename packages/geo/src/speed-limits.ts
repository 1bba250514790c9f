import { highwayNetwork } from './highway-route.ts';
import { locateJurisdiction } from './jurisdictions.ts';
import { bundledPlaces } from './places.ts';
import { SPEED_LIMITS, SPEED_LIMITS_SOURCE, type SpeedLimitClass } from './speed-limits-data.ts';

// The speed limit at a fix, offline (issue 47, docs/decisions/0194): the state's or province's legal
// default for the road class there, for a car or a truck, from the OSM wiki's default-speed table
// (speed-limits-data.ts). The road class is what the bundled data can tell: on the bundled Natural
// Earth major roads (interstates and main US highways, within ROAD_SNAP_M of a line) or off them, and
// inside a town (within a radius growing with its population) or not. The class and the jurisdiction
// are kept per cell of CELL_DEG, so a fix costs a map probe; a cell is worked out the first time a fix
// falls in it.

export { SPEED_LIMITS_SOURCE };
export type { SpeedLimitClass };

/** A fix within this distance of a bundled road line is on it (Natural Earth is a few hundred metres off the true road). */
export const ROAD_SNAP_M = 400;
/** Cells of about 280 m by 200 m at 40° N. */
const CELL_DEG = 0.0025;
const M_PER_DEG_LAT = 110_574;
const TOWN_CELL_DEG = 0.1;
const ROAD_CELL_DEG = 0.02;

/** The limit at a point and where it comes from ("Illinois default, rural road, trucks"). */
export interface SpeedLimit {
  kph: number;
  source: string;
  roadClass: SpeedLimitClass;
  jurisdiction: string;
}

const CLASS_WORDS: Record<SpeedLimitClass, string> = {
  HIGHWAY_RURAL: 'rural highway',
  HIGHWAY_URBAN: 'urban highway',
  ROAD_RURAL: 'rural road',
  ROAD_URBAN: 'urban road',
};

const NAMES: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  AB: 'Alberta',
  BC: 'British Columbia',
  MB: 'Manitoba',
  NB: 'New Brunswick',
  NL: 'Newfoundland and Labrador',
  NS: 'Nova Scotia',
  NT: 'Northwest Territories',
  NU: 'Nunavut',
  ON: 'Ontario',
  PE: 'Prince Edward Island',
  QC: 'Quebec',
  SK: 'Saskatchewan',
  YT: 'Yukon',
};

const CLASSES: readonly SpeedLimitClass[] = ['HIGHWAY_RURAL', 'HIGHWAY_URBAN', 'ROAD_RURAL', 'ROAD_URBAN'];

/** A town's radius in metres: 1 km, plus 1.5 km per square root of 100,000 people (Chicago: about 9 km). */
export const townRadiusM = (population: number): number => 1000 + 1500 * Math.sqrt(population / 100_000);

export class SpeedLimitIndex {
  /** Per jurisdiction (by index) and class, [car, truck] limits with their words, built once. */
  private readonly rows: Array<Array<{ car: SpeedLimit; truck: SpeedLimit } | null>> = [];
  private readonly rowOf = new Map<string, number>();
  /** Road-line segments: [ax, ay, bx, by] in degrees, flattened. */
  private readonly segmentCoords: Float64Array;
  /** The segments (their numbers in segmentCoords) by ROAD_CELL_DEG grid cell. */
  private readonly segments: PackedGrid<Int32Array>;
  /** Towns by TOWN_CELL_DEG cell: lat, lon, radius (m). */
  private readonly towns: PackedGrid<Float64Array>;
  /**
   * Per fine cell, worked out on first use: the class (bits 0-1, 0-3 in CLASSES' order) and, on the
   * bundled roads, the jurisdiction at the cell's centre (bits 2 and up: its row + 1; 0 none). A fix
   * then costs one map probe; a cell on a border takes its centre's jurisdiction (cells are ~250 m).
   */
  private readonly cells = new Map<number, number>();

  constructor() {
    for (const [code, row] of Object.entries(SPEED_LIMITS)) {
      const name = NAMES[code] ?? code;
      this.rowOf.set(code, this.rows.length);
      this.rows.push(
        CLASSES.map((cls) => {
          const v = row[cls];
          if (!v) return null;
          const words = `${name} default, ${CLASS_WORDS[cls]} (${v[2]})`;
          return {
            car: { kph: v[0], source: words, roadClass: cls, jurisdiction: code },
            truck: { kph: v[1], source: v[1] < v[0] ? `${words}, trucks` : words, roadClass: cls, jurisdiction: code },
          };
        }),
      );
    }
    const coords: number[] = [];
    const segments = new Map<number, number[]>();
    for (const piece of highwayNetwork().pieces) {
      for (let i = 1; i < piece.points.length; i++) {
        const [ax, ay] = piece.points[i - 1]!;
        const [bx, by] = piece.points[i]!;
        const segment = coords.push(ax, ay, bx, by) / 4 - 1;
        // Every coarse cell the segment's box (grown by the snap distance) touches.
        const pad = 0.01;
        for (let gx = Math.floor((Math.min(ax, bx) - pad) / ROAD_CELL_DEG); gx <= Math.floor((Math.max(ax, bx) + pad) / ROAD_CELL_DEG); gx++) {
          for (let gy = Math.floor((Math.min(ay, by) - pad) / ROAD_CELL_DEG); gy <= Math.floor((Math.max(ay, by) + pad) / ROAD_CELL_DEG); gy++) {
            const k = gx * 100_000 + gy;
            let list = segments.get(k);
            if (!list) segments.set(k, (list = []));
            list.push(segment);
          }
        }
      }
    }
    this.segmentCoords = Float64Array.from(coords);
    this.segments = new PackedGrid(segments, Int32Array);
    const towns = new Map<number, number[]>();
    for (const p of bundledPlaces()) {
      const r = townRadiusM(p.population);
      const rDeg = r / M_PER_DEG_LAT / Math.cos((p.lat * Math.PI) / 180) + 0.001;
      for (let gx = Math.floor((p.lon - rDeg) / TOWN_CELL_DEG); gx <= Math.floor((p.lon + rDeg) / TOWN_CELL_DEG); gx++) {
        for (let gy = Math.floor((p.lat - rDeg) / TOWN_CELL_DEG); gy <= Math.floor((p.lat + rDeg) / TOWN_CELL_DEG); gy++) {
          const k = gx * 100_000 + gy;
          let list = towns.get(k);
          if (!list) towns.set(k, (list = []));
          list.push(p.lat, p.lon, r);
        }
      }
    }
    this.towns = new PackedGrid(towns, Float64Array);
  }

  /** The limit at the point for a car or a truck (`heavy`), or null: outside the US and Canada, off the bundled roads, or no figure for the road class there. */
  at(lat: number, lon: number, heavy: boolean): SpeedLimit | null {
    const v = this.cellAt(lat, lon);
    // Off the bundled roads (class 2): a street, a country road, or a highway the bundle lacks (it
    // holds the demo network's roads only). The urban default (25-30 mph) or the rural one (55 mph in
    // most states) would call every truck on such an interstate a speeder, so the limit is unknown
    // there (decisions 0194 and 0200): no speeding event, the fleet's maximum still applies.
    const row = v >> 2;
    if (row === 0) return null;
    const entry = this.rows[row - 1]![v & 3];
    return entry ? (heavy ? entry.truck : entry.car) : null;
  }

  /** The road class at a point (0-3 in CLASSES' order; off the bundled roads 2, in a town or not), from its cell. */
  classAt(lat: number, lon: number): number {
    return this.cellAt(lat, lon) & 3;
  }

  private cellAt(lat: number, lon: number): number {
    const cx = Math.floor(lon / CELL_DEG);
    const cy = Math.floor(lat / CELL_DEG);
    const key = cx * 1_000_000 + cy;
    let c = this.cells.get(key);
    if (c === undefined) {
      const clat = (cy + 0.5) * CELL_DEG;
      const clon = (cx + 0.5) * CELL_DEG;
      // Off the bundled roads nothing is judged (decision 0200): the town and the jurisdiction are
      // looked up on them only.
      if (!this.nearRoad(clat, clon)) c = 2;
      else {
        const j = locateJurisdiction(clat, clon, 500);
        const row = j ? this.rowOf.get(j.jurisdiction.code) : undefined;
        c = (this.inTown(clat, clon) ? 1 : 0) + (row === undefined ? 0 : (row + 1) << 2);
      }
      // A long-running process forgets the cells now and then rather than grow without end.
      if (this.cells.size > 4_000_000) this.cells.clear();
      this.cells.set(key, c);
    }
    return c;
  }

  /**
   * Forgets the fine cells worked out so far (each is worked out again on its next use, the same).
   * A first start's history fills 70,000 of them (2.6 MB) that a live fleet does not visit again.
   */
  forgetCells(): void {
    this.cells.clear();
  }

  /** The road class's name at a point (off the bundled roads: ROAD_RURAL, town or not). */
  roadClassAt(lat: number, lon: number): SpeedLimitClass {
    return CLASSES[this.classAt(lat, lon)]!;
  }

  private nearRoad(lat: number, lon: number): boolean {
    const { values, starts } = this.segments;
    const cell = this.segments.find(Math.floor(lon / ROAD_CELL_DEG) * 100_000 + Math.floor(lat / ROAD_CELL_DEG));
    if (cell < 0) return false;
    const c = this.segmentCoords;
    const kx = M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180);
    const limit2 = ROAD_SNAP_M * ROAD_SNAP_M;
    for (let j = starts[cell]!; j < starts[cell + 1]!; j++) {
      const i = values[j]! * 4;
      // Planar metres around the point: fine at this scale.
      const ax = (c[i]! - lon) * kx;
      const ay = (c[i + 1]! - lat) * M_PER_DEG_LAT;
      const bx = (c[i + 2]! - lon) * kx;
      const by = (c[i + 3]! - lat) * M_PER_DEG_LAT;
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
      const px = ax + t * dx;
      const py = ay + t * dy;
      if (px * px + py * py <= limit2) return true;
    }
    return false;
  }

  private inTown(lat: number, lon: number): boolean {
    const { values: list, starts } = this.towns;
    const cell = this.towns.find(Math.floor(lon / TOWN_CELL_DEG) * 100_000 + Math.floor(lat / TOWN_CELL_DEG));
    if (cell < 0) return false;
    const kx = M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180);
    for (let i = starts[cell]!; i < starts[cell + 1]!; i += 3) {
      const dx = (list[i + 1]! - lon) * kx;
      const dy = (list[i]! - lat) * M_PER_DEG_LAT;
      const r = list[i + 2]!;
      if (dx * dx + dy * dy <= r * r) return true;
    }
    return false;
  }
}

/**
 * Lists of numbers by grid cell, packed: the cells' keys sorted, where each cell's run of values
 * starts, and the runs end to end. As a Map of arrays the road segments' grid was 58,000 arrays and
 * 14 MB of the idle server's heap; packed it is about 1 MB of typed arrays. A cell is found by binary
 * search, only when the fine cell cache above misses.
 */
class PackedGrid<V extends Int32Array | Float64Array> {
  private readonly keys: Int32Array;
  /** Cell i's values are values[starts[i]] up to values[starts[i + 1]]. */
  readonly starts: Int32Array;
  readonly values: V;

  /** `lists`' keys must be 32-bit integers. */
  constructor(lists: Map<number, number[]>, Values: new (length: number) => V) {
    this.keys = Int32Array.from(lists.keys()).sort();
    this.starts = new Int32Array(this.keys.length + 1);
    for (let i = 0; i < this.keys.length; i++) this.starts[i + 1] = this.starts[i]! + lists.get(this.keys[i]!)!.length;
    this.values = new Values(this.starts[this.keys.length]!);
    for (let i = 0; i < this.keys.length; i++) this.values.set(lists.get(this.keys[i]!)!, this.starts[i]!);
  }

  /** The cell's number, or -1 when it has no values. */
  find(key: number): number {
    let lo = 0;
    let hi = this.keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const k = this.keys[mid]!;
      if (k < key) lo = mid + 1;
      else if (k > key) hi = mid - 1;
      else return mid;
    }
    return -1;
  }
}

let shared: SpeedLimitIndex | null = null;

/** The one index of the process (built on first use: about 50 ms). */
export function speedLimitIndex(): SpeedLimitIndex {
  shared ??= new SpeedLimitIndex();
  return shared;
}

/** Forgets the shared index's fine cells, if it was built (see SpeedLimitIndex.forgetCells). */
export function forgetSpeedLimitCells(): void {
  shared?.forgetCells();
}

/** The limit at a point for a car or a truck (see SpeedLimitIndex.at). */
export function speedLimitAt(lat: number, lon: number, heavy: boolean): SpeedLimit | null {
  return speedLimitIndex().at(lat, lon, heavy);
}
