import { useState } from 'react';
import { Anchor, Badge, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconAlertOctagon, IconClipboardPlus } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Defect, EngineFault, EngineFaultStatus, Page } from '@fleet/api-contract';
import tones from '../../components/badge-tones.module.css';
import { DataState } from '../../components/data-state.tsx';
import { api } from '../../lib/api-client.ts';
import { formatDateTime, useViewerZone } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useCan } from '../../lib/registry-api.ts';

// A vehicle's engine faults on its page (issue 46, decision 0191): active and cleared, the
// standard's description, first and last seen in the user's zone, and "Create defect". The keys sit
// under ['maintenance', orgId] like the rest of the unit's maintenance, so a defect made here (or any
// maintenance change) refreshes them and the open defects beside them.

const PAGE = 10;
const NOWRAP = { whiteSpace: 'nowrap' } as const;

function useEngineFaults(assetId: string, status: EngineFaultStatus, page: number) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: ['maintenance', orgId, 'asset', assetId, 'engine-faults', status, page] as const,
    queryFn: ({ signal }) =>
      api<Page<EngineFault>>(orgPathFor(orgId ?? '', `/assets/${assetId}/engine-faults`), { query: { status, page, size: PAGE }, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: !!orgId,
    // Faults come and go with the engine: a page left open follows them.
    refetchInterval: 60_000,
  });
}

function useCreateDefect(assetId: string) {
  const qc = useQueryClient();
  const orgId = useEffectiveOrganizationId();
  return useMutation({
    mutationFn: (faultId: string) => api<Defect>(orgPathFor(orgId ?? '', `/assets/${assetId}/engine-faults/${faultId}/defect`), { method: 'POST', body: {} }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['maintenance', orgId] });
    },
  });
}

/** J1939 lamps the fault lit, in words ("Check engine, Amber warning"). */
const lampWords = (f: EngineFault) =>
  f.lamps
    ? [f.lamps.mil && 'Check engine', f.lamps.redStop && 'Red stop', f.lamps.amberWarning && 'Amber warning', f.lamps.protect && 'Protect']
        .filter(Boolean)
        .join(', ')
    : '';

/** The vehicle's engine faults, active or cleared, with "Create defect" for whoever handles defects. */
export function AssetEngineFaults({ assetId }: { assetId: string }) {
  const [status, setStatus] = useState<EngineFaultStatus>('ACTIVE');
  const [page, setPage] = useState(0);
  const q = useEngineFaults(assetId, status, page);
  const canDefect = [useCan('DEFECT_UPDATE'), useCan('WORK_ORDER_UPDATE')].some(Boolean);
  const create = useCreateDefect(assetId);
  const zone = useViewerZone();
  const faults = q.data?.content ?? [];
  const make = async (f: EngineFault) => {
    try {
      await create.mutateAsync(f.id);
      notify({ type: 'success', title: `Defect opened for ${f.code}`, timeout: 5000 });
    } catch {
      // the API client showed the error
    }
  };
  return (
    <Stack gap="xs" data-testid="engine-faults">
      <SegmentedControl
        size="xs"
        value={status}
        onChange={(v) => {
          setStatus(v as EngineFaultStatus);
          setPage(0);
        }}
        data={[
          { value: 'ACTIVE', label: 'Active' },
          { value: 'CLEARED', label: 'Cleared' },
        ]}
        aria-label="Engine faults to show"
        w="fit-content"
      />
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={faults.length === 0}
        emptyTitle={status === 'ACTIVE' ? 'No active engine fault' : 'No cleared engine fault'}
        emptyDescription={status === 'ACTIVE' ? 'The engine reports no fault code now.' : 'Faults the engine stopped reporting are listed here.'}
      >
        <Stack gap="xs">
          {faults.map((f) => (
            <Paper key={f.id} withBorder radius="sm" p="xs" data-testid="engine-fault">
              <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
                <Stack gap={2} style={{ flex: '1 1 16rem', minWidth: 0 }}>
                  <Group gap={6} wrap="wrap">
                    <Text fw={600} size="sm" ff="monospace">
                      {f.code}
                    </Text>
                    <Badge variant="outline" radius="sm" className={tones.muted}>
                      {f.source === 'J1939' ? 'J1939' : 'OBD-II'}
                    </Badge>
                    {f.grounding && (
                      <Badge variant="outline" radius="sm" className={tones.danger} leftSection={<IconAlertOctagon size={12} />}>
                        Grounding
                      </Badge>
                    )}
                  </Group>
                  <Text size="sm">{f.description ?? 'No standard description: a code of the engine maker.'}</Text>
                  <Text size="xs" c="dimmed">
                    {/* Each time whole on its line when a phone wraps them. */}
                    <span style={NOWRAP}>First seen {formatDateTime(f.firstSeenAt, zone)}</span> ·{' '}
                    <span style={NOWRAP}>last seen {formatDateTime(f.lastSeenAt, zone)}</span>
                    {f.clearedAt && (
                      <>
                        {' · '}
                        <span style={NOWRAP}>cleared {formatDateTime(f.clearedAt, zone)}</span>
                      </>
                    )}
                  </Text>
                  {(f.occurrences !== undefined || f.lamps) && (
                    <Text size="xs" c="dimmed">
                      {[
                        f.occurrences !== undefined ? `Occurred ${f.occurrences} time${f.occurrences === 1 ? '' : 's'}` : null,
                        lampWords(f) ? `Lamps: ${lampWords(f)}` : null,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </Text>
                  )}
                </Stack>
                {f.defectId ? (
                  <Anchor component={Link} to={`/maintenance/defects?status=OPEN&assetId=${assetId}`} size="sm">
                    Defect opened
                  </Anchor>
                ) : (
                  canDefect && (
                    <Button
                      size="compact-sm"
                      variant="light"
                      leftSection={<IconClipboardPlus size={14} />}
                      loading={create.isPending && create.variables === f.id}
                      onClick={() => void make(f)}
                    >
                      Create defect
                    </Button>
                  )
                )}
              </Group>
            </Paper>
          ))}
          {(q.data?.totalPages ?? 0) > 1 && (
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {q.data!.totalElements} faults
              </Text>
              <Group gap={4}>
                <Button size="compact-xs" variant="default" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
                  Newer
                </Button>
                <Button size="compact-xs" variant="default" disabled={page + 1 >= q.data!.totalPages} onClick={() => setPage((p) => p + 1)}>
                  Older
                </Button>
              </Group>
            </Group>
          )}
        </Stack>
      </DataState>
    </Stack>
  );
}
