import { useEffect, useState } from 'react';
import { ActionIcon, Alert, Button, Group, Modal, NativeSelect, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { maintenanceScheduleInputSchema, type Group as FleetGroup, type MaintenanceSchedule, type MaintenanceScheduleInput } from '@fleet/api-contract';
import { KM_PER_MILE, roundTo } from '@fleet/api-contract/units';
import { confirmAction } from '../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../../components/server-table.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { fieldMessages, useCan, usePagedList } from '../../../lib/registry-api.ts';
import { useTableState } from '../../../lib/table-state.ts';
import { unitLabels, useUnits, type UnitSystem } from '../../../lib/units.ts';
import { deleteSchedule, saveSchedule, useMaintenanceMutation, useSchedule, useSchedules } from '../maintenance-api.ts';
import { useOpenParam } from '../../../components/registry-toolbar.tsx';
import { unitOptions, useUnits500 } from './common.tsx';
import { MaintenanceTabs } from './maintenance-tabs.tsx';

/** `everyMiles` (the API's one distance in miles) as the organization reads it: miles, or kilometres. */
export const everyDistanceShown = (miles: number, units: UnitSystem) => (units === 'IMPERIAL' ? roundTo(miles, 1) : roundTo(miles * KM_PER_MILE, 1));
const milesFromShown = (v: number, units: UnitSystem) => (units === 'IMPERIAL' ? v : v / KM_PER_MILE);

/** "every 25,000 mi · 500 engine hours · 90 days" in the organization's units. */
export function intervalsText(s: Pick<MaintenanceSchedule, 'everyMiles' | 'everyEngineHours' | 'everyDays'>, units: UnitSystem): string {
  const parts = [
    s.everyMiles !== null ? `${everyDistanceShown(s.everyMiles, units).toLocaleString('en-US')} ${unitLabels(units).distance}` : null,
    s.everyEngineHours !== null ? `${s.everyEngineHours.toLocaleString('en-US')} engine hours` : null,
    s.everyDays !== null ? `${s.everyDays} days` : null,
  ].filter(Boolean);
  return parts.length ? `every ${parts.join(' · ')}` : '—';
}

const NO_GROUPS: FleetGroup[] = [];

/** Preventive maintenance schedules: per vehicle or group, every N distance, engine hours or days. */
export default function SchedulesPage() {
  const [state, setState, query] = useTableState({ sort: 'name,asc' });
  const list = useSchedules(query);
  const units = useUnits();
  const canEdit = useCan('MAINTENANCE_UPDATE');
  const vehicles = useUnits500('VEHICLE');
  const groups = usePagedList<FleetGroup>('groups', { size: 500, sort: 'name,asc' }).data?.content ?? NO_GROUPS;
  const [editing, setEditing] = useState<MaintenanceSchedule | 'new' | null>(null);
  const remove = useMaintenanceMutation(deleteSchedule);
  // An activity-log entry links a schedule with `?open=<id>`: its form opens.
  const [openId, setOpenId] = useOpenParam();
  const linked = useSchedule(openId);
  useEffect(() => {
    if (linked.data) {
      setEditing(linked.data);
      setOpenId(null);
    }
  }, [linked.data, setOpenId]);
  const covers = (s: MaintenanceSchedule) =>
    s.assetId ? (vehicles.find((v) => v.id === s.assetId)?.unitNumber ?? 'A vehicle') : `Group ${groups.find((g) => g.id === s.groupId)?.name ?? ''}`.trim();

  const columns: TableColumn<MaintenanceSchedule>[] = [
    {
      key: 'name',
      header: 'Schedule',
      sortable: true,
      primary: true,
      render: (s) => (
        <Text size="sm" fw={600}>
          {s.name}
        </Text>
      ),
    },
    { key: 'covers', header: 'Vehicle or group', render: covers },
    { key: 'intervals', header: 'Interval', render: (s) => intervalsText(s, units) },
    ...(canEdit
      ? [
          {
            key: 'actions',
            header: 'Actions',
            align: 'right' as const,
            render: (s: MaintenanceSchedule) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Edit schedule ${s.name}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    setEditing(s);
                  }}
                >
                  <IconPencil size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Delete schedule ${s.name}`}
                  onClick={async (e) => {
                    e.stopPropagation();
                    if (
                      await confirmAction({
                        title: `Delete schedule “${s.name}”?`,
                        message: 'Its vehicles no longer come due under it. Work orders stay; the activity log keeps a record.',
                      })
                    ) {
                      remove.mutate(s.id, { onSuccess: () => notify({ type: 'success', title: `Schedule ${s.name} deleted`, timeout: 4000 }) });
                    }
                  }}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <PageHeader
        title="Maintenance schedules"
        description="Preventive maintenance per vehicle or group: a service comes due by distance (engine odometer, else GPS), engine hours or days, whichever comes first."
        breadcrumbs={[{ label: 'Maintenance', to: '/maintenance' }, { label: 'Schedules' }]}
        actions={
          canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              Add schedule
            </Button>
          )
        }
      />
      <MaintenanceTabs />
      <ServerTable
        id="maintenance-schedules"
        label="Maintenance schedules"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(s) => s.id}
        onRowClick={canEdit ? (s) => setEditing(s) : undefined}
        searchPlaceholder="Schedule name"
        emptyTitle="No maintenance schedules"
        emptyDescription="Add one such as “Oil change every 25,000” for a vehicle or a whole group."
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add maintenance schedule' : `Edit ${editing?.name ?? ''}`}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing !== null && <ScheduleForm schedule={editing === 'new' ? null : editing} groups={groups} onClose={() => setEditing(null)} />}
      </Modal>
    </>
  );
}

type Errors = Partial<Record<'target' | 'name' | 'everyMiles' | 'everyEngineHours' | 'everyDays' | 'root', string>>;

function ScheduleForm({ schedule: s, groups, onClose }: { schedule: MaintenanceSchedule | null; groups: FleetGroup[]; onClose: () => void }) {
  const units = useUnits();
  const vehicles = useUnits500('VEHICLE');
  const shownDistance = s?.everyMiles != null ? String(everyDistanceShown(s.everyMiles, units)) : '';
  const [kind, setKind] = useState<'asset' | 'group'>(s?.groupId ? 'group' : 'asset');
  const [assetId, setAssetId] = useState(s?.assetId ?? '');
  const [groupId, setGroupId] = useState(s?.groupId ?? '');
  const [name, setName] = useState(s?.name ?? '');
  const [distance, setDistance] = useState(shownDistance);
  const [hours, setHours] = useState(s?.everyEngineHours != null ? String(s.everyEngineHours) : '');
  const [days, setDays] = useState(s?.everyDays != null ? String(s.everyDays) : '');
  const [errors, setErrors] = useState<Errors>({});
  const save = useMaintenanceMutation(saveSchedule);
  const n = (v: string) => (v.trim() === '' ? null : Number(v));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    // A distance left as it was shown goes back exactly as it came (no rounding drift).
    const d = n(distance);
    const body: MaintenanceScheduleInput = {
      assetId: kind === 'asset' ? assetId || null : null,
      groupId: kind === 'group' ? groupId || null : null,
      name,
      everyMiles: distance.trim() === shownDistance && s ? s.everyMiles : d === null ? null : milesFromShown(d, units),
      everyEngineHours: n(hours),
      everyDays: n(days),
    };
    const parsed = maintenanceScheduleInputSchema.safeParse(body);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'root');
        const k = (key === 'assetId' || key === 'groupId' ? 'target' : key) as keyof Errors;
        next[k] ??= issue.message.replace('Every (distance)', `Every (${unitLabels(units).distance})`);
      }
      if (kind === 'asset' && !assetId) next.target = 'Choose a vehicle';
      if (kind === 'group' && !groupId) next.target = 'Choose a group';
      setErrors(next);
      return;
    }
    try {
      await save.mutateAsync({ id: s?.id, body });
      notify({ type: 'success', title: `Schedule ${name.trim()} saved`, timeout: 4000 });
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.body) {
        const next: Errors = {};
        for (const m of fieldMessages(err.body.technicalMessage ?? '')) {
          const k = (m.path === 'assetId' || m.path === 'groupId' ? 'target' : m.path) as keyof Errors;
          next[k in { target: 1, name: 1, everyMiles: 1, everyEngineHours: 1, everyDays: 1 } ? k : 'root'] = m.message;
        }
        setErrors(Object.keys(next).length ? next : { root: err.body.message });
      } else setErrors({ root: (err as Error).message });
    }
  };
  const dist = unitLabels(units).distance;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Maintenance schedule form">
      <Stack gap="sm">
        <SegmentedControl
          aria-label="Schedule covers"
          value={kind}
          onChange={(v) => setKind(v as 'asset' | 'group')}
          data={[
            { value: 'asset', label: 'One vehicle' },
            { value: 'group', label: 'A group' },
          ]}
        />
        {kind === 'asset' ? (
          <NativeSelect
            label="Vehicle"
            required
            value={assetId}
            onChange={(e) => setAssetId(e.currentTarget.value)}
            data={[{ value: '', label: 'Choose a vehicle' }, ...unitOptions(vehicles)]}
            error={errors.target}
          />
        ) : (
          <NativeSelect
            label="Group"
            description="Every vehicle of the group, including vehicles added later"
            required
            value={groupId}
            onChange={(e) => setGroupId(e.currentTarget.value)}
            data={[{ value: '', label: 'Choose a group' }, ...groups.map((g) => ({ value: g.id, label: g.name }))]}
            error={errors.target}
          />
        )}
        <TextInput
          label="Name"
          required
          maxLength={200}
          placeholder="Oil change, annual inspection…"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          data-autofocus
        />
        <Text size="sm" fw={500}>
          Due every (at least one; the first reached comes due)
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <TextInput
            label={`Every (${dist})`}
            inputMode="decimal"
            value={distance}
            onChange={(e) => setDistance(e.currentTarget.value)}
            error={errors.everyMiles}
          />
          <TextInput
            label="Every (engine hours)"
            inputMode="decimal"
            value={hours}
            onChange={(e) => setHours(e.currentTarget.value)}
            error={errors.everyEngineHours}
          />
          <TextInput label="Every (days)" inputMode="numeric" value={days} onChange={(e) => setDays(e.currentTarget.value)} error={errors.everyDays} />
        </SimpleGrid>
        {errors.root && (
          <Alert color="red" variant="light" role="alert" py="xs">
            {errors.root}
          </Alert>
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
