import { useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { Layer, Marker, Source, type MapLayerMouseEvent } from 'react-map-gl/maplibre';
import type { Feature, LineString, MultiLineString } from 'geojson';
import type { PlanRouteLeg } from '@fleet/api-contract';
import type { Map as MaplibreMap } from 'maplibre-gl';
import { BaseMapFrame } from '../../lib/map/base-map-frame.tsx';
import classes from './dispatch.module.css';

const ROUTE = 'load-route';
const DEADHEAD = 'load-deadhead';
const OWN_SOURCES = [ROUTE, DEADHEAD];
const US_VIEW = { longitude: -92, latitude: 39, zoom: 3.3 };

export interface MapStop {
  key: string;
  latitude: number;
  longitude: number;
  kind: 'PICKUP' | 'DELIVERY';
  /** Shown on the marker's tooltip and read by screen readers. */
  title: string;
  done?: boolean;
}

export interface LoadMapProps {
  stops: readonly MapStop[];
  /** Where the driver starts (the plan's origin): drawn as the deadhead leg. */
  origin?: { latitude: number; longitude: number } | null;
  /** The stop the deadhead leads to (index; default the first). */
  originTo?: number | null;
  /** The plan's road legs (between stops, and from the origin): drawn instead of straight lines. */
  route?: readonly PlanRouteLeg[] | null;
  /** A click on the map (the form's "pick on the map"). */
  onPick?: (p: { latitude: number; longitude: number }) => void;
  label: string;
  height?: number | string | { base: number | string; sm?: number | string };
}

const lines = (parts: number[][][]): Feature<MultiLineString> => ({
  type: 'Feature',
  properties: {},
  geometry: { type: 'MultiLineString', coordinates: parts },
});
const line = (coords: number[][]): Feature<LineString> => ({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: coords } });

/**
 * A load's stops as numbered markers (pick-ups green, deliveries red, done ones faded) joined by the
 * route in driving order, and the deadhead from the driver's position as a dashed line. With the
 * plan's road legs (issue 46) both follow the roads the planner routed; without a plan (a closed
 * load, the form) the stops are joined straight.
 */
export function LoadMap({ stops, origin, originTo = 0, route: roads, onPick, label, height = { base: 280, sm: 380 } }: LoadMapProps) {
  const [map, setMap] = useState<MaplibreMap | null>(null);
  const coords = useMemo(() => stops.map((s) => [s.longitude, s.latitude]), [stops]);
  const between = useMemo(() => roads?.filter((l) => l.fromStopId !== null && stops.some((s) => s.key === l.toStopId)) ?? [], [roads, stops]);
  const fromOrigin = roads?.find((l) => l.fromStopId === null) ?? null;
  const onRoads = between.length > 0 && between.length === stops.length - 1;
  const route = useMemo(() => (onRoads ? lines(between.map((l) => l.line)) : line(coords)), [onRoads, between, coords]);
  const target = originTo === null ? undefined : coords[originTo];
  const deadhead = useMemo(
    () => (origin && fromOrigin ? line(fromOrigin.line) : line(origin && target ? [[origin.longitude, origin.latitude], target] : [])),
    [origin, target, fromOrigin],
  );
  const routePoints = onRoads ? between.reduce((n, l) => n + l.line.length, 0) : coords.length;
  const key = [...coords, origin ? [origin.longitude, origin.latitude] : []].flat().join(',');
  const fit = useEffectEvent((map: MaplibreMap) => {
    const pts = origin ? [...coords, [origin.longitude, origin.latitude]] : coords;
    if (!pts.length) return;
    const xs = pts.map((p) => p[0]!);
    const ys = pts.map((p) => p[1]!);
    map.fitBounds([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], { padding: 48, duration: 400, maxZoom: 11 });
  });
  // Refit when the stops move (`key`), not on every refetch of the same load.
  useEffect(() => {
    if (map) fit(map);
  }, [map, key]);
  const onClick = useCallback(
    (e: MapLayerMouseEvent) => onPick?.({ latitude: Math.round(e.lngLat.lat * 1e6) / 1e6, longitude: Math.round(e.lngLat.lng * 1e6) / 1e6 }),
    [onPick],
  );
  return (
    <BaseMapFrame
      label={label}
      testId="load-map"
      h={height}
      ownSources={OWN_SOURCES}
      initialViewState={US_VIEW}
      onMapLoad={setMap}
      mapProps={{ cursor: onPick ? 'crosshair' : undefined, onClick: onPick ? onClick : undefined }}
      data={{ 'data-route': onRoads ? 'roads' : 'straight', 'data-route-points': routePoints }}
    >
      <Source id={DEADHEAD} type="geojson" data={deadhead}>
        <Layer id="load-deadhead" type="line" layout={{ 'line-cap': 'round' }} paint={{ 'line-color': '#868e96', 'line-width': 3, 'line-dasharray': [2, 2] }} />
      </Source>
      <Source id={ROUTE} type="geojson" data={route}>
        <Layer
          id="load-route-casing"
          type="line"
          layout={{ 'line-cap': 'round', 'line-join': 'round' }}
          paint={{ 'line-color': '#ffffff', 'line-width': 7, 'line-opacity': 0.8 }}
        />
        <Layer id="load-route" type="line" layout={{ 'line-cap': 'round', 'line-join': 'round' }} paint={{ 'line-color': '#1c7ed6', 'line-width': 4 }} />
      </Source>
      {origin && (
        <Marker longitude={origin.longitude} latitude={origin.latitude}>
          <div className={classes.truckMarker} title="The driver’s position" aria-hidden />
        </Marker>
      )}
      {stops.map((s, i) => (
        <Marker key={s.key} longitude={s.longitude} latitude={s.latitude} anchor="center">
          <div className={classes.stopMarker} data-kind={s.kind} data-done={s.done ? 'true' : undefined} title={`${i + 1}. ${s.title}`} aria-hidden>
            {i + 1}
          </div>
        </Marker>
      ))}
    </BaseMapFrame>
  );
}
