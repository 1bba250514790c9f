import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { notify } from '../../../lib/notifications-store.ts';
import { IconCircleCheck } from '@tabler/icons-react';
import type { HosEvent, HosProposal } from '@fleet/api-contract';
import { DataState } from '../../../components/data-state.tsx';
import { formatDateTime, formatTime } from '../../../lib/dates.ts';
import { longDate } from '../logs/log-format.ts';
import { intlLocale } from '../../../i18n/i18n.ts';
import { errorWords } from '../../../i18n/error-words.ts';
import { eventWords } from './event-words.ts';
import { driverProposalsQuery, useDecideProposal } from './driver-api.ts';
import classes from './driver.module.css';

/** What kind of edit the office proposes, in the driver's words. */
const kindWords = (t: TFunction, kind: HosProposal['kind']) => t(`driver.edits.kind.${kind}`);

/**
 * The office's proposed edits (Appendix A 4.4.4.2.6): for each, the records as they stand and the
 * proposed ones side by side; nothing changes until the driver accepts (or rejects) it.
 */
export function ProposalsList({ orgId, userId, timeZone }: { orgId: string; userId: string; timeZone: string }) {
  const { t } = useTranslation();
  const list = useQuery(driverProposalsQuery(orgId, userId));
  return (
    <DataState
      isLoading={list.isLoading}
      error={list.error}
      onRetry={() => void list.refetch()}
      isEmpty={list.data?.content.length === 0}
      emptyTitle={t('driver.edits.emptyTitle')}
      emptyDescription={t('driver.edits.emptyBody')}
    >
      <Stack gap="md">
        {list.data?.content.map((p) => (
          <ProposalCard key={p.id} orgId={orgId} userId={userId} proposal={p} timeZone={timeZone} />
        ))}
      </Stack>
    </DataState>
  );
}

function EventLines({ events, timeZone, empty }: { events: HosEvent[]; timeZone: string; empty: string }) {
  const { t, i18n } = useTranslation();
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
            {eventWords(t, e)}
          </Text>
          <Text size="sm" ff="monospace">
            {formatTime(e.at, timeZone, i18n.language)}
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
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const date = longDate(p.log.date, intlLocale(lng));
  const decide = useDecideProposal(orgId, userId);
  const [rejecting, setRejecting] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const run = async (decision: 'accept' | 'reject') => {
    try {
      const out = await decide.mutateAsync({
        id: p.id,
        decision,
        note: note.trim() || null,
        label: `${t('driver.edits.label', { date })}: ${decision === 'accept' ? t('driver.edits.accepted') : t('driver.edits.rejected')}`,
      });
      notify({
        type: out.sent ? 'success' : 'not-viewed',
        timeout: 5000,
        title: decision === 'accept' ? t('driver.edits.accepted') : t('driver.edits.rejected'),
        category: !out.sent
          ? t('offline.kept', { time: formatTime(Date.now(), timeZone) })
          : decision === 'accept'
            ? t('driver.edits.acceptedBody')
            : t('driver.edits.rejectedBody'),
      });
      setRejecting(false);
    } catch (err) {
      setError(errorWords(t, err));
    }
  };
  return (
    <Paper withBorder radius="md" p="md" className={classes.card} data-testid="proposal" aria-label={t('driver.edits.label', { date })}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div>
            <Text fw={700}>{date}</Text>
            <Text size="sm" c="dimmed">
              {t('driver.edits.from', {
                kind: kindWords(t, p.kind),
                name: p.requestedBy?.name ?? t('driver.edits.theOffice'),
                time: formatDateTime(p.requestedAt, timeZone, lng),
              })}
            </Text>
          </div>
          {!p.applicable && (
            <Badge color="orange" variant="light">
              {t('driver.edits.outOfDate')}
            </Badge>
          )}
        </Group>
        {p.annotation && <Text size="sm">{`“${p.annotation}”`}</Text>}
        <div className={classes.sides}>
          <div className={classes.side} data-side="original">
            <Text size="xs" fw={700} tt="uppercase" c="dimmed" mb={4}>
              {t('driver.edits.now')}
            </Text>
            <EventLines events={p.original} timeZone={timeZone} empty={t('driver.edits.noRecord')} />
          </div>
          <div className={classes.side} data-side="proposed">
            <Text size="xs" fw={700} tt="uppercase" c="blue" mb={4}>
              {t('driver.edits.proposed')}
            </Text>
            <EventLines events={p.proposed} timeZone={timeZone} empty={t('driver.edits.nothing')} />
          </div>
        </div>
        {!p.applicable && (
          <Alert color="orange" variant="light" p="xs">
            {t('driver.edits.changed')}
          </Alert>
        )}
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group grow>
          <Button variant="default" size="lg" color="red" onClick={() => setRejecting(true)} disabled={decide.isPending}>
            {t('driver.edits.reject')}
          </Button>
          <Button
            size="lg"
            leftSection={<IconCircleCheck size={20} aria-hidden />}
            onClick={() => void run('accept')}
            loading={decide.isPending && decide.variables?.decision === 'accept'}
            disabled={!p.applicable}
          >
            {t('driver.edits.accept')}
          </Button>
        </Group>
      </Stack>
      <Modal opened={rejecting} onClose={() => setRejecting(false)} title={t('driver.edits.rejectTitle')} centered size="sm">
        <Stack gap="sm">
          <Text size="sm">{t('driver.edits.rejectBody')}</Text>
          <TextInput label={t('driver.edits.why')} maxLength={60} value={note} onChange={(e) => setNote(e.currentTarget.value)} size="md" />
          <Group grow>
            <Button variant="default" size="md" onClick={() => setRejecting(false)}>
              {t('driver.edits.keepOpen')}
            </Button>
            <Button color="red" size="md" loading={decide.isPending} onClick={() => void run('reject')}>
              {t('driver.edits.rejectEdit')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
