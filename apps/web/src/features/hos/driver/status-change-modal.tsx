import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Loader, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { VEHICLE_FIX_FRESH_MS } from '@fleet/api-contract/hos-driver';
import { notify } from '../../../lib/notifications-store.ts';
import { describeError } from '../../../lib/api-client.ts';
import { formatTime } from '../../../lib/dates.ts';
import { sendRecord } from '../../../lib/outbox.ts';
import { useOnline } from '../../../lib/online.ts';
import { errorWords } from '../../../i18n/error-words.ts';
import { useBrowserPosition } from './browser-position.ts';
import { statusChangePath } from './driver-api.ts';
import { choiceName, type Choice } from './status-choice.ts';

// A chunk of its own, loaded on the first tap of a status (status-panel.tsx, issue 67).

/** Shortest typed location (ELD Appendix A 7.9: a manual location is 5 to 60 characters). */
const LOCATION_MIN = 5;

export interface ChangeModalProps {
  orgId: string;
  userId: string;
  logId: string;
  timeZone: string;
  /** When the truck's device last reported (HosDriverStatus.vehiclePositionAt); null: no recent fix. */
  vehiclePositionAt: string | null;
  choice: Choice | null;
  onClose: () => void;
}

/** The confirmation of a status change: an optional note, and a typed location when no position is known. */
export default function ChangeModal({ orgId, userId, logId, timeZone, vehiclePositionAt, choice, onClose }: ChangeModalProps) {
  const { t, i18n } = useTranslation();
  const [sending, setSending] = useState(false);
  const online = useOnline();
  // The truck's device reported recently and the change goes out now: the server locates it at that
  // fix (the ELD's own position), so neither the phone's position nor a typed place is asked for.
  const truckLocated = online && vehiclePositionAt !== null && Date.now() - Date.parse(vehiclePositionAt) < VEHICLE_FIX_FRESH_MS;
  const where = useBrowserPosition(choice !== null && !truckLocated);
  const [note, setNote] = useState('');
  const [location, setLocation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [locationError, setLocationError] = useState<string | null>(null);
  // The server may know no position either (no truck fix): it then names the location, and the field shows.
  const [askLocation, setAskLocation] = useState(false);
  // Waiting for the device's position after Confirm (at most the browser's timeout).
  const [locating, setLocating] = useState(false);
  const typed = askLocation || (!truckLocated && where.state === 'unavailable');
  const close = () => {
    setNote('');
    setLocation('');
    setError(null);
    setLocationError(null);
    setAskLocation(false);
    onClose();
  };
  const submit = async () => {
    if (!choice) return;
    // The change happens when the driver confirms it: sent now or later, it is recorded at this time.
    const madeAt = Date.now();
    const annotation = note.trim() || null;
    if (annotation !== null && annotation.length < 4) {
      setError(t('driver.change.noteShort'));
      return;
    }
    const fromTruck = truckLocated && !askLocation;
    setLocating(!typed && !fromTruck);
    const position = typed || fromTruck ? where.position : await where.wait();
    setLocating(false);
    const place = location.trim();
    if (!fromTruck && !position && place.length < LOCATION_MIN) {
      setAskLocation(true);
      setLocationError(place ? t('driver.change.locationShort', { min: LOCATION_MIN }) : t('driver.change.locationRequired'));
      return;
    }
    setSending(true);
    try {
      const body = {
        status: choice.status,
        special: choice.special,
        annotation,
        recordedAt: new Date(madeAt).toISOString(),
        ...(place ? { locationDescription: place } : {}),
        ...(position ? { latitude: position.latitude, longitude: position.longitude } : {}),
      };
      const time = formatTime(madeAt, timeZone, i18n.language);
      const out = await sendRecord({ kind: 'STATUS', madeAt, label: `${choiceName(t, choice)} · ${time}`, path: statusChangePath(orgId, userId, logId), body });
      if (out.sent)
        notify({ type: 'success', timeout: 5000, title: t('driver.change.done', { status: choiceName(t, choice) }), category: t('driver.change.recorded') });
      else
        notify({ type: 'not-viewed', timeout: 6000, title: t('driver.change.done', { status: choiceName(t, choice) }), category: t('offline.kept', { time }) });
      close();
    } catch (err) {
      const d = describeError(err);
      if (/locationDescription|location/i.test(`${d.title} ${d.details ?? ''}`)) {
        setAskLocation(true);
        setLocationError(errorWords(t, err));
      } else setError(errorWords(t, err));
    } finally {
      setSending(false);
    }
  };
  return (
    <Modal opened={choice !== null} onClose={close} title={choice ? t('driver.change.title', { status: choiceName(t, choice) }) : ''} centered size="sm">
      <Stack gap="sm">
        <Text size="sm">{typed ? t('driver.change.startsNow') : truckLocated ? t('driver.change.startsNowAtTruck') : t('driver.change.startsNowAt')}</Text>
        {where.state === 'locating' && !typed && !truckLocated && (
          <Group gap="xs" aria-live="polite">
            <Loader size="xs" aria-hidden />
            <Text size="sm" c="dimmed">
              {t('driver.change.locating')}
            </Text>
          </Group>
        )}
        {typed && (
          <TextInput
            label={t('driver.change.location')}
            description={t('driver.change.locationHelp')}
            required
            maxLength={60}
            value={location}
            onChange={(e) => {
              setLocation(e.currentTarget.value);
              setLocationError(null);
            }}
            error={locationError}
            data-autofocus
          />
        )}
        <Textarea
          label={t('driver.change.note')}
          description={t('driver.change.noteHelp')}
          maxLength={60}
          autosize
          minRows={2}
          value={note}
          onChange={(e) => {
            setNote(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          data-autofocus={typed ? undefined : true}
        />
        <Group grow>
          <Button variant="default" size="md" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button size="md" loading={sending || locating} onClick={() => void submit()}>
            {t('common.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
