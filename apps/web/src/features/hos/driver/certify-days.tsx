import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Blockquote, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { notify } from '../../../lib/notifications-store.ts';
import { IconCircleCheck } from '@tabler/icons-react';
import { HOS_CERTIFICATION_STATEMENT } from '@fleet/api-contract/hos-driver';
import { useCurrentUser } from '../../../lib/auth-store.ts';
import { formatTime } from '../../../lib/dates.ts';
import { ownRecords, sendRecord, useOutbox } from '../../../lib/outbox.ts';
import { longDate } from '../logs/log-format.ts';
import { intlLocale } from '../../../i18n/i18n.ts';
import { errorWords } from '../../../i18n/error-words.ts';
import { certificationPath } from './driver-api.ts';
import classes from './driver.module.css';

export interface CertifyDaysProps {
  orgId: string;
  userId: string;
  /** Past days waiting for certification, oldest first. */
  days: ReadonlyArray<{ id: string; date: string }>;
  /** Today's log, which may be certified at the end of the shift. */
  today: { id: string; date: string };
  /** Today's log is certified (and not edited since): "Certify today" is no longer offered. Default false. */
  todayCertified?: boolean;
  /** The driver's home-terminal zone (the time a certification kept on the phone names). */
  timeZone: string;
}

/**
 * Certification (Appendix A 4.3.2.3): each past day not certified, or changed since, is listed; the
 * driver reads the statement and agrees, or leaves it for later ("Not ready").
 */
export function CertifyDays({ orgId, userId, days, today, todayCertified = false, timeZone }: CertifyDaysProps) {
  const { t, i18n } = useTranslation();
  const [day, setDay] = useState<{ id: string; date: string } | null>(null);
  const user = useCurrentUser();
  // Certifications signed on the phone and not yet sent (no signal) show as such.
  const kept = new Set(
    ownRecords(useOutbox(), user?.id)
      .filter((r) => r.kind === 'CERTIFY' && r.state === 'WAITING')
      .map((r) => decodeURIComponent(/\/([^/]+)\/certification$/.exec(r.path)?.[1] ?? '')),
  );
  const date = (d: string) => longDate(d, intlLocale(i18n.language));
  return (
    <Stack gap="sm">
      {days.length === 0 ? (
        <Alert color="green" variant="light" icon={<IconCircleCheck size={20} />} title={t('driver.certify.allDone')}>
          {todayCertified ? t('driver.certify.todayDone') : t('driver.certify.todayLater')}
        </Alert>
      ) : (
        <Text size="sm">{t('driver.certify.waiting', { count: days.length })}</Text>
      )}
      {[...days].reverse().map((d) => (
        <Paper key={d.id} withBorder radius="md" p="sm" className={classes.card} data-testid="uncertified-day">
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600}>{date(d.date)}</Text>
            {kept.has(d.id) ? (
              <Badge variant="light" color="blue">
                {t('driver.certify.kept')}
              </Badge>
            ) : (
              <Button size="md" onClick={() => setDay(d)} aria-label={t('driver.certify.title', { date: date(d.date) })}>
                {t('driver.certify.certify')}
              </Button>
            )}
          </Group>
        </Paper>
      ))}
      {todayCertified ? (
        days.length > 0 && (
          <Text size="sm" c="dimmed">
            {t('driver.certify.todayDone')}
          </Text>
        )
      ) : (
        <Button variant="default" size="md" onClick={() => setDay(today)} disabled={kept.has(today.id)}>
          {t('driver.certify.today')}
        </Button>
      )}
      <CertifyModal orgId={orgId} userId={userId} day={day} timeZone={timeZone} onClose={() => setDay(null)} />
    </Stack>
  );
}

function CertifyModal({
  orgId,
  userId,
  day,
  timeZone,
  onClose,
}: {
  orgId: string;
  userId: string;
  day: { id: string; date: string } | null;
  timeZone: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const agree = async () => {
    if (!day) return;
    // Agreed now: sent now or when the network returns, the certification carries this time.
    const madeAt = Date.now();
    const date = longDate(day.date, intlLocale(i18n.language));
    setSending(true);
    try {
      const body = { agree: true, recordedAt: new Date(madeAt).toISOString() };
      const out = await sendRecord({
        kind: 'CERTIFY',
        madeAt,
        label: t('driver.certify.title', { date }),
        path: certificationPath(orgId, userId, day.id),
        body,
      });
      notify({
        type: out.sent ? 'success' : 'not-viewed',
        timeout: 5000,
        title: t('driver.certify.done', { date }),
        category: out.sent ? t('driver.certify.recorded') : t('offline.kept', { time: formatTime(madeAt, timeZone, i18n.language) }),
      });
      setError(null);
      onClose();
    } catch (err) {
      setError(errorWords(t, err));
    } finally {
      setSending(false);
    }
  };
  return (
    <Modal
      opened={day !== null}
      onClose={onClose}
      title={day ? t('driver.certify.title', { date: longDate(day.date, intlLocale(i18n.language)) }) : ''}
      centered
    >
      <Stack gap="md">
        <Title order={3} size="h5">
          {t('driver.certify.statement')}
        </Title>
        <Blockquote color="blue" p="sm" data-testid="certification-statement">
          {HOS_CERTIFICATION_STATEMENT}.
        </Blockquote>
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group grow>
          <Button variant="default" size="md" onClick={onClose}>
            {t('driver.certify.notReady')}
          </Button>
          <Button size="md" loading={sending} onClick={() => void agree()}>
            {t('driver.certify.agree')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
