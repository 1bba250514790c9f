import { Anchor, Button, Divider, Drawer, Stack, Text } from '@mantine/core';
import { IconBuilding, IconCpu, IconLogout, IconTruck, IconUserPlus, IconContainer } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@fleet/api-contract';
import { UserProfileCard } from '../../components/avatar-profile-card.tsx';
import { canOpenPath } from '../guard.ts';

const ORG = '/settings/organization-settings';

/** Quick-add links of spec section 2: the add screens with their query flag set to true. */
export const QUICK_ADD = [
  { label: 'Add driver', path: `${ORG}/driver-add`, flag: 'addDriver', Icon: IconUserPlus },
  { label: 'Add vehicle', path: `${ORG}/vehicle-add`, flag: 'addVehicle', Icon: IconTruck },
  { label: 'Add trailer', path: `${ORG}/trailer-add`, flag: 'addTrailer', Icon: IconContainer },
  { label: 'Add device', path: `${ORG}/device-add`, flag: 'addDevice', Icon: IconCpu },
] as const;

export interface ProfileDrawerProps {
  user: CurrentUser;
  opened: boolean;
  onClose: () => void;
  onLogout: () => void;
}

/** Opened from the header avatar: who is signed in, quick-add links, organization settings, Log out. */
export function ProfileDrawer({ user, opened, onClose, onLogout }: ProfileDrawerProps) {
  const { t } = useTranslation();
  // A super administrator has no organization profile to open (spec: /my-account needs USER_READ and ORG_READ).
  const card = <UserProfileCard user={user} />;
  const quick = QUICK_ADD.filter((q) => canOpenPath(user, q.path));
  const orgAccount = `${ORG}/organization-account`;
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size={340} title={t('shell.profile')} padding="md">
      <Stack gap="md" mih="calc(100dvh - 90px)" justify="space-between">
        <Stack gap="md">
          {canOpenPath(user, '/my-account') ? (
            <Anchor component={Link} to="/my-account" onClick={onClose} underline="never" c="inherit" aria-label={t('account.title')}>
              {card}
            </Anchor>
          ) : (
            card
          )}
          {user.organization && (
            <Text size="sm" c="dimmed">
              {user.organization.name}
            </Text>
          )}
          {quick.length > 0 && (
            <>
              <Divider label="Quick add" labelPosition="left" />
              <Stack gap={4}>
                {quick.map(({ label, path, flag, Icon }) => (
                  <Button
                    key={flag}
                    component={Link}
                    to={`${path}?${flag}=true`}
                    onClick={onClose}
                    variant="subtle"
                    justify="flex-start"
                    leftSection={<Icon size={18} aria-hidden />}
                  >
                    {label}
                  </Button>
                ))}
              </Stack>
            </>
          )}
          {canOpenPath(user, orgAccount) && (
            <Button component={Link} to={orgAccount} onClick={onClose} variant="light" leftSection={<IconBuilding size={18} aria-hidden />}>
              Organization Settings
            </Button>
          )}
        </Stack>
        <Stack gap="xs">
          <Divider />
          <Button variant="default" color="red" leftSection={<IconLogout size={18} aria-hidden />} onClick={onLogout}>
            {t('shell.logOut')}
          </Button>
        </Stack>
      </Stack>
    </Drawer>
  );
}
