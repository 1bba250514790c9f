import { useEffect, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Marker } from 'react-map-gl/maplibre';
import type { Map as MaplibreMap } from 'maplibre-gl';
import { BaseMapFrame } from '../../lib/map/base-map-frame.tsx';
import type { TrackWords } from './track-words.ts';
import classes from './track.module.css';

// The map of the public tracking page, loaded only once the page's data shows (its library is most
// of a megabyte): the app's own map frame (the server's street style, else the bundled outlines) with
// the truck. The frame reads the server's settings through a query cache of its own.

export interface TrackMapProps {
  latitude: number;
  longitude: number;
  heading: number | null;
  words: TrackWords;
}

export default function TrackMap({ latitude, longitude, heading, words }: TrackMapProps) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }));
  const [map, setMap] = useState<MaplibreMap | null>(null);
  // A refresh moves the truck: the map follows it when it would leave the view (not on every fix: the customer may have panned).
  useEffect(() => {
    if (map && !map.getBounds().contains([longitude, latitude])) map.easeTo({ center: [longitude, latitude], duration: 600 });
  }, [map, latitude, longitude]);
  return (
    <QueryClientProvider client={client}>
      <BaseMapFrame
        label={words.mapLabel}
        testId="track-map"
        h={{ base: 240, sm: 340 }}
        ownSources={[]}
        initialViewState={{ latitude, longitude, zoom: 6 }}
        plain
        onMapLoad={setMap}
        words={words.map}
        data={{ 'data-latitude': latitude, 'data-longitude': longitude }}
      >
        <Marker latitude={latitude} longitude={longitude} anchor="center">
          <div className={classes.truck} aria-hidden>
            {heading !== null && <span className={classes.heading} style={{ transform: `rotate(${heading}deg)` }} />}
          </div>
        </Marker>
      </BaseMapFrame>
    </QueryClientProvider>
  );
}
