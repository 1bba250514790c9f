import { useCallback, useState } from 'react';
import { Badge, Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Controller } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { SETTLEMENT_STATUSES, SETTLEMENT_STATUS_LABELS, settlementCreateSchema, type SettlementStatus, type SettlementSummary } from '@fleet/api-contract';
import { FormFooter } from '../../components/form-footer.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { todayIn, useViewerZone } from '../../lib/dates.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { showServerError, useCan } from '../../lib/registry-api.ts';
import { useSearchParams, withParams } from '../../lib/search-params.ts';
import { useTableState } from '../../lib/table-state.ts';
import { PayTabs } from './pay-tabs.tsx';
import { daysText, lastWeekOf, money, STATUS_COLOR } from './settlement-format.ts';
import { createSettlement, useDrivers, useSettlementMutation, useSettlements } from './settlements-api.ts';

// `/settlements` (issue 70): every driver's settlements, newest days first, by driver and status;
// "New settlement" drafts one for a driver's days (last week by default) and opens it.

function useParam(name: string): [string | null, (v: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback((v: string | null) => setParams((prev) => withParams(prev, { [name]: v, page: null }), { replace: true }), [name, setParams]);
  return [params.get(name), set];
}

export function StatusBadge({ status }: { status: SettlementStatus }) {
  return (
    <Badge variant="light" radius="sm" color={STATUS_COLOR[status]}>
      {SETTLEMENT_STATUS_LABELS[status]}
    </Badge>
  );
}

export default function SettlementsPage() {
  const navigate = useNavigate();
  const [state, setState, query] = useTableState();
  const [driver, setDriver] = useParam('driver');
  const [status, setStatus] = useParam('status');
  const [creating, setCreating] = useState(false);
  const canUpdate = useCan('SETTLEMENT_UPDATE');
  const drivers = useDrivers();
  const list = useSettlements({ ...query, driverId: driver ?? undefined, status: status ?? undefined });
  const driverOptions = (drivers.data?.content ?? []).map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` }));

  const columns: TableColumn<SettlementSummary>[] = [
    { key: 'number', header: 'Settlement', sortable: true, primary: true, render: (s) => <Text fw={600}>{s.number}</Text> },
    { key: 'driver', header: 'Driver', sortable: true, render: (s) => s.driver.name },
    { key: 'from', header: 'Days', sortable: true, render: (s) => daysText(s.from, s.to) },
    { key: 'status', header: 'Status', sortable: true, render: (s) => <StatusBadge status={s.status} /> },
    { key: 'loads', header: 'Loads', align: 'right', render: (s) => s.loadCount },
    { key: 'gross', header: 'Gross', align: 'right', render: (s) => money(s.totals.gross, s.currency) },
    { key: 'deductions', header: 'Deductions', align: 'right', render: (s) => (s.totals.deductions ? money(-s.totals.deductions, s.currency) : '—') },
    { key: 'net', header: 'Net pay', sortable: true, align: 'right', render: (s) => <Text fw={600}>{money(s.totals.net, s.currency)}</Text> },
    { key: 'createdAt', header: 'Made', sortable: true, hiddenByDefault: true, render: (s) => new Date(s.createdAt).toLocaleDateString('en-US') },
  ];

  const newButton = canUpdate ? (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      New settlement
    </Button>
  ) : undefined;

  return (
    <>
      <PageHeader
        title="Driver settlements"
        description="Each driver's pay for their days: from their delivered loads and their own log, less deductions, plus reimbursements. Approve a draft, then mark it paid; the driver sees approved statements in their app."
        breadcrumbs={[{ label: 'Driver pay' }, { label: 'Settlements' }]}
        actions={newButton}
      />
      <PayTabs />
      <ServerTable
        id="settlements"
        label="Settlements"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(s) => s.id}
        onRowClick={(s) => navigate(`/settlements/${s.id}`)}
        searchable={false}
        emptyTitle={driver || status ? 'No settlement matches' : 'No settlements yet'}
        emptyDescription={
          driver || status
            ? 'Change the driver or the status to see others.'
            : "A settlement pays a driver for their days: the loads they delivered, the hours of their log and their deductions. Set the drivers' pay profiles first."
        }
        emptyAction={driver || status ? undefined : newButton}
        toolbar={
          <Group gap="xs" wrap="wrap">
            <Select aria-label="Driver" placeholder="Every driver" data={driverOptions} value={driver} onChange={setDriver} searchable clearable w={200} />
            <Select
              aria-label="Status"
              placeholder="Any status"
              data={SETTLEMENT_STATUSES.map((s) => ({ value: s, label: SETTLEMENT_STATUS_LABELS[s] }))}
              value={status}
              onChange={setStatus}
              clearable
              w={150}
            />
          </Group>
        }
      />
      <Modal opened={creating} onClose={() => setCreating(false)} title="New settlement" size="md" closeButtonProps={{ 'aria-label': 'Close' }}>
        {creating && (
          <NewSettlementForm
            driverOptions={driverOptions}
            initialDriver={driver}
            onClose={() => setCreating(false)}
            onMade={(id) => {
              setCreating(false);
              navigate(`/settlements/${id}`);
            }}
          />
        )}
      </Modal>
    </>
  );
}

function NewSettlementForm({
  driverOptions,
  initialDriver,
  onClose,
  onMade,
}: {
  driverOptions: Array<{ value: string; label: string }>;
  initialDriver: string | null;
  onClose: () => void;
  onMade: (id: string) => void;
}) {
  const zone = useViewerZone();
  const week = lastWeekOf(todayIn(zone));
  const form = useZodForm(settlementCreateSchema, { defaultValues: { driverId: initialDriver ?? '', from: week.from, to: week.to } });
  const make = useSettlementMutation(createSettlement);
  const submit = form.handleSubmit(async (values) => {
    try {
      const s = await make.mutateAsync(values);
      notify({
        type: 'success',
        title: `Draft ${s.number} made: ${s.loadCount} ${s.loadCount === 1 ? 'load' : 'loads'}, net ${money(s.totals.net, s.currency)}`,
        timeout: 5000,
      });
      onMade(s.id);
    } catch (err) {
      if (!showServerError(form, err, ['driverId', 'from', 'to'])) form.setError('root', { message: (err as Error).message });
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="New settlement">
      <Stack gap="sm">
        <Controller
          control={form.control}
          name="driverId"
          render={({ field: f, fieldState }) => (
            <Select
              label="Driver"
              required
              searchable
              data={driverOptions}
              value={f.value || null}
              onChange={(v) => f.onChange(v ?? '')}
              onBlur={f.onBlur}
              error={fieldState.error?.message}
              data-autofocus
            />
          )}
        />
        <SimpleGrid cols={2} spacing="sm">
          <TextInput type="date" label="From" required {...field(form, 'from')} />
          <TextInput type="date" label="To" required {...field(form, 'to')} />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          The driver&apos;s log days, in their home terminal&apos;s time zone: loads delivered on them that no settlement has paid, the on-duty hours of their
          log, and their deductions and reimbursements. Last week is filled in.
        </Text>
        <FormFooter form={form} busy={make.isPending} onCancel={onClose} label="Make draft" />
      </Stack>
    </form>
  );
}
