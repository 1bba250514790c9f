import { Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataState } from '../../../components/data-state.tsx';
import { formatDateTime, useViewerZone } from '../../../lib/dates.ts';
import { eldTransferStatusQuery } from './eld-transfer-api.ts';

/**
 * The organization account's view of the ELD's data transfer (issue 45): whether each FMCSA path is
 * set up on this server (and what is missing), test mode, and the last weekly self-check (4.6.1.7).
 */
export function EldTransferCheck({ orgId }: { orgId: string }) {
  const zone = useViewerZone();
  const q = useQuery(eldTransferStatusQuery(orgId));
  const s = q.data;
  const path = (name: string, r: { ready: boolean; missing: string[] }) => (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Badge color={r.ready ? 'green' : 'orange'} variant="light" style={{ flex: 'none' }}>
        {r.ready ? 'Set up' : 'Not set up'}
      </Badge>
      <Text size="sm">
        <Text span fw={600} size="sm">
          {name}
        </Text>
        {r.ready ? '' : `: ${r.missing.join('; ')}`}
      </Text>
    </Group>
  );
  return (
    <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
      {s && (
        <Stack gap="xs" data-testid="eld-transfer-check">
          {path('Web service', s.webService)}
          {path('E-mail', s.email)}
          <Text size="sm">
            {s.test
              ? 'Test mode: FMCSA validates each file but does not pass it to officers (ELD_TRANSFER_TEST=1).'
              : 'Live: files go to the officers who ask for them.'}
          </Text>
          <Text size="sm" data-testid="eld-transfer-last-check">
            {s.lastCheck
              ? `Last self-check ${formatDateTime(s.lastCheck.checkedAt, zone)}: ${s.lastCheck.ok ? 'passed' : 'failed'} (${s.lastCheck.status}${s.lastCheck.detail ? `, ${s.lastCheck.detail}` : ''}).`
              : 'No self-check yet: the server checks the web service at start and at least every 7 days.'}
          </Text>
        </Stack>
      )}
    </DataState>
  );
}
