import 'maplibre-gl/dist/maplibre-gl.css';
import { useEffect, useMemo, type RefObject } from 'react';
import { Alert, Box, Group, Loader, Paper, SegmentedControl, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import MapGL, { Layer, Marker, NavigationControl, Source, type MapRef } from 'react-map-gl/maplibre';
import type { FeatureCollection, LineString } from 'geojson';
import type { HistoryRoute } from '@fleet/api-contract';
import { BASE_MAPS, type BaseMapId } from '../../lib/map/base-styles.ts';
import { markersToGeoJSON, MARKERS_SOURCE, speedStops, trackLayers, trackToGeoJSON, TRACK_SOURCE } from '../../lib/map/track-layers.ts';
import { useBaseMap } from '../../lib/map/use-base-map.ts';
import { speedIn, unitLabels, type UnitSystem } from '../../lib/units.ts';

type Track = HistoryRoute['track'];
const TRIP_SOURCE = 'history-trip';
const OWN_SOURCES = [TRACK_SOURCE, MARKERS_SOURCE, TRIP_SOURCE];
const US_VIEW = { longitude: -96, latitude: 39, zoom: 3.3 };

/** The west, south, east and north edges of some fixes. */
export function boundsOf(points: Track): [number, number, number, number] {
  let [w, s, e, n] = [180, 90, -180, -90];
  for (const p of points) {
    w = Math.min(w, p.longitude);
    e = Math.max(e, p.longitude);
    s = Math.min(s, p.latitude);
    n = Math.max(n, p.latitude);
  }
  return [w, s, e, n];
}

/** The track coloured by speed, with its start, end and stops. */
function TrackLayers({ track, stops, units }: { track: Track; stops: HistoryRoute['stops']; units: UnitSystem }) {
  const line = useMemo(() => trackToGeoJSON(track), [track]);
  const markers = useMemo(() => markersToGeoJSON({ track, stops }), [track, stops]);
  const layers = useMemo(() => trackLayers(units), [units]);
  return (
    <>
      <Source id={TRACK_SOURCE} type="geojson" data={line}>
        <Layer {...layers[0]!} />
        <Layer {...layers[1]!} />
      </Source>
      <Source id={MARKERS_SOURCE} type="geojson" data={markers}>
        <Layer {...layers[2]!} />
      </Source>
    </>
  );
}

/** The chosen trip, drawn wide under the speed-coloured track. */
function TripLayer({ track, span }: { track: Track; span: { from: number; to: number } | null }) {
  const data = useMemo(
    (): FeatureCollection<LineString> => ({
      type: 'FeatureCollection',
      features:
        span && span.to > span.from
          ? [
              {
                type: 'Feature',
                properties: {},
                geometry: { type: 'LineString', coordinates: track.slice(span.from, span.to + 1).map((p) => [p.longitude, p.latitude]) },
              },
            ]
          : [],
    }),
    [span, track],
  );
  return (
    <Source id={TRIP_SOURCE} type="geojson" data={data}>
      <Layer
        id="history-trip"
        type="line"
        layout={{ 'line-cap': 'round', 'line-join': 'round' }}
        paint={{ 'line-color': '#1c7ed6', 'line-width': 14, 'line-opacity': 0.35 }}
      />
    </Source>
  );
}

function SpeedLegend({ units }: { units: UnitSystem }) {
  return (
    <Paper pos="absolute" bottom={10} right={10} p={6} shadow="sm" withBorder style={{ zIndex: 2 }} aria-label="Speed legend" data-testid="speed-legend">
      <Text size="xs" fw={600} mb={2}>
        Speed ({unitLabels(units).speed})
      </Text>
      <Group gap={4}>
        {speedStops(units).map((s) => (
          <Group gap={2} key={s.kmh}>
            <Box w={14} h={6} style={{ background: s.color, borderRadius: 2 }} />
            <Text size="xs">{Math.round(speedIn(s.kmh, units))}+</Text>
          </Group>
        ))}
      </Group>
    </Paper>
  );
}

export interface HistoryMapProps {
  mapRef: RefObject<MapRef | null>;
  track: Track;
  stops: HistoryRoute['stops'];
  span: { from: number; to: number } | null;
  marker: { lon: number; lat: number } | null;
  units: UnitSystem;
}

/**
 * The history's map: the base map (streets, or the offline outlines with a notice), the chosen trip,
 * the track and its stops, and the playback marker. It fits itself to each new track.
 */
export function HistoryMap({ mapRef, track, stops, span, marker, units }: HistoryMapProps) {
  const base = useBaseMap(OWN_SOURCES);
  useEffect(() => {
    if (track.length && mapRef.current) mapRef.current.fitBounds(boundsOf(track), { padding: 40, duration: 600, maxZoom: 13 });
  }, [track, mapRef]);
  return (
    <Paper withBorder pos="relative" h={{ base: 340, sm: 480 }} style={{ overflow: 'hidden' }} data-testid="history-map">
      {base.style ? (
        <MapGL
          ref={mapRef}
          initialViewState={US_VIEW}
          mapStyle={base.style}
          style={{ width: '100%', height: '100%' }}
          onLoad={base.onStyleLoaded}
          onStyleData={(e) => {
            if (e.target.isStyleLoaded()) base.onStyleLoaded();
          }}
          onError={(e) => base.onMapError(e as unknown as { error?: { message?: string }; sourceId?: string })}
          attributionControl={{ compact: true }}
        >
          <NavigationControl position="top-right" />
          <TripLayer track={track} span={span} />
          <TrackLayers track={track} stops={stops} units={units} />
          {marker && (
            <Marker longitude={marker.lon} latitude={marker.lat} anchor="center">
              <Box
                data-testid="playback-marker"
                w={18}
                h={18}
                style={{ borderRadius: 18, background: '#1c7ed6', border: '3px solid white', boxShadow: '0 0 4px rgba(0,0,0,.5)' }}
              />
            </Marker>
          )}
        </MapGL>
      ) : (
        <Box h="100%" style={{ display: 'grid', placeItems: 'center' }}>
          <Loader aria-label="Loading the map" />
        </Box>
      )}
      <Group pos="absolute" top={10} left={10} gap="xs" style={{ zIndex: 2 }}>
        <SegmentedControl
          size="xs"
          aria-label="Base map"
          value={base.choice}
          onChange={(v) => base.setChoice(v as BaseMapId)}
          data={BASE_MAPS.map((b) => ({ value: b.id, label: b.id === 'offline' ? 'Offline' : b.label }))}
        />
      </Group>
      {track.length > 0 && <SpeedLegend units={units} />}
      {base.failure && (
        <Alert
          pos="absolute"
          bottom={10}
          left={10}
          maw={420}
          color="yellow"
          role="alert"
          icon={<IconAlertTriangle size={18} />}
          title="Street map unavailable"
          withCloseButton
          onClose={base.dismissFailure}
          style={{ zIndex: 3 }}
          data-testid="basemap-notice"
        >
          {base.failure} Showing the offline map instead.
        </Alert>
      )}
    </Paper>
  );
}
