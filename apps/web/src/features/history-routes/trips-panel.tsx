import { Badge, Box, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import type { TripRow } from '@fleet/api-contract';
import { formatTime } from '../../lib/dates.ts';
import { DataState } from '../../components/data-state.tsx';
import { formatDuration } from '../../lib/map/map-api.ts';
import { formatDistance, type UnitSystem } from '../../lib/units.ts';

/** The vehicle's trips in the range (issue 32): choosing one plays it on the map. */
export function TripsPanel({
  trips,
  loading,
  error,
  selectedId,
  onChoose,
  units,
}: {
  trips: TripRow[];
  loading: boolean;
  error: unknown;
  selectedId: string | null;
  onChoose: (id: string) => void;
  units: UnitSystem;
}) {
  const where = (w: TripRow['start']) => w.place?.name ?? w.address ?? `${w.latitude.toFixed(3)}, ${w.longitude.toFixed(3)}`;
  return (
    <Paper withBorder style={{ display: 'flex', flexDirection: 'column', minHeight: 0, maxHeight: 480 }} data-testid="history-trips">
      <Text fw={600} p="sm" pb={4}>
        Trips ({trips.length})
      </Text>
      <Text size="xs" c="dimmed" px="sm" pb="xs">
        Choose a trip to play it.
      </Text>
      <Box style={{ overflowY: 'auto', flex: 1 }} tabIndex={trips.length ? undefined : 0}>
        <DataState
          isLoading={loading}
          error={error}
          isEmpty={trips.length === 0}
          emptyTitle="No trips"
          emptyDescription="The vehicle did not drive in this range."
        >
          <Stack gap={0} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Trips">
            {trips.map((t) => (
              <li key={t.id}>
                <UnstyledButton
                  w="100%"
                  px="sm"
                  py={8}
                  onClick={() => onChoose(t.id)}
                  aria-current={t.id === selectedId || undefined}
                  data-testid="history-trip-row"
                  style={{
                    borderTop: '1px solid var(--mantine-color-default-border)',
                    background: t.id === selectedId ? 'var(--mantine-color-default-hover)' : undefined,
                  }}
                >
                  <Group justify="space-between" gap="xs" wrap="nowrap">
                    <Text size="sm" fw={600}>
                      {formatTime(t.startedAt)} – {t.inProgress ? 'now' : formatTime(t.endedAt)}
                    </Text>
                    <Text size="sm">{formatDistance(t.distanceKm * 1000, units)}</Text>
                  </Group>
                  {t.inProgress && (
                    <Badge size="xs" variant="light" color="teal" data-testid="history-trip-in-progress">
                      In progress · last fix {formatTime(t.endedAt)}
                    </Badge>
                  )}
                  <Text size="xs" c="dimmed" truncate>
                    {where(t.start)} → {where(t.end)} · {formatDuration(t.durationSeconds)}
                  </Text>
                </UnstyledButton>
              </li>
            ))}
          </Stack>
        </DataState>
      </Box>
    </Paper>
  );
}
