import { useCallback, useMemo, useRef, useState } from 'react';
import { Alert, Badge, Box, Button, Drawer, Group, Paper, SegmentedControl, Switch, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconList } from '@tabler/icons-react';
import type { MapRef } from 'react-map-gl/maplibre';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { BASE_MAPS, type BaseMapId } from '../../lib/map/base-styles.ts';
import { useGroups } from '../../lib/map/map-api.ts';
import { useBaseMap } from '../../lib/map/use-base-map.ts';
import { useUnits } from '../../lib/units.ts';
import { LiveMap } from './live-map.tsx';
import { PLACES_SOURCE } from './map-layers.tsx';
import { useFleetFilters } from './use-fleet-filters.ts';
import { useLiveFleet, useTick } from './use-live-fleet.ts';
import { usePlacesLayer } from './use-places-layer.ts';
import { useVehicleSelection } from './use-vehicle-selection.ts';
import { VehicleCard } from './vehicle-card.tsx';
import { VehicleList } from './vehicle-list.tsx';
import { vehiclesToGeoJSON, VEHICLES_SOURCE } from './vehicle-layers.ts';

const OWN_SOURCES = [VEHICLES_SOURCE, PLACES_SOURCE, `${PLACES_SOURCE}-labels`];
export const MAP_HEIGHT = 'calc(100dvh - var(--app-shell-header-height, 60px) - var(--app-shell-footer-height, 0px) - 2 * var(--mantine-spacing-md))';

/**
 * The live map (traccar-web's shape): a hook per concern (the fleet's stream, the list's filters, the
 * chosen vehicle, the places layer) and a component per part (the map and its layers, the list, the
 * card). The list is beside the map on wide screens and a drawer on phones.
 */
export default function MapPage() {
  const orgId = useEffectiveOrganizationId();
  const units = useUnits();
  const groups = useGroups();
  const mobile = useMediaQuery('(max-width: 48em)');
  const base = useBaseMap(OWN_SOURCES);
  const mapRef = useRef<MapRef>(null);
  const [listOpen, setListOpen] = useState(false);

  const { live, streamState, loadError } = useLiveFleet(orgId);
  useTick(5000); // "Last update" ages
  const filters = useFleetFilters(live);
  const closeList = useCallback(() => setListOpen(false), []);
  const selection = useVehicleSelection(live, mapRef, closeList);
  const places = usePlacesLayer();
  const vehicles = useMemo(() => vehiclesToGeoJSON(filters.visible, selection.selectedId), [filters.visible, selection.selectedId]);
  const { selected } = selection;

  const list = (
    <VehicleList
      vehicles={filters.visible}
      total={live.vehicles.size}
      loaded={live.loaded}
      loadError={loadError}
      counts={filters.counts}
      search={filters.search}
      onSearch={filters.setSearch}
      status={filters.status}
      onStatus={filters.setStatus}
      groupId={filters.groupId}
      onGroup={filters.setGroupId}
      groups={groups.data?.content.map((g) => ({ value: g.id, label: g.name })) ?? []}
      selectedId={selection.selectedId}
      onSelect={selection.select}
      units={units}
    />
  );

  return (
    <Box pos="relative" h={MAP_HEIGHT} mih={420} data-testid="live-map-page" style={{ display: 'flex', gap: 'var(--mantine-spacing-sm)' }}>
      {/* The map fills the page; the heading is for screen readers and page outlines. */}
      <VisuallyHidden component="h1">Map</VisuallyHidden>
      {!mobile && (
        <Paper withBorder w={340} style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden', flexShrink: 0 }}>
          {list}
        </Paper>
      )}
      <Paper withBorder pos="relative" style={{ flex: 1, overflow: 'hidden' }}>
        <LiveMap
          mapRef={mapRef}
          base={base}
          ownSources={OWN_SOURCES}
          vehicles={vehicles}
          places={places}
          onVehicle={(id) => {
            const v = live.vehicles.get(id);
            if (v) selection.select(v, false);
          }}
          onDragStart={() => selection.setFollow(false)}
        />

        <Group pos="absolute" top={10} left={10} gap="xs" style={{ zIndex: 2 }}>
          {mobile && (
            <Button size="xs" leftSection={<IconList size={16} />} onClick={() => setListOpen(true)}>
              Vehicles ({filters.visible.length})
            </Button>
          )}
          <SegmentedControl
            size="xs"
            aria-label="Base map"
            value={base.choice}
            onChange={(v) => base.setChoice(v as BaseMapId)}
            data={BASE_MAPS.map((b) => ({ value: b.id, label: b.id === 'offline' ? 'Offline' : b.label }))}
          />
          {places.canSee && (
            <Paper px={8} py={4} radius="sm" withBorder>
              <Switch size="xs" label="Places" checked={places.shown} onChange={(e) => places.setShown(e.currentTarget.checked)} />
            </Paper>
          )}
          {streamState !== 'open' && live.loaded && (
            <Badge color={streamState === 'closed' ? 'red' : 'yellow'} variant="filled">
              {streamState === 'closed' ? 'Live updates stopped' : 'Reconnecting…'}
            </Badge>
          )}
        </Group>

        {base.failure && (
          <Alert
            pos="absolute"
            bottom={selected ? undefined : 10}
            top={selected ? 50 : undefined}
            left={10}
            right={10}
            maw={520}
            color="yellow"
            role="alert"
            icon={<IconAlertTriangle size={18} />}
            title="Street map unavailable"
            withCloseButton
            onClose={base.dismissFailure}
            style={{ zIndex: 3 }}
            data-testid="basemap-notice"
          >
            {base.failure} Showing the offline map (state and province outlines) instead.
          </Alert>
        )}

        {selected && (
          <VehicleCard
            vehicle={selected}
            place={places.atPlace.get(selected.assetId) ?? null}
            units={units}
            follow={selection.follow}
            onFollow={selection.setFollow}
            onClose={selection.close}
          />
        )}
      </Paper>

      {mobile && (
        <Drawer
          opened={listOpen}
          onClose={() => setListOpen(false)}
          title="Vehicles"
          position="left"
          size="100%"
          padding={0}
          styles={{ header: { paddingInline: 'var(--mantine-spacing-md)' } }}
        >
          <Box h="calc(100dvh - 70px)" style={{ display: 'flex', flexDirection: 'column' }}>
            {list}
          </Box>
        </Drawer>
      )}
    </Box>
  );
}
