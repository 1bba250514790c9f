import { Badge, Group, NativeSelect, SegmentedControl, Text, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router';
import type { Driver, Dvir, InspectionDue } from '@fleet/api-contract';
import tones from '../../../components/badge-tones.module.css';
import { PageHeader } from '../../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../../components/server-table.tsx';
import { addDays, dayStartIn, formatDate, formatDateTime, todayIn, zoneLabel } from '../../../lib/dates.ts';
import { usePagedList } from '../../../lib/registry-api.ts';
import { useTableState } from '../../../lib/table-state.ts';
import { formatOdometer, useUnits } from '../../../lib/units.ts';
import { useDvirs } from '../dvir-api.ts';
import { useInspectionsDue } from '../maintenance-api.ts';
import { unitOptions, useGroupFilter, useUnits500 } from './common.tsx';
import { MaintenanceTabs } from './maintenance-tabs.tsx';
import { useSearchParams } from '../../../lib/search-params.ts';

export const KIND_LABEL = { PRE_TRIP: 'Pre-trip', POST_TRIP: 'Post-trip' } as const;

const NO_DRIVERS: Driver[] = [];

/** Inspection reports (filters in the query string), or with `?view=due&date=` the vehicles that moved that day without one. */
export default function InspectionsPage() {
  const [params, setParams] = useSearchParams();
  const due = params.get('view') === 'due';
  const set = (patch: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  return (
    <>
      <PageHeader
        title="Inspections"
        description="Driver vehicle inspection reports (49 CFR 396.11): kept at least three months."
        breadcrumbs={[{ label: 'Maintenance', to: '/maintenance' }, { label: 'Inspections' }]}
        actions={
          <SegmentedControl
            aria-label="Show"
            value={due ? 'due' : 'reports'}
            onChange={(v) => set({ view: v === 'due' ? 'due' : null, date: null })}
            data={[
              { value: 'reports', label: 'Reports' },
              { value: 'due', label: 'Inspections due' },
            ]}
          />
        }
      />
      <MaintenanceTabs />
      {due ? <DueList date={params.get('date')} onDate={(d) => set({ date: d })} /> : <Reports params={params} set={set} />}
    </>
  );
}

function Reports({ params, set }: { params: URLSearchParams; set: (patch: Record<string, string | null>) => void }) {
  const [state, setState] = useTableState();
  const navigate = useNavigate();
  const units = useUnits();
  const vehicles = useUnits500();
  const drivers = usePagedList<Driver>('drivers', { size: 500, sort: 'lastName,asc' }).data?.content ?? NO_DRIVERS;
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const hasDefects = params.get('hasDefects');
  const list = useDvirs({
    page: state.page,
    size: state.size,
    assetId: params.get('assetId') ?? undefined,
    driverId: params.get('driverId') ?? undefined,
    from: from ? dayStartIn(from) : undefined,
    to: to ? dayStartIn(addDays(to, 1)) : undefined,
    hasDefects: hasDefects === null ? undefined : hasDefects === 'true',
  });
  const columns: TableColumn<Dvir>[] = [
    { key: 'inspectedAt', header: 'Inspected', primary: true, render: (r) => formatDateTime(r.inspectedAt) },
    { key: 'unit', header: 'Unit', render: (r) => [r.asset.unitNumber, ...r.trailers.map((t) => t.unitNumber)].join(' + ') },
    { key: 'kind', header: 'Inspection', render: (r) => KIND_LABEL[r.kind] },
    { key: 'driver', header: 'Driver', render: (r) => r.driver?.name ?? r.signature.name },
    { key: 'odometer', header: 'Odometer', align: 'right', hiddenByDefault: true, render: (r) => formatOdometer(r.odometer, units) },
    {
      key: 'defects',
      header: 'Result',
      render: (r) =>
        r.hasDefects ? (
          <Badge variant="outline" radius="sm" className={r.unsafe ? tones.danger : tones.warn}>
            {r.defects.length} defect{r.defects.length === 1 ? '' : 's'}
            {r.unsafe ? ', unsafe' : ''}
          </Badge>
        ) : (
          <Badge variant="outline" radius="sm" className={tones.ok}>
            No defects
          </Badge>
        ),
    },
    { key: 'review', header: 'Reviewed', render: (r) => (r.review ? `${r.review.driver.name}` : r.hasDefects ? 'Not yet' : '—') },
  ];
  return (
    <ServerTable
      id="maintenance-inspections"
      label="Inspection reports"
      columns={columns}
      query={list}
      state={state}
      onStateChange={setState}
      rowKey={(r) => r.id}
      onRowClick={(r) => void navigate(`/maintenance/inspections/${r.id}`)}
      searchable={false}
      emptyTitle="No inspection reports"
      emptyDescription="Drivers sign their pre-trip and post-trip inspections on their phone; the reports show here."
      toolbar={
        <Group gap="xs" wrap="wrap">
          <NativeSelect
            aria-label="Unit"
            value={params.get('assetId') ?? ''}
            onChange={(e) => set({ assetId: e.currentTarget.value })}
            data={[{ value: '', label: 'Every unit' }, ...unitOptions(vehicles)]}
          />
          <NativeSelect
            aria-label="Driver"
            value={params.get('driverId') ?? ''}
            onChange={(e) => set({ driverId: e.currentTarget.value })}
            data={[{ value: '', label: 'Every driver' }, ...drivers.map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` }))]}
          />
          <TextInput type="date" aria-label={`From (${zoneLabel(new Date())})`} value={from} onChange={(e) => set({ from: e.currentTarget.value })} w={150} />
          <TextInput type="date" aria-label={`To (${zoneLabel(new Date())})`} value={to} onChange={(e) => set({ to: e.currentTarget.value })} w={150} />
          <NativeSelect
            aria-label="Defects"
            value={hasDefects ?? ''}
            onChange={(e) => set({ hasDefects: e.currentTarget.value })}
            data={[
              { value: '', label: 'With or without defects' },
              { value: 'true', label: 'With defects' },
              { value: 'false', label: 'Without defects' },
            ]}
          />
        </Group>
      }
    />
  );
}

function DueList({ date, onDate }: { date: string | null; onDate: (d: string | null) => void }) {
  const [state, setState] = useTableState();
  const day = date ?? todayIn();
  const [groupId, groupSelect] = useGroupFilter();
  const list = useInspectionsDue({ page: state.page, size: state.size, date: day, groupId });
  const columns: TableColumn<InspectionDue>[] = [
    {
      key: 'unitNumber',
      header: 'Unit',
      primary: true,
      render: (d) => (
        <Text size="sm" fw={600}>
          {d.unitNumber}
        </Text>
      ),
    },
    { key: 'driver', header: 'Driver', render: (d) => d.driver?.name ?? '—' },
    { key: 'lastReportAt', header: 'Last report', render: (d) => (d.lastReportAt ? formatDateTime(d.lastReportAt) : 'Never') },
  ];
  return (
    <ServerTable
      id="maintenance-inspections-due"
      label="Inspections due"
      columns={columns}
      query={list}
      state={state}
      onStateChange={setState}
      rowKey={(d) => d.assetId}
      searchable={false}
      emptyTitle="No inspection due"
      emptyDescription={`Every vehicle that moved on ${formatDate(dayStartIn(day))} has a report signed that day.`}
      toolbar={
        <Group gap="xs" wrap="wrap">
          <TextInput type="date" aria-label={`Day (${zoneLabel(new Date())})`} value={day} onChange={(e) => onDate(e.currentTarget.value || null)} w={160} />
          {groupSelect}
        </Group>
      }
    />
  );
}
