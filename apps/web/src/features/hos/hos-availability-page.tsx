import { useMemo } from 'react';
import { Anchor, Badge, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { Availability } from '@fleet/api-contract';
import tones from '../../components/badge-tones.module.css';
import { PageHeader } from '../../components/page-header.tsx';
import { GroupFilter, useFilterParam } from '../../components/registry-toolbar.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useTableState } from '../../lib/table-state.ts';
import { ClockBar } from './availability/clock-bar.tsx';
import { ClockHelp } from './availability/clock-help.tsx';
import { useCurrentLoads, type CurrentLoad } from './availability/current-loads.ts';
import { formatAgo, formatHoursMinutes } from './availability/clock-format.ts';
import { fullLengths, LEVEL_COLORS, levelOf, liveClocks, useNow, type LiveAvailability } from './availability/live-clocks.ts';
import { availabilityQuery } from './hos-clocks-api.ts';

/** How often the local countdown moves. */
const TICK_MS = 5_000;

const STATUS_WORDS: Record<NonNullable<Availability['status']>, { label: string; color: string }> = {
  D: { label: 'Driving', color: 'blue' },
  ON: { label: 'On duty', color: 'orange' },
  SB: { label: 'Sleeper berth', color: 'violet' },
  OFF: { label: 'Off duty', color: 'gray' },
};
const SPECIAL_WORDS = { PC: 'Personal conveyance', YM: 'Yard moves', PASSENGER: 'Passenger seat', WAITING: 'Waiting at well site' } as const;

interface Row {
  row: Availability;
  live: LiveAvailability;
  now: number;
  /** The driver's running load; undefined without LOAD_LIST (the column is not shown). */
  load?: CurrentLoad | null;
}

const LOAD_STATUS_WORDS: Record<CurrentLoad['status'], string> = {
  PLANNED: 'Planned',
  ASSIGNED: 'Assigned',
  EN_ROUTE: 'En route',
  AT_STOP: 'At stop',
  DELIVERED: 'Delivered',
  CANCELLED: 'Cancelled',
};

/** The driver's running load as a line under their name (a column would push the clocks off a 1280 px screen). */
function CurrentLoadLine({ load }: { load: CurrentLoad }) {
  return (
    <Group gap={4} wrap="nowrap" data-testid="current-load">
      <Text span size="xs" c="dimmed">
        Load
      </Text>
      <Tooltip
        label={`${LOAD_STATUS_WORDS[load.status]}${load.eta ? `, next stop ETA ${formatDateTime(load.eta)}` : ''}${load.atRisk ? `. At risk: ${load.riskReason ?? 'the ETA passes an appointment window'}` : ''}`}
        multiline
        w={260}
        withArrow
        events={{ hover: true, focus: true, touch: true }}
      >
        <Anchor component={Link} to={`/dispatch/loads/${load.id}`} size="xs" fw={600} style={{ whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
          {load.number}
        </Anchor>
      </Tooltip>
      {load.atRisk && (
        <Badge size="xs" variant="outline" radius="sm" className={tones.danger}>
          At risk
        </Badge>
      )}
    </Group>
  );
}

function StatusCell({ row, now }: { row: Availability; now: number }) {
  if (!row.status) {
    return (
      <Text span size="sm" c="dimmed">
        No records
      </Text>
    );
  }
  const s = STATUS_WORDS[row.status];
  return (
    <Stack gap={2} align="flex-start">
      <Badge color={s.color} variant="light" data-status={row.status}>
        {row.special ? SPECIAL_WORDS[row.special] : s.label}
      </Badge>
      {row.since && (
        <Text span size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatAgo(now - Date.parse(row.since)).replace(/ ago$/, '')}
          <br />
          since <DateOverTime iso={row.since} timeZone={row.timeZone} />
        </Text>
      )}
    </Stack>
  );
}

/** "11/24/26" over "9:13 PM CST": the labelled time takes two short lines, so the table fits 1280 px. */
function DateOverTime({ iso, timeZone }: { iso: string | number; timeZone: string }) {
  const text = formatDateTime(iso, timeZone);
  const cut = text.indexOf(' ');
  return cut < 0 ? (
    <>{text}</>
  ) : (
    <>
      {text.slice(0, cut)}
      <br />
      {text.slice(cut + 1)}
    </>
  );
}

function clockColumn(key: 'driveMs' | 'windowMs' | 'breakMs' | 'cycleMs', header: string): TableColumn<Row> {
  return {
    key,
    header,
    width: 110,
    render: ({ row, live }) => (
      <ClockBar name={header} strictMs={live.strict[key]} provisionalMs={live.provisional[key]} fullMs={fullLengths(row.ruleset)[key]} />
    ),
  };
}

const COLUMNS: TableColumn<Row>[] = [
  {
    key: 'lastName',
    header: 'Driver',
    sortable: true,
    primary: true,
    render: ({ row, load }) => (
      <Stack gap={0}>
        <Text span size="sm" fw={600}>
          {row.driver.firstName} {row.driver.lastName}
        </Text>
        <Text span size="xs" c="dimmed">
          {row.vehicle ? `Vehicle ${row.vehicle.unitNumber}` : 'No vehicle'}
        </Text>
        {load && <CurrentLoadLine load={load} />}
      </Stack>
    ),
  },
  { key: 'status', header: 'Status', render: ({ row, now }) => <StatusCell row={row} now={now} /> },
  {
    key: 'availableDriveMs',
    header: 'Available now',
    sortable: true,
    render: ({ live }) => {
      const level = levelOf(live.availableDriveMs);
      return (
        <Badge
          size="lg"
          variant="light"
          color={LEVEL_COLORS[level]}
          ff="monospace"
          data-level={level}
          data-testid="available-now"
          style={{ color: 'var(--mantine-color-text)' }}
          aria-label={`Can drive ${formatHoursMinutes(live.availableDriveMs)} now`}
        >
          {formatHoursMinutes(live.availableDriveMs)}
        </Badge>
      );
    },
  },
  clockColumn('driveMs', 'Drive'),
  clockColumn('windowMs', 'Window'),
  clockColumn('breakMs', 'Break'),
  clockColumn('cycleMs', 'Cycle'),
  {
    key: 'cycleUsedMs',
    header: 'Cycle used',
    sortable: true,
    align: 'right',
    render: ({ live }) => (
      <Text span size="sm" ff="monospace">
        {formatHoursMinutes(live.cycleUsedMs)}
      </Text>
    ),
  },
  {
    key: 'restartCompleteAt',
    header: 'Restart done',
    render: ({ live, row }) =>
      live.restartCompleteAt === null || live.cycleUsedMs === 0 ? (
        <Text span size="sm" c="dimmed">
          {live.restartCompleteAt === null ? 'No restart' : 'Not needed'}
        </Text>
      ) : (
        <Tooltip label="When a cycle restart would be complete if the driver goes (or stays) off duty now" multiline w={240} withArrow>
          <Text span size="sm">
            <DateOverTime iso={live.restartCompleteAt} timeZone={row.timeZone} />
          </Text>
        </Tooltip>
      ),
  },
];

/**
 * Every driver's hours left now: status, the four clocks as bars, the cycle, the restart. Clocks of
 * drivers at work count down locally every few seconds; the list is fetched again every minute and
 * on window focus, keeping the page and scroll (the previous answer stays until the new one lands).
 */
export default function HosAvailabilityPage() {
  const orgId = useEffectiveOrganizationId();
  const [state, setState, page] = useTableState({ sort: 'availableDriveMs,asc' });
  const [group, setGroup] = useFilterParam('group');
  const [duty, setDuty] = useFilterParam('duty');
  const [under, setUnder] = useFilterParam('underMinutes');
  const dutyFilter: 'DRIVING' | 'ON_DUTY' | 'OFF_DUTY' | undefined = duty === 'DRIVING' || duty === 'ON_DUTY' || duty === 'OFF_DUTY' ? duty : undefined;
  const underMinutes = under && /^\d+$/.test(under) ? Number(under) : undefined;
  const filters = useMemo(() => ({ ...page, groupId: group ?? undefined, duty: dutyFilter, underMinutes }), [page, group, dutyFilter, underMinutes]);
  const list = useQuery({ ...availabilityQuery(orgId ?? '', filters), enabled: !!orgId });
  const now = useNow(TICK_MS);
  // The group filter lists the groups, which needs GROUP_LIST.
  const canListGroups = useCan('GROUP_LIST');
  // Each driver's current load (issue 33), for those who may list loads.
  const canListLoads = useCan('LOAD_LIST');
  const loads = useCurrentLoads(orgId, canListLoads);
  const data = list.data;
  const rows = useMemo(
    () =>
      data && {
        ...data.page,
        content: data.page.content.map((row) => ({
          row,
          now,
          live: liveClocks(row, data.at, now),
          load: canListLoads ? (loads.get(row.driver.id) ?? null) : undefined,
        })),
      },
    [data, now, loads, canListLoads],
  );
  return (
    <>
      <PageHeader
        title="HoS Availability"
        description="Who can drive now and for how long: each driver's hours-of-service clocks, counting down live."
        breadcrumbs={[{ label: 'Hours of Service' }, { label: 'Availability' }]}
      />
      <ServerTable
        id="hos-availability"
        label="Driver availability"
        columns={COLUMNS}
        // A background refetch keeps the rows as they are (no fade): only a new page, sort or filter dims them.
        query={{ data: rows || undefined, isLoading: list.isLoading, isFetching: list.isPlaceholderData, error: list.error, refetch: list.refetch }}
        state={state}
        onStateChange={setState}
        rowKey={({ row }) => row.driver.id}
        searchPlaceholder="Search drivers"
        emptyTitle={dutyFilter || underMinutes ? 'No drivers match the filters' : group ? 'No drivers in this group' : 'No active drivers'}
        emptyDescription={group ? 'Pick another group or clear the filter.' : 'Drivers appear here once they are added to the organization.'}
        toolbar={
          <Group gap="xs" wrap="wrap" justify="flex-end">
            <Select
              aria-label="Duty status"
              placeholder="Any duty status"
              clearable
              data={[
                { value: 'DRIVING', label: 'Driving' },
                { value: 'ON_DUTY', label: 'On duty' },
                { value: 'OFF_DUTY', label: 'Off duty' },
              ]}
              value={dutyFilter ?? null}
              onChange={setDuty}
              w={160}
            />
            <Select
              aria-label="Driving time left"
              placeholder="Any time left"
              clearable
              data={[
                { value: '30', label: 'Under 30 min' },
                { value: '60', label: 'Under 1 h' },
                { value: '120', label: 'Under 2 h' },
              ]}
              value={underMinutes ? String(underMinutes) : null}
              onChange={setUnder}
              w={160}
            />
            {canListGroups && <GroupFilter value={group} onChange={setGroup} />}
            <ClockHelp />
          </Group>
        }
      />
    </>
  );
}
