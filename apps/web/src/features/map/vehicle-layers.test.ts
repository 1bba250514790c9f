// @vitest-environment node
import type { LiveVehicle } from '@fleet/api-contract';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { LABEL_FONT, labelFontFaces } from '../../lib/map/map-fonts.ts';
import { arrowImage, STATUS_COLORS, vehicleLayers, vehiclesSource, vehiclesToGeoJSON, VEHICLES_SOURCE } from './vehicle-layers.ts';

const vehicle = (over: Partial<LiveVehicle>): LiveVehicle => ({
  assetId: '00000000-0000-4000-8000-000000000001',
  unitNumber: '101',
  gatewayId: '00000000-0000-4000-8000-000000000002',
  driverId: null,
  driverName: null,
  latitude: 35,
  longitude: -97,
  speed: 96,
  course: 80,
  ignition: true,
  fixTime: '2026-11-20T12:00:00.000Z',
  status: 'MOVING',
  statusSince: null,
  groupIds: [],
  ...over,
});

describe('vehiclesToGeoJSON', () => {
  it('makes one point per vehicle with its status, and a course only while moving', () => {
    const fc = vehiclesToGeoJSON(
      [vehicle({}), vehicle({ assetId: '00000000-0000-4000-8000-000000000003', unitNumber: '102', status: 'IDLING', speed: 0, course: 10 })],
      '00000000-0000-4000-8000-000000000003',
    );
    expect(fc.features).toHaveLength(2);
    expect(fc.features[0]!.geometry.coordinates).toEqual([-97, 35]);
    expect(fc.features[0]!.properties).toEqual({ id: '00000000-0000-4000-8000-000000000001', unit: '101', status: 'MOVING', course: 80, selected: false });
    expect(fc.features[1]!.properties).toMatchObject({ status: 'IDLING', course: -1, selected: true });
    expect(fc.features[1]!.id).toBe('00000000-0000-4000-8000-000000000003');
  });
});

describe('vehicle layers', () => {
  const style = (glyphs: boolean) => ({
    version: 8 as const,
    ...(glyphs ? { glyphs: 'https://example.test/{fontstack}/{range}.pbf' } : {}),
    'font-faces': labelFontFaces('https://fleet.example.test'),
    sources: { [VEHICLES_SOURCE]: vehiclesSource(vehiclesToGeoJSON([vehicle({})])) },
    layers: [{ id: 'bg', type: 'background' as const }, ...vehicleLayers()],
  });

  it('form a valid MapLibre style with clustering and counts, with a glyph server or only the bundled font', () => {
    expect(validateStyleMin(style(true))).toEqual([]);
    expect(validateStyleMin(style(false))).toEqual([]);
    const counts = vehicleLayers().find((l) => l.id === 'vehicle-cluster-counts') as { layout: Record<string, unknown> };
    expect(counts.layout['text-font']).toEqual([LABEL_FONT]);
    expect(counts.layout['text-field']).toEqual(['get', 'point_count_abbreviated']);
    expect(vehiclesSource(vehiclesToGeoJSON([])).cluster).toBe(true);
  });

  it('colour dots by status', () => {
    const dots = vehicleLayers().find((l) => l.id === 'vehicle-dots')!;
    const color = JSON.stringify((dots as { paint: Record<string, unknown> }).paint['circle-color']);
    for (const c of Object.values(STATUS_COLORS)) expect(color).toContain(c);
  });
});

describe('arrowImage', () => {
  it('draws an opaque arrow pointing up on a transparent square', () => {
    const img = arrowImage(16, 2);
    expect(img.width).toBe(32);
    expect(img.data).toHaveLength(32 * 32 * 4);
    const alpha = (x: number, y: number) => img.data[(y * 32 + x) * 4 + 3];
    expect(alpha(16, 12)).toBe(255);
    expect(alpha(0, 0)).toBe(0);
    expect(alpha(16, 30)).toBe(0);
    // Wider at the base than near the apex.
    const width = (y: number) => Array.from({ length: 32 }, (_, x) => alpha(x, y)).filter((a) => a === 255).length;
    expect(width(17)).toBeGreaterThan(width(6));
  });
});
