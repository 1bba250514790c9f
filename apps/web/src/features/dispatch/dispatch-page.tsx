import { useMemo, useState } from 'react';
import { Button, Group, Pagination, Select, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconFileImport, IconPlus, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LOAD_STATUSES, LOAD_STATUS_LABELS, type LoadStatus } from '@fleet/api-contract/loads';
import type { Load } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { addDays, dayStartIn, todayIn, useViewerZone, zoneLabel } from '../../lib/dates.ts';
import { useCan } from '../../lib/registry-api.ts';
import { withParams, useSearchParams } from '../../lib/search-params.ts';
import { useDriverOptions, useLoadCounts, useLoads, type LoadListFilters } from './dispatch-api.ts';
import { dayHeading, groupByDay } from './dispatch-format.ts';
import classes from './dispatch.module.css';
import { LoadCard } from './load-card.tsx';
import { LoadImportDrawer } from './load-import.tsx';

const PAGE_SIZE = 30;
const NO_LOADS: Load[] = [];
/** The board's tabs: every status, and all of them. The first tab's words say what "planned" means to a dispatcher. */
const TAB_LABELS: Record<LoadStatus, string> = { ...LOAD_STATUS_LABELS, PLANNED: 'Planned (unassigned)' };
const isDay = (v: string | null): v is string => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v);
const isStatus = (v: string | null): v is LoadStatus => !!v && (LOAD_STATUSES as readonly string[]).includes(v);

/**
 * `/dispatch`: the loads board. Tabs by status (with counts), the loads of a tab grouped by the day of
 * their first pick-up in the viewer's zone; filters (status, driver, customer, pick-up dates, search)
 * and the page live in the URL, so a reload or a shared link shows the same board.
 */
export default function DispatchPage() {
  const zone = useViewerZone();
  const canEdit = useCan('LOAD_UPDATE');
  const [params, setParams] = useSearchParams();
  const status = isStatus(params.get('status')) ? (params.get('status') as LoadStatus) : null;
  const driverId = params.get('driver');
  const customer = params.get('customer') ?? '';
  const from = isDay(params.get('from')) ? params.get('from')! : null;
  const to = isDay(params.get('to')) ? params.get('to')! : null;
  const search = params.get('search') ?? '';
  const page = Math.max(0, Number.parseInt(params.get('page') ?? '0', 10) || 0);
  const set = (patch: Record<string, string | null>) => setParams((prev) => withParams(prev, patch, 'page'), { replace: true });
  const [importing, setImporting] = useState(false);
  const [searchText, setSearchText] = useState(search);
  const [customerText, setCustomerText] = useState(customer);
  const debounced = useDebouncedCallback((patch: Record<string, string | null>) => set(patch), 350);

  const common = useMemo<Omit<LoadListFilters, 'status' | 'page' | 'size'>>(
    () => ({
      driverId: driverId ?? undefined,
      customer: customer.trim() || undefined,
      search: search.trim() || undefined,
      // The pick-up dates are the viewer's days (decision 0140), sent as instants.
      from: from ? dayStartIn(from, zone) : undefined,
      to: to ? dayStartIn(addDays(to, 1), zone) : undefined,
    }),
    [driverId, customer, search, from, to, zone],
  );
  const list = useLoads({ ...common, status: status ?? undefined, page, size: PAGE_SIZE });
  const counts = useLoadCounts(LOAD_STATUSES, common);
  const drivers = useDriverOptions();
  const loads = list.data?.content ?? NO_LOADS;
  const groups = useMemo(() => groupByDay(loads, zone), [loads, zone]);
  const today = todayIn(zone);
  const totalPages = list.data?.totalPages ?? 0;
  const filtered = !!(driverId || customer || from || to || search);

  return (
    <>
      <PageHeader
        title="Dispatch"
        description={`Loads by status and by the day of their first pick-up (${zoneLabel(null, zone)}). Open a load to see its legal plan and who can take it.`}
        actions={
          canEdit && (
            <Group gap="xs">
              <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
                Import
              </Button>
              <Button component={Link} to="/dispatch/loads/new" leftSection={<IconPlus size={16} />}>
                New load
              </Button>
            </Group>
          )
        }
      />
      <Stack gap="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label="Search"
            placeholder="Number, customer, BOL, PO"
            leftSection={<IconSearch size={16} />}
            value={searchText}
            onChange={(e) => {
              setSearchText(e.currentTarget.value);
              debounced({ search: e.currentTarget.value.trim() || null });
            }}
            w={{ base: '100%', xs: 240 }}
          />
          <Select
            label="Driver"
            placeholder="Any driver"
            clearable
            searchable
            data={(drivers.data?.content ?? []).map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` }))}
            value={driverId}
            onChange={(v) => set({ driver: v })}
            w={{ base: '100%', xs: 200 }}
          />
          <TextInput
            label="Customer"
            placeholder="Any customer"
            value={customerText}
            onChange={(e) => {
              setCustomerText(e.currentTarget.value);
              debounced({ customer: e.currentTarget.value.trim() || null });
            }}
            w={{ base: '100%', xs: 180 }}
          />
          <TextInput
            type="date"
            label="Pick-up from"
            value={from ?? ''}
            max={to ?? undefined}
            onChange={(e) => set({ from: isDay(e.currentTarget.value) ? e.currentTarget.value : null })}
            w={{ base: '47%', xs: 160 }}
          />
          <TextInput
            type="date"
            label="Pick-up to"
            value={to ?? ''}
            min={from ?? undefined}
            onChange={(e) => set({ to: isDay(e.currentTarget.value) ? e.currentTarget.value : null })}
            w={{ base: '47%', xs: 160 }}
          />
          {filtered && (
            <Button
              variant="subtle"
              onClick={() => {
                setSearchText('');
                setCustomerText('');
                set({ driver: null, customer: null, from: null, to: null, search: null });
              }}
            >
              Clear filters
            </Button>
          )}
        </Group>
        <Tabs value={status ?? 'ALL'} onChange={(v) => set({ status: v === 'ALL' ? null : v })} keepMounted={false}>
          <Tabs.List style={{ overflowX: 'auto', flexWrap: 'nowrap' }}>
            <Tabs.Tab value="ALL">All</Tabs.Tab>
            {LOAD_STATUSES.map((s) => (
              <Tabs.Tab
                key={s}
                value={s}
                rightSection={
                  counts[s] !== undefined ? (
                    <Text span size="xs" c="dimmed">
                      {counts[s]}
                    </Text>
                  ) : undefined
                }
              >
                {TAB_LABELS[s]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        <DataState
          isLoading={list.isLoading}
          error={list.error}
          onRetry={() => void list.refetch()}
          isEmpty={!!list.data && loads.length === 0}
          emptyTitle={filtered || status ? 'No loads match' : 'No loads yet'}
          emptyDescription={
            filtered || status
              ? 'Change the filters or pick another status.'
              : canEdit
                ? 'Create a load, or import loads from a CSV file.'
                : 'Loads appear here once dispatch creates them.'
          }
        >
          <Stack gap="lg" aria-busy={list.isPlaceholderData} style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
            {groups.map((g) => (
              <section key={g.day} aria-labelledby={`day-${g.day || 'none'}`}>
                <Title order={2} fz="md" mb="xs" id={`day-${g.day || 'none'}`}>
                  {dayHeading(g.day, today)}{' '}
                  <Text span c="dimmed" fz="sm" fw={400}>
                    · {g.loads.length} {g.loads.length === 1 ? 'load' : 'loads'}
                  </Text>
                </Title>
                <div className={classes.board}>
                  {g.loads.map((l) => (
                    <LoadCard key={l.id} load={l} />
                  ))}
                </div>
              </section>
            ))}
            {totalPages > 1 && (
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {list.data?.totalElements.toLocaleString('en-US')} loads
                </Text>
                <Pagination
                  total={totalPages}
                  value={page + 1}
                  onChange={(p) => setParams((prev) => withParams(prev, { page: p > 1 ? String(p - 1) : null }), { replace: true })}
                  getControlProps={(c) => ({ 'aria-label': `${c} page` })}
                  getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
                />
              </Group>
            )}
          </Stack>
        </DataState>
      </Stack>
      {canEdit && <LoadImportDrawer opened={importing} onClose={() => setImporting(false)} />}
    </>
  );
}
