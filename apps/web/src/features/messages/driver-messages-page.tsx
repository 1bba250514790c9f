import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { MessagePage } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { api } from '../../lib/api-client.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { Conversation } from './conversation.tsx';
import { messageKeys } from './messages-api.ts';

/** The driver's conversation with dispatch (/driver/messages, issue 44), sized for a phone in the cab. */
export default function DriverMessagesPage() {
  const { t } = useTranslation();
  const orgId = useEffectiveOrganizationId() ?? '';
  // The caller's own conversation: the API names its driver (a driver never passes one).
  const own = useQuery({
    queryKey: [...messageKeys.all(orgId), 'own'],
    queryFn: ({ signal }) => api<MessagePage>(orgPathFor(orgId, '/messages'), { query: { size: 1 }, signal, toast: false }),
    enabled: !!orgId,
    staleTime: Infinity,
  });
  const driverId = own.data?.driverId;
  return (
    <Stack gap="md">
      <PageHeader title={t('messages.title')} description={t('messages.driverDescription')} />
      <DataState isLoading={own.isLoading} error={own.error} onRetry={() => void own.refetch()}>
        {driverId && <Conversation orgId={orgId} driverId={driverId} side="DRIVER" height="calc(100dvh - 330px)" />}
      </DataState>
    </Stack>
  );
}
