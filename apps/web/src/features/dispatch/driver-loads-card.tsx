import { Suspense, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCamera, IconCheck, IconCloudUpload, IconFileAlert, IconFileCheck, IconFlag, IconMapPin } from '@tabler/icons-react';
import type { Load, LoadDocumentType, LoadStatus, LoadStop } from '@fleet/api-contract';
import tones from '../../components/badge-tones.module.css';
import { DataState } from '../../components/data-state.tsx';
import { lazyPart } from '../../components/on-first-use.ts';
import { errorWords } from '../../i18n/error-words.ts';
import { ApiError } from '../../lib/api-client.ts';
import { formatShortDateTime, formatTime, useViewerZone } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { ownRecords, sendRecord, useOutbox } from '../../lib/outbox.ts';
import { loadKeys, stopStatusPath, useLoads } from './loads-query.ts';
import { stopName, stopNumber } from './dispatch-format.ts';
import classes from './dispatch.module.css';

const ACTIVE = 'ASSIGNED,EN_ROUTE,AT_STOP';
// Opened by a tap: loaded on first use (the service worker keeps it for offline use).
const DocumentCapture = lazyPart(() => import('./driver-document-capture.tsx').then((m) => ({ default: m.DocumentCapture })));

// The words are the driver's language (issue 44); the office's badge and window text (load-bits.tsx)
// stay English, so the card has its own, with the same colours and the same shape of window.
const STATUS_COLORS: Record<LoadStatus, string> = {
  PLANNED: 'gray',
  ASSIGNED: 'blue',
  EN_ROUTE: 'teal',
  AT_STOP: 'cyan',
  DELIVERED: 'green',
  CANCELLED: 'red',
};
const STATUS_TONES: Partial<Record<LoadStatus, string>> = {
  PLANNED: tones.muted,
  ASSIGNED: tones.muted,
  EN_ROUTE: tones.ok,
  AT_STOP: tones.ok,
  DELIVERED: tones.ok,
  CANCELLED: tones.danger,
};

function StatusBadge({ status }: { status: LoadStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" radius="sm" color={STATUS_COLORS[status]} className={STATUS_TONES[status]} data-status={status}>
      {t(`loads.status.${status}`)}
    </Badge>
  );
}

/** "Nov 24, 6:00 AM – 8:00 AM CST" in the driver's language (the second date only when the window crosses a day). */
function windowIn(start: string, end: string, lng: string): string {
  const a = formatShortDateTime(start, undefined, lng);
  const b = formatShortDateTime(end, undefined, lng);
  if (a === b) return a;
  const [dayA] = a.split(', ');
  const [dayB, timeB] = b.split(', ');
  // Drop the first zone label when both ends share it.
  const head = a.split(' ').pop() === b.split(' ').pop() ? a.slice(0, a.lastIndexOf(' ')) : a;
  return dayA === dayB ? `${head} – ${timeB}` : `${head} – ${b}`;
}

/**
 * The driver's loads on /driver (issue 33): each running load's stops with their appointments (the
 * zone named), "Arrived" and "Departed" for the stop at hand, and its papers photographed page by
 * page (issue 70: driver-document-capture.tsx), sent through the phone's outbox like its other
 * records. The API lists only the loads the driver is on.
 */
export function DriverLoads({ orgId }: { orgId: string }) {
  const { t } = useTranslation();
  const q = useLoads({ status: ACTIVE, size: 10 }, !!orgId);
  const loads = q.data?.content ?? [];
  return (
    <Paper withBorder radius="md" p="md" data-testid="driver-loads">
      <Title order={2} size="h4" mb="sm">
        {t('loads.title')}
      </Title>
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={!!q.data && loads.length === 0}
        emptyTitle={t('loads.emptyTitle')}
        emptyDescription={t('loads.emptyBody')}
      >
        <Stack gap="lg">
          {loads.map((l) => (
            <DriverLoad key={l.id} orgId={orgId} load={l} />
          ))}
        </Stack>
      </DataState>
    </Paper>
  );
}

function DriverLoad({ orgId, load }: { orgId: string; load: Load }) {
  const { t } = useTranslation();
  const zone = useViewerZone();
  const current = load.stops.find((s) => !s.departedAt) ?? null;
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs">
        <Text fw={700}>
          {load.number} · {load.customer}
        </Text>
        <StatusBadge status={load.status} />
      </Group>
      {(load.bolNumber || load.poNumber || load.commodity) && (
        <Text size="sm" c="dimmed">
          {[load.bolNumber && t('loads.bol', { number: load.bolNumber }), load.poNumber && t('loads.po', { number: load.poNumber }), load.commodity]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {t('loads.appointmentsIn', { zone: zone.replace(/_/g, ' ') })}
      </Text>
      <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('loads.stops', { number: load.number })}>
        {load.stops.map((s) => (
          <DriverStop key={s.id} orgId={orgId} load={load} stop={s} current={current?.id === s.id} />
        ))}
      </Stack>
    </Stack>
  );
}

function DriverStop({ orgId, load, stop, current }: { orgId: string; load: Load; stop: LoadStop; current: boolean }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const qc = useQueryClient();
  const [marking, setMarking] = useState<'ARRIVE' | 'DEPART' | null>(null);
  const [capturing, setCapturing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const user = useCurrentUser();
  const outbox = useOutbox();
  const papers = load.documents.filter((d) => d.stopId === stop.id);
  // Papers taken offline, waiting on the phone for the network (the outbox's own records).
  const waiting = ownRecords(outbox, user?.id).filter(
    (r) => r.kind === 'DOCUMENT' && r.state === 'WAITING' && (r.body as { stopId?: string }).stopId === stop.id,
  );
  // A record of the phone (issue 44): the time of the tap, sent now or when the network returns; the
  // same time resent sets the same arrival.
  const record = async (event: 'ARRIVE' | 'DEPART') => {
    setError(null);
    setMarking(event);
    const madeAt = Date.now();
    const title = event === 'ARRIVE' ? t('loads.arrivedAt', { place: stopName(stop) }) : t('loads.departedFrom', { place: stopName(stop) });
    try {
      const out = await sendRecord<Load>({
        kind: 'STOP',
        madeAt,
        label: title,
        path: stopStatusPath(orgId, load.id, stop.id),
        body: { event, at: new Date(madeAt).toISOString() },
      });
      if (out.sent) await qc.invalidateQueries({ queryKey: loadKeys.all(orgId) });
      notify({
        type: out.sent ? 'success' : 'not-viewed',
        title,
        category: out.sent ? undefined : t('offline.kept', { time: formatTime(madeAt) }),
        timeout: 3000,
      });
    } catch (err) {
      setError(err instanceof ApiError ? errorWords(t, err) : t('loads.notRecorded'));
    } finally {
      setMarking(null);
    }
  };
  const done = !!stop.departedAt;
  // The customer requires a proof of delivery: said before the driver taps Departed (the server refuses it without one).
  const needsPod =
    load.requiresPod &&
    stop.kind === 'DELIVERY' &&
    !done &&
    !papers.some((d) => d.type === 'POD') &&
    !waiting.some((r) => (r.body as { type?: string }).type === 'POD');
  const n = stopNumber(load.stops, stop);
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      style={current ? { borderColor: 'var(--mantine-color-blue-filled)', borderWidth: 2 } : undefined}
      aria-current={current ? 'step' : undefined}
    >
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text fw={600} size="sm">
            <IconMapPin size={14} aria-hidden style={{ verticalAlign: -2 }} /> {n}. {t(`loads.stopKind.${stop.kind}`)}: {stopName(stop)}
          </Text>
          {done ? (
            <Badge variant="light" color="gray" leftSection={<IconCheck size={12} aria-hidden />} style={{ flexShrink: 0 }}>
              {t('loads.done')}
            </Badge>
          ) : stop.arrivedAt ? (
            <Badge variant="light" style={{ flexShrink: 0 }}>
              {t('loads.here')}
            </Badge>
          ) : null}
        </Group>
        {stop.address && <Text size="sm">{stop.address}</Text>}
        <Text size="sm">{t('loads.appointment', { window: windowIn(stop.windowStart, stop.windowEnd, lng) })}</Text>
        {stop.arrivedAt && (
          <Text size="xs">
            {stop.departedAt
              ? t('loads.arrivedDeparted', {
                  arrived: formatShortDateTime(stop.arrivedAt, undefined, lng),
                  departed: formatShortDateTime(stop.departedAt, undefined, lng),
                })
              : t('loads.arrivedTime', { time: formatShortDateTime(stop.arrivedAt, undefined, lng) })}
          </Text>
        )}
        {!stop.arrivedAt && stop.eta && (
          <Text size="xs" className={stop.windowMet === false ? classes.danger : undefined}>
            {stop.windowMet === false
              ? t('loads.etaLate', { time: formatShortDateTime(stop.eta, undefined, lng) })
              : t('loads.eta', { time: formatShortDateTime(stop.eta, undefined, lng) })}
          </Text>
        )}
        {needsPod && (
          <Text size="xs" fw={600} className={classes.warn} data-testid="pod-needed">
            <IconFileAlert size={14} aria-hidden style={{ verticalAlign: -2 }} /> {t('loads.podNeeded')}
          </Text>
        )}
        {current && (
          <Group gap="xs" mt={4} grow>
            {!stop.arrivedAt ? (
              <Button
                size="md"
                leftSection={<IconFlag size={18} aria-hidden />}
                onClick={() => void record('ARRIVE')}
                loading={marking === 'ARRIVE'}
                aria-label={t('loads.arrivedStop', { n })}
              >
                {t('loads.arrived')}
              </Button>
            ) : (
              <Button
                size="md"
                variant="light"
                leftSection={<IconCheck size={18} aria-hidden />}
                onClick={() => void record('DEPART')}
                loading={marking === 'DEPART'}
                aria-label={t('loads.departedStop', { n })}
              >
                {t('loads.departed')}
              </Button>
            )}
          </Group>
        )}
        {(papers.length > 0 || waiting.length > 0) && (
          <Stack gap={2} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('loads.papers', { n })}>
            {papers.map((d) => (
              <Text key={d.id} component="li" size="xs" data-testid="stop-paper">
                <IconFileCheck size={14} aria-hidden style={{ verticalAlign: -2 }} /> {t(`loads.document.${d.type}`)} ·{' '}
                {t('loads.pages', { count: d.pageCount })}
              </Text>
            ))}
            {waiting.map((r) => (
              <Text key={r.id} component="li" size="xs" c="dimmed" data-testid="stop-paper-waiting">
                <IconCloudUpload size={14} aria-hidden style={{ verticalAlign: -2 }} />{' '}
                {t('loads.paperWaiting', {
                  document: t(`loads.document.${(r.body as { type: LoadDocumentType }).type}`),
                  pages: t('loads.pages', { count: r.uploads.length }),
                })}
              </Text>
            ))}
          </Stack>
        )}
        {(current || done) &&
          (capturing ? (
            <Suspense fallback={null}>
              <DocumentCapture orgId={orgId} load={load} stop={stop} onClose={() => setCapturing(false)} />
            </Suspense>
          ) : (
            <Button
              size="sm"
              variant="default"
              leftSection={<IconCamera size={16} aria-hidden />}
              onClick={() => setCapturing(true)}
              aria-label={t('loads.addPaperAt', { n })}
            >
              {t('loads.addPaper')}
            </Button>
          ))}
        {error && (
          <Alert color="red" variant="light" py={6} role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
