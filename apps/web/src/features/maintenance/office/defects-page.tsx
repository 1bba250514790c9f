import { useMemo, useState } from 'react';
import { Alert, Anchor, Button, Group, Modal, NativeSelect, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconCertificate, IconTool } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { Defect, DefectStatus } from '@fleet/api-contract';
import { PageHeader } from '../../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../../components/server-table.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth-store.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useEffectiveOrganizationId } from '../../../lib/org-path.ts';
import { useCan } from '../../../lib/registry-api.ts';
import { useTableState } from '../../../lib/table-state.ts';
import { certifyDefect, saveWorkOrder, useDefects, useMaintenanceMutation } from '../maintenance-api.ts';
import { DEFECT_STATUS_LABEL, DefectStatusBadge, SafetyBadge, unitOptions, useGroupFilter, useSignature, useUnits500 } from './common.tsx';
import { MaintenanceTabs } from './maintenance-tabs.tsx';
import { useSearchParams } from '../../../lib/search-params.ts';

/** Safety defects first within each unit: the list reads by vehicle, then by severity. */
function bySeverity(rows: Defect[]): Defect[] {
  return [...rows].sort((a, b) => a.asset.unitNumber.localeCompare(b.asset.unitNumber, 'en', { numeric: true }) || Number(b.safety) - Number(a.safety));
}

/** A work order's title from the defect: the item, and the driver's note when short. */
export const workOrderTitle = (d: Defect) => (d.note && d.note.length <= 80 ? `${d.label}: ${d.note}` : d.label).slice(0, 200);

/** Defects reported on inspections: open ones by vehicle and severity, each one click from a work order, closed by the mechanic's certification. */
export default function DefectsPage() {
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') ?? 'OPEN') as DefectStatus | 'ALL';
  const assetId = params.get('assetId') ?? '';
  const safety = params.get('safety') ?? '';
  const [groupId, groupSelect] = useGroupFilter();
  const [state, setState, query] = useTableState({ sort: 'unitNumber,asc' });
  const list = useDefects({
    ...query,
    search: undefined,
    status: status === 'ALL' ? undefined : status,
    assetId: assetId || undefined,
    safety: safety || undefined,
    groupId,
  });
  const units = useUnits500();
  const canOrder = useCan('WORK_ORDER_UPDATE');
  const canCertify = useCan('DEFECT_UPDATE');
  const navigate = useNavigate();
  const [certifying, setCertifying] = useState<Defect | null>(null);
  const create = useMaintenanceMutation(saveWorkOrder);

  const setFilter = (name: string, value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(name, value);
        else next.delete(name);
        next.delete('page');
        return next;
      },
      { replace: true },
    );

  const makeOrder = async (d: Defect) => {
    try {
      const order = await create.mutateAsync({
        body: { assetId: d.asset.id, title: workOrderTitle(d), description: d.note, status: 'OPEN', defectIds: [d.id] },
      });
      notify({ type: 'success', title: `Work order created for ${d.asset.unitNumber}`, timeout: 4000 });
      void navigate(`/maintenance/work-orders?open=${order.id}`);
    } catch (err) {
      notify({ type: 'alert', title: err instanceof ApiError ? (err.body?.message ?? err.message) : 'The work order could not be created', timeout: 6000 });
    }
  };

  const sorted = useMemo(
    () => (list.data && state.sort?.startsWith('unitNumber') ? { ...list.data, content: bySeverity(list.data.content) } : list.data),
    [list.data, state.sort],
  );
  const columns: TableColumn<Defect>[] = [
    {
      key: 'unitNumber',
      header: 'Unit',
      sortable: true,
      primary: true,
      render: (d) => (
        <Text fw={600} size="sm">
          {d.asset.unitNumber}
        </Text>
      ),
    },
    { key: 'safety', header: 'Severity', render: (d) => <SafetyBadge safety={d.safety} /> },
    {
      key: 'item',
      header: 'Defect',
      render: (d) => (
        <Stack gap={0}>
          <Text size="sm">{d.label}</Text>
          {d.note && (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {d.note}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'reportedAt',
      header: 'Reported',
      sortable: true,
      render: (d) => (
        <Stack gap={0}>
          {d.dvirId ? (
            <Anchor component={Link} to={`/maintenance/inspections/${d.dvirId}`} size="sm" onClick={(e) => e.stopPropagation()}>
              {formatDateTime(d.reportedAt)}
            </Anchor>
          ) : (
            <Text size="sm">{formatDateTime(d.reportedAt)}</Text>
          )}
          {!d.dvirId && d.engineFaultId && (
            <Text size="xs" c="dimmed">
              Engine fault code
            </Text>
          )}
          {d.reportedBy && (
            <Text size="xs" c="dimmed">
              {d.reportedBy.name}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'status', header: 'Status', sortable: true, render: (d) => <DefectStatusBadge status={d.status} /> },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (d) => (
        <Group gap={6} justify="flex-end" wrap="wrap">
          {d.workOrderId ? (
            <Button size="compact-sm" variant="subtle" component={Link} to={`/maintenance/work-orders?open=${d.workOrderId}`}>
              Work order
            </Button>
          ) : (
            canOrder &&
            d.status === 'OPEN' && (
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconTool size={14} />}
                loading={create.isPending && create.variables?.body.defectIds?.[0] === d.id}
                onClick={() => void makeOrder(d)}
                aria-label={`Create work order for ${d.asset.unitNumber} ${d.label}`}
              >
                Create work order
              </Button>
            )
          )}
          {canCertify && d.status === 'OPEN' && (
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconCertificate size={14} />}
              onClick={() => setCertifying(d)}
              aria-label={`Certify ${d.asset.unitNumber} ${d.label}`}
            >
              Certify
            </Button>
          )}
          {d.status !== 'OPEN' && d.certifiedAt && (
            <Text size="xs" c="dimmed">
              {d.certifiedBy?.name} · {formatDateTime(d.certifiedAt)}
            </Text>
          )}
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Defects"
        description="Defects drivers reported on their inspections. A safety defect keeps the vehicle off the road until a mechanic certifies the repair."
        breadcrumbs={[{ label: 'Maintenance', to: '/maintenance' }, { label: 'Defects' }]}
      />
      <MaintenanceTabs />
      <ServerTable
        id="maintenance-defects"
        label="Defects"
        columns={columns}
        query={{ ...list, data: sorted }}
        state={state}
        onStateChange={setState}
        rowKey={(d) => d.id}
        searchable={false}
        emptyTitle={status === 'OPEN' ? 'No open defects' : 'No defects'}
        emptyDescription={status === 'OPEN' ? 'Every reported defect has been repaired or certified as not needing repair.' : undefined}
        toolbar={
          <Group gap="xs" wrap="wrap">
            <NativeSelect
              aria-label="Status"
              value={status}
              onChange={(e) => setFilter('status', e.currentTarget.value === 'OPEN' ? '' : e.currentTarget.value)}
              data={[
                { value: 'OPEN', label: 'Open' },
                { value: 'REPAIRED', label: DEFECT_STATUS_LABEL.REPAIRED },
                { value: 'NOT_NEEDED', label: DEFECT_STATUS_LABEL.NOT_NEEDED },
                { value: 'ALL', label: 'Any status' },
              ]}
            />
            <NativeSelect
              aria-label="Unit"
              value={assetId}
              onChange={(e) => setFilter('assetId', e.currentTarget.value)}
              data={[{ value: '', label: 'Every unit' }, ...unitOptions(units)]}
            />
            <NativeSelect
              aria-label="Severity"
              value={safety}
              onChange={(e) => setFilter('safety', e.currentTarget.value)}
              data={[
                { value: '', label: 'Any severity' },
                { value: 'true', label: 'Safety only' },
                { value: 'false', label: 'Minor only' },
              ]}
            />
            {groupSelect}
          </Group>
        }
      />
      <Modal
        opened={!!certifying}
        onClose={() => setCertifying(null)}
        title={certifying ? `Certify ${certifying.asset.unitNumber}: ${certifying.label}` : ''}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {certifying && <CertifyForm defect={certifying} onClose={() => setCertifying(null)} />}
      </Modal>
    </>
  );
}

/** The mechanic's certification (396.11(a)(3)): repaired, or repair unnecessary, signed and dated. */
export function CertifyForm({ defect: d, onClose }: { defect: Defect; onClose: () => void }) {
  const user = useCurrentUser();
  const orgId = useEffectiveOrganizationId();
  const [status, setStatus] = useState<'REPAIRED' | 'NOT_NEEDED'>('REPAIRED');
  const [text, setText] = useState('');
  const [name, setName] = useState([user?.firstName, user?.lastName].filter(Boolean).join(' '));
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const signature = useSignature(orgId, name);
  const certify = useMaintenanceMutation(certifyDefect);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!name.trim()) {
      setNameError('Name is required');
      return;
    }
    // A signature cannot be taken back: the first click asks, the second signs.
    if (!confirming) {
      setConfirming(true);
      return;
    }
    try {
      const imageId = await signature.collect();
      await certify.mutateAsync({ id: d.id, body: { status, certification: text.trim() || null, signature: { name: name.trim(), imageId } } });
      notify({
        type: 'success',
        title: `${d.asset.unitNumber}: ${d.label} certified ${status === 'REPAIRED' ? 'repaired' : 'as not needing repair'}`,
        timeout: 5000,
      });
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? (err.body?.technicalMessage ?? err.body?.message ?? err.message) : (err as Error).message);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Certification form">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Reported {formatDateTime(d.reportedAt)}
          {d.reportedBy ? ` by ${d.reportedBy.name}` : ''}
          {d.note ? `: “${d.note}”` : ''}
        </Text>
        <SegmentedControl
          aria-label="Certify as"
          value={status}
          onChange={(v) => {
            setStatus(v as 'REPAIRED' | 'NOT_NEEDED');
            setConfirming(false);
          }}
          data={[
            { value: 'REPAIRED', label: 'Repaired' },
            { value: 'NOT_NEEDED', label: 'Repair not needed' },
          ]}
        />
        <Textarea
          label="Certification"
          description="What was done, or why no repair is needed"
          autosize
          minRows={2}
          maxLength={2000}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <TextInput
          label="Mechanic's name"
          required
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setNameError(null);
          }}
          error={nameError}
          maxLength={100}
        />
        {signature.field}
        {error && (
          <Alert color="red" variant="light" role="alert" py="xs">
            {error}
          </Alert>
        )}
        {confirming && (
          <Alert color="blue" variant="light" title={status === 'REPAIRED' ? 'Certify the repair?' : 'Certify that no repair is needed?'}>
            You sign as {name.trim()} that the {d.label.toLowerCase()} defect on {d.asset.unitNumber}{' '}
            {status === 'REPAIRED' ? 'was repaired' : 'needs no repair for safe operation'}. The certification cannot be changed afterwards.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={confirming ? () => setConfirming(false) : onClose}>
            {confirming ? 'Back' : 'Cancel'}
          </Button>
          <Button type="submit" loading={certify.isPending}>
            {confirming ? 'Sign and certify' : 'Certify'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
