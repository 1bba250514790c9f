// @vitest-environment node
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { markersToGeoJSON, MARKERS_SOURCE, speedColor, SPEED_STOPS, speedStops, trackLayers, trackToGeoJSON, TRACK_SOURCE } from './track-layers.ts';

const engine = { odometer: null, odometerSource: null, engineHours: null, rpm: null };
const track = [
  { time: '2026-11-20T12:00:00Z', latitude: 35, longitude: -97, speed: 0, course: null, ignition: true, ...engine },
  { time: '2026-11-20T12:01:00Z', latitude: 35, longitude: -96.9, speed: 100, course: 90, ignition: true, ...engine },
  { time: '2026-11-20T12:02:00Z', latitude: 35, longitude: -96.8, speed: 80, course: 90, ignition: true, ...engine },
];
const stops = [
  {
    latitude: 35,
    longitude: -96.9,
    start: '2026-11-20T12:01:00Z',
    end: '2026-11-20T12:31:00Z',
    durationS: 1800,
    idleS: 60,
    jurisdiction: 'OK',
    place: null,
    address: 'Oklahoma City, OK',
  },
];

describe('history track', () => {
  it('makes one segment per pair of points with their average speed', () => {
    const fc = trackToGeoJSON(track);
    expect(fc.features).toHaveLength(2);
    expect(fc.features[0]!.properties).toEqual({ speed: 50, index: 0 });
    expect(fc.features[1]!.geometry.coordinates).toEqual([
      [-96.9, 35],
      [-96.8, 35],
    ]);
    expect(trackToGeoJSON([]).features).toEqual([]);
  });

  it('marks start, end and stops', () => {
    const kinds = markersToGeoJSON({ track, stops }).features.map((f) => f.properties.kind);
    expect(kinds).toEqual(['stop', 'start', 'end']);
    expect(markersToGeoJSON({ track: [], stops: [] }).features).toEqual([]);
  });

  it('is a valid style with a speed-interpolated colour', () => {
    const style = {
      version: 8 as const,
      sources: {
        [TRACK_SOURCE]: { type: 'geojson' as const, data: trackToGeoJSON(track) },
        [MARKERS_SOURCE]: { type: 'geojson' as const, data: markersToGeoJSON({ track, stops }) },
      },
      layers: trackLayers(),
    };
    expect(validateStyleMin(style)).toEqual([]);
  });

  it('gives the legend colours at the stops and blends between them', () => {
    expect(speedColor(0)).toBe(SPEED_STOPS[0]!.color);
    expect(speedColor(90)).toBe('#40c057');
    expect(speedColor(500)).toBe(SPEED_STOPS[SPEED_STOPS.length - 1]!.color);
    expect(speedColor(45)).not.toBe(speedColor(30));
  });

  it('puts the legend bands at round numbers of the organization speed unit', () => {
    expect(speedStops('METRIC').map((s) => s.kmh)).toEqual([0, 30, 60, 90, 110]);
    expect(speedStops('IMPERIAL').map((s) => Math.round((s.kmh / 1.609344) * 1e6) / 1e6)).toEqual([0, 20, 35, 55, 70]);
    const paint = trackLayers('IMPERIAL').find((l) => l.id === 'history-track')!.paint as { 'line-color': unknown[] };
    expect(paint['line-color'].slice(3, 5)).toEqual([0, '#e03131']);
    expect(paint['line-color'][5]).toBeCloseTo(32.18688, 5);
  });
});
