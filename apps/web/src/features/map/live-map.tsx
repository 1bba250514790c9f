import 'maplibre-gl/dist/maplibre-gl.css';
import { useCallback, useRef, type RefObject } from 'react';
import { Box, Loader } from '@mantine/core';
import MapGL, { NavigationControl, type MapLayerMouseEvent, type MapRef } from 'react-map-gl/maplibre';
import type { GeoJSONSource, Map as MaplibreMap } from 'maplibre-gl';
import type { BaseMap } from '../../lib/map/use-base-map.ts';
import { coalesceSourceRepaints, type RepaintGate } from './coalesce-repaints.ts';
import { PlacesLayers, VehiclesLayer } from './map-layers.tsx';
import type { usePlacesLayer } from './use-places-layer.ts';
import { ARROW_IMAGE, arrowImage, CLICKABLE_VEHICLE_LAYERS, VEHICLES_SOURCE, type vehiclesToGeoJSON } from './vehicle-layers.ts';

const US_VIEW = { longitude: -96, latitude: 39, zoom: 3.3 };

declare global {
  interface Window {
    /** Defined only by bench/map-fps.ts, which counts the map's renders and re-clusters through it. */
    __fleetlineMapProbe?: (map: MaplibreMap) => void;
  }
}

/** Adds the heading arrow whenever a style (re)loads without it. */
function ensureArrow(map: MaplibreMap) {
  if (!map.hasImage(ARROW_IMAGE)) map.addImage(ARROW_IMAGE, arrowImage(), { pixelRatio: 2 });
}

/**
 * Once per map, on its first style event: the heading arrow and the repaint coalescing. `load` waits
 * until every source is idle, which a fleet re-tiling every second may never be.
 */
function useMapSetup() {
  const gate = useRef<RepaintGate | null>(null);
  const setUpFor = useRef<MaplibreMap | null>(null);
  const setup = useCallback((map: MaplibreMap) => {
    if (setUpFor.current === map) return;
    setUpFor.current = map;
    ensureArrow(map);
    map.on('styleimagemissing', () => ensureArrow(map));
    gate.current?.dispose();
    gate.current = coalesceSourceRepaints(map, VEHICLES_SOURCE);
    window.__fleetlineMapProbe?.(map);
  }, []);
  return { gate, setup };
}

export interface LiveMapProps {
  mapRef: RefObject<MapRef | null>;
  base: BaseMap;
  /** The screen's own sources: their tiles and errors never count as the base map's. */
  ownSources: readonly string[];
  vehicles: ReturnType<typeof vehiclesToGeoJSON>;
  places: ReturnType<typeof usePlacesLayer>;
  /** A vehicle (its id) was clicked on the map. */
  onVehicle: (id: string) => void;
  onDragStart: () => void;
}

/** The live map itself: the base map, the places under the vehicles, the clustered vehicles; a click on a cluster zooms into it. */
export function LiveMap({ mapRef, base, ownSources, vehicles, places, onVehicle, onDragStart }: LiveMapProps) {
  const { gate, setup } = useMapSetup();
  const onClick = async (e: MapLayerMouseEvent) => {
    const f = e.features?.[0];
    if (!f) return;
    const props = f.properties as { cluster?: boolean; cluster_id?: number; id?: string };
    if (props.cluster && props.cluster_id !== undefined && f.geometry.type === 'Point') {
      const src = mapRef.current?.getSource(VEHICLES_SOURCE) as GeoJSONSource | undefined;
      const zoom = await src?.getClusterExpansionZoom(props.cluster_id);
      mapRef.current?.easeTo({ center: f.geometry.coordinates as [number, number], zoom: zoom ?? 8 });
      return;
    }
    if (props.id) onVehicle(props.id);
  };

  if (!base.style) {
    return (
      <Box h="100%" style={{ display: 'grid', placeItems: 'center' }}>
        <Loader aria-label="Loading the map" />
      </Box>
    );
  }
  return (
    <MapGL
      ref={mapRef}
      initialViewState={US_VIEW}
      mapStyle={base.style}
      style={{ width: '100%', height: '100%' }}
      interactiveLayerIds={CLICKABLE_VEHICLE_LAYERS}
      onClick={(e) => void onClick(e)}
      onDragStart={onDragStart}
      onLoad={(e) => {
        setup(e.target);
        base.onStyleLoaded();
      }}
      onStyleData={(e) => {
        setup(e.target);
        if (e.target.isStyleLoaded()) base.onStyleLoaded();
      }}
      onSourceData={(e) => {
        // With live data the map as a whole is rarely "loaded" (the vehicles re-tile every
        // second), so the base map counts as loaded when one of its own sources is.
        if (e.isSourceLoaded && !ownSources.includes(e.sourceId)) base.onStyleLoaded();
      }}
      onError={(e) => {
        const err = e as unknown as { error?: { message?: string }; sourceId?: string };
        // Base-map failures become the notice; anything else (our layers, our handlers) must
        // not vanish silently: MapLibre stops logging once an error listener exists.
        if (!err.sourceId || ownSources.includes(err.sourceId)) console.error(e.error);
        base.onMapError(err);
      }}
      attributionControl={{ compact: true }}
      cursor="auto"
      // Labels appear without a fade: with thousands of vehicles re-clustered every second,
      // a 300 ms fade kept the map repainting a third of the time (bench/map-fps.ts).
      fadeDuration={0}
    >
      <NavigationControl position="top-right" />
      {/* Mounted before the vehicles so places stay under them; the switch hides them by visibility. */}
      <PlacesLayers fills={places.fills} labels={places.labels} shown={places.shown} />
      <VehiclesLayer data={vehicles} gate={gate} />
    </MapGL>
  );
}
