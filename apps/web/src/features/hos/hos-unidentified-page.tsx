import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { notify } from '../../lib/notifications-store.ts';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { HosUnidentifiedSegment } from '@fleet/api-contract';
import { PageHeader } from '../../components/page-header.tsx';
import { useFilterParam } from '../../components/registry-toolbar.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { describeError } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useTableState } from '../../lib/table-state.ts';
import { formatDistance, useUnits, type UnitSystem } from '../../lib/units.ts';
import { formatHoursMinutes } from './availability/clock-format.ts';
import { hosDriversQuery } from './hos-clocks-api.ts';
import { diagnosticsQuery, unidentifiedQuery, useAnnotateSegment, useProposeSegment } from './hos-unidentified-api.ts';
import { diagnosticSubject } from './logs/log-format.ts';
import tones from '../../components/badge-tones.module.css';

const STATES = [
  { value: 'UNASSIGNED', label: 'Unassigned' },
  { value: 'PROPOSED', label: 'Proposed' },
  { value: 'ASSIGNED', label: 'Assigned' },
  { value: 'ANNOTATED', label: 'Not a driver' },
] as const;
const STATE_TONE: Record<HosUnidentifiedSegment['state'], string | undefined> = {
  UNASSIGNED: tones.warn,
  PROPOSED: tones.muted,
  ASSIGNED: tones.ok,
  ANNOTATED: tones.muted,
};
const STATE_COLOR: Record<HosUnidentifiedSegment['state'], string> = { UNASSIGNED: 'orange', PROPOSED: 'blue', ASSIGNED: 'green', ANNOTATED: 'gray' };

type Action = { kind: 'propose' | 'annotate'; segment: HosUnidentifiedSegment };

function columns(units: UnitSystem, canEdit: boolean, act: (a: Action) => void): TableColumn<HosUnidentifiedSegment>[] {
  return [
    {
      key: 'vehicle',
      header: 'Vehicle',
      primary: true,
      render: (s) => (
        <Text span fw={600}>
          {s.vehicle?.unitNumber ?? '—'}
        </Text>
      ),
    },
    {
      key: 'when',
      header: 'When',
      render: (s) => (
        <Stack gap={0}>
          <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(s.start)}
          </Text>
          <Text span size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {s.end ? `to ${formatDateTime(s.end)}` : 'still driving'}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'duration',
      header: 'Duration',
      align: 'right',
      render: (s) => (
        <Text span size="sm" ff="monospace">
          {formatHoursMinutes(s.durationMs)}
        </Text>
      ),
    },
    {
      key: 'distance',
      header: 'Distance',
      align: 'right',
      render: (s) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDistance(s.distanceM, units)}
        </Text>
      ),
    },
    {
      key: 'where',
      header: 'From, to',
      render: (s) => (
        <Stack gap={0} miw={180}>
          <Text span size="sm">
            {s.startLocation.description ?? '—'}
          </Text>
          <Text span size="xs" c="dimmed">{`to ${s.endLocation?.description ?? '…'}`}</Text>
        </Stack>
      ),
    },
    {
      key: 'state',
      header: 'State',
      render: (s) => (
        <Stack gap={2} align="flex-start">
          <Badge variant="light" color={STATE_COLOR[s.state]} className={STATE_TONE[s.state]} data-state={s.state}>
            {STATES.find((x) => x.value === s.state)?.label}
          </Badge>
          {s.driver && <Text span size="xs" c="dimmed">{`${s.state === 'PROPOSED' ? 'To' : 'By'} ${s.driver.firstName} ${s.driver.lastName}`}</Text>}
          {s.annotation && (
            <Text span size="xs" c="dimmed">
              {s.annotation.reason}
            </Text>
          )}
        </Stack>
      ),
    },
    ...(canEdit
      ? [
          {
            key: 'actions',
            header: 'Actions',
            render: (s: HosUnidentifiedSegment) =>
              s.state === 'UNASSIGNED' || s.state === 'ANNOTATED' ? (
                <Stack gap={4} align="flex-start">
                  <Button
                    size="compact-xs"
                    variant="light"
                    disabled={!s.end}
                    onClick={() => act({ kind: 'propose', segment: s })}
                    aria-label={`Propose driving of ${s.vehicle?.unitNumber ?? 'vehicle'} at ${formatDateTime(s.start)} to a driver`}
                  >
                    Propose to driver
                  </Button>
                  {s.state === 'UNASSIGNED' && (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      onClick={() => act({ kind: 'annotate', segment: s })}
                      aria-label={`Annotate driving of ${s.vehicle?.unitNumber ?? 'vehicle'} at ${formatDateTime(s.start)}`}
                    >
                      Not a driver
                    </Button>
                  )}
                </Stack>
              ) : null,
          },
        ]
      : []),
  ];
}

/**
 * Unidentified driving (issue 16, decision 0113): vehicles driven with no driver assigned, to
 * propose to the driver who drove (they accept it) or to annotate as nobody's driving time.
 */
export default function HosUnidentifiedPage() {
  const orgId = useEffectiveOrganizationId() ?? '';
  const units = useUnits();
  const canEdit = useCan('HOS_EDIT');
  const [state, setState, page] = useTableState();
  const [stateFilter, setStateFilter] = useFilterParam('state');
  const filters = useMemo(
    () => ({ page: page.page, size: page.size, state: (stateFilter ?? undefined) as HosUnidentifiedSegment['state'] | undefined }),
    [page.page, page.size, stateFilter],
  );
  const list = useQuery({ ...unidentifiedQuery(orgId, filters), enabled: !!orgId });
  const diagnostics = useQuery({ ...diagnosticsQuery(orgId), enabled: !!orgId });
  const [action, setAction] = useState<Action | null>(null);
  const cols = useMemo(() => columns(units, canEdit, setAction), [units, canEdit]);
  const active = diagnostics.data?.content ?? [];

  return (
    <>
      <PageHeader
        title="Unidentified Driving"
        description="Driving recorded with no driver assigned to the vehicle, the last 8 days. Propose it to the driver who drove, or note that it was nobody's driving."
      />
      {active.length > 0 && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={20} />}
          title="ELD malfunctions and data diagnostics in force"
          mb="md"
          data-testid="office-diagnostics"
        >
          {active.map((d) => (
            <Text key={d.id} size="sm">{`${diagnosticSubject(d)}: ${d.name} since ${formatDateTime(d.loggedAt)}`}</Text>
          ))}
        </Alert>
      )}
      <ServerTable
        id="hos-unidentified"
        label="Unidentified driving"
        columns={cols}
        query={{ data: list.data, isLoading: list.isLoading, isFetching: list.isPlaceholderData, error: list.error, refetch: list.refetch }}
        state={state}
        onStateChange={setState}
        rowKey={(s) => s.id}
        searchable={false}
        emptyTitle={stateFilter ? 'Nothing in this state' : 'No unidentified driving'}
        emptyDescription="Driving recorded on a vehicle with no driver assigned shows here."
        toolbar={
          <Select
            aria-label="State"
            size="xs"
            w={150}
            allowDeselect={false}
            value={stateFilter ?? 'ALL'}
            onChange={(v) => setStateFilter(!v || v === 'ALL' ? null : v)}
            data={[{ value: 'ALL', label: 'Every state' }, ...STATES.map((s) => ({ value: s.value, label: s.label }))]}
          />
        }
      />
      {action?.kind === 'propose' && <ProposeModal orgId={orgId} segment={action.segment} onClose={() => setAction(null)} />}
      {action?.kind === 'annotate' && <AnnotateModal orgId={orgId} segment={action.segment} onClose={() => setAction(null)} />}
    </>
  );
}

function ProposeModal({ orgId, segment, onClose }: { orgId: string; segment: HosUnidentifiedSegment; onClose: () => void }) {
  const drivers = useQuery(hosDriversQuery(orgId));
  const propose = useProposeSegment(orgId);
  const [driverId, setDriverId] = useState<string | null>(null);
  const [annotation, setAnnotation] = useState('');
  const [error, setError] = useState<{ field: 'driverId' | 'annotation' | 'form'; message: string } | null>(null);
  const submit = async () => {
    if (!driverId) return setError({ field: 'driverId', message: 'Driver is a required field' });
    const note = annotation.trim() || null;
    if (note !== null && note.length < 4) return setError({ field: 'annotation', message: 'Annotation must be at least 4 characters' });
    try {
      await propose.mutateAsync({ id: segment.id, driverId, annotation: note });
      notify({ type: 'success', timeout: 5000, title: 'Proposed to the driver', category: 'It becomes their driving once they accept it.' });
      onClose();
    } catch (err) {
      const d = describeError(err);
      setError({ field: /driverId/.test(d.details ?? '') ? 'driverId' : 'form', message: d.title });
    }
  };
  return (
    <Modal opened onClose={onClose} title="Propose to a driver" centered>
      <Stack gap="sm">
        <Text size="sm">{`Vehicle ${segment.vehicle?.unitNumber ?? '—'}, ${formatDateTime(segment.start)} to ${segment.end ? formatDateTime(segment.end) : 'now'}. The driver sees it beside their log and accepts or rejects it.`}</Text>
        <Select
          label="Driver"
          withAsterisk
          searchable
          data={(drivers.data?.content ?? []).filter((d) => d.status === 'ACTIVE').map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` }))}
          value={driverId}
          onChange={setDriverId}
          error={error?.field === 'driverId' ? error.message : undefined}
          disabled={drivers.isLoading}
          nothingFoundMessage="No driver with that name"
        />
        <TextInput
          label="Annotation (optional)"
          description="4 to 60 characters; default “Assumed from unidentified driving”"
          maxLength={60}
          value={annotation}
          onChange={(e) => setAnnotation(e.currentTarget.value)}
          error={error?.field === 'annotation' ? error.message : undefined}
        />
        {error?.field === 'form' && (
          <Text size="sm" c="red" role="alert">
            {error.message}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={propose.isPending} onClick={() => void submit()}>
            Propose
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function AnnotateModal({ orgId, segment, onClose }: { orgId: string; segment: HosUnidentifiedSegment; onClose: () => void }) {
  const annotate = useAnnotateSegment(orgId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const r = reason.trim();
    if (r.length < 4) return setError('Reason must be at least 4 characters');
    try {
      await annotate.mutateAsync({ id: segment.id, reason: r });
      notify({ type: 'success', timeout: 5000, title: 'Annotated', category: "Noted as nobody's driving time." });
      onClose();
    } catch (err) {
      setError(describeError(err).title);
    }
  };
  return (
    <Modal opened onClose={onClose} title="Not a driver's driving" centered>
      <Stack gap="sm">
        <Text size="sm">{`Vehicle ${segment.vehicle?.unitNumber ?? '—'}, ${formatDateTime(segment.start)}. Say why it is nobody's driving time (a mechanic's test drive, a yard move by the shop). The records stay as they are.`}</Text>
        <TextInput label="Reason" withAsterisk maxLength={60} value={reason} onChange={(e) => setReason(e.currentTarget.value)} error={error} data-autofocus />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={annotate.isPending} onClick={() => void submit()}>
            Save annotation
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
