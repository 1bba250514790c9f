import { useMemo, useRef, type RefObject } from 'react';
import { Layer, Source } from 'react-map-gl/maplibre';
import type { FeatureCollection } from 'geojson';
import type { SymbolLayerSpecification } from 'maplibre-gl';
import { placeLayers } from '../../lib/map/place-shapes.ts';
import type { RepaintGate } from './coalesce-repaints.ts';
import { vehicleLayers, vehiclesSource, VEHICLES_SOURCE, type vehiclesToGeoJSON } from './vehicle-layers.ts';

export const PLACES_SOURCE = 'map-places';
const PLACE_STYLE = placeLayers(PLACES_SOURCE, 11);
const VEHICLE_LAYERS = vehicleLayers();

/** The organization's places: areas with their outlines, and their names; hidden by visibility so they stay under the vehicles. */
export function PlacesLayers({ fills, labels, shown }: { fills: FeatureCollection; labels: FeatureCollection; shown: boolean }) {
  const visibility = shown ? 'visible' : 'none';
  const label = PLACE_STYLE[2] as SymbolLayerSpecification;
  return (
    <>
      <Source id={PLACES_SOURCE} type="geojson" data={fills}>
        <Layer {...PLACE_STYLE[0]!} layout={{ visibility }} />
        <Layer {...PLACE_STYLE[1]!} layout={{ visibility }} />
      </Source>
      <Source id={`${PLACES_SOURCE}-labels`} type="geojson" data={labels}>
        <Layer {...label} layout={{ ...label.layout, visibility }} />
        <Layer {...PLACE_STYLE[3]!} layout={{ visibility }} />
      </Source>
    </>
  );
}

/**
 * The vehicles, clustered. New data holds the map's repaints first (`gate`): this render hands it to
 * MapLibre through <Source>, which asks for a repaint at once with the old clusters still in place.
 */
export function VehiclesLayer({ data, gate }: { data: ReturnType<typeof vehiclesToGeoJSON>; gate: RefObject<RepaintGate | null> }) {
  const handed = useRef(data);
  if (handed.current !== data) {
    handed.current = data;
    gate.current?.hold();
  }
  const source = useMemo(() => vehiclesSource(data), [data]);
  return (
    <Source id={VEHICLES_SOURCE} {...source}>
      {VEHICLE_LAYERS.map((l) => (
        <Layer key={l.id} {...l} />
      ))}
    </Source>
  );
}
