import { useEffect, useMemo, useState } from 'react';
import { Alert, Badge, Button, Collapse, Group, Modal, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertOctagon, IconBriefcase, IconChevronDown, IconChevronUp, IconClipboardCheck, IconFlag, IconPlayerPlay } from '@tabler/icons-react';
import type { Defect, Dvir, DvirKind, HosDriverStatus, HosLogDay } from '@fleet/api-contract';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatTime } from '../../../lib/dates.ts';
import { describeError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useUnits } from '../../../lib/units.ts';
import { dvirListQuery } from '../dvir-api.ts';
import { devicePosition } from './device-position.ts';
import { DvirForm } from './dvir-form.tsx';
import { DEFECT_STATUS_WORDS, DvirReport, KIND_WORDS } from './dvir-report.tsx';
import { ReviewPrompt } from './review-prompt.tsx';
import classes from './dvir-driver.module.css';

// The inspection on the driver's home screen (issue 31): the vehicle's last report before the first
// drive, the repair certifications to review, a red warning while a safety defect is open, and the
// pre-trip and post-trip inspections. After signing, On duty is offered (never set silently).

/** What the driver page gives the section: its status, today's log, and its own status change. */
export interface DriverInspectionProps {
  orgId: string;
  status: HosDriverStatus;
  /** Today's log (trailers, the latest odometer and place), null while it loads. */
  day: HosLogDay | null;
  /** Records On duty now with this note and place, as the driver page's status buttons do. */
  onDuty: (change: { annotation: string; latitude?: number; longitude?: number; locationDescription?: string }) => Promise<void>;
}

/** Reports read for the card: the latest, and those with defects (open ones, repairs to review). */
const WITH_DEFECTS = 50;

/** The open safety defects of a vehicle's reports, newest first, each once. */
export function openSafetyDefects(reports: Dvir[]): Defect[] {
  const seen = new Map<string, Defect>();
  for (const r of reports) for (const d of r.defects) if (d.safety && d.status === 'OPEN' && !seen.has(d.id)) seen.set(d.id, d);
  return [...seen.values()];
}

/** Reports whose defects are all certified and that no driver has reviewed yet (396.13(c)), newest first. */
export const reportsToReview = (reports: Dvir[]) => reports.filter((r) => r.defects.length > 0 && r.review === null && r.defects.every((d) => d.status !== 'OPEN'));

export function DriverInspection({ orgId, status, day, onDuty }: DriverInspectionProps) {
  const vehicle = status.vehicle;
  if (!vehicle) {
    return (
      <Paper withBorder radius="md" p="md" className={classes.card} data-testid="inspection-card">
        <Title order={2} size="h4" mb={4}>
          Vehicle inspection
        </Title>
        <Text size="sm" c="dimmed">
          No vehicle is assigned to you. Once your carrier assigns one, inspect it here before you drive.
        </Text>
      </Paper>
    );
  }
  return <VehicleInspection orgId={orgId} status={status} day={day} onDuty={onDuty} vehicle={vehicle} />;
}

function VehicleInspection({ orgId, status, day, onDuty, vehicle }: DriverInspectionProps & { vehicle: { id: string; unitNumber: string } }) {
  const { t } = useTranslation();
  const units = useUnits();
  const tz = status.driver.homeTimeZone;
  const latest = useQuery(dvirListQuery(orgId, { assetId: vehicle.id, size: 1 }));
  const withDefects = useQuery(dvirListQuery(orgId, { assetId: vehicle.id, hasDefects: true, size: WITH_DEFECTS }));
  const [kind, setKind] = useState<DvirKind | null>(null);
  const [signed, setSigned] = useState<Dvir | null>(null);
  const [showLast, setShowLast] = useState(false);
  const last = latest.data?.content[0] ?? null;
  const defectReports = withDefects.data?.content ?? [];
  const unsafe = openSafetyDefects(defectReports);
  const toReview = reportsToReview(defectReports).slice(0, 3);
  const driverName = `${status.driver.firstName} ${status.driver.lastName}`;
  const drivenToday = !!day?.segments.some((s) => s.status === 'D');

  // The latest odometer and place on today's log; else the last report's odometer.
  const prefill = useMemo(() => {
    const events = [...(day?.events ?? [])].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
    const odo = events.find((e) => e.odometerM !== null)?.odometerM;
    return { odometerKm: odo != null ? odo / 1000 : (last?.odometer ?? null), location: events.find((e) => e.locationDescription)?.locationDescription ?? '' };
  }, [day, last]);

  if (kind) {
    return (
      <Paper withBorder radius="md" p="md" className={classes.card} data-testid="inspection-card">
        <DvirForm
          orgId={orgId}
          kind={kind}
          vehicle={vehicle}
          trailers={(day?.header.trailers ?? []).map((t) => ({ id: t.id, unitNumber: t.unitNumber }))}
          driverName={driverName}
          units={units}
          odometerKm={prefill.odometerKm}
          location={prefill.location}
          onCancel={() => setKind(null)}
          onKept={(k, madeAt) => {
            setKind(null);
            notify({ type: 'not-viewed', timeout: 8000, title: `${KIND_WORDS[k]} inspection signed`, category: t('offline.kept', { time: formatTime(madeAt, tz) }) });
          }}
          onSigned={(d) => {
            setKind(null);
            setSigned(d);
            notify({ type: 'success', timeout: 5000, title: `${KIND_WORDS[d.kind]} inspection signed`, category: d.hasDefects ? 'Your carrier sees the defects now.' : 'No defects reported.' });
          }}
        />
      </Paper>
    );
  }

  return (
    <Paper withBorder radius="md" p="md" className={classes.card} data-testid="inspection-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4">
            {`Vehicle inspection · ${vehicle.unitNumber}`}
          </Title>
          <IconClipboardCheck size={22} aria-hidden />
        </Group>
        {unsafe.length > 0 && <UnsafeAlert unitNumber={vehicle.unitNumber} defects={unsafe} />}
        {signed ? (
          <SignedReport orgId={orgId} dvir={signed} status={status} onDuty={onDuty} units={units} onDone={() => setSigned(null)} />
        ) : (
          <>
            {last ? (
              <div data-testid="last-report">
                <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                  {drivenToday ? 'Last report' : 'Before you drive: the last report'}
                </Text>
                <Text size="sm" fw={500}>
                  {`${KIND_WORDS[last.kind]} · ${formatDateTime(last.inspectedAt, tz)} · ${last.driver?.name ?? last.signature.name}`}
                </Text>
                <Group gap={6} mt={4}>
                  {last.defects.length === 0 ? (
                    <Badge color="green" variant="light">
                      No defects
                    </Badge>
                  ) : (
                    last.defects.map((d) => (
                      <Badge key={d.id} color={d.status === 'OPEN' ? 'red' : 'green'} variant="light" style={{ textTransform: 'none' }}>
                        {`${d.label}: ${DEFECT_STATUS_WORDS[d.status]}`}
                      </Badge>
                    ))
                  )}
                </Group>
                <Button variant="subtle" size="compact-sm" px={0} mt={4} onClick={() => setShowLast((v) => !v)} rightSection={showLast ? <IconChevronUp size={16} aria-hidden /> : <IconChevronDown size={16} aria-hidden />} aria-expanded={showLast}>
                  {showLast ? 'Hide the report' : 'Read the report'}
                </Button>
                <Collapse expanded={showLast} keepMounted={false}>
                  <DvirReport dvir={last} timeZone={tz} units={units} listPassed />
                </Collapse>
              </div>
            ) : (
              latest.isSuccess && (
                <Text size="sm" c="dimmed">
                  No inspection report yet for this vehicle.
                </Text>
              )
            )}
            {toReview.map((r) => (
              <ReviewPrompt key={r.id} orgId={orgId} dvir={r} driverName={driverName} timeZone={tz} />
            ))}
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Button size="lg" h={56} fz="md" leftSection={<IconPlayerPlay size={20} aria-hidden />} onClick={() => setKind('PRE_TRIP')}>
                Start pre-trip
              </Button>
              <Button size="lg" h={56} fz="md" variant="light" leftSection={<IconFlag size={20} aria-hidden />} onClick={() => setKind('POST_TRIP')}>
                Start post-trip
              </Button>
            </SimpleGrid>
          </>
        )}
      </Stack>
      <DrivingWarning vehicleId={vehicle.id} unitNumber={vehicle.unitNumber} driving={status.moving || status.clocks.status === 'D'} defects={unsafe} date={status.today.date} />
    </Paper>
  );
}

const defectLine = (d: Defect) => `${d.label}${d.note ? `: ${d.note}` : ''}`;

function UnsafeAlert({ unitNumber, defects }: { unitNumber: string; defects: Defect[] }) {
  return (
    <Alert color="red.9" variant="filled" icon={<IconAlertOctagon size={22} />} title={`Do not drive ${unitNumber}: open safety defect`} data-testid="unsafe-alert">
      <Stack gap={2}>
        {defects.map((d) => (
          <Text key={d.id} size="sm">
            {defectLine(d)}
          </Text>
        ))}
        <Text size="sm" mt={4}>
          It must be repaired and certified before the vehicle runs again. Call your carrier.
        </Text>
      </Stack>
    </Alert>
  );
}

/**
 * Driving starts from the truck's motion (the status buttons cannot choose it): the moment it does with
 * an open safety defect, the driver is asked to acknowledge it, once a vehicle and day (the office is
 * notified by the server).
 */
function DrivingWarning({ vehicleId, unitNumber, driving, defects, date }: { vehicleId: string; unitNumber: string; driving: boolean; defects: Defect[]; date: string }) {
  const key = `dvir-driving-warned:${vehicleId}:${date}`;
  const [open, setOpen] = useState(false);
  const warn = driving && defects.length > 0;
  useEffect(() => {
    if (warn && sessionStorage.getItem(key) === null) setOpen(true);
  }, [warn, key]);
  const close = () => {
    sessionStorage.setItem(key, '1');
    setOpen(false);
  };
  return (
    <Modal opened={open} onClose={close} title={`${unitNumber} has an open safety defect`} centered size="sm">
      <Stack gap="sm">
        {defects.map((d) => (
          <Text key={d.id} fw={600}>
            {defectLine(d)}
          </Text>
        ))}
        <Text size="sm">The vehicle may not be driven until the defect is repaired and certified. Stop where it is safe and call your carrier; they have been told.</Text>
        <Button color="red" size="md" onClick={close}>
          I understand
        </Button>
      </Stack>
    </Modal>
  );
}

/** The report just signed, read-only, with the offer to record the inspection as On duty. */
function SignedReport({ dvir, status, onDuty, units, onDone }: { orgId: string; dvir: Dvir; status: HosDriverStatus; onDuty: DriverInspectionProps['onDuty']; units: ReturnType<typeof useUnits>; onDone: () => void }) {
  const onNow = status.clocks.status === 'ON' && !status.clocks.special;
  const [offer, setOffer] = useState(!onNow && status.clocks.status !== 'D');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Without the truck's or the device's position the log needs a typed place (5 to 60 characters).
  const [askPlace, setAskPlace] = useState(false);
  const [place, setPlace] = useState((dvir.location ?? '').slice(0, 60));
  const annotation = `${KIND_WORDS[dvir.kind]} inspection`;
  const accept = async () => {
    const typed = place.trim();
    if (askPlace && typed.length < 5) {
      setError('Location must be at least 5 characters');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const device = dvir.latitude !== null && dvir.longitude !== null ? { latitude: dvir.latitude, longitude: dvir.longitude } : await devicePosition();
      await onDuty({ annotation, ...(device ?? {}), ...(typed.length >= 5 ? { locationDescription: typed } : {}) });
      notify({ type: 'success', timeout: 5000, title: 'On duty from now', category: annotation });
      setOffer(false);
    } catch (err) {
      const d = describeError(err);
      if (/location/i.test(`${d.title} ${d.details ?? ''}`)) setAskPlace(true);
      setError(d.title);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm" data-testid="signed-report">
      <Alert color="green" variant="light" title="Report signed" icon={<IconClipboardCheck size={20} />}>
        It is stored as signed and can no longer be changed.
      </Alert>
      {offer && (
        <Alert color="orange" variant="light" icon={<IconBriefcase size={20} />} title="Record the inspection on your log?" data-testid="on-duty-offer">
          <Text size="sm" mb="sm">
            {`An inspection is On duty (not driving) time. You are ${status.clocks.status === 'SB' ? 'in the sleeper berth' : status.clocks.status === 'ON' ? 'on a special category' : 'off duty'} now.`}
          </Text>
          {askPlace && (
            <TextInput label="Location" description="Your device gives no position: type where you are" size="md" maxLength={60} mb="xs" value={place} onChange={(e) => setPlace(e.currentTarget.value)} />
          )}
          {error && (
            <Text size="sm" c="var(--mantine-color-error)" mb="xs" role="alert">
              {error}
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            <Button size="md" fullWidth loading={busy} onClick={() => void accept()} classNames={{ root: classes.wrapButton, label: classes.wrapLabel }}>
              Change to On duty (inspection)
            </Button>
            <Button size="md" fullWidth variant="default" onClick={() => setOffer(false)}>
              Not now
            </Button>
          </SimpleGrid>
        </Alert>
      )}
      <DvirReport dvir={dvir} timeZone={status.driver.homeTimeZone} units={units} listPassed />
      <Button variant="default" size="md" onClick={onDone}>
        Done
      </Button>
    </Stack>
  );
}
