import type { LiveVehicle, VehicleStatus } from '@fleet/api-contract';
import type { FeatureCollection, Point } from 'geojson';
import type { CircleLayerSpecification, ExpressionSpecification, GeoJSONSourceSpecification, LayerSpecification, SymbolLayerSpecification } from 'maplibre-gl';
import { LABEL_FONT } from '../../lib/map/map-fonts.ts';

// Pure layer and source definitions of the live map: vehicles are drawn by the GPU from one
// GeoJSON source (clustered), never as DOM markers, so thousands of them stay smooth.

/** Status colours, readable on the light and the dark base maps. */
export const STATUS_COLORS: Record<VehicleStatus, string> = {
  MOVING: '#2f9e44',
  IDLING: '#f08c00',
  STOPPED: '#1c7ed6',
  OFFLINE: '#868e96',
};

/** Text colours of the status chips and badges (Mantine names; the theme keeps their text at 4.5:1). */
export const STATUS_TONES: Record<VehicleStatus, 'green' | 'orange' | 'blue' | 'gray'> = {
  MOVING: 'green',
  IDLING: 'orange',
  STOPPED: 'blue',
  OFFLINE: 'gray',
};

export const STATUS_LABELS: Record<VehicleStatus, string> = { MOVING: 'Moving', IDLING: 'Idling', STOPPED: 'Stopped', OFFLINE: 'Offline' };

export const VEHICLES_SOURCE = 'vehicles';
export const ARROW_IMAGE = 'vehicle-arrow';

export interface VehicleProps {
  id: string;
  unit: string;
  status: VehicleStatus;
  /** Degrees; -1 when unknown or standing (no arrow). */
  course: number;
  selected: boolean;
}

/** The vehicles as GeoJSON points; `id` is the asset id so MapLibre feature-state works. */
export function vehiclesToGeoJSON(vehicles: Iterable<LiveVehicle>, selectedId: string | null = null): FeatureCollection<Point, VehicleProps> {
  const features: FeatureCollection<Point, VehicleProps>['features'] = [];
  for (const v of vehicles) {
    features.push({
      type: 'Feature',
      id: v.assetId,
      geometry: { type: 'Point', coordinates: [v.longitude, v.latitude] },
      properties: {
        id: v.assetId,
        unit: v.unitNumber,
        status: v.status,
        course: v.status === 'MOVING' && v.course !== null ? v.course : -1,
        selected: v.assetId === selectedId,
      },
    });
  }
  return { type: 'FeatureCollection', features };
}

/** Clustered source: clusters break up at zoom 11, and count vehicles per status for the pie-free cluster colour. */
export function vehiclesSource(data: FeatureCollection<Point, VehicleProps>): GeoJSONSourceSpecification {
  return {
    type: 'geojson',
    data,
    cluster: true,
    clusterRadius: 50,
    clusterMaxZoom: 11,
    clusterProperties: {
      moving: ['+', ['case', ['==', ['get', 'status'], 'MOVING'], 1, 0]],
      offline: ['+', ['case', ['==', ['get', 'status'], 'OFFLINE'], 1, 0]],
    },
  };
}

const statusColor = [
  'match',
  ['get', 'status'],
  'MOVING',
  STATUS_COLORS.MOVING,
  'IDLING',
  STATUS_COLORS.IDLING,
  'STOPPED',
  STATUS_COLORS.STOPPED,
  STATUS_COLORS.OFFLINE,
] as unknown as string;
const isCluster: ExpressionSpecification = ['has', 'point_count'];
const notCluster: ExpressionSpecification = ['!', ['has', 'point_count']];

/**
 * Layers over the vehicles source: cluster bubbles sized by count (green when most move), their
 * counts (in the bundled label font, which both base maps declare), a status-coloured dot per
 * vehicle with a white ring (thicker when selected), and a heading arrow for moving vehicles.
 */
export function vehicleLayers(): LayerSpecification[] {
  const clusters: CircleLayerSpecification = {
    id: 'vehicle-clusters',
    type: 'circle',
    source: VEHICLES_SOURCE,
    filter: isCluster,
    paint: {
      'circle-color': ['case', ['>=', ['get', 'moving'], ['/', ['get', 'point_count'], 2]], STATUS_COLORS.MOVING, '#495057'],
      'circle-radius': ['step', ['get', 'point_count'], 14, 10, 18, 50, 24, 250, 30],
      'circle-opacity': 0.85,
      'circle-stroke-width': 2,
      'circle-stroke-color': '#ffffff',
    },
  };
  const dots: CircleLayerSpecification = {
    id: 'vehicle-dots',
    type: 'circle',
    source: VEHICLES_SOURCE,
    filter: notCluster,
    paint: {
      'circle-color': statusColor,
      'circle-radius': ['case', ['get', 'selected'], 9, 7],
      'circle-stroke-width': ['case', ['get', 'selected'], 3, 1.5],
      'circle-stroke-color': '#ffffff',
    },
  };
  const arrows: SymbolLayerSpecification = {
    id: 'vehicle-arrows',
    type: 'symbol',
    source: VEHICLES_SOURCE,
    filter: ['all', notCluster, ['>=', ['get', 'course'], 0]],
    layout: {
      'icon-image': ARROW_IMAGE,
      'icon-rotate': ['get', 'course'],
      'icon-rotation-alignment': 'map',
      'icon-allow-overlap': true,
      'icon-ignore-placement': true,
      'icon-offset': [0, -11],
    },
  };
  const counts: SymbolLayerSpecification = {
    id: 'vehicle-cluster-counts',
    type: 'symbol',
    source: VEHICLES_SOURCE,
    filter: isCluster,
    layout: {
      'text-field': ['get', 'point_count_abbreviated'],
      'text-font': [LABEL_FONT],
      'text-size': ['step', ['get', 'point_count'], 12, 50, 13, 250, 14],
      'text-allow-overlap': true,
      'text-ignore-placement': true,
    },
    paint: { 'text-color': '#ffffff', 'text-halo-color': 'rgba(0, 0, 0, 0.35)', 'text-halo-width': 1 },
  };
  return [clusters, counts, dots, arrows];
}

/** Layers the map lets you click: a vehicle or a cluster. */
export const CLICKABLE_VEHICLE_LAYERS = ['vehicle-dots', 'vehicle-clusters'];

/**
 * The heading arrow as raw RGBA pixels (for `map.addImage`): a white-edged dark triangle pointing
 * north, drawn without a canvas so it works in workers and tests alike.
 */
export function arrowImage(size = 16, pixelRatio = 2): { width: number; height: number; data: Uint8ClampedArray } {
  const n = size * pixelRatio;
  const data = new Uint8ClampedArray(n * n * 4);
  const cx = n / 2;
  // Triangle: apex at the top centre, base at 60 % height.
  const inside = (x: number, y: number, inset: number) => {
    const top = inset * 1.6;
    const base = n * 0.6 - inset;
    if (y < top || y > base) return false;
    const half = ((y - top) / (base - top)) * (n * 0.38 - inset);
    return Math.abs(x - cx) <= half;
  };
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const i = (y * n + x) * 4;
      if (inside(x + 0.5, y + 0.5, pixelRatio * 1.5)) {
        data.set([33, 37, 41, 255], i);
      } else if (inside(x + 0.5, y + 0.5, 0)) {
        data.set([255, 255, 255, 255], i);
      }
    }
  }
  return { width: n, height: n, data };
}
