import { useState } from 'react';
import { Alert, Anchor, Box, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link, useNavigate } from 'react-router';
import { loginSchema } from '@fleet/api-contract/auth';
import { homePath } from '../../lib/auth-store.ts';
import { ApiError } from '../../lib/api-client.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { Logo } from '../../components/logo.tsx';
import { useLogin } from './api/auth-api.ts';
import { useServerSeeding } from './use-server-seeding.ts';
import classes from './login-page.module.css';

/** Spec section 2, login screen. */
export default function LoginPage() {
  useDocumentTitle('Log in · Fleetline');
  const navigate = useNavigate();
  const login = useLogin();
  const [failed, setFailed] = useState<string | null>(null);
  // A first start listens before its demo data is seeded: its accounts sign in once that is done.
  const seeding = useServerSeeding();
  const percent = seeding ? /\((\d+) %\)/.exec(seeding)?.[1] : undefined;
  // Spec section 5: the login form validates on input.
  const form = useZodForm(loginSchema, { mode: 'onChange', defaultValues: { email: '', password: '' } });

  const onSubmit = form.handleSubmit(async (values) => {
    setFailed(null);
    try {
      const res = await login.mutateAsync(values);
      await navigate(homePath(res.user), { replace: true });
    } catch (err) {
      // No toast for a failed login (spec section 8); the form says why in place.
      setFailed(
        err instanceof ApiError && err.status !== 401 && err.body
          ? err.body.message
          : seeding
            ? 'The demo data is still being prepared: its accounts can log in once it is ready.'
            : 'The email or password is incorrect.',
      );
    }
  });
  const loading = login.isPending;

  return (
    <Box className={classes.root}>
      <Box className={classes.formSide}>
        <Box className={classes.formBox}>
          <Box mb="xl">
            <Logo height={36} />
          </Box>
          <Title order={1} fz={28} mb={4}>
            Welcome back
          </Title>
          <Text c="dimmed" mb="lg">
            Log in to see your fleet, drivers and hours of service.
          </Text>
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="md">
              {seeding && (
                <Alert color="blue" variant="light" role="status" py="xs" title={`Preparing demo data${percent ? ` (${percent} %)` : ''}`}>
                  This is the server&apos;s first start. The demo fleet&apos;s accounts can log in in a minute; this page updates by itself.
                </Alert>
              )}
              {failed && (
                <Alert color="red" variant="light" role="alert" py="xs">
                  {failed}
                </Alert>
              )}
              <TextInput label="Email" type="email" placeholder="you@company.com" autoComplete="username" withAsterisk {...field(form, 'email')} />
              <PasswordInput
                label="Password"
                placeholder="min 8 characters"
                autoComplete="current-password"
                withAsterisk
                visibilityToggleButtonProps={{ 'aria-label': 'Show or hide password' }}
                {...field(form, 'password')}
              />
              <Group justify="flex-end" mt={-8}>
                <Anchor component={Link} to="/reset-password" size="sm">
                  Forgotten Password
                </Anchor>
              </Group>
              <Button type="submit" size="md" loading={loading} fullWidth>
                Log in
              </Button>
            </Stack>
          </form>
          {!loading && (
            <Group gap={6} mt="xl" justify="center" data-testid="login-footer">
              <Text size="sm">New here?</Text>
              <Anchor component={Link} to="/getting-started" size="sm" fw={600}>
                Create an account
              </Anchor>
              <Text size="sm" c="dimmed" aria-hidden>
                ·
              </Text>
              <Anchor component={Link} to="/learn-more" size="sm">
                Learn more
              </Anchor>
            </Group>
          )}
        </Box>
      </Box>
      <Box className={classes.imageSide} aria-hidden />
    </Box>
  );
}
