import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Button, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { formatTime } from '../../../lib/dates.ts';
import { useQuery } from '@tanstack/react-query';
import { notify } from '../../../lib/notifications-store.ts';
import type { HosUnidentifiedSegment } from '@fleet/api-contract';
import { DataState } from '../../../components/data-state.tsx';
import { formatDistance, useUnits } from '../../../lib/units.ts';
import { formatHoursMinutes } from '../availability/clock-format.ts';
import { clockIn, shortDate, zoneAbbreviation } from '../logs/log-format.ts';
import { errorWords } from '../../../i18n/error-words.ts';
import { driverUnidentifiedQuery, useClaimSegment } from './driver-api.ts';
import classes from './driver.module.css';

/** When a segment ran, in the driver's zone and language: "06/08/26 6:30 AM – 8:00 AM CDT". */
export function segmentWhen(s: HosUnidentifiedSegment, timeZone: string, t: TFunction, lng: string): string {
  const day = shortDate(new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(s.start)), lng);
  // Home-terminal time, labelled (decision 0140).
  return `${day} ${clockIn(s.start, timeZone, lng)} – ${s.end ? clockIn(s.end, timeZone, lng) : t('driver.claim.now')} ${zoneAbbreviation(s.start, timeZone, lng)}`;
}

/** Driving recorded on the driver's truck while nobody was logged in: the driver may claim it as theirs (4.4.4.2.4). */
export function UnidentifiedList({ orgId, userId, timeZone }: { orgId: string; userId: string; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const list = useQuery(driverUnidentifiedQuery(orgId, userId));
  const [claiming, setClaiming] = useState<HosUnidentifiedSegment | null>(null);
  const units = useUnits();
  return (
    <DataState
      isLoading={list.isLoading}
      error={list.error}
      onRetry={() => void list.refetch()}
      isEmpty={list.data?.content.length === 0}
      emptyTitle={t('driver.claim.emptyTitle')}
      emptyDescription={t('driver.claim.emptyBody')}
    >
      <Stack gap="sm">
        {list.data?.content.map((s) => (
          <Paper key={s.id} withBorder radius="md" p="md" className={classes.card} data-testid="unidentified-segment">
            <Stack gap={6}>
              <Text fw={700}>{segmentWhen(s, timeZone, t, lng)}</Text>
              <Text size="sm">
                {t('driver.claim.line', {
                  unit: s.vehicle?.unitNumber ?? '—',
                  duration: formatHoursMinutes(s.durationMs),
                  distance: s.distanceM === null ? t('driver.claim.distanceUnknown') : formatDistance(s.distanceM, units, lng),
                })}
              </Text>
              <Text size="sm" c="dimmed" className={classes.fact}>
                {`${s.startLocation.description ?? t('driver.claim.unknownPlace')} → ${s.endLocation?.description ?? '…'}`}
              </Text>
              <Button size="lg" mt={4} onClick={() => setClaiming(s)}>
                {t('driver.claim.thisWasMe')}
              </Button>
            </Stack>
          </Paper>
        ))}
      </Stack>
      <ClaimModal orgId={orgId} userId={userId} segment={claiming} timeZone={timeZone} onClose={() => setClaiming(null)} />
    </DataState>
  );
}

function ClaimModal({
  orgId,
  userId,
  segment,
  timeZone,
  onClose,
}: {
  orgId: string;
  userId: string;
  segment: HosUnidentifiedSegment | null;
  timeZone: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const claim = useClaimSegment(orgId, userId);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (!segment) return;
    const annotation = note.trim() || null;
    if (annotation !== null && annotation.length < 4) {
      setError(t('driver.change.noteShort'));
      return;
    }
    try {
      const out = await claim.mutateAsync({ id: segment.id, annotation, label: t('driver.claim.title') });
      notify({
        type: out.sent ? 'success' : 'not-viewed',
        timeout: 5000,
        title: t('driver.claim.added'),
        category: out.sent ? t('driver.claim.addedBody') : t('offline.kept', { time: formatTime(Date.now(), timeZone) }),
      });
      setNote('');
      setError(null);
      onClose();
    } catch (err) {
      setError(errorWords(t, err));
    }
  };
  return (
    <Modal opened={segment !== null} onClose={onClose} title={t('driver.claim.title')} centered size="sm">
      {segment && (
        <Stack gap="sm">
          <Text size="sm">{t('driver.claim.body', { when: segmentWhen(segment, timeZone, t, i18n.language) })}</Text>
          <TextInput label={t('driver.change.note')} maxLength={60} value={note} onChange={(e) => setNote(e.currentTarget.value)} error={error} size="md" />
          <Group grow>
            <Button variant="default" size="md" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button size="md" loading={claim.isPending} onClick={() => void submit()}>
              {t('driver.claim.claim')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
