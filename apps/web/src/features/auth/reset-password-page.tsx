import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { resetPasswordSchema } from '@fleet/api-contract/auth';
import { field, useZodForm } from '../../lib/form.ts';
import { issueWords } from '../../i18n/issue-words.ts';
import { AuthCard } from './auth-card.tsx';
import { useResetPassword } from './api/auth-api.ts';

/** Reset password: e-mails a single-use link to /create-new-password/{token}. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const reset = useResetPassword();
  const form = useZodForm(resetPasswordSchema, { issueWords: issueWords(t), defaultValues: { email: '' } });
  const onSubmit = form.handleSubmit((values) => reset.mutate(values));
  return (
    <AuthCard title={t('auth.resetTitle')} subtitle={t('auth.resetIntro')}>
      {reset.isSuccess ? (
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconMailCheck size={20} />} title={t('auth.checkInbox')} role="status">
            {t('auth.resetSent', { message: reset.data.message })}
          </Alert>
          <Button component={Link} to="/" variant="default">
            {t('auth.logInLink')}
          </Button>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('fields.email')}
              type="email"
              autoComplete="email"
              placeholder={t('auth.emailPlaceholder')}
              withAsterisk
              {...field(form, 'email')}
            />
            <Button type="submit" loading={reset.isPending} fullWidth>
              {t('auth.sendLink')}
            </Button>
            <Button component={Link} to="/" variant="subtle">
              {t('auth.logInLink')}
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
