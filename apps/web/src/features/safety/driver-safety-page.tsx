import { useState } from 'react';
import { Alert, Button, Card, Group, Modal, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { IconCheck, IconMessageReport } from '@tabler/icons-react';
import type { DriverSafety, SafetyEvent, UnitSystem } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatDate, formatDateTime, useViewerZone } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { formatDistance, useUnits } from '../../lib/units.ts';
import { acknowledgeEvent, disputeEvent, driverSafetyQuery, useSafetyMutation } from './safety-api.ts';
import { eventFigures, formatScore, formatSeconds, scoreClass, SeverityBadge, StatusBadge } from './safety-words.tsx';
import classes from './safety.module.css';

/** Events shown at first, and added by each "More". */
const PAGE = 10;

/** Coaching the driver is asked to acknowledge: asked for or recorded, not yet acknowledged. */
const awaitsAcknowledgement = (e: SafetyEvent) => (e.status === 'NEEDS_COACHING' || e.status === 'COACHED') && !e.acknowledgedAt;

/** `/driver/safety`: the driver's score and how it is made, their events, acknowledging coaching and disputing an event (375 px first). */
export default function DriverSafetyPage() {
  const { t } = useTranslation();
  const orgId = useEffectiveOrganizationId() ?? '';
  const q = useQuery({ ...driverSafetyQuery(orgId), enabled: !!orgId });
  return (
    <div className={classes.driverPage}>
      <PageHeader title={t('safety.driver.title')} description={t('safety.driver.description')} />
      <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
        {q.data && <DriverSafetyBody d={q.data} />}
      </DataState>
    </div>
  );
}

function DriverSafetyBody({ d }: { d: DriverSafety }) {
  const { t, i18n } = useTranslation();
  const units = useUnits();
  const zone = useViewerZone();
  const s = d.score;
  const costing = s.behaviours.filter((b) => b.points > 0);
  const ordered = [...d.events].sort((a, b) => Number(awaitsAcknowledgement(b)) - Number(awaitsAcknowledgement(a)));
  const [shown, setShown] = useState(PAGE);
  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md" data-testid="driver-safety-score-card">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase">
              {t('safety.driver.yourScore')}
            </Text>
            <Text size="sm">
              {t('safety.scores.period', {
                from: formatDate(s.from, zone, i18n.language),
                to: formatDate(new Date(Date.parse(s.to) - 1), zone, i18n.language),
              })}
            </Text>
            <Text size="sm" c="dimmed">
              {t('safety.driver.facts', { distance: formatDistance(s.distanceKm * 1000, units, i18n.language), driving: formatSeconds(s.drivingSeconds) })}
            </Text>
          </Stack>
          <Text
            fz={44}
            fw={700}
            lh={1}
            className={scoreClass(s.score)}
            data-testid="driver-safety-score"
            aria-label={t('safety.driver.scoreLabel', { score: formatScore(s.score) })}
          >
            {formatScore(s.score)}
          </Text>
        </Group>
        {s.score === null && (
          <Text size="sm" c="dimmed" mt="xs">
            {t('safety.driver.notYet')}
          </Text>
        )}
        <Text size="sm" mt="sm">
          {t('safety.driver.how')}
        </Text>
        {costing.length > 0 && (
          <Table verticalSpacing={4} mt={4} aria-label={t('safety.score.formulaTable')}>
            <Table.Tbody>
              {costing.map((b) => (
                <Table.Tr key={b.behaviour}>
                  <Table.Td>
                    <Text size="sm">{t(`safety.behaviour.${b.behaviour}`)}</Text>
                    <Text size="xs" c="dimmed">
                      {b.basis === 'PERCENT_OF_DRIVING_TIME'
                        ? t('safety.score.ratePercent', { rate: b.rate.toFixed(2) })
                        : t('safety.score.ratePer1000', { rate: b.rate.toFixed(2) })}{' '}
                      × {b.weight}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" fw={600}>
                      −{b.points.toFixed(1)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>

      <Title order={2} fz="lg">
        {t('safety.driver.events')}
      </Title>
      {ordered.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('safety.driver.noEvents')}
        </Text>
      ) : (
        <>
          <Stack gap="sm" role="list" aria-label={t('safety.driver.events')}>
            {ordered.slice(0, shown).map((e) => (
              <DriverEventCard key={e.id} e={e} units={units} />
            ))}
          </Stack>
          {ordered.length > shown && (
            <Button variant="default" onClick={() => setShown((n) => n + PAGE)}>
              {t('safety.driver.more', { count: Math.min(PAGE, ordered.length - shown) })}
            </Button>
          )}
        </>
      )}
    </Stack>
  );
}

function DriverEventCard({ e, units }: { e: SafetyEvent; units: UnitSystem }) {
  const { t, i18n } = useTranslation();
  const zone = useViewerZone();
  const [disputing, setDisputing] = useState(false);
  const acknowledge = useSafetyMutation(acknowledgeEvent);
  const ack = async () => {
    try {
      await acknowledge.mutateAsync({ id: e.id });
      notify({ type: 'success', title: t('safety.driver.acknowledged'), timeout: 4000 });
    } catch (err) {
      notify({ type: 'alert', title: err instanceof ApiError ? (err.body?.message ?? err.message) : t('server.unknown'), timeout: 6000 });
    }
  };
  return (
    <Card withBorder radius="md" padding="sm" role="listitem" data-testid="driver-safety-event" data-event-id={e.id}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={0}>
          <Text fw={600}>
            {t(`safety.type.${e.type}`)}
            {e.band ? ` · ${t(`safety.band.${e.band}`)}` : ''}
          </Text>
          <Text size="sm">{eventFigures(e, units, t, i18n.language)}</Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(e.startedAt, zone, i18n.language)}
            {e.place ? ` · ${e.place}` : ''}
          </Text>
          <Text size="xs" c="dimmed">
            {t('common.truck', { unit: e.assetName })} · {t(`safety.source.${e.source}`)}
          </Text>
        </Stack>
        <Stack gap={4} align="flex-end">
          <SeverityBadge severity={e.severity} />
          <StatusBadge status={e.status} />
        </Stack>
      </Group>
      {e.coachName && (e.status === 'NEEDS_COACHING' || e.status === 'COACHED') && (
        <Text size="sm" mt="xs">
          {e.status === 'NEEDS_COACHING' && e.dueAt
            ? t('safety.driver.coachBy', { coach: e.coachName, date: formatDate(e.dueAt, zone, i18n.language) })
            : t('safety.driver.coach', { coach: e.coachName })}
        </Text>
      )}
      {e.note && (e.status === 'NEEDS_COACHING' || e.status === 'COACHED' || e.status === 'RECOGNISED') && (
        <Text size="sm" c="dimmed" mt={4} fs="italic">
          “{e.note}”
        </Text>
      )}
      {e.acknowledgedAt && (
        <Text size="xs" c="teal.8" mt={4} className={classes.okText}>
          {t('safety.driver.acknowledgedAt', { date: formatDateTime(e.acknowledgedAt, zone, i18n.language) })}
        </Text>
      )}
      {e.disputedAt && (
        <Alert
          color="yellow"
          variant="light"
          mt="xs"
          p="xs"
          icon={<IconMessageReport size={16} />}
          title={t('safety.driver.disputedAt', { date: formatDateTime(e.disputedAt, zone, i18n.language) })}
        >
          <Text size="sm">{e.disputeNote}</Text>
        </Alert>
      )}
      {(awaitsAcknowledgement(e) || (!e.disputedAt && e.status !== 'DISMISSED')) && (
        <Group gap="xs" mt="sm" justify="space-between" wrap="wrap">
          {awaitsAcknowledgement(e) && (
            <Button
              leftSection={<IconCheck size={18} aria-hidden />}
              loading={acknowledge.isPending}
              onClick={() => void ack()}
              size="md"
              style={{ flex: '1 1 auto' }}
            >
              {t('safety.driver.acknowledge')}
            </Button>
          )}
          {!e.disputedAt && e.status !== 'DISMISSED' && (
            <Button
              variant="subtle"
              leftSection={<IconMessageReport size={18} aria-hidden />}
              onClick={() => setDisputing(true)}
              size="sm"
              ml={awaitsAcknowledgement(e) ? undefined : 'auto'}
            >
              {t('safety.driver.dispute')}
            </Button>
          )}
        </Group>
      )}
      <Modal
        opened={disputing}
        onClose={() => setDisputing(false)}
        title={t('safety.driver.disputeTitle')}
        closeButtonProps={{ 'aria-label': t('safety.actions.close') }}
        centered
      >
        {disputing && <DisputeForm e={e} onClose={() => setDisputing(false)} />}
      </Modal>
    </Card>
  );
}

function DisputeForm({ e, onClose }: { e: SafetyEvent; onClose: () => void }) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const dispute = useSafetyMutation(disputeEvent);
  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!note.trim()) {
      setError(t('safety.driver.disputeRequired'));
      return;
    }
    try {
      await dispute.mutateAsync({ id: e.id, note: note.trim() });
      notify({ type: 'success', title: t('safety.driver.disputed'), timeout: 4000 });
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? (err.body?.message ?? err.message) : t('server.unknown'));
    }
  };
  return (
    <form onSubmit={(ev) => void submit(ev)} noValidate aria-label={t('safety.driver.disputeTitle')}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('safety.driver.disputeHint')}
        </Text>
        <Textarea
          label={t('safety.driver.disputeNote')}
          required
          autosize
          minRows={3}
          maxLength={2000}
          value={note}
          onChange={(ev) => {
            setNote(ev.currentTarget.value);
            setError(null);
          }}
          error={error}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={dispute.isPending}>
            {t('safety.driver.sendDispute')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
