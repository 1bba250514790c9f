import { Tabs } from '@mantine/core';
import { IconShieldCheck, IconUsers } from '@tabler/icons-react';
import { hasPermission } from '@fleet/api-contract';
import { PageHeader } from '../../components/page-header.tsx';
import { useAccessUser } from '../../lib/control-store.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { RolesTab } from './roles-tab.tsx';
import { UsersTab } from './users-tab.tsx';
import { useSearchParams } from '../../lib/search-params.ts';

/** Users & Roles: the team of the organization and the roles that decide what each member may do. */
export default function UsersAndRolesPage() {
  const me = useAccessUser();
  const orgId = useEffectiveOrganizationId();
  const [params, setParams] = useSearchParams();
  const canRoles = hasPermission(me, 'ROLE_LIST');
  const tab = canRoles && params.get('tab') === 'roles' ? 'roles' : 'users';
  if (!me || !orgId) return null;
  return (
    <>
      <PageHeader
        title="Users & Roles"
        description="Invite your team, decide what each role may do, and end access at once when someone leaves."
        breadcrumbs={[
          { label: 'Settings', to: '/settings' },
          { label: 'Organization Settings', to: '/settings/organization-settings' },
          { label: 'Users & Roles' },
        ]}
      />
      <Tabs value={tab} onChange={(v) => setParams(v === 'roles' ? { tab: 'roles' } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="users" leftSection={<IconUsers size={16} />}>
            Users
          </Tabs.Tab>
          {canRoles && (
            <Tabs.Tab value="roles" leftSection={<IconShieldCheck size={16} />}>
              Roles
            </Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="users">
          <UsersTab orgId={orgId} me={me} />
        </Tabs.Panel>
        {canRoles && (
          <Tabs.Panel value="roles">
            <RolesTab orgId={orgId} me={me} />
          </Tabs.Panel>
        )}
      </Tabs>
    </>
  );
}
