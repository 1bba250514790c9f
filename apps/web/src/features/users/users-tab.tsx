import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Menu, Modal, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { IconDots, IconHistory, IconKey, IconPencil, IconPlayerPlay, IconUserOff, IconUserPlus } from '@tabler/icons-react';
import { hasPermission, type CurrentUser, type User } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useTableState } from '../../lib/table-state.ts';
import { allRolesQuery, usersQuery, useUserAction } from './api/users-api.ts';
import { UserForm } from './user-form.tsx';
import { withParams, useSearchParams } from '../../lib/search-params.ts';

const STATUS_COLOR = { ACTIVE: 'teal', INVITED: 'blue', INACTIVE: 'gray' } as const;
const STATUS_LABEL = { ACTIVE: 'Active', INVITED: 'Invited', INACTIVE: 'Inactive' } as const;

export const displayName = (u: Pick<User, 'firstName' | 'lastName' | 'email'>) => [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email;

/** Users of the organization: search, role and status filters, paging; invite, edit, deactivate, reset. */
export function UsersTab({ orgId, me }: { orgId: string; me: CurrentUser }) {
  // Long forms take the whole phone screen instead of a cramped dialog.
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const [state, setState, query] = useTableState({}, 'u');
  const [params, setParams] = useSearchParams();
  const roleId = params.get('u.role') ?? undefined;
  const status = params.get('u.status') ?? undefined;
  const list = useQuery(usersQuery(orgId, { ...query, roleId, status }));
  const canRoles = hasPermission(me, 'ROLE_LIST');
  const roles = useQuery({ ...allRolesQuery(orgId), enabled: canRoles });
  const canUpdate = hasPermission(me, 'USER_UPDATE');
  const canInvite = hasPermission(me, 'USER_CREATE');
  const canLog = hasPermission(me, 'ACTIVITY_LOG_LIST') && hasPermission(me, 'ORG_READ');
  const action = useUserAction(orgId);
  const navigate = useNavigate();
  const [editing, setEditing] = useState<User | 'new' | null>(null);

  const setFilter = (key: string, value: string | null) => setParams((prev) => withParams(prev, { [key]: value }, 'u.page'), { replace: true });

  const run = async (u: User, kind: 'deactivate' | 'activate' | 'password-reset') => {
    if (kind === 'deactivate') {
      const ok = await confirmAction({
        title: `Deactivate ${displayName(u)}?`,
        message: 'They are signed out at once and cannot sign in until reactivated. Their history is kept.',
        confirmLabel: 'Deactivate',
      });
      if (!ok) return;
    }
    const out = await action.mutateAsync({ userId: u.id, action: kind }).then(
      (r) => r,
      () => null,
    );
    if (out === null) return;
    const sent = (out as { sent?: string }).sent;
    notify({
      type: 'success',
      title:
        kind === 'password-reset'
          ? sent === 'INVITATION'
            ? `Invitation sent again to ${u.email}`
            : `Password reset link sent to ${u.email}`
          : `${displayName(u)} ${kind === 'deactivate' ? 'deactivated' : 'reactivated'}`,
      timeout: 4000,
    });
  };

  const columns: TableColumn<User>[] = [
    {
      key: 'lastName',
      header: 'Name',
      sortable: true,
      primary: true,
      render: (u) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {displayName(u)}
            {u.id === me.id ? ' (you)' : ''}
          </Text>
          <Text size="xs" c="dimmed">
            {u.email}
          </Text>
        </Stack>
      ),
    },
    { key: 'roleName', header: 'Role', sortable: true, render: (u) => u.roleName ?? u.role },
    { key: 'position', header: 'Position', render: (u) => u.position ?? '—', hiddenByDefault: true },
    {
      key: 'status',
      header: 'Status',
      sortable: true,
      render: (u) => (
        <Badge variant="light" color={STATUS_COLOR[u.status]}>
          {STATUS_LABEL[u.status]}
        </Badge>
      ),
    },
    { key: 'lastLoginAt', header: 'Last sign-in', sortable: true, render: (u) => (u.lastLoginAt ? formatDateTime(u.lastLoginAt) : 'Never') },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (u) =>
        canUpdate || canLog ? (
          <Group justify="flex-end" onClick={(e) => e.stopPropagation()}>
            <Menu position="bottom-end">
              <Menu.Target>
                <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${displayName(u)}`}>
                  <IconDots size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {canUpdate && (
                  <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => setEditing(u)}>
                    Edit
                  </Menu.Item>
                )}
                {canUpdate && u.status !== 'INACTIVE' && (
                  <Menu.Item leftSection={<IconKey size={14} />} onClick={() => void run(u, 'password-reset')}>
                    {u.status === 'INVITED' ? 'Send invitation again' : 'Send password reset'}
                  </Menu.Item>
                )}
                {canLog && (
                  <Menu.Item leftSection={<IconHistory size={14} />} onClick={() => void navigate(`/settings/activity-log?user=${u.id}`)}>
                    Activity
                  </Menu.Item>
                )}
                {canUpdate && u.id !== me.id && u.status !== 'INACTIVE' && (
                  <Menu.Item color="red" leftSection={<IconUserOff size={14} />} onClick={() => void run(u, 'deactivate')}>
                    Deactivate
                  </Menu.Item>
                )}
                {canUpdate && u.status === 'INACTIVE' && (
                  <Menu.Item leftSection={<IconPlayerPlay size={14} />} onClick={() => void run(u, 'activate')}>
                    Reactivate
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          </Group>
        ) : null,
    },
  ];

  return (
    <>
      <ServerTable
        id="users"
        label="Users"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(u) => u.id}
        onRowClick={canUpdate ? (u) => setEditing(u) : undefined}
        searchPlaceholder="Search by name or email"
        emptyTitle={roleId || status ? 'No users match these filters' : 'No users yet'}
        emptyDescription={roleId || status ? 'Clear a filter to see more.' : 'Invite your team: they receive an e-mail to set their password.'}
        toolbar={
          <>
            {canRoles && (
              <Select
                aria-label="Filter by role"
                placeholder="All roles"
                size="sm"
                w={150}
                clearable
                data={(roles.data?.content ?? []).map((r) => ({ value: r.id, label: r.name }))}
                value={roleId ?? null}
                onChange={(v) => setFilter('u.role', v)}
              />
            )}
            <Select
              aria-label="Filter by status"
              placeholder="All statuses"
              size="sm"
              w={140}
              clearable
              data={Object.entries(STATUS_LABEL).map(([value, label]) => ({ value, label }))}
              value={status ?? null}
              onChange={(v) => setFilter('u.status', v)}
            />
            {canInvite && (
              <Button leftSection={<IconUserPlus size={16} />} onClick={() => setEditing('new')}>
                Invite user
              </Button>
            )}
          </>
        }
      />
      <Modal
        fullScreen={phone}
        opened={!!editing}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Invite user' : editing ? `Edit ${displayName(editing)}` : ''}
        size="lg"
      >
        {editing && (
          <UserForm
            orgId={orgId}
            user={editing === 'new' ? null : editing}
            canChangeRole={canRoles && (editing === 'new' || canUpdate)}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
    </>
  );
}
