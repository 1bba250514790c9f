import { Anchor, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { AssetDetail, Defect, Dvir, MaintenanceNext, Page, WorkOrder } from '@fleet/api-contract';
import tones from '../../components/badge-tones.module.css';
import { DownloadMenu } from '../../components/download-menu.tsx';
import { ApiError, api } from '../../lib/api-client.ts';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { saveFile } from '../../lib/download.ts';
import { orgPath, orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';
import { useCan } from '../../lib/registry-api.ts';
import { formatOdometer, useUnits } from '../../lib/units.ts';

// A unit's inspections and maintenance on its detail (issue 31). The calls are this feature's own (a
// feature imports no other); the keys sit under ['maintenance', orgId], which every maintenance change
// invalidates, so the detail follows the maintenance screens.

function useUnitList<T>(what: string, assetId: string, query: Record<string, QueryValue>, enabled: boolean) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: ['maintenance', orgId, 'asset', assetId, what, query] as const,
    queryFn: async ({ signal }) => {
      try {
        return await api<T>(orgPathFor(orgId ?? '', `/${what}`), { query: { ...query, assetId }, signal, toast: false });
      } catch (err) {
        // An endpoint not there yet reads as nothing to show.
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    enabled: enabled && !!orgId,
  });
}

const KIND = { PRE_TRIP: 'Pre-trip', POST_TRIP: 'Post-trip' } as const;
const WO_STATUS = { OPEN: 'Open', IN_PROGRESS: 'In progress', DONE: 'Done' } as const;

function Block({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={4} fz="sm">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

const None = ({ children }: { children: React.ReactNode }) => (
  <Text size="sm" c="dimmed">
    {children}
  </Text>
);

/** The unit's next services, open defects, latest inspections and work orders, and its maintenance history download. */
export function AssetMaintenance({ asset: a }: { asset: AssetDetail }) {
  const canReports = useCan('DVIR_LIST');
  const canOrders = useCan('WORK_ORDER_LIST');
  const canPlan = useCan('MAINTENANCE_LIST');
  const units = useUnits();
  const vehicle = a.type === 'VEHICLE';
  const next = useUnitList<MaintenanceNext>('maintenance/next', a.id, {}, canPlan && vehicle);
  const defects = useUnitList<Page<Defect>>('defects', a.id, { status: 'OPEN', size: 20 }, canReports);
  // A trailer's reports are its vehicle's: the list filters by the vehicle inspected.
  const reports = useUnitList<Page<Dvir>>('dvirs', a.id, { size: 5 }, canReports && vehicle);
  const orders = useUnitList<Page<WorkOrder>>('work-orders', a.id, { size: 5 }, canOrders);
  if (!canReports && !canOrders && !canPlan) return null;
  return (
    <Stack gap="md">
      {canPlan && vehicle && (
        <Block title="Next service">
          {(next.data?.items ?? []).length === 0 ? (
            <None>{next.isLoading ? 'Loading…' : 'No maintenance schedule covers this vehicle.'}</None>
          ) : (
            next.data!.items.map((s) => (
              <Group key={s.scheduleId} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm">{s.name}</Text>
                <Group gap={6} wrap="nowrap">
                  <Text size="xs" c="dimmed" ta="right">
                    {[
                      s.dueAt ? formatDate(s.dueAt) : null,
                      s.dueOdometer !== null ? formatOdometer(s.dueOdometer, units) : null,
                      s.dueEngineHours !== null ? `${Math.round(s.dueEngineHours).toLocaleString('en-US')} h` : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                  <Badge variant="outline" radius="sm" className={s.status === 'OVERDUE' ? tones.danger : s.status === 'DUE' ? tones.warn : tones.ok}>
                    {s.status === 'OVERDUE' ? 'Overdue' : s.status === 'DUE' ? 'Coming due' : 'OK'}
                  </Badge>
                </Group>
              </Group>
            ))
          )}
        </Block>
      )}
      {canReports && (
        <Block title="Open defects">
          {(defects.data?.content ?? []).length === 0 ? (
            <None>{defects.isLoading ? 'Loading…' : 'No open defect.'}</None>
          ) : (
            defects.data!.content.map((d) => (
              <Group key={d.id} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm">
                  {d.label}
                  {d.note ? `: ${d.note}` : ''}
                </Text>
                <Badge variant="outline" radius="sm" className={d.safety ? tones.danger : tones.muted}>
                  {d.safety ? 'Safety' : 'Minor'}
                </Badge>
              </Group>
            ))
          )}
          {(defects.data?.totalElements ?? 0) > 0 && (
            <Anchor component={Link} to={`/maintenance/defects?assetId=${a.id}`} size="sm">
              Open the defects
            </Anchor>
          )}
        </Block>
      )}
      {canReports && vehicle && (
        <Block title="Inspection history">
          {(reports.data?.content ?? []).length === 0 ? (
            <None>{reports.isLoading ? 'Loading…' : 'No inspection report yet.'}</None>
          ) : (
            reports.data!.content.map((r) => (
              <Group key={r.id} justify="space-between" wrap="nowrap" gap="xs">
                <Anchor component={Link} to={`/maintenance/inspections/${r.id}`} size="sm">
                  {KIND[r.kind]} · {formatDateTime(r.inspectedAt)}
                </Anchor>
                <Text size="xs" c="dimmed" ta="right">
                  {r.driver?.name ?? r.signature.name} · {r.hasDefects ? `${r.defects.length} defect${r.defects.length === 1 ? '' : 's'}` : 'no defects'}
                </Text>
              </Group>
            ))
          )}
          {(reports.data?.totalElements ?? 0) > 5 && (
            <Anchor component={Link} to={`/maintenance/inspections?assetId=${a.id}`} size="sm">
              Every report of {a.unitNumber}
            </Anchor>
          )}
        </Block>
      )}
      {canOrders && (
        <Block title="Work orders">
          {(orders.data?.content ?? []).length === 0 ? (
            <None>{orders.isLoading ? 'Loading…' : 'No work order yet.'}</None>
          ) : (
            orders.data!.content.map((w) => (
              <Group key={w.id} justify="space-between" wrap="nowrap" gap="xs">
                <Anchor component={Link} to={`/maintenance/work-orders?open=${w.id}`} size="sm">
                  {w.title}
                </Anchor>
                <Text size="xs" c="dimmed" ta="right">
                  {WO_STATUS[w.status]} · {formatDate(w.completedAt ?? w.createdAt)}
                </Text>
              </Group>
            ))
          )}
        </Block>
      )}
      <HistoryDownload asset={a} />
    </Stack>
  );
}

function HistoryDownload({ asset: a }: { asset: AssetDetail }) {
  const download = async (format: 'csv' | 'pdf') =>
    saveFile(
      await api<Blob>(orgPath('/maintenance/history/export'), { query: { assetId: a.id, format }, blob: true }),
      `maintenance-history-${a.unitNumber}.${format}`,
    );
  return (
    <Group>
      <DownloadMenu label="Maintenance history" size="xs" position="bottom-start" download={download} />
    </Group>
  );
}

export { IconTool as MaintenanceIcon };
