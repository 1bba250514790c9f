import type { Map as MaplibreMap } from 'maplibre-gl';
import type { Polygon } from 'geojson';
import { TerraDraw, TerraDrawCircleMode, TerraDrawPolygonMode, TerraDrawSelectMode, type GeoJSONStoreFeatures, type HexColor } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { PLACE_RADIUS_LIMITS } from '@fleet/api-contract/places';
import { circleFromRing, circleRing } from '../../lib/map/place-shapes.ts';

// The place editor's drawing on the map, through terra-draw (decision 0164): one shape at a time,
// a polygon or a circle, drawn with the pointer and then edited in select mode (drag the shape,
// drag or delete corners, resize a circle from its edge). The editor's state is a plain shape
// (`EditShape`); this module turns it into terra-draw features and back.

type LonLat = [number, number];

/** The shape being drawn or edited: a circle (centre and radius in metres) or a polygon's closed ring. */
export type EditShape = { kind: 'circle'; center: LonLat; radiusM: number } | { kind: 'polygon'; ring: LonLat[] };

export type DrawMode = 'polygon' | 'circle' | 'select';

const COLOR = '#1971c2' as HexColor;
const EDGE = '#ffffff' as HexColor;

/** A terra-draw feature (circle or polygon) as an editor shape; null for anything else. */
export function shapeOfFeature(f: GeoJSONStoreFeatures | undefined): EditShape | null {
  if (!f || f.geometry.type !== 'Polygon') return null;
  const ring = (f.geometry as Polygon).coordinates[0] as LonLat[] | undefined;
  if (!ring || ring.length < 4) return null;
  if (f.properties.mode === 'circle') {
    const { center, radiusM } = circleFromRing(ring);
    return { kind: 'circle', center, radiusM };
  }
  return { kind: 'polygon', ring: ring.map(([lon, lat]) => [Math.round(lon * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6] as LonLat) };
}

/**
 * The shape with a circle's radius held to the contract's limits (the same shape when it is within
 * them). A circle dragged out at the whole-country zoom spans hundreds of kilometres: it is bounded
 * as it is drawn, not refused on save.
 */
export function boundedShape(shape: EditShape | null): EditShape | null {
  if (shape?.kind !== 'circle') return shape;
  const radiusM = Math.min(PLACE_RADIUS_LIMITS.max, Math.max(PLACE_RADIUS_LIMITS.min, shape.radiusM));
  return radiusM === shape.radiusM ? shape : { ...shape, radiusM };
}

/**
 * Starts drawing on `map`: `onShape` hears every finished drawing and every finished edit (a drag's
 * end, a corner moved or deleted), `onReady` when it takes the pointer. Returns the controls the editor uses; `stop()` removes it all.
 */
export function startPlaceDraw(map: MaplibreMap, onShape: (shape: EditShape | null) => void, onReady?: () => void) {
  const draw = new TerraDraw({
    adapter: new TerraDrawMapLibreGLAdapter({ map, prefixId: 'place-draw' }),
    modes: [
      new TerraDrawPolygonMode({
        styles: { fillColor: COLOR, fillOpacity: 0.2, outlineColor: COLOR, outlineWidth: 2, closingPointColor: COLOR, closingPointOutlineColor: EDGE },
      }),
      new TerraDrawCircleMode({ styles: { fillColor: COLOR, fillOpacity: 0.2, outlineColor: COLOR, outlineWidth: 2 } }),
      new TerraDrawSelectMode({
        flags: {
          polygon: { feature: { draggable: true, coordinates: { midpoints: true, draggable: true, deletable: true } } },
          circle: { feature: { draggable: true, coordinates: { resizable: 'center' } } },
        },
        styles: {
          selectedPolygonColor: COLOR,
          selectedPolygonFillOpacity: 0.25,
          selectedPolygonOutlineColor: COLOR,
          selectedPolygonOutlineWidth: 3,
          selectionPointColor: COLOR,
          selectionPointOutlineColor: EDGE,
          midPointColor: COLOR,
        },
      }),
    ],
  });
  // Clicks before the adapter is ready draw nothing: the map says when it is (and tests wait for it).
  if (onReady) draw.on('ready', onReady);
  draw.start();

  /** True while the editor itself replaces the shape: that is no user edit to report back. */
  let quiet = false;
  const current = () => draw.getSnapshot().find((f) => f.properties.mode === 'circle' || f.properties.mode === 'polygon');
  draw.on('finish', (id) => {
    // A finished drawing replaces any earlier shape: a place has one.
    const others = draw.getSnapshot().filter((f) => f.id !== id && (f.properties.mode === 'circle' || f.properties.mode === 'polygon'));
    if (others.length) draw.removeFeatures(others.map((f) => f.id!));
    const f = draw.getSnapshotFeature(id);
    onShape(shapeOfFeature(f));
    if (draw.getMode() !== 'select') {
      draw.setMode('select');
      if (f?.id !== undefined) draw.selectFeature(f.id);
    }
  });

  draw.on('change', (_ids, type) => {
    // Delete (the key, in select mode) removes the shape: the form must not keep it.
    if (!quiet && type === 'delete' && !current()) onShape(null);
  });

  /** Removes the drawn shape and adds `shape` (editable, selected). */
  function replace(shape: EditShape | null) {
    const old = draw.getSnapshot().filter((f) => f.properties.mode === 'circle' || f.properties.mode === 'polygon');
    if (draw.getMode() !== 'select') draw.setMode('select');
    if (old.length) draw.removeFeatures(old.map((f) => f.id!));
    if (!shape) return;
    const id = draw.getFeatureId();
    const feature: GeoJSONStoreFeatures =
      shape.kind === 'circle'
        ? {
            id,
            type: 'Feature',
            geometry: { type: 'Polygon', coordinates: [circleRing(shape.center, shape.radiusM)] },
            properties: { mode: 'circle', radiusKilometers: shape.radiusM / 1000 },
          }
        : { id, type: 'Feature', geometry: { type: 'Polygon', coordinates: [shape.ring] }, properties: { mode: 'polygon' } };
    const [result] = draw.addFeatures([feature]);
    if (result?.valid) draw.selectFeature(id);
  }

  return {
    setMode(mode: DrawMode) {
      draw.setMode(mode);
      const f = current();
      if (mode === 'select' && f?.id !== undefined && !f.properties.selected) draw.selectFeature(f.id);
    },
    /** Replaces the drawn shape with `shape` (a typed centre or radius, an existing place), editable. */
    setShape(shape: EditShape | null) {
      quiet = true;
      try {
        replace(shape);
      } finally {
        quiet = false;
      }
    },
    stop() {
      try {
        draw.stop();
      } catch {
        // The map is already gone (unmounted): nothing left to remove.
      }
    },
  };
}

export type PlaceDraw = ReturnType<typeof startPlaceDraw>;
