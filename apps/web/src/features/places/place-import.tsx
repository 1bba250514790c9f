import { useState } from 'react';
import { Alert, Badge, Button, Drawer, FileInput, Group, Stack, Table, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { PLACE_CATEGORY_LABELS } from '@fleet/api-contract/places';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { RowErrorsTable } from '../../components/row-errors-table.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { readTextFile } from '../../lib/text-file.ts';
import { importPlaces, usePlaceMutation, type PlaceImportFormat, type PlaceImportResult } from './places-api.ts';

/** "1 place", "12 places". */
const placesText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'place' : 'places'}`;

const formatOf = (f: File): PlaceImportFormat => (/\.(geo)?json$/i.test(f.name) || f.type.includes('json') ? 'geojson' : 'csv');

/**
 * Places from a CSV (name, category, latitude, longitude, radius or WKT-free polygon columns, as the
 * API documents) or a GeoJSON FeatureCollection: a dry run first shows how many rows are valid and
 * each refused row's problem; nothing is saved until "Import".
 */
export function PlaceImportDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [content, setContent] = useState<string | null>(null);
  const [preview, setPreview] = useState<PlaceImportResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const check = usePlaceMutation(importPlaces);
  const commit = usePlaceMutation(importPlaces);

  const reset = () => {
    setFile(null);
    setContent(null);
    setPreview(null);
    setError(null);
  };
  const close = () => {
    reset();
    onClose();
  };
  const choose = async (f: File | null) => {
    reset();
    setFile(f);
    if (!f) return;
    try {
      const text = await readTextFile(f);
      setContent(text);
      setPreview(await check.mutateAsync({ format: formatOf(f), content: text, dryRun: true }));
    } catch (e) {
      setError(e);
    }
  };
  const run = async () => {
    if (!file || content === null) return;
    try {
      const r = await commit.mutateAsync({ format: formatOf(file), content, dryRun: false });
      notify({ type: 'success', title: `${placesText(r.imported)} imported`, timeout: 5000 });
      close();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <Drawer opened={opened} onClose={close} position="right" size="xl" title="Import places" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="md">
        <Text size="sm">
          A CSV with the columns name, category, latitude, longitude and radiusMeters or radiusFeet (or a polygon column holding WKT or a GeoJSON Polygon), or a
          GeoJSON file of Point features (with a radiusMeters property) and Polygon features. The file is checked first; rows with errors are listed and
          skipped.
        </Text>
        <FileInput
          label="CSV or GeoJSON file"
          placeholder="Choose a .csv or .geojson file"
          accept=".csv,text/csv,.geojson,.json,application/geo+json,application/json"
          value={file}
          onChange={(f) => void choose(f)}
          leftSection={<IconFileImport size={16} />}
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the file' }}
        />
        {check.isPending && <Text size="sm">Checking the file…</Text>}
        <ErrorAlert error={error} />
        {preview && (
          <Stack gap="sm" data-testid="place-import-preview">
            <Group gap="xs">
              <Badge color="gray" variant="light">
                {preview.totalRows} rows
              </Badge>
              <Badge color="teal" variant="light">
                {preview.validRows} valid
              </Badge>
              <Badge color={preview.invalidRows ? 'red' : 'gray'} variant="light">
                {preview.invalidRows} with errors
              </Badge>
            </Group>
            <RowErrorsTable errors={preview.errors} maxHeight={260} />
            {preview.sample.length > 0 && (
              <Table fz="sm" aria-label="Places to import">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Category</Table.Th>
                    <Table.Th>Shape</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.sample.map((p) => (
                    <Table.Tr key={p.line}>
                      <Table.Td>{p.name}</Table.Td>
                      <Table.Td>{PLACE_CATEGORY_LABELS[p.category]}</Table.Td>
                      <Table.Td>{p.geometry.type === 'Polygon' ? 'Polygon' : 'Circle'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            {preview.validRows === 0 && (
              <Alert color="yellow" variant="light">
                No row can be imported: fix the rows above and choose the file again.
              </Alert>
            )}
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button onClick={() => void run()} disabled={!preview || preview.validRows === 0} loading={commit.isPending}>
            Import {preview ? placesText(preview.validRows) : ''}
          </Button>
        </Group>
      </Stack>
    </Drawer>
  );
}
