import '@mantine/charts/styles.css';
import { useState } from 'react';
import { BarChart } from '@mantine/charts';
import { Button, Card, Group, SegmentedControl, Select, SimpleGrid, Stack, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { FleetPerformance, FuelEconomy, FuelEconomyGroupBy, PerformanceTotals } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { addDays, todayIn } from '../../lib/dates.ts';
import { useGroups } from '../../lib/map/map-api.ts';
import { useCan } from '../../lib/registry-api.ts';
import { formatFuelEconomyLPer100Km, useUnits } from '../../lib/units.ts';
import { FUEL_BASIS_WORDS, FUEL_RANGE_TOO_LONG, fuelRangeTooLong, useFuelEconomy } from '../../lib/fuel-economy.ts';
import { performanceCsv, useFleetPerformance } from './fleet-performance-api.ts';
import { FuelIdlingTable } from './fuel-idling-table.tsx';
import { withParams, useSearchParams } from '../../lib/search-params.ts';
import { saveCsv } from '../../lib/download.ts';

const H = 3_600_000;
/** A day `n` days before the viewer's today (decision 0140: not the browser's). */
const daysAgo = (n: number) => addDays(todayIn(), -n);
const PRESETS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: 'Quarter' },
];
const isDay = (v: string | null): v is string => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v);

function useFormat() {
  const units = useUnits();
  const imperial = units === 'IMPERIAL';
  return {
    units,
    imperial,
    dist: (m: number) => `${(m / (imperial ? 1609.344 : 1000)).toLocaleString('en-US', { maximumFractionDigits: 0 })} ${imperial ? 'mi' : 'km'}`,
    speed: (k: number | null) => (k === null ? '—' : `${Math.round(imperial ? k / 1.609344 : k)} ${imperial ? 'mph' : 'km/h'}`),
    hours: (ms: number) => `${(ms / H).toFixed(1)} h`,
    fuel: (lPer100Km: number | null) => formatFuelEconomyLPer100Km(lPer100Km, units),
  };
}

function Totals({ t, fuel }: { t: FleetPerformance['fleet']; fuel: { data?: FuelEconomy; loading: boolean; tooLong: boolean } }) {
  const f = useFormat();
  const economy = fuel.data?.totals.economy ?? null;
  const items = [
    ['Distance', f.dist(t.distanceM)],
    ['Driving', f.hours(t.drivingMs)],
    ['Idle', f.hours(t.idleMs)],
    ['Utilization', `${t.utilizationPct}%`],
    ['Average speed', f.speed(t.avgSpeedKmh)],
    ['Top speed', f.speed(t.topSpeedKmh)],
    ['Speeding events', String(t.speedingEvents)],
    ['Stops', String(t.stops)],
    fuel.tooLong
      ? ['Fuel economy', '—', FUEL_RANGE_TOO_LONG]
      : ['Fuel economy', economy ? f.fuel(economy.lPer100Km) : fuel.loading ? '…' : 'No fuel data', fuel.data ? fuelNote(fuel.data, f.fuel) : undefined],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
      {items.map(([label, value, note]) => (
        <Card key={label} withBorder padding="sm" radius="md">
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            {label}
          </Text>
          <Text fw={700} fz="lg" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {value}
          </Text>
          {note && (
            <Text size="xs" c="dimmed" data-testid="fuel-span">
              {note}
            </Text>
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** What fuel economy had data for (decision 0280): "3 of 25 vehicles · engine fuel counter · fleet median 6.4 mpg". */
function fuelNote(d: FuelEconomy, fuel: (lPer100Km: number | null) => string): string | undefined {
  if (d.rows.length === 0) return undefined;
  const e = d.totals.economy;
  if (!e) return 'No engine fuel counter, nor two fills in the range';
  const n = d.rows.filter((r) => r.economy).length;
  return `${n} of ${d.rows.length} vehicle${d.rows.length === 1 ? '' : 's'} · ${FUEL_BASIS_WORDS[e.basis].toLowerCase()} · fleet median ${fuel(d.median.lPer100Km)}`;
}

function PerfTable({ rows }: { rows: Array<PerformanceTotals & { key: string; name: string; extra?: string }> }) {
  const f = useFormat();
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped highlightOnHover verticalSpacing="xs" fz="sm" style={{ whiteSpace: 'nowrap' }}>
        <Table.Thead>
          <Table.Tr>
            {['Name', 'Distance', 'Driving', 'Idle', 'Utilization', 'Avg speed', 'Top speed', 'Speeding', 'Stops', 'Days driven'].map((h) => (
              <Table.Th key={h} ta={h === 'Name' ? 'left' : 'right'}>
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.key}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {r.name}
                </Text>
                {r.extra && (
                  <Text size="xs" c="dimmed">
                    {r.extra}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">{f.dist(r.distanceM)}</Table.Td>
              <Table.Td ta="right">{f.hours(r.drivingMs)}</Table.Td>
              <Table.Td ta="right">{f.hours(r.idleMs)}</Table.Td>
              <Table.Td ta="right">{r.utilizationPct}%</Table.Td>
              <Table.Td ta="right">{f.speed(r.avgSpeedKmh)}</Table.Td>
              <Table.Td ta="right">{f.speed(r.topSpeedKmh)}</Table.Td>
              <Table.Td ta="right">{r.speedingEvents}</Table.Td>
              <Table.Td ta="right">{r.stops}</Table.Td>
              <Table.Td ta="right">{r.activeDays}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** `/analytics/fleet-performance`: per vehicle and per group over a date range, charts, table, CSV. */
export default function FleetPerformancePage() {
  const [params, setParams] = useSearchParams();
  const from = isDay(params.get('from')) ? params.get('from')! : daysAgo(29);
  const to = isDay(params.get('to')) ? params.get('to')! : todayIn();
  const groupId = params.get('group') ?? undefined;
  const canGroups = useCan('GROUP_LIST');
  const groups = useGroups();
  const f = useFormat();
  const valid = from <= to;
  const q = useFleetPerformance({ from, to, groupId }, valid);
  const p = q.data;
  // Fuel economy and idling (issue 68): the vehicles' for the economy card, the CSV and the tab.
  const fuel = useFuelEconomy({ from, to, groupBy: 'vehicle', groupId }, valid);
  const [fuelBy, setFuelBy] = useState<FuelEconomyGroupBy>('vehicle');
  const set = (patch: Record<string, string | null>) => setParams((prev) => withParams(prev, patch), { replace: true });
  const exportCsv = () => {
    if (!p) return;
    saveCsv(performanceCsv(p, f.units, fuel.data), `fleet-performance-${p.from}-to-${p.to}.csv`);
  };
  const chart = (p?.perDay ?? []).map((d) => ({
    date: new Date(`${d.date}T12:00:00`).toLocaleDateString('en-US', { month: 'numeric', day: 'numeric' }),
    distance: Math.round(d.distanceM / (f.imperial ? 1609.344 : 1000)),
    driving: +(d.drivingMs / H).toFixed(1),
    idle: +(d.idleMs / H).toFixed(1),
  }));
  return (
    <>
      <PageHeader
        title="Fleet Performance"
        description={
          p
            ? `Speeding counts each time a vehicle went above ${f.speed(p.speedLimitKmh)} (Organization account › Telematics).`
            : 'Distance, hours, utilization, speeding and stops per vehicle and group.'
        }
        breadcrumbs={[{ label: 'Analytics' }, { label: 'Fleet Performance' }]}
        actions={
          <Button leftSection={<IconDownload size={16} />} variant="default" onClick={exportCsv} disabled={!p || p.vehicles.length === 0}>
            Export CSV
          </Button>
        }
      />
      <Stack gap="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SegmentedControl
            aria-label="Period"
            data={PRESETS}
            value={PRESETS.find((x) => from === daysAgo(Number(x.value) - 1) && to === todayIn())?.value ?? ''}
            onChange={(v) => set({ from: daysAgo(Number(v) - 1), to: todayIn() })}
          />
          <TextInput
            type="date"
            label="From"
            value={from}
            max={to}
            onChange={(e) => isDay(e.currentTarget.value) && set({ from: e.currentTarget.value })}
            w={160}
          />
          <TextInput
            type="date"
            label="To"
            value={to}
            min={from}
            onChange={(e) => isDay(e.currentTarget.value) && set({ to: e.currentTarget.value })}
            w={160}
            error={valid ? undefined : 'To must be on or after From'}
          />
          {canGroups && (
            <Select
              label="Group"
              placeholder="All groups"
              clearable
              data={(groups.data?.content ?? []).map((g) => ({ value: g.id, label: g.name }))}
              value={groupId ?? null}
              onChange={(v) => set({ group: v })}
              w={180}
            />
          )}
        </Group>
        <DataState
          isLoading={q.isLoading}
          error={q.error}
          onRetry={() => void q.refetch()}
          isEmpty={!!p && p.vehicles.length === 0}
          emptyTitle="No driving in this range"
          emptyDescription="Figures appear as vehicles report positions."
        >
          {p && (
            <Stack gap="md">
              <Totals t={p.fleet} fuel={{ data: fuel.data, loading: fuel.isLoading, tooLong: fuelRangeTooLong(from, to) }} />
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                <Card withBorder radius="md" padding="md">
                  <Title order={2} fz="md" mb="sm">
                    {f.imperial ? 'Miles' : 'Kilometres'} per day
                  </Title>
                  <BarChart
                    h={220}
                    data={chart}
                    dataKey="date"
                    valueFormatter={(v) => v.toLocaleString('en-US')}
                    series={[{ name: 'distance', label: 'Distance', color: 'blue.6' }]}
                  />
                </Card>
                <Card withBorder radius="md" padding="md">
                  <Title order={2} fz="md" mb="sm">
                    Driving and idle hours per day
                  </Title>
                  <BarChart
                    h={220}
                    data={chart}
                    dataKey="date"
                    type="stacked"
                    unit=" h"
                    withLegend
                    legendProps={{ verticalAlign: 'bottom' }}
                    series={[
                      { name: 'driving', label: 'Driving', color: 'teal.6' },
                      { name: 'idle', label: 'Idle', color: 'orange.5' },
                    ]}
                  />
                </Card>
              </SimpleGrid>
              <Card withBorder radius="md" padding="md">
                <Tabs defaultValue="vehicles">
                  <Tabs.List mb="sm">
                    <Tabs.Tab value="vehicles">Per vehicle ({p.vehicles.length})</Tabs.Tab>
                    <Tabs.Tab value="groups">Per group ({p.groups.length})</Tabs.Tab>
                    <Tabs.Tab value="fuel">Fuel and idling</Tabs.Tab>
                  </Tabs.List>
                  <Tabs.Panel value="vehicles">
                    <PerfTable
                      rows={p.vehicles.map((v) => ({ ...v, key: v.assetId, name: `Vehicle ${v.unitNumber}`, extra: v.groups.join(', ') || undefined }))}
                    />
                  </Tabs.Panel>
                  <Tabs.Panel value="groups">
                    <PerfTable
                      rows={p.groups.map((g) => ({
                        ...g,
                        key: g.groupId ?? 'none',
                        name: g.name,
                        extra: `${g.vehicles} vehicle${g.vehicles === 1 ? '' : 's'}`,
                      }))}
                    />
                  </Tabs.Panel>
                  <Tabs.Panel value="fuel">
                    <FuelIdlingTable from={from} to={to} groupId={groupId} groupBy={fuelBy} onGroupBy={setFuelBy} />
                  </Tabs.Panel>
                </Tabs>
              </Card>
            </Stack>
          )}
        </DataState>
      </Stack>
    </>
  );
}
