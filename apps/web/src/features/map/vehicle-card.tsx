import { Anchor, Badge, Button, CloseButton, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { LiveVehicle, VehiclePlace } from '@fleet/api-contract';
import { formatShortDateTime, formatTime, todayIn } from '../../lib/dates.ts';
import { formatAge } from '../../lib/map/map-api.ts';
import { LIGHT_TONES } from '../../lib/theme.ts';
import { formatSpeed, type UnitSystem } from '../../lib/units.ts';
import { STATUS_LABELS, STATUS_TONES } from './vehicle-layers.ts';

/** The chosen vehicle over the map: its place, driver, speed, age and position, Follow, and a link to its history. */
export function VehicleCard({
  vehicle: v,
  place,
  units,
  follow,
  onFollow,
  onClose,
}: {
  vehicle: LiveVehicle;
  place: VehiclePlace | null;
  units: UnitSystem;
  follow: boolean;
  onFollow: (f: boolean) => void;
  onClose: () => void;
}) {
  const row = (label: string, value: string) => (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right">
        {value}
      </Text>
    </Group>
  );
  return (
    <Paper
      shadow="md"
      withBorder
      p="sm"
      pos="absolute"
      bottom={10}
      left={10}
      w={300}
      maw="calc(100% - 20px)"
      style={{ zIndex: 3 }}
      role="dialog"
      aria-label={`Vehicle ${v.unitNumber}`}
      data-testid="vehicle-card"
    >
      <Group justify="space-between" mb={6} wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <Text fw={700}>{v.unitNumber}</Text>
          <Badge color={LIGHT_TONES[STATUS_TONES[v.status]]!.light} variant="filled" size="sm">
            {STATUS_LABELS[v.status]}
          </Badge>
        </Group>
        <CloseButton aria-label="Close vehicle card" onClick={onClose} />
      </Group>
      <Stack gap={4}>
        {place && (
          <Text size="sm" fw={600} data-testid="vehicle-place">
            At{' '}
            <Anchor component={Link} to={`/places/${place.placeId}`} size="sm" fw={600}>
              {place.placeName}
            </Anchor>{' '}
            since {todayIn() === todayIn(undefined, new Date(place.arrivedAt)) ? formatTime(place.arrivedAt) : formatShortDateTime(place.arrivedAt)}
          </Text>
        )}
        {row('Driver', v.driverName ?? 'No driver')}
        {row('Speed', formatSpeed(v.speed, units))}
        {row('Last update', formatAge(v.fixTime))}
        {row('Coordinates', `${v.latitude.toFixed(5)}, ${v.longitude.toFixed(5)}`)}
      </Stack>
      <Group justify="space-between" mt="sm">
        <Switch label="Follow" checked={follow} onChange={(e) => onFollow(e.currentTarget.checked)} />
        <Button component={Link} to={`/map/history?asset=${v.assetId}`} size="xs" variant="light">
          History
        </Button>
      </Group>
    </Paper>
  );
}
