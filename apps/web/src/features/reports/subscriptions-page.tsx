import { useState } from 'react';
import { ActionIcon, Alert, Button, Checkbox, Group, Modal, NativeSelect, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller } from 'react-hook-form';
import type { Asset, Driver, ReportSubscription, ReportSubscriptionInput } from '@fleet/api-contract';
import { SUBSCRIBED_REPORT_KINDS, SUBSCRIBED_REPORT_LABELS, reportSubscriptionInputSchema } from '@fleet/api-contract/reports';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { TimeZoneSelect } from '../../components/time-zone-select.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatDateTime, useViewerZone } from '../../lib/dates.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { useGroups } from '../../lib/map/map-api.ts';
import { notify } from '../../lib/notifications-store.ts';
import { showServerError, useCan, usePagedList } from '../../lib/registry-api.ts';
import { useFilterParam } from '../../components/registry-toolbar.tsx';
import { useTableState } from '../../lib/table-state.ts';
import { TIME_ZONES } from '../../lib/time-zones.ts';
import { ReportsTabs } from './report-common.tsx';
import { deleteSubscription, saveSubscription, usePlaceOptions, useSubscriptionMutation, useSubscriptions } from './reports-api.ts';

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const zoneName = (z: string) => TIME_ZONES.find((t) => t.value === z)?.label ?? z;

/** "Daily at 07:30" or "Weekly on Monday at 07:30", with the zone. */
export function scheduleText(s: Pick<ReportSubscription, 'frequency' | 'weekday' | 'timeOfDay' | 'timeZone'>): string {
  const when = s.frequency === 'WEEKLY' ? `Weekly on ${WEEKDAYS[(s.weekday ?? 1) - 1]}` : 'Daily';
  return `${when} at ${s.timeOfDay} (${zoneName(s.timeZone)})`;
}

const NO_ASSETS: Asset[] = [];
const NO_DRIVERS: Driver[] = [];

/** `/reports/subscriptions`: the signed-in user's scheduled reports, e-mailed as PDF and CSV. */
export default function SubscriptionsPage() {
  const [state, setState, query] = useTableState({ sort: 'createdAt,desc' });
  // An administrator (USER_LIST) may list everyone's, to see what the organization e-mails.
  const canSeeAll = useCan('USER_LIST');
  const [allParam, setAll] = useFilterParam('all');
  const all = canSeeAll && allParam === 'true';
  const list = useSubscriptions({ ...query, all: all ? 'true' : undefined });
  const [editing, setEditing] = useState<ReportSubscription | 'new' | null>(null);
  const remove = useSubscriptionMutation(deleteSubscription);
  const vehicles = usePagedList<Asset>('assets', { type: 'VEHICLE', size: 500, sort: 'unitNumber,asc' }).data?.content ?? NO_ASSETS;
  const drivers = usePagedList<Driver>('drivers', { size: 500, sort: 'lastName,asc' }).data?.content ?? NO_DRIVERS;
  const groups = useGroups().data?.content ?? [];
  const places = usePlaceOptions().data?.content ?? [];

  const filtersText = (s: ReportSubscription) => {
    const f = s.filters;
    const parts = [
      f.assetId && `Vehicle ${vehicles.find((v) => v.id === f.assetId)?.unitNumber ?? ''}`.trim(),
      f.driverId &&
        `Driver ${(() => {
          const d = drivers.find((x) => x.id === f.driverId);
          return d ? `${d.firstName} ${d.lastName}` : '';
        })()}`.trim(),
      f.groupId && `Group ${groups.find((g) => g.id === f.groupId)?.name ?? ''}`.trim(),
      f.placeId && `Place ${places.find((p) => p.id === f.placeId)?.name ?? ''}`.trim(),
      s.report === 'SAFETY_SCORES' && `Per ${f.by ?? 'driver'}`,
    ].filter(Boolean);
    return parts.length ? parts.join(' · ') : 'Whole fleet';
  };

  const columns: TableColumn<ReportSubscription>[] = [
    {
      key: 'report',
      header: 'Report',
      sortable: true,
      primary: true,
      render: (s) => (
        <Text size="sm" fw={600}>
          {SUBSCRIBED_REPORT_LABELS[s.report]}
        </Text>
      ),
    },
    { key: 'filters', header: 'Filters', render: filtersText },
    { key: 'schedule', header: 'Schedule', render: scheduleText },
    { key: 'formats', header: 'Attachments', render: (s) => s.formats.map((f) => f.toUpperCase()).join(', ') },
    { key: 'recipient', header: 'Sent to', render: (s) => s.recipient },
    { key: 'nextRunAt', header: 'Next', sortable: true, render: (s) => formatDateTime(s.nextRunAt) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (s) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <ActionIcon
            variant="subtle"
            aria-label={`Edit scheduled ${SUBSCRIBED_REPORT_LABELS[s.report]} report`}
            onClick={(e) => {
              e.stopPropagation();
              setEditing(s);
            }}
          >
            <IconPencil size={16} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red.8"
            aria-label={`Delete scheduled ${SUBSCRIBED_REPORT_LABELS[s.report]} report`}
            onClick={async (e) => {
              e.stopPropagation();
              if (
                await confirmAction({
                  title: `Stop the ${SUBSCRIBED_REPORT_LABELS[s.report].toLowerCase()} report?`,
                  message: `${scheduleText(s)}: no more e-mails. Reports already sent stay in your inbox.`,
                })
              ) {
                remove.mutate(s.id, { onSuccess: () => notify({ type: 'success', title: 'Scheduled report deleted', timeout: 4000 }) });
              }
            }}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Scheduled reports"
        description="Reports e-mailed to you as PDF and CSV, daily or weekly at a time in your zone, each covering the day or week just ended."
        breadcrumbs={[{ label: 'Reports', to: '/reports' }, { label: 'Scheduled reports' }]}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            Schedule a report
          </Button>
        }
      />
      <ReportsTabs />
      <ServerTable
        id="report-subscriptions"
        label="Scheduled reports"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(s) => s.id}
        onRowClick={(s) => setEditing(s)}
        searchable={false}
        toolbar={canSeeAll && <Switch label="Everyone's" checked={all} onChange={(e) => setAll(e.currentTarget.checked ? 'true' : null)} />}
        emptyTitle="No scheduled reports"
        emptyDescription="Schedule one to receive trips, stops, place visits, the daily summary or safety events and scores by e-mail."
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Schedule a report' : 'Edit scheduled report'}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing !== null && (
          <SubscriptionForm
            subscription={editing === 'new' ? null : editing}
            options={{
              vehicles: vehicles.map((v) => ({ value: v.id, label: v.unitNumber })),
              drivers: drivers.map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` })),
              groups: groups.map((g) => ({ value: g.id, label: g.name })),
              places: places.map((p) => ({ value: p.id, label: p.name })),
            }}
            onClose={() => setEditing(null)}
          />
        )}
      </Modal>
    </>
  );
}

type Option = { value: string; label: string };
const FIELDS = [
  'report',
  'filters',
  'frequency',
  'timeOfDay',
  'weekday',
  'timeZone',
  'formats',
  'filters.assetId',
  'filters.driverId',
  'filters.groupId',
  'filters.placeId',
  'filters.by',
] as const;

function SubscriptionForm({
  subscription: s,
  options,
  onClose,
}: {
  subscription: ReportSubscription | null;
  options: Record<'vehicles' | 'drivers' | 'groups' | 'places', Option[]>;
  onClose: () => void;
}) {
  const zone = useViewerZone();
  const save = useSubscriptionMutation(saveSubscription);
  const form = useZodForm(reportSubscriptionInputSchema, {
    defaultValues: {
      report: s?.report ?? 'TRIPS',
      filters: s?.filters ?? {},
      frequency: s?.frequency ?? 'DAILY',
      timeOfDay: s?.timeOfDay ?? '07:00',
      weekday: s?.weekday ?? null,
      timeZone: s?.timeZone ?? zone,
      formats: s?.formats ?? ['pdf', 'csv'],
    },
  });
  const canSafety = useCan('SAFETY_LIST');
  const frequency = form.watch('frequency');
  const report = form.watch('report');
  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: s?.id, body: values as ReportSubscriptionInput });
      notify({ type: 'success', title: `${SUBSCRIBED_REPORT_LABELS[values.report]} report scheduled`, timeout: 4000 });
      onClose();
    } catch (err) {
      if (!showServerError(form, err, FIELDS))
        form.setError('root', { message: err instanceof ApiError ? (err.body?.message ?? err.message) : (err as Error).message });
    }
  });
  const filterSelect = (name: 'assetId' | 'driverId' | 'groupId' | 'placeId', label: string, every: string, data: Option[]) => (
    <Controller
      control={form.control}
      name={`filters.${name}`}
      render={({ field: f, fieldState }) => (
        <NativeSelect
          label={label}
          value={f.value ?? ''}
          onChange={(e) => f.onChange(e.currentTarget.value || undefined)}
          onBlur={f.onBlur}
          error={fieldState.error?.message}
          data={[{ value: '', label: every }, ...data]}
        />
      )}
    />
  );
  const errors = form.formState.errors;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Scheduled report form">
      <Stack gap="sm">
        {/* Safety reports need SAFETY_LIST: offered only to those who may read safety events. */}
        <NativeSelect
          label="Report"
          required
          {...field(form, 'report')}
          data={SUBSCRIBED_REPORT_KINDS.filter((k) => canSafety || !k.startsWith('SAFETY_')).map((k) => ({ value: k, label: SUBSCRIBED_REPORT_LABELS[k] }))}
          data-autofocus
        />
        {report === 'SAFETY_SCORES' && (
          <Controller
            control={form.control}
            name="filters.by"
            render={({ field: f, fieldState }) => (
              <NativeSelect
                label="Scores per"
                value={f.value ?? 'driver'}
                onChange={(e) => f.onChange(e.currentTarget.value)}
                onBlur={f.onBlur}
                error={fieldState.error?.message}
                data={[
                  { value: 'driver', label: 'Driver' },
                  { value: 'vehicle', label: 'Vehicle' },
                ]}
              />
            )}
          />
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {report !== 'SAFETY_SCORES' && filterSelect('assetId', 'Vehicle', 'Every vehicle', options.vehicles)}
          {report !== 'SAFETY_SCORES' && filterSelect('driverId', 'Driver', 'Every driver', options.drivers)}
          {filterSelect('groupId', 'Group', 'Every group', options.groups)}
          {report === 'VISITS' && filterSelect('placeId', 'Place', 'Every place', options.places)}
        </SimpleGrid>
        <Controller
          control={form.control}
          name="frequency"
          render={({ field: f }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="frequency-label">
                Frequency
              </Text>
              <SegmentedControl
                aria-labelledby="frequency-label"
                value={f.value}
                onChange={(v) => {
                  f.onChange(v);
                  if (v === 'WEEKLY' && !form.getValues('weekday')) form.setValue('weekday', 1);
                }}
                data={[
                  { value: 'DAILY', label: 'Daily' },
                  { value: 'WEEKLY', label: 'Weekly' },
                ]}
              />
            </Stack>
          )}
        />
        <SimpleGrid cols={{ base: 1, xs: frequency === 'WEEKLY' ? 3 : 2 }} spacing="sm">
          {frequency === 'WEEKLY' && (
            <Controller
              control={form.control}
              name="weekday"
              render={({ field: f, fieldState }) => (
                <NativeSelect
                  label="Day of the week"
                  required
                  value={f.value ? String(f.value) : ''}
                  onChange={(e) => f.onChange(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
                  onBlur={f.onBlur}
                  error={fieldState.error?.message}
                  data={[{ value: '', label: 'Choose a day' }, ...WEEKDAYS.map((d, i) => ({ value: String(i + 1), label: d }))]}
                />
              )}
            />
          )}
          <TextInput label="Time of day" type="time" required {...field(form, 'timeOfDay')} />
          <TimeZoneSelect control={form.control} name="timeZone" />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="formats"
          render={({ field: f, fieldState }) => (
            <Checkbox.Group label="Attachments" value={f.value ?? []} onChange={(v) => f.onChange(v)} error={fieldState.error?.message}>
              <Group mt={6}>
                <Checkbox value="pdf" label="PDF" />
                <Checkbox value="csv" label="CSV" />
              </Group>
            </Checkbox.Group>
          )}
        />
        {errors.root?.message && (
          <Alert color="red" variant="light" role="alert" py="xs">
            {errors.root.message}
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
