import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconCheck, IconMedal, IconSchool, IconShieldCheck, IconX } from '@tabler/icons-react';
import { SAFETY_COACHING_DUE_DAYS, SAFETY_STATUSES_OUT_OF_SCORE, type SafetyEvent, type SafetyReviewStatus } from '@fleet/api-contract';
import { ApiError } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { addDays, formatDate, todayIn, useViewerZone } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { reviewEvent, useCoaches, useSafetyMutation } from './safety-api.ts';

const ACTIONS: { status: SafetyReviewStatus; icon: typeof IconX; color?: string }[] = [
  { status: 'NEEDS_COACHING', icon: IconSchool },
  { status: 'COACHED', icon: IconCheck, color: 'teal' },
  { status: 'RECOGNISED', icon: IconMedal, color: 'blue' },
  { status: 'DEFENSIVE', icon: IconShieldCheck, color: 'gray' },
  { status: 'DISMISSED', icon: IconX, color: 'gray' },
];

/**
 * The reviewer's actions on an event: dismiss, needs coaching (a coach, due in 14 days), coached (a
 * note), recognised, defensive driving. Each opens a small form; the ones that take the event out of
 * the score say so and ask to confirm.
 */
export function EventActions({ event }: { event: SafetyEvent }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<SafetyReviewStatus | null>(null);
  return (
    <>
      <Group gap="xs" wrap="wrap" role="group" aria-label={t('safety.actions.label')}>
        {ACTIONS.filter((a) => a.status !== event.status).map((a) => (
          <Button
            key={a.status}
            variant={a.status === 'NEEDS_COACHING' ? 'filled' : 'light'}
            color={a.color}
            leftSection={<a.icon size={16} aria-hidden />}
            onClick={() => setOpen(a.status)}
          >
            {t(`safety.actions.${a.status}`)}
          </Button>
        ))}
      </Group>
      <Modal
        opened={!!open}
        onClose={() => setOpen(null)}
        title={open ? t(`safety.actions.${open}Title`) : ''}
        closeButtonProps={{ 'aria-label': t('safety.actions.close') }}
        centered
      >
        {open && <ReviewForm event={event} status={open} onClose={() => setOpen(null)} />}
      </Modal>
    </>
  );
}

function ReviewForm({ event, status, onClose }: { event: SafetyEvent; status: SafetyReviewStatus; onClose: () => void }) {
  const { t } = useTranslation();
  const zone = useViewerZone();
  const me = useCurrentUser();
  const coaches = useCoaches(status === 'NEEDS_COACHING');
  const [coachId, setCoachId] = useState<string | null>(event.coachId ?? me?.id ?? null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [noteError, setNoteError] = useState<string | null>(null);
  const [coachError, setCoachError] = useState<string | null>(null);
  const review = useSafetyMutation(reviewEvent);
  const leavesScore = SAFETY_STATUSES_OUT_OF_SCORE.includes(status) && event.countsInScore;
  const noteRequired = status === 'COACHED';
  const options = (coaches.data ?? []).map((u) => ({ value: u.id, label: u.name }));
  // The signed-in reviewer is a coach even before the list loads (or without the users list).
  if (me && !options.some((o) => o.value === me.id))
    options.unshift({ value: me.id, label: [me.firstName, me.lastName].filter(Boolean).join(' ') || me.email });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (status === 'NEEDS_COACHING' && !coachId) {
      setCoachError(t('safety.actions.coachRequired'));
      return;
    }
    if (noteRequired && !note.trim()) {
      setNoteError(t('safety.actions.noteRequired'));
      return;
    }
    try {
      await review.mutateAsync({ id: event.id, body: { status, note: note.trim() || null, coachId: status === 'NEEDS_COACHING' ? coachId : undefined } });
      notify({ type: 'success', title: t(`safety.actions.${status}Done`), timeout: 4000 });
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? (err.body?.technicalMessage ?? err.body?.message ?? err.message) : (err as Error).message);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t(`safety.actions.${status}Title`)}>
      <Stack gap="sm">
        {status === 'NEEDS_COACHING' && (
          <>
            <Select
              label={t('safety.actions.coach')}
              required
              searchable
              data={options}
              value={coachId}
              onChange={(v) => {
                setCoachId(v);
                setCoachError(null);
              }}
              error={coachError}
              nothingFoundMessage={t('safety.actions.noCoach')}
            />
            <Text size="sm" c="dimmed">
              {t('safety.actions.due', { date: formatDate(addDays(todayIn(zone), SAFETY_COACHING_DUE_DAYS)), days: SAFETY_COACHING_DUE_DAYS })}
            </Text>
          </>
        )}
        <Textarea
          label={noteRequired ? t('safety.actions.coachingNote') : t('safety.actions.note')}
          description={noteRequired ? t('safety.actions.coachingNoteHint') : undefined}
          required={noteRequired}
          autosize
          minRows={2}
          maxLength={2000}
          value={note}
          onChange={(e) => {
            setNote(e.currentTarget.value);
            setNoteError(null);
          }}
          error={noteError}
          data-autofocus
        />
        {leavesScore && (
          <Alert color="orange" variant="light" title={t('safety.actions.leavesScoreTitle')}>
            {t('safety.actions.leavesScore', { driver: event.driverName ?? event.assetName })}
          </Alert>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert" py="xs">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={review.isPending} color={leavesScore ? 'red.8' : undefined}>
            {t(`safety.actions.${status}Confirm`)}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
