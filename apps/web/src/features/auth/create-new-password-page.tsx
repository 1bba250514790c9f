import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { newPasswordFormSchema } from '@fleet/api-contract/auth';
import { field, useZodForm } from '../../lib/form.ts';
import { AuthCard } from './auth-card.tsx';
import { useCreateNewPassword } from './api/auth-api.ts';

/** Create new password: the token comes from the e-mailed link's path. */
export default function CreateNewPasswordPage() {
  const { token = '' } = useParams();
  const create = useCreateNewPassword();
  const form = useZodForm(newPasswordFormSchema, { defaultValues: { password: '', confirmPassword: '' } });
  const onSubmit = form.handleSubmit(({ password }) => create.mutate({ token, password }));
  return (
    <AuthCard title="Create new password" subtitle="Choose a new password for your account. Every other session is signed out.">
      {create.isSuccess ? (
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconCircleCheck size={20} />} title="Password changed" role="status">
            You can now log in with your new password.
          </Alert>
          <Button component={Link} to="/">
            Log In
          </Button>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <PasswordInput label="New password" placeholder="min 8 characters" autoComplete="new-password" withAsterisk {...field(form, 'password')} />
            <PasswordInput label="Confirm new password" autoComplete="new-password" withAsterisk {...field(form, 'confirmPassword')} />
            <Button type="submit" loading={create.isPending} fullWidth>
              Save new password
            </Button>
            <Button component={Link} to="/" variant="subtle">
              Log In
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
