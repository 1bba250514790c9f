import { useMemo, useState } from 'react';
import { Badge, Paper, SimpleGrid, Text } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import type { StopRow } from '@fleet/api-contract';
import type { FeatureCollection, Point } from 'geojson';
import tones from '../../components/badge-tones.module.css';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { useTableState } from '../../lib/table-state.ts';
import { formatSeconds, ReportFilters, ReportsTabs, useReportFilters } from './report-common.tsx';
import { ReportMap } from './report-map.tsx';
import { useReport, useSummaryForChart } from './reports-api.ts';
import { whereText } from './trips-report-page.tsx';

const STOP_COLOR = '#7048e8';
const IDLE_COLOR = '#e8590c';

/** `/reports/stops`: where each vehicle stopped, how long, and how much of it with the engine on (idling). */
export default function StopsReportPage() {
  const [filters, setFilter] = useReportFilters();
  const [state, setState, page] = useTableState({ sort: 'startedAt,desc' });
  const list = useReport<StopRow>('STOPS', { ...filters.query, ...page });
  const rows = useMemo(() => list.data?.content ?? [], [list.data]);
  const [selected, setSelected] = useState<string | null>(null);
  const summary = useSummaryForChart(filters.query);

  const points = useMemo(
    (): FeatureCollection<Point, { id: string; color: string }> => ({
      type: 'FeatureCollection',
      features: rows.map((s) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [s.where.longitude, s.where.latitude] },
        properties: { id: s.id, color: s.idleSeconds > 0 ? IDLE_COLOR : STOP_COLOR },
      })),
    }),
    [rows],
  );
  const chart = useMemo(() => {
    const byDay = new Map<string, { stops: number; idle: number }>();
    for (const r of summary.data?.content ?? []) {
      const d = byDay.get(r.day) ?? { stops: 0, idle: 0 };
      d.stops += r.stops;
      d.idle += r.idleSeconds;
      byDay.set(r.day, d);
    }
    return [...byDay]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, d]) => ({ day: formatDate(day), stops: d.stops, idleHours: Math.round((d.idle / 3600) * 10) / 10 }));
  }, [summary.data]);

  const columns: TableColumn<StopRow>[] = [
    {
      key: 'asset',
      header: 'Vehicle',
      primary: true,
      render: (s) => (
        <Text size="sm" fw={600}>
          {s.asset.unitNumber}
        </Text>
      ),
    },
    { key: 'driver', header: 'Driver', render: (s) => s.driver?.name ?? 'No driver' },
    { key: 'startedAt', header: 'Stopped', sortable: true, render: (s) => formatDateTime(s.startedAt) },
    { key: 'endedAt', header: 'Moved on', render: (s) => (s.endedAt ? formatDateTime(s.endedAt) : 'Still there') },
    { key: 'where', header: 'Where', render: (s) => whereText(s.where) },
    { key: 'durationSeconds', header: 'Duration', sortable: true, align: 'right', render: (s) => formatSeconds(s.durationSeconds) },
    {
      key: 'idleSeconds',
      header: 'Idling',
      sortable: true,
      align: 'right',
      render: (s) =>
        s.idleSeconds > 0 ? (
          <Badge variant="outline" radius="sm" tt="none" className={tones.warn}>
            {formatSeconds(s.idleSeconds)}
          </Badge>
        ) : s.engineOn === null ? (
          '—'
        ) : (
          'Engine off'
        ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Stops"
        description="Each stop between trips: where, how long, and the time the engine ran while stopped (idling)."
        breadcrumbs={[{ label: 'Reports', to: '/reports' }, { label: 'Stops' }]}
      />
      <ReportsTabs />
      <ReportFilters kind="STOPS" filters={filters} onChange={setFilter} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" mb="md">
        <ReportMap label="Stops on the map" data={{ points }} selectedId={selected} />
        <Paper withBorder p="sm">
          <Text fw={600} size="sm" mb="xs">
            Stops and idling by day
          </Text>
          {chart.length ? (
            <BarChart
              h={300}
              data={chart}
              dataKey="day"
              withLegend
              legendProps={{ verticalAlign: 'bottom' }}
              series={[
                { name: 'stops', label: 'Stops', color: 'violet.7' },
                { name: 'idleHours', label: 'Idling (hours)', color: 'orange.8' },
              ]}
              data-testid="stops-chart"
            />
          ) : (
            <Text size="sm" c="dimmed" py="xl" ta="center">
              {summary.isLoading ? 'Loading…' : 'No stops in these days.'}
            </Text>
          )}
        </Paper>
      </SimpleGrid>
      <ServerTable
        id="report-stops"
        label="Stops"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(s) => s.id}
        onRowClick={(s) => setSelected(s.id === selected ? null : s.id)}
        searchPlaceholder="Unit or address"
        emptyTitle="No stops"
        emptyDescription="No vehicle stopped in these days under these filters."
      />
    </>
  );
}
