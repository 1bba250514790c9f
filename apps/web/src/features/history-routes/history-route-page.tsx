import 'maplibre-gl/dist/maplibre-gl.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Badge, Box, Button, Group, Loader, Paper, SegmentedControl, Select, SimpleGrid, Slider, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { LineChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { IconAlertTriangle, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import MapGL, { Layer, Marker, NavigationControl, Source, type MapRef } from 'react-map-gl/maplibre';
import { dayStartIn, formatDateTime, formatTime, fromZoneInput, todayIn, toZoneInput, zoneLabel } from '../../lib/dates.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { DataState } from '../../components/data-state.tsx';
import { BASE_MAPS, type BaseMapId } from '../../lib/map/base-styles.ts';
import { formatDuration } from '../../lib/map/map-api.ts';
import { formatDistance, formatOdometer, formatSpeed, speedIn, unitLabels, useUnits } from '../../lib/units.ts';
import { markersToGeoJSON, MARKERS_SOURCE, speedStops, trackLayers, trackToGeoJSON, TRACK_SOURCE } from '../../lib/map/track-layers.ts';
import { useBaseMap } from '../../lib/map/use-base-map.ts';
import { playbackPosition, speedSeries, timeTicks, tripSpan } from './playback.ts';
import { useHistoryRoute, useSubjectOptions, useVehicleTrips, type HistorySubject } from './history-routes-api.ts';
import { useCan } from '../../lib/registry-api.ts';
import type { FeatureCollection, LineString } from 'geojson';
import type { HistoryRoute, TripRow } from '@fleet/api-contract';
import { type UnitSystem } from '../../lib/units.ts';
import classes from './history.module.css';

type Subject = HistorySubject;
const SUBJECTS: { value: Subject; label: string }[] = [
  { value: 'assets', label: 'Vehicle' },
  { value: 'drivers', label: 'Driver' },
  { value: 'gateways', label: 'Device' },
];
const SPEEDS = [1, 2, 4, 8, 16];
const TRIP_SOURCE = 'history-trip';
const OWN_SOURCES = [TRACK_SOURCE, MARKERS_SOURCE, TRIP_SOURCE];
/** One second of playback covers this much track time at 1x (a day plays in about 24 minutes at 1x, 90 s at 16x). */
const TRACK_SECONDS_PER_SECOND = 60;

/** Midnight of the viewer's today (decision 0140: the profile's or organization's zone, not the browser's). */
function startOfToday(): Date {
  return new Date(dayStartIn(todayIn()));
}

/** The pickers show and take wall-clock times of the viewer's zone ("2026-06-01 06:19:00"). */
const pickerValue = (d: Date) => `${toZoneInput(d.toISOString()).replace('T', ' ')}:00`;
const fromPicker = (v: string | null) => {
  const iso = v ? fromZoneInput(v.slice(0, 16).replace(' ', 'T')) : null;
  return iso ? new Date(iso) : null;
};

export default function HistoryRoutePage() {
  const orgId = useEffectiveOrganizationId();
  const units = useUnits();
  const [params, setParams] = useSearchParams();
  const subject = (['assets', 'drivers', 'gateways'].includes(params.get('type') ?? '') ? params.get('type') : 'assets') as Subject;
  const subjectId = params.get(subject === 'assets' ? 'asset' : subject === 'drivers' ? 'driver' : 'gateway');
  const [from, setFrom] = useState<Date>(startOfToday);
  const [to, setTo] = useState<Date>(() => new Date());
  const options = useSubjectOptions(orgId, subject);
  const base = useBaseMap(OWN_SOURCES);
  const mapRef = useRef<MapRef>(null);

  const setSubject = (type: Subject, id: string | null) => {
    const key = type === 'assets' ? 'asset' : type === 'drivers' ? 'driver' : 'gateway';
    setParams(id ? { type, [key]: id } : { type }, { replace: true });
  };

  const rangeError = to <= from ? 'The end must be after the start' : null;
  const route = useHistoryRoute(orgId, subject, subjectId, from.toISOString(), to.toISOString(), !!orgId && !!subjectId && !rangeError);
  const data = route.data;
  const track = data?.track ?? [];

  // Issue 32: the vehicle's trips in the range, beside the route; choosing one plays just that trip.
  const canReport = useCan('REPORT_LIST');
  const trips = useVehicleTrips(orgId, subject === 'assets' ? subjectId : null, from.toISOString(), to.toISOString(), canReport && !rangeError);
  const [tripId, setTripId] = useState<string | null>(null);
  const trip = trips.data?.content.find((t) => t.id === tripId) ?? null;
  const span = useMemo(() => (trip ? tripSpan(track, trip.startedAt, trip.endedAt) : null), [trip, track]);
  const end = span?.to ?? Math.max(0, track.length - 1);

  // Playback: index into the track (fractional), advanced by requestAnimationFrame.
  const [pos, setPos] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [rate, setRate] = useState(1);
  useEffect(() => {
    setPos(0);
    setPlaying(false);
    setTripId(null);
  }, [data]);
  const chooseTrip = (id: string) => {
    const t = trips.data?.content.find((x) => x.id === id);
    const sp = t ? tripSpan(track, t.startedAt, t.endedAt) : null;
    setTripId(id);
    if (!sp) return;
    setPos(sp.from);
    setPlaying(true);
    let [w, so, e, n] = [180, 90, -180, -90];
    for (const p of track.slice(sp.from, sp.to + 1)) {
      w = Math.min(w, p.longitude);
      e = Math.max(e, p.longitude);
      so = Math.min(so, p.latitude);
      n = Math.max(n, p.latitude);
    }
    mapRef.current?.fitBounds([w, so, e, n], { padding: 50, duration: 600, maxZoom: 14 });
  };
  useEffect(() => {
    if (!playing || track.length < 2) return;
    let raf = 0;
    let last = performance.now();
    const step = (now: number) => {
      const dt = (now - last) / 1000;
      last = now;
      setPos((p) => {
        const next = Math.min(end, playbackPosition(track, p, dt * rate * TRACK_SECONDS_PER_SECOND));
        if (next >= end) setPlaying(false);
        return next;
      });
      raf = requestAnimationFrame(step);
    };
    raf = requestAnimationFrame(step);
    return () => cancelAnimationFrame(raf);
  }, [playing, rate, track, end]);

  // Fit the map to the track when a new one arrives.
  useEffect(() => {
    if (!track.length || !mapRef.current) return;
    let [w, s, e, n] = [180, 90, -180, -90];
    for (const p of track) {
      w = Math.min(w, p.longitude);
      e = Math.max(e, p.longitude);
      s = Math.min(s, p.latitude);
      n = Math.max(n, p.latitude);
    }
    mapRef.current.fitBounds([w, s, e, n], { padding: 40, duration: 600, maxZoom: 13 });
  }, [track]);

  const trackGeo = useMemo(() => trackToGeoJSON(track), [track]);
  // The chosen trip, drawn wide under the speed-coloured track.
  const tripGeo = useMemo(
    (): FeatureCollection<LineString> => ({
      type: 'FeatureCollection',
      features: span && span.to > span.from ? [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: track.slice(span.from, span.to + 1).map((p) => [p.longitude, p.latitude]) } }] : [],
    }),
    [span, track],
  );
  const markerGeo = useMemo(() => markersToGeoJSON({ track, stops: data?.stops ?? [] }), [track, data]);
  const layers = useMemo(() => trackLayers(units), [units]);
  // Issue 46: x is the fix time (a linear axis), so a stretch of the chart is a stretch of time and a silence is a gap.
  const chart = useMemo(() => speedSeries(track, (kmh) => speedIn(kmh, units)), [track, units]);
  const ticks = useMemo(() => (chart.length ? timeTicks(chart[0]!.t, chart[chart.length - 1]!.t) : []), [chart]);
  const idx = Math.min(Math.floor(pos), Math.max(0, track.length - 1));
  const cur = track[idx];
  const nxt = track[Math.min(idx + 1, track.length - 1)];
  const f = pos - idx;
  const marker = cur && nxt ? { lon: cur.longitude + (nxt.longitude - cur.longitude) * f, lat: cur.latitude + (nxt.latitude - cur.latitude) * f } : null;
  const unitLabel = unitLabels(units).speed;

  return (
    <Stack gap="sm" data-testid="history-page">
      <Title order={2}>History Route</Title>
      <Paper withBorder p="sm">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <SegmentedControl aria-label="Show the history of" value={subject} onChange={(v) => setSubject(v as Subject, null)} data={SUBJECTS} />
          <Select
            label={SUBJECTS.find((s) => s.value === subject)!.label}
            placeholder={options.isLoading ? 'Loading…' : 'Pick one'}
            searchable
            data={options.data ?? []}
            value={subjectId}
            onChange={(v) => setSubject(subject, v)}
            w={240}
            nothingFoundMessage="Nothing found"
          />
          <DateTimePicker label={`From (${zoneLabel(from)})`} value={pickerValue(from)} onChange={(v) => { const d = fromPicker(v); if (d) setFrom(d); }} w={190} maxDate={pickerValue(new Date())} valueFormat="MM/DD/YY hh:mm A" />
          <DateTimePicker label={`To (${zoneLabel(to)})`} value={pickerValue(to)} onChange={(v) => { const d = fromPicker(v); if (d) setTo(d); }} w={190} error={rangeError} valueFormat="MM/DD/YY hh:mm A" />
          <Button
            variant="default"
            onClick={() => {
              setFrom(startOfToday());
              setTo(new Date());
            }}
          >
            Today
          </Button>
        </Group>
      </Paper>

      <Box style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 'var(--mantine-spacing-sm)' }}>
        <Box className={classes.beside}>
        <Paper withBorder pos="relative" h={{ base: 340, sm: 480 }} style={{ overflow: 'hidden' }} data-testid="history-map">
          {base.style ? (
            <MapGL
              ref={mapRef}
              initialViewState={{ longitude: -96, latitude: 39, zoom: 3.3 }}
              mapStyle={base.style}
              style={{ width: '100%', height: '100%' }}
              onLoad={base.onStyleLoaded}
              onStyleData={(e) => {
                if (e.target.isStyleLoaded()) base.onStyleLoaded();
              }}
              onError={(e) => base.onMapError(e as unknown as { error?: { message?: string }; sourceId?: string })}
              attributionControl={{ compact: true }}
            >
              <NavigationControl position="top-right" />
              <Source id={TRIP_SOURCE} type="geojson" data={tripGeo}>
                <Layer id="history-trip" type="line" layout={{ 'line-cap': 'round', 'line-join': 'round' }} paint={{ 'line-color': '#1c7ed6', 'line-width': 14, 'line-opacity': 0.35 }} />
              </Source>
              <Source id={TRACK_SOURCE} type="geojson" data={trackGeo}>
                <Layer {...layers[0]!} />
                <Layer {...layers[1]!} />
              </Source>
              <Source id={MARKERS_SOURCE} type="geojson" data={markerGeo}>
                <Layer {...layers[2]!} />
              </Source>
              {marker && (
                <Marker longitude={marker.lon} latitude={marker.lat} anchor="center">
                  <Box data-testid="playback-marker" w={18} h={18} style={{ borderRadius: 18, background: '#1c7ed6', border: '3px solid white', boxShadow: '0 0 4px rgba(0,0,0,.5)' }} />
                </Marker>
              )}
            </MapGL>
          ) : (
            <Box h="100%" style={{ display: 'grid', placeItems: 'center' }}>
              <Loader aria-label="Loading the map" />
            </Box>
          )}
          <Group pos="absolute" top={10} left={10} gap="xs" style={{ zIndex: 2 }}>
            <SegmentedControl size="xs" aria-label="Base map" value={base.choice} onChange={(v) => base.setChoice(v as BaseMapId)} data={BASE_MAPS.map((b) => ({ value: b.id, label: b.id === 'offline' ? 'Offline' : b.label }))} />
          </Group>
          {track.length > 0 && (
            <Paper pos="absolute" bottom={10} right={10} p={6} shadow="sm" withBorder style={{ zIndex: 2 }} aria-label="Speed legend" data-testid="speed-legend">
              <Text size="xs" fw={600} mb={2}>
                Speed ({unitLabel})
              </Text>
              <Group gap={4}>
                {speedStops(units).map((s) => (
                  <Group gap={2} key={s.kmh}>
                    <Box w={14} h={6} style={{ background: s.color, borderRadius: 2 }} />
                    <Text size="xs">{Math.round(speedIn(s.kmh, units))}+</Text>
                  </Group>
                ))}
              </Group>
            </Paper>
          )}
          {base.failure && (
            <Alert pos="absolute" bottom={10} left={10} maw={420} color="yellow" role="alert" icon={<IconAlertTriangle size={18} />} title="Street map unavailable" withCloseButton onClose={base.dismissFailure} style={{ zIndex: 3 }} data-testid="basemap-notice">
              {base.failure} Showing the offline map instead.
            </Alert>
          )}
        </Paper>
        {canReport && subject === 'assets' && subjectId && (
          <TripsPanel trips={trips.data?.content ?? []} loading={trips.isLoading} error={trips.error} selectedId={tripId} onChoose={chooseTrip} units={units} />
        )}
        </Box>
        {!subjectId ? (
          <Text c="dimmed" ta="center" py="md">
            Pick a vehicle, driver or device to see where it went.
          </Text>
        ) : (
          <DataState
            isLoading={route.isLoading}
            error={route.error}
            onRetry={() => void route.refetch()}
            isEmpty={!!data && track.length === 0}
            emptyTitle="No positions in this range"
            emptyDescription="Try another day or a longer range."
          >
            {data && (
              <Stack gap="sm">
                <Paper withBorder p="sm">
                  <Group gap="sm" wrap="nowrap">
                    <Button
                      onClick={() => {
                        if (pos >= end) setPos(span?.from ?? 0);
                        setPlaying((p) => !p);
                      }}
                      leftSection={playing ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
                      aria-label={playing ? 'Pause' : 'Play'}
                      data-testid="play-button"
                    >
                      {playing ? 'Pause' : 'Play'}
                    </Button>
                    <Slider
                      style={{ flex: 1 }}
                      min={0}
                      max={Math.max(0, track.length - 1)}
                      step={1}
                      value={idx}
                      onChange={(v) => setPos(v)}
                      label={(v) => (track[v] ? formatDateTime(track[v].time) : '')}
                      aria-label="Playback position"
                      thumbLabel="Playback position"
                      data-testid="playback-slider"
                    />
                    <Select aria-label="Playback speed" w={80} data={SPEEDS.map((s) => ({ value: String(s), label: `${s}x` }))} value={String(rate)} onChange={(v) => v && setRate(Number(v))} allowDeselect={false} />
                  </Group>
                  {cur && (
                    <Text size="sm" mt={6} data-testid="playback-readout">
                      {formatDateTime(cur.time)} · {formatSpeed(cur.speed, units)}
                    </Text>
                  )}
                  {cur && <PointDetail point={cur} units={units} />}
                  <LineChart
                    mt="sm"
                    h={140}
                    data={chart}
                    dataKey="t"
                    xAxisProps={{ type: 'number', scale: 'time', domain: ['dataMin', 'dataMax'], ticks, tickFormatter: (v: number) => formatTime(new Date(v).toISOString()), minTickGap: 16 }}
                    tooltipProps={{ labelFormatter: (v: unknown) => (typeof v === 'number' ? formatTime(new Date(v).toISOString()) : '') }}
                    series={[{ name: 'speed', label: `Speed (${unitLabel})`, color: 'blue.6' }]}
                    curveType="linear"
                    connectNulls={false}
                    withDots={false}
                    referenceLines={cur ? [{ x: Date.parse(cur.time), color: 'red.6', label: '' }] : []}
                    data-testid="speed-chart"
                  />
                </Paper>
                <SimpleGrid cols={{ base: 2, sm: 5 }} data-testid="history-summary">
                  <Stat label="Distance" value={formatDistance(data.summary.distanceM, units)} />
                  <Stat label="Driving" value={formatDuration(data.summary.drivingS)} />
                  <Stat label="Idle" value={formatDuration(data.summary.idleS)} />
                  <Stat label="Max speed" value={formatSpeed(data.summary.maxSpeed, units)} />
                  <Stat label="Average speed" value={formatSpeed(data.summary.averageSpeed, units)} />
                </SimpleGrid>
                {data.capped && (
                  <Badge color="gray" variant="light">
                    Track thinned to {track.length} points
                  </Badge>
                )}
                {data.imported && (
                  <Alert color="blue" variant="light" title="Includes imported GPS history" data-testid="history-imported">
                    {data.imported.positions} of the {data.summary.positions} positions in this range were imported from another system (
                    {formatDateTime(data.imported.from)} to {formatDateTime(data.imported.to)}), not recorded by a device here.
                  </Alert>
                )}
                <Paper withBorder>
                  <Text fw={600} p="sm">
                    Stops ({data.stops.length})
                  </Text>
                  {data.stops.length === 0 ? (
                    <Text c="dimmed" size="sm" px="sm" pb="sm">
                      No stops in this range.
                    </Text>
                  ) : (
                    <Table.ScrollContainer minWidth={420}>
                      <Table striped data-testid="stops-table">
                        <Table.Thead>
                          <Table.Tr>
                            <Table.Th>Start</Table.Th>
                            <Table.Th>Duration</Table.Th>
                            <Table.Th>Place</Table.Th>
                          </Table.Tr>
                        </Table.Thead>
                        <Table.Tbody>
                          {data.stops.map((s) => (
                            <Table.Tr
                              key={s.start}
                              tabIndex={0}
                              style={{ cursor: 'pointer' }}
                              onClick={() => mapRef.current?.flyTo({ center: [s.longitude, s.latitude], zoom: 12 })}
                              onKeyDown={(e) => e.key === 'Enter' && mapRef.current?.flyTo({ center: [s.longitude, s.latitude], zoom: 12 })}
                            >
                              <Table.Td>{formatDateTime(s.start)}</Table.Td>
                              <Table.Td>{formatDuration(s.durationS)}</Table.Td>
                              <Table.Td>
                                {s.place ? (
                                  <Text size="sm" fw={600} span>
                                    {s.place.name}
                                  </Text>
                                ) : (
                                  s.address
                                )}
                                {s.place && (
                                  <Text size="xs" c="dimmed">
                                    {s.address}
                                  </Text>
                                )}
                              </Table.Td>
                            </Table.Tr>
                          ))}
                        </Table.Tbody>
                      </Table>
                    </Table.ScrollContainer>
                  )}
                </Paper>
              </Stack>
            )}
          </DataState>
        )}
      </Box>
    </Stack>
  );
}

/**
 * The engine data the fix at the playback position carries (issue 46): ignition, the odometer (the
 * engine's when it reports one) in the organization's units, engine hours and rpm; "Not reported"
 * where the device sent none.
 */
function PointDetail({ point, units }: { point: HistoryRoute['track'][number]; units: UnitSystem }) {
  const none = 'Not reported';
  const items: Array<[string, string]> = [
    ['Ignition', point.ignition === null ? none : point.ignition ? 'On' : 'Off'],
    [point.odometerSource === 'ECM' ? 'Odometer (engine)' : point.odometerSource === 'GPS' ? 'Odometer (GPS)' : 'Odometer', point.odometer === null ? none : formatOdometer(point.odometer / 1000, units)],
    ['Engine hours', point.engineHours === null ? none : `${point.engineHours.toLocaleString('en-US', { maximumFractionDigits: 1 })} h`],
    ['Engine speed', point.rpm === null ? none : `${Math.round(point.rpm).toLocaleString('en-US')} rpm`],
  ];
  return (
    <Box component="dl" data-testid="point-detail" aria-label="Engine data at this point" style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))', gap: 6, margin: '6px 0 0' }}>
      {items.map(([label, value]) => (
        <Box key={label}>
          <Text component="dt" size="xs" c="dimmed">
            {label}
          </Text>
          <Text component="dd" size="sm" fw={600} m={0} c={value === none ? 'dimmed' : undefined}>
            {value}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="xs">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700}>{value}</Text>
    </Paper>
  );
}

/** The vehicle's trips in the range (issue 32): choosing one plays it on the map. */
function TripsPanel({ trips, loading, error, selectedId, onChoose, units }: { trips: TripRow[]; loading: boolean; error: unknown; selectedId: string | null; onChoose: (id: string) => void; units: UnitSystem }) {
  const where = (w: TripRow['start']) => w.place?.name ?? w.address ?? `${w.latitude.toFixed(3)}, ${w.longitude.toFixed(3)}`;
  return (
    <Paper withBorder style={{ display: 'flex', flexDirection: 'column', minHeight: 0, maxHeight: 480 }} data-testid="history-trips">
      <Text fw={600} p="sm" pb={4}>
        Trips ({trips.length})
      </Text>
      <Text size="xs" c="dimmed" px="sm" pb="xs">
        Choose a trip to play it.
      </Text>
      <Box style={{ overflowY: 'auto', flex: 1 }} tabIndex={trips.length ? undefined : 0}>
        <DataState isLoading={loading} error={error} isEmpty={trips.length === 0} emptyTitle="No trips" emptyDescription="The vehicle did not drive in this range.">
          <Stack gap={0} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Trips">
            {trips.map((t) => (
              <li key={t.id}>
                <UnstyledButton
                  w="100%"
                  px="sm"
                  py={8}
                  onClick={() => onChoose(t.id)}
                  aria-current={t.id === selectedId || undefined}
                  data-testid="history-trip-row"
                  style={{ borderTop: '1px solid var(--mantine-color-default-border)', background: t.id === selectedId ? 'var(--mantine-color-default-hover)' : undefined }}
                >
                  <Group justify="space-between" gap="xs" wrap="nowrap">
                    <Text size="sm" fw={600}>
                      {formatTime(t.startedAt)} – {t.inProgress ? 'now' : formatTime(t.endedAt)}
                    </Text>
                    <Text size="sm">{formatDistance(t.distanceKm * 1000, units)}</Text>
                  </Group>
                  {t.inProgress && (
                    <Badge size="xs" variant="light" color="teal" data-testid="history-trip-in-progress">
                      In progress · last fix {formatTime(t.endedAt)}
                    </Badge>
                  )}
                  <Text size="xs" c="dimmed" truncate>
                    {where(t.start)} → {where(t.end)} · {formatDuration(t.durationSeconds)}
                  </Text>
                </UnstyledButton>
              </li>
            ))}
          </Stack>
        </DataState>
      </Box>
    </Paper>
  );
}
