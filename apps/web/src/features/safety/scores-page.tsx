import '@mantine/charts/styles.css';
import { useMemo } from 'react';
import { BarChart } from '@mantine/charts';
import { Anchor, Badge, Group, NativeSelect, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Page, SafetyGroupBy, SafetyScoreRow, SafetyScores, UnitSystem } from '@fleet/api-contract';
import { DownloadMenu } from '../../components/download-menu.tsx';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDate, useViewerZone } from '../../lib/dates.ts';
import { useGroups } from '../../lib/map/map-api.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { withParams, useSearchParams } from '../../lib/search-params.ts';
import { useTableState } from '../../lib/table-state.ts';
import { formatDistance, useUnits } from '../../lib/units.ts';
import { PeriodFilter, SafetyTabs, useSafetyPeriod, type SafetyPeriod } from './safety-common.tsx';
import { downloadSafety, useSafetyScores } from './safety-api.ts';
import { formatScore, formatSeconds, scoreClass, scoreColor } from './safety-words.tsx';

/** The scores' query: no bounds for the default rolling window (the server's settings decide its weeks). */
export const periodQuery = (p: SafetyPeriod) => (p.rolling ? {} : { from: p.from, to: p.to });

/** The big score of a card: the number in its colour, or a dash with why. */
export function ScoreFigure({ score, size = 40, label }: { score: number | null; size?: number; label: string }) {
  return (
    <Text fz={size} fw={700} lh={1} className={scoreClass(score)} aria-label={label} data-testid="score-figure" data-score={score ?? ''}>
      {formatScore(score)}
    </Text>
  );
}

export function ScoreBadge({ score }: { score: number | null }) {
  return (
    <Badge variant="light" color={scoreColor(score)} size="lg" radius="sm" miw={48} data-score={score ?? ''}>
      <span className={scoreClass(score)}>{formatScore(score)}</span>
    </Badge>
  );
}

function compare(a: SafetyScoreRow, b: SafetyScoreRow, field: string): number {
  switch (field) {
    case 'name':
      return a.name.localeCompare(b.name, 'en', { numeric: true });
    case 'score':
      return (a.score ?? 101) - (b.score ?? 101);
    case 'miles':
      return a.miles - b.miles;
    case 'events':
      return a.events - b.events;
    case 'speedingShare':
      return a.speedingShare - b.speedingShare;
    case 'newEvents':
      return a.newEvents - b.newEvents;
    default:
      return 0;
  }
}

/** The fleet's score, how many rows are scored, and the distribution of the scores. */
function FleetCard({ data, units }: { data: SafetyScores; units: UnitSystem }) {
  const { t } = useTranslation();
  const zone = useViewerZone();
  const f = data.fleet;
  const chart = [...f.distribution].reverse().map((b) => ({ bucket: b.label === 'Under 60' ? t('safety.scores.under60') : b.label, count: b.count }));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" mb="md">
      <Paper withBorder p="md" radius="md" data-testid="fleet-score">
        <Text size="xs" c="dimmed" fw={600} tt="uppercase">
          {t('safety.scores.fleet')}
        </Text>
        <Group align="baseline" gap="sm" mt={4}>
          <ScoreFigure score={f.score} size={48} label={t('safety.scores.fleetLabel', { score: formatScore(f.score) })} />
          <Text size="sm" c="dimmed">
            / 100
          </Text>
        </Group>
        <Text size="sm" mt="xs">
          {t('safety.scores.period', { from: formatDate(data.from, zone), to: formatDate(new Date(Date.parse(data.to) - 1), zone) })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('safety.scores.fleetFacts', {
            distance: formatDistance(f.miles * 1609.344, units),
            driving: formatSeconds(f.drivingSeconds),
            scored: f.scored,
            unscored: f.unscored,
          })}
        </Text>
        {f.score === null && (
          <Text size="sm" c="dimmed" mt="xs">
            {t('safety.scores.notEnough')}
          </Text>
        )}
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} fz="md" mb="xs">
          {t('safety.scores.distribution')}
        </Title>
        {f.scored === 0 ? (
          <Text size="sm" c="dimmed" py="lg" ta="center">
            {t('safety.scores.noneScored')}
          </Text>
        ) : (
          <BarChart
            h={160}
            data={chart}
            dataKey="bucket"
            series={[{ name: 'count', label: data.groupBy === 'driver' ? t('safety.scores.drivers') : t('safety.scores.vehicles'), color: 'teal.6' }]}
            yAxisProps={{ allowDecimals: false }}
            role="img"
            aria-label={chart.map((c) => `${c.bucket}: ${c.count}`).join(', ')}
            data-testid="score-distribution"
          />
        )}
      </Paper>
    </SimpleGrid>
  );
}

/** `/safety/scores`: every driver's (or vehicle's) score for a period, the fleet's, and their distribution. */
export default function SafetyScoresPage() {
  const { t } = useTranslation();
  const units = useUnits();
  const orgId = useEffectiveOrganizationId();
  const [params, setParams] = useSearchParams();
  const [period, setPeriod] = useSafetyPeriod();
  const groupBy: SafetyGroupBy = params.get('by') === 'vehicle' ? 'vehicle' : 'driver';
  const groupId = params.get('group') || undefined;
  const groups = useGroups().data?.content ?? [];
  const query = { ...periodQuery(period), groupBy, groupId };
  const scores = useSafetyScores(query);
  const [state, setState] = useTableState({ sort: 'score,asc', size: 30 });
  const set = (key: string, value: string | null) => setParams((prev) => withParams(prev, { [key]: value }, 'page'), { replace: true });

  // All rows come at once: the table pages and sorts them here.
  const page = useMemo<Page<SafetyScoreRow> | undefined>(() => {
    const all = scores.data?.rows;
    if (!all) return undefined;
    // A fleet of hundreds: found by name, as the other lists are.
    const needle = state.search?.trim().toLocaleLowerCase();
    const rows = needle ? all.filter((r) => r.name.toLocaleLowerCase().includes(needle)) : all;
    const [field, dir] = (state.sort ?? 'score,asc').split(',');
    const sorted = [...rows].sort((a, b) => compare(a, b, field ?? 'score') * (dir === 'desc' ? -1 : 1));
    return {
      content: sorted.slice(state.page * state.size, (state.page + 1) * state.size),
      page: state.page,
      size: state.size,
      totalElements: rows.length,
      totalPages: Math.max(1, Math.ceil(rows.length / state.size)),
    };
  }, [scores.data, state.sort, state.page, state.size, state.search]);

  const base = groupBy === 'driver' ? '/safety/scores/drivers' : '/safety/scores/vehicles';
  const qs = new URLSearchParams([...params].filter(([k]) => ['period', 'from', 'to'].includes(k))).toString();
  const columns: TableColumn<SafetyScoreRow>[] = [
    {
      key: 'name',
      header: groupBy === 'driver' ? t('safety.col.driver') : t('safety.col.vehicle'),
      sortable: true,
      primary: true,
      render: (r) => (
        <Anchor component={Link} to={`${base}/${r.id}${qs ? `?${qs}` : ''}`} size="sm" fw={600} onClick={(e) => e.stopPropagation()}>
          {r.name}
        </Anchor>
      ),
    },
    { key: 'score', header: t('safety.col.score'), sortable: true, render: (r) => <ScoreBadge score={r.score} /> },
    { key: 'miles', header: t('safety.col.distance'), sortable: true, align: 'right', render: (r) => formatDistance(r.distanceKm * 1000, units) },
    { key: 'events', header: t('safety.col.events'), sortable: true, align: 'right', render: (r) => r.events },
    { key: 'speedingShare', header: t('safety.col.speeding'), sortable: true, align: 'right', render: (r) => `${(r.speedingShare * 100).toFixed(1)} %` },
    { key: 'pointsLost', header: t('safety.col.pointsLost'), align: 'right', render: (r) => r.pointsLost.toFixed(1) },
    {
      key: 'newEvents',
      header: t('safety.col.toReview'),
      sortable: true,
      align: 'right',
      render: (r) =>
        r.newEvents + r.openCoaching > 0 ? (
          <Text size="sm" component="span">
            {r.newEvents} / {r.openCoaching}
          </Text>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('safety.title')}
        description={t('safety.scores.description')}
        actions={<DownloadMenu label={t('safety.export')} download={(format) => downloadSafety(orgId ?? '', 'scores', query, format)} />}
      />
      <SafetyTabs />
      <Group gap="xs" wrap="wrap" mb="md" align="flex-end">
        <SegmentedControl
          aria-label={t('safety.scores.per')}
          value={groupBy}
          onChange={(v) => set('by', v === 'vehicle' ? 'vehicle' : null)}
          data={[
            { value: 'driver', label: t('safety.scores.perDriver') },
            { value: 'vehicle', label: t('safety.scores.perVehicle') },
          ]}
        />
        <PeriodFilter period={period} onChange={setPeriod} />
        <NativeSelect
          aria-label={t('safety.filter.group')}
          value={groupId ?? ''}
          onChange={(e) => set('group', e.currentTarget.value || null)}
          data={[{ value: '', label: t('safety.filter.anyGroup') }, ...groups.map((g) => ({ value: g.id, label: g.name }))]}
        />
      </Group>
      <DataState isLoading={scores.isLoading} error={scores.error} onRetry={() => void scores.refetch()}>
        {scores.data && (
          <Stack gap={0}>
            <FleetCard data={scores.data} units={units} />
            <ServerTable
              id={`safety-scores-${groupBy}`}
              label={groupBy === 'driver' ? t('safety.scores.tableDrivers') : t('safety.scores.tableVehicles')}
              columns={columns}
              query={{ data: page, isLoading: false, isFetching: scores.isFetching }}
              state={state}
              onStateChange={setState}
              rowKey={(r) => r.id}
              searchPlaceholder={t('safety.scores.search')}
              emptyTitle={t('safety.scores.empty')}
              emptyDescription={t('safety.scores.emptyBody')}
            />
            <Text size="xs" c="dimmed" mt="xs">
              {t('safety.scores.footnote')}
            </Text>
          </Stack>
        )}
      </DataState>
    </>
  );
}
