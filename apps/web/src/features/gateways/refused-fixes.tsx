import { useState } from 'react';
import { Alert, Badge, Card, Center, Group, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { RefusedFix } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { formatDateTime, useViewerZone, zoneLabel } from '../../lib/dates.ts';
import { useRefusedFixes } from './gateways-api.ts';

// The device page's "Refused fixes (24 h)" (issue 43): fixes ingest answered as received, so the
// device never resends them, but did not store, one row per minute and reason, with how far off
// the device's clock was and what to check.

/** The refusal reasons in words; a reason added later shows as the server names it. */
const REASONS: Record<string, string> = {
  tooOld: 'Over a year old',
  inFuture: 'In the future',
  badTime: 'No valid time',
  coordinates: 'Coordinates',
  speed: 'Speed',
  course: 'Course',
  altitude: 'Altitude',
  accuracy: 'Accuracy',
  value: 'Value out of range',
  undecodable: 'Cannot be read',
  database: 'Database',
};
const TIME_REASONS = new Set(['tooOld', 'inFuture', 'badTime']);

/** What the hint says, as a sentence. */
const sentence = (hint: string) => `${hint[0]!.toUpperCase()}${hint.slice(1)}.`;

export function RefusedFixes({ gatewayId }: { gatewayId: string }) {
  const zone = useViewerZone();
  const [page, setPage] = useState(0);
  const q = useRefusedFixes(gatewayId, page);
  const data = q.data;
  return (
    <Card component="section" withBorder radius="md" aria-label="Refused fixes">
      <Title order={2} fz="md">
        Refused fixes (24 h)
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Fixes this device sent that were answered as received but not stored, one row per minute and reason. Times in {zoneLabel(new Date(), zone)}.
      </Text>
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={data?.totalElements === 0}
        emptyTitle="No fixes refused in the last 24 hours"
        emptyDescription="Every fix this device sent was stored."
        loadingFallback={
          <Center py="md">
            <Loader size="sm" aria-label="Loading refused fixes" />
          </Center>
        }
      >
        {data && (
          <Stack gap="sm">
            <Undecodable rows={data.content} zone={zone} />
            <Table aria-label="Refused fixes" verticalSpacing="xs" layout="fixed" visibleFrom="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={150}>Received</Table.Th>
                  <Table.Th w={150}>Fix time</Table.Th>
                  <Table.Th>Reason</Table.Th>
                  <Table.Th ta="right" w={64}>
                    Count
                  </Table.Th>
                  <Table.Th visibleFrom="md">Device clock</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.content.map((f) => (
                  <Row key={`${f.receivedAt}-${f.reason}`} f={f} zone={zone} />
                ))}
              </Table.Tbody>
            </Table>
            <Stack gap={0} hiddenFrom="sm" aria-label="Refused fixes" role="list">
              {data.content.map((f) => (
                <Item key={`${f.receivedAt}-${f.reason}`} f={f} zone={zone} />
              ))}
            </Stack>
            {data.totalPages > 1 && (
              <Group justify="flex-end">
                <Pagination
                  size="sm"
                  total={data.totalPages}
                  value={page + 1}
                  onChange={(p) => setPage(p - 1)}
                  getControlProps={(c) => ({ 'aria-label': `${c} page` })}
                  getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
                />
              </Group>
            )}
          </Stack>
        )}
      </DataState>
    </Card>
  );
}

/** The hint's advice without its "clock 2 hours fast: " opening, for beside the offset that says it already. */
function advice(f: RefusedFix): string | null {
  if (!f.hint) return null;
  const opening = f.offset ? `clock ${f.offset}: ` : '';
  return sentence(opening && f.hint.startsWith(opening) ? f.hint.slice(opening.length) : f.hint);
}

function ReasonBadge({ f }: { f: RefusedFix }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="light" color={TIME_REASONS.has(f.reason) ? 'orange' : 'red'} radius="sm" style={{ flexShrink: 0 }}>
        {REASONS[f.reason] ?? f.reason}
      </Badge>
      <Text size="xs" c="dimmed">
        {f.protocol}
      </Text>
    </Group>
  );
}

/** The clock's offset in words (or that it looked right) and what to check. */
function Clock({ f }: { f: RefusedFix }) {
  const tip = advice(f);
  return (
    <Text size="xs" c="dimmed">
      {f.offset ? (
        <Text span fw={600} size="sm" c="orange.8">
          Clock {f.offset}.{' '}
        </Text>
      ) : (
        f.offsetMs !== null && 'Clock within 10 minutes. '
      )}
      {tip}
    </Text>
  );
}

/** One minute's refusals of one reason, from a tablet up. */
function Row({ f, zone }: { f: RefusedFix; zone: string }) {
  return (
    <Table.Tr>
      <Table.Td valign="top">{formatDateTime(f.receivedAt, zone)}</Table.Td>
      <Table.Td valign="top" c={f.fixTime ? undefined : 'dimmed'}>
        {f.fixTime ? formatDateTime(f.fixTime, zone) : 'none'}
      </Table.Td>
      <Table.Td valign="top">
        <Stack gap={2}>
          <ReasonBadge f={f} />
          <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
            {f.message}
          </Text>
          <Stack hiddenFrom="md">
            <Clock f={f} />
          </Stack>
        </Stack>
      </Table.Td>
      <Table.Td ta="right" valign="top">
        {f.count}
      </Table.Td>
      <Table.Td visibleFrom="md" valign="top">
        <Clock f={f} />
      </Table.Td>
    </Table.Tr>
  );
}

/** The same on a phone: one block per row, nothing cut. */
function Item({ f, zone }: { f: RefusedFix; zone: string }) {
  return (
    <Stack gap={4} py="xs" role="listitem" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Group justify="space-between" wrap="nowrap">
        <ReasonBadge f={f} />
        <Text size="sm" fw={600} aria-label={`${f.count} refused`}>
          ×{f.count}
        </Text>
      </Group>
      <Text size="xs">
        Received {formatDateTime(f.receivedAt, zone)} · fix time {f.fixTime ? formatDateTime(f.fixTime, zone) : 'none'}
      </Text>
      <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
        {f.message}
      </Text>
      <Clock f={f} />
    </Stack>
  );
}

/**
 * Frames the server cannot read (decision 0323), said first: "Sent codec 13: not supported, since
 * 10:42", once per message, with what to do.
 */
function Undecodable({ rows, zone }: { rows: readonly RefusedFix[]; zone: string }) {
  const seen = new Map<string, RefusedFix>();
  for (const f of rows) if (f.reason === 'undecodable' && !seen.has(f.message)) seen.set(f.message, f);
  if (seen.size === 0) return null;
  return (
    <>
      {[...seen.values()].map((f) => (
        <Alert
          key={f.message}
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title={`${sentence(f.message).slice(0, -1)}, since ${formatDateTime(f.since ?? f.receivedAt, zone)}`}
          role="status"
        >
          {f.hint ? sentence(f.hint) : null}
        </Alert>
      ))}
    </>
  );
}
