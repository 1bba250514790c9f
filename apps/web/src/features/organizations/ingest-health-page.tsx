import { Alert, Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { ingestDiagnosticsSchema, type IngestDiagnostics } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { api } from '../../lib/api-client.ts';
import { formatDateTime, useViewerZone } from '../../lib/dates.ts';
import { organizationQuery } from './api/organizations-api.ts';

// `/administration/ingest-health` (super administrator): what this API instance stored, refused and
// failed to store since it started (GET /admin/diagnostics/ingest). A whole fleet once froze with
// every counter at zero and nothing on any screen (issue 43): failed commits show here by cause,
// with the organizations whose positions are failing right now.

/** The refusal reasons in the contract's order, with its words for each. */
const REASONS = Object.entries(ingestDiagnosticsSchema.shape.refusedFixes.shape)
  .filter(([k]) => k !== 'total')
  .map(([key, schema]) => ({ key: key as keyof IngestDiagnostics['refusedFixes'], words: schema.description ?? key }));

const REASON_LABELS: Record<string, string> = {
  tooOld: 'Too old',
  inFuture: 'In the future',
  badTime: 'Not a time',
  coordinates: 'Coordinates',
  speed: 'Speed',
  course: 'Course',
  altitude: 'Altitude',
  accuracy: 'Accuracy',
  value: 'Value out of range',
  attributes: 'Attributes',
  database: 'Refused by the database',
};

const WAYS: Record<string, string> = { osmand: 'OsmAnd port', teltonika: 'Teltonika port', api: 'API ingest routes' };

function Stat({ label, value, tone }: { label: string; value: number | string; tone?: 'red' | 'green' }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={26} fw={700} c={tone === 'red' ? 'red' : undefined}>
        {typeof value === 'number' ? value.toLocaleString() : value}
      </Text>
    </Card>
  );
}

export default function IngestHealthPage() {
  const zone = useViewerZone();
  const q = useQuery({
    queryKey: ['diagnostics', 'ingest'],
    queryFn: ({ signal }) => api<IngestDiagnostics>('/admin/diagnostics/ingest', { signal }),
    refetchInterval: 10_000,
  });
  const d = q.data;
  const orgs = useQueries({ queries: (d?.failingOrganizations ?? []).map((o) => organizationQuery(o.organizationId)) });
  const names = new Map(orgs.flatMap((o) => (o.data ? [[o.data.id, o.data.name] as const] : [])));
  const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso, zone) : '—');
  return (
    <>
      <PageHeader
        title="Ingest health"
        description="Positions this server stored, refused and failed to store since it started. Refreshes every 10 seconds."
        breadcrumbs={[{ label: 'Administration' }, { label: 'Ingest health' }]}
      />
      <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
        {d && (
          <Stack gap="lg">
            {d.problem ? (
              <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} title="Positions are not being stored" role="alert">
                {d.problem}. The server answers /readyz with 503 and the organizations' administrators are notified. Devices keep their positions and send them
                again.
              </Alert>
            ) : (
              <Alert
                color={d.failingOrganizations.length ? 'orange' : 'green'}
                variant="light"
                icon={d.failingOrganizations.length ? <IconAlertTriangle size={20} /> : <IconCircleCheck size={20} />}
                title={d.failingOrganizations.length ? 'Some organizations’ positions are failing' : 'Positions are being stored'}
              >
                {d.lastStoredAt ? `Last position stored ${when(d.lastStoredAt)}` : 'No position stored since the server started'}
                {d.lastFailure ? `; last failure ${when(d.lastFailure.at)} (${d.lastFailure.cause})` : '; no failure since the server started'}.
              </Alert>
            )}
            <SimpleGrid cols={{ base: 2, md: 4 }}>
              <Stat label="Stored" value={d.storedPositions} />
              <Stat label="Failed to store" value={d.failedPositions} tone={d.failedPositions ? 'red' : undefined} />
              <Stat label="Refused" value={d.refusedFixes.total} />
              <Stat label="Statements retried" value={d.retriedStatements} />
            </SimpleGrid>

            {d.failingOrganizations.length > 0 && (
              <Card withBorder radius="md" component="section" aria-label="Organizations whose positions are failing">
                <Title order={2} fz="md" mb="sm">
                  Failing now
                </Title>
                <Table.ScrollContainer minWidth={520}>
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Organization</Table.Th>
                        <Table.Th>Since</Table.Th>
                        <Table.Th>Cause</Table.Th>
                        <Table.Th ta="right">Positions</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {d.failingOrganizations.map((o) => (
                        <Table.Tr key={o.organizationId}>
                          <Table.Td>{names.get(o.organizationId) ?? o.organizationId}</Table.Td>
                          <Table.Td>{when(o.since)}</Table.Td>
                          <Table.Td ff="monospace">{o.cause}</Table.Td>
                          <Table.Td ta="right">{o.positions.toLocaleString()}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Card>
            )}

            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
              <Card withBorder radius="md" component="section" aria-label="Failed commits by cause">
                <Title order={2} fz="md">
                  Failed commits by cause
                </Title>
                <Text size="sm" c="dimmed" mb="sm">
                  Not acknowledged: the devices send these positions again.
                </Text>
                {d.failedCommits.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    None since the server started.
                  </Text>
                ) : (
                  <Table>
                    <Table.Tbody>
                      {d.failedCommits.map((f) => (
                        <Table.Tr key={f.cause}>
                          <Table.Td ff="monospace">{f.cause}</Table.Td>
                          <Table.Td ta="right">{f.count.toLocaleString()}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
                <Title order={3} fz="sm" mt="md" mb={4}>
                  Server errors by way in
                </Title>
                {d.serverErrors.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    None.
                  </Text>
                ) : (
                  <Group gap="xs">
                    {d.serverErrors.map((e) => (
                      <Badge key={e.way} color="red" variant="light">
                        {WAYS[e.way] ?? e.way}: {e.count.toLocaleString()}
                      </Badge>
                    ))}
                  </Group>
                )}
              </Card>

              <Card withBorder radius="md" component="section" aria-label="Refused fixes by reason">
                <Title order={2} fz="md">
                  Refused fixes by reason
                </Title>
                <Text size="sm" c="dimmed" mb="sm">
                  Answered as received, so devices move on; each device’s page lists its own.
                  {d.refusalLog && d.refusalLog.dropped > 0 ? ` ${d.refusalLog.dropped.toLocaleString()} were not listed (too many at once).` : ''}
                </Text>
                <Table>
                  <Table.Tbody>
                    {REASONS.map((r) => (
                      <Table.Tr key={r.key}>
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {REASON_LABELS[r.key] ?? r.key}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {r.words}
                          </Text>
                        </Table.Td>
                        <Table.Td ta="right" c={d.refusedFixes[r.key] ? undefined : 'dimmed'}>
                          {d.refusedFixes[r.key].toLocaleString()}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Card>
            </SimpleGrid>
          </Stack>
        )}
      </DataState>
    </>
  );
}
