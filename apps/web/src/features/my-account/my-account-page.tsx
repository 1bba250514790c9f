import { Alert, Button, FileButton, Grid, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconCircleCheck } from '@tabler/icons-react';
import { changePasswordFormSchema, userProfileSchema, type User } from '@fleet/api-contract';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { UserProfileCard } from '../../components/avatar-profile-card.tsx';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { myProfileQuery, useChangePassword, useLogoutEverywhere, useRemoveAvatar, useUpdateProfile, useUploadAvatar } from './api/my-account-api.ts';
import { TimeZoneSelect } from '../../components/time-zone-select.tsx';
import { LanguageSelect } from './language-select.tsx';
import { IMAGE_HINT, IMAGE_TYPES } from '../../lib/images.ts';

function ProfileForm({ user, orgId }: { user: User; orgId: string }) {
  const update = useUpdateProfile(orgId, user.id);
  const form = useZodForm(userProfileSchema, {
    defaultValues: {
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      email: user.email,
      position: user.position ?? '',
      phone: user.phone ?? '',
      timeZone: user.timeZone ?? '',
    },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const saved = await update.mutateAsync(values).catch(() => null);
    if (!saved) return;
    form.reset({ ...values, position: saved.position ?? '', phone: saved.phone ?? '', timeZone: saved.timeZone ?? '' });
    notify({ type: 'success', title: 'Profile saved', timeout: 4000 });
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Profile">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput label="First name" autoComplete="given-name" withAsterisk {...field(form, 'firstName')} />
          <TextInput label="Last name" autoComplete="family-name" withAsterisk {...field(form, 'lastName')} />
          <TextInput label="Email" type="email" autoComplete="email" withAsterisk {...field(form, 'email')} />
          <TextInput label="Position" {...field(form, 'position')} />
          <TextInput label="Phone" type="tel" autoComplete="tel" placeholder="+1 555 010 0000" {...field(form, 'phone')} />
          <TimeZoneSelect control={form.control} name="timeZone" />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => form.reset()} disabled={!form.formState.isDirty}>
            Discard changes
          </Button>
          <Button type="submit" loading={update.isPending} disabled={!form.formState.isDirty}>
            Save profile
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PasswordForm({ user, orgId }: { user: User; orgId: string }) {
  const change = useChangePassword(orgId, user.id);
  const form = useZodForm(changePasswordFormSchema, { defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' } });
  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    const ok = await change.mutateAsync({ currentPassword, newPassword }).then(() => true, () => false);
    if (ok) form.reset();
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change password">
      <Stack gap="md">
        {change.isSuccess && !form.formState.isDirty && (
          <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} role="status">
            Password changed. Your other sessions were signed out.
          </Alert>
        )}
        <PasswordInput label="Current password" autoComplete="current-password" withAsterisk {...field(form, 'currentPassword')} />
        <PasswordInput label="New password" placeholder="min 8 characters" autoComplete="new-password" withAsterisk {...field(form, 'newPassword')} />
        <PasswordInput label="Confirm new password" autoComplete="new-password" withAsterisk {...field(form, 'confirmPassword')} />
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Log out everywhere: every session of the account ends, on every device, this one too. */
function SessionsPanel() {
  const everywhere = useLogoutEverywhere();
  const ask = async () => {
    const ok = await confirmAction({
      title: 'Log out everywhere',
      message: 'End every session of your account on every device, this one included? Open maps and notifications close at once, and you will need to log in again.',
      confirmLabel: 'Log out everywhere',
    });
    if (ok) everywhere.mutate();
  };
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Lost a phone, or signed in on a shared computer? Log out on every device where your account is signed in, this one too.
      </Text>
      <Group justify="flex-end">
        <Button variant="light" color="red" loading={everywhere.isPending} onClick={() => void ask()}>
          Log out everywhere
        </Button>
      </Group>
    </Stack>
  );
}

function AvatarEditor({ user, orgId }: { user: User; orgId: string }) {
  const upload = useUploadAvatar(orgId, user.id);
  const remove = useRemoveAvatar(orgId, user.id);
  return (
    <Group gap="md">
      <Stack gap="xs">
        <FileButton accept={IMAGE_TYPES.join(',')} onChange={(file) => file && upload.mutate(file)}>
          {(props) => (
            <Button {...props} variant="default" size="xs" loading={upload.isPending}>
              Upload picture
            </Button>
          )}
        </FileButton>
        {user.profilePicture && (
          <Button
            variant="subtle"
            color="red.8"
            size="xs"
            loading={remove.isPending}
            onClick={async () => {
              if (await confirmAction({ title: 'Remove picture', message: 'Remove your profile picture?', confirmLabel: 'Remove' })) remove.mutate();
            }}
          >
            Remove picture
          </Button>
        )}
        <Text size="xs" c="dimmed">
          {IMAGE_HINT}
        </Text>
      </Stack>
    </Group>
  );
}

/** My account: own profile, picture, password and sessions. */
export default function MyAccountPage() {
  const me = useCurrentUser();
  const orgId = me?.organization?.id ?? '';
  const userId = me?.id ?? '';
  const query = useQuery({ ...myProfileQuery(orgId, userId), enabled: !!orgId && !!userId });
  const user = query.data;
  return (
    <>
      <PageHeader title="My account" description="Your profile as your team sees it, your sign-in password and your sessions." />
      <DataState isLoading={query.isLoading} error={query.error} onRetry={() => void query.refetch()} isEmpty={!user}>
        {user && (
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Paper withBorder p="lg" radius="md">
                <Stack gap="lg">
                  <UserProfileCard user={user} />
                  <AvatarEditor user={user} orgId={orgId} />
                </Stack>
              </Paper>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 8 }}>
              <Stack gap="lg">
                <Paper withBorder p="lg" radius="md">
                  <Title order={2} fz="lg" mb="md">
                    Profile
                  </Title>
                  {/* Keyed by the saved values: a revalidated copy newer than the restored cache remounts the form. */}
                  <ProfileForm key={[user.id, user.email, user.firstName, user.lastName, user.position, user.phone, user.timeZone].join('|')} user={user} orgId={orgId} />
                </Paper>
                <Paper withBorder p="lg" radius="md">
                  <LanguageSelect />
                </Paper>
                <Paper withBorder p="lg" radius="md">
                  <Title order={2} fz="lg" mb="md">
                    Password
                  </Title>
                  <PasswordForm user={user} orgId={orgId} />
                </Paper>
                <Paper withBorder p="lg" radius="md">
                  <Title order={2} fz="lg" mb="md">
                    Sessions
                  </Title>
                  <SessionsPanel />
                </Paper>
              </Stack>
            </Grid.Col>
          </Grid>
        )}
      </DataState>
    </>
  );
}
