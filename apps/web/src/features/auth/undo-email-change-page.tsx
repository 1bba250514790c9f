import { Alert, Button, Stack } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { notify } from '../../lib/notifications-store.ts';
import { logout } from '../../lib/session.ts';
import { AuthCard } from './auth-card.tsx';
import { useUndoEmailChange } from './api/auth-api.ts';

/**
 * Undo a change of e-mail: the link e-mailed to the old address (decision 0227). Asks before it acts,
 * so a mail scanner that opens links changes nothing.
 */
export default function UndoEmailChangePage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const undo = useUndoEmailChange();
  const navigate = useNavigate();
  const signedIn = useCurrentUser() !== null;
  // Undoing ends every session, this browser's too: signed in, it signs out here at once and says why on the sign-in page.
  const onUndo = () =>
    undo.mutate(
      { token },
      {
        onSuccess: async ({ email }) => {
          if (!signedIn) return;
          await logout({ server: false });
          await navigate('/', { replace: true });
          notify({
            type: 'success',
            title: t('auth.undone'),
            expandedContent: t('auth.undoneBody', { email }),
            isExpanded: true,
            category: 'Signed out',
            isClosable: true,
          });
        },
      },
    );
  return (
    <AuthCard title={t('auth.undoTitle')} subtitle={undo.isSuccess ? undefined : t('auth.undoIntro')}>
      {undo.isSuccess ? (
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconCircleCheck size={20} />} title={t('auth.undone')} role="status">
            {t('auth.undoneBody', { email: undo.data.email })}
          </Alert>
          <Button component={Link} to="/">
            {t('auth.logInLink')}
          </Button>
        </Stack>
      ) : (
        <Stack gap="md">
          <Button onClick={onUndo} loading={undo.isPending} fullWidth>
            {t('auth.undoButton')}
          </Button>
          <Button component={Link} to="/" variant="subtle">
            {t('auth.logInLink')}
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}
