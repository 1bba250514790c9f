import { Anchor, Badge, Button, Group, Pagination, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Candidate } from '@fleet/api-contract';
import tones from '../../components/badge-tones.module.css';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { ApiError, NetworkError, toastApiError, toastNetworkError } from '../../lib/api-client.ts';
import { formatShortDateTime, useViewerZone } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useUnits } from '../../lib/units.ts';
import { assignLoad, CANDIDATES_PAGE, isOverlapRefusal, useCandidates, useLoadMutation } from './dispatch-api.ts';
import { freeAtText, formatMinutes, formatPlanMiles } from './dispatch-format.ts';
import classes from './dispatch.module.css';

export interface CandidatesListProps {
  loadId: string;
  loadNumber: string;
  /** The drivers on the load now (their row says so instead of offering Assign). */
  assignedIds: readonly string[];
  canAssign: boolean;
  /** The driver whose plan is shown above; a row's "Show plan" sets it. */
  planDriverId: string | null;
  onShowPlan: (driverId: string, name: string) => void;
}

/**
 * Every active driver ranked by the API (can deliver on time legally, then deadhead, then hours left):
 * feasible drivers first with their deadhead, hours and last ETA; each excluded driver with the reason
 * in words; a driver on other loads with where and when they are free (their plan starts there).
 * "Assign" posts the assignment and every load view reads again; when the API refuses it because the
 * driver's loads overlap this one (409), the dispatcher is asked before it is sent again with
 * `overlapAllowed`.
 */
export function CandidatesList({ loadId, loadNumber, assignedIds, canAssign, planDriverId, onShowPlan }: CandidatesListProps) {
  const units = useUnits();
  const zone = useViewerZone();
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const q = useCandidates(loadId, { page, size: CANDIDATES_PAGE, search: debounced || undefined });
  const assign = useLoadMutation(assignLoad);
  const rows = q.data?.content ?? [];
  const doAssign = (c: Candidate, overlapAllowed = false) =>
    assign.mutate(
      { id: loadId, body: overlapAllowed ? { driverIds: [c.driverId], overlapAllowed } : { driverIds: [c.driverId] } },
      {
        onSuccess: () => notify({ type: 'success', title: `${c.name} assigned to ${loadNumber}`, timeout: 4000 }),
        onError: (err) => {
          if (!overlapAllowed && isOverlapRefusal(err)) {
            void confirmAction({
              title: `Assign ${c.name} anyway?`,
              message: err.body.message,
              confirmLabel: 'Assign anyway',
              cancelLabel: 'Keep looking',
              danger: false,
            }).then((ok) => ok && doAssign(c, true));
          } else if (err instanceof ApiError) toastApiError(err);
          else if (err instanceof NetworkError) toastNetworkError();
        },
      },
    );
  return (
    <Stack gap="sm">
      <TextInput
        aria-label="Search drivers"
        placeholder="Search drivers"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(0);
        }}
      />
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={!!q.data && rows.length === 0}
        emptyTitle="No active drivers"
        emptyDescription="Drivers appear here once they are active."
      >
        <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Candidates">
          {rows.map((c, i) => {
            const assigned = assignedIds.includes(c.driverId);
            return (
              <Paper
                component="li"
                key={c.driverId}
                withBorder
                radius="md"
                p="xs"
                data-testid="candidate"
                data-feasible={c.feasible}
                aria-current={planDriverId === c.driverId ? 'true' : undefined}
              >
                <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap={6}>
                      <Text size="sm" fw={700}>
                        {page * CANDIDATES_PAGE + i + 1}. {c.name}
                      </Text>
                      {c.feasible ? (
                        <Badge size="sm" variant="outline" radius="sm" className={tones.ok}>
                          On time
                        </Badge>
                      ) : (
                        <Badge size="sm" variant="outline" radius="sm" className={tones.danger}>
                          Excluded
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs">
                      Deadhead {formatPlanMiles(c.deadheadMiles, units)} · {formatMinutes(c.remainingDriveMinutes)} to drive{c.after ? ' then' : ''}
                      {c.lastStopEta ? ` · delivers ${formatShortDateTime(c.lastStopEta)}` : ''}
                    </Text>
                    {c.reason && (
                      <Text size="xs" className={classes.danger}>
                        {c.reason}
                      </Text>
                    )}
                    {c.after ? (
                      <Text size="xs" c="dimmed" data-testid="candidate-after">
                        After{' '}
                        <Anchor component={Link} to={`/dispatch/loads/${c.after.loadId}`} size="xs" underline="always">
                          {c.after.number}
                        </Anchor>
                        {c.after.loads > 1 ? ` (${c.after.loads} loads)` : ''}, free{c.after.place ? ` in ${c.after.place}` : ''} at {freeAtText(c.after, zone)}
                      </Text>
                    ) : (
                      c.currentLoad && (
                        <Text size="xs" c="dimmed">
                          On load{' '}
                          <Anchor component={Link} to={`/dispatch/loads/${c.currentLoad.id}`} size="xs" underline="always">
                            {c.currentLoad.number}
                          </Anchor>
                        </Text>
                      )
                    )}
                  </Stack>
                  <Stack gap={4} align="flex-end">
                    {assigned ? (
                      <Badge variant="light">Assigned</Badge>
                    ) : (
                      canAssign && (
                        <Button
                          size="xs"
                          variant={c.feasible ? 'filled' : 'default'}
                          onClick={() => doAssign(c)}
                          loading={assign.isPending && assign.variables?.body.driverIds[0] === c.driverId}
                          aria-label={`Assign ${c.name}`}
                        >
                          Assign
                        </Button>
                      )
                    )}
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      onClick={() => onShowPlan(c.driverId, c.name)}
                      aria-label={planDriverId === c.driverId ? `Plan shown for ${c.name}` : `Show plan for ${c.name}`}
                      disabled={planDriverId === c.driverId}
                    >
                      {planDriverId === c.driverId ? 'Plan shown' : 'Show plan'}
                    </Button>
                  </Stack>
                </Group>
              </Paper>
            );
          })}
        </Stack>
        {(q.data?.totalPages ?? 0) > 1 && (
          <Pagination
            size="sm"
            mt="xs"
            total={q.data!.totalPages}
            value={page + 1}
            onChange={(p) => setPage(p - 1)}
            getItemProps={(p) => ({ 'aria-label': `Candidates page ${p}` })}
            getControlProps={(c) => ({ 'aria-label': `${c} candidates page` })}
          />
        )}
      </DataState>
    </Stack>
  );
}
