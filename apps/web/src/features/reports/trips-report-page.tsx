import { useMemo, useState } from 'react';
import { Badge, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import type { TripRow } from '@fleet/api-contract';
import type { FeatureCollection, LineString } from 'geojson';
import { distanceFromKm } from '@fleet/api-contract/units';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { useTableState } from '../../lib/table-state.ts';
import { formatDistance, formatSpeed, unitLabels, useUnits } from '../../lib/units.ts';
import { formatSeconds, ReportFilters, ReportsTabs, useReportFilters } from './report-common.tsx';
import { ReportMap, TRIP_COLORS } from './report-map.tsx';
import { useReport, useSummaryForChart, useTripTracks } from './reports-api.ts';

/** "Acme DC" or "Joliet, IL" or the coordinates: where a trip started or ended. */
export const whereText = (w: TripRow['start']) => w.place?.name ?? w.address ?? `${w.latitude.toFixed(4)}, ${w.longitude.toFixed(4)}`;

/** `/reports/trips`: each trip (moving to stopped) with its ends, distance, time and speeds; drawn on the map, distance by day. */
export default function TripsReportPage() {
  const units = useUnits();
  const [filters, setFilter] = useReportFilters();
  const [state, setState, page] = useTableState({ sort: 'startedAt,desc' });
  const query = { ...filters.query, ...page };
  const list = useReport<TripRow>('TRIPS', query);
  const rows = useMemo(() => list.data?.content ?? [], [list.data]);
  const [selected, setSelected] = useState<string | null>(null);
  const tracks = useTripTracks(rows.map((t) => ({ id: t.id, assetId: t.asset.id, from: t.startedAt, to: t.endedAt })));
  const summary = useSummaryForChart(filters.query);

  const lines = useMemo((): FeatureCollection<LineString, { id: string; color: string }> => {
    const features = rows.map((t, i) => {
      const track = tracks[i];
      // The trip's own positions when history has them, else a straight line between its ends.
      const coordinates =
        track && track.length > 1
          ? track.map((p) => [p.longitude, p.latitude])
          : [
              [t.start.longitude, t.start.latitude],
              [t.end.longitude, t.end.latitude],
            ];
      return {
        type: 'Feature' as const,
        geometry: { type: 'LineString' as const, coordinates },
        properties: { id: t.id, color: TRIP_COLORS[i % TRIP_COLORS.length]! },
      };
    });
    return { type: 'FeatureCollection', features };
  }, [rows, tracks]);

  const chart = useMemo(() => {
    const byDay = new Map<string, number>();
    for (const r of summary.data?.content ?? []) byDay.set(r.day, (byDay.get(r.day) ?? 0) + r.distanceKm);
    return [...byDay]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, km]) => ({ day: formatDate(day), distance: Math.round(distanceFromKm(km, units) * 10) / 10 }));
  }, [summary.data, units]);
  const dist = unitLabels(units).distance;

  const columns: TableColumn<TripRow>[] = [
    {
      key: 'asset',
      header: 'Vehicle',
      primary: true,
      render: (t) => (
        <Text size="sm" fw={600}>
          {t.asset.unitNumber}
        </Text>
      ),
    },
    { key: 'driver', header: 'Driver', render: (t) => t.driver?.name ?? 'No driver' },
    { key: 'startedAt', header: 'Started', sortable: true, render: (t) => formatDateTime(t.startedAt) },
    { key: 'start', header: 'From', render: (t) => whereText(t.start) },
    { key: 'endedAt', header: 'Ended', sortable: true, render: (t) => formatDateTime(t.endedAt), hiddenByDefault: true },
    {
      key: 'end',
      header: 'To',
      // A trip under way: where the vehicle is now.
      render: (t) =>
        t.inProgress ? (
          <Group gap={6} wrap="nowrap">
            <span>{whereText(t.end)}</span>
            <Badge size="sm" variant="light" color="teal">
              In progress
            </Badge>
          </Group>
        ) : (
          whereText(t.end)
        ),
    },
    { key: 'distanceKm', header: 'Distance', sortable: true, align: 'right', render: (t) => formatDistance(t.distanceKm * 1000, units) },
    { key: 'durationSeconds', header: 'Duration', sortable: true, align: 'right', render: (t) => formatSeconds(t.durationSeconds) },
    { key: 'maxSpeedKmh', header: 'Max speed', align: 'right', render: (t) => formatSpeed(t.maxSpeedKmh, units), hiddenByDefault: true },
    { key: 'avgSpeedKmh', header: 'Average speed', align: 'right', render: (t) => formatSpeed(t.avgSpeedKmh, units) },
  ];

  return (
    <>
      <PageHeader
        title="Trips"
        description="Each trip from moving to stopped (by ignition, else by speed), with where it started and ended."
        breadcrumbs={[{ label: 'Reports', to: '/reports' }, { label: 'Trips' }]}
      />
      <ReportsTabs />
      <ReportFilters kind="TRIPS" filters={filters} onChange={setFilter} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" mb="md">
        <ReportMap label="Trips on the map" data={{ lines }} selectedId={selected} />
        <Paper withBorder p="sm">
          <Text fw={600} size="sm" mb="xs">
            Distance by day ({dist})
          </Text>
          {chart.length ? (
            <BarChart
              h={300}
              data={chart}
              dataKey="day"
              series={[{ name: 'distance', label: `Distance (${dist})`, color: 'blue.7' }]}
              valueFormatter={(v) => v.toLocaleString('en-US')}
              data-testid="trips-chart"
            />
          ) : (
            <Text size="sm" c="dimmed" py="xl" ta="center">
              {summary.isLoading ? 'Loading…' : 'No distance driven in these days.'}
            </Text>
          )}
        </Paper>
      </SimpleGrid>
      <ServerTable
        id="report-trips"
        label="Trips"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(t) => t.id}
        onRowClick={(t) => setSelected(t.id === selected ? null : t.id)}
        searchPlaceholder="Unit or address"
        emptyTitle="No trips"
        emptyDescription="No vehicle drove in these days under these filters."
      />
    </>
  );
}
