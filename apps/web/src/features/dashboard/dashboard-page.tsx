import '@mantine/charts/styles.css';
import { useEffect, useState, type ComponentType } from 'react';
import { AreaChart, BarChart, LineChart } from '@mantine/charts';
import { Anchor, Badge, Card, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import type { Dashboard, DashboardCounter } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { DemoSeedingNotice } from './demo-seeding-notice.tsx';
import { formatDate, formatShortDateTime, formatTime } from '../../lib/dates.ts';
import { useGroups } from '../../lib/map/map-api.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useUnits } from '../../lib/units.ts';
import { useDashboard } from './dashboard-api.ts';
import classes from './dashboard.module.css';
import { withParams, useSearchParams } from '../../lib/search-params.ts';

const TONE = { ok: 'teal', info: 'blue', warn: 'orange', bad: 'red' } as const;

const RULE_COLORS = ['red.7', 'orange.6', 'yellow.6', 'grape.6', 'violet.6', 'indigo.5', 'cyan.6', 'teal.6', 'pink.6', 'gray.6'];
const STATUS_SERIES = [
  { name: 'D', label: 'Driving', color: 'teal.6' },
  { name: 'ON', label: 'On duty', color: 'orange.5' },
  { name: 'SB', label: 'Sleeper berth', color: 'indigo.4' },
  { name: 'OFF', label: 'Off duty', color: 'gray.4' },
];

/** "6/1" for a calendar day of the charts (days of the dashboard's zone, as the server counts them). */
const shortDate = (d: string) => `${Number(d.slice(5, 7))}/${Number(d.slice(8, 10))}`;
const hm = (ms: number) => `${Math.floor(ms / 3_600_000)}:${String(Math.floor((ms % 3_600_000) / 60_000)).padStart(2, '0')}`;
const ruleWords = (r: string) => r.charAt(0) + r.slice(1).toLowerCase().replace(/_/g, ' ');

function CounterCard({ c }: { c: DashboardCounter }) {
  const body = (
    <Paper withBorder p="sm" radius="md" className={classes.counter} data-testid={`counter-${c.key}`} data-value={c.value ?? ''}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lineClamp={2} className={classes.counterLabel}>
        {c.label}
      </Text>
      <Group gap={6} align="baseline" wrap="nowrap">
        <Text fz={28} fw={700} lh={1.1} className={classes.counterValue}>
          {c.value === null ? '—' : c.value}
        </Text>
        <span className={classes.dot} style={{ background: `var(--mantine-color-${TONE[c.tone]}-6)` }} aria-hidden />
      </Group>
    </Paper>
  );
  return c.link ? (
    <UnstyledButton component={Link} to={c.link} className={classes.counterLink}>
      {body}
    </UnstyledButton>
  ) : (
    body
  );
}

function ChartCard({ title, children, empty }: { title: string; children: React.ReactNode; empty?: boolean }) {
  return (
    <Card withBorder padding="md" radius="md">
      <Title order={2} fz="md" mb="sm">
        {title}
      </Title>
      {empty ? (
        <Text size="sm" c="dimmed" py="xl" ta="center">
          Nothing in this period yet.
        </Text>
      ) : (
        children
      )}
    </Card>
  );
}

function Charts({ d }: { d: Dashboard }) {
  const units = useUnits();
  const miles = units === 'IMPERIAL';
  const rules = [...new Set(d.charts.violationsPerDay.flatMap((x) => Object.keys(x.byRule)))];
  const violations = d.charts.violationsPerDay.map((x) => ({
    date: shortDate(x.date),
    ...Object.fromEntries(rules.map((r) => [ruleWords(r), x.byRule[r as keyof typeof x.byRule] ?? 0])),
  }));
  const hours = d.charts.hoursPerDay.map((x) => ({
    date: shortDate(x.date),
    D: +(x.D / 3_600_000).toFixed(1),
    ON: +(x.ON / 3_600_000).toFixed(1),
    SB: +(x.SB / 3_600_000).toFixed(1),
    OFF: +(x.OFF / 3_600_000).toFixed(1),
  }));
  const distance = d.charts.distancePerDay.map((x) => ({
    date: shortDate(x.date),
    distance: Math.round(x.distanceM / (miles ? 1609.344 : 1000)),
    utilization: x.utilizationPct,
  }));
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <ChartCard
        title={`Violations per day, by rule`}
        empty={violations.every((v) => Object.keys(v).length === 1 || rules.every((r) => (v as Record<string, number | string>)[ruleWords(r)] === 0))}
      >
        <BarChart
          h={240}
          data={violations}
          dataKey="date"
          type="stacked"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          series={rules.map((r, i) => ({ name: ruleWords(r), color: RULE_COLORS[i % RULE_COLORS.length]! }))}
        />
      </ChartCard>
      {hours.length > 0 && (
        <ChartCard title="Driver hours per day, by duty status">
          <AreaChart h={240} data={hours} dataKey="date" type="stacked" withLegend legendProps={{ verticalAlign: 'bottom' }} unit=" h" series={STATUS_SERIES} />
        </ChartCard>
      )}
      {distance.length > 0 && (
        <ChartCard title={`${miles ? 'Miles' : 'Kilometres'} per day`} empty={distance.every((x) => x.distance === 0)}>
          <BarChart
            h={240}
            data={distance}
            dataKey="date"
            valueFormatter={(v) => v.toLocaleString('en-US')}
            series={[{ name: 'distance', label: miles ? 'Miles' : 'Kilometres', color: 'blue.6' }]}
          />
        </ChartCard>
      )}
      {distance.length > 0 && (
        <ChartCard title="Fleet utilization (vehicles that drove)" empty={distance.every((x) => x.utilization === 0)}>
          <LineChart
            h={240}
            data={distance}
            dataKey="date"
            unit="%"
            yAxisProps={{ domain: [0, 100] }}
            series={[{ name: 'utilization', label: 'Utilization', color: 'teal.6' }]}
            curveType="monotone"
          />
        </ChartCard>
      )}
    </SimpleGrid>
  );
}

function Lists({ d }: { d: Dashboard }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
      <Card withBorder padding="md" radius="md">
        <Title order={2} fz="md" mb="sm">
          Closest to a limit
        </Title>
        {d.lists.closestToLimit.length === 0 ? (
          <Text size="sm" c="dimmed">
            No driver at work.
          </Text>
        ) : (
          <Table verticalSpacing={6}>
            <Table.Tbody>
              {d.lists.closestToLimit.map((x) => (
                <Table.Tr key={x.driver.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/hos/availability?search=${encodeURIComponent(x.driver.lastName)}`} size="sm" fw={600}>
                      {x.driver.firstName} {x.driver.lastName}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {x.vehicleUnit ? `Vehicle ${x.vehicleUnit} · ` : ''}
                      {x.limit} limit
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Badge variant="light" color={x.availableDriveMs < 3_600_000 ? 'red' : 'gray'} className={classes.badge}>
                      {hm(x.availableDriveMs)} left
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      <Card withBorder padding="md" radius="md">
        <Title order={2} fz="md" mb="sm">
          Latest violations
        </Title>
        {d.lists.latestViolations.length === 0 ? (
          <Text size="sm" c="dimmed">
            No violations in this period.
          </Text>
        ) : (
          <Stack gap={8}>
            {d.lists.latestViolations.map((v) => (
              <div key={`${v.driver.id}-${v.rule}-${v.start}`}>
                {v.logId ? (
                  <Anchor component={Link} to={`/hos/logs/${v.logId}`} size="sm" fw={600}>
                    {v.driver.firstName} {v.driver.lastName}
                  </Anchor>
                ) : (
                  <Text size="sm" fw={600}>
                    {v.driver.firstName} {v.driver.lastName}
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {ruleWords(v.rule)} · {formatShortDateTime(v.start, d.timeZone)} · {hm(v.durationMs)}
                </Text>
              </div>
            ))}
          </Stack>
        )}
      </Card>
      <Card withBorder padding="md" radius="md">
        <Title order={2} fz="md" mb="sm">
          Offline longest
        </Title>
        {d.lists.offlineVehicles.length === 0 ? (
          <Text size="sm" c="dimmed">
            Every vehicle is reporting.
          </Text>
        ) : (
          <Stack gap={8}>
            {d.lists.offlineVehicles.map((v) => (
              <div key={v.assetId}>
                <Anchor component={Link} to={`/settings/organization-settings/vehicles?open=${v.assetId}`} size="sm" fw={600}>
                  Vehicle {v.unitNumber}
                </Anchor>
                <Text size="xs" c="dimmed">
                  Last report {formatShortDateTime(v.lastReportAt, d.timeZone)}
                  {v.driverName ? ` · ${v.driverName}` : ''}
                </Text>
              </div>
            ))}
          </Stack>
        )}
      </Card>
    </SimpleGrid>
  );
}

export interface DashboardPageProps {
  /** The safety card (issue 47), composed by the app from the safety feature; none: no card. */
  safety?: ComponentType<{ groupId?: string }>;
  /** The compliance tile (issue 71): papers expiring and expired, opening the calendar; none: no tile. */
  compliance?: ComponentType;
}

/** `/dashboard`: what needs attention now, with counters that open the list behind each. */
export default function DashboardPage({ safety: Safety, compliance: Compliance }: DashboardPageProps = {}) {
  const [params, setParams] = useSearchParams();
  const days = ([7, 14, 30] as const).find((d) => String(d) === params.get('days')) ?? 30;
  const groupParam = params.get('group');
  const canGroups = useCan('GROUP_LIST');
  const groups = useGroups();
  const [defaulted, setDefaulted] = useState(false);
  const q = useDashboard({ days, groupId: groupParam && groupParam !== 'all' ? groupParam : undefined });
  const d = q.data;
  // A member of groups starts on their first group.
  useEffect(() => {
    if (defaulted || !d) return;
    setDefaulted(true);
    if (!groupParam && d.myGroups.length > 0) setParams((p) => new URLSearchParams({ ...Object.fromEntries(p), group: d.myGroups[0]!.id }), { replace: true });
  }, [d, defaulted, groupParam, setParams]);
  const set = (key: string, value: string | null) => setParams((prev) => withParams(prev, { [key]: value }), { replace: true });
  const groupOptions = [
    { value: 'all', label: 'All groups' },
    ...(canGroups
      ? (groups.data?.content ?? []).map((g) => ({ value: g.id, label: g.name }))
      : (d?.myGroups ?? []).map((g) => ({ value: g.id, label: g.name }))),
  ];
  return (
    <>
      <PageHeader
        title="Dashboard"
        description={
          d
            ? `As of ${formatTime(d.at, d.timeZone)}, refreshed every minute; "today" is ${formatDate(d.today)} in ${d.timeZone}.`
            : 'Fleet status, hours of service and violations at a glance.'
        }
        actions={
          <Group gap="xs" wrap="wrap">
            <Select
              aria-label="Group"
              data={groupOptions}
              value={groupParam ?? 'all'}
              onChange={(v) => set('group', v === 'all' ? 'all' : v)}
              allowDeselect={false}
              w={180}
            />
            <SegmentedControl
              aria-label="Period of the charts"
              value={String(days)}
              onChange={(v) => set('days', v === '30' ? null : v)}
              data={[
                { value: '7', label: '7 days' },
                { value: '14', label: '14 days' },
                { value: '30', label: '30 days' },
              ]}
            />
          </Group>
        }
      />
      <DemoSeedingNotice />
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={!!d && d.counters.length === 0}
        emptyTitle="Nothing to show"
        emptyDescription="Your role does not include any list the dashboard counts."
      >
        {d && (
          <Stack gap="lg">
            <SimpleGrid cols={{ base: 2, xs: 3, sm: 4, lg: 7 }} spacing="sm" component="section" aria-label="Counters">
              {d.counters.map((c) => (
                <CounterCard key={c.key} c={c} />
              ))}
            </SimpleGrid>
            {Compliance && <Compliance />}
            {Safety && <Safety groupId={groupParam && groupParam !== 'all' ? groupParam : undefined} />}
            <Charts d={d} />
            <Lists d={d} />
          </Stack>
        )}
      </DataState>
    </>
  );
}
