import { useState } from 'react';
import { ActionIcon, Badge, Button, Group as Row, Modal, NativeSelect, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { STATE_OPTIONS, terminalInputSchema, US_TIME_ZONES, type Terminal } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { FormFooter } from '../../components/form-footer.tsx';
import { field, useZodForm } from '../../lib/form.ts';
import { useTableState } from '../../lib/table-state.ts';
import { showServerError, useCan } from '../../lib/registry-api.ts';
import { notify } from '../../lib/notifications-store.ts';
import { deleteTerminal, saveTerminal, useTerminalMutation, useTerminals } from './terminals-api.ts';

const STATES = [{ value: '', label: 'Choose…' }, ...STATE_OPTIONS.map((s) => ({ value: s.code, label: `${s.code} · ${s.name}` }))];
const ZONES = [{ value: '', label: 'Choose…' }, ...US_TIME_ZONES.map((z) => ({ value: z.id, label: `${z.label} · ${z.id}` }))];
const zoneLabel = (id: string) => US_TIME_ZONES.find((z) => z.id === id)?.label ?? id;
const FIELDS = ['name', 'addressLine1', 'city', 'state', 'postalCode', 'timeZone'];

/**
 * `.../terminals` (issue 46): the organization's home terminals, each an address with its time zone.
 * A driver belongs to one: the log's header shows its address and the log days follow its zone.
 * The office reads the list (ORG_READ and DRIVER_LIST); ORG_UPDATE adds, edits and deletes (a terminal in use is refused).
 */
export default function TerminalsPage() {
  const [state, setState, query] = useTableState({ sort: 'name,asc' });
  const [editing, setEditing] = useState<Terminal | 'new' | null>(null);
  const canUpdate = useCan('ORG_UPDATE');
  const list = useTerminals({ ...query });
  const remove = useTerminalMutation(deleteTerminal);
  const columns: TableColumn<Terminal>[] = [
    {
      key: 'name',
      header: 'Name',
      sortable: true,
      primary: true,
      render: (x) => (
        <Text fw={600} size="sm">
          {x.name}
        </Text>
      ),
    },
    { key: 'address', header: 'Address', render: (x) => x.address },
    {
      key: 'timeZone',
      header: 'Time zone',
      sortable: true,
      render: (x) => (
        <Text size="sm" title={x.timeZone}>
          {zoneLabel(x.timeZone)}
        </Text>
      ),
    },
    {
      key: 'driverCount',
      header: 'Drivers',
      render: (x) => (
        <Badge variant="light" color={x.driverCount ? 'blue' : 'gray'}>
          {`${x.driverCount} driver${x.driverCount === 1 ? '' : 's'}`}
        </Badge>
      ),
    },
  ];
  if (canUpdate) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (x) => (
        <Row gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Edit">
            <ActionIcon
              variant="subtle"
              aria-label={`Edit ${x.name}`}
              onClick={(e) => {
                e.stopPropagation();
                setEditing(x);
              }}
            >
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${x.name}`}
              onClick={async (e) => {
                e.stopPropagation();
                const message = x.driverCount
                  ? `${x.driverCount} driver${x.driverCount === 1 ? ' belongs' : 's belong'} to it: give ${x.driverCount === 1 ? 'that driver' : 'them'} another home terminal first, or the delete is refused.`
                  : 'No driver belongs to it. Their logs keep their own header.';
                if (await confirmAction({ title: `Delete ${x.name}?`, message, confirmLabel: 'Delete' }))
                  remove.mutate(x.id, { onSuccess: () => notify({ type: 'success', title: `${x.name} deleted`, timeout: 4000 }) });
              }}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Row>
      ),
    });
  }
  const addButton = canUpdate ? (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
      Add terminal
    </Button>
  ) : null;
  return (
    <>
      <PageHeader
        title="Home terminals"
        description="Where your drivers report. A driver's log shows their terminal's address, and its days run in the terminal's time zone."
        breadcrumbs={[{ label: 'Organization settings', to: '/settings/organization-settings' }, { label: 'Home terminals' }]}
        actions={addButton}
      />
      <ServerTable
        id="terminals"
        label="Home terminals"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(x) => x.id}
        onRowClick={canUpdate ? (x) => setEditing(x) : undefined}
        searchPlaceholder="Name, address or city"
        emptyTitle="No home terminals yet"
        emptyAction={addButton}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add terminal' : `Edit ${editing?.name ?? ''}`}
        centered
        size="lg"
      >
        {editing !== null && <TerminalForm terminal={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      </Modal>
    </>
  );
}

function TerminalForm({ terminal: x, onClose }: { terminal: Terminal | null; onClose: () => void }) {
  const form = useZodForm(terminalInputSchema, {
    defaultValues: {
      name: x?.name ?? '',
      addressLine1: x?.addressLine1 ?? '',
      city: x?.city ?? '',
      state: x?.state ?? '',
      postalCode: x?.postalCode ?? '',
      timeZone: x?.timeZone ?? '',
    },
  });
  const save = useTerminalMutation((body: unknown) => saveTerminal(x?.id, body));
  const zone = form.watch('timeZone');
  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      notify({ type: 'success', title: `${saved.name} saved`, timeout: 4000 });
      onClose();
    } catch (err) {
      if (!showServerError(form, err, FIELDS)) form.setError('root', { message: (err as Error).message });
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Terminal form">
      <Stack gap="sm">
        <TextInput label="Name" required placeholder="Dallas terminal" {...field(form, 'name')} data-autofocus />
        <TextInput label="Address" required placeholder="3301 Irving Blvd" {...field(form, 'addressLine1')} />
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <TextInput label="City" required {...field(form, 'city')} />
          <NativeSelect label="State or province" required data={STATES} {...field(form, 'state')} />
          <TextInput label="Postal code" {...field(form, 'postalCode')} />
        </SimpleGrid>
        <NativeSelect
          label="Time zone"
          required
          data={ZONES}
          description={
            x && x.driverCount > 0 && zone !== x.timeZone
              ? `Its ${x.driverCount} driver${x.driverCount === 1 ? '' : 's'} move to this zone: their log days will run in it.`
              : "Its drivers' log days run in this zone."
          }
          {...field(form, 'timeZone')}
        />
        <FormFooter form={form} busy={save.isPending} onCancel={onClose} />
      </Stack>
    </form>
  );
}
