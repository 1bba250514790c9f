import 'maplibre-gl/dist/maplibre-gl.css';
import { useEffect, useMemo, useState } from 'react';
import { Badge, Box, Group, Loader, Paper, Stack, Text, useComputedColorScheme } from '@mantine/core';
import type { FeatureCollection, MultiPolygon, Point, Polygon } from 'geojson';
import type { IftaReport } from '@fleet/api-contract';
import type { StyleSpecification } from 'maplibre-gl';
import MapGL, { Layer, NavigationControl, Source } from 'react-map-gl/maplibre';
import { offlineStyle, type OfflineData } from '../../lib/map/base-styles.ts';
import { LABEL_FONT, labelFontFaces } from '../../lib/map/map-fonts.ts';
import { loadOfflineData } from '../../lib/map/offline-data.ts';
import { setupMaplibreWorker } from '../../lib/map/maplibre-worker.ts';
import { int, jurisdictionColor } from './ifta-format.ts';

setupMaplibreWorker();

const MILES_SOURCE = 'ifta-miles';
const LABELS_SOURCE = 'ifta-labels';

/** Miles per jurisdiction over the whole fleet of the report (members and others). */
export function milesByJurisdiction(report: IftaReport): Map<string, number> {
  const out = new Map<string, number>();
  for (const v of report.vehicles) for (const j of v.jurisdictions) out.set(j.jurisdiction, (out.get(j.jurisdiction) ?? 0) + j.miles);
  return out;
}

/** A point inside a polygon's largest ring's bounding box centre, good enough for a state label. */
function labelPoint(geom: Polygon | MultiPolygon): [number, number] {
  const rings = geom.type === 'Polygon' ? [geom.coordinates[0]!] : geom.coordinates.map((p) => p[0]!);
  let best = rings[0]!;
  let bestArea = -1;
  for (const r of rings) {
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    for (const [x, y] of r) {
      minX = Math.min(minX, x!);
      maxX = Math.max(maxX, x!);
      minY = Math.min(minY, y!);
      maxY = Math.max(maxY, y!);
    }
    const a = (maxX - minX) * (maxY - minY);
    if (a > bestArea) {
      bestArea = a;
      best = r;
    }
  }
  const xs = best.map((p) => p[0]!);
  const ys = best.map((p) => p[1]!);
  return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
}

/**
 * The quarter's miles on a map, each jurisdiction driven in its own colour, shaded by its share of
 * the fleet's miles and labelled with them. Drawn on the bundled outlines only: a thematic map
 * needs no streets, and it works offline.
 */
export function MilesMap({ report }: { report: IftaReport }) {
  const scheme = useComputedColorScheme('light');
  const [data, setData] = useState<OfflineData | null>(null);
  useEffect(() => {
    let alive = true;
    void loadOfflineData().then((d) => alive && setData(d));
    return () => {
      alive = false;
    };
  }, []);
  const miles = useMemo(() => milesByJurisdiction(report), [report]);
  const max = Math.max(1, ...miles.values());
  const style: StyleSpecification | null = useMemo(() => (data ? offlineStyle(data, scheme, labelFontFaces(window.location.origin)) : null), [data, scheme]);
  const fills = useMemo<FeatureCollection<Polygon | MultiPolygon> | null>(() => {
    if (!data) return null;
    return {
      type: 'FeatureCollection',
      features: data.jurisdictions.features
        .filter((f) => miles.has(f.properties.code))
        .map((f) => ({
          ...f,
          properties: {
            ...f.properties,
            miles: miles.get(f.properties.code)!,
            share: miles.get(f.properties.code)! / max,
            color: jurisdictionColor(f.properties.code),
          },
        })),
    };
  }, [data, miles, max]);
  const labels = useMemo<FeatureCollection<Point> | null>(() => {
    if (!fills) return null;
    return {
      type: 'FeatureCollection',
      features: fills.features.map((f) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: labelPoint(f.geometry) },
        properties: { label: `${String(f.properties?.code)}\n${int(Number(f.properties?.miles))} mi` },
      })),
    };
  }, [fills]);
  const top = [...miles].sort((a, b) => b[1] - a[1]);
  const total = top.reduce((s, [, m]) => s + m, 0);
  return (
    <Stack gap="sm">
      <Paper withBorder pos="relative" h={{ base: 360, sm: 520 }} style={{ overflow: 'hidden' }} data-testid="ifta-map">
        {style && fills && labels ? (
          <MapGL
            initialViewState={{ longitude: -96, latitude: 40, zoom: 3.1 }}
            mapStyle={style}
            style={{ width: '100%', height: '100%' }}
            attributionControl={false}
            aria-label="Map of the quarter's miles by jurisdiction"
          >
            <NavigationControl position="top-right" showCompass={false} />
            <Source id={MILES_SOURCE} type="geojson" data={fills}>
              <Layer
                id="ifta-miles-fill"
                type="fill"
                paint={{
                  'fill-color': ['get', 'color'],
                  'fill-opacity': ['interpolate', ['linear'], ['get', 'share'], 0, 0.18, 1, scheme === 'dark' ? 0.75 : 0.65],
                }}
              />
              <Layer id="ifta-miles-line" type="line" paint={{ 'line-color': ['get', 'color'], 'line-width': 1.2 }} />
            </Source>
            <Source id={LABELS_SOURCE} type="geojson" data={labels}>
              <Layer
                id="ifta-miles-labels"
                type="symbol"
                layout={{ 'text-field': ['get', 'label'], 'text-font': [LABEL_FONT], 'text-size': 11, 'text-allow-overlap': false }}
                paint={{
                  'text-color': scheme === 'dark' ? '#f1f3f5' : '#212529',
                  'text-halo-color': scheme === 'dark' ? '#1f252b' : '#ffffff',
                  'text-halo-width': 1.5,
                }}
              />
            </Source>
          </MapGL>
        ) : (
          <Box h="100%" style={{ display: 'grid', placeItems: 'center' }}>
            <Loader aria-label="Loading the map" />
          </Box>
        )}
      </Paper>
      <Group gap={6} aria-label="Miles by jurisdiction" role="list">
        {top.map(([code, m]) => (
          <Badge key={code} role="listitem" variant="dot" radius="sm" color={jurisdictionColor(code)} tt="none">
            {code} {int(m)} mi · {total ? Math.round((m / total) * 100) : 0} %
          </Badge>
        ))}
      </Group>
      {top.length === 0 && (
        <Text size="sm" c="dimmed">
          No miles this quarter.
        </Text>
      )}
    </Stack>
  );
}
