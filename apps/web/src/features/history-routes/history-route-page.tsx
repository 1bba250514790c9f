import { useRef } from 'react';
import { Box, Stack, Text, Title } from '@mantine/core';
import type { MapRef } from 'react-map-gl/maplibre';
import type { HistoryRoute } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { useUnits } from '../../lib/units.ts';
import { boundsOf, HistoryMap } from './history-map.tsx';
import { HistoryFilters } from './history-filters.tsx';
import { HistorySummary } from './history-summary.tsx';
import { PlaybackPanel } from './playback-panel.tsx';
import { TripsPanel } from './trips-panel.tsx';
import { useHistoryQuery } from './use-history-query.ts';
import { usePlayback } from './use-playback.ts';
import { useTripChoice } from './use-trip-choice.ts';
import classes from './history.module.css';

const NO_STOPS: HistoryRoute['stops'] = [];

/**
 * Where a vehicle, driver or device went in a range: the route on the map coloured by speed, played
 * back along a slider, its trips beside it (choosing one plays just that trip), and its stops. Each
 * concern is a hook (use-history-query, use-trip-choice, use-playback) and each part a component.
 */
export default function HistoryRoutePage() {
  const units = useUnits();
  const query = useHistoryQuery();
  const { route, track, trips } = query;
  const data = route.data;
  const mapRef = useRef<MapRef>(null);
  const choice = useTripChoice(track, trips.data?.content);
  const playback = usePlayback(track, choice.span?.to ?? Math.max(0, track.length - 1));

  // Issue 32: choosing a trip plays just that trip, framed on the map.
  const chooseTrip = (id: string) => {
    const span = choice.choose(id);
    if (!span) return;
    playback.playFrom(span.from);
    mapRef.current?.fitBounds(boundsOf(track.slice(span.from, span.to + 1)), { padding: 50, duration: 600, maxZoom: 14 });
  };

  return (
    <Stack gap="sm" data-testid="history-page">
      <Title order={2}>History Route</Title>
      <HistoryFilters query={query} />

      <Box style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 'var(--mantine-spacing-sm)' }}>
        <Box className={classes.beside}>
          <HistoryMap mapRef={mapRef} track={track} stops={data?.stops ?? NO_STOPS} span={choice.span} marker={playback.marker} units={units} />
          {query.showTrips && (
            <TripsPanel
              trips={trips.data?.content ?? []}
              loading={trips.isLoading}
              error={trips.error}
              selectedId={choice.tripId}
              onChoose={chooseTrip}
              units={units}
            />
          )}
        </Box>
        {!query.subjectId ? (
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
                <PlaybackPanel track={track} playback={playback} start={choice.span?.from ?? 0} units={units} />
                <HistorySummary data={data} units={units} onStop={(s) => mapRef.current?.flyTo({ center: [s.longitude, s.latitude], zoom: 12 })} />
              </Stack>
            )}
          </DataState>
        )}
      </Box>
    </Stack>
  );
}
