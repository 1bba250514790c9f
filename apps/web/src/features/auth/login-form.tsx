import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Box, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { SignInResponse } from '@fleet/api-contract';
import { errorBodyWordsIn } from '../../i18n/error-body-words.ts';
import { Logo } from '../../components/logo.tsx';
import type { RenderLink } from '../../components/render-link.tsx';
import { issueText, loginIssues, type LoginValues } from './login-validation.ts';
import { requestSignIn } from './sign-in-request.ts';
import { useServerSeeding } from './use-server-seeding.ts';
import classes from './login-page.module.css';

/**
 * Spec section 2, the login screen: the app's route `/` and the sign-in page's own bundle (issue 67)
 * both render it, so it uses neither the router, the API client, zod nor react-hook-form. The form
 * validates on input (spec section 5); `onSignedIn` keeps the session and goes on.
 */
export function LoginForm({ onSignedIn, link }: { onSignedIn: (res: SignInResponse) => Promise<void>; link: RenderLink }) {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('auth.pageTitle', { title: t('auth.logIn') }));
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  // A field shows its message once it has changed, or after a submit (react-hook-form's onChange mode).
  const [shown, setShown] = useState<Partial<Record<keyof LoginValues, boolean>>>({});
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  // A first start listens before its demo data is seeded: its accounts sign in once that is done.
  const seeding = useServerSeeding();
  const percent = seeding ? /\((\d+) %\)/.exec(seeding)?.[1] : undefined;
  const issues = loginIssues(values);
  const errorOf = (field: keyof LoginValues) => {
    const issue = shown[field] ? issues[field] : undefined;
    return issue ? issueText(t, field, issue) : undefined;
  };
  const change = (field: keyof LoginValues) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    setShown((s) => ({ ...s, [field]: true }));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setShown({ email: true, password: true });
    if (Object.keys(issues).length) {
      document.getElementById(issues.email ? 'login-email' : 'login-password')?.focus();
      return;
    }
    setFailed(null);
    setLoading(true);
    try {
      const r = await requestSignIn(values);
      if (r.ok) return await onSignedIn(r.response);
      // No toast for a failed login (spec section 8): the form says why in place.
      setFailed(
        r.status !== null && r.status !== 401 && r.body ? errorBodyWordsIn(i18n.language, t, r.body) : seeding ? t('auth.seedingFailed') : t('auth.failed'),
      );
    } finally {
      setLoading(false);
    }
  };

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
          <form onSubmit={(e) => void onSubmit(e)} noValidate>
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
                id="login-email"
                name="email"
                label={t('fields.email')}
                type="email"
                placeholder={t('auth.emailPlaceholder')}
                autoComplete="username"
                withAsterisk
                value={values.email}
                onChange={change('email')}
                error={errorOf('email')}
              />
              <PasswordInput
                id="login-password"
                name="password"
                label={t('fields.password')}
                placeholder={t('auth.passwordPlaceholder')}
                autoComplete="current-password"
                withAsterisk
                visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
                value={values.password}
                onChange={change('password')}
                error={errorOf('password')}
              />
              <Group justify="flex-end" mt={-8}>
                <Anchor renderRoot={link('/reset-password')} size="sm">
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
              <Anchor renderRoot={link('/getting-started')} size="sm" fw={600}>
                {t('auth.createAccount')}
              </Anchor>
              <Text size="sm" c="dimmed" aria-hidden>
                ·
              </Text>
              <Anchor renderRoot={link('/learn-more')} size="sm">
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
