import { useState } from 'react';
import { Alert, Button, Checkbox, Code, CopyButton, Drawer, Group, Modal, NativeSelect, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { gatewayInputSchema, type Gateway } from '@fleet/api-contract';
import { field, useZodForm } from '../../lib/form.ts';
import { nullableField, showServerError } from '../../lib/registry-api.ts';
import { FormFooter } from '../../components/form-footer.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { saveGateway, useDeviceModels, useGatewayMutation, useRefusedLookup } from './gateways-api.ts';
import { formatDateTime } from '../../lib/dates.ts';

const FIELDS = ['uniqueId', 'name', 'deviceModelId', 'phone', 'firmware', 'status', 'notes', 'useReceivedTime'];
const t = (v: string | null | undefined) => v ?? '';

/** Add and edit form of a device; after an add, the batch-ingest token is shown once. */
export function DeviceFormDrawer({
  device,
  prefill,
  opened,
  onClose,
}: {
  device: Gateway | null;
  prefill?: { uniqueId: string; name: string } | null;
  opened: boolean;
  onClose: () => void;
}) {
  const [token, setToken] = useState<{ name: string; token: string } | null>(null);
  return (
    <>
      <Drawer opened={opened} onClose={onClose} position="right" size="lg" title={device ? `Edit ${device.name}` : 'Add device'}>
        {opened && <DeviceForm device={device} prefill={prefill ?? null} onClose={onClose} onToken={setToken} />}
      </Drawer>
      <IngestTokenModal value={token} onClose={() => setToken(null)} />
    </>
  );
}

function DeviceForm({
  device: g,
  prefill,
  onClose,
  onToken,
}: {
  device: Gateway | null;
  prefill: { uniqueId: string; name: string } | null;
  onClose: () => void;
  onToken: (t: { name: string; token: string }) => void;
}) {
  const models = useDeviceModels();
  const form = useZodForm(gatewayInputSchema, {
    defaultValues: {
      uniqueId: t(g?.uniqueId ?? prefill?.uniqueId),
      name: t(g?.name ?? prefill?.name),
      deviceModelId: g?.deviceModel?.id ?? null,
      phone: t(g?.phone),
      firmware: t(g?.firmware),
      status: g?.status ?? 'ACTIVE',
      notes: t(g?.notes),
      useReceivedTime: g?.useReceivedTime ?? false,
    },
  });
  const save = useGatewayMutation((body: unknown) => saveGateway(g?.id, body));
  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      notify({ type: 'success', title: `Device ${saved.name} saved`, timeout: 4000 });
      if (saved.ingestToken) onToken({ name: saved.name, token: saved.ingestToken });
      onClose();
    } catch (err) {
      if (!showServerError(form, err, FIELDS)) form.setError('root', { message: (err as Error).message });
    }
  });
  const modelData = [
    { value: '', label: 'Unknown model' },
    ...(models.data?.content ?? []).map((m) => ({ value: m.id, label: `${m.name}${m.manufacturer ? ` · ${m.manufacturer}` : ''}` })),
  ];
  return (
    <form onSubmit={submit} noValidate aria-label="Device form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Unique id (IMEI or serial)"
            required
            {...field(form, 'uniqueId')}
            data-autofocus
            styles={{ input: { fontFamily: 'monospace' } }}
            description={g ? undefined : <TriedToConnect uniqueId={(form.watch('uniqueId') ?? '').trim()} />}
          />
          <TextInput label="Name" required {...field(form, 'name')} />
          <NativeSelect label="Device model" data={modelData} {...nullableField(form, 'deviceModelId')} />
          <TextInput label="SIM phone number" type="tel" {...field(form, 'phone')} />
          <TextInput label="Firmware" {...field(form, 'firmware')} />
          <NativeSelect
            label="Status"
            data={[
              { value: 'ACTIVE', label: 'Active' },
              { value: 'INACTIVE', label: 'Inactive' },
            ]}
            {...field(form, 'status')}
          />
        </SimpleGrid>
        <Textarea label="Notes" autosize minRows={2} maxRows={6} {...field(form, 'notes')} />
        <Checkbox
          label="Use the time received"
          description="Store this device's fixes at the time they arrive instead of the time it sends: for a clock that cannot be set right (GPS week rollover, a wrong time zone). Fixes it kept while out of coverage then get the time they were uploaded."
          {...field(form, 'useReceivedTime')}
        />
        <FormFooter form={form} busy={save.isPending} onCancel={onClose} />
      </Stack>
    </form>
  );
}

/** "This id tried to connect at …": an exact typed id only, so nothing of other carriers is listed. */
function TriedToConnect({ uniqueId }: { uniqueId: string }) {
  const q = useRefusedLookup(uniqueId);
  if (!q.data?.lastAt) return null;
  return (
    <Text span size="xs" c="teal" data-testid="tried-to-connect">
      This id tried to connect at {formatDateTime(q.data.lastAt)} ({q.data.protocol}, {q.data.attempts} attempt{q.data.attempts === 1 ? '' : 's'})
    </Text>
  );
}

/** The ingest token is only ever shown here: the server keeps its hash. */
export function IngestTokenModal({ value, onClose }: { value: { name: string; token: string } | null; onClose: () => void }) {
  return (
    <Modal
      opened={!!value}
      onClose={onClose}
      title={
        <Group gap={6}>
          <IconKey size={18} />
          Ingest token for {value?.name}
        </Group>
      }
      centered
      size="lg"
    >
      <Stack gap="sm">
        <Alert color="yellow" variant="light">
          Copy it now and configure it on the device: it is shown only once. Regenerate it from the device page if it is lost.
        </Alert>
        <Code block data-testid="ingest-token" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {value?.token}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={value?.token ?? ''}>
            {({ copied, copy }) => (
              <Button
                variant={copied ? 'light' : 'filled'}
                color={copied ? 'teal' : undefined}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                onClick={copy}
              >
                {copied ? 'Copied' : 'Copy token'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          The device sends it as a bearer token with its position batches.
        </Text>
      </Stack>
    </Modal>
  );
}
