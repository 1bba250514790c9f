import { useState } from 'react';
import { Autocomplete, Button, Group, Modal, Stack, Textarea, TextInput, ActionIcon, Tooltip, Text } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { deviceModelInputSchema, KNOWN_PROTOCOLS, type DeviceModel, type KnownProtocol } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { field, useZodForm } from '../../lib/form.ts';
import { useTableState } from '../../lib/table-state.ts';
import { showServerError } from '../../lib/registry-api.ts';
import { FormFooter } from '../../components/form-footer.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { useDeleteDeviceModel, useDeviceModelList, useSaveDeviceModel } from './device-models-api.ts';
import { IoMapEditor, mapOf, rowsOf, type IoRow } from './io-map-editor.tsx';
import { RefusedDevicesAdmin } from './refused-devices-admin.tsx';

const PROTOCOL_CHOICES = Object.keys(KNOWN_PROTOCOLS);
const protocolHelp = (p: string) =>
  KNOWN_PROTOCOLS[p.trim().toLowerCase() as KnownProtocol] ?? 'A code of letters, digits, _ and -; known: osmand, teltonika, traccar, batch';

/** `/administration/device-models`: the global catalogue of device models (super administrator). */
export default function DeviceModelsPage() {
  const [state, setState, query] = useTableState({ sort: 'name,asc' });
  const [editing, setEditing] = useState<DeviceModel | 'new' | null>(null);
  const list = useDeviceModelList(query);
  const remove = useDeleteDeviceModel();
  const columns: TableColumn<DeviceModel>[] = [
    {
      key: 'name',
      header: 'Name',
      sortable: true,
      primary: true,
      render: (m) => (
        <Text fw={600} size="sm">
          {m.name}
        </Text>
      ),
    },
    { key: 'manufacturer', header: 'Manufacturer', sortable: true, render: (m) => m.manufacturer ?? '—' },
    {
      key: 'protocol',
      header: 'Protocol',
      sortable: true,
      render: (m) => (
        <Text ff="monospace" size="sm">
          {m.protocol}
        </Text>
      ),
    },
    {
      key: 'ioMap',
      header: 'IO map',
      hiddenByDefault: true,
      render: (m) => {
        const n = Object.keys(m.ioMap).length;
        return n ? `${n} element${n === 1 ? '' : 's'}` : m.protocol === 'teltonika' ? 'Teltonika default' : '—';
      },
    },
    { key: 'deviceCount', header: 'Devices', align: 'right', render: (m) => m.deviceCount },
    { key: 'notes', header: 'Notes', hiddenByDefault: true, render: (m) => m.notes ?? '—' },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (m) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Edit">
            <ActionIcon
              variant="subtle"
              aria-label={`Edit ${m.name}`}
              onClick={(e) => {
                e.stopPropagation();
                setEditing(m);
              }}
            >
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={m.deviceCount ? 'Devices use this model' : 'Delete'}>
            <ActionIcon
              variant="subtle"
              color="red"
              disabled={m.deviceCount > 0}
              aria-label={`Delete ${m.name}`}
              onClick={async (e) => {
                e.stopPropagation();
                if (await confirmAction({ title: `Delete ${m.name}?`, message: 'The model leaves the catalogue for every organization.' })) {
                  remove.mutate(m.id, { onSuccess: () => notify({ type: 'success', title: `${m.name} deleted`, timeout: 4000 }) });
                }
              }}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title="Device models"
        description="The catalogue every organization picks its devices' models from."
        breadcrumbs={[{ label: 'Administration' }, { label: 'Device models' }]}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            Add device model
          </Button>
        }
      />
      <ServerTable
        id="device-models"
        label="Device models"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(m) => m.id}
        onRowClick={(m) => setEditing(m)}
        searchPlaceholder="Name, manufacturer, protocol"
        emptyTitle="No device models yet"
      />
      <RefusedDevicesAdmin />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add device model' : `Edit ${editing?.name ?? ''}`}
        centered
        size="lg"
      >
        {editing !== null && <DeviceModelForm model={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      </Modal>
    </>
  );
}

function DeviceModelForm({ model: m, onClose }: { model: DeviceModel | null; onClose: () => void }) {
  const form = useZodForm(deviceModelInputSchema, {
    defaultValues: { name: m?.name ?? '', manufacturer: m?.manufacturer ?? '', protocol: m?.protocol ?? '', notes: m?.notes ?? '' },
  });
  const [rows, setRows] = useState<IoRow[]>(() => rowsOf(m?.ioMap ?? {}));
  const [ioError, setIoError] = useState<string | undefined>();
  const save = useSaveDeviceModel();
  const protocol = form.watch('protocol') ?? '';
  const submit = form.handleSubmit(async (values) => {
    const io = mapOf(rows);
    if ('error' in io) {
      setIoError(io.error);
      return;
    }
    setIoError(undefined);
    try {
      const saved = await save.mutateAsync({ id: m?.id, body: { ...values, ioMap: io.map } });
      notify({ type: 'success', title: `${saved.name} saved`, timeout: 4000 });
      onClose();
    } catch (err) {
      if (!showServerError(form, err, ['name', 'manufacturer', 'protocol', 'notes'])) form.setError('root', { message: (err as Error).message });
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Device model form">
      <Stack gap="sm">
        <TextInput label="Name" required {...field(form, 'name')} data-autofocus />
        <TextInput label="Manufacturer" {...field(form, 'manufacturer')} />
        <Controller
          control={form.control}
          name="protocol"
          render={({ field: f, fieldState }) => (
            <Autocomplete
              label="Protocol"
              required
              data={PROTOCOL_CHOICES}
              value={f.value ?? ''}
              onChange={f.onChange}
              onBlur={f.onBlur}
              error={fieldState.error?.message}
              description={protocolHelp(protocol)}
            />
          )}
        />
        <IoMapEditor rows={rows} onChange={setRows} error={ioError} teltonika={protocol.trim().toLowerCase() === 'teltonika'} />
        <Textarea label="Notes" autosize minRows={2} {...field(form, 'notes')} />
        <FormFooter form={form} busy={save.isPending} onCancel={onClose} />
      </Stack>
    </form>
  );
}
