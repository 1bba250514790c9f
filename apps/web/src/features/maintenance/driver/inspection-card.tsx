import { Suspense, useEffect, useMemo, useState } from 'react';
import { Alert, Badge, Button, Collapse, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertOctagon, IconChevronDown, IconChevronUp, IconClipboardCheck, IconFlag, IconPlayerPlay } from '@tabler/icons-react';
import type { Defect, Dvir, DvirKind, HosDriverStatus, HosLogDay } from '@fleet/api-contract';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatDateTime, formatTime } from '../../../lib/dates.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useUnits } from '../../../lib/units.ts';
import { dvirListQuery } from '../dvir-api.ts';
import { itemWords } from './dvir-items.ts';
import { defectStatusWords, kindNamed, kindWords } from './dvir-words.ts';
import { lazyPart, useOnceTrue } from '../../../components/on-first-use.ts';
import classes from './dvir-driver.module.css';

// The inspection form (its inputs, the signature, the photos), a repair's review and the warning
// while driving load when needed, not with the home screen (issue 67).
const DvirForm = lazyPart(() => import('./dvir-form.tsx').then((m) => ({ default: m.DvirForm })));
const ReviewPrompt = lazyPart(() => import('./review-prompt.tsx').then((m) => ({ default: m.ReviewPrompt })));
const DrivingWarningDialog = lazyPart(() => import('./driving-warning-dialog.tsx'));
// The report read in full, and the one just signed with its offer of On duty, load when shown.
const DvirReport = lazyPart(() => import('./dvir-report.tsx').then((m) => ({ default: m.DvirReport })));
const SignedReport = lazyPart(() => import('./signed-report.tsx'));

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
export const reportsToReview = (reports: Dvir[]) =>
  reports.filter((r) => r.defects.length > 0 && r.review === null && r.defects.every((d) => d.status !== 'OPEN'));

export function DriverInspection({ orgId, status, day, onDuty }: DriverInspectionProps) {
  const { t } = useTranslation();
  const vehicle = status.vehicle;
  if (!vehicle) {
    return (
      <Paper withBorder radius="md" p="md" className={classes.card} data-testid="inspection-card">
        <Title order={2} size="h4" mb={4}>
          {t('inspection.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('inspection.noVehicle')}
        </Text>
      </Paper>
    );
  }
  return <VehicleInspection orgId={orgId} status={status} day={day} onDuty={onDuty} vehicle={vehicle} />;
}

function VehicleInspection({ orgId, status, day, onDuty, vehicle }: DriverInspectionProps & { vehicle: { id: string; unitNumber: string } }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
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
        <Suspense fallback={null}>
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
              notify({
                type: 'not-viewed',
                timeout: 8000,
                title: t('inspection.signed', { inspection: kindNamed(t, k) }),
                category: t('offline.kept', { time: formatTime(madeAt, tz, lng) }),
              });
            }}
            onSigned={(d) => {
              setKind(null);
              setSigned(d);
              notify({
                type: 'success',
                timeout: 5000,
                title: t('inspection.signed', { inspection: kindNamed(t, d.kind) }),
                category: d.hasDefects ? t('inspection.defectsSeen') : t('inspection.noDefectsReported'),
              });
            }}
          />
        </Suspense>
      </Paper>
    );
  }

  return (
    <Paper withBorder radius="md" p="md" className={classes.card} data-testid="inspection-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4">
            {t('inspection.titleUnit', { unit: vehicle.unitNumber })}
          </Title>
          <IconClipboardCheck size={22} aria-hidden />
        </Group>
        {unsafe.length > 0 && <UnsafeAlert unitNumber={vehicle.unitNumber} defects={unsafe} />}
        {signed ? (
          <Suspense fallback={null}>
            <SignedReport orgId={orgId} dvir={signed} status={status} onDuty={onDuty} units={units} onDone={() => setSigned(null)} />
          </Suspense>
        ) : (
          <>
            {last ? (
              <div data-testid="last-report">
                <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                  {drivenToday ? t('inspection.lastReport') : t('inspection.beforeYouDrive')}
                </Text>
                <Text size="sm" fw={500}>
                  {`${kindWords(t, last.kind)} · ${formatDateTime(last.inspectedAt, tz, lng)} · ${last.driver?.name ?? last.signature.name}`}
                </Text>
                <Group gap={6} mt={4}>
                  {last.defects.length === 0 ? (
                    <Badge color="green" variant="light">
                      {t('inspection.noDefects')}
                    </Badge>
                  ) : (
                    last.defects.map((d) => (
                      <Badge key={d.id} color={d.status === 'OPEN' ? 'red' : 'green'} variant="light" style={{ textTransform: 'none' }}>
                        {`${itemWords(t, d)}: ${defectStatusWords(t, d.status)}`}
                      </Badge>
                    ))
                  )}
                </Group>
                <Button
                  variant="subtle"
                  size="compact-sm"
                  px={0}
                  mt={4}
                  onClick={() => setShowLast((v) => !v)}
                  rightSection={showLast ? <IconChevronUp size={16} aria-hidden /> : <IconChevronDown size={16} aria-hidden />}
                  aria-expanded={showLast}
                >
                  {showLast ? t('inspection.hideReport') : t('inspection.readReport')}
                </Button>
                <Collapse expanded={showLast} keepMounted={false}>
                  <Suspense fallback={null}>
                    <DvirReport dvir={last} timeZone={tz} units={units} listPassed />
                  </Suspense>
                </Collapse>
              </div>
            ) : (
              latest.isSuccess && (
                <Text size="sm" c="dimmed">
                  {t('inspection.noReport')}
                </Text>
              )
            )}
            {toReview.length > 0 && (
              <Suspense fallback={null}>
                {toReview.map((r) => (
                  <ReviewPrompt key={r.id} orgId={orgId} dvir={r} driverName={driverName} timeZone={tz} />
                ))}
              </Suspense>
            )}
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Button size="lg" h={56} fz="md" leftSection={<IconPlayerPlay size={20} aria-hidden />} onClick={() => setKind('PRE_TRIP')}>
                {t('inspection.startPre')}
              </Button>
              <Button size="lg" h={56} fz="md" variant="light" leftSection={<IconFlag size={20} aria-hidden />} onClick={() => setKind('POST_TRIP')}>
                {t('inspection.startPost')}
              </Button>
            </SimpleGrid>
          </>
        )}
      </Stack>
      <DrivingWarning
        vehicleId={vehicle.id}
        unitNumber={vehicle.unitNumber}
        driving={status.moving || status.clocks.status === 'D'}
        defects={unsafe}
        date={status.today.date}
      />
    </Paper>
  );
}

const defectLine = (t: TFunction, d: Defect) => `${itemWords(t, d)}${d.note ? `: ${d.note}` : ''}`;

function UnsafeAlert({ unitNumber, defects }: { unitNumber: string; defects: Defect[] }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="red.9"
      variant="filled"
      icon={<IconAlertOctagon size={22} />}
      title={t('inspection.unsafeTitle', { unit: unitNumber })}
      data-testid="unsafe-alert"
    >
      <Stack gap={2}>
        {defects.map((d) => (
          <Text key={d.id} size="sm">
            {defectLine(t, d)}
          </Text>
        ))}
        <Text size="sm" mt={4}>
          {t('inspection.unsafeBody')}
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
function DrivingWarning({
  vehicleId,
  unitNumber,
  driving,
  defects,
  date,
}: {
  vehicleId: string;
  unitNumber: string;
  driving: boolean;
  defects: Defect[];
  date: string;
}) {
  const { t } = useTranslation();
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
  const used = useOnceTrue(open);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <DrivingWarningDialog opened={open} onClose={close} unitNumber={unitNumber} lines={defects.map((d) => ({ id: d.id, text: defectLine(t, d) }))} />
    </Suspense>
  );
}
