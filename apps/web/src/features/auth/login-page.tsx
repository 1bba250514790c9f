import { useState } from 'react';
import { Alert, Anchor, Box, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { loginSchema } from '@fleet/api-contract/auth';
import { homePath } from '../../lib/auth-store.ts';
import { ApiError } from '../../lib/api-client.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { errorWords } from '../../i18n/error-words.ts';
import { issueWords } from '../../i18n/issue-words.ts';
import { Logo } from '../../components/logo.tsx';
import { useLogin } from './api/auth-api.ts';
import { useServerSeeding } from './use-server-seeding.ts';
import classes from './login-page.module.css';

/** Spec section 2, login screen. */
export default function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('auth.pageTitle', { title: t('auth.logIn') }));
  const navigate = useNavigate();
  const login = useLogin();
  const [failed, setFailed] = useState<string | null>(null);
  // A first start listens before its demo data is seeded: its accounts sign in once that is done.
  const seeding = useServerSeeding();
  const percent = seeding ? /\((\d+) %\)/.exec(seeding)?.[1] : undefined;
  // Spec section 5: the login form validates on input.
  const form = useZodForm(loginSchema, { mode: 'onChange', issueWords: issueWords(t), defaultValues: { email: '', password: '' } });

  const onSubmit = form.handleSubmit(async (values) => {
    setFailed(null);
    try {
      const res = await login.mutateAsync(values);
      await navigate(homePath(res.user), { replace: true });
    } catch (err) {
      // No toast for a failed login (spec section 8); the form says why in place.
      setFailed(err instanceof ApiError && err.status !== 401 && err.body ? errorWords(t, err) : seeding ? t('auth.seedingFailed') : t('auth.failed'));
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
            {t('auth.welcome')}
          </Title>
          <Text c="dimmed" mb="lg">
            {t('auth.intro')}
          </Text>
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="md">
              {seeding && (
                <Alert color="blue" variant="light" role="status" py="xs" title={percent ? t('auth.seedingPercent', { percent }) : t('auth.seeding')}>
                  {t('auth.seedingBody')}
                </Alert>
              )}
              {failed && (
                <Alert color="red" variant="light" role="alert" py="xs">
                  {failed}
                </Alert>
              )}
              <TextInput
                label={t('fields.email')}
                type="email"
                placeholder={t('auth.emailPlaceholder')}
                autoComplete="username"
                withAsterisk
                {...field(form, 'email')}
              />
              <PasswordInput
                label={t('fields.password')}
                placeholder={t('auth.passwordPlaceholder')}
                autoComplete="current-password"
                withAsterisk
                visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
                {...field(form, 'password')}
              />
              <Group justify="flex-end" mt={-8}>
                <Anchor component={Link} to="/reset-password" size="sm">
                  {t('auth.forgotten')}
                </Anchor>
              </Group>
              <Button type="submit" size="md" loading={loading} fullWidth>
                {t('auth.logIn')}
              </Button>
            </Stack>
          </form>
          {!loading && (
            <Group gap={6} mt="xl" justify="center" data-testid="login-footer">
              <Text size="sm">{t('auth.newHere')}</Text>
              <Anchor component={Link} to="/getting-started" size="sm" fw={600}>
                {t('auth.createAccount')}
              </Anchor>
              <Text size="sm" c="dimmed" aria-hidden>
                ·
              </Text>
              <Anchor component={Link} to="/learn-more" size="sm">
                {t('auth.learnMore')}
              </Anchor>
            </Group>
          )}
        </Box>
      </Box>
      <Box className={classes.imageSide} aria-hidden />
    </Box>
  );
}
