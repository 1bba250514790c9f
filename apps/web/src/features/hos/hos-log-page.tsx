import { useEffect, useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { IconChevronLeft, IconChevronRight, IconDownload, IconPrinter, IconSend } from '@tabler/icons-react';
import { isCanadianRuleset, type HosEvent, type HosLogDay } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useUnits } from '../../lib/units.ts';
import { GraphGrid } from './graph-grid/graph-grid.tsx';
import { hosLogDayQuery } from './hos-logs-api.ts';
import { EventEditModal } from './logs/event-edit-modal.tsx';
import { diagnosticSubject, driverName, longDate, rulesetName } from './logs/log-format.ts';
import { LogEvents } from './logs/log-events.tsx';
import { LogHeader } from './logs/log-header.tsx';
import { LogDayFindings, LogViolations } from './logs/log-violations.tsx';
import { LogCrossings } from './logs/log-crossings.tsx';
import { useCrossingMarkers, useDayCrossings } from './logs/log-crossings-data.ts';
import { LogDeclarations } from './logs/log-declarations.tsx';
import { useDayDeclarations, useDeclarationMarkers } from './logs/log-declarations-data.ts';
import { EldTransferHistory, SendToFmcsaModal } from './eld-transfer/send-to-fmcsa.tsx';
import { downloadEldFile } from './driver/driver-api.ts';
import { downloadRoadsideCaPdf } from './roadside-ca/roadside-ca-api.ts';
import { notify } from '../../lib/notifications-store.ts';
import tones from '../../components/badge-tones.module.css';
import classes from './logs/log-page.module.css';
import { useSearchParams } from '../../lib/search-params.ts';

/** The present, refreshed every minute while the page is open (the live day's line grows). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(t);
  }, []);
  return now;
}

/** The conversation with the log's driver (issue 44): the app composes it from the messages feature. */
export type LogMessagesSlot = ComponentType<{ driverId: string; driverName: string }>;

/** A driver's record of duty status for one log day, as an inspector reads it; prints on one Letter page. */
export default function HosLogPage({ messages }: { messages?: LogMessagesSlot } = {}) {
  const { id = '' } = useParams();
  const orgId = useEffectiveOrganizationId();
  const [params] = useSearchParams();
  const day = useQuery({ ...hosLogDayQuery(orgId ?? '', id), enabled: !!orgId && !!id });
  const atParam = params.get('at');
  const at = atParam && !Number.isNaN(Date.parse(atParam)) ? Date.parse(atParam) : undefined;

  return (
    <div className={classes.page}>
      <DataState isLoading={day.isLoading} error={day.error} onRetry={() => void day.refetch()}>
        {day.data ? <LogDayView day={day.data} orgId={orgId ?? ''} at={at} messages={messages} /> : <PageHeader title="Driver log" />}
      </DataState>
    </div>
  );
}

function LogDayView({ day, orgId, at, messages: Messages }: { day: HosLogDay; orgId: string; at?: number; messages?: LogMessagesSlot }) {
  const { t } = useTranslation();
  const units = useUnits();
  const canEdit = useCan('HOS_EDIT');
  const now = useNow();
  const [editing, setEditing] = useState<HosEvent | null>(null);
  const [sendingToFmcsa, setSendingToFmcsa] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const h = day.header;
  // Issue 46: the safety manager downloads any driver's ELD output file here (HOS_READ, as the page):
  // the 8 days ending with this log day, the period an officer asks for.
  const download = async () => {
    setDownloading(true);
    try {
      const file = await downloadEldFile(orgId, h.driver.id, '', h.date);
      notify({ type: 'success', timeout: 5000, title: 'ELD output file downloaded', category: file });
    } catch {
      // The API client toasts the server's words (a value the file cannot hold: 409).
    } finally {
      setDownloading(false);
    }
  };
  // Issue 72: a Canadian driver's daily log of this day and the 14 before it, as the officer gets it.
  const [downloadingCa, setDownloadingCa] = useState(false);
  const downloadCa = async () => {
    setDownloadingCa(true);
    try {
      const file = await downloadRoadsideCaPdf(orgId, h.driver.id, h.date, `${h.driver.lastName}-${h.driver.firstName}`);
      notify({ type: 'success', timeout: 5000, title: 'Canadian daily log downloaded', category: file });
    } catch {
      // The API client has shown the error.
    } finally {
      setDownloadingCa(false);
    }
  };
  const tz = h.timeZone;
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
  const name = driverName(h.driver);
  // Border crossings (issue 72): marked on the grid, listed with the rules on each side.
  const crossingsOwner = useMemo(() => ({ driverId: h.driver.id }), [h.driver.id]);
  const crossings = useDayCrossings(orgId, crossingsOwner, day.dayStart, day.dayEnd);
  const crossingMarkers = useCrossingMarkers(crossings, tz);
  // Declarations (issue 72: cycle switches, adverse conditions, emergencies): marked and listed too.
  const declarations = useDayDeclarations(orgId, crossingsOwner, day.dayStart, day.dayEnd);
  const declarationMarkers = useDeclarationMarkers(declarations, tz);
  const markers = useMemo(() => [...crossingMarkers, ...declarationMarkers], [crossingMarkers, declarationMarkers]);

  // A violation link (`?at=`) scrolls to the moment once the day is on screen.
  useEffect(() => {
    if (at === undefined) return;
    document.querySelector('[data-highlight]')?.scrollIntoView({ block: 'center' });
  }, [at, day.id]);

  const dayLink = (ref: HosLogDay['previous'], label: string, icon: 'prev' | 'next') => {
    const content = icon === 'prev' ? { leftSection: <IconChevronLeft size={16} /> } : { rightSection: <IconChevronRight size={16} /> };
    return ref ? (
      <Button component={Link} to={`/hos/logs/${ref.id}`} variant="default" size="sm" {...content}>
        {label}
      </Button>
    ) : (
      <Button variant="default" size="sm" disabled {...content}>
        {label}
      </Button>
    );
  };

  return (
    <>
      <PageHeader
        title={`${name}, ${longDate(h.date)}`}
        description={`Record of duty status · ${rulesetName(h.ruleset)}${live ? ' · today, in progress' : ''}`}
        breadcrumbs={[{ label: 'HoS Logs', to: `/hos/logs?date=${h.date}` }, { label: `${name} ${h.date}` }]}
        actions={
          <Group gap="xs" className={classes.noPrint}>
            {dayLink(day.previous, 'Previous day', 'prev')}
            {dayLink(day.next, 'Next day', 'next')}
            <Button variant="light" size="sm" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
              Print
            </Button>
            <Button variant="light" size="sm" leftSection={<IconDownload size={16} />} loading={downloading} onClick={() => void download()}>
              Download ELD file
            </Button>
            {isCanadianRuleset(h.ruleset) && (
              <Button variant="light" size="sm" leftSection={<IconDownload size={16} />} loading={downloadingCa} onClick={() => void downloadCa()}>
                Canadian daily log (PDF)
              </Button>
            )}
            {/* A submission on the driver's behalf: HOS_EDIT, as the API asks (issue 66). */}
            {canEdit && (
              <Button variant="light" size="sm" leftSection={<IconSend size={16} />} onClick={() => setSendingToFmcsa(true)}>
                Send to FMCSA
              </Button>
            )}
          </Group>
        }
      />
      <Stack gap="md">
        <Paper withBorder radius="md" p="md" className={classes.section}>
          <Group justify="space-between" mb="sm" gap="xs">
            <Title order={2} size="h4">
              Header
            </Title>
            <Certification certification={day.certification} live={live} timeZone={tz} />
          </Group>
          <LogHeader day={day} units={units} />
        </Paper>

        <Paper withBorder radius="md" p="md" className={`${classes.section} ${classes.grid}`}>
          <Title order={2} size="h4" mb="sm">
            Graph grid
          </Title>
          <GraphGrid day={gridDay} segments={segments} violations={day.violations} timeZone={tz} now={live ? new Date(now) : undefined} markers={markers} />
        </Paper>

        {day.diagnostics.length > 0 && (
          <Alert color="orange" variant="light" title="ELD malfunctions and data diagnostics" className={classes.section} data-testid="log-diagnostics">
            {day.diagnostics.map((d) => (
              <Text
                key={d.id}
                size="sm"
              >{`${diagnosticSubject(d)}: ${d.name} (${d.code}), ${formatDateTime(d.loggedAt, tz)}${d.clearedAt ? ` to ${formatDateTime(d.clearedAt, tz)}` : ', in force'}${d.detail ? `. ${d.detail}` : ''}`}</Text>
            ))}
          </Alert>
        )}

        <Paper withBorder radius="md" p="md" className={classes.section}>
          <Title order={2} size="h4" mb="sm">
            {`Violations (${day.violations.length + day.dayFindings.length})`}
          </Title>
          <LogDayFindings findings={day.dayFindings} />
          {day.personalConveyance && (
            <Alert
              color={day.personalConveyance.overKm > 0 ? 'orange' : 'gray'}
              variant="light"
              mb="sm"
              title={t('driver.pc.title', { km: kmText(day.personalConveyance.km) })}
              data-testid="log-pc"
            >
              {day.personalConveyance.overKm > 0
                ? t('driver.pc.over', { over: kmText(day.personalConveyance.overKm), limit: day.personalConveyance.limitKm })
                : day.personalConveyance.limitKm !== null
                  ? t('driver.pc.within', { limit: day.personalConveyance.limitKm })
                  : t('driver.pc.noLimit')}
            </Alert>
          )}
          <LogViolations violations={day.violations} timeZone={tz} at={at} />
        </Paper>

        <Paper withBorder radius="md" p="md" className={`${classes.section} ${classes.printIfAny}`}>
          <Title order={2} size="h4" mb="sm">
            Border crossings
          </Title>
          <LogCrossings orgId={orgId} owner={crossingsOwner} dayStart={day.dayStart} dayEnd={day.dayEnd} timeZone={tz} canEdit={canEdit} />
        </Paper>

        <Paper withBorder radius="md" p="md" className={`${classes.section} ${classes.printIfAny}`}>
          <Title order={2} size="h4" mb="sm">
            {t('driver.declarations.title')}
          </Title>
          <LogDeclarations
            orgId={orgId}
            owner={crossingsOwner}
            ruleset={h.ruleset}
            dayStart={day.dayStart}
            dayEnd={day.dayEnd}
            timeZone={tz}
            canEdit={canEdit}
          />
        </Paper>

        <Paper withBorder radius="md" p="md" className={classes.section}>
          <Title order={2} size="h4" mb="sm">
            Events
          </Title>
          <LogEvents events={day.events} timeZone={tz} units={units} at={at} onEdit={canEdit ? setEditing : undefined} />
        </Paper>

        <div className={classes.noPrint}>
          <EldTransferHistory orgId={orgId} driverId={h.driver.id} />
        </div>

        {Messages && (
          <Paper withBorder radius="md" p="md" className={`${classes.section} ${classes.noPrint}`}>
            <Messages driverId={h.driver.id} driverName={name} />
          </Paper>
        )}
      </Stack>
      <EventEditModal orgId={orgId} driverId={h.driver.id} logId={day.id} event={editing} timeZone={tz} onClose={() => setEditing(null)} />
      <SendToFmcsaModal orgId={orgId} driverId={h.driver.id} opened={sendingToFmcsa} onClose={() => setSendingToFmcsa(false)} size="md" />
    </>
  );
}

/** A distance in km to a tenth, as Canada's limit is written (decision 0319: km whatever the viewer's units). */
const kmText = (km: number): string => (Math.round(km * 10) / 10).toString();

function Certification({ certification: c, live, timeZone }: { certification: HosLogDay['certification']; live: boolean; timeZone: string }) {
  if (c.certified) {
    return (
      <Group gap={6} className={classes.certified}>
        <Badge color="green" variant="light" className={tones.ok}>
          Certified
        </Badge>
        {c.certifiedAt && (
          <Text size="xs" c="dimmed">
            {`${formatDateTime(c.certifiedAt, timeZone)}${c.count > 1 ? ` · certified ${c.count} times` : ''}`}
          </Text>
        )}
      </Group>
    );
  }
  return (
    <Badge color={live ? 'gray' : 'orange'} variant="light" className={live ? tones.muted : tones.warn}>
      {live ? 'Not yet certified' : 'Uncertified'}
    </Badge>
  );
}
