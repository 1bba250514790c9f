import { useEffect, useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconAlertTriangle, IconCircleCheck, IconCloudUpload, IconWifiOff } from '@tabler/icons-react';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { useOnline } from '../../lib/online.ts';
import { keepDriverQueries } from '../../lib/kept-queries.ts';
import { dismissRecord, loadOutbox, ownRecords, useOutbox } from '../../lib/outbox.ts';
import { errorBodyWords } from '../../i18n/error-words.ts';

/** How long "Sent" stays once the waiting records went. */
const SENT_MS = 6_000;

/**
 * The device's network and the records it keeps (issue 44): offline, what is on screen is what was
 * last synced and the driver's records wait on the phone ("Offline: 3 records waiting"); back online
 * they are sent ("Sent"); one the server refused stays listed with its reason until read.
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useOnline();
  const user = useCurrentUser();
  const outbox = useOutbox();
  const mine = ownRecords(outbox, user?.id);
  const waiting = mine.filter((r) => r.state === 'WAITING').length;
  const refused = mine.filter((r) => r.state === 'REFUSED');
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    void loadOutbox();
    void keepDriverQueries();
  }, []);
  const sentAt = outbox.sent?.at ?? 0;
  useEffect(() => {
    if (!sentAt) return;
    setNow(Date.now());
    const timer = setTimeout(() => setNow(Date.now()), SENT_MS);
    return () => clearTimeout(timer);
  }, [sentAt]);
  const justSent = !!outbox.sent && waiting === 0 && now - outbox.sent.at < SENT_MS;

  let line = null;
  if (!online) {
    line = (
      <Alert
        color="orange"
        variant="light"
        radius={0}
        icon={<IconWifiOff size={18} aria-hidden />}
        role="status"
        data-testid="offline-banner"
        data-waiting={waiting}
        py={8}
      >
        {waiting > 0 ? t('offline.waiting', { count: waiting }) : t('offline.banner')}
      </Alert>
    );
  } else if (waiting > 0) {
    line = (
      <Alert
        color="blue"
        variant="light"
        radius={0}
        icon={<IconCloudUpload size={18} aria-hidden />}
        role="status"
        data-testid="offline-banner"
        data-waiting={waiting}
        py={8}
      >
        {outbox.sending ? t('offline.sending', { count: waiting }) : t('offline.toSend', { count: waiting })}
      </Alert>
    );
  } else if (justSent) {
    line = (
      <Alert
        color="green"
        variant="light"
        radius={0}
        icon={<IconCircleCheck size={18} aria-hidden />}
        role="status"
        data-testid="offline-banner"
        data-waiting={0}
        py={8}
      >
        {t('offline.sent', { count: outbox.sent!.count })}
      </Alert>
    );
  }
  return (
    <>
      {line}
      {refused.length > 0 && (
        <Alert
          color="red"
          variant="light"
          radius={0}
          icon={<IconAlertTriangle size={18} aria-hidden />}
          title={t('offline.refusedTitle', { count: refused.length })}
          data-testid="refused-records"
          py={8}
        >
          <Stack gap={6}>
            {refused.map((r) => (
              <Group key={r.id} justify="space-between" wrap="nowrap" align="flex-start">
                <Text size="sm">
                  <b>{r.label}</b>
                  {`: ${errorBodyWords(t, { code: r.reasonCode, message: r.reason ?? '', params: r.reasonParams })}`}
                </Text>
                <Button size="compact-sm" variant="subtle" color="red" onClick={() => void dismissRecord(r.id)}>
                  {t('offline.dismiss')}
                </Button>
              </Group>
            ))}
          </Stack>
        </Alert>
      )}
    </>
  );
}
