import { useMemo, useState } from 'react';
import { Badge, Button, Group, Paper, Select, SimpleGrid, Text, TextInput, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { IconDownload, IconFilterOff } from '@tabler/icons-react';
import type { HosViolation } from '@fleet/api-contract';
import { SEVERITIES, VIOLATION_RULES, VIOLATIONS_MAX_RANGE_DAYS } from '@fleet/api-contract/hos';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useTableState } from '../../lib/table-state.ts';
import { formatHoursMinutes } from './availability/clock-format.ts';
import { fetchAllViolations, hosDriversQuery, violationsQuery } from './hos-clocks-api.ts';
import {
  DAY_FINDING_HELP,
  dayFindingLabel,
  RULE_FILTER_LABELS,
  RULE_HELP,
  ruleLabel,
  RULESET_LABELS,
  SEVERITY_COLORS,
  SEVERITY_HELP,
  SEVERITY_LABELS,
} from './violations/rule-words.ts';
import { useViolationFilters } from './violations/violation-filters.ts';
import { violationsCsv } from './violations/violations-csv.ts';
import { saveCsv } from '../../lib/download.ts';

const nowrap = { whiteSpace: 'nowrap' } as const;

const COLUMNS: TableColumn<HosViolation>[] = [
  {
    key: 'driver',
    header: 'Driver',
    primary: true,
    render: (v) => (
      <Text span size="sm" fw={600}>
        {v.driver.firstName} {v.driver.lastName}
      </Text>
    ),
  },
  {
    key: 'rule',
    header: 'Rule',
    render: (v) => (
      <Tooltip label={v.shortMs === null ? RULE_HELP[v.rule] : DAY_FINDING_HELP} multiline w={280} withArrow>
        <Text span size="sm" style={{ textDecoration: 'underline dotted', textUnderlineOffset: 3, whiteSpace: 'nowrap' }}>
          {v.shortMs === null ? ruleLabel(v.rule, v.ruleset) : dayFindingLabel(v.rule)}
        </Text>
      </Tooltip>
    ),
  },
  // Times in the driver's home-terminal zone, the log day's (decision 0140), labelled with it.
  {
    key: 'start',
    header: 'Start',
    render: (v) => (
      <Text span size="sm" style={nowrap}>
        {formatDateTime(v.start, v.timeZone)}
      </Text>
    ),
  },
  {
    key: 'end',
    header: 'End',
    render: (v) => (
      <Text span size="sm" style={nowrap}>
        {formatDateTime(v.end, v.timeZone)}
      </Text>
    ),
  },
  {
    key: 'durationMs',
    header: 'Duration',
    align: 'right',
    render: (v) => (
      <Text span size="sm" ff="monospace">
        {v.shortMs === null ? formatHoursMinutes(v.durationMs) : `${formatHoursMinutes(v.shortMs)} short`}
      </Text>
    ),
  },
  {
    key: 'severity',
    header: 'Severity',
    width: 120,
    render: (v) => (
      <Tooltip label={SEVERITY_HELP[v.severity]} withArrow>
        <Badge
          color={SEVERITY_COLORS[v.severity]}
          variant="light"
          data-severity={v.severity}
          style={{ color: 'var(--mantine-color-text)', overflow: 'visible' }}
        >
          {SEVERITY_LABELS[v.severity]}
        </Badge>
      </Tooltip>
    ),
  },
  {
    key: 'logDate',
    header: 'Log day',
    render: (v) => (
      <Text span size="sm" style={nowrap}>
        {formatDate(v.logDate)}
      </Text>
    ),
  },
  {
    key: 'ruleset',
    header: 'Ruleset',
    render: (v) => (
      <Text span size="sm" c="dimmed" style={nowrap}>
        {RULESET_LABELS[v.ruleset]}
      </Text>
    ),
  },
];

const RULE_OPTIONS = VIOLATION_RULES.map((r) => ({ value: r, label: RULE_FILTER_LABELS[r] }));
const SEVERITY_OPTIONS = SEVERITIES.map((s) => ({ value: s, label: `${SEVERITY_LABELS[s]} (${SEVERITY_HELP[s].toLowerCase()})` }));

/** The drivers' hours-of-service violations in a date range, filtered, paged, exported; a row opens the log day at the violation. */
export default function HosViolationsPage() {
  const orgId = useEffectiveOrganizationId();
  const navigate = useNavigate();
  const [state, setState, page] = useTableState();
  const [f, setFilter, clearFilters] = useViolationFilters();
  const [lastRange, setLastRange] = useState(f.range);
  // While the picked range is invalid the list keeps asking for the last valid one (the error says why).
  if (f.range && (f.range.from !== lastRange?.from || f.range.to !== lastRange?.to)) setLastRange(f.range);
  const range = f.range ?? lastRange;
  const filters = useMemo(
    () => ({
      from: range?.from,
      to: range?.to,
      driverId: f.driverId ?? undefined,
      rule: f.rule ?? undefined,
      severity: f.severity ?? undefined,
      groupId: f.groupId ?? undefined,
    }),
    [range?.from, range?.to, f.driverId, f.rule, f.severity, f.groupId],
  );
  const list = useQuery({ ...violationsQuery(orgId ?? '', { page: page.page, size: page.size, ...filters }), enabled: !!orgId });
  // The driver filter needs the driver list; a role that may list violations but not drivers filters by the other fields.
  const canListDrivers = useCan('DRIVER_LIST');
  const drivers = useQuery({ ...hosDriversQuery(orgId ?? ''), enabled: !!orgId && canListDrivers });
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    if (!orgId) return;
    setExporting(true);
    try {
      const rows = await fetchAllViolations(orgId, filters);
      saveCsv(violationsCsv(rows), `violations-${f.fromDay}-to-${f.toDay}.csv`);
      notify({ type: 'success', title: `Exported ${rows.length} violation${rows.length === 1 ? '' : 's'}`, timeout: 4000 });
    } catch {
      // The API client already showed the error toast.
    } finally {
      setExporting(false);
    }
  };

  const driverOptions = (drivers.data?.content ?? []).map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` }));

  return (
    <>
      <PageHeader
        title="HoS Violations"
        description={`Driving past an hours-of-service limit, as the rules engine reads each driver's log. From and To are days in ${f.zone}; start and end are in each driver's home-terminal time. Open a row to see the log day at that time.`}
        breadcrumbs={[{ label: 'Hours of Service' }, { label: 'Violations' }]}
      />
      <Paper withBorder radius="md" p="sm" mb="md" component="section" aria-label="Filters">
        <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm">
          <TextInput label="From" type="date" value={f.fromDay} max={f.toDay} onChange={(e) => setFilter('from', e.currentTarget.value || null)} />
          <TextInput
            label="To"
            type="date"
            value={f.toDay}
            min={f.fromDay}
            error={f.rangeError}
            description={f.rangeError ? undefined : `At most ${VIOLATIONS_MAX_RANGE_DAYS} days`}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            onChange={(e) => setFilter('to', e.currentTarget.value || null)}
          />
          <Select
            label="Driver"
            placeholder={drivers.isError || !canListDrivers ? 'Driver list unavailable' : 'All drivers'}
            searchable
            clearable
            disabled={drivers.isError || !canListDrivers}
            data={driverOptions}
            value={f.driverId}
            onChange={(v) => setFilter('driver', v)}
            nothingFoundMessage="No driver by that name"
          />
          <Select label="Rule" placeholder="Any rule" clearable data={RULE_OPTIONS} value={f.rule} onChange={(v) => setFilter('rule', v)} />
          <Select
            label="Severity"
            placeholder="Any severity"
            clearable
            data={SEVERITY_OPTIONS}
            value={f.severity}
            onChange={(v) => setFilter('severity', v)}
            renderOption={({ option }) => <Text size="sm">{option.label}</Text>}
          />
        </SimpleGrid>
        {f.any && (
          <Group justify="flex-end" mt="xs">
            <Button size="xs" variant="subtle" leftSection={<IconFilterOff size={14} />} onClick={clearFilters}>
              Clear filters
            </Button>
          </Group>
        )}
      </Paper>
      <ServerTable
        id="hos-violations"
        label="Violations"
        columns={COLUMNS}
        query={list}
        state={state}
        onStateChange={setState}
        searchable={false}
        toolbar={
          <Button variant="default" leftSection={<IconDownload size={16} />} loading={exporting} disabled={!f.range} onClick={() => void exportCsv()}>
            Export CSV
          </Button>
        }
        pageSizes={[15, 30, 50, 100]}
        rowKey={(v) => `${v.driver.id}|${v.rule}|${v.start}`}
        onRowClick={(v) => navigate(`/hos/logs/${v.logId}?at=${encodeURIComponent(v.start)}`)}
        emptyTitle={f.driverId || f.rule || f.severity ? 'No violations match these filters' : 'No violations in this range'}
        emptyDescription={
          f.driverId || f.rule || f.severity
            ? 'Widen the dates or clear a filter.'
            : `Every driver kept to the hours-of-service limits from ${formatDate(f.fromDay)} to ${formatDate(f.toDay)}.`
        }
      />
    </>
  );
}
