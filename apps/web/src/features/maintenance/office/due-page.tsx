import { Button, Group, NativeSelect, Text } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { MaintenanceDue } from '@fleet/api-contract';
import { PageHeader } from '../../../components/page-header.tsx';
import { useFilterParam } from '../../../components/registry-toolbar.tsx';
import { ServerTable, type TableColumn } from '../../../components/server-table.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useCan } from '../../../lib/registry-api.ts';
import { useTableState } from '../../../lib/table-state.ts';
import { formatOdometer, useUnits } from '../../../lib/units.ts';
import { useDue } from '../maintenance-api.ts';
import { DueBadge, useGroupFilter } from './common.tsx';
import { MaintenanceTabs } from './maintenance-tabs.tsx';

/** The new work order a due line opens: that vehicle and schedule, titled by the schedule. */
export const dueWorkOrderPath = (d: Pick<MaintenanceDue, 'assetId' | 'scheduleId' | 'name'>) =>
  `/maintenance/work-orders?${new URLSearchParams({ new: 'true', assetId: d.assetId, scheduleId: d.scheduleId, title: d.name })}`;

/** Services coming due and overdue, overdue first; a line opens a work order filled in for it. */
export default function DuePage() {
  const [state, setState, query] = useTableState();
  const [status, setStatus] = useFilterParam('status');
  const units = useUnits();
  const canOrder = useCan('WORK_ORDER_UPDATE');
  const navigate = useNavigate();
  const [groupId, groupSelect] = useGroupFilter();
  const list = useDue({ page: query.page, size: query.size, status: status ?? undefined, groupId });
  const open = (d: MaintenanceDue) => void navigate(dueWorkOrderPath(d));
  const columns: TableColumn<MaintenanceDue>[] = [
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
    { key: 'name', header: 'Service', render: (d) => d.name },
    { key: 'status', header: 'Status', render: (d) => <DueBadge status={d.status} /> },
    { key: 'dueAt', header: 'Due by date', render: (d) => (d.dueAt ? formatDate(d.dueAt) : '—') },
    { key: 'dueOdometer', header: 'Due at odometer', align: 'right', render: (d) => formatOdometer(d.dueOdometer, units) },
    {
      key: 'dueEngineHours',
      header: 'Due at engine hours',
      align: 'right',
      render: (d) => (d.dueEngineHours === null ? '—' : `${Math.round(d.dueEngineHours).toLocaleString('en-US')} h`),
    },
    ...(canOrder
      ? [
          {
            key: 'actions',
            header: 'Actions',
            align: 'right' as const,
            render: (d: MaintenanceDue) => (
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconTool size={14} />}
                onClick={(e) => {
                  e.stopPropagation();
                  open(d);
                }}
                aria-label={`Work order for ${d.unitNumber} ${d.name}`}
              >
                Work order
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <PageHeader
        title="Service due"
        description="Vehicles whose preventive maintenance is coming due (the last tenth of an interval) or overdue."
        breadcrumbs={[{ label: 'Maintenance', to: '/maintenance' }, { label: 'Service due' }]}
      />
      <MaintenanceTabs />
      <ServerTable
        id="maintenance-due"
        label="Service due"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(d) => `${d.scheduleId}:${d.assetId}`}
        onRowClick={canOrder ? open : undefined}
        searchable={false}
        emptyTitle={status === 'OVERDUE' ? 'Nothing overdue' : 'Nothing due'}
        emptyDescription="Every vehicle is within its maintenance schedules."
        toolbar={
          <Group gap="xs" wrap="wrap">
            <NativeSelect
              aria-label="Status"
              value={status ?? ''}
              onChange={(e) => setStatus(e.currentTarget.value || null)}
              data={[
                { value: '', label: 'Due and overdue' },
                { value: 'OVERDUE', label: 'Overdue' },
                { value: 'DUE', label: 'Coming due' },
              ]}
            />
            {groupSelect}
          </Group>
        }
      />
    </>
  );
}
