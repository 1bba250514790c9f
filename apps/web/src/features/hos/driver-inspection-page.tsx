import { useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { notify } from '../../lib/notifications-store.ts';
import { IconDownload, IconMail, IconSend } from '@tabler/icons-react';
import { HOS_EVENT_TYPES, isCanadianRuleset, type HosDeclaration, type HosEvent, type HosLogDay, type RoadsideCaDay } from '@fleet/api-contract';
import type { TFunction } from 'i18next';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { useCan } from '../../lib/registry-api.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { formatDistance, formatOdometer, useUnits, type UnitSystem } from '../../lib/units.ts';
import { downloadEldFile, driverDayQuery, driverStatusQuery, useRoadsideDays, useSendEldFile } from './driver/driver-api.ts';
import { useOnline } from '../../lib/online.ts';
import { GraphGrid } from './graph-grid/graph-grid.tsx';
import { withVersions } from './logs/event-order.ts';
import { LogHeader } from './logs/log-header.tsx';
import { useDayDeclarations } from './logs/log-declarations-data.ts';
import { EldTransferHistory, SendToFmcsaModal } from './eld-transfer/send-to-fmcsa.tsx';
import { clockSecondsIn, formatEngineHours, longDate, zoneAbbreviation } from './logs/log-format.ts';
import { eventWords } from './driver/event-words.ts';
import { intlLocale, LANGUAGES } from '../../i18n/i18n.ts';
import { OfficerEmailModal } from './officer-email-modal.tsx';
import { roadsideCaQuery } from './roadside-ca/roadside-ca-api.ts';
import { CanadianLogHeader, RoadsideCaDays, RoadsideCaPanel } from './roadside-ca/roadside-ca-view.tsx';
import classes from './driver/driver.module.css';

/** "Tue 20" for a log date in the driver's language. */
function dayLabel(date: string, lng: string): string {
  if (lng === 'en') return longDate(date).split(',')[0]!.slice(0, 3) + ' ' + date.slice(8);
  return new Intl.DateTimeFormat(intlLocale(lng), { timeZone: 'UTC', weekday: 'short', day: 'numeric' }).format(new Date(`${date}T00:00:00Z`));
}

/** The vehicle inspection reports section (issue 31): the app composes it from the maintenance feature. */
export interface DriverInspectionPageProps {
  /** Shown under the log days (none: no section). */
  reports?: ComponentType<{ orgId: string; vehicle: { id: string; unitNumber: string } | null; timeZone: string }>;
}

/**
 * The roadside inspection view (Appendix A 4.8.1, decision 0115): read-only, large enough to read on a
 * phone handed through the window: today and the previous 7 days, each with its header, graph grid,
 * events and certification state; and the ELD output file, downloaded or sent by e-mail. A driver on a
 * Canadian ruleset gets Canada's display instead (issue 72, decision 0316): the daily log's header with
 * the cycle totals, today and the previous 14 days, and their PDF, downloaded or sent by e-mail.
 */
export default function DriverInspectionPage({ reports: Reports }: DriverInspectionPageProps = {}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const orgId = useEffectiveOrganizationId() ?? '';
  const user = useCurrentUser();
  const userId = user?.id ?? '';
  const status = useQuery({ ...driverStatusQuery(orgId, userId), enabled: !!orgId && !!userId });
  const today = status.data?.status.today;
  const period = useRoadsideDays(orgId, userId, today);
  const online = useOnline();
  const [picked, setPicked] = useState<string | null>(null);
  // The records an officer reads in the driver's language, or in English for an officer who reads
  // only that (decision 0247); what the driver works stays in the driver's language.
  const [officerLng, setOfficerLng] = useState<string | null>(null);
  const recordsLng = officerLng ?? lng;
  const days = period.data?.days ?? [];
  const selected = picked ?? today?.id ?? null;
  const driver = status.data?.status.driver;
  const canadian = !!driver && isCanadianRuleset(driver.ruleset);
  const ca = useQuery({ ...roadsideCaQuery(orgId, userId, driver?.id ?? ''), enabled: canadian && !!orgId });
  const caDays = canadian ? (ca.data?.days ?? []) : [];
  const caSelected = caDays.find((d) => d.id === selected) ?? null;
  const pickDate = (date: string) => setPicked(caDays.find((d) => d.date === date)?.id ?? null);

  return (
    <div className={`${classes.page} ${classes.inspection}`}>
      <PageHeader
        title={t('roadside.title')}
        description={
          driver
            ? t(canadian ? 'roadsideCa.descriptionDriver' : 'roadside.descriptionDriver', {
                name: `${driver.firstName} ${driver.lastName}`,
                licence: `${driver.licenseState ?? ''} ${driver.licenseNumber ?? ''}`,
              })
            : t('roadside.description')
        }
        breadcrumbs={[{ label: t('nav.myDay'), to: '/driver' }, { label: t('roadside.title') }]}
      />
      {/* What was last synced stays on screen without signal, labelled with when that was. */}
      <DataState
        isLoading={status.isLoading || period.isLoading || (canadian && ca.isLoading)}
        error={status.data && period.data && (!canadian || ca.data) ? null : (status.error ?? period.error ?? ca.error)}
        onRetry={() => void (canadian ? ca.refetch() : period.refetch())}
      >
        <Stack gap="md">
          {!online && period.dataUpdatedAt > 0 && (
            <Alert color="orange" variant="light" data-testid="roadside-synced">
              {t('roadside.synced', {
                time: `${formatDateTime(period.dataUpdatedAt, driver?.homeTimeZone, lng)}${driver ? ` (${zoneAbbreviation(new Date(period.dataUpdatedAt).toISOString(), driver.homeTimeZone, lng)})` : ''}`,
              })}
            </Alert>
          )}
          {driver && canadian && <RoadsideCaPanel orgId={orgId} driver={driver} date={caSelected?.date ?? ca.data?.date ?? today?.date ?? ''} />}
          {driver && !canadian && <EldFilePanel orgId={orgId} driverId={driver.id} />}
          {driver && !canadian && online && <EldTransferHistory orgId={orgId} driverId={driver.id} lng={lng} />}
          {lng !== 'en' && days.length > 0 && (
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" id="records-language">
                {t('roadside.recordsIn')}
              </Text>
              <SegmentedControl
                aria-labelledby="records-language"
                size="sm"
                value={recordsLng}
                onChange={setOfficerLng}
                data={[
                  { value: lng, label: LANGUAGES.find((l) => l.code === lng)?.name ?? lng },
                  // The language's own name, marked as English for screen readers.
                  { value: 'en', label: <span lang="en">English</span> },
                ]}
              />
            </Group>
          )}
          {ca.data && canadian && <RoadsideCaDays view={ca.data} selected={caSelected?.date ?? null} onSelect={pickDate} lng={recordsLng} />}
          {!canadian && days.length > 0 && (
            <div className={classes.dayPicker}>
              <SegmentedControl
                aria-label={t('roadside.logDay')}
                size="md"
                value={selected ?? ''}
                onChange={setPicked}
                data={[...days].reverse().map((d) => ({ value: d.id, label: d.id === today?.id ? t('driver.tabs.today') : dayLabel(d.date, lng) }))}
              />
            </div>
          )}
          {selected && (!canadian || caSelected) && (
            <InspectionDay orgId={orgId} userId={userId} logId={selected} lng={recordsLng} ca={caSelected ?? undefined} />
          )}
          {!selected && !status.isLoading && <Text c="dimmed">{t('roadside.noRecords')}</Text>}
          {Reports && status.data && <Reports orgId={orgId} vehicle={status.data.status.vehicle} timeZone={status.data.status.driver.homeTimeZone} />}
        </Stack>
      </DataState>
    </div>
  );
}

function EldFilePanel({ orgId, driverId }: { orgId: string; driverId: string }) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [downloading, setDownloading] = useState(false);
  const [mailing, setMailing] = useState(false);
  const [sendingToFmcsa, setSendingToFmcsa] = useState(false);
  const canSend = useCan('HOS_SELF_WRITE');
  const download = async () => {
    setDownloading(true);
    try {
      const name = await downloadEldFile(orgId, driverId, comment.trim());
      notify({ type: 'success', timeout: 5000, title: t('roadside.downloaded'), category: name });
    } catch {
      // The API client has shown the error.
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Paper withBorder radius="md" p="md" className={classes.card}>
      <Title order={2} size="h4" mb="xs">
        {t('roadside.file')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('roadside.fileBody')}
      </Text>
      <Stack gap="sm">
        <TextInput
          label={t('roadside.comment')}
          description={t('roadside.commentHelp')}
          maxLength={60}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
          size="md"
        />
        {/* A submission on the driver's behalf: HOS_SELF_WRITE, as the API asks (issue 66). */}
        {canSend && (
          <Button size="lg" leftSection={<IconSend size={20} aria-hidden />} onClick={() => setSendingToFmcsa(true)}>
            {t('fmcsa.send')}
          </Button>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Button size="lg" variant="light" leftSection={<IconDownload size={20} aria-hidden />} loading={downloading} onClick={() => void download()}>
            {t('roadside.download')}
          </Button>
          <Button size="lg" variant="light" leftSection={<IconMail size={20} aria-hidden />} onClick={() => setMailing(true)}>
            {t('roadside.sendByEmail')}
          </Button>
        </SimpleGrid>
      </Stack>
      <SendModal orgId={orgId} driverId={driverId} comment={comment} opened={mailing} onClose={() => setMailing(false)} />
      <SendToFmcsaModal orgId={orgId} driverId={driverId} initialComment={comment} opened={sendingToFmcsa} onClose={() => setSendingToFmcsa(false)} />
    </Paper>
  );
}

function SendModal({ orgId, driverId, comment, opened, onClose }: { orgId: string; driverId: string; comment: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const send = useSendEldFile(orgId, driverId);
  return (
    <OfficerEmailModal
      opened={opened}
      onClose={onClose}
      title={t('roadside.sendTitle')}
      label={t('roadside.officerEmail')}
      pending={send.isPending}
      send={async (email) => {
        const sent = await send.mutateAsync({ email, ...(comment.trim() ? { comment: comment.trim() } : {}) });
        return { title: t('roadside.sent'), category: t('roadside.sentTo', { file: `${sent.fileName}.csv`, email: sent.sentTo }) };
      }}
    />
  );
}

function InspectionDay({ orgId, userId, logId, lng, ca }: { orgId: string; userId: string; logId: string; lng: string; ca?: RoadsideCaDay }) {
  const day = useQuery(driverDayQuery(orgId, userId, logId));
  return (
    <DataState isLoading={day.isLoading} error={day.data ? null : day.error} onRetry={() => void day.refetch()}>
      {day.data && <DayView day={day.data} lng={lng} ca={ca} orgId={orgId} userId={userId} />}
    </DataState>
  );
}

/** One day's records, their words in `lng` (the driver's language, or English for an officer); `ca`: Canada's header and cycle totals. */
function DayView({ day, lng, ca, orgId, userId }: { day: HosLogDay; lng: string; ca?: RoadsideCaDay; orgId: string; userId: string }) {
  const { i18n } = useTranslation();
  const t = i18n.getFixedT(lng);
  // What the driver declared (issue 72: cycle switch, adverse conditions, emergency): shown to the officer.
  const owner = useMemo(() => ({ userId }), [userId]);
  const declarations = useDayDeclarations(orgId, owner, day.dayStart, day.dayEnd);
  const units = useUnits();
  const h = day.header;
  const tz = h.timeZone;
  const now = Date.now();
  const live = now >= Date.parse(day.dayStart) && now < Date.parse(day.dayEnd);
  const gridDay = useMemo(() => ({ date: h.date, start: day.dayStart, lengthMs: day.totals.lengthMs }), [h.date, day.dayStart, day.totals.lengthMs]);
  // Passenger-seat time is drawn as the OFF duty it is: the grid sets only PC and YM apart (Appendix A 4.8.1.3).
  const segments = useMemo(
    () =>
      day.segments.map((s) => ({
        status: s.status,
        start: s.start,
        end: s.end,
        special: s.special === 'PASSENGER' || s.special === 'WAITING' ? undefined : (s.special ?? undefined),
      })),
    [day.segments],
  );
  const c = day.certification;
  return (
    <Stack gap="md" data-testid="inspection-day" data-date={h.date}>
      <Paper withBorder radius="md" p="md" className={classes.card}>
        <Group justify="space-between" mb="sm" gap="xs">
          <Title order={2} size="h3">
            {longDate(h.date, intlLocale(lng))}
          </Title>
          <Badge size="lg" variant="light" color={c.certified ? 'green' : live ? 'gray' : 'orange'} data-testid="inspection-certification">
            {c.certified
              ? c.certifiedAt
                ? t('roadside.certifiedAt', { time: formatDateTime(c.certifiedAt, tz, lng) })
                : t('driver.log.certified')
              : live
                ? t('driver.log.notCertified')
                : t('roadside.notCertified')}
          </Badge>
        </Group>
        {ca ? <CanadianLogHeader day={day} summary={ca} lng={lng} /> : <LogHeader day={day} units={units} lng={lng} />}
        {day.personalConveyance && (
          <Text size="sm" mt="xs" c={day.personalConveyance.overKm > 0 ? 'orange' : undefined} data-testid="inspection-pc">
            {`${t('driver.pc.title', { km: Math.round(day.personalConveyance.km * 10) / 10 })}${
              day.personalConveyance.overKm > 0
                ? ` · ${t('driver.pc.over', { over: Math.round(day.personalConveyance.overKm * 10) / 10, limit: day.personalConveyance.limitKm })}`
                : ''
            }`}
          </Text>
        )}
      </Paper>
      <Paper withBorder radius="md" p="md" className={classes.card}>
        <Title order={2} size="h4" mb="sm">
          {t('roadside.graph')}
        </Title>
        <GraphGrid
          day={gridDay}
          segments={segments}
          violations={day.violations}
          timeZone={tz}
          now={live ? new Date(now) : undefined}
          markers={declarations.map((x) => ({ at: x.at, label: `${declarationWhat(x, t)}, ${formatDateTime(x.at, tz, lng)}` }))}
        />
      </Paper>
      {declarations.length > 0 && (
        <Paper withBorder radius="md" p="md" className={classes.card} data-testid="inspection-declarations">
          <Title order={2} size="h4" mb="sm">
            {t('driver.declarations.title')}
          </Title>
          <Stack gap="xs">
            {declarations.map((x) => (
              <Stack key={x.id} gap={2}>
                <Text size="sm" fw={600}>
                  {`${formatDateTime(x.at, tz, lng)}${x.until ? ` – ${formatDateTime(x.until, tz, lng)}` : ''} · ${declarationWhat(x, t)}`}
                </Text>
                <Text size="sm">{t(`driver.declarations.rule.${x.kind}`)}</Text>
                <Text size="sm">{`“${x.annotation}”`}</Text>
              </Stack>
            ))}
          </Stack>
        </Paper>
      )}
      {day.diagnostics.length > 0 && (
        <Alert color="orange" variant="light" title={t('roadside.diagnostics')}>
          {day.diagnostics.map((d) => (
            <Text key={d.id} size="sm">
              {d.clearedAt
                ? t('roadside.diagnosticCleared', {
                    name: d.name,
                    code: d.code,
                    from: formatDateTime(d.loggedAt, tz, lng),
                    to: formatDateTime(d.clearedAt, tz, lng),
                  })
                : t('roadside.diagnosticInForce', { name: d.name, code: d.code, from: formatDateTime(d.loggedAt, tz, lng) })}
            </Text>
          ))}
        </Alert>
      )}
      <Paper withBorder radius="md" p="md" className={classes.card}>
        <Title order={2} size="h4" mb="sm">
          {t('roadside.events')}
        </Title>
        <InspectionEvents events={day.events} timeZone={tz} units={units} lng={lng} />
      </Paper>
    </Stack>
  );
}

/** A declaration's name in the viewer's words: "Switch to cycle 2", "Adverse driving conditions", "Emergency". */
function declarationWhat(x: HosDeclaration, t: TFunction): string {
  return x.kind === 'CYCLE_SWITCH' ? t('driver.declarations.switchTo', { cycle: x.cycle }) : t(`driver.declarations.kind.${x.kind}`);
}

/** The day's events as a list a phone shows without scrolling sideways: time, event, origin, place, note. */
function InspectionEvents({ events, timeZone, units, lng }: { events: HosEvent[]; timeZone: string; units: UnitSystem; lng: string }) {
  const { i18n } = useTranslation();
  const t = i18n.getFixedT(lng);
  if (events.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('roadside.noEvents')}
      </Text>
    );
  }
  return (
    <Stack gap={0} component="ol" aria-label={t('roadside.events')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {withVersions(events).map((e) => {
        const note = e.recordStatus === 'ACTIVE' ? null : t(`events.record.${e.recordStatus}`);
        return (
          <li
            key={e.id}
            className={classes.fact}
            style={{ padding: '8px 0', borderBottom: '1px solid var(--mantine-color-default-border)', opacity: e.recordStatus === 'ACTIVE' ? 1 : 0.75 }}
          >
            <Group gap="xs" wrap="nowrap" align="baseline">
              <Text ff="monospace" fw={600} style={{ whiteSpace: 'nowrap' }}>
                {`${clockSecondsIn(e.at, timeZone, lng)} ${zoneAbbreviation(e.at, timeZone, lng)}`}
              </Text>
              <Text fw={600} td={e.recordStatus === 'ACTIVE' ? undefined : 'line-through'}>
                {eventWords(t, e)}
              </Text>
              {note && (
                <Badge size="sm" variant="outline" color="gray">
                  {note}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              {[
                t(`events.origin.${e.recordOrigin}`),
                e.locationDescription,
                e.vehicle ? t('common.truck', { unit: e.vehicle.unitNumber }) : null,
                // Engine and login records carry the truck's total miles and engine hours (decision 0155).
                e.eventType === HOS_EVENT_TYPES.ENGINE_POWER || e.eventType === HOS_EVENT_TYPES.LOGIN_LOGOUT
                  ? formatOdometer(e.odometerM === null ? null : e.odometerM / 1000, units, lng)
                  : null,
                e.eventType === HOS_EVENT_TYPES.ENGINE_POWER || e.eventType === HOS_EVENT_TYPES.LOGIN_LOGOUT ? formatEngineHours(e.engineHours, lng) : null,
                // Duty-status records: distance and engine hours since the truck's engine power-up, as the ELD file has them.
                e.sincePowerUp && (e.sincePowerUp.distanceM !== null || e.sincePowerUp.engineHours !== null)
                  ? t('roadside.sincePowerUp', {
                      distance: formatDistance(e.sincePowerUp.distanceM, units, lng),
                      hours: formatEngineHours(e.sincePowerUp.engineHours, lng),
                    })
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
