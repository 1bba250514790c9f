import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Layer, Source } from 'react-map-gl/maplibre';
import type { Feature, FeatureCollection, LineString, Point } from 'geojson';
import type { Map as MaplibreMap } from 'maplibre-gl';
import type { SafetyEventDetail } from '@fleet/api-contract';
import { BaseMapFrame } from '../../lib/map/base-map-frame.tsx';

const TRACE = 'safety-trace';
const POINT = 'safety-point';
const OWN_SOURCES = [TRACE, POINT];

/** The trace split where the speed is over the limit (red) and where it is not (blue). */
function traceToGeoJSON(
  event: Pick<SafetyEventDetail, 'trace' | 'type' | 'startedAt' | 'endedAt' | 'limitKph'>,
): FeatureCollection<LineString, { over: boolean }> {
  const { trace } = event;
  const from = Date.parse(event.startedAt);
  const to = Date.parse(event.endedAt);
  // During a speeding event the limit is the one it was judged against, where the trace has none.
  const limitAt = (p: SafetyEventDetail['trace'][number]) =>
    p.limitKph ?? (event.type === 'SPEEDING' && Date.parse(p.at) >= from && Date.parse(p.at) <= to ? event.limitKph : null);
  const features: Feature<LineString, { over: boolean }>[] = [];
  for (let i = 1; i < trace.length; i++) {
    const a = trace[i - 1]!;
    const b = trace[i]!;
    const over = [a, b].some((p) => {
      const limit = limitAt(p);
      return p.speedKph !== null && limit !== null && p.speedKph > limit;
    });
    features.push({
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: [
          [a.lon, a.lat],
          [b.lon, b.lat],
        ],
      },
      properties: { over },
    });
  }
  return { type: 'FeatureCollection', features };
}

function boundsOf(e: Pick<SafetyEventDetail, 'lat' | 'lon' | 'trace'>): [number, number, number, number] {
  let [w, s, east, n] = [e.lon, e.lat, e.lon, e.lat];
  for (const p of e.trace) {
    w = Math.min(w, p.lon);
    east = Math.max(east, p.lon);
    s = Math.min(s, p.lat);
    n = Math.max(n, p.lat);
  }
  return [w, s, east, n];
}

/** An event's place on the map: the positions around it (red where over the limit) and the event's own point. */
export function EventMap({ event }: { event: Pick<SafetyEventDetail, 'id' | 'lat' | 'lon' | 'trace' | 'type' | 'startedAt' | 'endedAt' | 'limitKph'> }) {
  const { t } = useTranslation();
  const [map, setMap] = useState<MaplibreMap | null>(null);
  const trace = useMemo(() => traceToGeoJSON(event), [event]);
  const point = useMemo<FeatureCollection<Point>>(
    () => ({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [event.lon, event.lat] }, properties: {} }] }),
    [event.lat, event.lon],
  );
  const bounds = useMemo(() => boundsOf(event), [event]);
  useEffect(() => {
    if (!map) return;
    map.fitBounds(bounds, { padding: 48, duration: 0, maxZoom: 15 });
  }, [map, bounds]);
  const words = useMemo(
    () => ({
      baseMap: t('safety.event.baseMap'),
      offline: t('safety.event.offlineMap'),
      loading: t('safety.event.mapLoading'),
      unavailable: t('safety.event.mapUnavailable'),
      showingOffline: '',
      close: t('safety.actions.close'),
    }),
    [t],
  );
  return (
    <BaseMapFrame
      label={t('safety.event.mapLabel')}
      testId="safety-event-map"
      h={{ base: 260, sm: 340 }}
      ownSources={OWN_SOURCES}
      initialViewState={{ longitude: event.lon, latitude: event.lat, zoom: 13 }}
      onMapLoad={setMap}
      words={words}
    >
      <Source id={TRACE} type="geojson" data={trace}>
        <Layer
          id="safety-trace-casing"
          type="line"
          layout={{ 'line-cap': 'round', 'line-join': 'round' }}
          paint={{ 'line-color': '#ffffff', 'line-width': 8, 'line-opacity': 0.8 }}
        />
        <Layer
          id="safety-trace"
          type="line"
          layout={{ 'line-cap': 'round', 'line-join': 'round' }}
          paint={{ 'line-color': ['case', ['get', 'over'], '#e03131', '#1c7ed6'], 'line-width': 5 }}
        />
      </Source>
      <Source id={POINT} type="geojson" data={point}>
        <Layer
          id="safety-point"
          type="circle"
          paint={{ 'circle-radius': 9, 'circle-color': '#f08c00', 'circle-stroke-width': 3, 'circle-stroke-color': '#ffffff' }}
        />
      </Source>
    </BaseMapFrame>
  );
}
