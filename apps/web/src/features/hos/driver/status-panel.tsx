import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Alert, Button, Group, Loader, Modal, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notify } from '../../../lib/notifications-store.ts';
import { IconArmchair, IconBed, IconBriefcase, IconCar, IconHome, IconSteeringWheel, IconTruckLoading } from '@tabler/icons-react';
import { VEHICLE_FIX_FRESH_MS, type HosDriverStatus } from '@fleet/api-contract';
import { describeError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAgo } from '../availability/clock-format.ts';
import { useBrowserPosition } from './browser-position.ts';
import { sendRecord } from '../../../lib/outbox.ts';
import { formatTime } from '../../../lib/dates.ts';
import { statusChangePath } from './driver-api.ts';
import { errorWords } from '../../../i18n/error-words.ts';
import { useOnline } from '../../../lib/online.ts';
import classes from './driver.module.css';

type Choice = { status: 'OFF' | 'SB' | 'ON'; special: 'PC' | 'YM' | 'PASSENGER' | null };

const STATUS_COLORS = { OFF: 'gray', SB: 'violet', D: 'blue', ON: 'orange' } as const;

/** The name of a choice, as the buttons and the confirmation say it, in the driver's language. */
const choiceName = (t: TFunction, c: Pick<Choice, 'special'> & { status: Choice['status'] | 'D' }) => t(`duty.${c.special ?? c.status}`);

export interface StatusPanelProps {
  orgId: string;
  userId: string;
  status: HosDriverStatus;
  /** The clocks' instant plus the local tick: "since" ages with it. */
  now: number;
  /** Today's log has a co-driver: the team's passenger-seat choice is offered (49 CFR 395.1(g)(1)). Default false. */
  team?: boolean;
}

/**
 * The driver's current duty status and the big buttons to change it (decision 0115): Off duty,
 * Sleeper berth and On duty always; personal conveyance and yard moves when the driver record allows
 * them, the passenger seat to a team driver; Driving is shown but set by the vehicle's motion. Each
 * change asks for an optional note, and for a typed location only when neither the truck's device
 * (a recent fix, issue 46) nor the phone gives a position.
 */
export function StatusPanel({ orgId, userId, status, now, team = false }: StatusPanelProps) {
  const { t, i18n } = useTranslation();
  const [choice, setChoice] = useState<Choice | null>(null);
  const c = status.clocks;
  const current: Choice | null = c.status && c.status !== 'D' ? { status: c.status, special: c.special } : null;
  const same = (x: Choice) => !!current && current.status === x.status && current.special === x.special;
  const choices: Array<Choice & { icon: typeof IconHome }> = [
    { status: 'OFF', special: null, icon: IconHome },
    { status: 'SB', special: null, icon: IconBed },
    { status: 'ON', special: null, icon: IconBriefcase },
    ...(status.driver.personalConveyanceAllowed ? [{ status: 'OFF' as const, special: 'PC' as const, icon: IconCar }] : []),
    ...(status.driver.yardMovesAllowed ? [{ status: 'ON' as const, special: 'YM' as const, icon: IconTruckLoading }] : []),
    ...(team ? [{ status: 'OFF' as const, special: 'PASSENGER' as const, icon: IconArmchair }] : []),
  ];
  const label = c.status ? choiceName(t, { status: c.status, special: c.special }) : t('duty.none');

  return (
    <Paper withBorder radius="md" p="md" className={classes.card}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Text size="sm" c="dimmed">
              {t('driver.currentStatus')}
            </Text>
            <Title order={2} size="h2" data-testid="current-status" data-status={c.status ?? 'NONE'}>
              {label}
            </Title>
            {c.since && (
              <Text size="sm" c="dimmed">
                {t('driver.since', {
                  duration: now - Date.parse(c.since) < 60_000 ? t('driver.justNow') : formatAgo(now - Date.parse(c.since)).replace(/ ago$/, ''),
                  time: formatDateTime(c.since, status.driver.homeTimeZone, i18n.language),
                })}
              </Text>
            )}
          </div>
          <span
            className={classes.statusDot}
            style={{ background: `var(--mantine-color-${c.status ? STATUS_COLORS[c.status] : 'gray'}-filled)` }}
            aria-hidden
          />
        </Group>
        {status.moving && (
          <Alert color="blue" variant="light" icon={<IconSteeringWheel size={18} />} title={t('driver.movingTitle')}>
            {t('driver.movingBody')}
          </Alert>
        )}
        <SimpleGrid cols={2} spacing="sm" role="group" aria-label={t('driver.changeGroup')}>
          {choices.map((x) => (
            <Button
              key={`${x.status}-${x.special ?? ''}`}
              size="lg"
              fz="md"
              h={84}
              variant="default"
              data-selected={same(x) || undefined}
              leftSection={<x.icon size={20} aria-hidden />}
              // The status in force is shown pressed; choosing it again changes nothing.
              onClick={() => !same(x) && setChoice(x)}
              disabled={status.moving}
              aria-pressed={same(x)}
              className={classes.statusButton}
              classNames={{ label: classes.buttonLabel, inner: classes.buttonInner, section: classes.buttonSection }}
            >
              {choiceName(t, x)}
            </Button>
          ))}
          <Button
            size="lg"
            fz="md"
            h={84}
            variant="default"
            data-selected={c.status === 'D' || undefined}
            leftSection={<IconSteeringWheel size={20} aria-hidden />}
            disabled
            aria-describedby="driving-note"
            className={classes.statusButton}
            classNames={{ label: classes.buttonLabel, inner: classes.buttonInner, section: classes.buttonSection }}
          >
            {t('duty.D')}
          </Button>
        </SimpleGrid>
        <Text id="driving-note" size="xs" c="dimmed">
          {t('driver.drivingNote')}
        </Text>
      </Stack>
      <ChangeModal
        orgId={orgId}
        userId={userId}
        logId={status.today.id}
        timeZone={status.driver.homeTimeZone}
        vehiclePositionAt={status.vehiclePositionAt}
        choice={choice}
        onClose={() => setChoice(null)}
      />
    </Paper>
  );
}

/** Shortest typed location (ELD Appendix A 7.9: a manual location is 5 to 60 characters). */
const LOCATION_MIN = 5;

interface ChangeModalProps {
  orgId: string;
  userId: string;
  logId: string;
  timeZone: string;
  /** When the truck's device last reported (HosDriverStatus.vehiclePositionAt); null: no recent fix. */
  vehiclePositionAt: string | null;
  choice: Choice | null;
  onClose: () => void;
}

function ChangeModal({ orgId, userId, logId, timeZone, vehiclePositionAt, choice, onClose }: ChangeModalProps) {
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
