import { useEffect, useState } from 'react';
import { ActionIcon, Alert, Button, Checkbox, Drawer, Group, NativeSelect, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { WORK_ORDER_STATUSES, workOrderInputSchema, type Defect, type WorkOrder } from '@fleet/api-contract';
import { confirmAction } from '../../../components/confirm-dialog.tsx';
import { DataState } from '../../../components/data-state.tsx';
import { FormFooter } from '../../../components/form-footer.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useFilterParam, useOpenParam } from '../../../components/registry-toolbar.tsx';
import { ServerTable, type TableColumn } from '../../../components/server-table.tsx';
import { formatDate, formatDateTime } from '../../../lib/dates.ts';
import { useZodForm } from '../../../lib/form.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { showServerError, useCan } from '../../../lib/registry-api.ts';
import { useTableState } from '../../../lib/table-state.ts';
import {
  deleteWorkOrder,
  saveWorkOrder,
  useDefects,
  useMaintenanceMutation,
  useOrgCurrency,
  useSchedules,
  useWorkOrder,
  useWorkOrders,
} from '../maintenance-api.ts';
import { WORK_ORDER_STATUS_LABEL, WorkOrderStatusBadge, unitOptions, useUnits500 } from './common.tsx';
import { MaintenanceTabs } from './maintenance-tabs.tsx';
import { useSearchParams } from '../../../lib/search-params.ts';

const money = (v: number | null, currency: string) => (v === null ? '—' : v.toLocaleString('en-US', { style: 'currency', currency }));

/** Work orders: the list by status, the order in a drawer (`?open=<id>`), and a new order (`?new=true&assetId=&scheduleId=&title=`, as the due list links it). */
export default function WorkOrdersPage() {
  const [state, setState, query] = useTableState({ sort: 'createdAt,desc' });
  const [status, setStatus] = useFilterParam('status');
  const [openId, setOpenId] = useOpenParam();
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState<{ assetId?: string; scheduleId?: string; title?: string } | null>(null);
  const canEdit = useCan('WORK_ORDER_UPDATE');
  const currency = useOrgCurrency();
  const list = useWorkOrders({ ...query, status: status ?? undefined });
  const remove = useMaintenanceMutation(deleteWorkOrder);

  // A link from the due list opens a new order filled in for that schedule and vehicle.
  useEffect(() => {
    if (params.get('new') !== 'true') return;
    setCreating({ assetId: params.get('assetId') ?? undefined, scheduleId: params.get('scheduleId') ?? undefined, title: params.get('title') ?? undefined });
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const k of ['new', 'assetId', 'scheduleId', 'title']) next.delete(k);
        return next;
      },
      { replace: true },
    );
  }, [params, setParams]);

  const del = async (w: WorkOrder) => {
    if (
      !(await confirmAction({
        title: `Delete work order “${w.title}”?`,
        message: `Its defects on ${w.asset.unitNumber} are unlinked and stay as they are; the activity log keeps a record.`,
      }))
    )
      return;
    try {
      await remove.mutateAsync(w.id);
      notify({ type: 'success', title: 'Work order deleted', timeout: 4000 });
      setOpenId(null);
    } catch {
      // toast shown
    }
  };

  const columns: TableColumn<WorkOrder>[] = [
    {
      key: 'title',
      header: 'Work order',
      sortable: true,
      primary: true,
      render: (w) => (
        <Text size="sm" fw={600}>
          {w.title}
        </Text>
      ),
    },
    { key: 'unit', header: 'Unit', render: (w) => w.asset.unitNumber },
    { key: 'status', header: 'Status', sortable: true, render: (w) => <WorkOrderStatusBadge status={w.status} /> },
    { key: 'assignee', header: 'Mechanic or shop', render: (w) => w.assignee ?? '—' },
    { key: 'defects', header: 'Defects', align: 'right', render: (w) => w.defectIds.length || '—' },
    { key: 'cost', header: 'Cost', align: 'right', render: (w) => money(w.cost, currency) },
    { key: 'createdAt', header: 'Opened', sortable: true, render: (w) => formatDate(w.createdAt) },
    { key: 'completedAt', header: 'Done', sortable: true, hiddenByDefault: true, render: (w) => (w.completedAt ? formatDate(w.completedAt) : '—') },
  ];

  return (
    <>
      <PageHeader
        title="Work orders"
        description="Repairs and services, from a defect or a due schedule to done."
        breadcrumbs={[{ label: 'Maintenance', to: '/maintenance' }, { label: 'Work orders' }]}
        actions={
          canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating({})}>
              New work order
            </Button>
          )
        }
      />
      <MaintenanceTabs />
      <ServerTable
        id="maintenance-work-orders"
        label="Work orders"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(w) => w.id}
        onRowClick={(w) => setOpenId(w.id)}
        searchPlaceholder="Title, mechanic or shop, unit"
        emptyTitle="No work orders"
        emptyDescription="Create one from a defect with one click, from a service due, or with New work order."
        toolbar={
          <NativeSelect
            aria-label="Status"
            value={status ?? ''}
            onChange={(e) => setStatus(e.currentTarget.value || null)}
            data={[{ value: '', label: 'Any status' }, ...WORK_ORDER_STATUSES.map((s) => ({ value: s, label: WORK_ORDER_STATUS_LABEL[s] }))]}
          />
        }
      />
      <WorkOrderDrawer
        id={openId}
        create={creating}
        onClose={() => {
          setOpenId(null);
          setCreating(null);
        }}
        onCreated={(w) => {
          setCreating(null);
          setOpenId(w.id);
        }}
        onDelete={del}
      />
    </>
  );
}

function WorkOrderDrawer({
  id,
  create,
  onClose,
  onCreated,
  onDelete,
}: {
  id: string | null;
  create: { assetId?: string; scheduleId?: string; title?: string } | null;
  onClose: () => void;
  onCreated: (w: WorkOrder) => void;
  onDelete: (w: WorkOrder) => void;
}) {
  const one = useWorkOrder(create ? null : id);
  const canEdit = useCan('WORK_ORDER_UPDATE');
  const w = one.data;
  return (
    <Drawer
      opened={!!id || !!create}
      onClose={onClose}
      position="right"
      size="lg"
      title={create ? 'New work order' : w ? `Work order: ${w.asset.unitNumber}` : 'Work order'}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {create ? (
        <WorkOrderForm key="new" order={null} prefill={create} onDone={onCreated} onCancel={onClose} />
      ) : (
        <DataState isLoading={one.isLoading} error={one.error} onRetry={() => void one.refetch()}>
          {w && (
            <Stack gap="sm">
              <Group justify="space-between">
                <Text size="xs" c="dimmed">
                  Opened {formatDateTime(w.createdAt)}
                  {w.completedAt ? ` · done ${formatDateTime(w.completedAt)}` : ''}
                </Text>
                {canEdit && (
                  <ActionIcon variant="subtle" color="red" aria-label="Delete work order" onClick={() => onDelete(w)}>
                    <IconTrash size={16} />
                  </ActionIcon>
                )}
              </Group>
              <WorkOrderForm key={`${w.id}-${w.updatedAt}`} order={w} prefill={{}} onDone={() => undefined} onCancel={onClose} />
            </Stack>
          )}
        </DataState>
      )}
    </Drawer>
  );
}

const FIELDS = ['assetId', 'title', 'description', 'status', 'defectIds', 'assignee', 'parts', 'laborHours', 'cost', 'scheduleId'];
const num = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));
const orNull = (v: unknown) => (v === '' || v === undefined ? null : v);

function WorkOrderForm({
  order: w,
  prefill,
  onDone,
  onCancel,
}: {
  order: WorkOrder | null;
  prefill: { assetId?: string; scheduleId?: string; title?: string };
  onDone: (w: WorkOrder) => void;
  onCancel: () => void;
}) {
  const canEdit = useCan('WORK_ORDER_UPDATE');
  const currency = useOrgCurrency();
  const units = useUnits500();
  const form = useZodForm(workOrderInputSchema, {
    defaultValues: {
      assetId: w?.asset.id ?? prefill.assetId ?? '',
      title: w?.title ?? prefill.title ?? '',
      description: w?.description ?? '',
      status: w?.status ?? 'OPEN',
      defectIds: w?.defectIds ?? [],
      assignee: w?.assignee ?? '',
      parts: w?.parts ?? '',
      laborHours: w?.laborHours ?? null,
      cost: w?.cost ?? null,
      scheduleId: w?.scheduleId ?? prefill.scheduleId ?? null,
    },
  });
  const [assetId, defectIds, status, scheduleId] = form.watch(['assetId', 'defectIds', 'status', 'scheduleId']);
  // The unit's defects this order may take: its open ones and the ones already on it.
  const openDefects = useDefects({ assetId: assetId || undefined, status: 'OPEN', size: 100 }, !!assetId);
  const linked = useDefects({ assetId: assetId || undefined, size: 100 }, !!assetId && !!w?.defectIds.length);
  const schedules = useSchedules({ assetId: assetId || undefined, size: 100 }, !!assetId && units.find((u) => u.id === assetId)?.type !== 'TRAILER');
  const candidates: Defect[] = [
    ...(linked.data?.content ?? []).filter((d) => w?.defectIds.includes(d.id)),
    ...(openDefects.data?.content ?? []).filter((d) => !w?.defectIds.includes(d.id) && (!d.workOrderId || d.workOrderId === w?.id)),
  ];
  const save = useMaintenanceMutation(saveWorkOrder);
  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({ id: w?.id, body: values });
      notify({ type: 'success', title: w ? `Work order saved: ${WORK_ORDER_STATUS_LABEL[saved.status].toLowerCase()}` : 'Work order created', timeout: 4000 });
      onDone(saved);
    } catch (err) {
      if (!showServerError(form, err, FIELDS)) form.setError('root', { message: (err as Error).message });
    }
  });
  const err = (name: string) => (form.formState.errors as Record<string, { message?: string } | undefined>)[name]?.message;
  const ro = !canEdit;
  return (
    <form onSubmit={submit} noValidate aria-label="Work order form">
      <fieldset disabled={ro} style={{ border: 0, padding: 0, margin: 0 }}>
        <Stack gap="sm">
          <NativeSelect
            label="Vehicle or trailer"
            required
            data={[{ value: '', label: 'Choose a unit' }, ...unitOptions(units)]}
            value={assetId ?? ''}
            onChange={(e) => {
              form.setValue('assetId', e.currentTarget.value, { shouldValidate: true, shouldDirty: true });
              form.setValue('defectIds', []);
              form.setValue('scheduleId', null);
            }}
            error={err('assetId')}
            disabled={ro || !!w}
          />
          <TextInput label="Title" required maxLength={200} {...form.register('title')} error={err('title')} data-autofocus />
          <NativeSelect
            label="Status"
            data={WORK_ORDER_STATUSES.map((s) => ({ value: s, label: WORK_ORDER_STATUS_LABEL[s] }))}
            {...form.register('status')}
            error={err('status')}
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            maxLength={4000}
            {...form.register('description', { setValueAs: orNull })}
            error={err('description')}
          />
          <Checkbox.Group
            label="Defects"
            description={assetId ? (candidates.length ? 'The defects this order repairs' : 'No open defect on this unit') : 'Choose a unit first'}
            value={defectIds ?? []}
            onChange={(v) => form.setValue('defectIds', v, { shouldDirty: true })}
            error={err('defectIds')}
          >
            <Stack gap={6} mt={6}>
              {candidates.map((d) => (
                <Checkbox
                  key={d.id}
                  value={d.id}
                  label={`${d.label}${d.note ? `: ${d.note}` : ''}${d.safety ? ' (safety)' : ''}${d.status !== 'OPEN' ? ' · certified' : ''}`}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          <TextInput label="Mechanic or shop" maxLength={200} {...form.register('assignee', { setValueAs: orNull })} error={err('assignee')} />
          <Textarea label="Parts" autosize minRows={2} maxLength={4000} {...form.register('parts', { setValueAs: orNull })} error={err('parts')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput label="Labour hours" inputMode="decimal" {...form.register('laborHours', { setValueAs: num })} error={err('laborHours')} />
            <TextInput label={`Cost (${currency})`} inputMode="decimal" {...form.register('cost', { setValueAs: num })} error={err('cost')} />
          </SimpleGrid>
          <NativeSelect
            label="Maintenance schedule"
            description={
              status === 'DONE' ? 'Done, the order restarts this schedule for the vehicle' : 'When done, the order restarts this schedule for the vehicle'
            }
            data={[{ value: '', label: 'None' }, ...(schedules.data?.content ?? []).map((s) => ({ value: s.id, label: s.name }))]}
            value={scheduleId ?? ''}
            onChange={(e) => form.setValue('scheduleId', e.currentTarget.value || null, { shouldDirty: true })}
            error={err('scheduleId')}
          />
          {canEdit ? (
            <FormFooter form={form} busy={save.isPending} onCancel={onCancel} label={w ? 'Save' : 'Create work order'} />
          ) : (
            <Alert variant="light" color="gray">
              You may read work orders; changing them needs the work order update permission.
            </Alert>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
