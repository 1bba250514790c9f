import { useCallback, useEffect, useState, type RefObject } from 'react';
import type { MapRef } from 'react-map-gl/maplibre';
import type { LiveVehicle } from '@fleet/api-contract';
import type { LiveState } from './live-store.ts';

/**
 * The vehicle whose card is open, and Follow: the map keeps it centred as it moves. Choosing from
 * the list flies to it; choosing on the map does not move the map.
 */
export function useVehicleSelection(live: LiveState, mapRef: RefObject<MapRef | null>, onChosen?: () => void) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [follow, setFollow] = useState(false);
  const selected = selectedId ? (live.vehicles.get(selectedId) ?? null) : null;

  useEffect(() => {
    if (follow && selected) mapRef.current?.easeTo({ center: [selected.longitude, selected.latitude], duration: 500 });
  }, [follow, selected, mapRef]);

  const select = useCallback(
    (v: LiveVehicle, fly = true) => {
      setSelectedId(v.assetId);
      onChosen?.();
      if (fly) mapRef.current?.flyTo({ center: [v.longitude, v.latitude], zoom: Math.max(mapRef.current.getZoom(), 10), duration: 800 });
    },
    [mapRef, onChosen],
  );
  const close = () => {
    setSelectedId(null);
    setFollow(false);
  };
  return { selectedId, selected, follow, setFollow, select, close };
}
