import { useMemo, useState } from 'react';
import { Anchor, Badge, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Link } from 'react-router';
import type { VisitRow } from '@fleet/api-contract';
import { PLACE_CATEGORY_LABELS } from '@fleet/api-contract/places';
import type { FeatureCollection, Point, Polygon } from 'geojson';
import tones from '../../components/badge-tones.module.css';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { PLACE_COLORS, placePolygon } from '../../lib/map/place-shapes.ts';
import { useTableState } from '../../lib/table-state.ts';
import { Figure, formatSeconds, ReportFilters, ReportsTabs, useReportFilters } from './report-common.tsx';
import { ReportMap } from './report-map.tsx';
import { useDetentionTotals, usePlaceOptions, useReport } from './reports-api.ts';

/** Detention of a visit: a warning badge when there is any. */
export function DetentionBadge({ seconds }: { seconds: number }) {
  return seconds > 0 ? (
    <Badge variant="outline" radius="sm" tt="none" className={tones.danger}>
      {formatSeconds(seconds)}
    </Badge>
  ) : (
    <Text size="sm" c="dimmed" span>
      None
    </Text>
  );
}

/** `/reports/visits`: arrivals and departures at places, dwell and detention beyond the free time; detention by customer. */
export default function VisitsReportPage() {
  const [filters, setFilter] = useReportFilters();
  const [state, setState, page] = useTableState({ sort: 'arrivedAt,desc' });
  const list = useReport<VisitRow>('VISITS', { ...filters.query, ...page });
  const rows = useMemo(() => list.data?.content ?? [], [list.data]);
  const [selected, setSelected] = useState<string | null>(null);
  const places = usePlaceOptions();
  const detention = useDetentionTotals(filters.query);

  // The places these visits were at, drawn as their shapes; the selected visit's place stands out.
  // Each also as a dot, so a place of a few hundred metres shows on a map of the whole country.
  const { areas, points } = useMemo(() => {
    const visited = new Set(rows.map((v) => v.placeId));
    const shown = (places.data?.content ?? []).filter((p) => visited.has(p.id));
    const areas: FeatureCollection<Polygon, { id: string; color: string }> = {
      type: 'FeatureCollection',
      features: shown.map((p) => ({ type: 'Feature', geometry: placePolygon(p), properties: { id: p.id, color: PLACE_COLORS[p.category] } })),
    };
    const points: FeatureCollection<Point, { id: string; color: string }> = {
      type: 'FeatureCollection',
      features: shown.map((p) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [p.center.longitude, p.center.latitude] },
        properties: { id: p.id, color: PLACE_COLORS[p.category] },
      })),
    };
    return { areas, points };
  }, [rows, places.data]);
  const selectedPlace = rows.find((v) => v.id === selected)?.placeId ?? null;
  const totals = useMemo(() => detention.data?.content ?? [], [detention.data]);
  const chart = useMemo(
    // The ten customers with the most detention: more bars than that cannot be read.
    () =>
      [...totals]
        .filter((t) => t.visits > 0)
        .sort((a, b) => b.detentionSeconds - a.detentionSeconds)
        .slice(0, 10)
        .map((t) => ({
          place: t.placeName,
          detentionHours: Math.round((t.detentionSeconds / 3600) * 10) / 10,
          dwellHours: Math.round((t.dwellSeconds / 3600) * 10) / 10,
        })),
    [totals],
  );
  const sum = (k: 'visits' | 'detentionSeconds' | 'visitsWithDetention') => totals.reduce((s, t) => s + t[k], 0);

  const columns: TableColumn<VisitRow>[] = [
    {
      key: 'placeName',
      header: 'Place',
      sortable: true,
      primary: true,
      render: (v) => (
        <Anchor component={Link} to={`/places/${v.placeId}`} size="sm" fw={600} onClick={(e) => e.stopPropagation()}>
          {v.placeName}
        </Anchor>
      ),
    },
    { key: 'category', header: 'Category', render: (v) => PLACE_CATEGORY_LABELS[v.category], hiddenByDefault: true },
    { key: 'unitNumber', header: 'Vehicle', sortable: true, render: (v) => v.unitNumber },
    { key: 'driverName', header: 'Driver', render: (v) => v.driverName ?? 'No driver' },
    { key: 'arrivedAt', header: 'Arrived', sortable: true, render: (v) => formatDateTime(v.arrivedAt) },
    { key: 'departedAt', header: 'Departed', sortable: true, render: (v) => (v.departedAt ? formatDateTime(v.departedAt) : 'Still there') },
    { key: 'dwellSeconds', header: 'Dwell', sortable: true, align: 'right', render: (v) => formatSeconds(v.dwellSeconds) },
    { key: 'detentionSeconds', header: 'Detention', sortable: true, align: 'right', render: (v) => <DetentionBadge seconds={v.detentionSeconds} /> },
  ];

  return (
    <>
      <PageHeader
        title="Place visits"
        description="Arrivals and departures at places, how long each vehicle stayed, and the detention beyond the organization's free time at customers."
        breadcrumbs={[{ label: 'Reports', to: '/reports' }, { label: 'Place visits' }]}
      />
      <ReportsTabs />
      <ReportFilters kind="VISITS" filters={filters} onChange={setFilter} />
      {detention.data && (
        <Group gap="sm" mb="md" data-testid="detention-figures">
          <Figure label="Free time at customers" value={formatSeconds(detention.data.freeMinutes * 60)} />
          <Figure label="Customer visits" value={sum('visits').toLocaleString('en-US')} />
          <Figure label="Visits with detention" value={sum('visitsWithDetention').toLocaleString('en-US')} />
          <Figure label="Detention" value={formatSeconds(sum('detentionSeconds'))} />
        </Group>
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" mb="md">
        <ReportMap label="Visited places on the map" data={{ areas, points }} selectedId={selectedPlace} />
        <Paper withBorder p="sm">
          <Text fw={600} size="sm" mb="xs">
            Detention and dwell by customer, the ten longest (hours)
          </Text>
          {chart.length ? (
            <BarChart
              h={300}
              data={chart}
              dataKey="place"
              withLegend
              legendProps={{ verticalAlign: 'bottom' }}
              series={[
                { name: 'detentionHours', label: 'Detention (hours)', color: 'red.8' },
                { name: 'dwellHours', label: 'Dwell (hours)', color: 'blue.7' },
              ]}
              data-testid="visits-chart"
            />
          ) : (
            <Text size="sm" c="dimmed" py="xl" ta="center">
              {detention.isLoading ? 'Loading…' : 'No customer visits in these days.'}
            </Text>
          )}
        </Paper>
      </SimpleGrid>
      <ServerTable
        id="report-visits"
        label="Place visits"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(v) => v.id}
        onRowClick={(v) => setSelected(v.id === selected ? null : v.id)}
        searchable={false}
        emptyTitle="No visits"
        emptyDescription="No vehicle arrived at a place in these days under these filters."
      />
    </>
  );
}
