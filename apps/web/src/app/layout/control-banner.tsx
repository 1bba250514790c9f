import { CloseButton, Group, Text } from '@mantine/core';
import { IconBuildingSkyscraper } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { isSuperAdmin } from '@fleet/api-contract/permissions';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { clearControlledOrganization, useControlledOrganization } from '../../lib/control-store.ts';

/** Spec section 2: a super administrator controlling an organization sees it named; close ends control. */
export function ControlBanner() {
  const user = useCurrentUser();
  const org = useControlledOrganization();
  const navigate = useNavigate();
  if (!isSuperAdmin(user) || !org) return null;
  return (
    <Group
      justify="space-between"
      wrap="nowrap"
      px="md"
      py={6}
      role="region"
      aria-label="Control mode"
      style={{ background: 'var(--mantine-color-yellow-light)', borderBottom: '1px solid var(--mantine-color-yellow-outline)' }}
    >
      <Group gap="xs" wrap="nowrap">
        <IconBuildingSkyscraper size={18} aria-hidden />
        <Text size="sm" fw={600}>
          Control organization: {org.name}
        </Text>
      </Group>
      <CloseButton
        aria-label="Stop controlling this organization"
        onClick={() => {
          // The screen on show belongs to that organization: go back to the list the control started from.
          clearControlledOrganization();
          void navigate('/administration/organizations');
        }}
      />
    </Group>
  );
}
