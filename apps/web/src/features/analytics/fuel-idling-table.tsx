import { Alert, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import type { FuelEconomy, FuelEconomyGroupBy, FuelEconomyRow } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { VsMedianText, describeVsMedian } from '../../components/vs-median.tsx';
import {
  FUEL_BASIS_WORDS,
  FUEL_RANGE_TOO_LONG,
  economyVsMedian,
  formatHoursMinutes,
  fuelRangeTooLong,
  idleVsMedian,
  useFuelEconomy,
} from '../../lib/fuel-economy.ts';
import { formatDistance, formatFuelEconomyLPer100Km, formatFuelVolume, useUnits, type UnitSystem } from '../../lib/units.ts';

// Fleet performance's "Fuel and idling" tab (issue 68, decision 0280): each vehicle's or driver's
// fuel economy and idling against the fleet's median, with what the fuel was counted from.

/** "Median 6.5 mpg (18 vehicles) · idle 12.4 % of engine time (20)". */
export function medianLine(f: FuelEconomy, units: UnitSystem): string {
  const who = f.groupBy === 'driver' ? ['driver', 'drivers'] : ['vehicle', 'vehicles'];
  const n = (k: number) => `${k} ${k === 1 ? who[0] : who[1]}`;
  const economy = f.median.lPer100Km === null ? 'no fuel data' : `${formatFuelEconomyLPer100Km(f.median.lPer100Km, units)} (${n(f.median.economyCount)})`;
  const idle = f.median.idleSharePct === null ? 'no engine time' : `idle ${f.median.idleSharePct.toFixed(1)} % of engine time (${n(f.median.idleShareCount)})`;
  return `Fleet median: ${economy} · ${idle}`;
}

function Row({ r, f, units }: { r: FuelEconomyRow; f: FuelEconomy; units: UnitSystem }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>
          {f.groupBy === 'vehicle' ? `Vehicle ${r.name}` : r.name}
        </Text>
        <Text size="xs" c="dimmed">
          {r.economy ? FUEL_BASIS_WORDS[r.economy.basis] : 'No fuel data'}
        </Text>
      </Table.Td>
      <Table.Td ta="right">{formatDistance(r.distanceM, units)}</Table.Td>
      <Table.Td ta="right">{r.economy ? formatFuelVolume(r.economy.fuelL, units) : '—'}</Table.Td>
      <Table.Td ta="right" fw={600}>
        {formatFuelEconomyLPer100Km(r.economy?.lPer100Km, units)}
      </Table.Td>
      <Table.Td ta="right">
        <VsMedianText v={economyVsMedian(r.economy?.lPer100Km, f.median.lPer100Km, units)} describe={describeVsMedian('economy')} />
      </Table.Td>
      <Table.Td ta="right">{formatHoursMinutes(r.idleMs)}</Table.Td>
      <Table.Td ta="right">{r.idleSharePct === null ? '—' : `${r.idleSharePct.toFixed(1)} %`}</Table.Td>
      <Table.Td ta="right">
        <VsMedianText v={idleVsMedian(r.idleSharePct, f.median.idleSharePct)} describe={describeVsMedian('idle share')} />
      </Table.Td>
      <Table.Td ta="right">{formatFuelVolume(r.idleFuelL, units)}</Table.Td>
    </Table.Tr>
  );
}

const HEADS = ['Name', 'Distance', 'Fuel used', 'Economy', 'vs median', 'Idle', 'Idle share', 'vs median', 'Idle fuel'];

/** The tab's content: per vehicle or per driver over the page's range and group. */
export function FuelIdlingTable({
  from,
  to,
  groupId,
  groupBy,
  onGroupBy,
}: {
  from: string;
  to: string;
  groupId?: string;
  groupBy: FuelEconomyGroupBy;
  onGroupBy: (g: FuelEconomyGroupBy) => void;
}) {
  const units = useUnits();
  const q = useFuelEconomy({ from, to, groupBy, groupId });
  const f = q.data;
  return (
    <Stack gap="sm" data-testid="fuel-idling">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <SegmentedControl
          aria-label="Fuel and idling per"
          size="xs"
          data={[
            { value: 'vehicle', label: 'Vehicles' },
            { value: 'driver', label: 'Drivers' },
          ]}
          value={groupBy}
          onChange={(v) => onGroupBy(v as FuelEconomyGroupBy)}
        />
        {f && (
          <Text size="sm" c="dimmed" data-testid="fuel-median">
            {medianLine(f, units)}
          </Text>
        )}
      </Group>
      {fuelRangeTooLong(from, to) && (
        <Alert color="yellow" variant="light" data-testid="fuel-range-too-long">
          {FUEL_RANGE_TOO_LONG}
        </Alert>
      )}
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={!!f && f.rows.length === 0}
        emptyTitle="No fuel data"
        emptyDescription={
          groupBy === 'driver'
            ? 'No driver drove or idled in this range.'
            : 'No vehicle drove or idled in this range. Economy needs the engine fuel counter or two fuel purchases.'
        }
      >
        {f && (
          <Table.ScrollContainer minWidth={900}>
            <Table striped highlightOnHover verticalSpacing="xs" fz="sm" style={{ whiteSpace: 'nowrap' }} aria-label="Fuel and idling">
              <Table.Thead>
                <Table.Tr>
                  {HEADS.map((h, i) => (
                    <Table.Th key={i} ta={i === 0 ? 'left' : 'right'}>
                      {h}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {f.rows.map((r) => (
                  <Row key={r.id} r={r} f={f} units={units} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </DataState>
      <Text size="xs" c="dimmed">
        Fuel used is the engine&apos;s fuel counter where the truck reports it, else the fuel bought after the first fill up to the last, over the distance
        between them. Idling is the safety settings&apos; (engine on, standing, longer than the idling threshold); its share is of engine time.
      </Text>
    </Stack>
  );
}
