import { useCallback } from 'react';
import { Anchor, Badge, Chip, CloseButton, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { FUEL_EVENT_RULES, FUEL_TRANSACTION_CHECK_LABELS, L_PER_US_GALLON, type FuelEvent, type UnitSystem } from '@fleet/api-contract';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useSearchParams, withParams } from '../../lib/search-params.ts';
import { useTableState } from '../../lib/table-state.ts';
import { formatFuelVolume, useUnits } from '../../lib/units.ts';
import { useFuelEvents } from './fuel-cards-api.ts';
import { FuelTabs } from './fuel-tabs.tsx';
import tones from '../../components/badge-tones.module.css';
import classes from './fuel-events.module.css';

// What the trucks' fuel level says (issue 68, part 2): drops (a fall while the truck stood, a
// possible theft) and refuels, a refuel beside the card purchase that paid for it, or none (cash,
// another card). Levels in percent of the tank and amounts in the organization's units; times in the
// viewer's zone.

const VIEWS = ['DROP', 'UNMATCHED', 'REFUEL', 'ALL'] as const;
type View = (typeof VIEWS)[number];
const VIEW_LABELS: Record<View, string> = { DROP: 'Drops', UNMATCHED: 'Refuels without a card purchase', REFUEL: 'All refuels', ALL: 'All' };
/** The API's filters of each view. */
const FILTERS: Record<View, Record<string, string>> = {
  DROP: { type: 'DROP' },
  UNMATCHED: { type: 'REFUEL', unmatched: 'true' },
  REFUEL: { type: 'REFUEL' },
  ALL: {},
};

const EMPTY: Record<View, { title: string; description: string }> = {
  DROP: {
    title: 'No drops',
    description: `No truck's fuel level fell ${FUEL_EVENT_RULES.dropPct} % of its tank within ${FUEL_EVENT_RULES.dropWithinMinutes} minutes while it stood.`,
  },
  UNMATCHED: { title: 'Every refuel has its card purchase', description: 'A refuel no card transaction of its truck matches (cash, another card) shows here.' },
  REFUEL: {
    title: 'No refuels',
    description: `A refuel is a rise of ${FUEL_EVENT_RULES.refuelPct} % of the tank or more while the truck stands. Trucks report their level with a fuel sensor (Teltonika, Traccar's fuel, the batch's fuelLevel).`,
  },
  ALL: { title: 'No refuels or drops', description: 'Trucks with a fuel-level sensor show their refuels and drops here.' },
};

const pct = (v: number) => `${Math.round(v)} %`;

/** A refuel's card transaction (it opens in the card transactions), or the badge of one no card paid for. */
function purchaseColumn(units: UnitSystem): TableColumn<FuelEvent> {
  return {
    key: 'purchase',
    header: 'Card purchase',
    render: (e) =>
      e.purchase ? (
        <Stack gap={0}>
          <Anchor component={Link} to={`/fuel-transactions?view=ALL&search=${encodeURIComponent(e.purchase.transactionId)}`} size="sm">
            {e.purchase.transactionId}
          </Anchor>
          <Text size="xs" c="dimmed">
            {formatFuelVolume(e.purchase.unit === 'GAL' ? e.purchase.quantity * L_PER_US_GALLON : e.purchase.quantity, units)} ·{' '}
            {FUEL_TRANSACTION_CHECK_LABELS[e.purchase.verification]}
          </Text>
        </Stack>
      ) : (
        <Badge variant="light" radius="sm" color="orange" className={tones.warn}>
          None: cash or another card
        </Badge>
      ),
  };
}

/** `/fuel-events`: the drops first, then the refuels no card paid for, all refuels, or everything. */
export default function FuelEventsPage() {
  const [state, setState, query] = useTableState({ sort: 'startedAt,desc' });
  const [params, setParams] = useSearchParams();
  const viewParam = params.get('view');
  const view: View = VIEWS.includes(viewParam as View) ? (viewParam as View) : 'DROP';
  const vehicleId = params.get('vehicleId');
  const setParam = useCallback(
    (patch: Record<string, string | null>) => setParams((prev) => withParams(prev, { ...patch, page: null }), { replace: true }),
    [setParams],
  );
  const units = useUnits();
  const list = useFuelEvents({ ...query, ...FILTERS[view], ...(vehicleId ? { vehicleId } : {}) });
  const counts = list.data?.counts;
  const countOf = (v: View) =>
    !counts ? null : v === 'DROP' ? counts.DROP : v === 'UNMATCHED' ? counts.UNMATCHED : v === 'REFUEL' ? counts.REFUEL : counts.REFUEL + counts.DROP;
  const unit = list.data?.content.find((e) => e.vehicleId === vehicleId)?.vehicleUnitNumber;

  const columns: TableColumn<FuelEvent>[] = [
    { key: 'startedAt', header: 'Time', sortable: true, primary: true, render: (e) => formatDateTime(e.startedAt) },
    {
      key: 'type',
      header: 'Event',
      sortable: true,
      render: (e) =>
        e.type === 'DROP' ? (
          <Group gap={4} wrap="wrap">
            <Badge variant="light" radius="sm" color="red" className={tones.danger}>
              Drop
            </Badge>
            {e.ignitionOff && (
              <Badge variant="outline" radius="sm" color="gray" className={tones.muted}>
                Ignition off
              </Badge>
            )}
          </Group>
        ) : (
          <Badge variant="light" radius="sm" color="green" className={tones.ok}>
            Refuel
          </Badge>
        ),
    },
    {
      key: 'unitNumber',
      header: 'Truck',
      sortable: true,
      render: (e) => (
        <Stack gap={0}>
          <Text size="sm">{e.vehicleUnitNumber ?? '—'}</Text>
          {e.driverName && (
            <Text size="xs" c="dimmed">
              {e.driverName}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'place', header: 'Where', render: (e) => e.place ?? `${e.latitude.toFixed(4)}, ${e.longitude.toFixed(4)}` },
    {
      key: 'level',
      header: 'Level',
      render: (e) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {pct(e.levelBeforePct)} → {pct(e.levelAfterPct)}
        </Text>
      ),
    },
    {
      key: 'quantityL',
      header: 'Amount',
      sortable: true,
      align: 'right',
      render: (e) => (
        <Text size="sm" fw={500} className={e.type === 'DROP' ? classes.drop : undefined} style={{ whiteSpace: 'nowrap' }}>
          {e.type === 'DROP' ? '−' : '+'}
          {formatFuelVolume(e.quantityL, units)}
        </Text>
      ),
    },
    // Refuels only: the card transaction that paid for it, or none.
    ...(view === 'DROP' ? [] : [purchaseColumn(units)]),
    {
      key: 'description',
      header: 'What the level did',
      hiddenByDefault: true,
      width: 360,
      render: (e) => (
        <Text size="sm" style={{ whiteSpace: 'normal' }}>
          {e.description}
        </Text>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Fuel level"
        description={`Refuels and drops in the fuel level the trucks' sensors report, read only while a truck stands. A drop of ${FUEL_EVENT_RULES.dropPct} % of the tank within ${FUEL_EVENT_RULES.dropWithinMinutes} minutes is a possible theft; a refuel no card paid for was bought with cash or another card.`}
        breadcrumbs={[{ label: 'Analytics' }, { label: 'Fuel costs (IFTA)', to: '/ifta' }, { label: 'Fuel level' }]}
      />
      <FuelTabs />
      <Stack gap="sm" mb="sm">
        <Chip.Group value={view} onChange={(v) => setParam({ view: v === 'DROP' ? null : (v as string) })}>
          <Group gap={6} role="radiogroup" aria-label="Events">
            {VIEWS.map((v) => {
              const n = countOf(v);
              return (
                <Chip key={v} value={v} size="sm" variant="outline">
                  {n === null ? VIEW_LABELS[v] : `${VIEW_LABELS[v]} (${n.toLocaleString('en-US')})`}
                </Chip>
              );
            })}
          </Group>
        </Chip.Group>
        {vehicleId && (
          <Group gap={4}>
            <Badge variant="outline" radius="sm" color="gray" className={tones.muted} size="lg" tt="none">
              {unit ? `Truck ${unit}` : 'One truck'}
            </Badge>
            <CloseButton size="sm" aria-label="Show every truck" onClick={() => setParam({ vehicleId: null })} />
          </Group>
        )}
      </Stack>
      {/* Drops have no card purchase column: a table (and a column choice) of their own. */}
      <ServerTable
        key={view === 'DROP' ? 'drops' : 'refuels'}
        id={view === 'DROP' ? 'fuel-drops' : 'fuel-refuels'}
        label="Fuel level events"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(e) => e.id}
        searchPlaceholder="Unit number"
        emptyTitle={EMPTY[view].title}
        emptyDescription={EMPTY[view].description}
      />
    </>
  );
}
