import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Button, Card, Group, SegmentedControl, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { REVENUE_GROUPS, REVENUE_PERIODS, type RevenueGroup, type RevenuePeriod } from '@fleet/api-contract/loads';
import type { RevenueReport } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { addDays, dayStartIn, todayIn, useViewerZone, zoneLabel } from '../../lib/dates.ts';
import { formatKm, formatMoney, formatPerDistance } from '../../lib/money.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { withParams, useSearchParams } from '../../lib/search-params.ts';
import { useUnits, type UnitSystem } from '../../lib/units.ts';
import { exportRevenueCsv, useRevenue } from './revenue-api.ts';

const GROUP_LABELS: Record<RevenueGroup, string> = { truck: 'Truck', driver: 'Driver', customer: 'Customer', lane: 'Lane' };
const PERIOD_LABELS: Record<RevenuePeriod, string> = { week: 'Week', month: 'Month' };
const isDay = (v: string | null): v is string => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v);
const PRESETS = [
  { value: '28', label: '4 weeks' },
  { value: '91', label: 'Quarter' },
  { value: '365', label: 'Year' },
];

type Figures = RevenueReport['totals'];

const money = (v: number | null, currency: string) => formatMoney(v, currency, 0);

function Totals({ t, currency, units }: { t: Figures; currency: string; units: UnitSystem }) {
  const unit = units === 'IMPERIAL' ? 'mile' : 'km';
  const items: Array<[string, string]> = [
    ['Revenue', money(t.revenue, currency)],
    ['Loads', t.loads.toLocaleString('en-US')],
    [`Per loaded ${unit}`, formatPerDistance(t.revenuePerLoadedKm, currency, units)],
    [`Per total ${unit}`, formatPerDistance(t.revenuePerTotalKm, currency, units)],
    ['Loaded', formatKm(t.loadedKm, units)],
    ['Deadhead', `${formatKm(t.deadheadKm, units)}${t.totalKm > 0 ? ` (${Math.round((t.deadheadKm / t.totalKm) * 100)}%)` : ''}`],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
      {items.map(([label, value]) => (
        <Card key={label} withBorder padding="sm" radius="md">
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            {label}
          </Text>
          <Text fw={700} fz="lg" style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={`revenue-${label.toLowerCase().replace(/\s+/g, '-')}`}>
            {value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** `/analytics/revenue`: delivered loads' revenue and revenue per distance, grouped and by period, with a chart, a table and CSV export. */
export default function RevenuePage() {
  const zone = useViewerZone();
  const units = useUnits();
  const orgId = useEffectiveOrganizationId();
  const [params, setParams] = useSearchParams();
  const today = todayIn(zone);
  const from = isDay(params.get('from')) ? params.get('from')! : addDays(today, -90);
  const to = isDay(params.get('to')) ? params.get('to')! : today;
  const groupBy = (REVENUE_GROUPS as readonly string[]).includes(params.get('groupBy') ?? '') ? (params.get('groupBy') as RevenueGroup) : 'truck';
  const period = (REVENUE_PERIODS as readonly string[]).includes(params.get('period') ?? '') ? (params.get('period') as RevenuePeriod) : 'week';
  const valid = from <= to;
  // The days are the viewer's (decision 0140), sent as the instants they start; `to` is inclusive.
  const filters = { from: dayStartIn(from, zone), to: dayStartIn(addDays(to, 1), zone), groupBy, period };
  const q = useRevenue(filters, valid);
  const r = q.data;
  const set = (patch: Record<string, string | null>) => setParams((prev) => withParams(prev, patch), { replace: true });
  const perUnit = units === 'IMPERIAL' ? 'mile' : 'km';
  const chart = (r?.series ?? []).map((p) => ({ period: p.label, revenue: Math.round(p.revenue), loads: p.loads }));
  return (
    <>
      <PageHeader
        title="Revenue"
        description={`Delivered loads by the day of their last delivery (${zoneLabel(null, zone)}): revenue, revenue per loaded and total ${perUnit} (deadhead from positions).`}
        breadcrumbs={[{ label: 'Analytics' }, { label: 'Revenue' }]}
        actions={
          <Button
            leftSection={<IconDownload size={16} />}
            variant="default"
            disabled={!r || r.totals.loads === 0}
            onClick={() => orgId && void exportRevenueCsv(orgId, filters, `revenue-by-${groupBy}-${from}-to-${to}.csv`)}
          >
            Export CSV
          </Button>
        }
      />
      <Stack gap="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SegmentedControl
            aria-label="Range"
            data={PRESETS}
            value={PRESETS.find((x) => from === addDays(today, -Number(x.value) + 1) && to === today)?.value ?? ''}
            onChange={(v) => set({ from: addDays(today, -Number(v) + 1), to: today })}
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
          <Stack gap={4}>
            <Text size="sm" fw={500} id="revenue-group-label">
              Group by
            </Text>
            <SegmentedControl
              aria-labelledby="revenue-group-label"
              data={REVENUE_GROUPS.map((g) => ({ value: g, label: GROUP_LABELS[g] }))}
              value={groupBy}
              onChange={(v) => set({ groupBy: v === 'truck' ? null : v })}
            />
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="revenue-period-label">
              Period
            </Text>
            <SegmentedControl
              aria-labelledby="revenue-period-label"
              data={REVENUE_PERIODS.map((p) => ({ value: p, label: PERIOD_LABELS[p] }))}
              value={period}
              onChange={(v) => set({ period: v === 'week' ? null : v })}
            />
          </Stack>
        </Group>
        <DataState
          isLoading={q.isLoading}
          error={q.error}
          onRetry={() => void q.refetch()}
          isEmpty={!!r && r.totals.loads === 0}
          emptyTitle="No delivered loads in this range"
          emptyDescription="Revenue counts a load once its last delivery is done."
        >
          {r && (
            <Stack gap="md" style={{ opacity: q.isPlaceholderData ? 0.6 : 1 }} aria-busy={q.isPlaceholderData}>
              <Totals t={r.totals} currency={r.currency} units={units} />
              <Card withBorder radius="md" padding="md">
                <Title order={2} fz="md" mb="sm">
                  Revenue per {PERIOD_LABELS[period].toLowerCase()} ({r.currency})
                </Title>
                <BarChart
                  h={240}
                  data={chart}
                  dataKey="period"
                  valueFormatter={(v) => money(v, r.currency)}
                  series={[{ name: 'revenue', label: 'Revenue', color: 'teal.7' }]}
                />
              </Card>
              <Card withBorder radius="md" padding="md">
                <Title order={2} fz="md" mb="sm">
                  By {GROUP_LABELS[groupBy].toLowerCase()}
                </Title>
                <Table.ScrollContainer minWidth={820}>
                  <Table
                    striped
                    highlightOnHover
                    verticalSpacing="xs"
                    fz="sm"
                    style={{ whiteSpace: 'nowrap' }}
                    aria-label={`Revenue by ${GROUP_LABELS[groupBy].toLowerCase()}`}
                  >
                    <Table.Thead>
                      <Table.Tr>
                        {[GROUP_LABELS[groupBy], 'Loads', 'Revenue', 'Loaded', 'Deadhead', 'Total', `Per loaded ${perUnit}`, `Per total ${perUnit}`].map(
                          (h, i) => (
                            <Table.Th key={h} ta={i === 0 ? 'left' : 'right'}>
                              {h}
                            </Table.Th>
                          ),
                        )}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {r.rows.map((row) => (
                        <Table.Tr key={row.key}>
                          <Table.Td fw={600}>{row.label}</Table.Td>
                          <Table.Td ta="right">{row.loads}</Table.Td>
                          <Table.Td ta="right">{money(row.revenue, r.currency)}</Table.Td>
                          <Table.Td ta="right">{formatKm(row.loadedKm, units)}</Table.Td>
                          <Table.Td ta="right">{formatKm(row.deadheadKm, units)}</Table.Td>
                          <Table.Td ta="right">{formatKm(row.totalKm, units)}</Table.Td>
                          <Table.Td ta="right">{formatPerDistance(row.revenuePerLoadedKm, r.currency, units)}</Table.Td>
                          <Table.Td ta="right">{formatPerDistance(row.revenuePerTotalKm, r.currency, units)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                    <Table.Tfoot>
                      <Table.Tr fw={700}>
                        <Table.Td>All</Table.Td>
                        <Table.Td ta="right">{r.totals.loads}</Table.Td>
                        <Table.Td ta="right">{money(r.totals.revenue, r.currency)}</Table.Td>
                        <Table.Td ta="right">{formatKm(r.totals.loadedKm, units)}</Table.Td>
                        <Table.Td ta="right">{formatKm(r.totals.deadheadKm, units)}</Table.Td>
                        <Table.Td ta="right">{formatKm(r.totals.totalKm, units)}</Table.Td>
                        <Table.Td ta="right">{formatPerDistance(r.totals.revenuePerLoadedKm, r.currency, units)}</Table.Td>
                        <Table.Td ta="right">{formatPerDistance(r.totals.revenuePerTotalKm, r.currency, units)}</Table.Td>
                      </Table.Tr>
                    </Table.Tfoot>
                  </Table>
                </Table.ScrollContainer>
              </Card>
            </Stack>
          )}
        </DataState>
      </Stack>
    </>
  );
}
