import { useMemo, useState, type ComponentType } from 'react';
import { Alert, Badge, Button, Group, Modal, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { notify } from '../../lib/notifications-store.ts';
import { IconDownload, IconMail } from '@tabler/icons-react';
import { HOS_EVENT_TYPES, type HosEvent, type HosLogDay } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { describeError } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { formatDistance, formatOdometer, useUnits, type UnitSystem } from '../../lib/units.ts';
import { downloadEldFile, driverDayQuery, driverStatusQuery, useRoadsideDays, useSendEldFile } from './driver/driver-api.ts';
import { useOnline } from '../../lib/online.ts';
import { GraphGrid } from './graph-grid/graph-grid.tsx';
import { withVersions } from './logs/event-order.ts';
import { LogHeader } from './logs/log-header.tsx';
import { clockSecondsIn, eventName, formatEngineHours, longDate, ORIGIN_NAMES, zoneAbbreviation } from './logs/log-format.ts';
import classes from './driver/driver.module.css';

/** The vehicle inspection reports section (issue 31): the app composes it from the maintenance feature. */
export interface DriverInspectionPageProps {
  /** Shown under the log days (none: no section). */
  reports?: ComponentType<{ orgId: string; vehicle: { id: string; unitNumber: string } | null; timeZone: string }>;
}

/**
 * The roadside inspection view (Appendix A 4.8.1, decision 0115): read-only, large enough to read on a
 * phone handed through the window: today and the previous 7 days, each with its header, graph grid,
 * events and certification state; and the ELD output file, downloaded or sent by e-mail.
 */
export default function DriverInspectionPage({ reports: Reports }: DriverInspectionPageProps = {}) {
  const orgId = useEffectiveOrganizationId() ?? '';
  const user = useCurrentUser();
  const userId = user?.id ?? '';
  const status = useQuery({ ...driverStatusQuery(orgId, userId), enabled: !!orgId && !!userId });
  const today = status.data?.status.today;
  const period = useRoadsideDays(orgId, userId, today);
  const online = useOnline();
  const [picked, setPicked] = useState<string | null>(null);
  const days = period.data?.days ?? [];
  const selected = picked ?? today?.id ?? null;
  const driver = status.data?.status.driver;

  return (
    <div className={`${classes.page} ${classes.inspection}`}>
      <PageHeader
        title="Roadside inspection"
        description={driver ? `${driver.firstName} ${driver.lastName} · licence ${driver.licenseState ?? ''} ${driver.licenseNumber ?? ''} · today and the previous 7 days` : 'Today and the previous 7 days'}
        breadcrumbs={[{ label: 'My day', to: '/driver' }, { label: 'Roadside inspection' }]}
      />
      {/* What was last synced stays on screen without signal, labelled with when that was. */}
      <DataState isLoading={status.isLoading || period.isLoading} error={status.data && period.data ? null : (status.error ?? period.error)} onRetry={() => void period.refetch()}>
        <Stack gap="md">
          {!online && period.dataUpdatedAt > 0 && (
            <Alert color="orange" variant="light" data-testid="roadside-synced">
              {`Offline: these records were last synced ${formatDateTime(period.dataUpdatedAt, driver?.homeTimeZone)}${driver ? ` (${zoneAbbreviation(new Date(period.dataUpdatedAt).toISOString(), driver.homeTimeZone)})` : ''}.`}
            </Alert>
          )}
          {driver && <EldFilePanel orgId={orgId} driverId={driver.id} />}
          {days.length > 0 && (
            <div className={classes.dayPicker}>
              <SegmentedControl
                aria-label="Log day"
                size="md"
                value={selected ?? ''}
                onChange={setPicked}
                data={[...days].reverse().map((d) => ({ value: d.id, label: d.id === today?.id ? 'Today' : longDate(d.date).split(',')[0]!.slice(0, 3) + ' ' + d.date.slice(8) }))}
              />
            </div>
          )}
          {selected && <InspectionDay orgId={orgId} userId={userId} logId={selected} />}
          {!selected && !status.isLoading && <Text c="dimmed">No records in the last 8 days.</Text>}
          {Reports && status.data && <Reports orgId={orgId} vehicle={status.data.status.vehicle} timeZone={status.data.status.driver.homeTimeZone} />}
        </Stack>
      </DataState>
    </div>
  );
}

function EldFilePanel({ orgId, driverId }: { orgId: string; driverId: string }) {
  const [comment, setComment] = useState('');
  const [downloading, setDownloading] = useState(false);
  const [mailing, setMailing] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      const name = await downloadEldFile(orgId, driverId, comment.trim());
      notify({ type: 'success', timeout: 5000, title: 'ELD output file downloaded', category: name });
    } catch {
      // The API client has shown the error.
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Paper withBorder radius="md" p="md" className={classes.card}>
      <Title order={2} size="h4" mb="xs">
        ELD output file
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Today and the previous 7 days, as 49 CFR 395 Appendix A 4.8.2 asks. Give the officer's output file comment if they named one.
      </Text>
      <Stack gap="sm">
        <TextInput label="Output file comment" description="Up to 60 characters, from the officer" maxLength={60} value={comment} onChange={(e) => setComment(e.currentTarget.value)} size="md" />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Button size="lg" leftSection={<IconDownload size={20} aria-hidden />} loading={downloading} onClick={() => void download()}>
            Download file
          </Button>
          <Button size="lg" variant="light" leftSection={<IconMail size={20} aria-hidden />} onClick={() => setMailing(true)}>
            Send by e-mail
          </Button>
        </SimpleGrid>
      </Stack>
      <SendModal orgId={orgId} driverId={driverId} comment={comment} opened={mailing} onClose={() => setMailing(false)} />
    </Paper>
  );
}

function SendModal({ orgId, driverId, comment, opened, onClose }: { orgId: string; driverId: string; comment: string; opened: boolean; onClose: () => void }) {
  const send = useSendEldFile(orgId, driverId);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setError('Email must be a valid email address');
      return;
    }
    try {
      const sent = await send.mutateAsync({ email: email.trim(), ...(comment.trim() ? { comment: comment.trim() } : {}) });
      notify({ type: 'success', timeout: 5000, title: 'ELD output file sent', category: `${sent.fileName}.csv to ${sent.sentTo}` });
      setError(null);
      onClose();
    } catch (err) {
      setError(describeError(err).title);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Send the ELD output file" centered size="sm">
      <Stack gap="sm">
        <TextInput label="Officer's e-mail" type="email" inputMode="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={error} size="md" data-autofocus />
        <Group grow>
          <Button variant="default" size="md" onClick={onClose}>
            Cancel
          </Button>
          <Button size="md" loading={send.isPending} onClick={() => void submit()}>
            Send
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function InspectionDay({ orgId, userId, logId }: { orgId: string; userId: string; logId: string }) {
  const day = useQuery(driverDayQuery(orgId, userId, logId));
  return (
    <DataState isLoading={day.isLoading} error={day.data ? null : day.error} onRetry={() => void day.refetch()}>
      {day.data && <DayView day={day.data} />}
    </DataState>
  );
}

function DayView({ day }: { day: HosLogDay }) {
  const units = useUnits();
  const h = day.header;
  const tz = h.timeZone;
  const now = Date.now();
  const live = now >= Date.parse(day.dayStart) && now < Date.parse(day.dayEnd);
  const gridDay = useMemo(() => ({ date: h.date, start: day.dayStart, lengthMs: day.totals.lengthMs }), [h.date, day.dayStart, day.totals.lengthMs]);
  // Passenger-seat time is drawn as the OFF duty it is: the grid sets only PC and YM apart (Appendix A 4.8.1.3).
  const segments = useMemo(() => day.segments.map((s) => ({ status: s.status, start: s.start, end: s.end, special: s.special === 'PASSENGER' ? undefined : (s.special ?? undefined) })), [day.segments]);
  const c = day.certification;
  return (
    <Stack gap="md" data-testid="inspection-day" data-date={h.date}>
      <Paper withBorder radius="md" p="md" className={classes.card}>
        <Group justify="space-between" mb="sm" gap="xs">
          <Title order={2} size="h3">
            {longDate(h.date)}
          </Title>
          <Badge size="lg" variant="light" color={c.certified ? 'green' : live ? 'gray' : 'orange'} data-testid="inspection-certification">
            {c.certified ? `Certified${c.certifiedAt ? ` ${formatDateTime(c.certifiedAt, tz)}` : ''}` : live ? 'Not yet certified' : 'Not certified'}
          </Badge>
        </Group>
        <LogHeader day={day} units={units} />
      </Paper>
      <Paper withBorder radius="md" p="md" className={classes.card}>
        <Title order={2} size="h4" mb="sm">
          Graph grid
        </Title>
        <GraphGrid day={gridDay} segments={segments} violations={day.violations} timeZone={tz} now={live ? new Date(now) : undefined} />
      </Paper>
      {day.diagnostics.length > 0 && (
        <Alert color="orange" variant="light" title="Malfunctions and data diagnostics">
          {day.diagnostics.map((d) => (
            <Text key={d.id} size="sm">{`${d.name} (${d.code}), ${formatDateTime(d.loggedAt, tz)}${d.clearedAt ? ` to ${formatDateTime(d.clearedAt, tz)}` : ', in force'}`}</Text>
          ))}
        </Alert>
      )}
      <Paper withBorder radius="md" p="md" className={classes.card}>
        <Title order={2} size="h4" mb="sm">
          Events
        </Title>
        <InspectionEvents events={day.events} timeZone={tz} units={units} />
      </Paper>
    </Stack>
  );
}

const STATUS_WORDS: Record<HosEvent['recordStatus'], string | null> = {
  ACTIVE: null,
  INACTIVE_CHANGED: 'Replaced',
  INACTIVE_CHANGE_REQUESTED: 'Proposed edit, pending',
  INACTIVE_CHANGE_REJECTED: 'Proposed edit, rejected',
};

/** The day's events as a list a phone shows without scrolling sideways: time, event, origin, place, note. */
function InspectionEvents({ events, timeZone, units }: { events: HosEvent[]; timeZone: string; units: UnitSystem }) {
  if (events.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No events recorded on this day.
      </Text>
    );
  }
  return (
    <Stack gap={0} component="ol" aria-label="Events" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {withVersions(events).map((e) => {
        const note = STATUS_WORDS[e.recordStatus];
        return (
          <li key={e.id} className={classes.fact} style={{ padding: '8px 0', borderBottom: '1px solid var(--mantine-color-default-border)', opacity: e.recordStatus === 'ACTIVE' ? 1 : 0.75 }}>
            <Group gap="xs" wrap="nowrap" align="baseline">
              <Text ff="monospace" fw={600} style={{ whiteSpace: 'nowrap' }}>
                {`${clockSecondsIn(e.at, timeZone)} ${zoneAbbreviation(e.at, timeZone)}`}
              </Text>
              <Text fw={600} td={e.recordStatus === 'ACTIVE' ? undefined : 'line-through'}>
                {eventName(e)}
              </Text>
              {note && (
                <Badge size="sm" variant="outline" color="gray">
                  {note}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              {[
                ORIGIN_NAMES[e.recordOrigin],
                e.locationDescription,
                e.vehicle ? `Truck ${e.vehicle.unitNumber}` : null,
                // Engine and login records carry the truck's total miles and engine hours (decision 0155).
                e.eventType === HOS_EVENT_TYPES.ENGINE_POWER || e.eventType === HOS_EVENT_TYPES.LOGIN_LOGOUT ? formatOdometer(e.odometerM === null ? null : e.odometerM / 1000, units) : null,
                e.eventType === HOS_EVENT_TYPES.ENGINE_POWER || e.eventType === HOS_EVENT_TYPES.LOGIN_LOGOUT ? formatEngineHours(e.engineHours) : null,
                // Duty-status records: distance and engine hours since the truck's engine power-up, as the ELD file has them.
                e.sincePowerUp && (e.sincePowerUp.distanceM !== null || e.sincePowerUp.engineHours !== null)
                  ? `${formatDistance(e.sincePowerUp.distanceM, units)}, ${formatEngineHours(e.sincePowerUp.engineHours)} since engine power-up`
                  : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
            {e.annotation && <Text size="sm">{`“${e.annotation}”`}</Text>}
          </li>
        );
      })}
    </Stack>
  );
}
