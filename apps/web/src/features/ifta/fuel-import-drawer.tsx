import { useMemo, useState } from 'react';
import { Badge, Button, Drawer, FileInput, Group, ScrollArea, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import {
  FUEL_CSV_FIELD_LABELS,
  FUEL_CSV_PRESET_COLUMNS,
  type DateFormat,
  type FuelCsvField,
  type FuelCsvPreset,
  type FuelCsvPreview,
  type FuelType,
  type VolumeUnit,
} from '@fleet/api-contract';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { SPREADSHEET_ACCEPT, readImportFile } from '../../lib/spreadsheet.ts';
import { csvHeaders, matchColumns, withColumn } from '../../lib/csv-columns.ts';
import { ColumnMappingFields } from '../../components/column-mapping-fields.tsx';
import { commitFuelImport, previewFuelImport, useIftaMutation } from './ifta-api.ts';
import { RowErrorsTable } from '../../components/row-errors-table.tsx';
import { ImportActions } from '../../components/import-actions.tsx';

/** The fields the mapping offers, most needed first. */
const FIELDS: FuelCsvField[] = [
  'date',
  'time',
  'dateTime',
  'unitNumber',
  'jurisdiction',
  'quantity',
  'gallons',
  'litres',
  'receiptNumber',
  'productCode',
  'totalAmount',
  'pricePerUnit',
  'vendor',
  'city',
  'cardNumber',
  'taxPaid',
  'currency',
  'stationLat',
  'stationLon',
  'bulk',
];
const REQUIRED = new Set<FuelCsvField>(['unitNumber', 'jurisdiction', 'receiptNumber']);
/** The preset's columns found in the file's headers (loosely, as the server matches them). */
function presetMapping(preset: FuelCsvPreset, headers: readonly string[]): Partial<Record<FuelCsvField, string>> {
  return preset === 'CUSTOM' ? {} : matchColumns<FuelCsvField>(FUEL_CSV_PRESET_COLUMNS[preset].columns, headers);
}

/**
 * Fuel-card CSV import: choose the file, a preset (WEX, Comdata, EFS) or your own mapping of its
 * columns, the unit of a plain quantity column; the preview lists each row's errors, the product
 * lines skipped (reefer, DEF, oil, cash) and the purchases flagged, before anything is saved.
 */
export function FuelImportDrawer({ opened, onClose, fuelType }: { opened: boolean; onClose: () => void; fuelType: string }) {
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState<string | null>(null);
  const [headers, setHeaders] = useState<string[]>([]);
  const [preset, setPreset] = useState<FuelCsvPreset>('WEX');
  const [mapping, setMapping] = useState<Partial<Record<FuelCsvField, string>>>({});
  const [unit, setUnit] = useState<VolumeUnit>('GAL');
  const [dateFormat, setDateFormat] = useState<DateFormat>('MDY');
  const [preview, setPreview] = useState<FuelCsvPreview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [checking, setChecking] = useState(false);
  const commit = useIftaMutation(commitFuelImport);

  const reset = () => {
    setFile(null);
    setCsv(null);
    setHeaders([]);
    setMapping({});
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
    let text: string;
    try {
      text = await readImportFile(f);
    } catch (e) {
      setError(e);
      return;
    }
    const hs = csvHeaders(text);
    setCsv(text);
    setHeaders(hs);
    // Guess the card from the headers; the person can change it.
    const guess = (['WEX', 'COMDATA', 'EFS'] as const).map((p) => [p, Object.keys(presetMapping(p, hs)).length] as const).sort((a, b) => b[1] - a[1])[0]!;
    const p = guess[1] >= 4 ? guess[0] : 'CUSTOM';
    setPreset(p);
    setMapping(presetMapping(p, hs));
    if (p !== 'CUSTOM') setDateFormat(FUEL_CSV_PRESET_COLUMNS[p].dateFormat);
  };
  const body = useMemo(
    () => (csv ? { csv, preset: 'CUSTOM' as const, mapping, defaultUnit: unit, dateFormat, fuelType: fuelType as FuelType } : null),
    [csv, mapping, unit, dateFormat, fuelType],
  );
  const check = async () => {
    if (!body) return;
    setChecking(true);
    setError(null);
    try {
      setPreview(await previewFuelImport(body));
    } catch (err) {
      setPreview(null);
      setError(err);
    } finally {
      setChecking(false);
    }
  };
  const setField = (f: FuelCsvField, h: string) => {
    setPreview(null);
    setMapping((m) => withColumn(m, f, h));
  };
  const hasDate = mapping.date || mapping.dateTime;
  const hasQty = mapping.quantity || mapping.gallons || mapping.litres;
  const ready = !!csv && !!hasDate && !!hasQty && [...REQUIRED].every((f) => mapping[f]);

  return (
    <Drawer opened={opened} onClose={close} position="right" size="xl" title="Import fuel purchases from a fuel-card export">
      <Stack gap="md">
        <FileInput
          label="CSV or Excel file"
          description="A .csv file, or an Excel workbook (.xlsx, its first sheet)."
          placeholder="Choose a .csv or .xlsx export"
          accept={SPREADSHEET_ACCEPT}
          value={file}
          onChange={(f) => void choose(f)}
          leftSection={<IconFileSpreadsheet size={16} />}
          clearable
        />
        {csv && (
          <>
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                Layout
              </Text>
              <SegmentedControl
                aria-label="Fuel card layout"
                value={preset}
                onChange={(v) => {
                  const p = v as FuelCsvPreset;
                  setPreset(p);
                  setMapping(presetMapping(p, headers));
                  if (p !== 'CUSTOM') setDateFormat(FUEL_CSV_PRESET_COLUMNS[p].dateFormat);
                  setPreview(null);
                }}
                data={[
                  { value: 'WEX', label: 'WEX' },
                  { value: 'COMDATA', label: 'Comdata' },
                  { value: 'EFS', label: 'EFS' },
                  { value: 'CUSTOM', label: 'Custom' },
                ]}
              />
            </Stack>
            <Text size="sm" c="dimmed">
              Match the file&apos;s columns. One row per product line; lines that are not motor fuel (reefer, DEF, oil, cash advances, fees) are skipped and
              listed.
            </Text>
            <ColumnMappingFields
              fields={FIELDS}
              labels={FUEL_CSV_FIELD_LABELS}
              required={(f) => REQUIRED.has(f)}
              headers={headers}
              mapping={mapping}
              onColumn={setField}
              unit={unit}
              onUnit={(u) => {
                setUnit(u);
                setPreview(null);
              }}
              dateFormat={dateFormat}
              onDateFormat={(d) => {
                setDateFormat(d);
                setPreview(null);
              }}
            />
            {!ready && (
              <Text size="sm" c="orange">
                Map at least a date, the unit number, the state, a quantity and the receipt number.
              </Text>
            )}
            <Group>
              <Button variant="default" onClick={() => void check()} disabled={!ready} loading={checking}>
                Check the file
              </Button>
            </Group>
          </>
        )}
        <ErrorAlert error={error} />
        {preview && <PreviewTables preview={preview} />}
        <ImportActions
          onClose={close}
          run={body ? () => commit.mutateAsync(body) : null}
          disabled={!preview || preview.validRows === 0}
          pending={commit.isPending}
          done={(r) =>
            `${r.imported} fuel purchases imported${r.invalidRows ? `, ${r.invalidRows} rows with errors left out` : ''}${r.skippedRows ? `, ${r.skippedRows} non-fuel lines skipped` : ''}`
          }
          timeout={5000}
        >
          Import {preview ? `${preview.validRows} purchases` : ''}
        </ImportActions>
      </Stack>
    </Drawer>
  );
}

function PreviewTables({ preview }: { preview: FuelCsvPreview }) {
  return (
    <Stack gap="sm" aria-label="Import preview">
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
        <Badge color={preview.skippedRows ? 'yellow' : 'gray'} variant="light">
          {preview.skippedRows} skipped (not fuel)
        </Badge>
        <Badge color={preview.flagged.length ? 'grape' : 'gray'} variant="light">
          {preview.flagged.length} to review
        </Badge>
      </Group>
      <RowErrorsTable errors={preview.errors} maxHeight={220} />
      {preview.skipped.length > 0 && (
        <ScrollArea.Autosize mah={160}>
          <Table aria-label="Skipped product lines" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Line</Table.Th>
                <Table.Th>Product</Table.Th>
                <Table.Th>Why skipped</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.skipped.slice(0, 200).map((s) => (
                <Table.Tr key={s.line}>
                  <Table.Td>{s.line}</Table.Td>
                  <Table.Td>{s.productCode}</Table.Td>
                  <Table.Td>{s.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {preview.flagged.length > 0 && (
        <ScrollArea.Autosize mah={160}>
          <Table aria-label="Purchases to review" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Line</Table.Th>
                <Table.Th>Receipt</Table.Th>
                <Table.Th>Imported, listed under To review because</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.flagged.slice(0, 200).map((f) => (
                <Table.Tr key={f.line}>
                  <Table.Td>{f.line}</Table.Td>
                  <Table.Td>{f.receiptNumber}</Table.Td>
                  <Table.Td>{f.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {preview.sample.length > 0 && (
        <ScrollArea type="auto">
          <Text size="sm" fw={600} mb={4}>
            First valid rows
          </Text>
          <Table aria-label="Preview of valid rows" fz="xs" withTableBorder miw={640}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Line</Table.Th>
                <Table.Th>Time (UTC)</Table.Th>
                <Table.Th>Unit</Table.Th>
                <Table.Th>Jur.</Table.Th>
                <Table.Th ta="right">Quantity</Table.Th>
                <Table.Th ta="right">Gallons</Table.Th>
                <Table.Th>Receipt</Table.Th>
                <Table.Th>Location</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.sample.slice(0, 10).map((r) => (
                <Table.Tr key={r.line}>
                  <Table.Td>{r.line}</Table.Td>
                  <Table.Td>{r.purchasedAt.slice(0, 16).replace('T', ' ')}</Table.Td>
                  <Table.Td>{r.unitNumber}</Table.Td>
                  <Table.Td>{r.jurisdiction}</Table.Td>
                  <Table.Td ta="right">
                    {r.quantity} {r.volumeUnit === 'GAL' ? 'gal' : 'L'}
                  </Table.Td>
                  <Table.Td ta="right">{r.gallons.toFixed(3)}</Table.Td>
                  <Table.Td>{r.receiptNumber}</Table.Td>
                  <Table.Td>{r.check === 'OK' ? 'matches' : r.check === 'NO_POSITION' ? 'unverified' : 'flagged'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Stack>
  );
}
