import { useMemo } from 'react';
import { Badge, Paper, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { useFilterParam } from '../../components/registry-toolbar.tsx';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import type { SummaryRow } from '@fleet/api-contract';
import { distanceFromKm } from '@fleet/api-contract/units';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDate, formatTime } from '../../lib/dates.ts';
import { useTableState } from '../../lib/table-state.ts';
import { formatDistance, unitLabels, useUnits } from '../../lib/units.ts';
import { formatSeconds, ReportFilters, ReportsTabs, useReportFilters } from './report-common.tsx';
import { useReport, useSummaryForChart } from './reports-api.ts';

/** `/reports/summary`: per vehicle and day, distance, driving and idle time, stops, first and last movement. */
export default function SummaryReportPage() {
  const units = useUnits();
  const [filters, setFilter] = useReportFilters();
  const [state, setState, page] = useTableState({ sort: 'day,desc' });
  // Per vehicle (the default) or per driver: a driver filter always reads per driver.
  const [byParam, setBy] = useFilterParam('by');
  const by = byParam === 'driver' || filters.driverId ? 'driver' : 'vehicle';
  const list = useReport<SummaryRow>('SUMMARY', { ...filters.query, ...page, by });
  const all = useSummaryForChart(filters.query);

  const dist = unitLabels(units).distance;
  const chart = useMemo(() => {
    const byDay = new Map<string, { km: number; driving: number; idle: number }>();
    for (const r of all.data?.content ?? []) {
      const d = byDay.get(r.day) ?? { km: 0, driving: 0, idle: 0 };
      d.km += r.distanceKm;
      d.driving += r.drivingSeconds;
      d.idle += r.idleSeconds;
      byDay.set(r.day, d);
    }
    return [...byDay]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, d]) => ({
        day: formatDate(day),
        distance: Math.round(distanceFromKm(d.km, units) * 10) / 10,
        drivingHours: Math.round((d.driving / 3600) * 10) / 10,
        idleHours: Math.round((d.idle / 3600) * 10) / 10,
      }));
  }, [all.data, units]);

  const columns: TableColumn<SummaryRow>[] = [
    {
      key: 'day',
      header: 'Day',
      sortable: true,
      primary: true,
      render: (r) => (
        <Text size="sm" fw={600}>
          {formatDate(r.day)}
        </Text>
      ),
    },
    by === 'driver'
      ? { key: 'driver', header: 'Driver', render: (r) => r.driver?.name ?? 'No driver' }
      : { key: 'asset', header: 'Vehicle', render: (r) => r.asset?.unitNumber ?? '—' },
    { key: 'distanceKm', header: 'Distance', sortable: true, align: 'right', render: (r) => formatDistance(r.distanceKm * 1000, units) },
    { key: 'drivingSeconds', header: 'Driving', sortable: true, align: 'right', render: (r) => formatSeconds(r.drivingSeconds) },
    { key: 'idleSeconds', header: 'Idling', sortable: true, align: 'right', render: (r) => formatSeconds(r.idleSeconds) },
    { key: 'stops', header: 'Stops', sortable: true, align: 'right', render: (r) => r.stops.toLocaleString('en-US') },
    { key: 'firstMovementAt', header: 'First move', render: (r) => (r.firstMovementAt ? formatTime(r.firstMovementAt) : '—') },
    {
      key: 'lastMovementAt',
      header: 'Last move',
      // A trip under way counts up to the vehicle's latest fix (issue 46).
      render: (r) =>
        r.inProgress ? (
          // Inline, so the mark follows the cell's alignment (left in the table, right on a phone's card) and wraps under the time.
          <span>
            {r.lastMovementAt ? formatTime(r.lastMovementAt) : '—'}{' '}
            <Badge component="span" size="sm" variant="light" color="teal" style={{ verticalAlign: 'middle' }} data-testid="summary-in-progress">
              Trip in progress
            </Badge>
          </span>
        ) : r.lastMovementAt ? (
          formatTime(r.lastMovementAt)
        ) : (
          '—'
        ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Daily summary"
        description="Each vehicle's day: distance, driving and idle time, stops, and its first and last movement."
        breadcrumbs={[{ label: 'Reports', to: '/reports' }, { label: 'Daily summary' }]}
      />
      <ReportsTabs />
      <ReportFilters
        kind="SUMMARY"
        filters={filters}
        onChange={setFilter}
        query={{ by }}
        extra={
          <Stack gap={4}>
            <Text size="sm" fw={500} id="summary-by-label">
              One row per
            </Text>
            <SegmentedControl
              aria-labelledby="summary-by-label"
              value={by}
              onChange={(v) => setBy(v === 'driver' ? 'driver' : null)}
              disabled={!!filters.driverId}
              data={[
                { value: 'vehicle', label: 'Vehicle' },
                { value: 'driver', label: 'Driver' },
              ]}
            />
          </Stack>
        }
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" mb="md">
        <Paper withBorder p="sm">
          <Text fw={600} size="sm" mb="xs">
            Distance by day ({dist})
          </Text>
          {chart.length ? (
            <BarChart
              h={240}
              data={chart}
              dataKey="day"
              series={[{ name: 'distance', label: `Distance (${dist})`, color: 'blue.7' }]}
              valueFormatter={(v) => v.toLocaleString('en-US')}
              data-testid="summary-chart"
            />
          ) : (
            <Text size="sm" c="dimmed" py="xl" ta="center">
              {all.isLoading ? 'Loading…' : 'No movement in these days.'}
            </Text>
          )}
        </Paper>
        <Paper withBorder p="sm">
          <Text fw={600} size="sm" mb="xs">
            Driving and idling by day (hours)
          </Text>
          {chart.length ? (
            <BarChart
              h={240}
              data={chart}
              dataKey="day"
              type="stacked"
              withLegend
              legendProps={{ verticalAlign: 'bottom' }}
              series={[
                { name: 'drivingHours', label: 'Driving (hours)', color: 'teal.8' },
                { name: 'idleHours', label: 'Idling (hours)', color: 'orange.8' },
              ]}
            />
          ) : (
            <Text size="sm" c="dimmed" py="xl" ta="center">
              {all.isLoading ? 'Loading…' : 'No movement in these days.'}
            </Text>
          )}
        </Paper>
      </SimpleGrid>
      <ServerTable
        id="report-summary"
        label="Daily summary"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(r) => `${r.day}-${r.asset?.id ?? ''}-${r.driver?.id ?? ''}`}
        searchable={false}
        emptyTitle="No days to summarize"
        emptyDescription="No vehicle moved in these days under these filters."
      />
    </>
  );
}
