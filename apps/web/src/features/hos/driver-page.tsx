import { Suspense, useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Button, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { IconAlertTriangle, IconShieldCheck } from '@tabler/icons-react';
import type { HosDriverStatus, HosLogDay } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { lazyPart } from '../../components/on-first-use.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useNow } from './availability/live-clocks.ts';
import { driverDayQuery, driverStatusQuery, useChangeStatus, useRoadsideDays, type DriverStatusAt } from './driver/driver-api.ts';
import { DriverClocks } from './driver/driver-clocks.tsx';
import { useClocksWithChanges, waitingChanges } from './driver/offline-clocks.ts';
import { useOutbox } from '../../lib/outbox.ts';
import { EngineEvents } from './driver/engine-events.tsx';
import { StatusPanel } from './driver/status-panel.tsx';
import { TripDetails } from './driver/trip-details.tsx';
import { GraphGrid } from './graph-grid/graph-grid.tsx';
import { useCrossingMarkers, useDayCrossings } from './logs/log-crossings-data.ts';
import { useDayDeclarations, useDeclarationMarkers } from './logs/log-declarations-data.ts';
import classes from './driver/driver.module.css';

// The other tabs (days to certify, proposed edits, driving to claim) load when opened (issue 67).
// A day's border crossings (issue 72) load when the day has one: most drivers never cross.
const LogCrossings = lazyPart(() => import('./logs/log-crossings.tsx').then((m) => ({ default: m.LogCrossings })));
// A day's declarations (cycle switch, adverse conditions, emergency) load when it has one or the driver declares.
const LogDeclarations = lazyPart(() => import('./logs/log-declarations.tsx').then((m) => ({ default: m.LogDeclarations })));
const CertifyDays = lazyPart(() => import('./driver/certify-days.tsx').then((m) => ({ default: m.CertifyDays })));
const ProposalsList = lazyPart(() => import('./driver/proposals-list.tsx').then((m) => ({ default: m.ProposalsList })));
const UnidentifiedList = lazyPart(() => import('./driver/unidentified-list.tsx').then((m) => ({ default: m.UnidentifiedList })));

/** How often the clocks move on screen between two answers of the server. */
const TICK_MS = 5_000;

/** The vehicle inspection section's inputs (issue 31): the app composes it from the maintenance feature. */
export interface DriverInspectionSlotProps {
  orgId: string;
  status: HosDriverStatus;
  day: HosLogDay | null;
  /** Records On duty now with a note (an inspection), as the status buttons do. */
  onDuty: (change: { annotation: string; latitude?: number; longitude?: number; locationDescription?: string }) => Promise<void>;
}

export interface DriverPageProps {
  /** The vehicle inspection card, shown under the clocks (none: no card). */
  inspection?: ComponentType<DriverInspectionSlotProps>;
  /** The driver's loads card (issue 33), shown under the clocks (none: no card). */
  loads?: ComponentType<{ orgId: string }>;
  /** The driver's messages card (issue 44): unread from dispatch and the way to the conversation. */
  messages?: ComponentType<{ orgId: string }>;
  /** The driver's safety card (issue 47): their score, recent events and coaching to acknowledge. */
  safety?: ComponentType<{ orgId: string }>;
  /** The driver's papers (issue 71): a warning when the medical certificate or licence runs out, and the way to send a renewal. */
  compliance?: ComponentType<{ orgId: string; driverId: string }>;
}

/**
 * The driver's screen on a phone in the cab (issue 16, decision 0115): status and the buttons to
 * change it, the four clocks counting down, today's graph grid and trip, and what waits for the
 * driver: days to certify, the office's proposed edits, unidentified driving to claim.
 */
export default function DriverPage({ inspection, loads, messages, safety, compliance }: DriverPageProps = {}) {
  const { t } = useTranslation();
  const orgId = useEffectiveOrganizationId() ?? '';
  const user = useCurrentUser();
  const userId = user?.id ?? '';
  const status = useQuery({ ...driverStatusQuery(orgId, userId), enabled: !!orgId && !!userId });
  return (
    <div className={classes.page}>
      <PageHeader
        title={user ? (user.firstName ? t('driver.hello', { name: user.firstName }) : t('driver.helloDefault')) : t('driver.title')}
        description={t('driver.description')}
        actions={
          <Button component={Link} to="/driver/inspection" variant="light" leftSection={<IconShieldCheck size={18} aria-hidden />}>
            {t('driver.roadside')}
          </Button>
        }
      />
      {/* What was last synced stays on screen when a refresh fails (no signal). */}
      <DataState isLoading={status.isLoading} error={status.data ? null : status.error} onRetry={() => void status.refetch()}>
        {status.data && (
          <DriverDay
            orgId={orgId}
            userId={userId}
            data={status.data}
            inspection={inspection}
            loads={loads}
            messages={messages}
            safety={safety}
            compliance={compliance}
          />
        )}
      </DataState>
    </div>
  );
}

function DriverDay({
  orgId,
  userId,
  data,
  inspection: Inspection,
  loads: Loads,
  messages: Messages,
  safety: Safety,
  compliance: Compliance,
}: {
  orgId: string;
  userId: string;
  data: DriverStatusAt;
  inspection?: DriverPageProps['inspection'];
  loads?: DriverPageProps['loads'];
  messages?: DriverPageProps['messages'];
  safety?: DriverPageProps['safety'];
  compliance?: DriverPageProps['compliance'];
}) {
  const { t } = useTranslation();
  const now = useNow(TICK_MS);
  // Changes not yet sent (no signal): the phone shows them and counts the clocks itself (issue 44).
  const outbox = useOutbox();
  const changes = useMemo(
    () =>
      waitingChanges(
        outbox.records.filter((r) => r.userId === userId),
        data.at,
      ),
    [outbox, userId, data.at],
  );
  // A change made since the last tick is already in force: the clocks' now is never before it.
  const clockNow = Math.max(now, data.at, ...changes.map((c) => c.at));
  const localClocks = useClocksWithChanges(data.status, changes, clockNow);
  const s = localClocks ? { ...data.status, clocks: localClocks } : data.status;
  const day = useQuery(driverDayQuery(orgId, userId, s.today.id));
  // The roadside view's 8 days kept in the cache, so it opens without signal (issue 44).
  useRoadsideDays(orgId, userId, s.today);
  const change = useChangeStatus(orgId, userId);
  const onDuty: DriverInspectionSlotProps['onDuty'] = async ({ annotation, ...where }) => {
    await change.mutateAsync({ logId: s.today.id, body: { status: 'ON', special: null, annotation, ...where } });
  };
  const tz = s.driver.homeTimeZone;
  const d = day.data;
  const gridDay = useMemo(() => (d ? { date: d.header.date, start: d.dayStart, lengthMs: d.totals.lengthMs } : null), [d]);
  // Passenger-seat time is drawn as the OFF duty it is: the grid sets only PC and YM apart (Appendix A 4.8.1.3).
  const segments = useMemo(
    () =>
      d
        ? d.segments.map((x) => ({
            status: x.status,
            start: x.start,
            end: x.end,
            special: x.special === 'PASSENGER' || x.special === 'WAITING' ? undefined : (x.special ?? undefined),
          }))
        : [],
    [d],
  );
  // Border crossings (issue 72): marked on today's grid and listed under it, for the driver to correct.
  const crossingsOwner = useMemo(() => ({ userId }), [userId]);
  const crossings = useDayCrossings(d ? orgId : '', crossingsOwner, d?.dayStart ?? '', d?.dayEnd ?? '');
  const crossingMarkers = useCrossingMarkers(crossings, tz);
  // Declarations (issue 72): the driver's explicit choice, marked on the grid and listed under it.
  const declarations = useDayDeclarations(d ? orgId : '', crossingsOwner, d?.dayStart ?? '', d?.dayEnd ?? '');
  const declarationMarkers = useDeclarationMarkers(declarations, tz);
  const markers = useMemo(() => [...crossingMarkers, ...declarationMarkers], [crossingMarkers, declarationMarkers]);
  const [declaring, setDeclaring] = useState(false);
  const count = (n: number) =>
    n > 0 ? (
      <Badge size="sm" circle color="red" aria-label={t('driver.tabs.waiting', { count: n })}>
        {n}
      </Badge>
    ) : undefined;

  return (
    <Stack gap="md">
      {s.diagnostics.length > 0 && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={20} />} title={t('driver.diagnosticsTitle')} data-testid="driver-diagnostics">
          {s.diagnostics.map((x) => (
            <Text key={x.id} size="sm">
              {`${x.name}${x.detail ? `: ${x.detail}` : ''}`}
            </Text>
          ))}
          <Text size="sm" mt={4}>
            {t('driver.diagnosticsBody')}
          </Text>
        </Alert>
      )}
      {Compliance && <Compliance orgId={orgId} driverId={s.driver.id} />}
      <StatusPanel orgId={orgId} userId={userId} status={s} now={Math.max(now, data.at)} team={!!d?.header.coDriver} />
      <DriverClocks clocks={s.clocks} at={localClocks ? clockNow : data.at} now={clockNow} />
      {Messages && <Messages orgId={orgId} />}
      {Loads && <Loads orgId={orgId} />}
      {Inspection && <Inspection orgId={orgId} status={s} day={day.data ?? null} onDuty={onDuty} />}
      {Safety && <Safety orgId={orgId} />}
      <Tabs defaultValue="today" keepMounted={false}>
        <Tabs.List grow>
          <Tabs.Tab value="today">{t('driver.tabs.today')}</Tabs.Tab>
          <Tabs.Tab value="certify" rightSection={count(s.uncertifiedDays.length)}>
            {t('driver.tabs.certify')}
          </Tabs.Tab>
          <Tabs.Tab value="edits" rightSection={count(s.pendingProposals)}>
            {t('driver.tabs.edits')}
          </Tabs.Tab>
          <Tabs.Tab value="unidentified" rightSection={count(s.unidentifiedSegments)} aria-label={t('driver.tabs.claimLabel')}>
            {t('driver.tabs.claim')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="today" pt="md">
          <DataState isLoading={day.isLoading} error={d ? null : day.error} onRetry={() => void day.refetch()}>
            {d && gridDay && (
              <Stack gap="md">
                <Paper withBorder radius="md" p="md" className={classes.card}>
                  <Group justify="space-between" mb="sm">
                    <Title order={2} size="h4">
                      {t('driver.log.title')}
                    </Title>
                    <Badge variant="light" color={d.certification.certified ? 'green' : 'gray'}>
                      {d.certification.certified ? t('driver.log.certified') : t('driver.log.notCertified')}
                    </Badge>
                  </Group>
                  <GraphGrid
                    day={gridDay}
                    segments={segments}
                    violations={d.violations}
                    timeZone={tz}
                    now={new Date(Math.max(now, data.at))}
                    markers={markers}
                  />
                  {declarations.length === 0 && !declaring && (
                    <Group justify="flex-end" mt="xs">
                      <Button size="compact-sm" variant="default" onClick={() => setDeclaring(true)} data-testid="declare-open">
                        {t('driver.declarations.declare')}
                      </Button>
                    </Group>
                  )}
                </Paper>
                {(declarations.length > 0 || declaring) && (
                  <Paper withBorder radius="md" p="md" className={classes.card}>
                    <Title order={2} size="h4" mb="sm">
                      {t('driver.declarations.title')}
                    </Title>
                    <Suspense fallback={null}>
                      <LogDeclarations
                        orgId={orgId}
                        owner={crossingsOwner}
                        ruleset={s.driver.ruleset}
                        dayStart={d.dayStart}
                        dayEnd={d.dayEnd}
                        timeZone={tz}
                        canEdit
                        startDeclaring={declaring}
                      />
                    </Suspense>
                  </Paper>
                )}
                {crossings.length > 0 && (
                  <Paper withBorder radius="md" p="md" className={classes.card}>
                    <Title order={2} size="h4" mb="sm">
                      {t('driver.crossings.title')}
                    </Title>
                    <Suspense fallback={null}>
                      <LogCrossings orgId={orgId} owner={crossingsOwner} dayStart={d.dayStart} dayEnd={d.dayEnd} timeZone={tz} canEdit />
                    </Suspense>
                  </Paper>
                )}
                <EngineEvents events={d.events} timeZone={tz} />
                <TripDetails orgId={orgId} userId={userId} day={d} vehicle={s.vehicle} />
              </Stack>
            )}
          </DataState>
        </Tabs.Panel>
        <Tabs.Panel value="certify" pt="md">
          <Suspense fallback={null}>
            <CertifyDays
              orgId={orgId}
              userId={userId}
              days={s.uncertifiedDays}
              today={s.today}
              todayCertified={d?.certification.certified ?? false}
              timeZone={tz}
            />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="edits" pt="md">
          <Suspense fallback={null}>
            <ProposalsList orgId={orgId} userId={userId} timeZone={tz} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="unidentified" pt="md">
          <Suspense fallback={null}>
            <UnidentifiedList orgId={orgId} userId={userId} timeZone={tz} />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
