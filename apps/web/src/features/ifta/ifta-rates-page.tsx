import { useMemo, useState } from 'react';
import { Alert, Anchor, Badge, Button, Drawer, FileInput, Group, Paper, ScrollArea, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconFileImport, IconFileSpreadsheet } from '@tabler/icons-react';
import { FUEL_TYPES, quarterLabel, quarterOf } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { useFilePreview } from '../../lib/file-preview.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { previewRates, useImportRates, useIftaRates, useRateQuarters } from './ifta-api.ts';
import { rate } from './ifta-format.ts';

/** `/administration/ifta-rates`: each quarter's IFTA tax-rate matrix, imported from the official CSV (super administrator). */
export default function IftaRatesPage() {
  const quarters = useRateQuarters();
  const [quarter, setQuarter] = useState<string | null>(null);
  const [fuel, setFuel] = useState('DIESEL');
  const [importing, setImporting] = useState(false);
  const options = (quarters.data?.quarters ?? []).map((q) => ({ value: q.quarter, label: `${q.label}${q.hasRates ? '' : ' · not imported'}` }));
  const shown = quarter ?? quarters.data?.quarters.find((q) => q.hasRates)?.quarter ?? quarterOf(Date.now());
  const matrix = useIftaRates(shown);
  const rows = useMemo(() => {
    const by = new Map<string, { jurisdiction: string; name: string; country: string; usd: number | null; cad: number | null; surUsd: number | null }>();
    for (const r of matrix.data?.rates ?? []) {
      if (r.fuelType !== fuel) continue;
      const e = by.get(r.jurisdiction) ?? { jurisdiction: r.jurisdiction, name: r.name, country: r.country, usd: null, cad: null, surUsd: null };
      if (r.kind === 'BASE') {
        e.usd = r.usdPerGallon;
        e.cad = r.cadPerLitre;
      } else e.surUsd = r.usdPerGallon;
      by.set(r.jurisdiction, e);
    }
    return [...by.values()].sort((a, b) => (a.country === b.country ? a.jurisdiction.localeCompare(b.jurisdiction) : a.country === 'US' ? -1 : 1));
  }, [matrix.data, fuel]);
  return (
    <>
      <PageHeader
        title="IFTA tax rates"
        description={
          <>
            The quarter&apos;s rate matrix, shared by every organization. The jurisdictions&apos; official rates are published by IFTA, Inc. in its quarterly
            tax rate matrix at{' '}
            <Anchor href="https://www.iftach.org/taxmatrix4/Taxmatrix.php" target="_blank" rel="noreferrer" inherit underline="always">
              iftach.org
            </Anchor>
            : import its CSV each quarter.
          </>
        }
        breadcrumbs={[{ label: 'Administration' }, { label: 'IFTA tax rates' }]}
        actions={
          <Button leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
            Import a quarter
          </Button>
        }
      />
      <Paper withBorder p="sm" mb="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select label="Quarter" data={options} value={shown} onChange={(v) => v && setQuarter(v)} allowDeselect={false} w={220} />
          <Select
            label="Fuel type"
            data={FUEL_TYPES.map(([value, label]) => ({ value, label }))}
            value={fuel}
            onChange={(v) => v && setFuel(v)}
            allowDeselect={false}
            w={200}
          />
          {matrix.data?.importedAt && (
            <Text size="sm" c="dimmed">
              Imported {formatDateTime(matrix.data.importedAt)} by {matrix.data.importedBy}
              {matrix.data.source ? ` · ${matrix.data.source}` : ''}
            </Text>
          )}
        </Group>
      </Paper>
      <DataState
        isLoading={matrix.isLoading || quarters.isLoading}
        error={matrix.error ?? quarters.error}
        isEmpty={rows.length === 0}
        emptyTitle={`No rates for ${quarterLabel(shown)}`}
        emptyDescription="Returns of this quarter use the latest earlier matrix until it is imported."
        emptyAction={<Button onClick={() => setImporting(true)}>Import {quarterLabel(shown)}</Button>}
      >
        <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `IFTA rates ${shown}, scrolls sideways` }}>
          <Table striped withTableBorder fz="sm" aria-label={`IFTA rates ${shown}`} miw={520}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Jurisdiction</Table.Th>
                <Table.Th ta="right">US$ per US gallon</Table.Th>
                <Table.Th ta="right">Can$ per litre</Table.Th>
                <Table.Th ta="right">Surcharge (US$/gal)</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.jurisdiction}>
                  <Table.Td>
                    <Text span ff="monospace" fw={700} size="sm">
                      {r.jurisdiction}
                    </Text>{' '}
                    <Text span size="sm" c="dimmed">
                      {r.name}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{rate(r.usd)}</Table.Td>
                  <Table.Td ta="right">{rate(r.cad)}</Table.Td>
                  <Table.Td ta="right">{r.surUsd === null ? '' : rate(r.surUsd)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </DataState>
      <RatesImportDrawer opened={importing} onClose={() => setImporting(false)} onDone={(q) => setQuarter(q)} />
    </>
  );
}

function RatesImportDrawer({ opened, onClose, onDone }: { opened: boolean; onClose: () => void; onDone: (quarter: string) => void }) {
  const { file, text: csv, preview, error, reset, choose } = useFilePreview((text) => previewRates({ csv: text }));
  const [source, setSource] = useState('https://www.iftach.org/taxmatrix4/TaxDownload.php');
  const run = useImportRates();
  const close = () => {
    reset();
    onClose();
  };
  return (
    <Drawer opened={opened} onClose={close} position="right" size="lg" title="Import a quarter's IFTA tax rates">
      <Stack gap="md">
        <Text size="sm">
          Download the quarter&apos;s matrix as CSV from{' '}
          <Anchor href="https://www.iftach.org/taxmatrix4/TaxDownload.php" target="_blank" rel="noreferrer">
            IFTA, Inc.
          </Anchor>{' '}
          and choose it here. The quarter is read from its first line; importing replaces that quarter&apos;s rates for every organization.
        </Text>
        <FileInput
          label="Matrix CSV"
          placeholder="Choose 2Q2026.csv"
          accept=".csv,text/csv"
          value={file}
          onChange={(f) => void choose(f)}
          leftSection={<IconFileSpreadsheet size={16} />}
          clearable
        />
        <TextInput
          label="Source"
          description="Where the file came from (kept with the rates)"
          value={source}
          onChange={(e) => setSource(e.currentTarget.value)}
        />
        <ErrorAlert error={error} />
        {preview && (
          <Stack gap="xs" aria-label="Rates preview">
            <Group gap="xs">
              <Badge variant="light">{quarterLabel(preview.quarter)}</Badge>
              <Badge variant="light" color="teal">
                {preview.jurisdictions} jurisdictions
              </Badge>
              <Badge variant="light" color="gray">
                {preview.rates} rates
              </Badge>
              {preview.replaces && (
                <Badge variant="light" color="orange">
                  Replaces the imported {quarterLabel(preview.quarter)}
                </Badge>
              )}
            </Group>
            {preview.missing.length > 0 && (
              <Alert color="yellow" title="Members missing from the file">
                {preview.missing.join(', ')}
              </Alert>
            )}
            {preview.errors.length > 0 && (
              <Alert color="red" title="Rows the parser could not read (the import is refused)">
                {preview.errors.slice(0, 20).map((e) => (
                  <Text key={`${e.line}-${e.field}`} size="sm">
                    Line {e.line}, {e.field}: {e.message}
                  </Text>
                ))}
              </Alert>
            )}
            <Text size="sm">
              Surcharges:{' '}
              {preview.surcharges
                .filter((s) => s.fuelType === 'DIESEL')
                .map((s) => `${s.jurisdiction} ${rate(s.usdPerGallon)}`)
                .join(', ') || 'none on diesel'}
            </Text>
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            disabled={!csv || !preview || preview.errors.length > 0}
            loading={run.isPending}
            onClick={() =>
              csv &&
              run.mutate(
                { csv, source: source.trim() || undefined },
                {
                  onSuccess: (r) => {
                    notify({ type: 'success', title: `${quarterLabel(r.quarter)} rates imported (${r.imported})`, timeout: 5000 });
                    onDone(r.quarter);
                    close();
                  },
                },
              )
            }
          >
            Import {preview ? quarterLabel(preview.quarter) : ''}
          </Button>
        </Group>
      </Stack>
    </Drawer>
  );
}
