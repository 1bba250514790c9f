import { useState } from 'react';
import { ActionIcon, Badge, Button, Divider, Group, Menu, Modal, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { IconDots, IconPencil, IconPlayerPlay, IconPlus, IconPower, IconSteeringWheel } from '@tabler/icons-react';
import { createOrganizationSchema, organizationAccountSchema, type CreateOrganizationInput, type OrganizationSummary } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { setControlledOrganization } from '../../lib/control-store.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useTableState } from '../../lib/table-state.ts';
import { AccountFields, accountValues, EMPTY_ACCOUNT } from './account-fields.tsx';
import { organizationsQuery, useCreateOrganization, useSetOrganizationStatus, useUpdateAccount } from './api/organizations-api.ts';
import { withParams, useSearchParams } from '../../lib/search-params.ts';

function CreateOrganizationForm({ onDone }: { onDone: () => void }) {
  const create = useCreateOrganization();
  const form = useZodForm(createOrganizationSchema, {
    defaultValues: { ...EMPTY_ACCOUNT, admin: { email: '', firstName: '', lastName: '' } } satisfies CreateOrganizationInput,
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const out = await create.mutateAsync(values).catch(() => null);
    if (!out) return;
    notify({ type: 'success', title: `${out.organization.name} created`, category: `Invitation sent to ${values.admin.email}`, timeout: 5000 });
    onDone();
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="New organization">
      <Stack gap="md">
        <AccountFields form={form} />
        <Divider />
        <div>
          <Title order={3} fz="md">
            First administrator
          </Title>
          <Text size="sm" c="dimmed">
            They receive an e-mail with a link to set their password.
          </Text>
        </div>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label="Admin first name" withAsterisk {...field(form, 'admin.firstName')} />
          <TextInput label="Admin last name" withAsterisk {...field(form, 'admin.lastName')} />
          <TextInput label="Admin email" type="email" withAsterisk {...field(form, 'admin.email')} />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create organization
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function EditOrganizationForm({ org, onDone }: { org: OrganizationSummary; onDone: () => void }) {
  const update = useUpdateAccount(org.id);
  const form = useZodForm(organizationAccountSchema, { defaultValues: accountValues(org) });
  const onSubmit = form.handleSubmit(async (values) => {
    const saved = await update.mutateAsync(values).catch(() => null);
    if (!saved) return;
    notify({ type: 'success', title: `${saved.name} saved`, timeout: 4000 });
    onDone();
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Edit organization">
      <Stack gap="md">
        <AccountFields form={form} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending} disabled={!form.formState.isDirty}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const STATUS_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'ACTIVE', label: 'Active' },
  { value: 'INACTIVE', label: 'Inactive' },
];

/** Super administration: every organization, create with its first admin, edit, deactivate, take control. */
export default function OrganizationsPage() {
  // Long forms take the whole phone screen instead of a cramped dialog.
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const [state, setState, query] = useTableState({ sort: 'name,asc' });
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? undefined;
  const list = useQuery(organizationsQuery({ ...query, status }));
  const setStatus = useSetOrganizationStatus();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<OrganizationSummary | null>(null);

  const takeControl = (o: OrganizationSummary) => {
    setControlledOrganization({ id: o.id, name: o.name, timeZone: o.timeZone });
    void navigate('/settings/organization-settings');
  };

  const toggleStatus = async (o: OrganizationSummary) => {
    const active = o.status !== 'ACTIVE';
    if (
      !active &&
      !(await confirmAction({
        title: `Deactivate ${o.name}?`,
        message: `Its ${o.activeUserCount} active users are signed out and cannot sign in until you reactivate it. Its data is kept.`,
        confirmLabel: 'Deactivate',
      }))
    )
      return;
    const ok = await setStatus.mutateAsync({ orgId: o.id, active }).then(
      () => true,
      () => false,
    );
    if (ok) notify({ type: 'success', title: `${o.name} ${active ? 'reactivated' : 'deactivated'}`, timeout: 4000 });
  };

  const columns: TableColumn<OrganizationSummary>[] = [
    {
      key: 'name',
      header: 'Organization',
      sortable: true,
      primary: true,
      render: (o) => (
        <Stack gap={0}>
          <Text fw={600} size="sm">
            {o.name}
          </Text>
          <Text size="xs" c="dimmed">
            {[o.city, o.state].filter(Boolean).join(', ') || o.timeZone}
          </Text>
        </Stack>
      ),
    },
    { key: 'dotNumber', header: 'USDOT', render: (o) => o.dotNumber ?? '—' },
    { key: 'mcNumber', header: 'MC', render: (o) => (o.mcNumber ? `MC-${o.mcNumber}` : '—'), hiddenByDefault: true },
    { key: 'users', header: 'Users', align: 'right', render: (o) => `${o.activeUserCount} / ${o.userCount}` },
    {
      key: 'status',
      header: 'Status',
      render: (o) => (
        <Badge variant="light" color={o.status === 'ACTIVE' ? 'teal' : 'gray'}>
          {o.status === 'ACTIVE' ? 'Active' : 'Inactive'}
        </Badge>
      ),
    },
    { key: 'createdAt', header: 'Created', sortable: true, render: (o) => formatDateTime(o.createdAt), hiddenByDefault: true },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (o) => (
        <Group gap={4} justify="flex-end" wrap="nowrap" onClick={(e) => e.stopPropagation()}>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconSteeringWheel size={14} />}
            onClick={() => takeControl(o)}
            disabled={o.status !== 'ACTIVE'}
            aria-label={`Take control of ${o.name}`}
          >
            Take control
          </Button>
          <Menu position="bottom-end">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`More actions for ${o.name}`}>
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => setEditing(o)}>
                Edit
              </Menu.Item>
              {o.status === 'ACTIVE' ? (
                <Menu.Item color="red" leftSection={<IconPower size={14} />} onClick={() => void toggleStatus(o)}>
                  Deactivate
                </Menu.Item>
              ) : (
                <Menu.Item leftSection={<IconPlayerPlay size={14} />} onClick={() => void toggleStatus(o)}>
                  Reactivate
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Organizations"
        description="Every carrier on this installation. Take control to work on an organization as its administrator."
        breadcrumbs={[{ label: 'Administration', to: '/administration' }, { label: 'Organizations' }]}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New organization
          </Button>
        }
      />
      <ServerTable
        id="organizations"
        label="Organizations"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(o) => o.id}
        searchPlaceholder="Search by name, DOT or MC number"
        emptyTitle={status ? 'No organizations with this status' : 'No organizations yet'}
        emptyDescription="Create the first carrier and invite its administrator."
        toolbar={
          <SegmentedControl
            size="xs"
            aria-label="Status"
            data={STATUS_FILTERS}
            value={status ?? 'all'}
            onChange={(v) => setParams((prev) => withParams(prev, { status: v === 'all' ? null : v }, 'page'), { replace: true })}
          />
        }
      />
      <Modal fullScreen={phone} opened={creating} onClose={() => setCreating(false)} title="New organization" size="xl">
        {creating && <CreateOrganizationForm onDone={() => setCreating(false)} />}
      </Modal>
      <Modal fullScreen={phone} opened={!!editing} onClose={() => setEditing(null)} title={editing ? `Edit ${editing.name}` : ''} size="xl">
        {editing && <EditOrganizationForm org={editing} onDone={() => setEditing(null)} />}
      </Modal>
    </>
  );
}
