import { useState } from 'react';
import { Anchor, Badge, Button, Divider, Group, Image, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconFileTypeCsv, IconFileTypePdf } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import type { Dvir } from '@fleet/api-contract';
import tones from '../../../components/badge-tones.module.css';
import { DataState } from '../../../components/data-state.tsx';
import { Fact } from '../../../components/fact.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatOdometer, useUnits } from '../../../lib/units.ts';
import { useDvir } from '../dvir-api.ts';
import { downloadMaintenance } from '../maintenance-api.ts';
import { DefectStatusBadge, SafetyBadge } from './common.tsx';
import { KIND_LABEL } from './inspections-page.tsx';

/** One inspection report, laid out like the paper form: the units, every item, defects with photos, the signatures. */
export default function InspectionPage() {
  const { id } = useParams();
  const report = useDvir(id ?? null);
  const r = report.data;
  return (
    <>
      <PageHeader
        title={r ? `${KIND_LABEL[r.kind]} inspection: ${r.asset.unitNumber}` : 'Inspection report'}
        description={r ? formatDateTime(r.inspectedAt) : undefined}
        breadcrumbs={[
          { label: 'Maintenance', to: '/maintenance' },
          { label: 'Inspections', to: '/maintenance/inspections' },
          { label: r ? r.asset.unitNumber : 'Report' },
        ]}
        actions={r && <Downloads report={r} />}
      />
      <DataState isLoading={report.isLoading} error={report.error} onRetry={() => void report.refetch()}>
        {r && <ReportBody r={r} />}
      </DataState>
    </>
  );
}

function Downloads({ report: r }: { report: Dvir }) {
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);
  const run = async (format: 'csv' | 'pdf') => {
    setBusy(format);
    try {
      await downloadMaintenance(`/dvirs/${r.id}/export`, { format }, `inspection-${r.asset.unitNumber}-${r.inspectedAt.slice(0, 10)}.${format}`);
    } catch {
      // The API client showed the error toast.
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <Button variant="default" leftSection={<IconFileTypePdf size={16} />} loading={busy === 'pdf'} onClick={() => void run('pdf')}>
        Download PDF
      </Button>
      <Button variant="default" leftSection={<IconFileTypeCsv size={16} />} loading={busy === 'csv'} onClick={() => void run('csv')}>
        CSV
      </Button>
    </>
  );
}

function SignatureView({ signature, at }: { signature: Dvir['signature']; at: string }) {
  return (
    <Stack gap={4}>
      {signature.imageUrl ? (
        <Image
          src={signature.imageUrl}
          alt={`Signature of ${signature.name}`}
          h={70}
          w="auto"
          fit="contain"
          bg="white"
          radius="sm"
          style={{ alignSelf: 'flex-start', border: '1px solid var(--mantine-color-default-border)' }}
        />
      ) : (
        <Text ff="serif" fs="italic" fz="xl">
          {signature.name}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {signature.name} · {formatDateTime(at)}
      </Text>
    </Stack>
  );
}

function ReportBody({ r }: { r: Dvir }) {
  const units = useUnits();
  const withTrailers = r.trailers.length > 0;
  const unitName = new Map([[r.asset.id, r.asset.unitNumber], ...r.trailers.map((t) => [t.id, t.unitNumber] as const)]);
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start">
          <Title order={2} fz="lg">
            Driver vehicle inspection report
          </Title>
          {r.hasDefects ? (
            <Badge variant="outline" radius="sm" className={r.unsafe ? tones.danger : tones.warn}>
              {r.unsafe ? 'Unsafe: safety defect open' : 'Defects reported'}
            </Badge>
          ) : (
            <Badge variant="outline" radius="sm" className={tones.ok}>
              No defects
            </Badge>
          )}
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
          <Fact label="Vehicle">{r.asset.unitNumber}</Fact>
          <Fact label="Trailers">{r.trailers.map((t) => t.unitNumber).join(', ') || 'None'}</Fact>
          <Fact label="Inspection">{KIND_LABEL[r.kind]}</Fact>
          <Fact label="Date and time">{formatDateTime(r.inspectedAt)}</Fact>
          <Fact label="Odometer">{formatOdometer(r.odometer, units)}</Fact>
          <Fact label="Location">{r.location}</Fact>
          <Fact label="Driver">{r.driver?.name ?? r.signature.name}</Fact>
        </SimpleGrid>

        <Stack gap="xs">
          <Title order={3} fz="md">
            Items inspected
          </Title>
          {/* The unit column only when trailers were inspected too: a phone then keeps the form without scrolling. */}
          <Table.ScrollContainer
            minWidth={withTrailers ? 480 : 0}
            scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Items inspected table' } }}
          >
            <Table verticalSpacing={6} aria-label="Items inspected" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Item</Table.Th>
                  {withTrailers && <Table.Th>Unit</Table.Th>}
                  <Table.Th>Result</Table.Th>
                  <Table.Th>Remarks</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.items.map((i, n) => (
                  <Table.Tr key={`${i.assetId}-${i.item}-${n}`}>
                    <Table.Td>{i.label}</Table.Td>
                    {withTrailers && <Table.Td>{unitName.get(i.assetId) ?? '—'}</Table.Td>}
                    <Table.Td>
                      {i.ok ? (
                        <Text size="sm">OK</Text>
                      ) : (
                        <Badge variant="outline" radius="sm" className={i.safety ? tones.danger : tones.warn}>
                          Defect
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{i.note ?? ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>

        {r.defects.length > 0 && (
          <Stack gap="sm">
            <Title order={3} fz="md">
              Defects
            </Title>
            {r.defects.map((d) => (
              <Paper key={d.id} withBorder radius="sm" p="sm">
                <Stack gap={6}>
                  <Group justify="space-between" gap="xs">
                    <Group gap="xs">
                      <Text fw={600} size="sm">
                        {d.asset.unitNumber}: {d.label}
                      </Text>
                      <SafetyBadge safety={d.safety} />
                    </Group>
                    <Group gap="xs">
                      <DefectStatusBadge status={d.status} />
                      {d.workOrderId && (
                        <Anchor component={Link} to={`/maintenance/work-orders?open=${d.workOrderId}`} size="sm">
                          Work order
                        </Anchor>
                      )}
                    </Group>
                  </Group>
                  {d.note && <Text size="sm">{d.note}</Text>}
                  {d.imageUrls.length > 0 && (
                    <Group gap="xs">
                      {d.imageUrls.map((url, n) => (
                        <a key={d.imageIds[n] ?? url} href={url} target="_blank" rel="noreferrer">
                          <Image src={url} alt={`Photo ${n + 1} of ${d.label} on ${d.asset.unitNumber}`} w={120} h={90} radius="sm" fit="cover" />
                        </a>
                      ))}
                    </Group>
                  )}
                  {d.certifiedAt && d.certifiedBy && (
                    <>
                      <Divider />
                      <Text size="sm">
                        {d.status === 'REPAIRED' ? 'Certified repaired' : 'Certified repair not needed'}
                        {d.certification ? `: ${d.certification}` : ''}
                      </Text>
                      <SignatureView signature={d.certifiedBy} at={d.certifiedAt} />
                    </>
                  )}
                </Stack>
              </Paper>
            ))}
          </Stack>
        )}

        {r.remarks && <Fact label="Remarks">{r.remarks}</Fact>}
        <Divider />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Driver's signature
            </Text>
            <SignatureView signature={r.signature} at={r.inspectedAt} />
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Next driver's review of the repairs
            </Text>
            {r.review ? (
              <SignatureView signature={r.review.signature} at={r.review.reviewedAt} />
            ) : (
              <Text size="sm" c="dimmed">
                {r.hasDefects ? 'Not reviewed yet.' : 'No defect to review.'}
              </Text>
            )}
          </Stack>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
