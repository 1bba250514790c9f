import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Modal, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { hasPermission, type CurrentUser, type OrganizationRole } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { useTableState } from '../../lib/table-state.ts';
import { rolesQuery, useDeleteRole } from './api/users-api.ts';
import { RoleEditor } from './role-editor.tsx';

/** Roles of the organization: the built-in Administrator and custom roles with their permission codes. */
export function RolesTab({ orgId, me }: { orgId: string; me: CurrentUser }) {
  // Long forms take the whole phone screen instead of a cramped dialog.
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const [state, setState, query] = useTableState({}, 'r');
  const list = useQuery(rolesQuery(orgId, query));
  const canEdit = hasPermission(me, 'ROLE_UPDATE');
  const remove = useDeleteRole(orgId);
  const [editing, setEditing] = useState<OrganizationRole | 'new' | null>(null);

  const onDelete = async (r: OrganizationRole) => {
    if (!(await confirmAction({ title: `Delete role ${r.name}?`, message: 'Users cannot hold a deleted role; only roles nobody holds can be deleted.' })))
      return;
    const ok = await remove.mutateAsync(r.id).then(
      () => true,
      () => false,
    );
    if (ok) notify({ type: 'success', title: `Role ${r.name} deleted`, timeout: 4000 });
  };

  const columns: TableColumn<OrganizationRole>[] = [
    {
      key: 'name',
      header: 'Role',
      sortable: true,
      primary: true,
      render: (r) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={600}>
            {r.name}
          </Text>
          {r.builtIn && (
            <Badge size="xs" variant="outline">
              Built-in
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'description', header: 'Description', render: (r) => r.description ?? '—' },
    { key: 'permissions', header: 'Permissions', align: 'right', render: (r) => r.permissions.length },
    { key: 'userCount', header: 'Users', align: 'right', render: (r) => r.userCount },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (r) =>
        canEdit && !r.builtIn ? (
          <Group gap={4} justify="flex-end" wrap="nowrap" onClick={(e) => e.stopPropagation()}>
            <ActionIcon variant="subtle" color="gray" aria-label={`Edit role ${r.name}`} onClick={() => setEditing(r)}>
              <IconPencil size={16} />
            </ActionIcon>
            <Tooltip label={r.userCount ? 'Reassign its users first' : 'Delete'} withArrow>
              <ActionIcon variant="subtle" color="red" aria-label={`Delete role ${r.name}`} disabled={r.userCount > 0} onClick={() => void onDelete(r)}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ) : null,
    },
  ];

  return (
    <>
      <ServerTable
        id="roles"
        label="Roles"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(r) => r.id}
        onRowClick={canEdit ? (r) => !r.builtIn && setEditing(r) : undefined}
        searchPlaceholder="Search roles"
        toolbar={
          canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              New role
            </Button>
          )
        }
      />
      <Modal
        fullScreen={phone}
        opened={!!editing}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New role' : editing ? `Edit role ${editing.name}` : ''}
        size="xl"
      >
        {editing && <RoleEditor orgId={orgId} role={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Modal>
    </>
  );
}
