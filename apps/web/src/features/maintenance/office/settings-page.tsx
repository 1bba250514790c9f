import { useEffect, useState } from 'react';
import { ActionIcon, Alert, Button, Checkbox, Group, List, Paper, SimpleGrid, Stack, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { DVIR_ITEMS, inspectionItemsSchema, normalizeFaultCode, type InspectionItems } from '@fleet/api-contract';
import { DataState } from '../../../components/data-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useCan } from '../../../lib/registry-api.ts';
import { saveGroundingCodes, saveInspectionItems, useGroundingCodes, useMaintenanceMutation, useOwnInspectionItems } from '../maintenance-api.ts';
import { MaintenanceTabs } from './maintenance-tabs.tsx';

type Item = InspectionItems['items'][number];

/** The organization's own inspection items, reported on every inspection after the 396.11 list. */
export default function MaintenanceSettingsPage() {
  const q = useOwnInspectionItems();
  const canEdit = useCan('MAINTENANCE_UPDATE');
  const canFaults = useCan('MAINTENANCE_LIST');
  return (
    <>
      <PageHeader
        title="Inspection items"
        description="What drivers report on at every inspection: the parts and accessories 49 CFR 396.11 lists, and your own items."
        breadcrumbs={[{ label: 'Maintenance', to: '/maintenance' }, { label: 'Inspection items' }]}
      />
      <MaintenanceTabs />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder radius="md" p="md">
          <Title order={2} fz="md" mb="xs">
            Required by 49 CFR 396.11
          </Title>
          <List size="sm" spacing={4}>
            {DVIR_ITEMS.map((i) => (
              <List.Item key={i.code}>
                {i.label}
                {i.trailer ? (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    · vehicle and trailers
                  </Text>
                ) : null}
              </List.Item>
            ))}
          </List>
        </Paper>
        <Paper withBorder radius="md" p="md">
          <Title order={2} fz="md" mb="xs">
            Your organization's items
          </Title>
          <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
            {q.data && <ItemsForm key={JSON.stringify(q.data.items)} initial={q.data.items} canEdit={canEdit} />}
          </DataState>
        </Paper>
      </SimpleGrid>
      {canFaults && <GroundingCodesPanel canEdit={canEdit} />}
    </>
  );
}

/** The engine fault codes that ground a vehicle (decision 0191): a new active one becomes a safety defect on its own. */
function GroundingCodesPanel({ canEdit }: { canEdit: boolean }) {
  const q = useGroundingCodes();
  return (
    <Paper withBorder radius="md" p="md" mt="lg">
      <Title order={2} fz="md" mb={4}>
        Grounding engine fault codes
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        When a vehicle's engine reports one of these codes, a safety defect is opened on its own and the vehicle may not run until it is repaired. OBD-II codes
        (P0217) or J1939 SPNs, with a failure mode (100/1) or without (111: every failure mode).
      </Text>
      <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
        {q.data && <GroundingCodesForm key={q.data.codes.join(',')} initial={q.data.codes} canEdit={canEdit} />}
      </DataState>
    </Paper>
  );
}

function GroundingCodesForm({ initial, canEdit }: { initial: string[]; canEdit: boolean }) {
  const [codes, setCodes] = useState<string[]>(initial);
  const [error, setError] = useState<string | null>(null);
  const save = useMaintenanceMutation(saveGroundingCodes);
  if (!canEdit)
    return initial.length ? (
      <Text size="sm" ff="monospace">
        {initial.join(', ')}
      </Text>
    ) : (
      <Text size="sm" c="dimmed">
        None: engine faults never open a defect on their own.
      </Text>
    );
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const bad = codes.find((c) => normalizeFaultCode(c, true) === null);
    if (bad) return setError(`"${bad}" is not a code: write an OBD-II code (P0301) or a J1939 SPN with an optional FMI (110 or 110/0)`);
    try {
      const saved = await save.mutateAsync({ codes });
      setCodes(saved.codes);
      notify({ type: 'success', title: 'Grounding codes saved', timeout: 4000 });
    } catch (err) {
      setError(err instanceof ApiError ? (err.body?.technicalMessage ?? err.body?.message ?? err.message) : (err as Error).message);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Grounding codes form">
      <Stack gap="xs">
        <TagsInput
          label="Codes"
          placeholder={codes.length ? 'Add a code' : 'P0217, 100/1, 111'}
          value={codes}
          onChange={setCodes}
          splitChars={[',', ' ', ';']}
          clearable
          maxTags={200}
        />
        {error && (
          <Alert color="red" variant="light" role="alert" py="xs">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save codes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ItemsForm({ initial, canEdit }: { initial: Item[]; canEdit: boolean }) {
  const [items, setItems] = useState<Item[]>(initial);
  const [error, setError] = useState<string | null>(null);
  const save = useMaintenanceMutation(saveInspectionItems);
  useEffect(() => setItems(initial), [initial]);
  const patch = (i: number, p: Partial<Item>) => setItems((xs) => xs.map((x, n) => (n === i ? { ...x, ...p } : x)));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const cleaned = { items: items.filter((i) => i.name.trim()).map((i) => ({ name: i.name.trim(), trailer: i.trailer })) };
    const parsed = inspectionItemsSchema.safeParse(cleaned);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the items');
    const names = cleaned.items.map((i) => i.name.toLowerCase());
    if (new Set(names).size !== names.length) return setError('Each item once: two items have the same name');
    try {
      await save.mutateAsync(parsed.data);
      notify({ type: 'success', title: 'Inspection items saved', timeout: 4000 });
    } catch (err) {
      setError(err instanceof ApiError ? (err.body?.technicalMessage ?? err.body?.message ?? err.message) : (err as Error).message);
    }
  };
  if (!canEdit)
    return items.length ? (
      <List size="sm" spacing={4}>
        {items.map((i) => (
          <List.Item key={i.name}>
            {i.name}
            {i.trailer ? ' · vehicle and trailers' : ''}
          </List.Item>
        ))}
      </List>
    ) : (
      <Text size="sm" c="dimmed">
        None: drivers report on the 396.11 list only.
      </Text>
    );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Inspection items form">
      <Stack gap="xs">
        {items.length === 0 && (
          <Text size="sm" c="dimmed">
            None yet: drivers report on the 396.11 list only. Add items such as “Fire extinguisher charged” or “Load securement”.
          </Text>
        )}
        {items.map((item, i) => (
          <Group key={i} gap="xs" wrap="nowrap" align="center">
            <TextInput
              aria-label={`Item ${i + 1}`}
              placeholder="Item name"
              value={item.name}
              maxLength={100}
              onChange={(e) => patch(i, { name: e.currentTarget.value })}
              style={{ flex: 1 }}
            />
            <Checkbox label="Trailers too" checked={item.trailer} onChange={(e) => patch(i, { trailer: e.currentTarget.checked })} />
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove item ${item.name || i + 1}`}
              onClick={() => setItems((xs) => xs.filter((_, n) => n !== i))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        {error && (
          <Alert color="red" variant="light" role="alert" py="xs">
            {error}
          </Alert>
        )}
        <Group justify="space-between" mt="xs">
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            onClick={() => setItems((xs) => [...xs, { name: '', trailer: false }])}
            disabled={items.length >= 50}
          >
            Add item
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save items
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
