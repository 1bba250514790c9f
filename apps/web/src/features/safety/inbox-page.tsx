import { useEffect, useMemo, useState } from 'react';
import { Badge, Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { SAFETY_EVENT_TYPES, SAFETY_SEVERITIES, SAFETY_STATUSES, type Asset, type Driver, type SafetyEvent } from '@fleet/api-contract';
import tones from '../../components/badge-tones.module.css';
import { DownloadMenu } from '../../components/download-menu.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDateTime, useViewerZone } from '../../lib/dates.ts';
import { useGroups } from '../../lib/map/map-api.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { usePagedList } from '../../lib/registry-api.ts';
import { withParams, useSearchParams } from '../../lib/search-params.ts';
import { useTableState } from '../../lib/table-state.ts';
import { useUnits } from '../../lib/units.ts';
import { PeriodFilter, SafetyTabs, useSafetyPeriod } from './safety-common.tsx';
import { downloadSafety, useSafetyEvents } from './safety-api.ts';
import { eventFigures, SeverityBadge, StatusBadge } from './safety-words.tsx';

const NO_ASSETS: Asset[] = [];
const NO_DRIVERS: Driver[] = [];

/**
 * `/safety`: the safety inbox. Events needing review by default, the most severe first, filtered by
 * period, driver, vehicle, group, type, severity and status; a row opens the event.
 */
export default function SafetyInboxPage() {
  const { t, i18n } = useTranslation();
  const units = useUnits();
  const zone = useViewerZone();
  const orgId = useEffectiveOrganizationId();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const [period, setPeriod] = useSafetyPeriod();
  // A notification links its event as `/safety?event=<id>`: open it, with the inbox to go back to.
  const linked = params.get('event');
  useEffect(() => {
    if (linked) void navigate(`/safety/events/${encodeURIComponent(linked)}`, { replace: true, state: { back: '/safety' } });
  }, [linked, navigate]);
  const [state, setState, page] = useTableState();
  const status = params.get('status') ?? 'NEW';
  const filters = {
    from: period.from,
    to: period.to,
    driverId: params.get('driver') || undefined,
    assetId: params.get('asset') || undefined,
    groupId: params.get('group') || undefined,
    type: params.get('type') || undefined,
    severity: params.get('severity') || undefined,
    status: status === 'ALL' ? undefined : status,
  };
  const list = useSafetyEvents({ ...page, search: undefined, ...filters });
  const vehicles = usePagedList<Asset>('assets', { type: 'VEHICLE', size: 500, sort: 'unitNumber,asc' }).data?.content ?? NO_ASSETS;
  const drivers = usePagedList<Driver>('drivers', { size: 500, sort: 'lastName,asc' }).data?.content ?? NO_DRIVERS;
  const groups = useGroups().data?.content ?? [];
  const set = (key: string, value: string | null) => setParams((prev) => withParams(prev, { [key]: value }, 'page'), { replace: true });
  // On a phone the period and status show; the other filters open under "More filters" (with how many are set).
  const mobile = useMediaQuery('(max-width: 48em)') ?? false;
  const [more, setMore] = useState(false);
  const extra = [filters.type, filters.severity, filters.driverId, filters.assetId, filters.groupId].filter(Boolean).length;
  const showMore = !mobile || more;

  const columns: TableColumn<SafetyEvent>[] = useMemo(
    () => [
      { key: 'severity', header: t('safety.col.severity'), sortable: true, render: (e) => <SeverityBadge severity={e.severity} /> },
      {
        key: 'type',
        header: t('safety.col.event'),
        sortable: true,
        primary: true,
        render: (e) => (
          <Stack gap={0}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" fw={600}>
                {t(`safety.type.${e.type}`)}
                {e.band ? ` · ${t(`safety.band.${e.band}`)}` : ''}
              </Text>
              {e.disputedAt && (
                <Badge size="xs" variant="outline" radius="sm" className={tones.warn} title={e.disputeNote ?? undefined}>
                  {t('safety.inbox.disputed')}
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {eventFigures(e, units, t, i18n.language)}
            </Text>
          </Stack>
        ),
      },
      { key: 'driver', header: t('safety.col.driver'), render: (e) => e.driverName ?? t('safety.noDriver') },
      { key: 'vehicle', header: t('safety.col.vehicle'), render: (e) => e.assetName },
      {
        key: 'startedAt',
        header: t('safety.col.when'),
        sortable: true,
        render: (e) => (
          <Stack gap={0}>
            <Text size="sm">{formatDateTime(e.startedAt, zone)}</Text>
            {e.place && (
              <Text size="xs" c="dimmed" lineClamp={1}>
                {e.place}
              </Text>
            )}
          </Stack>
        ),
      },
      { key: 'source', header: t('safety.col.source'), hiddenByDefault: true, render: (e) => t(`safety.source.${e.source}`) },
      { key: 'status', header: t('safety.col.status'), sortable: true, render: (e) => <StatusBadge status={e.status} /> },
    ],
    [t, i18n.language, units, zone],
  );

  return (
    <>
      <PageHeader
        title={t('safety.title')}
        description={t('safety.inbox.description')}
        actions={<DownloadMenu label={t('safety.export')} download={(format) => downloadSafety(orgId ?? '', 'events', filters, format)} />}
      />
      <SafetyTabs />
      <Paper withBorder p="sm" mb="md" component="section" aria-label={t('safety.filter.label')}>
        <Group gap="xs" wrap="wrap" align="flex-end">
          <PeriodFilter period={period} onChange={setPeriod} />
          <NativeSelect
            aria-label={t('safety.col.status')}
            value={status}
            onChange={(e) => set('status', e.currentTarget.value === 'NEW' ? null : e.currentTarget.value)}
            data={[...SAFETY_STATUSES.map((s) => ({ value: s, label: t(`safety.status.${s}`) })), { value: 'ALL', label: t('safety.filter.anyStatus') }]}
          />
          {mobile && (
            <Button
              variant="subtle"
              size="sm"
              onClick={() => setMore((m) => !m)}
              aria-expanded={showMore}
              rightSection={<IconChevronDown size={14} style={{ transform: showMore ? 'rotate(180deg)' : undefined }} aria-hidden />}
            >
              {extra > 0 ? t('safety.filter.moreCount', { count: extra }) : t('safety.filter.more')}
            </Button>
          )}
          {showMore && (
            <>
              <NativeSelect
                aria-label={t('safety.filter.type')}
                value={filters.type ?? ''}
                onChange={(e) => set('type', e.currentTarget.value || null)}
                data={[{ value: '', label: t('safety.filter.anyType') }, ...SAFETY_EVENT_TYPES.map((x) => ({ value: x, label: t(`safety.type.${x}`) }))]}
              />
              <NativeSelect
                aria-label={t('safety.col.severity')}
                value={filters.severity ?? ''}
                onChange={(e) => set('severity', e.currentTarget.value || null)}
                data={[
                  { value: '', label: t('safety.filter.anySeverity') },
                  ...[...SAFETY_SEVERITIES].reverse().map((x) => ({ value: x, label: t(`safety.severity.${x}`) })),
                ]}
              />
              <NativeSelect
                aria-label={t('safety.col.driver')}
                value={filters.driverId ?? ''}
                onChange={(e) => set('driver', e.currentTarget.value || null)}
                data={[{ value: '', label: t('safety.filter.anyDriver') }, ...drivers.map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` }))]}
              />
              <NativeSelect
                aria-label={t('safety.col.vehicle')}
                value={filters.assetId ?? ''}
                onChange={(e) => set('asset', e.currentTarget.value || null)}
                data={[{ value: '', label: t('safety.filter.anyVehicle') }, ...vehicles.map((v) => ({ value: v.id, label: v.unitNumber }))]}
              />
              <NativeSelect
                aria-label={t('safety.filter.group')}
                value={filters.groupId ?? ''}
                onChange={(e) => set('group', e.currentTarget.value || null)}
                data={[{ value: '', label: t('safety.filter.anyGroup') }, ...groups.map((g) => ({ value: g.id, label: g.name }))]}
              />
            </>
          )}
        </Group>
      </Paper>
      <ServerTable
        id="safety-inbox"
        label={t('safety.inbox.label')}
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(e) => e.id}
        onRowClick={(e) => void navigate(`/safety/events/${e.id}`, { state: { back: `${location.pathname}${location.search}` } })}
        searchable={false}
        emptyTitle={status === 'NEW' ? t('safety.inbox.emptyNew') : t('safety.inbox.empty')}
        emptyDescription={status === 'NEW' ? t('safety.inbox.emptyNewBody') : t('safety.inbox.emptyBody')}
      />
    </>
  );
}
