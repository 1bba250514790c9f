import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconBriefcase, IconClipboardCheck } from '@tabler/icons-react';
import type { Dvir, HosDriverStatus } from '@fleet/api-contract';
import { describeError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import type { useUnits } from '../../../lib/units.ts';
import { errorWords } from '../../../i18n/error-words.ts';
import { devicePosition } from './device-position.ts';
import { DvirReport } from './dvir-report.tsx';
import { kindNamed } from './dvir-words.ts';
import classes from './dvir-driver.module.css';

// A chunk of its own: the inspection card loads it once a report is signed (issue 67).

/** The log note of an inspection recorded as On duty: the carrier's and an officer's English, whatever the screen's language. */
const ANNOTATION = { PRE_TRIP: 'Pre-trip inspection', POST_TRIP: 'Post-trip inspection' } as const;

/** The report just signed, read-only, with the offer to record the inspection as On duty. */
export default function SignedReport({
  dvir,
  status,
  onDuty,
  units,
  onDone,
}: {
  orgId: string;
  dvir: Dvir;
  status: HosDriverStatus;
  /** Records On duty now with this note and place (the home screen's own status change). */
  onDuty: (change: { annotation: string; latitude?: number; longitude?: number; locationDescription?: string }) => Promise<void>;
  units: ReturnType<typeof useUnits>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const onNow = status.clocks.status === 'ON' && !status.clocks.special;
  const [offer, setOffer] = useState(!onNow && status.clocks.status !== 'D');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Without the truck's or the device's position the log needs a typed place (5 to 60 characters).
  const [askPlace, setAskPlace] = useState(false);
  const [place, setPlace] = useState((dvir.location ?? '').slice(0, 60));
  const annotation = ANNOTATION[dvir.kind];
  const accept = async () => {
    const typed = place.trim();
    if (askPlace && typed.length < 5) {
      setError(t('driver.change.locationShort', { min: 5 }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const device = dvir.latitude !== null && dvir.longitude !== null ? { latitude: dvir.latitude, longitude: dvir.longitude } : await devicePosition();
      await onDuty({ annotation, ...(device ?? {}), ...(typed.length >= 5 ? { locationDescription: typed } : {}) });
      notify({ type: 'success', timeout: 5000, title: t('driver.change.done', { status: t('duty.ON') }), category: kindNamed(t, dvir.kind) });
      setOffer(false);
    } catch (err) {
      const d = describeError(err);
      if (/location/i.test(`${d.title} ${d.details ?? ''}`)) setAskPlace(true);
      setError(errorWords(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm" data-testid="signed-report">
      <Alert color="green" variant="light" title={t('inspection.reportSigned')} icon={<IconClipboardCheck size={20} />}>
        {t('inspection.reportSignedBody')}
      </Alert>
      {offer && (
        <Alert color="orange" variant="light" icon={<IconBriefcase size={20} />} title={t('inspection.offerTitle')} data-testid="on-duty-offer">
          <Text size="sm" mb="sm">
            {t(status.clocks.status === 'SB' ? 'inspection.offer.SB' : status.clocks.status === 'ON' ? 'inspection.offer.special' : 'inspection.offer.OFF')}
          </Text>
          {askPlace && (
            <TextInput
              label={t('inspection.location')}
              description={t('inspection.noPosition')}
              size="md"
              maxLength={60}
              mb="xs"
              value={place}
              onChange={(e) => setPlace(e.currentTarget.value)}
            />
          )}
          {error && (
            <Text size="sm" c="var(--mantine-color-error)" mb="xs" role="alert">
              {error}
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            <Button size="md" fullWidth loading={busy} onClick={() => void accept()} classNames={{ root: classes.wrapButton, label: classes.wrapLabel }}>
              {t('inspection.changeOnDuty')}
            </Button>
            <Button size="md" fullWidth variant="default" onClick={() => setOffer(false)}>
              {t('inspection.notNow')}
            </Button>
          </SimpleGrid>
        </Alert>
      )}
      <DvirReport dvir={dvir} timeZone={status.driver.homeTimeZone} units={units} listPassed />
      <Button variant="default" size="md" onClick={onDone}>
        {t('common.done')}
      </Button>
    </Stack>
  );
}
