import { useRef, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Alert, Box, Button, Group, Loader, ScrollArea, Select, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { LiveVehicle, VehicleStatus } from '@fleet/api-contract';
import { formatAge } from '../../lib/map/map-api.ts';
import { LIGHT_TONES } from '../../lib/theme.ts';
import { formatSpeed, type UnitSystem } from '../../lib/units.ts';
import { STATUS_COLORS, STATUS_LABELS, STATUS_TONES } from './vehicle-layers.ts';

const STATUSES: VehicleStatus[] = ['MOVING', 'IDLING', 'STOPPED', 'OFFLINE'];

interface VehicleListProps {
  vehicles: LiveVehicle[];
  total: number;
  loaded: boolean;
  loadError: string | null;
  counts: Record<VehicleStatus, number>;
  search: string;
  onSearch: (s: string) => void;
  status: VehicleStatus | null;
  onStatus: (s: VehicleStatus | null) => void;
  groupId: string | null;
  onGroup: (g: string | null) => void;
  groups: { value: string; label: string }[];
  selectedId: string | null;
  onSelect: (v: LiveVehicle) => void;
  units: UnitSystem;
}

/** The side list: search, group and status filters with their counts, and the vehicles (a drawer on phones). */
export function VehicleList(p: VehicleListProps) {
  const viewport = useRef<HTMLDivElement>(null);
  return (
    <>
      <Stack gap="xs" p="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <TextInput
          aria-label="Search vehicles"
          placeholder="Search unit or driver"
          leftSection={<IconSearch size={16} />}
          value={p.search}
          onChange={(e) => p.onSearch(e.currentTarget.value)}
        />
        <Select aria-label="Group" placeholder="All groups" clearable data={p.groups} value={p.groupId} onChange={p.onGroup} />
        <Group gap={6} role="group" aria-label="Status filter">
          {STATUSES.map((s) => {
            const active = p.status === s;
            return (
              <Button
                key={s}
                size="compact-xs"
                radius="xl"
                variant={active ? 'filled' : 'light'}
                // Filled (chosen): white on the tone's darkest shade; light: the theme's readable tone text.
                color={active ? LIGHT_TONES[STATUS_TONES[s]]!.light : STATUS_TONES[s]}
                aria-pressed={active}
                onClick={() => p.onStatus(active ? null : s)}
                data-testid={`status-filter-${s}`}
              >
                {STATUS_LABELS[s]} {p.counts[s]}
              </Button>
            );
          })}
        </Group>
      </Stack>
      <ScrollArea style={{ flex: 1 }} viewportRef={viewport}>
        {p.loadError && !p.loaded ? (
          <Alert m="sm" color="red" title="Vehicles could not be loaded">
            {p.loadError}
          </Alert>
        ) : !p.loaded ? (
          <Group justify="center" p="lg">
            <Loader size="sm" aria-label="Loading vehicles" />
          </Group>
        ) : p.vehicles.length === 0 ? (
          <Text c="dimmed" ta="center" p="lg" size="sm">
            {p.total === 0 ? 'No vehicle has reported a position yet. Pair a device with a vehicle and it appears here.' : 'No vehicle matches the filters.'}
          </Text>
        ) : (
          <VehicleRows vehicles={p.vehicles} selectedId={p.selectedId} onSelect={p.onSelect} units={p.units} viewport={viewport} />
        )}
      </ScrollArea>
    </>
  );
}

/** Row height of the side list (two lines of text and padding); the virtualiser measures real rows. */
const ROW_HEIGHT = 53;
/** Above this many rows the list renders only what is on screen. */
const VIRTUALIZE_ABOVE = 200;

/**
 * The vehicle rows. A small fleet renders every row (find-in-page works); a big one renders only
 * the rows in view, so thousands of vehicles updating every second cost a few dozen rows.
 */
function VehicleRows(p: {
  vehicles: LiveVehicle[];
  selectedId: string | null;
  onSelect: (v: LiveVehicle) => void;
  units: UnitSystem;
  viewport: RefObject<HTMLDivElement | null>;
}) {
  const virtual = p.vehicles.length > VIRTUALIZE_ABOVE;
  const virtualizer = useVirtualizer({
    count: p.vehicles.length,
    getScrollElement: () => p.viewport.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    enabled: virtual,
    getItemKey: (i) => p.vehicles[i]!.assetId,
  });
  const row = (v: LiveVehicle) => (
    <UnstyledButton
      w="100%"
      px="sm"
      py={8}
      h={ROW_HEIGHT}
      onClick={() => p.onSelect(v)}
      aria-current={v.assetId === p.selectedId || undefined}
      data-testid="vehicle-row"
      style={{
        borderBottom: '1px solid var(--mantine-color-default-border)',
        background: v.assetId === p.selectedId ? 'var(--mantine-color-default-hover)' : undefined,
      }}
    >
      <Group gap="sm" wrap="nowrap">
        <Box w={10} h={10} style={{ borderRadius: 10, background: STATUS_COLORS[v.status], flexShrink: 0 }} aria-hidden />
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={600} truncate>
            {v.unitNumber}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {v.driverName ?? 'No driver'} · {STATUS_LABELS[v.status]}
          </Text>
        </Box>
        <Stack gap={0} align="flex-end">
          <Text size="xs">{formatSpeed(v.speed, p.units)}</Text>
          <Text size="xs" c="dimmed">
            {formatAge(v.fixTime)}
          </Text>
        </Stack>
      </Group>
    </UnstyledButton>
  );
  const list = { listStyle: 'none', margin: 0, padding: 0 } as const;
  if (!virtual) {
    return (
      <Stack gap={0} component="ul" style={list} aria-label="Vehicles" data-testid="vehicle-list">
        {p.vehicles.map((v) => (
          <li key={v.assetId}>{row(v)}</li>
        ))}
      </Stack>
    );
  }
  return (
    <ul style={{ ...list, position: 'relative', height: virtualizer.getTotalSize() }} aria-label="Vehicles" data-testid="vehicle-list">
      {virtualizer.getVirtualItems().map((item) => {
        const v = p.vehicles[item.index]!;
        return (
          <li
            key={item.key}
            aria-setsize={p.vehicles.length}
            aria-posinset={item.index + 1}
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
          >
            {row(v)}
          </li>
        );
      })}
    </ul>
  );
}
