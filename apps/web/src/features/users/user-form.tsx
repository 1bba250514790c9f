import { Button, Group, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { inviteUserSchema, updateUserSchema, type User } from '@fleet/api-contract';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { showServerError } from '../../lib/registry-api.ts';
import { TimeZoneSelect } from '../../components/time-zone-select.tsx';
import { allRolesQuery, useInviteUser, useUpdateUser } from './api/users-api.ts';

const USER_FIELDS = ['firstName', 'lastName', 'email', 'position', 'phone', 'timeZone', 'roleId', 'currentPassword'] as const;

/** Invite (user null) or edit a user: profile fields and the role. */
export function UserForm({ orgId, user, canChangeRole, onDone }: { orgId: string; user: User | null; canChangeRole: boolean; onDone: () => void }) {
  const roles = useQuery({ ...allRolesQuery(orgId), enabled: canChangeRole });
  const invite = useInviteUser(orgId);
  const update = useUpdateUser(orgId);
  // Invite requires a role; edit may leave it as it is.
  const form = useZodForm(user ? updateUserSchema : inviteUserSchema, {
    defaultValues: {
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      email: user?.email ?? '',
      position: user?.position ?? '',
      phone: user?.phone ?? '',
      timeZone: user?.timeZone ?? '',
      roleId: user?.roleId ?? undefined,
    },
  });
  // Your own new e-mail (where password resets go) needs your current password (decision 0227).
  const me = useCurrentUser();
  const ownEmailChange = user !== null && me?.id === user.id && (form.watch('email') ?? '').trim().toLowerCase() !== user.email.toLowerCase();
  const onSubmit = form.handleSubmit(async (all) => {
    // The invitation's form has no such field: only an edit's does.
    const { currentPassword, ...values } = all as typeof all & { currentPassword?: string };
    const input = { ...(canChangeRole ? values : { ...values, roleId: undefined }), ...(ownEmailChange ? { currentPassword } : {}) };
    // A taken e-mail (409) or a field the server refuses shows under its input too.
    const underField = (err: unknown) => {
      showServerError(form, err, USER_FIELDS);
      return null;
    };
    const saved = user
      ? await update.mutateAsync({ userId: user.id, input }).catch(underField)
      : await invite.mutateAsync({ ...input, roleId: values.roleId ?? '' }).catch(underField);
    if (!saved) return;
    notify({ type: 'success', title: user ? 'User saved' : `Invitation sent to ${saved.email}`, timeout: 4000 });
    onDone();
  });
  const roleOptions = (roles.data?.content ?? []).map((r) => ({ value: r.id, label: r.name }));
  return (
    <form onSubmit={onSubmit} noValidate aria-label={user ? 'Edit user' : 'Invite user'}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label="First name" withAsterisk autoComplete="off" {...field(form, 'firstName')} />
          <TextInput label="Last name" withAsterisk autoComplete="off" {...field(form, 'lastName')} />
          <TextInput label="Email" type="email" withAsterisk autoComplete="off" {...field(form, 'email')} />
          <TextInput label="Position" placeholder="e.g. Dispatcher" {...field(form, 'position')} />
          <TextInput label="Phone" type="tel" placeholder="+1 555 010 0000" {...field(form, 'phone')} />
          <TimeZoneSelect control={form.control} name="timeZone" />
          {ownEmailChange && (
            <PasswordInput
              label="Current password"
              description="Needed to change your own e-mail. Your old address is told, with a link that undoes the change for 7 days."
              autoComplete="current-password"
              withAsterisk
              {...field(form, 'currentPassword')}
            />
          )}
          {canChangeRole && (
            <Controller
              control={form.control}
              name="roleId"
              render={({ field: f, fieldState }) => (
                <Select
                  label="Role"
                  withAsterisk
                  data={roleOptions}
                  value={f.value ?? null}
                  onChange={(v) => f.onChange(v ?? undefined)}
                  onBlur={f.onBlur}
                  error={fieldState.error?.message}
                  placeholder={roles.isLoading ? 'Loading roles…' : 'Pick a role'}
                  allowDeselect={false}
                />
              )}
            />
          )}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending || update.isPending}>
            {user ? 'Save user' : 'Send invitation'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
