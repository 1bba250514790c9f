import { useCallback, useMemo, type ReactNode } from 'react';
import { Button, Group, NativeSelect, Paper, Text, TextInput } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { Asset, Driver, ReportKind } from '@fleet/api-contract';
import { DownloadMenu } from '../../components/download-menu.tsx';
import { addDays, dayStartIn, todayIn, useViewerZone, zoneLabel } from '../../lib/dates.ts';
import { useGroups } from '../../lib/map/map-api.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';
import { usePagedList } from '../../lib/registry-api.ts';
import { downloadReport, usePlaceOptions } from './reports-api.ts';
import { useSearchParams } from '../../lib/search-params.ts';

// What the four report screens share: the tabs between them, the filters kept in the URL (days in
// the viewer's zone, decision 0140), and the toolbar with the CSV/PDF download.

const TABS = [
  { path: '/reports/trips', label: 'Trips' },
  { path: '/reports/stops', label: 'Stops' },
  { path: '/reports/visits', label: 'Place visits' },
  { path: '/reports/summary', label: 'Daily summary' },
  { path: '/reports/subscriptions', label: 'Scheduled reports' },
];

export function ReportsTabs() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  // The filters travel between the reports (not the paging).
  const keep = new URLSearchParams([...params].filter(([k]) => FILTER_KEYS.includes(k as FilterKey)));
  const qs = keep.toString() ? `?${keep}` : '';
  return (
    <Group component="nav" aria-label="Report screens" gap={4} mb="md" wrap="wrap">
      {TABS.map((t) => {
        const active = pathname.startsWith(t.path);
        return (
          <Button
            key={t.path}
            component={Link}
            to={t.path === '/reports/subscriptions' ? t.path : `${t.path}${qs}`}
            size="compact-sm"
            variant={active ? 'filled' : 'subtle'}
            aria-current={active ? 'page' : undefined}
          >
            {t.label}
          </Button>
        );
      })}
    </Group>
  );
}

const FILTER_KEYS = ['from', 'to', 'asset', 'driver', 'group', 'place'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

export interface ReportFilterState {
  fromDay: string;
  toDay: string;
  assetId?: string;
  driverId?: string;
  groupId?: string;
  placeId?: string;
  /** The API's filters: `from` and `to` as instants bounding the days in the viewer's zone. */
  query: Record<string, QueryValue>;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The report filters in the URL (`?from=2026-06-01&to=2026-06-07&asset=…`); the last 7 days by default. */
export function useReportFilters(): [ReportFilterState, (key: FilterKey, value: string | null) => void] {
  const zone = useViewerZone();
  const [params, setParams] = useSearchParams();
  const today = todayIn(zone);
  const state = useMemo(() => {
    const from = params.get('from');
    const to = params.get('to');
    const toDay = to && DAY.test(to) ? to : today;
    const fromDay = from && DAY.test(from) && from <= toDay ? from : addDays(toDay, -6);
    const opt = (k: string) => params.get(k) || undefined;
    const s: ReportFilterState = {
      fromDay,
      toDay,
      assetId: opt('asset'),
      driverId: opt('driver'),
      groupId: opt('group'),
      placeId: opt('place'),
      query: {},
    };
    s.query = {
      from: dayStartIn(fromDay, zone),
      to: dayStartIn(addDays(toDay, 1), zone),
      assetId: s.assetId,
      driverId: s.driverId,
      groupId: s.groupId,
      placeId: s.placeId,
    };
    return s;
  }, [params, today, zone]);
  const set = useCallback(
    (key: FilterKey, value: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value) next.set(key, value);
          else next.delete(key);
          next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [state, set];
}

const NO_ASSETS: Asset[] = [];
const NO_DRIVERS: Driver[] = [];

/** The filter bar: days, vehicle, driver, group (and place for visits), with the download on the right. */
export function ReportFilters({
  kind,
  filters,
  onChange,
  extra,
  query,
}: {
  kind: ReportKind;
  filters: ReportFilterState;
  onChange: (key: FilterKey, value: string | null) => void;
  extra?: ReactNode;
  /** More of the export's query (the summary's `by`). */
  query?: Record<string, QueryValue>;
}) {
  const orgId = useEffectiveOrganizationId();
  const zone = useViewerZone();
  const vehicles = usePagedList<Asset>('assets', { type: 'VEHICLE', size: 500, sort: 'unitNumber,asc' }).data?.content ?? NO_ASSETS;
  const drivers = usePagedList<Driver>('drivers', { size: 500, sort: 'lastName,asc' }).data?.content ?? NO_DRIVERS;
  const groups = useGroups().data?.content ?? [];
  const places = usePlaceOptions(kind === 'VISITS').data?.content ?? [];
  const zoneName = zoneLabel(dayStartIn(filters.fromDay, zone), zone);
  return (
    <Paper withBorder p="sm" mb="md">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={`From (${zoneName})`}
          type="date"
          value={filters.fromDay}
          max={filters.toDay}
          onChange={(e) => onChange('from', e.currentTarget.value || null)}
          w={160}
        />
        <TextInput
          label={`To (${zoneName})`}
          type="date"
          value={filters.toDay}
          min={filters.fromDay}
          onChange={(e) => onChange('to', e.currentTarget.value || null)}
          w={160}
        />
        <NativeSelect
          label="Vehicle"
          value={filters.assetId ?? ''}
          onChange={(e) => onChange('asset', e.currentTarget.value || null)}
          data={[{ value: '', label: 'Every vehicle' }, ...vehicles.map((v) => ({ value: v.id, label: v.unitNumber }))]}
          w={170}
        />
        <NativeSelect
          label="Driver"
          value={filters.driverId ?? ''}
          onChange={(e) => onChange('driver', e.currentTarget.value || null)}
          data={[{ value: '', label: 'Every driver' }, ...drivers.map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` }))]}
          w={190}
        />
        <NativeSelect
          label="Group"
          value={filters.groupId ?? ''}
          onChange={(e) => onChange('group', e.currentTarget.value || null)}
          data={[{ value: '', label: 'Every group' }, ...groups.map((g) => ({ value: g.id, label: g.name }))]}
          w={170}
        />
        {kind === 'VISITS' && (
          <NativeSelect
            label="Place"
            value={filters.placeId ?? ''}
            onChange={(e) => onChange('place', e.currentTarget.value || null)}
            data={[{ value: '', label: 'Every place' }, ...places.map((p) => ({ value: p.id, label: p.name }))]}
            w={200}
          />
        )}
        {extra}
        <Group ml="auto">
          <DownloadMenu label="Download" download={(format) => downloadReport(orgId ?? '', kind, { ...filters.query, ...query }, format)} />
        </Group>
      </Group>
    </Paper>
  );
}

/** A figure above a report: label and value. */
export function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="xs" miw={120}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700}>{value}</Text>
    </Paper>
  );
}

/** "2 h 05 min" / "45 min" / "0 min" of seconds. */
export function formatSeconds(s: number | null | undefined): string {
  if (s === null || s === undefined) return '—';
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return h ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min`;
}

/** The day (YYYY-MM-DD) an instant falls on in the viewer's zone. */
export const dayOf = (iso: string, zone: string) => todayIn(zone, new Date(iso));
