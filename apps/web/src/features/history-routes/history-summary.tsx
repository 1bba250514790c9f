import { Alert, Badge, Paper, SimpleGrid, Table, Text } from '@mantine/core';
import type { HistoryRoute } from '@fleet/api-contract';
import { formatDateTime } from '../../lib/dates.ts';
import { formatDuration } from '../../lib/map/map-api.ts';
import { formatDistance, formatSpeed, type UnitSystem } from '../../lib/units.ts';

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="xs">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700}>{value}</Text>
    </Paper>
  );
}

/** The range's totals, what the track leaves out or imported, and its stops (choosing one flies the map there). */
export function HistorySummary({ data, units, onStop }: { data: HistoryRoute; units: UnitSystem; onStop: (stop: HistoryRoute['stops'][number]) => void }) {
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 5 }} data-testid="history-summary">
        <Stat label="Distance" value={formatDistance(data.summary.distanceM, units)} />
        <Stat label="Driving" value={formatDuration(data.summary.drivingS)} />
        <Stat label="Idle" value={formatDuration(data.summary.idleS)} />
        <Stat label="Max speed" value={formatSpeed(data.summary.maxSpeed, units)} />
        <Stat label="Average speed" value={formatSpeed(data.summary.averageSpeed, units)} />
      </SimpleGrid>
      {data.capped && (
        <Badge color="gray" variant="light">
          Track thinned to {data.track.length} points
        </Badge>
      )}
      {data.imported && (
        <Alert color="blue" variant="light" title="Includes imported GPS history" data-testid="history-imported">
          {data.imported.positions} of the {data.summary.positions} positions in this range were imported from another system (
          {formatDateTime(data.imported.from)} to {formatDateTime(data.imported.to)}), not recorded by a device here.
        </Alert>
      )}
      <Paper withBorder>
        <Text fw={600} p="sm">
          Stops ({data.stops.length})
        </Text>
        {data.stops.length === 0 ? (
          <Text c="dimmed" size="sm" px="sm" pb="sm">
            No stops in this range.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table striped data-testid="stops-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Start</Table.Th>
                  <Table.Th>Duration</Table.Th>
                  <Table.Th>Place</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.stops.map((s) => (
                  <Table.Tr
                    key={s.start}
                    tabIndex={0}
                    style={{ cursor: 'pointer' }}
                    onClick={() => onStop(s)}
                    onKeyDown={(e) => e.key === 'Enter' && onStop(s)}
                  >
                    <Table.Td>{formatDateTime(s.start)}</Table.Td>
                    <Table.Td>{formatDuration(s.durationS)}</Table.Td>
                    <Table.Td>
                      {s.place ? (
                        <Text size="sm" fw={600} span>
                          {s.place.name}
                        </Text>
                      ) : (
                        s.address
                      )}
                      {s.place && (
                        <Text size="xs" c="dimmed">
                          {s.address}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </>
  );
}
