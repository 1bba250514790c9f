import { ActionIcon, Anchor, Badge, Group, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { HosLogRow } from '@fleet/api-contract';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatTime, useViewerZone } from '../../lib/dates.ts';
import { useGroups } from '../../lib/map/map-api.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useTableState } from '../../lib/table-state.ts';
import { formatDistance, useUnits } from '../../lib/units.ts';
import { hosLogListQuery } from './hos-logs-api.ts';
import { addDays, driverName, formatHours, isLogDate, longDate, STATUS_NAMES, todayIn } from './logs/log-format.ts';
import tones from '../../components/badge-tones.module.css';
import classes from './logs/logs.module.css';
import { withParams, useSearchParams } from '../../lib/search-params.ts';

/** The sorts the API knows (`sort=field,dir`), offered as one menu: phones show cards without sortable headers. */
const SORTS = [
  { value: 'lastName,asc', label: 'Name, A to Z' },
  { value: 'lastName,desc', label: 'Name, Z to A' },
  { value: 'violationCount,desc', label: 'Most violations' },
  { value: 'driving,desc', label: 'Most driving' },
  { value: 'driving,asc', label: 'Least driving' },
];

/** A badge whose words may wrap, so a narrow column keeps the table inside the screen. */
const WRAPPING_BADGE = { root: { height: 'auto' }, label: { whiteSpace: 'normal' } } as const;

const PROBLEM_WORDS = { NO_SHIPPING_DOCUMENT: 'No shipping document', NO_TRAILER: 'No trailer' } as const;

/** "Today" of the log list: the viewer's day (profile zone, else the organization's; decision 0140). */
function useLogToday(): { today: string } {
  return { today: todayIn(useViewerZone()) };
}

/** Drivers' log days for one date: hours per status, distance, violations, certification and problems; a row opens the day. */
export default function HosLogsPage() {
  const orgId = useEffectiveOrganizationId();
  const units = useUnits();
  const { today } = useLogToday();
  const [state, setState, query] = useTableState({ sort: 'lastName,asc' });
  const [params, setParams] = useSearchParams();
  const date = isLogDate(params.get('date')) ? params.get('date')! : today;
  const groupId = params.get('group');
  const problemParam = params.get('problem');
  const problem = problemParam === 'UNCERTIFIED' || problemParam === 'NO_SHIPPING_DOCUMENT' || problemParam === 'NO_TRAILER' ? problemParam : undefined;
  const groups = useGroups();
  const list = useQuery({ ...hosLogListQuery(orgId ?? '', { ...query, date, groupId: groupId ?? undefined, problem }), enabled: !!orgId });

  const setParam = (key: string, value: string | null, push = false) =>
    // A new day is a new page for Back; a group choice replaces.
    setParams((prev) => withParams(prev, { [key]: value }, 'page'), { replace: !push });
  const setDate = (d: string) => setParam('date', d, true);

  const hours = (ms: number) => (
    <Text span size="sm" className={classes.hours} c={ms === 0 ? 'dimmed' : undefined}>
      {formatHours(ms)}
    </Text>
  );
  const columns: TableColumn<HosLogRow>[] = [
    {
      key: 'lastName',
      header: 'Driver',
      sortable: true,
      primary: true,
      render: (r) =>
        r.logId ? (
          <Anchor component={Link} to={`/hos/logs/${r.logId}`} className={classes.rowLink} fw={600} size="sm">
            {driverName(r.driver)}
          </Anchor>
        ) : (
          <Text span size="sm" fw={600}>
            {driverName(r.driver)}
          </Text>
        ),
    },
    { key: 'vehicles', header: 'Vehicles', render: (r) => r.vehicles.map((v) => v.unitNumber).join(', ') || '—' },
    { key: 'OFF', header: 'Off', align: 'right', render: (r) => hours(r.totals.OFF) },
    { key: 'SB', header: 'SB', align: 'right', render: (r) => hours(r.totals.SB) },
    { key: 'driving', header: 'Driving', align: 'right', sortable: true, render: (r) => hours(r.totals.D) },
    { key: 'ON', header: 'On duty', align: 'right', render: (r) => hours(r.totals.ON) },
    { key: 'distance', header: 'Distance', align: 'right', render: (r) => <span className={classes.hours}>{formatDistance(r.distanceM, units)}</span> },
    {
      key: 'violationCount',
      header: 'Violations',
      sortable: true,
      align: 'center',
      render: (r) =>
        r.violationCount > 0 ? (
          <Badge color="red.8" variant="filled" aria-label={`${r.violationCount} violation${r.violationCount === 1 ? '' : 's'}`}>
            {r.violationCount}
          </Badge>
        ) : (
          <Text span size="sm" c="dimmed" aria-label="No violations">
            0
          </Text>
        ),
    },
    {
      key: 'certified',
      header: 'Certification',
      render: (r) =>
        r.certified ? (
          <Badge color="green" variant="light" className={tones.ok} styles={WRAPPING_BADGE}>
            Certified
          </Badge>
        ) : r.problems.includes('UNCERTIFIED') ? (
          <Badge color="orange" variant="light" className={tones.warn} styles={WRAPPING_BADGE}>
            Uncertified
          </Badge>
        ) : (
          <Badge color="gray" variant="light" className={tones.muted} styles={WRAPPING_BADGE}>
            Not certified
          </Badge>
        ),
    },
    {
      key: 'problems',
      header: 'Problems',
      render: (r) => {
        const shown = r.problems.filter((p): p is keyof typeof PROBLEM_WORDS => p in PROBLEM_WORDS);
        return shown.length ? (
          <Stack gap={4} align="flex-start">
            {shown.map((p) => (
              <Badge key={p} color="orange" variant="outline" size="sm" className={tones.warn} styles={WRAPPING_BADGE}>
                {PROBLEM_WORDS[p]}
              </Badge>
            ))}
          </Stack>
        ) : (
          '—'
        );
      },
    },
    {
      key: 'lastEvent',
      header: 'Last event',
      render: (r) =>
        r.lastEvent ? (
          // Status over its labelled time: two short lines keep the last column inside 1280 px.
          <Stack gap={0}>
            <Text span size="sm">
              {STATUS_NAMES[r.lastEvent.status]}
            </Text>
            <Text span size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatTime(r.lastEvent.at, r.timeZone)}
            </Text>
          </Stack>
        ) : (
          '—'
        ),
    },
  ];

  const dateBar = (
    <Group gap={4} wrap="nowrap">
      <Tooltip label="Previous day">
        <ActionIcon variant="default" size="lg" aria-label="Previous day" onClick={() => setDate(addDays(date, -1))}>
          <IconChevronLeft size={18} />
        </ActionIcon>
      </Tooltip>
      <TextInput
        aria-label="Log day"
        type="date"
        value={date}
        max={today}
        onChange={(e) => isLogDate(e.currentTarget.value) && setDate(e.currentTarget.value)}
        w={150}
      />
      <Tooltip label="Next day">
        <ActionIcon variant="default" size="lg" aria-label="Next day" disabled={date >= today} onClick={() => setDate(addDays(date, 1))}>
          <IconChevronRight size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );

  return (
    <>
      <PageHeader
        title="HoS Logs"
        description={`${longDate(date)}${date === today ? ' (today)' : ''}: each driver's record of duty status. Open a row for the graph grid, events and edits.`}
        breadcrumbs={[{ label: 'Hours of Service' }, { label: 'Logs' }]}
        actions={
          date !== today ? (
            <Anchor component="button" type="button" size="sm" onClick={() => setDate(today)}>
              Back to today
            </Anchor>
          ) : undefined
        }
      />
      <ServerTable
        id="hos-logs"
        label="Driver logs"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(r) => r.driver.id}
        searchPlaceholder="Search drivers"
        emptyTitle={groupId ? 'No drivers in this group' : 'No active drivers'}
        emptyDescription={groupId ? 'Choose another group or all groups.' : 'Drivers appear here once they are added and active.'}
        toolbar={
          <>
            {dateBar}
            <Select
              aria-label="Sort by"
              w={165}
              data={SORTS}
              value={SORTS.some((o) => o.value === state.sort) ? state.sort : null}
              placeholder="Sort"
              onChange={(v) => v && setState({ sort: v })}
              allowDeselect={false}
            />
            <Select
              aria-label="Group"
              placeholder="All groups"
              clearable
              w={170}
              data={groups.data?.content.map((g) => ({ value: g.id, label: g.name })) ?? []}
              value={groupId}
              onChange={(v) => setParam('group', v)}
            />
          </>
        }
      />
    </>
  );
}
