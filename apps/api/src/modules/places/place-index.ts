import Flatbush from 'flatbush';
import type { PlaceCategory, PlaceGeometry } from '@fleet/api-contract';
import { bboxOf, contains, type Bbox } from './place-geometry.ts';

// The spatial index of one organization's places (decision 0162): a packed R-tree (flatbush) of
// their bounding boxes answers which boxes hold a fix, then each candidate's exact shape decides.
// `placesAtLinear` is the plain reference the index is tested against.

/** What the geofence follower needs of a place. */
export interface IndexedPlace {
  id: string;
  name: string;
  category: PlaceCategory;
  groupId: string | null;
  geometry: PlaceGeometry;
  radiusM: number | null;
  arrivalDwellS: number;
  departureDwellS: number;
}

export class PlaceIndex {
  readonly places: readonly IndexedPlace[];
  private readonly boxes: Bbox[];
  private readonly tree: Flatbush | null;
  readonly byId: ReadonlyMap<string, IndexedPlace>;

  constructor(places: readonly IndexedPlace[]) {
    this.places = places;
    this.boxes = places.map((p) => bboxOf(p.geometry, p.radiusM));
    this.byId = new Map(places.map((p) => [p.id, p]));
    if (places.length === 0) {
      this.tree = null;
      return;
    }
    const tree = new Flatbush(places.length);
    for (const b of this.boxes) tree.add(b.minLon, b.minLat, b.maxLon, b.maxLat);
    tree.finish();
    this.tree = tree;
  }

  get size(): number {
    return this.places.length;
  }

  /** The places whose shape holds the point (degrees), in index order. */
  placesAt(lat: number, lon: number): IndexedPlace[] {
    if (!this.tree) return [];
    const hits = this.tree.search(lon, lat, lon, lat);
    if (hits.length > 1) hits.sort((a, b) => a - b);
    const out: IndexedPlace[] = [];
    for (const i of hits) {
      const p = this.places[i]!;
      if (contains(p.geometry, p.radiusM, lat, lon)) out.push(p);
    }
    return out;
  }

  /** The same answer by testing every place (the reference the index is compared with). */
  placesAtLinear(lat: number, lon: number): IndexedPlace[] {
    const out: IndexedPlace[] = [];
    for (const p of this.places) if (contains(p.geometry, p.radiusM, lat, lon)) out.push(p);
    return out;
  }
}
