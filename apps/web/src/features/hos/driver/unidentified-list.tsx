import { useState } from 'react';
import { Button, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { notify } from '../../../lib/notifications-store.ts';
import type { HosUnidentifiedSegment } from '@fleet/api-contract';
import { DataState } from '../../../components/data-state.tsx';
import { describeError } from '../../../lib/api-client.ts';
import { formatDistance, useUnits } from '../../../lib/units.ts';
import { formatHoursMinutes } from '../availability/clock-format.ts';
import { clockIn, shortDate, zoneAbbreviation } from '../logs/log-format.ts';
import { driverUnidentifiedQuery, useClaimSegment } from './driver-api.ts';
import classes from './driver.module.css';

/** When a segment ran, in the driver's zone: "Jun 8 6:30 AM – 8:00 AM". */
export function segmentWhen(s: HosUnidentifiedSegment, timeZone: string): string {
  const day = shortDate(new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(s.start)));
  // Home-terminal time, labelled (decision 0140).
  return `${day} ${clockIn(s.start, timeZone)} – ${s.end ? clockIn(s.end, timeZone) : 'now'} ${zoneAbbreviation(s.start, timeZone)}`;
}

/** Driving recorded on the driver's truck while nobody was logged in: the driver may claim it as theirs (4.4.4.2.4). */
export function UnidentifiedList({ orgId, userId, timeZone }: { orgId: string; userId: string; timeZone: string }) {
  const list = useQuery(driverUnidentifiedQuery(orgId, userId));
  const [claiming, setClaiming] = useState<HosUnidentifiedSegment | null>(null);
  const units = useUnits();
  return (
    <DataState
      isLoading={list.isLoading}
      error={list.error}
      onRetry={() => void list.refetch()}
      isEmpty={list.data?.content.length === 0}
      emptyTitle="No unidentified driving"
      emptyDescription="Driving on your truck with nobody logged in shows here for you to claim."
    >
      <Stack gap="sm">
        {list.data?.content.map((s) => (
          <Paper key={s.id} withBorder radius="md" p="md" className={classes.card} data-testid="unidentified-segment">
            <Stack gap={6}>
              <Text fw={700}>{segmentWhen(s, timeZone)}</Text>
              <Text size="sm">{`Truck ${s.vehicle?.unitNumber ?? '—'} · ${formatHoursMinutes(s.durationMs)} h · ${s.distanceM === null ? 'distance unknown' : formatDistance(s.distanceM, units)}`}</Text>
              <Text size="sm" c="dimmed" className={classes.fact}>
                {`${s.startLocation.description ?? 'Unknown place'} → ${s.endLocation?.description ?? '…'}`}
              </Text>
              <Button size="lg" mt={4} onClick={() => setClaiming(s)}>
                This was me
              </Button>
            </Stack>
          </Paper>
        ))}
      </Stack>
      <ClaimModal orgId={orgId} userId={userId} segment={claiming} timeZone={timeZone} onClose={() => setClaiming(null)} />
    </DataState>
  );
}

function ClaimModal({ orgId, userId, segment, timeZone, onClose }: { orgId: string; userId: string; segment: HosUnidentifiedSegment | null; timeZone: string; onClose: () => void }) {
  const claim = useClaimSegment(orgId, userId);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (!segment) return;
    const annotation = note.trim() || null;
    if (annotation !== null && annotation.length < 4) {
      setError('A note must be at least 4 characters');
      return;
    }
    try {
      await claim.mutateAsync({ id: segment.id, annotation });
      notify({ type: 'success', timeout: 5000, title: 'Driving added to your log', category: 'It counts against your hours.' });
      setNote('');
      setError(null);
      onClose();
    } catch (err) {
      setError(describeError(err).title);
    }
  };
  return (
    <Modal opened={segment !== null} onClose={onClose} title="Claim this driving?" centered size="sm">
      {segment && (
        <Stack gap="sm">
          <Text size="sm">{`${segmentWhen(segment, timeZone)} becomes your driving time, marked as assumed from unidentified driving. This cannot be undone by you.`}</Text>
          <TextInput label="Note (optional)" maxLength={60} value={note} onChange={(e) => setNote(e.currentTarget.value)} error={error} size="md" />
          <Group grow>
            <Button variant="default" size="md" onClick={onClose}>
              Cancel
            </Button>
            <Button size="md" loading={claim.isPending} onClick={() => void submit()}>
              Claim driving
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
