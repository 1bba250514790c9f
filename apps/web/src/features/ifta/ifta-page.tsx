import { useCallback, useEffect } from 'react';
import { Alert, Badge, Button, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { IconAlertTriangle, IconChecks, IconGasStation, IconListDetails, IconMap2, IconReceipt, IconRuler2, IconTruck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { quarterDays, quarterLabel, type IftaReport } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { GroupFilter } from '../../components/registry-toolbar.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { useCan } from '../../lib/registry-api.ts';
import { AdjustmentsTab } from './adjustments-tab.tsx';
import { ExportMenu } from './export-menu.tsx';
import { FuelTab } from './fuel-tab.tsx';
import { fileQuarter, useIftaFilters, useIftaMutation, useIftaReport } from './ifta-api.ts';
import { int, mpg, usd } from './ifta-format.ts';
import { MilesMap } from './miles-map.tsx';
import { ReturnTab } from './return-tab.tsx';
import { ReviewTab } from './review-tab.tsx';
import { VehiclesTab } from './vehicles-tab.tsx';
import { withParams, useSearchParams } from '../../lib/search-params.ts';

const TABS = ['return', 'vehicles', 'map', 'review', 'fuel', 'adjustments'] as const;
type Tab = (typeof TABS)[number];

/** A URL search parameter with a setter that keeps the others (quarter, fuel type, tab, group). */
function useParam(name: string): [string | null, (v: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback((v: string | null) => setParams((prev) => withParams(prev, { [name]: v }), { replace: true }), [name, setParams]);
  return [params.get(name), set];
}

/** `/ifta`: the quarter's IFTA return, its miles on a map, what to review, fuel purchases and adjustments. */
export default function IftaPage() {
  const filters = useIftaFilters();
  const [quarterParam, setQuarter] = useParam('quarter');
  const [fuelParam, setFuel] = useParam('fuelType');
  const [tabParam, setTab] = useParam('tab');
  const [groupId, setGroupId] = useParam('groupId');
  const quarter = quarterParam ?? filters.data?.currentQuarter ?? null;
  const fuelType = fuelParam ?? 'DIESEL';
  const tab: Tab = TABS.includes(tabParam as Tab) ? (tabParam as Tab) : 'return';
  const report = useIftaReport(quarter ? { quarter, fuelType, groupId } : null);
  const canFile = useCan('IFTA_FILE');
  const file = useIftaMutation(fileQuarter);
  const r = report.data;
  const ended = quarter ? quarterDays(quarter).to <= new Date().toISOString().slice(0, 10) : false;

  // Once the filters arrive, the URL names the quarter shown (a link or reload shows the same).
  const current = filters.data?.currentQuarter;
  useEffect(() => {
    if (!quarterParam && current) setQuarter(current);
  }, [quarterParam, current, setQuarter]);

  const quarterData = (filters.data?.quarters ?? []).map((q) => ({
    value: q.quarter,
    label: `${q.label}${q.filedVersion ? ` · filed${q.filedVersion > 1 ? ` (v${q.filedVersion})` : ''}` : q.hasMiles || q.hasPurchases ? '' : ' · no data'}`,
  }));
  const fuelData = (filters.data?.fuelTypes ?? []).filter((f) => f.inUse || f.code === fuelType).map((f) => ({ value: f.code, label: f.label }));
  const query = { quarter: quarter ?? undefined, fuelType, groupId: groupId ?? undefined };

  return (
    <>
      <PageHeader
        title="Fuel costs (IFTA)"
        description="The quarterly fuel-tax return from GPS miles and fuel purchases, in miles and US gallons."
        breadcrumbs={[{ label: 'Analytics' }, { label: 'Fuel costs (IFTA)' }]}
        actions={
          quarter && (
            <>
              <ExportMenu what="report" query={query} name={`ifta-${quarter}-${fuelType.toLowerCase()}`} label="Export return" />
              <ExportMenu what="distance-records" query={{ quarter }} name={`ifta-${quarter}-distance-records`} label="Distance records" />
              {canFile && ended && (
                <Button
                  leftSection={<IconChecks size={16} />}
                  disabled={!r || !!groupId}
                  title={groupId ? 'File the whole fleet (clear the group filter)' : undefined}
                  loading={file.isPending}
                  onClick={async () => {
                    if (!quarter || !r) return;
                    const amend = !!r.filing;
                    const ok = await confirmAction({
                      title: amend ? `File an amendment for ${quarterLabel(quarter)}?` : `Close ${quarterLabel(quarter)}?`,
                      message: amend
                        ? 'Today’s figures are kept as a new version; the earlier filing stays as it was.'
                        : 'The figures are kept as filed; later changes will show as an amendment against them.',
                    });
                    if (!ok) return;
                    file.mutate(
                      { quarter },
                      { onSuccess: (f) => notify({ type: 'success', title: `${quarterLabel(quarter)} filed (version ${f.version})`, timeout: 5000 }) },
                    );
                  }}
                >
                  {r?.filing ? 'File amendment' : 'Close quarter'}
                </Button>
              )}
            </>
          )
        }
      />
      <Paper withBorder p="sm" mb="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label="Quarter"
            data={quarterData}
            value={quarter}
            onChange={(v) => v && setQuarter(v)}
            allowDeselect={false}
            w={200}
            disabled={!filters.data}
          />
          <Select label="Fuel type" data={fuelData} value={fuelType} onChange={(v) => v && setFuel(v)} allowDeselect={false} w={180} disabled={!filters.data} />
          <GroupFilter value={groupId} onChange={setGroupId} />
          {r && <StatusBadge report={r} />}
        </Group>
      </Paper>
      <DataState
        isLoading={filters.isLoading || (report.isLoading && !report.data)}
        error={filters.error ?? report.error}
        onRetry={() => void report.refetch()}
        loadingFallback={<Skeleton h={320} />}
      >
        {r && (
          <Stack gap="md">
            {r.review.unreviewed > 0 && (
              <Alert
                variant="light"
                color="red"
                icon={<IconAlertTriangle size={18} />}
                title={`${r.review.unreviewed} item${r.review.unreviewed === 1 ? '' : 's'} to review before this return can be signed`}
                data-testid="ifta-unreviewed"
              >
                <Group justify="space-between" gap="xs" wrap="wrap">
                  <Text size="sm">
                    {r.review.unreviewed === r.review.items ? 'None' : `${r.review.items - r.review.unreviewed} of ${r.review.items}`} checked yet: suspicious
                    or mistyped purchases, gaps and unknown places can change the figures below. The PDF says so too.
                  </Text>
                  {tab !== 'review' && (
                    <Button size="xs" variant="default" onClick={() => setTab('review')}>
                      Open To review
                    </Button>
                  )}
                </Group>
              </Alert>
            )}
            <Summary report={r} />
            {r.cardTransactions.unverified > 0 && (
              <Alert variant="light" color="orange" icon={<IconGasStation size={18} />} data-testid="ifta-card-unverified">
                <Group justify="space-between" gap="xs" wrap="wrap">
                  <Text size="sm">
                    {r.cardTransactions.unverified} of {r.cardTransactions.total} fuel-card purchases this quarter are not verified against their truck
                    {r.cardTransactions.disputed ? ` (${r.cardTransactions.disputed} disputed)` : ''}; they still count in the return below.
                  </Text>
                  <Button size="xs" variant="default" component={Link} to="/fuel-transactions">
                    Review fuel transactions
                  </Button>
                </Group>
              </Alert>
            )}
            {r.flags.some((f) => f.kind === 'RATES_FALLBACK') && (
              <Alert
                variant="default"
                icon={<IconAlertTriangle size={18} color="var(--mantine-color-orange-filled)" />}
                title={`Tax rates of ${r.ratesQuarter ?? 'no quarter'}`}
              >
                {r.flags.find((f) => f.kind === 'RATES_FALLBACK')!.message}.
              </Alert>
            )}
            <Tabs value={tab} onChange={(v) => setTab(v === 'return' ? null : v)} keepMounted={false}>
              <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
                <Tabs.Tab value="return" leftSection={<IconListDetails size={16} />}>
                  Return
                </Tabs.Tab>
                <Tabs.Tab value="vehicles" leftSection={<IconTruck size={16} />}>
                  Vehicles
                </Tabs.Tab>
                <Tabs.Tab value="map" leftSection={<IconMap2 size={16} />}>
                  Map
                </Tabs.Tab>
                <Tabs.Tab
                  value="review"
                  leftSection={<IconAlertTriangle size={16} />}
                  rightSection={
                    r.review.unreviewed ? (
                      <Badge size="xs" circle={r.review.unreviewed < 10} color="orange" variant="light" aria-label={`${r.review.unreviewed} not reviewed`}>
                        {r.review.unreviewed}
                      </Badge>
                    ) : undefined
                  }
                >
                  To review
                </Tabs.Tab>
                <Tabs.Tab value="fuel" leftSection={<IconGasStation size={16} />}>
                  Fuel purchases
                </Tabs.Tab>
                <Tabs.Tab value="adjustments" leftSection={<IconRuler2 size={16} />}>
                  Adjustments
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="return" pt="md">
                <ReturnTab report={r} />
              </Tabs.Panel>
              <Tabs.Panel value="vehicles" pt="md">
                <VehiclesTab report={r} />
              </Tabs.Panel>
              <Tabs.Panel value="map" pt="md">
                <MilesMap report={r} />
              </Tabs.Panel>
              <Tabs.Panel value="review" pt="md">
                <ReviewTab report={r} />
              </Tabs.Panel>
              <Tabs.Panel value="fuel" pt="md">
                <FuelTab quarter={r.quarter} fuelType={r.fuelType} />
              </Tabs.Panel>
              <Tabs.Panel value="adjustments" pt="md">
                <AdjustmentsTab quarter={r.quarter} />
              </Tabs.Panel>
            </Tabs>
          </Stack>
        )}
      </DataState>
    </>
  );
}

function StatusBadge({ report: r }: { report: IftaReport }) {
  if (r.amendment)
    return (
      <Badge color="grape" variant="light" size="lg" leftSection={<IconReceipt size={14} />}>
        Amendment pending
      </Badge>
    );
  if (r.filing)
    return (
      <Badge color="teal" variant="light" size="lg" leftSection={<IconChecks size={14} />}>
        Filed {r.filing.filedAt}
        {r.filing.version > 1 ? ` (v${r.filing.version})` : ''}
      </Badge>
    );
  return (
    <Badge color="gray" variant="light" size="lg">
      Open · due {r.dueDate}
    </Badge>
  );
}

function Summary({ report: r }: { report: IftaReport }) {
  const t = r.totals;
  const items = [
    {
      label: 'Total miles',
      value: int(t.totalMiles),
      sub: `${t.nonMemberMiles ? `${int(t.nonMemberMiles)} outside IFTA` : 'all in IFTA jurisdictions'} · days in ${r.timeZone.replace(/^America\//, '').replace(/_/g, ' ')} time`,
    },
    { label: 'Total gallons', value: int(t.totalGallons), sub: `${int(t.taxPaidGallons)} tax-paid` },
    { label: 'Fleet MPG', value: mpg(t.mpg), sub: `${r.scope.vehicles} vehicles` },
    { label: t.total < 0 ? 'Refund' : 'Total due', value: usd(Math.abs(t.total)), sub: `tax ${usd(t.tax)}, surcharge ${usd(t.surcharge)}` },
  ];
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
      {items.map((i) => (
        <Paper key={i.label} withBorder p="sm">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {i.label}
          </Text>
          <Text fz={{ base: 'lg', sm: 24 }} fw={700}>
            {i.value}
          </Text>
          <Text size="xs" c="dimmed">
            {i.sub}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
