import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { notify } from '../../../lib/notifications-store.ts';
import { IconCircleCheck } from '@tabler/icons-react';
import type { HosEvent, HosProposal } from '@fleet/api-contract';
import { DataState } from '../../../components/data-state.tsx';
import { describeError } from '../../../lib/api-client.ts';
import { formatDateTime, formatTime } from '../../../lib/dates.ts';
import { eventName, longDate } from '../logs/log-format.ts';
import { driverProposalsQuery, useDecideProposal } from './driver-api.ts';
import classes from './driver.module.css';

const KIND_WORDS: Record<HosProposal['kind'], string> = {
  EDIT: 'Change of a record',
  INSERT: 'A missing record',
  ASSIGN_UNIDENTIFIED: 'Driving on your truck with nobody logged in',
};

/**
 * The office's proposed edits (Appendix A 4.4.4.2.6): for each, the records as they stand and the
 * proposed ones side by side; nothing changes until the driver accepts (or rejects) it.
 */
export function ProposalsList({ orgId, userId, timeZone }: { orgId: string; userId: string; timeZone: string }) {
  const list = useQuery(driverProposalsQuery(orgId, userId));
  return (
    <DataState
      isLoading={list.isLoading}
      error={list.error}
      onRetry={() => void list.refetch()}
      isEmpty={list.data?.content.length === 0}
      emptyTitle="No edits to review"
      emptyDescription="When the office proposes a change to your log it shows here, beside the original."
    >
      <Stack gap="md">
        {list.data?.content.map((p) => <ProposalCard key={p.id} orgId={orgId} userId={userId} proposal={p} timeZone={timeZone} />)}
      </Stack>
    </DataState>
  );
}

function EventLines({ events, timeZone, empty }: { events: HosEvent[]; timeZone: string; empty: string }) {
  if (events.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Stack gap={6}>
      {events.map((e) => (
        <div key={e.id} className={classes.fact}>
          <Text size="sm" fw={600}>
            {eventName(e)}
          </Text>
          <Text size="sm" ff="monospace">
            {formatTime(e.at, timeZone)}
          </Text>
          {e.locationDescription && (
            <Text size="xs" c="dimmed">
              {e.locationDescription}
            </Text>
          )}
        </div>
      ))}
    </Stack>
  );
}

function ProposalCard({ orgId, userId, proposal: p, timeZone }: { orgId: string; userId: string; proposal: HosProposal; timeZone: string }) {
  const decide = useDecideProposal(orgId, userId);
  const [rejecting, setRejecting] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const run = async (decision: 'accept' | 'reject') => {
    try {
      await decide.mutateAsync({ id: p.id, decision, note: note.trim() || null });
      notify({ type: 'success', timeout: 5000, title: decision === 'accept' ? 'Edit accepted' : 'Edit rejected', category: decision === 'accept' ? 'Your log now shows the change.' : 'Your log stays as it was.' });
      setRejecting(false);
    } catch (err) {
      setError(describeError(err).title);
    }
  };
  return (
    <Paper withBorder radius="md" p="md" className={classes.card} data-testid="proposal" aria-label={`Proposed edit of ${longDate(p.log.date)}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div>
            <Text fw={700}>{longDate(p.log.date)}</Text>
            <Text size="sm" c="dimmed">
              {`${KIND_WORDS[p.kind]} · from ${p.requestedBy?.name ?? 'the office'}, ${formatDateTime(p.requestedAt, timeZone)}`}
            </Text>
          </div>
          {!p.applicable && (
            <Badge color="orange" variant="light">
              Out of date
            </Badge>
          )}
        </Group>
        {p.annotation && <Text size="sm">{`“${p.annotation}”`}</Text>}
        <div className={classes.sides}>
          <div className={classes.side} data-side="original">
            <Text size="xs" fw={700} tt="uppercase" c="dimmed" mb={4}>
              Now
            </Text>
            <EventLines events={p.original} timeZone={timeZone} empty="No record at this time" />
          </div>
          <div className={classes.side} data-side="proposed">
            <Text size="xs" fw={700} tt="uppercase" c="blue" mb={4}>
              Proposed
            </Text>
            <EventLines events={p.proposed} timeZone={timeZone} empty="Nothing" />
          </div>
        </div>
        {!p.applicable && (
          <Alert color="orange" variant="light" p="xs">
            Your log changed since this was proposed: it can only be rejected.
          </Alert>
        )}
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group grow>
          <Button variant="default" size="lg" color="red" onClick={() => setRejecting(true)} disabled={decide.isPending}>
            Reject
          </Button>
          <Button size="lg" leftSection={<IconCircleCheck size={20} aria-hidden />} onClick={() => void run('accept')} loading={decide.isPending && decide.variables?.decision === 'accept'} disabled={!p.applicable}>
            Accept
          </Button>
        </Group>
      </Stack>
      <Modal opened={rejecting} onClose={() => setRejecting(false)} title="Reject this edit?" centered size="sm">
        <Stack gap="sm">
          <Text size="sm">Your log stays as it is. The office sees that you rejected the edit.</Text>
          <TextInput label="Why (optional)" maxLength={60} value={note} onChange={(e) => setNote(e.currentTarget.value)} size="md" />
          <Group grow>
            <Button variant="default" size="md" onClick={() => setRejecting(false)}>
              Keep it open
            </Button>
            <Button color="red" size="md" loading={decide.isPending} onClick={() => void run('reject')}>
              Reject edit
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
