import 'maplibre-gl/dist/maplibre-gl.css';
import type { ReactNode, Ref } from 'react';
import { Alert, Box, Group, Loader, Paper, SegmentedControl, Text, type PaperProps } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import MapGL, { NavigationControl, type MapProps, type MapRef } from 'react-map-gl/maplibre';
import type { Map as MaplibreMap } from 'maplibre-gl';
import { BASE_MAPS, type BaseMapId } from './base-styles.ts';
import { useBaseMap } from './use-base-map.ts';

/** The frame's own words; screens that are translated pass theirs. */
export interface BaseMapWords {
  baseMap: string;
  offline: string;
  loading: string;
  /** The notice's title when the street map failed and the offline one is shown. */
  unavailable: string;
  /** Said after the failure's reason ('' where the title says it already). */
  showingOffline: string;
  close: string;
}

const ENGLISH: BaseMapWords = {
  baseMap: 'Base map',
  offline: 'Offline',
  loading: 'Loading the map',
  unavailable: 'Street map unavailable',
  showingOffline: 'Showing the offline map instead.',
  close: 'Close',
};

export interface BaseMapFrameProps {
  /** The region's accessible name. */
  label: string;
  testId: string;
  h: PaperProps['h'];
  /** The screen's own sources: their tiles never count as the base map's failure. */
  ownSources: readonly string[];
  initialViewState: { longitude: number; latitude: number; zoom: number };
  /** The map once its style has loaded (to fit bounds, to draw). */
  onMapLoad?: (map: MaplibreMap) => void;
  mapRef?: Ref<MapRef>;
  /** The screen's other map options: clicks, cursor, interactive layers, moves. */
  mapProps?: Omit<MapProps, 'mapStyle' | 'initialViewState' | 'style' | 'onLoad' | 'onStyleData' | 'onError' | 'children'>;
  /** data-* attributes of the region (states the browser tests wait for). */
  data?: Record<`data-${string}`, string | number | undefined>;
  words?: Partial<BaseMapWords>;
  /** Shown over the map, below the base-map switch (hints, legends). */
  overlay?: ReactNode;
  /** The screen's sources, layers and markers. */
  children: ReactNode;
  /** No base-map switch and no notice of a failed street map (a customer's page shows whichever map loads). */
  plain?: boolean;
}

/**
 * A map on a screen that is not the live map: the base map the user chose (streets, or the bundled
 * offline outlines when the street style fails, with a notice saying why), its switch, a loader until
 * a style is ready, and the navigation buttons. The screens' maps differ only in what they draw.
 */
export function BaseMapFrame({
  label,
  testId,
  h,
  ownSources,
  initialViewState,
  onMapLoad,
  mapRef,
  mapProps,
  data,
  words,
  overlay,
  children,
  plain = false,
}: BaseMapFrameProps) {
  const base = useBaseMap(ownSources);
  const w = { ...ENGLISH, ...words };
  return (
    <Paper withBorder pos="relative" h={h} style={{ overflow: 'hidden' }} role="region" aria-label={label} data-testid={testId} {...data}>
      {base.style ? (
        <MapGL
          // A new map for another base style or scheme: MapLibre's setStyle would drop the screen's layers' state.
          key={`${base.choice}-${base.scheme}`}
          ref={mapRef}
          initialViewState={initialViewState}
          mapStyle={base.style}
          style={{ width: '100%', height: '100%' }}
          attributionControl={{ compact: true }}
          {...mapProps}
          onLoad={(e) => {
            base.onStyleLoaded();
            onMapLoad?.(e.target);
          }}
          onStyleData={(e) => {
            if (e.target.isStyleLoaded()) base.onStyleLoaded();
          }}
          onError={(e) => base.onMapError(e as unknown as { error?: { message?: string }; sourceId?: string })}
        >
          <NavigationControl position="top-right" />
          {children}
        </MapGL>
      ) : (
        <Box h="100%" style={{ display: 'grid', placeItems: 'center' }}>
          <Loader aria-label={w.loading} />
        </Box>
      )}
      {!plain && (
        <Group pos="absolute" top={10} left={10} gap="xs" style={{ zIndex: 2 }}>
          <SegmentedControl
            size="xs"
            aria-label={w.baseMap}
            value={base.choice}
            onChange={(v) => base.setChoice(v as BaseMapId)}
            data={BASE_MAPS.map((b) => ({ value: b.id, label: b.id === 'offline' ? w.offline : b.label }))}
          />
        </Group>
      )}
      {overlay}
      {base.failure && !plain && (
        <Alert
          pos="absolute"
          bottom={10}
          left={10}
          right={10}
          maw={420}
          color="yellow"
          role="alert"
          icon={<IconAlertTriangle size={18} />}
          title={w.unavailable}
          withCloseButton
          closeButtonLabel={w.close}
          onClose={base.dismissFailure}
          style={{ zIndex: 3 }}
          data-testid="basemap-notice"
        >
          <Text size="sm">{[base.failure, w.showingOffline].filter(Boolean).join(' ')}</Text>
        </Alert>
      )}
    </Paper>
  );
}
