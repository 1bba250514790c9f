import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { newPasswordFormSchema } from '@fleet/api-contract/auth';
import { field, useZodForm } from '../../lib/form.ts';
import { issueWords } from '../../i18n/issue-words.ts';
import { AuthCard } from './auth-card.tsx';
import { useCreateNewPassword } from './api/auth-api.ts';

/** Create new password: the token comes from the e-mailed link's path. */
export default function CreateNewPasswordPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const create = useCreateNewPassword();
  const form = useZodForm(newPasswordFormSchema, { issueWords: issueWords(t), defaultValues: { password: '', confirmPassword: '' } });
  const onSubmit = form.handleSubmit(({ password }) => create.mutate({ token, password }));
  return (
    <AuthCard title={t('auth.newTitle')} subtitle={t('auth.newIntro')}>
      {create.isSuccess ? (
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconCircleCheck size={20} />} title={t('auth.changed')} role="status">
            {t('auth.changedBody')}
          </Alert>
          <Button component={Link} to="/">
            {t('auth.logInLink')}
          </Button>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <PasswordInput
              visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
              label={t('fields.newPassword')}
              placeholder={t('auth.passwordPlaceholder')}
              autoComplete="new-password"
              withAsterisk
              {...field(form, 'password')}
            />
            <PasswordInput
              visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
              label={t('auth.confirmNew')}
              autoComplete="new-password"
              withAsterisk
              {...field(form, 'confirmPassword')}
            />
            <Button type="submit" loading={create.isPending} fullWidth>
              {t('auth.saveNew')}
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
