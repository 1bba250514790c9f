import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Layer, Source, type MapLayerMouseEvent, type MapRef } from 'react-map-gl/maplibre';
import type { Map as MaplibreMap } from 'maplibre-gl';
import type { Place } from '@fleet/api-contract';
import { BaseMapFrame } from '../../lib/map/base-map-frame.tsx';
import { placeLabelsToGeoJSON, placeLayers, placesToGeoJSON } from '../../lib/map/place-shapes.ts';
import { boundedShape, startPlaceDraw, type DrawMode, type EditShape, type PlaceDraw } from './place-draw.ts';

const SOURCE = 'places';
const OWN_SOURCES = [SOURCE, `${SOURCE}-labels`];
const US_VIEW = { longitude: -96, latitude: 39, zoom: 3.3 };

/** What the map edits: the drawing mode ('point' waits for a click that becomes a circle's centre) and the shape. */
export interface PlaceMapEditor {
  mode: DrawMode | 'point';
  shape: EditShape | null;
  onShape: (shape: EditShape | null) => void;
  /** The radius a point click starts with, metres. */
  pointRadiusM: number;
}

export interface PlaceMapProps {
  places: readonly Place[];
  /** Click on a place's shape (not while editing). */
  onPlaceClick?: (id: string) => void;
  /** The visible area after each move, `minLon,minLat,maxLon,maxLat`. */
  onBoundsChange?: (bbox: string) => void;
  /** Fit the view to these bounds whenever they change. */
  fitBounds?: [number, number, number, number] | null;
  editor?: PlaceMapEditor | null;
  /** Accessible name of the map region. */
  label: string;
  height?: number | string | { base: number | string; sm?: number | string; md?: number | string };
  children?: ReactNode;
}

const bboxOf = (map: MaplibreMap) => {
  const b = map.getBounds();
  const c = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v)).toFixed(5);
  return [c(b.getWest(), -180, 180), c(b.getSouth(), -90, 90), c(b.getEast(), -180, 180), c(b.getNorth(), -90, 90)].join(',');
};

/**
 * Places on a base map, with an optional editor: terra-draw (decision 0164) draws and edits one
 * circle or polygon; in 'point' mode a click puts a circle of the given radius there. The places
 * being edited are left out by the caller. A base-map change remounts the map (terra-draw's layers
 * do not survive a style swap) and the shape is put back from the editor's state.
 */
export function PlaceMap({ places, onPlaceClick, onBoundsChange, fitBounds, editor, label, height = { base: 320, sm: 520 }, children }: PlaceMapProps) {
  const mapRef = useRef<MapRef>(null);
  const drawRef = useRef<PlaceDraw | null>(null);
  const [map, setMap] = useState<MaplibreMap | null>(null);
  /** The drawing mode the map has actually taken (shown as data-draw-mode): clicks before it draw nothing. */
  const [drawing, setDrawing] = useState<{ ready: boolean; mode: string | null }>({ ready: false, mode: null });
  const editorRef = useRef(editor);
  editorRef.current = editor;
  const editing = !!editor;

  const fills = useMemo(() => placesToGeoJSON(places), [places]);
  const labels = useMemo(() => placeLabelsToGeoJSON(places), [places]);
  const layers = useMemo(() => placeLayers(SOURCE), []);

  /** The last shape the map itself reported: the editor hands it back, and it must not be redrawn. */
  const fromMap = useRef<EditShape | null>(null);
  // Drawing lives while the map does and an editor is open.
  useEffect(() => {
    if (!map || !editing) return;
    const draw = startPlaceDraw(
      map,
      (s) => {
        const bounded = boundedShape(s);
        // A circle beyond the radius limits goes to the editor bounded; not being the map's own shape,
        // it is then redrawn on the map at that radius (the effect below).
        fromMap.current = bounded === s ? s : null;
        editorRef.current?.onShape(bounded);
      },
      () => setDrawing((d) => ({ ...d, ready: true })),
    );
    drawRef.current = draw;
    draw.setShape(editorRef.current?.shape ?? null);
    return () => {
      drawRef.current = null;
      setDrawing({ ready: false, mode: null });
      draw.stop();
    };
  }, [map, editing]);

  // A shape typed in the form (or a place opened for editing) replaces the drawn one; the map's own
  // edits come back through onShape with the same values, so they do not loop.
  const shape = editor?.shape ?? null;
  const mode = editor?.mode ?? null;
  useEffect(() => {
    const draw = drawRef.current;
    if (!draw) return;
    if (mode === 'polygon' || mode === 'circle') {
      draw.setMode(mode);
      if (drawing.ready) setDrawing((d) => (d.mode === mode ? d : { ...d, mode }));
      return;
    }
    if (drawing.ready) setDrawing((d) => (d.mode === 'select' ? d : { ...d, mode: 'select' }));
    if (shape !== fromMap.current) draw.setShape(shape);
    fromMap.current = shape;
  }, [shape, mode, map, drawing.ready]);

  useEffect(() => {
    if (!fitBounds || !map) return;
    const [w, s, e, n] = fitBounds;
    map.fitBounds([w, s, e, n], { padding: 48, duration: 500, maxZoom: 16 });
  }, [fitBounds, map]);

  const onClick = useCallback(
    (e: MapLayerMouseEvent) => {
      const ed = editorRef.current;
      if (ed?.mode === 'point') {
        ed.onShape({ kind: 'circle', center: [Math.round(e.lngLat.lng * 1e6) / 1e6, Math.round(e.lngLat.lat * 1e6) / 1e6], radiusM: ed.pointRadiusM });
        return;
      }
      if (ed) return;
      const id = (e.features?.[0]?.properties as { id?: string } | undefined)?.id;
      if (id) onPlaceClick?.(id);
    },
    [onPlaceClick],
  );

  return (
    <BaseMapFrame
      label={label}
      testId="place-map"
      h={height}
      ownSources={OWN_SOURCES}
      initialViewState={US_VIEW}
      mapRef={mapRef}
      onMapLoad={(m) => {
        setMap(m);
        onBoundsChange?.(bboxOf(m));
      }}
      mapProps={{
        interactiveLayerIds: editing ? [] : [`${SOURCE}-fill`, `${SOURCE}-dots`],
        onClick,
        cursor: editor?.mode === 'point' ? 'crosshair' : undefined,
        onMoveEnd: (e) => onBoundsChange?.(bboxOf(e.target)),
      }}
      data={{ 'data-draw-mode': drawing.mode ?? undefined }}
      overlay={children}
    >
      <Source id={SOURCE} type="geojson" data={fills}>
        <Layer {...layers[0]!} />
        <Layer {...layers[1]!} />
      </Source>
      <Source id={`${SOURCE}-labels`} type="geojson" data={labels}>
        <Layer {...layers[2]!} />
        <Layer {...layers[3]!} />
      </Source>
    </BaseMapFrame>
  );
}
