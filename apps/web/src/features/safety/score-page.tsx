import '@mantine/charts/styles.css';
import { useState } from 'react';
import { LineChart } from '@mantine/charts';
import { Anchor, Button, Code, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import type { SafetyBehaviourScore, SafetyGroupBy, SafetyScoreDetail, UnitSystem } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatDate, formatDateTime, useViewerZone } from '../../lib/dates.ts';
import { formatDistance, useUnits } from '../../lib/units.ts';
import { PeriodFilter, SafetyTabs, useSafetyPeriod } from './safety-common.tsx';
import { useSafetyScore } from './safety-api.ts';
import { ScoreFigure, periodQuery } from './scores-page.tsx';
import { eventFigures, formatScore, formatSeconds, SeverityBadge, StatusBadge } from './safety-words.tsx';
import { useSearchParams } from '../../lib/search-params.ts';
import { useCan } from '../../lib/registry-api.ts';
import { ScoreFuelCard } from './score-fuel-card.tsx';

const two = (v: number) => v.toFixed(2);

/** "4 × 2.50" (per 1,000 mi) or "2 × 3.10 %" (share of driving time): one behaviour's term of the formula. */
const term = (b: SafetyBehaviourScore) => `${b.weight} × ${two(b.rate)}${b.basis === 'PERCENT_OF_DRIVING_TIME' ? ' %' : ''}`;

/** The formula with this row's numbers: `100 − (4 × 2.50 + 2 × 3.10 %) = 84.8`. */
export function formulaText(d: Pick<SafetyScoreDetail, 'behaviours' | 'score' | 'pointsLost'>): string {
  const costing = d.behaviours.filter((b) => b.points > 0);
  const sum = costing.length ? costing.map(term).join(' + ') : '0';
  return `100 − (${sum}) = ${d.score === null ? '—' : (Math.round(d.score * 10) / 10).toFixed(1)}`;
}

function FormulaCard({ d }: { d: SafetyScoreDetail }) {
  const { t } = useTranslation();
  const rows = d.behaviours.filter((b) => b.weight > 0 || b.events > 0 || b.seconds > 0);
  return (
    <Paper withBorder p="md" radius="md" data-testid="score-formula">
      <Title order={2} fz="md" mb={4}>
        {t('safety.score.formulaTitle')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('safety.score.formulaRule')}
      </Text>
      <Code block fz="sm" mb="sm" data-testid="score-formula-text" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {formulaText(d)}
      </Code>
      {d.formula.floored && (
        <Text size="sm" c="dimmed" mb="sm">
          {t('safety.score.floored')}
        </Text>
      )}
      <Table.ScrollContainer minWidth={480}>
        <Table verticalSpacing={6} aria-label={t('safety.score.formulaTable')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('safety.score.behaviour')}</Table.Th>
              <Table.Th ta="right">{t('safety.score.counted')}</Table.Th>
              <Table.Th ta="right">{t('safety.score.rate')}</Table.Th>
              <Table.Th ta="right">{t('safety.score.weight')}</Table.Th>
              <Table.Th ta="right">{t('safety.score.points')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((b) => (
              <Table.Tr key={b.behaviour} data-behaviour={b.behaviour}>
                <Table.Td>{t(`safety.behaviour.${b.behaviour}`)}</Table.Td>
                <Table.Td ta="right">{b.basis === 'PERCENT_OF_DRIVING_TIME' ? formatSeconds(b.seconds) : b.events}</Table.Td>
                <Table.Td ta="right">
                  {b.basis === 'PERCENT_OF_DRIVING_TIME'
                    ? t('safety.score.ratePercent', { rate: two(b.rate) })
                    : t('safety.score.ratePer1000', { rate: two(b.rate) })}
                </Table.Td>
                <Table.Td ta="right">{b.weight}</Table.Td>
                <Table.Td ta="right" fw={b.points > 0 ? 600 : undefined}>
                  {b.points > 0 ? `−${two(b.points)}` : '0'}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th colSpan={4}>{t('safety.score.totalLost')}</Table.Th>
              <Table.Th ta="right">−{two(d.pointsLost)}</Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function TrendCard({ d }: { d: SafetyScoreDetail }) {
  const { t } = useTranslation();
  const data = d.trend.map((w) => ({ week: formatDate(w.weekStart), score: w.score === null ? null : Math.round(w.score * 10) / 10, events: w.events }));
  const scored = data.filter((w) => w.score !== null);
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} fz="md" mb="xs">
        {t('safety.score.trend')}
      </Title>
      {scored.length === 0 ? (
        <Text size="sm" c="dimmed" py="lg" ta="center">
          {t('safety.score.noTrend')}
        </Text>
      ) : (
        <LineChart
          h={200}
          data={data}
          dataKey="week"
          series={[{ name: 'score', label: t('safety.col.score'), color: 'teal.6' }]}
          yAxisProps={{ domain: [0, 100] }}
          connectNulls={false}
          curveType="linear"
          role="img"
          aria-label={scored.map((w) => `${w.week}: ${w.score}`).join(', ')}
          data-testid="score-trend"
        />
      )}
      <Text size="xs" c="dimmed" mt={4}>
        {t('safety.score.trendNote')}
      </Text>
    </Paper>
  );
}

/** How many events of one behaviour show before "Show all". */
const FIRST_EVENTS = 5;

function EventList({
  events,
  groupBy,
  units,
}: {
  events: SafetyScoreDetail['eventsByBehaviour'][number]['events'];
  groupBy: SafetyGroupBy;
  units: UnitSystem;
}) {
  const { t, i18n } = useTranslation();
  const zone = useViewerZone();
  const [all, setAll] = useState(false);
  const shown = all ? events : events.slice(0, FIRST_EVENTS);
  return (
    <Stack gap={0}>
      {shown.map((e) => (
        <Group key={e.id} justify="space-between" gap="xs" wrap="wrap" py={6} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Stack gap={0}>
            <Anchor component={Link} to={`/safety/events/${e.id}`} size="sm">
              {formatDateTime(e.startedAt, zone)}
            </Anchor>
            <Text size="xs" c="dimmed">
              {eventFigures(e, units, t, i18n.language)}
              {groupBy === 'driver' ? ` · ${e.assetName}` : e.driverName ? ` · ${e.driverName}` : ''}
              {e.place ? ` · ${e.place}` : ''}
            </Text>
          </Stack>
          <Group gap={4}>
            <SeverityBadge severity={e.severity} />
            <StatusBadge status={e.status} />
          </Group>
        </Group>
      ))}
      {events.length > FIRST_EVENTS && (
        <Button variant="subtle" size="compact-sm" onClick={() => setAll((a) => !a)} aria-expanded={all} mt={4} style={{ alignSelf: 'flex-start' }}>
          {all ? t('safety.score.showFewer') : t('safety.score.showAll', { count: events.length })}
        </Button>
      )}
    </Stack>
  );
}

function EventsBehind({ d, units }: { d: SafetyScoreDetail; units: UnitSystem }) {
  const { t } = useTranslation();
  const byBehaviour = new Map(d.behaviours.map((b) => [b.behaviour, b]));
  const groups = d.eventsByBehaviour
    .filter((g) => g.events.length > 0)
    .sort((a, b) => (byBehaviour.get(b.behaviour)?.points ?? 0) - (byBehaviour.get(a.behaviour)?.points ?? 0));
  return (
    <Paper withBorder p="md" radius="md" data-testid="score-events">
      <Title order={2} fz="md" mb="sm">
        {t('safety.score.eventsTitle')}
      </Title>
      {groups.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('safety.score.noEvents')}
        </Text>
      ) : (
        <Stack gap="md">
          {groups.map((g) => {
            const b = byBehaviour.get(g.behaviour);
            return (
              <section key={g.behaviour} aria-label={t(`safety.behaviour.${g.behaviour}`)} data-behaviour={g.behaviour}>
                <Group justify="space-between" gap="xs" mb={4}>
                  <Text fw={600} size="sm">
                    {t(`safety.behaviour.${g.behaviour}`)}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {t('safety.score.groupPoints', { count: g.events.length, points: (b?.points ?? 0) > 0 ? `−${two(b?.points ?? 0)}` : '0' })}
                  </Text>
                </Group>
                <EventList events={g.events} groupBy={d.groupBy} units={units} />
              </section>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}

/** The score summary: the figure, the period, the distance and time it is computed on. */
export function ScoreSummary({ d, units }: { d: SafetyScoreDetail; units: UnitSystem }) {
  const { t } = useTranslation();
  const zone = useViewerZone();
  return (
    <Paper withBorder p="md" radius="md" data-testid="score-summary">
      <Group align="baseline" gap="sm">
        <ScoreFigure score={d.score} size={48} label={t('safety.score.scoreLabel', { score: formatScore(d.score) })} />
        <Text size="sm" c="dimmed">
          / 100
        </Text>
      </Group>
      <Text size="sm" mt="xs">
        {t('safety.scores.period', { from: formatDate(d.from, zone), to: formatDate(new Date(Date.parse(d.to) - 1), zone) })}
      </Text>
      <Text size="sm" c="dimmed">
        {t('safety.score.facts', {
          distance: formatDistance(d.distanceKm * 1000, units),
          driving: formatSeconds(d.drivingSeconds),
          events: d.events,
          speeding: (d.speedingShare * 100).toFixed(1),
        })}
      </Text>
      {d.score === null && (
        <Text size="sm" c="dimmed" mt="xs">
          {t('safety.score.under100')}
        </Text>
      )}
    </Paper>
  );
}

/** `/safety/scores/drivers/:id` and `/safety/scores/vehicles/:id`: a score that explains itself. */
export default function SafetyScorePage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const groupBy: SafetyGroupBy = useLocation().pathname.includes('/vehicles/') ? 'vehicle' : 'driver';
  const units = useUnits();
  const [period, setPeriod] = useSafetyPeriod();
  const q = useSafetyScore(groupBy, id, periodQuery(period));
  // Fuel economy and idling are fleet performance's figures (issue 68): shown to those who may read it.
  const canFuel = useCan('ANALYTICS_FLEET_PERFORMANCE');
  const d = q.data;
  const qs = new URLSearchParams([...params].filter(([k]) => ['period', 'from', 'to'].includes(k)));
  if (groupBy === 'vehicle') qs.set('by', 'vehicle');
  return (
    <>
      <PageHeader
        title={d ? d.name : t('safety.score.title')}
        description={groupBy === 'driver' ? t('safety.score.driverDescription') : t('safety.score.vehicleDescription')}
        breadcrumbs={[
          { label: t('safety.title'), to: '/safety' },
          { label: t('safety.tabs.scores'), to: `/safety/scores${qs.toString() ? `?${qs}` : ''}` },
          { label: d?.name ?? '…' },
        ]}
        actions={<PeriodFilter period={period} onChange={setPeriod} />}
      />
      <SafetyTabs />
      <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
        {d && (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              <ScoreSummary d={d} units={units} />
              <TrendCard d={d} />
            </SimpleGrid>
            {canFuel && <ScoreFuelCard groupBy={groupBy} id={id} period={period} units={units} />}
            <FormulaCard d={d} />
            <EventsBehind d={d} units={units} />
          </Stack>
        )}
      </DataState>
    </>
  );
}
