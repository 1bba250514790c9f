import { useMemo, useState } from 'react';
import type { VehiclePlace } from '@fleet/api-contract';
import { useMapPlaces, useVehiclePlaces } from '../../lib/map/map-api.ts';
import { placeLabelsToGeoJSON, placesToGeoJSON } from '../../lib/map/place-shapes.ts';
import { useCan } from '../../lib/registry-api.ts';
import { local } from '../../lib/storage.ts';

const PLACES_LAYER_KEY = 'fleet.map.places';

/** Issue 32: the places layer (shown or hidden, remembered per browser) and each vehicle's current place. */
export function usePlacesLayer() {
  const canSee = useCan('PLACE_LIST');
  const [show, setShow] = useState(() => local.getJson<boolean>(PLACES_LAYER_KEY) ?? true);
  const places = useMapPlaces(canSee && show);
  const vehiclePlaces = useVehiclePlaces(canSee);
  const fills = useMemo(() => placesToGeoJSON(places.data?.content ?? []), [places.data]);
  const labels = useMemo(() => placeLabelsToGeoJSON(places.data?.content ?? []), [places.data]);
  const atPlace = useMemo(() => new Map<string, VehiclePlace>((vehiclePlaces.data?.content ?? []).map((v) => [v.assetId, v])), [vehiclePlaces.data]);
  return {
    canSee,
    shown: canSee && show,
    setShown: (on: boolean) => {
      setShow(on);
      local.setJson(PLACES_LAYER_KEY, on);
    },
    fills,
    labels,
    atPlace,
  };
}
