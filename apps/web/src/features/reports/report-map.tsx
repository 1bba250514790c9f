import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { Layer, Source } from 'react-map-gl/maplibre';
import type { FeatureCollection, LineString, Point, Polygon } from 'geojson';
import type { Map as MaplibreMap } from 'maplibre-gl';
import { BaseMapFrame } from '../../lib/map/base-map-frame.tsx';

const LINES = 'report-lines';
const POINTS = 'report-points';
const AREAS = 'report-areas';
const OWN_SOURCES = [LINES, POINTS, AREAS];
const US_VIEW = { longitude: -96, latitude: 39, zoom: 3.3 };
/** Distinct line colours for the trips on screen (the selected one is drawn wider on top). */
export const TRIP_COLORS = ['#1c7ed6', '#7048e8', '#2f9e44', '#e8590c', '#c2255c', '#0c8599', '#5c940d', '#862e9c'];

export interface ReportMapData {
  lines?: FeatureCollection<LineString, { id: string; color: string }>;
  points?: FeatureCollection<Point, { id: string; color: string }>;
  areas?: FeatureCollection<Polygon, { id: string; color: string }>;
}

function boundsOf(d: ReportMapData): [number, number, number, number] | null {
  let [w, s, e, n] = [180, 90, -180, -90];
  const add = (c: number[]) => {
    w = Math.min(w, c[0]!);
    e = Math.max(e, c[0]!);
    s = Math.min(s, c[1]!);
    n = Math.max(n, c[1]!);
  };
  d.lines?.features.forEach((f) => f.geometry.coordinates.forEach(add));
  d.points?.features.forEach((f) => add(f.geometry.coordinates));
  d.areas?.features.forEach((f) => f.geometry.coordinates[0]?.forEach(add));
  return w <= e ? [w, s, e, n] : null;
}

/** A report's rows on a map: trips as lines, stops and visits as points, places as areas; the selected row stands out. */
export function ReportMap({ data, selectedId, label }: { data: ReportMapData; selectedId: string | null; label: string }) {
  const [map, setMap] = useState<MaplibreMap | null>(null);
  const bounds = useMemo(() => boundsOf(data), [data]);
  const key = bounds?.join(',') ?? '';
  const fit = useEffectEvent((map: MaplibreMap) => {
    if (bounds) map.fitBounds(bounds, { padding: 40, duration: 400, maxZoom: 13 });
  });
  // Refit only when the area changes (`key`), not on every refetch of the same rows.
  useEffect(() => {
    if (map) fit(map);
  }, [map, key]);
  const sel = selectedId ?? '';
  const empty = { type: 'FeatureCollection' as const, features: [] };
  return (
    <BaseMapFrame label={label} testId="report-map" h={{ base: 280, sm: 360 }} ownSources={OWN_SOURCES} initialViewState={US_VIEW} onMapLoad={setMap}>
      <Source id={AREAS} type="geojson" data={data.areas ?? empty}>
        <Layer
          id="report-areas-fill"
          type="fill"
          paint={{ 'fill-color': ['get', 'color'], 'fill-opacity': ['case', ['==', ['get', 'id'], sel], 0.35, 0.15] }}
        />
        <Layer id="report-areas-line" type="line" paint={{ 'line-color': ['get', 'color'], 'line-width': 2 }} />
      </Source>
      <Source id={LINES} type="geojson" data={data.lines ?? empty}>
        <Layer
          id="report-lines-casing"
          type="line"
          layout={{ 'line-cap': 'round', 'line-join': 'round' }}
          paint={{ 'line-color': '#ffffff', 'line-width': ['case', ['==', ['get', 'id'], sel], 9, 6], 'line-opacity': 0.8 }}
        />
        <Layer
          id="report-lines"
          type="line"
          layout={{ 'line-cap': 'round', 'line-join': 'round' }}
          paint={{ 'line-color': ['get', 'color'], 'line-width': ['case', ['==', ['get', 'id'], sel], 6, 3] }}
        />
      </Source>
      <Source id={POINTS} type="geojson" data={data.points ?? empty}>
        <Layer
          id="report-points"
          type="circle"
          paint={{
            'circle-radius': ['case', ['==', ['get', 'id'], sel], 9, 6],
            'circle-color': ['get', 'color'],
            'circle-stroke-width': 2,
            'circle-stroke-color': '#ffffff',
          }}
        />
      </Source>
    </BaseMapFrame>
  );
}
