import { useState } from 'react';
import { Alert, Badge, Button, FileButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCamera, IconCheck, IconFlag, IconMapPin } from '@tabler/icons-react';
import { LOAD_DOCUMENT_LABELS, STOP_KIND_LABELS } from '@fleet/api-contract/loads';
import type { Load, LoadDocumentKind, LoadStop } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatShortDateTime, useViewerZone } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { photoForUpload } from '../../lib/photo-resize.ts';
import { addLoadDocument, setStopStatus, uploadLoadPhoto, useLoadMutation, useLoads } from './dispatch-api.ts';
import { stopName, stopNumber } from './dispatch-format.ts';
import classes from './dispatch.module.css';
import { LoadStatusBadge, windowText } from './load-bits.tsx';

const ACTIVE = 'ASSIGNED,EN_ROUTE,AT_STOP';

/**
 * The driver's loads on /driver (issue 33): each running load's stops with their appointments (the
 * zone named), "Arrived" and "Departed" for the stop at hand, and a photo of the bill of lading at a
 * pick-up or the proof of delivery at a delivery, uploaded as the inspection card uploads its photos.
 * The API lists only the loads the driver is on.
 */
export function DriverLoads({ orgId }: { orgId: string }) {
  const q = useLoads({ status: ACTIVE, size: 10 }, !!orgId);
  const loads = q.data?.content ?? [];
  return (
    <Paper withBorder radius="md" p="md" data-testid="driver-loads">
      <Title order={2} size="h4" mb="sm">
        My loads
      </Title>
      <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()} isEmpty={!!q.data && loads.length === 0} emptyTitle="No loads right now" emptyDescription="Your dispatcher’s loads for you appear here.">
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
  const zone = useViewerZone();
  const current = load.stops.find((s) => !s.departedAt) ?? null;
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs">
        <Text fw={700}>
          {load.number} · {load.customer}
        </Text>
        <LoadStatusBadge status={load.status} />
      </Group>
      {(load.bolNumber || load.poNumber || load.commodity) && (
        <Text size="sm" c="dimmed">
          {[load.bolNumber && `BOL ${load.bolNumber}`, load.poNumber && `PO ${load.poNumber}`, load.commodity].filter(Boolean).join(' · ')}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        Appointments in {zone.replace(/_/g, ' ')}
      </Text>
      <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label={`Stops of load ${load.number}`}>
        {load.stops.map((s) => (
          <DriverStop key={s.id} orgId={orgId} load={load} stop={s} current={current?.id === s.id} />
        ))}
      </Stack>
    </Stack>
  );
}

function DriverStop({ orgId, load, stop, current }: { orgId: string; load: Load; stop: LoadStop; current: boolean }) {
  const mark = useLoadMutation(setStopStatus);
  const addDoc = useLoadMutation(addLoadDocument);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const kind: LoadDocumentKind = stop.kind === 'PICKUP' ? 'BOL' : 'POD';
  const photos = load.documents.filter((d) => d.stopId === stop.id).length;
  const record = (event: 'ARRIVE' | 'DEPART') => {
    setError(null);
    mark.mutate(
      { id: load.id, stopId: stop.id, body: { event } },
      {
        onSuccess: () => notify({ type: 'success', title: event === 'ARRIVE' ? `Arrived at ${stopName(stop)}` : `Departed ${stopName(stop)}`, timeout: 3000 }),
        onError: (err) => setError(err instanceof ApiError ? (err.body?.message ?? err.message) : 'Could not record it. Try again.'),
      },
    );
  };
  const photograph = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    setError(null);
    try {
      const { id } = await uploadLoadPhoto(orgId, await photoForUpload(file), file.name);
      await addDoc.mutateAsync({ id: load.id, body: { documentKind: kind, imageId: id, stopId: stop.id } });
      notify({ type: 'success', title: `${LOAD_DOCUMENT_LABELS[kind]} saved`, timeout: 3000 });
    } catch (err) {
      setError(err instanceof ApiError && err.status === 413 ? (err.body?.message ?? 'The photo is larger than the upload limit') : err instanceof ApiError ? (err.body?.message ?? err.message) : 'The photo could not be sent. Try again.');
    } finally {
      setUploading(false);
    }
  };
  const done = !!stop.departedAt;
  const n = stopNumber(load.stops, stop);
  return (
    <Paper component="li" withBorder radius="md" p="sm" style={current ? { borderColor: 'var(--mantine-color-blue-filled)', borderWidth: 2 } : undefined} aria-current={current ? 'step' : undefined}>
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text fw={600} size="sm">
            <IconMapPin size={14} aria-hidden style={{ verticalAlign: -2 }} /> {n}. {STOP_KIND_LABELS[stop.kind]}: {stopName(stop)}
          </Text>
          {done ? (
            <Badge variant="light" color="gray" leftSection={<IconCheck size={12} aria-hidden />} style={{ flexShrink: 0 }}>
              Done
            </Badge>
          ) : stop.arrivedAt ? (
            <Badge variant="light" style={{ flexShrink: 0 }}>Here</Badge>
          ) : null}
        </Group>
        {stop.address && <Text size="sm">{stop.address}</Text>}
        <Text size="sm">Appointment {windowText(stop.windowStart, stop.windowEnd)}</Text>
        {stop.arrivedAt && <Text size="xs">Arrived {formatShortDateTime(stop.arrivedAt)}{stop.departedAt ? ` · departed ${formatShortDateTime(stop.departedAt)}` : ''}</Text>}
        {!stop.arrivedAt && stop.eta && (
          <Text size="xs" className={stop.windowMet === false ? classes.danger : undefined}>
            ETA {formatShortDateTime(stop.eta)}
            {stop.windowMet === false ? ' (after the appointment: call dispatch)' : ''}
          </Text>
        )}
        {current && (
          <Group gap="xs" mt={4} grow>
            {!stop.arrivedAt ? (
              <Button size="md" leftSection={<IconFlag size={18} aria-hidden />} onClick={() => record('ARRIVE')} loading={mark.isPending} aria-label={`Arrived at stop ${n}`}>
                Arrived
              </Button>
            ) : (
              <Button size="md" variant="light" leftSection={<IconCheck size={18} aria-hidden />} onClick={() => record('DEPART')} loading={mark.isPending} aria-label={`Departed stop ${n}`}>
                Departed
              </Button>
            )}
          </Group>
        )}
        {(current || done) && (
          <FileButton onChange={(f) => void photograph(f)} accept="image/png,image/jpeg,image/gif,image/webp" capture="environment">
            {(props) => (
              <Button {...props} size="sm" variant="default" loading={uploading} leftSection={<IconCamera size={16} aria-hidden />}>
                Photograph {kind === 'BOL' ? 'BOL' : 'POD'}
                {photos ? ` (${photos} saved)` : ''}
              </Button>
            )}
          </FileButton>
        )}
        {error && (
          <Alert color="red" variant="light" py={6} role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
