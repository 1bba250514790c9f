import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { MessagePage } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { api } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { Conversation } from './conversation.tsx';
import { messageKeys } from './messages-api.ts';

/** The driver's conversation with dispatch (/driver/messages, issue 44), sized for a phone in the cab. */
export default function DriverMessagesPage() {
  const { t } = useTranslation();
  const orgId = useEffectiveOrganizationId() ?? '';
  // The caller's own conversation: the signed-in driver's (known offline too), else the one the API names.
  const known = useCurrentUser()?.driverId ?? null;
  const own = useQuery({
    queryKey: [...messageKeys.all(orgId), 'own'],
    queryFn: ({ signal }) => api<MessagePage>(orgPathFor(orgId, '/messages'), { query: { size: 1 }, signal, toast: false }),
    enabled: !!orgId && !known,
    staleTime: Infinity,
  });
  const driverId = known ?? own.data?.driverId;
  return (
    <Stack gap="md">
      <PageHeader title={t('messages.title')} description={t('messages.driverDescription')} />
      <DataState isLoading={!known && own.isLoading} error={known ? null : own.error} onRetry={() => void own.refetch()}>
        {driverId && <Conversation orgId={orgId} driverId={driverId} side="DRIVER" height="calc(100dvh - 330px)" />}
      </DataState>
    </Stack>
  );
}
