import 'maplibre-gl/dist/maplibre-gl.css';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Alert, Anchor, Badge, Box, Button, CloseButton, Drawer, Group, Loader, Paper, ScrollArea, SegmentedControl, Select, Stack, Switch, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { IconAlertTriangle, IconList, IconSearch } from '@tabler/icons-react';
import type { LiveVehicle, VehiclePlace, VehicleStatus } from '@fleet/api-contract';
import MapGL, { Layer, NavigationControl, Source, type MapLayerMouseEvent, type MapRef } from 'react-map-gl/maplibre';
import type { GeoJSONSource, Map as MaplibreMap, SymbolLayerSpecification } from 'maplibre-gl';
import { coalesceSourceRepaints, type RepaintGate } from './coalesce-repaints.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { BASE_MAPS, type BaseMapId } from '../../lib/map/base-styles.ts';
import { connectLiveStream, countByStatus, filterVehicles, liveStreamUrl, LiveStore } from './live-store.ts';
import { fetchLiveVehicles, fetchStreamTicket, formatAge, useGroups, useMapPlaces, useVehiclePlaces } from '../../lib/map/map-api.ts';
import { placeLabelsToGeoJSON, placeLayers, placesToGeoJSON } from '../../lib/map/place-shapes.ts';
import { formatShortDateTime, formatTime, todayIn } from '../../lib/dates.ts';
import { useCan } from '../../lib/registry-api.ts';
import { local } from '../../lib/storage.ts';
import { formatSpeed, useUnits, type UnitSystem } from '../../lib/units.ts';
import { ApiError } from '../../lib/api-client.ts';
import { onStreamRevoked } from '../../lib/stream-revoked.ts';
import { currentUser, homePath } from '../../lib/auth-store.ts';
import { useBaseMap } from '../../lib/map/use-base-map.ts';
import { LIGHT_TONES } from '../../lib/theme.ts';
import { ARROW_IMAGE, arrowImage, CLICKABLE_VEHICLE_LAYERS, STATUS_COLORS, STATUS_LABELS, STATUS_TONES, vehicleLayers, vehiclesSource, vehiclesToGeoJSON, VEHICLES_SOURCE } from './vehicle-layers.ts';

const STATUSES: VehicleStatus[] = ['MOVING', 'IDLING', 'STOPPED', 'OFFLINE'];
const PLACES_SOURCE = 'map-places';
const OWN_SOURCES = [VEHICLES_SOURCE, PLACES_SOURCE, `${PLACES_SOURCE}-labels`];
const PLACES_LAYER_KEY = 'fleet.map.places';
const US_VIEW = { longitude: -96, latitude: 39, zoom: 3.3 };
export const MAP_HEIGHT = 'calc(100dvh - var(--app-shell-header-height, 60px) - var(--app-shell-footer-height, 0px) - 2 * var(--mantine-spacing-md))';

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

export default function MapPage() {
  const orgId = useEffectiveOrganizationId();
  const units = useUnits();
  const groups = useGroups();
  const mobile = useMediaQuery('(max-width: 48em)');
  const base = useBaseMap(OWN_SOURCES);
  const mapRef = useRef<MapRef>(null);

  const store = useMemo(() => new LiveStore(), []);
  const live = useSyncExternalStore(store.subscribe, store.getState);
  const [streamState, setStreamState] = useState<'open' | 'reconnecting' | 'closed'>('reconnecting');
  const [loadError, setLoadError] = useState<string | null>(null);

  const [search, setSearch] = useState('');
  // The dashboard's vehicle counters open the map with `?status=MOVING&group=…`.
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [status, setStatus] = useState<VehicleStatus | null>(() => {
    const s = params.get('status');
    return s === 'MOVING' || s === 'IDLING' || s === 'STOPPED' || s === 'OFFLINE' ? s : null;
  });
  const [groupId, setGroupId] = useState<string | null>(() => params.get('group'));
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [follow, setFollow] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const [, tick] = useState(0);

  // First paint from REST, then the stream (snapshot + changes), each connection with a fresh ticket.
  useEffect(() => {
    if (!orgId) return;
    const ac = new AbortController();
    fetchLiveVehicles(orgId, ac.signal)
      .then((r) => {
        if (!store.getState().loaded) store.setSnapshot(r.vehicles);
      })
      .catch((e: unknown) => {
        if (!ac.signal.aborted) setLoadError(e instanceof Error ? e.message : 'The vehicles could not be loaded');
      });
    const stop = connectLiveStream(store, {
      url: async (signal) => liveStreamUrl(orgId, (await fetchStreamTicket(orgId, signal)).ticket),
      onStatus: setStreamState,
      // No permission or no such organization will not change by retrying (a 401 has already
      // tried a token refresh, and signs out when that fails).
      isFatal: (e) => e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429,
      onRevoked: (revoked) => {
        if (revoked.reason === 'forbidden') {
          // ASSET_LIST or the organization was withdrawn: the fleet on screen is no longer the user's to see.
          onStreamRevoked({ ...revoked, message: 'You no longer have access to the live map.' });
          void navigate(homePath(currentUser()), { replace: true });
        } else onStreamRevoked(revoked);
      },
    });
    return () => {
      ac.abort();
      stop();
    };
  }, [orgId, store, navigate]);

  // "Last update" ages tick.
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 5000);
    return () => clearInterval(t);
  }, []);

  const visible = useMemo(() => filterVehicles(live.sorted, { search, status, groupId }, true), [live.version, search, status, groupId]); 
  // Counts per status under the search and group filters (not the status filter): no sorting.
  const groupCounts = useMemo(() => countByStatus(live.vehicles.values(), { search, groupId }), [live.version, search, groupId]); 
  const geojson = useMemo(() => vehiclesToGeoJSON(visible, selectedId), [visible, selectedId]);
  // New data for the map: hold its repaints now, before <Source> below hands the data to MapLibre
  // in this same render (it asks for a repaint at once, with the old clusters still in place).
  const gate = useRef<RepaintGate | null>(null);
  const handedData = useRef(geojson);
  if (handedData.current !== geojson) {
    handedData.current = geojson;
    gate.current?.hold();
  }
  const selected = selectedId ? (live.vehicles.get(selectedId) ?? null) : null;

  // Follow: keep the selected vehicle centred as it moves.
  useEffect(() => {
    if (follow && selected) mapRef.current?.easeTo({ center: [selected.longitude, selected.latitude], duration: 500 });
  }, [follow, selected]);

  const select = useCallback((v: LiveVehicle, fly = true) => {
    setSelectedId(v.assetId);
    setListOpen(false);
    if (fly) mapRef.current?.flyTo({ center: [v.longitude, v.latitude], zoom: Math.max(mapRef.current.getZoom(), 10), duration: 800 });
  }, []);

  const onClick = useCallback(
    async (e: MapLayerMouseEvent) => {
      const f = e.features?.[0];
      if (!f) return;
      const props = f.properties as { cluster?: boolean; cluster_id?: number; id?: string };
      if (props.cluster && props.cluster_id !== undefined && f.geometry.type === 'Point') {
        const src = mapRef.current?.getSource(VEHICLES_SOURCE) as GeoJSONSource | undefined;
        const zoom = await src?.getClusterExpansionZoom(props.cluster_id);
        mapRef.current?.easeTo({ center: f.geometry.coordinates as [number, number], zoom: zoom ?? 8 });
        return;
      }
      const v = props.id ? live.vehicles.get(props.id) : undefined;
      if (v) select(v, false);
    },
    [live.vehicles, select],
  );

  const layers = useMemo(() => vehicleLayers(), []);

  // Issue 32: the places layer (remembered per browser) and each vehicle's current place.
  const canSeePlaces = useCan('PLACE_LIST');
  const [showPlaces, setShowPlaces] = useState(() => local.getJson<boolean>(PLACES_LAYER_KEY) ?? true);
  const mapPlaces = useMapPlaces(canSeePlaces && showPlaces);
  const vehiclePlaces = useVehiclePlaces(canSeePlaces);
  const placeFills = useMemo(() => placesToGeoJSON(mapPlaces.data?.content ?? []), [mapPlaces.data]);
  const placeLabels = useMemo(() => placeLabelsToGeoJSON(mapPlaces.data?.content ?? []), [mapPlaces.data]);
  const placeStyle = useMemo(() => placeLayers(PLACES_SOURCE, 11), []);
  const placesShown = canSeePlaces && showPlaces ? 'visible' : 'none';
  const atPlace = useMemo(() => new Map((vehiclePlaces.data?.content ?? []).map((v) => [v.assetId, v])), [vehiclePlaces.data]);

  // Once per map, on its first style event: `load` waits until every source is idle, which a
  // fleet re-tiling every second may never be (the arrow image and the repaint coalescing would
  // then never be set up).
  const setUpFor = useRef<MaplibreMap | null>(null);
  const setupMap = useCallback((map: MaplibreMap) => {
    if (setUpFor.current === map) return;
    setUpFor.current = map;
    ensureArrow(map);
    map.on('styleimagemissing', () => ensureArrow(map));
    gate.current?.dispose();
    gate.current = coalesceSourceRepaints(map, VEHICLES_SOURCE);
    window.__fleetlineMapProbe?.(map);
  }, []);

  const list = (
    <VehicleList
      vehicles={visible}
      total={live.vehicles.size}
      loaded={live.loaded}
      loadError={loadError}
      counts={groupCounts}
      search={search}
      onSearch={setSearch}
      status={status}
      onStatus={setStatus}
      groupId={groupId}
      onGroup={setGroupId}
      groups={groups.data?.content.map((g) => ({ value: g.id, label: g.name })) ?? []}
      selectedId={selectedId}
      onSelect={select}
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
        {base.style ? (
          <MapGL
            ref={mapRef}
            initialViewState={US_VIEW}
            mapStyle={base.style}
            style={{ width: '100%', height: '100%' }}
            interactiveLayerIds={CLICKABLE_VEHICLE_LAYERS}
            onClick={(e) => void onClick(e)}
            onDragStart={() => setFollow(false)}
            onLoad={(e) => {
              setupMap(e.target);
              base.onStyleLoaded();
            }}
            onStyleData={(e) => {
              setupMap(e.target);
              if (e.target.isStyleLoaded()) base.onStyleLoaded();
            }}
            onSourceData={(e) => {
              // With live data the map as a whole is rarely "loaded" (the vehicles re-tile every
              // second), so the base map counts as loaded when one of its own sources is.
              if (e.isSourceLoaded && !OWN_SOURCES.includes(e.sourceId)) base.onStyleLoaded();
            }}
            onError={(e) => {
              const err = e as unknown as { error?: { message?: string }; sourceId?: string };
              // Base-map failures become the notice; anything else (our layers, our handlers) must
              // not vanish silently: MapLibre stops logging once an error listener exists.
              if (!err.sourceId || OWN_SOURCES.includes(err.sourceId)) console.error(e.error);
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
            <Source id={PLACES_SOURCE} type="geojson" data={placeFills}>
              <Layer {...placeStyle[0]!} layout={{ visibility: placesShown }} />
              <Layer {...placeStyle[1]!} layout={{ visibility: placesShown }} />
            </Source>
            <Source id={`${PLACES_SOURCE}-labels`} type="geojson" data={placeLabels}>
              <Layer {...(placeStyle[2] as SymbolLayerSpecification)} layout={{ ...(placeStyle[2] as SymbolLayerSpecification).layout, visibility: placesShown }} />
              <Layer {...placeStyle[3]!} layout={{ visibility: placesShown }} />
            </Source>
            <Source id={VEHICLES_SOURCE} {...vehiclesSource(geojson)}>
              {layers.map((l) => (
                <Layer key={l.id} {...l} />
              ))}
            </Source>
          </MapGL>
        ) : (
          <Box h="100%" style={{ display: 'grid', placeItems: 'center' }}>
            <Loader aria-label="Loading the map" />
          </Box>
        )}

        <Group pos="absolute" top={10} left={10} gap="xs" style={{ zIndex: 2 }}>
          {mobile && (
            <Button size="xs" leftSection={<IconList size={16} />} onClick={() => setListOpen(true)}>
              Vehicles ({visible.length})
            </Button>
          )}
          <SegmentedControl
            size="xs"
            aria-label="Base map"
            value={base.choice}
            onChange={(v) => base.setChoice(v as BaseMapId)}
            data={BASE_MAPS.map((b) => ({ value: b.id, label: b.id === 'offline' ? 'Offline' : b.label }))}
          />
          {canSeePlaces && (
            <Paper px={8} py={4} radius="sm" withBorder>
              <Switch
                size="xs"
                label="Places"
                checked={showPlaces}
                onChange={(e) => {
                  setShowPlaces(e.currentTarget.checked);
                  local.setJson(PLACES_LAYER_KEY, e.currentTarget.checked);
                }}
              />
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
          <VehicleCard vehicle={selected} place={atPlace.get(selected.assetId) ?? null} units={units} follow={follow} onFollow={setFollow} onClose={() => { setSelectedId(null); setFollow(false); }} />
        )}
      </Paper>

      {mobile && (
        <Drawer opened={listOpen} onClose={() => setListOpen(false)} title="Vehicles" position="left" size="100%" padding={0} styles={{ header: { paddingInline: 'var(--mantine-spacing-md)' } }}>
          <Box h="calc(100dvh - 70px)" style={{ display: 'flex', flexDirection: 'column' }}>
            {list}
          </Box>
        </Drawer>
      )}
    </Box>
  );
}

interface VehicleListProps {
  vehicles: LiveVehicle[];
  total: number;
  loaded: boolean;
  loadError: string | null;
  counts: Record<VehicleStatus, number>;
  search: string;
  onSearch: (s: string) => void;
  status: VehicleStatus | null;
  onStatus: (s: VehicleStatus | null) => void;
  groupId: string | null;
  onGroup: (g: string | null) => void;
  groups: { value: string; label: string }[];
  selectedId: string | null;
  onSelect: (v: LiveVehicle) => void;
  units: UnitSystem;
}

function VehicleList(p: VehicleListProps) {
  const viewport = useRef<HTMLDivElement>(null);
  return (
    <>
      <Stack gap="xs" p="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <TextInput
          aria-label="Search vehicles"
          placeholder="Search unit or driver"
          leftSection={<IconSearch size={16} />}
          value={p.search}
          onChange={(e) => p.onSearch(e.currentTarget.value)}
        />
        <Select aria-label="Group" placeholder="All groups" clearable data={p.groups} value={p.groupId} onChange={p.onGroup} />
        <Group gap={6} role="group" aria-label="Status filter">
          {STATUSES.map((s) => {
            const active = p.status === s;
            return (
              <Button
                key={s}
                size="compact-xs"
                radius="xl"
                variant={active ? 'filled' : 'light'}
                // Filled (chosen): white on the tone's darkest shade; light: the theme's readable tone text.
                color={active ? LIGHT_TONES[STATUS_TONES[s]]!.light : STATUS_TONES[s]}
                aria-pressed={active}
                onClick={() => p.onStatus(active ? null : s)}
                data-testid={`status-filter-${s}`}
              >
                {STATUS_LABELS[s]} {p.counts[s]}
              </Button>
            );
          })}
        </Group>
      </Stack>
      <ScrollArea style={{ flex: 1 }} viewportRef={viewport}>
        {p.loadError && !p.loaded ? (
          <Alert m="sm" color="red" title="Vehicles could not be loaded">
            {p.loadError}
          </Alert>
        ) : !p.loaded ? (
          <Group justify="center" p="lg">
            <Loader size="sm" aria-label="Loading vehicles" />
          </Group>
        ) : p.vehicles.length === 0 ? (
          <Text c="dimmed" ta="center" p="lg" size="sm">
            {p.total === 0 ? 'No vehicle has reported a position yet. Pair a device with a vehicle and it appears here.' : 'No vehicle matches the filters.'}
          </Text>
        ) : (
          <VehicleRows vehicles={p.vehicles} selectedId={p.selectedId} onSelect={p.onSelect} units={p.units} viewport={viewport} />
        )}
      </ScrollArea>
    </>
  );
}

/** Row height of the side list (two lines of text and padding); the virtualiser measures real rows. */
const ROW_HEIGHT = 53;
/** Above this many rows the list renders only what is on screen. */
const VIRTUALIZE_ABOVE = 200;

/**
 * The vehicle rows. A small fleet renders every row (find-in-page works); a big one renders only
 * the rows in view, so thousands of vehicles updating every second cost a few dozen rows.
 */
function VehicleRows(p: { vehicles: LiveVehicle[]; selectedId: string | null; onSelect: (v: LiveVehicle) => void; units: UnitSystem; viewport: React.RefObject<HTMLDivElement | null> }) {
  const virtual = p.vehicles.length > VIRTUALIZE_ABOVE;
  const virtualizer = useVirtualizer({
    count: p.vehicles.length,
    getScrollElement: () => p.viewport.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    enabled: virtual,
    getItemKey: (i) => p.vehicles[i]!.assetId,
  });
  const row = (v: LiveVehicle) => (
    <UnstyledButton
      w="100%"
      px="sm"
      py={8}
      h={ROW_HEIGHT}
      onClick={() => p.onSelect(v)}
      aria-current={v.assetId === p.selectedId || undefined}
      data-testid="vehicle-row"
      style={{
        borderBottom: '1px solid var(--mantine-color-default-border)',
        background: v.assetId === p.selectedId ? 'var(--mantine-color-default-hover)' : undefined,
      }}
    >
      <Group gap="sm" wrap="nowrap">
        <Box w={10} h={10} style={{ borderRadius: 10, background: STATUS_COLORS[v.status], flexShrink: 0 }} aria-hidden />
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={600} truncate>
            {v.unitNumber}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {v.driverName ?? 'No driver'} · {STATUS_LABELS[v.status]}
          </Text>
        </Box>
        <Stack gap={0} align="flex-end">
          <Text size="xs">{formatSpeed(v.speed, p.units)}</Text>
          <Text size="xs" c="dimmed">
            {formatAge(v.fixTime)}
          </Text>
        </Stack>
      </Group>
    </UnstyledButton>
  );
  const list = { listStyle: 'none', margin: 0, padding: 0 } as const;
  if (!virtual) {
    return (
      <Stack gap={0} component="ul" style={list} aria-label="Vehicles" data-testid="vehicle-list">
        {p.vehicles.map((v) => (
          <li key={v.assetId}>{row(v)}</li>
        ))}
      </Stack>
    );
  }
  return (
    <ul style={{ ...list, position: 'relative', height: virtualizer.getTotalSize() }} aria-label="Vehicles" data-testid="vehicle-list">
      {virtualizer.getVirtualItems().map((item) => {
        const v = p.vehicles[item.index]!;
        return (
          <li
            key={item.key}
            aria-setsize={p.vehicles.length}
            aria-posinset={item.index + 1}
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
          >
            {row(v)}
          </li>
        );
      })}
    </ul>
  );
}

function VehicleCard({ vehicle: v, place, units, follow, onFollow, onClose }: { vehicle: LiveVehicle; place: VehiclePlace | null; units: UnitSystem; follow: boolean; onFollow: (f: boolean) => void; onClose: () => void }) {
  const row = (label: string, value: string) => (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right">
        {value}
      </Text>
    </Group>
  );
  return (
    <Paper
      shadow="md"
      withBorder
      p="sm"
      pos="absolute"
      bottom={10}
      left={10}
      w={300}
      maw="calc(100% - 20px)"
      style={{ zIndex: 3 }}
      role="dialog"
      aria-label={`Vehicle ${v.unitNumber}`}
      data-testid="vehicle-card"
    >
      <Group justify="space-between" mb={6} wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <Text fw={700}>{v.unitNumber}</Text>
          <Badge color={LIGHT_TONES[STATUS_TONES[v.status]]!.light} variant="filled" size="sm">
            {STATUS_LABELS[v.status]}
          </Badge>
        </Group>
        <CloseButton aria-label="Close vehicle card" onClick={onClose} />
      </Group>
      <Stack gap={4}>
        {place && (
          <Text size="sm" fw={600} data-testid="vehicle-place">
            At{' '}
            <Anchor component={Link} to={`/places/${place.placeId}`} size="sm" fw={600}>
              {place.placeName}
            </Anchor>{' '}
            since {todayIn() === todayIn(undefined, new Date(place.arrivedAt)) ? formatTime(place.arrivedAt) : formatShortDateTime(place.arrivedAt)}
          </Text>
        )}
        {row('Driver', v.driverName ?? 'No driver')}
        {row('Speed', formatSpeed(v.speed, units))}
        {row('Last update', formatAge(v.fixTime))}
        {row('Coordinates', `${v.latitude.toFixed(5)}, ${v.longitude.toFixed(5)}`)}
      </Stack>
      <Group justify="space-between" mt="sm">
        <Switch label="Follow" checked={follow} onChange={(e) => onFollow(e.currentTarget.checked)} />
        <Button component={Link} to={`/map/history?asset=${v.assetId}`} size="xs" variant="light">
          History
        </Button>
      </Group>
    </Paper>
  );
}
