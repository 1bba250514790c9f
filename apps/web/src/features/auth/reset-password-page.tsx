import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { resetPasswordSchema } from '@fleet/api-contract/auth';
import { field, useZodForm } from '../../lib/form.ts';
import { AuthCard } from './auth-card.tsx';
import { useResetPassword } from './api/auth-api.ts';

/** Reset password: e-mails a single-use link to /create-new-password/{token}. */
export default function ResetPasswordPage() {
  const reset = useResetPassword();
  const form = useZodForm(resetPasswordSchema, { defaultValues: { email: '' } });
  const onSubmit = form.handleSubmit((values) => reset.mutate(values));
  return (
    <AuthCard title="Reset password" subtitle="Enter the email you log in with and we will send you a link to choose a new password.">
      {reset.isSuccess ? (
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconMailCheck size={20} />} title="Check your inbox" role="status">
            {reset.data.message} The link is valid for one hour.
          </Alert>
          <Button component={Link} to="/" variant="default">
            Log In
          </Button>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <TextInput label="Email" type="email" autoComplete="email" placeholder="you@company.com" withAsterisk {...field(form, 'email')} />
            <Button type="submit" loading={reset.isPending} fullWidth>
              Send reset link
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
