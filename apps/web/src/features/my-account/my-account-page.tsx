import { Alert, Button, FileButton, Grid, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconCircleCheck } from '@tabler/icons-react';
import { changePasswordFormSchema, updateUserSchema, type User } from '@fleet/api-contract';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { issueWords } from '../../i18n/issue-words.ts';
import { notify } from '../../lib/notifications-store.ts';
import { showServerError } from '../../lib/registry-api.ts';
import { UserProfileCard } from '../../components/avatar-profile-card.tsx';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { myProfileQuery, useChangePassword, useLogoutEverywhere, useRemoveAvatar, useUpdateProfile, useUploadAvatar } from './api/my-account-api.ts';
import { TimeZoneSelect } from '../../components/time-zone-select.tsx';
import { LanguageSelect } from './language-select.tsx';
import { IMAGE_TYPES } from '../../lib/images.ts';

const PROFILE_FIELDS = ['firstName', 'lastName', 'email', 'position', 'phone', 'timeZone', 'currentPassword'] as const;

function ProfileForm({ user, orgId }: { user: User; orgId: string }) {
  const { t } = useTranslation();
  const update = useUpdateProfile(orgId, user.id);
  const form = useZodForm(updateUserSchema, {
    issueWords: issueWords(t),
    defaultValues: {
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      email: user.email,
      position: user.position ?? '',
      phone: user.phone ?? '',
      timeZone: user.timeZone ?? '',
      currentPassword: '',
    },
  });
  // A new e-mail (where password resets go) needs the current password (decision 0227).
  const emailChanged = (form.watch('email') ?? '').trim().toLowerCase() !== user.email.toLowerCase();
  const onSubmit = form.handleSubmit(async ({ currentPassword, roleId: _roleId, ...values }) => {
    if (emailChanged && !currentPassword) {
      form.setError('currentPassword', { type: 'required', message: 'Enter your current password to change your e-mail' }, { shouldFocus: true });
      return;
    }
    const saved = await update
      .mutateAsync(emailChanged ? { ...values, currentPassword } : values)
      .catch((err: unknown) => (showServerError(form, err, PROFILE_FIELDS), null));
    if (!saved) return;
    form.reset({
      ...values,
      email: saved.email,
      position: saved.position ?? '',
      phone: saved.phone ?? '',
      timeZone: saved.timeZone ?? '',
      currentPassword: '',
    });
    notify({ type: 'success', title: t('account.profileSaved'), timeout: 4000 });
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('account.profile')}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput label={t('fields.firstName')} autoComplete="given-name" withAsterisk {...field(form, 'firstName')} />
          <TextInput label={t('fields.lastName')} autoComplete="family-name" withAsterisk {...field(form, 'lastName')} />
          <TextInput label={t('fields.email')} type="email" autoComplete="email" withAsterisk {...field(form, 'email')} />
          <TextInput label={t('fields.position')} {...field(form, 'position')} />
          <TextInput label={t('fields.phone')} type="tel" autoComplete="tel" placeholder="+1 555 010 0000" {...field(form, 'phone')} />
          <TimeZoneSelect control={form.control} name="timeZone" label={t('roadside.header.timeZone')} />
          {emailChanged && (
            <PasswordInput
              label={t('fields.currentPassword')}
              description={t('account.emailChangeHelp')}
              autoComplete="current-password"
              withAsterisk
              {...field(form, 'currentPassword')}
            />
          )}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => form.reset()} disabled={!form.formState.isDirty}>
            {t('account.discard')}
          </Button>
          <Button type="submit" loading={update.isPending} disabled={!form.formState.isDirty}>
            {t('account.saveProfile')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PasswordForm({ user, orgId }: { user: User; orgId: string }) {
  const { t } = useTranslation();
  const change = useChangePassword(orgId, user.id);
  const form = useZodForm(changePasswordFormSchema, {
    issueWords: issueWords(t),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    const ok = await change.mutateAsync({ currentPassword, newPassword }).then(
      () => true,
      () => false,
    );
    if (ok) form.reset();
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('account.changePassword')}>
      <Stack gap="md">
        {change.isSuccess && !form.formState.isDirty && (
          <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} role="status">
            {t('account.passwordChanged')}
          </Alert>
        )}
        <PasswordInput
          visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
          label={t('fields.currentPassword')}
          autoComplete="current-password"
          withAsterisk
          {...field(form, 'currentPassword')}
        />
        <PasswordInput
          visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
          label={t('fields.newPassword')}
          placeholder={t('auth.passwordPlaceholder')}
          autoComplete="new-password"
          withAsterisk
          {...field(form, 'newPassword')}
        />
        <PasswordInput
          visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
          label={t('auth.confirmNew')}
          autoComplete="new-password"
          withAsterisk
          {...field(form, 'confirmPassword')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending}>
            {t('account.changePassword')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Log out everywhere: every session of the account ends, on every device, this one too. */
function SessionsPanel() {
  const { t } = useTranslation();
  const everywhere = useLogoutEverywhere();
  const ask = async () => {
    const ok = await confirmAction({
      title: t('account.everywhere'),
      message: t('account.everywhereAsk'),
      confirmLabel: t('account.everywhere'),
    });
    if (ok) everywhere.mutate();
  };
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('account.everywhereBody')}
      </Text>
      <Group justify="flex-end">
        <Button variant="light" color="red" loading={everywhere.isPending} onClick={() => void ask()}>
          {t('account.everywhere')}
        </Button>
      </Group>
    </Stack>
  );
}

function AvatarEditor({ user, orgId }: { user: User; orgId: string }) {
  const upload = useUploadAvatar(orgId, user.id);
  const remove = useRemoveAvatar(orgId, user.id);
  const { t } = useTranslation();
  return (
    <Group gap="md">
      <Stack gap="xs">
        <FileButton accept={IMAGE_TYPES.join(',')} onChange={(file) => file && upload.mutate(file)}>
          {(props) => (
            <Button {...props} variant="default" size="xs" loading={upload.isPending}>
              {t('account.uploadPicture')}
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
              if (await confirmAction({ title: t('account.removePicture'), message: t('account.removePictureAsk'), confirmLabel: t('account.remove') }))
                remove.mutate();
            }}
          >
            {t('account.removePicture')}
          </Button>
        )}
        <Text size="xs" c="dimmed">
          {t('account.imageHint')}
        </Text>
      </Stack>
    </Group>
  );
}

/** My account: own profile, picture, password and sessions. */
export default function MyAccountPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const orgId = me?.organization?.id ?? '';
  const userId = me?.id ?? '';
  const query = useQuery({ ...myProfileQuery(orgId, userId), enabled: !!orgId && !!userId });
  const user = query.data;
  return (
    <>
      <PageHeader title={t('account.title')} description={t('account.description')} />
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
                    {t('account.profile')}
                  </Title>
                  {/* Keyed by the saved values: a revalidated copy newer than the restored cache remounts the form. */}
                  <ProfileForm
                    key={[user.id, user.email, user.firstName, user.lastName, user.position, user.phone, user.timeZone].join('|')}
                    user={user}
                    orgId={orgId}
                  />
                </Paper>
                <Paper withBorder p="lg" radius="md">
                  <LanguageSelect />
                </Paper>
                <Paper withBorder p="lg" radius="md">
                  <Title order={2} fz="lg" mb="md">
                    {t('account.password')}
                  </Title>
                  <PasswordForm user={user} orgId={orgId} />
                </Paper>
                <Paper withBorder p="lg" radius="md">
                  <Title order={2} fz="lg" mb="md">
                    {t('account.sessions')}
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
