import { useState } from 'react';
import { ActionIcon, Anchor, Button, Group as Row, Modal, Stack, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { groupInputSchema, type Group } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { field, useZodForm } from '../../lib/form.ts';
import { useTableState } from '../../lib/table-state.ts';
import { showServerError, useCan } from '../../lib/registry-api.ts';
import { FormFooter } from '../../components/form-footer.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { deleteGroup, saveGroup, useGroupMutation, useGroups } from './groups-api.ts';

export const GROUPS_PATH = '/settings/organization-settings/groups';

/** `.../groups`: create, rename and delete groups; open one's members or assets. */
export default function GroupsPage() {
  const [state, setState, query] = useTableState({ sort: 'name,asc' });
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const navigate = useNavigate();
  const canUpdate = useCan('GROUP_UPDATE');
  const list = useGroups({ ...query });
  const remove = useGroupMutation(deleteGroup);
  const columns: TableColumn<Group>[] = [
    {
      key: 'name',
      header: 'Name',
      sortable: true,
      primary: true,
      render: (g) => (
        <Text fw={600} size="sm">
          {g.name}
        </Text>
      ),
    },
    { key: 'description', header: 'Description', render: (g) => g.description ?? '—' },
    {
      key: 'memberCount',
      header: 'Members',
      render: (g) => (
        <Anchor component={Link} to={`${GROUPS_PATH}/${g.id}/members`} size="sm" onClick={(e) => e.stopPropagation()}>
          {g.memberCount} members
        </Anchor>
      ),
    },
    {
      key: 'assetCount',
      header: 'Assets',
      render: (g) => (
        <Anchor component={Link} to={`${GROUPS_PATH}/${g.id}/assets`} size="sm" onClick={(e) => e.stopPropagation()}>
          {g.assetCount} assets
        </Anchor>
      ),
    },
  ];
  if (canUpdate) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (g) => (
        <Row gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Rename">
            <ActionIcon
              variant="subtle"
              aria-label={`Rename ${g.name}`}
              onClick={(e) => {
                e.stopPropagation();
                setEditing(g);
              }}
            >
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${g.name}`}
              onClick={async (e) => {
                e.stopPropagation();
                if (await confirmAction({ title: `Delete group ${g.name}?`, message: 'Its members and assets stay; only the grouping goes.' }))
                  remove.mutate(g.id, { onSuccess: () => notify({ type: 'success', title: `Group ${g.name} deleted`, timeout: 4000 }) });
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
      Add group
    </Button>
  ) : null;
  return (
    <>
      <PageHeader
        title="Groups"
        description="Group drivers, users and assets by terminal, region or customer; every list filters by group."
        breadcrumbs={[{ label: 'Organization settings' }, { label: 'Groups' }]}
        actions={addButton}
      />
      <ServerTable
        id="groups"
        label="Groups"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(g) => g.id}
        onRowClick={(g) => navigate(`${GROUPS_PATH}/${g.id}/members`)}
        searchPlaceholder="Group name"
        emptyTitle="No groups yet"
        emptyAction={addButton}
      />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'Add group' : `Rename ${editing?.name ?? ''}`} centered>
        {editing !== null && <GroupForm group={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      </Modal>
    </>
  );
}

function GroupForm({ group: g, onClose }: { group: Group | null; onClose: () => void }) {
  const form = useZodForm(groupInputSchema, { defaultValues: { name: g?.name ?? '', description: g?.description ?? '' } });
  const save = useGroupMutation((body: unknown) => saveGroup(g?.id, body));
  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      notify({ type: 'success', title: `Group ${saved.name} saved`, timeout: 4000 });
      onClose();
    } catch (err) {
      if (!showServerError(form, err, ['name', 'description'])) form.setError('root', { message: (err as Error).message });
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Group form">
      <Stack gap="sm">
        <TextInput label="Name" required {...field(form, 'name')} data-autofocus />
        <Textarea label="Description" autosize minRows={2} {...field(form, 'description')} />
        <FormFooter form={form} busy={save.isPending} onCancel={onClose} />
      </Stack>
    </form>
  );
}
