import { useMemo, useState } from 'react';
import { Badge, Button, Drawer, FileInput, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { IconDeviceFloppy, IconFileSpreadsheet } from '@tabler/icons-react';
import {
  FUEL_IMPORT_FIELDS,
  FUEL_IMPORT_FIELD_LABELS,
  FUEL_TRANSACTION_CHECK_LABELS,
  type DateFormat,
  type FuelImportField,
  type FuelImportMapping,
  type FuelImportPresetInfo,
  type FuelImportResult,
  type FuelTransactionCheck,
  type VolumeUnit,
} from '@fleet/api-contract';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { ImportActions } from '../../components/import-actions.tsx';
import { RowErrorsTable } from '../../components/row-errors-table.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { SPREADSHEET_ACCEPT, readImportFile } from '../../lib/spreadsheet.ts';
import { csvHeaders, matchColumns, withColumn } from '../../lib/csv-columns.ts';
import { ColumnMappingFields } from '../../components/column-mapping-fields.tsx';
import { checkImport, runImport, savePreset, useFuelCardMutation, useImportPresets } from './fuel-cards-api.ts';

// A card portal's export (CSV) imported as transactions: a preset (WEX, EFS, Comdata, Fleet One or
// one saved by the organization) names the usual columns; any can be changed and the result saved.
// CSV only: the repository has no Excel reader (save the sheet as CSV).

/** The preset's columns found in the file's headers (loosely, as the server matches them). */
function found(preset: FuelImportPresetInfo | undefined, headers: readonly string[]): FuelImportMapping {
  return matchColumns<FuelImportField>(preset?.mapping ?? {}, headers);
}

export function FuelTransactionImport({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const presets = useImportPresets().data?.content ?? [];
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState<string | null>(null);
  const [headers, setHeaders] = useState<string[]>([]);
  const [presetName, setPresetName] = useState('WEX');
  const [mapping, setMapping] = useState<FuelImportMapping>({});
  const [unit, setUnit] = useState<VolumeUnit>('GAL');
  const [dateFormat, setDateFormat] = useState<DateFormat>('MDY');
  const [check, setCheck] = useState<FuelImportResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [checking, setChecking] = useState(false);
  const [saveAs, setSaveAs] = useState('');
  const commit = useFuelCardMutation(runImport);
  const save = useFuelCardMutation(savePreset);
  const preset = presets.find((p) => p.name === presetName);

  const reset = () => {
    setFile(null);
    setCsv(null);
    setHeaders([]);
    setMapping({});
    setCheck(null);
    setError(null);
  };
  const close = () => {
    reset();
    onClose();
  };
  const applyPreset = (name: string, hs: readonly string[]) => {
    const p = presets.find((x) => x.name === name);
    setPresetName(name);
    setMapping(found(p, hs));
    if (p?.dateFormat) setDateFormat(p.dateFormat);
    if (p) setUnit(p.defaultUnit);
    setCheck(null);
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
    // The preset that finds most of the file's columns; the person can pick another.
    const best = presets
      .filter((p) => p.name !== 'CUSTOM')
      .map((p) => [p.name, Object.keys(found(p, hs)).length] as const)
      .sort((a, b) => b[1] - a[1])[0];
    applyPreset(best && best[1] >= 4 ? best[0] : 'CUSTOM', hs);
  };
  // The mapping is sent whole (CUSTOM base): what the person sees is what the server reads.
  const body = useMemo(() => (csv ? { csv, preset: 'CUSTOM', mapping, defaultUnit: unit, dateFormat } : null), [csv, mapping, unit, dateFormat]);
  const setField = (f: FuelImportField, h: string) => {
    setCheck(null);
    setMapping((m) => withColumn(m, f, h));
  };
  const runCheck = async () => {
    if (!body) return;
    setChecking(true);
    setError(null);
    try {
      setCheck(await checkImport(body));
    } catch (err) {
      setCheck(null);
      setError(err);
    } finally {
      setChecking(false);
    }
  };
  const ready = !!csv && !!mapping.transactionId && !!(mapping.date || mapping.dateTime) && !!(mapping.quantity || mapping.gallons || mapping.litres);

  return (
    <Drawer opened={opened} onClose={close} position="right" size="xl" title="Import fuel-card transactions">
      <Stack gap="md">
        <FileInput
          label="Card export (CSV or Excel)"
          description="WEX, EFS, Comdata, Fleet One or any other: a .csv file, or an Excel workbook (.xlsx, its first sheet)."
          placeholder="Choose a .csv or .xlsx file"
          accept={SPREADSHEET_ACCEPT}
          value={file}
          onChange={(f) => void choose(f)}
          leftSection={<IconFileSpreadsheet size={16} />}
          clearable
        />
        {csv && (
          <>
            <NativeSelect
              label="Preset"
              value={presetName}
              onChange={(e) => applyPreset(e.currentTarget.value, headers)}
              data={presets.map((p) => ({ value: p.name, label: p.builtIn ? p.label : `${p.label} (saved)` }))}
            />
            <Text size="sm" c="dimmed">
              The preset names the usual columns of that card&apos;s export; match any that differ in yours. Lines that are not motor fuel (DEF, reefer, oil,
              cash, fees) are skipped and listed.
            </Text>
            <ColumnMappingFields
              fields={FUEL_IMPORT_FIELDS}
              labels={FUEL_IMPORT_FIELD_LABELS}
              required={(f) => f === 'transactionId'}
              headers={headers}
              mapping={mapping}
              onColumn={setField}
              unit={unit}
              onUnit={(u) => {
                setUnit(u);
                setCheck(null);
              }}
              dateFormat={dateFormat}
              onDateFormat={(d) => {
                setDateFormat(d);
                setCheck(null);
              }}
            />
            <Group gap="xs" align="flex-end" wrap="wrap">
              <TextInput
                label="Save these columns as a preset"
                placeholder={preset && !preset.builtIn ? preset.name : 'e.g. Our WEX account'}
                value={saveAs}
                onChange={(e) => setSaveAs(e.currentTarget.value)}
                maxLength={60}
                w={260}
              />
              <Button
                variant="default"
                leftSection={<IconDeviceFloppy size={16} />}
                disabled={saveAs.trim() === ''}
                loading={save.isPending}
                onClick={() =>
                  save.mutate(
                    { name: saveAs.trim(), body: { base: 'CUSTOM', mapping, dateFormat, defaultUnit: unit } },
                    {
                      onSuccess: (p) => {
                        notify({ type: 'success', title: `Preset ${p.name} saved for the organization`, timeout: 4000 });
                        setPresetName(p.name);
                        setSaveAs('');
                      },
                      onError: setError,
                    },
                  )
                }
              >
                Save preset
              </Button>
            </Group>
            {!ready && (
              <Text size="sm" c="orange">
                Map at least the transaction id, a date, a quantity, the state (or the station coordinates) and the truck (unit, card or driver).
              </Text>
            )}
            <Group>
              <Button variant="default" onClick={() => void runCheck()} disabled={!ready} loading={checking}>
                Check the file
              </Button>
            </Group>
          </>
        )}
        <ErrorAlert error={error} />
        {check && (
          <Stack gap="xs" aria-label="Import check">
            <Group gap="xs">
              <Badge color="gray" variant="light">
                {check.totalRows} rows
              </Badge>
              <Badge color="teal" variant="light">
                {check.validRows} valid
              </Badge>
              <Badge color={check.invalidRows ? 'red' : 'gray'} variant="light">
                {check.invalidRows} with errors
              </Badge>
              <Badge color={check.skippedRows ? 'yellow' : 'gray'} variant="light">
                {check.skippedRows} skipped (not fuel)
              </Badge>
              <Badge color={check.duplicates ? 'grape' : 'gray'} variant="light">
                {check.duplicates} already recorded
              </Badge>
            </Group>
            <RowErrorsTable errors={check.errors} maxHeight={220} />
          </Stack>
        )}
        <ImportActions
          onClose={close}
          run={body ? () => commit.mutateAsync(body) : null}
          disabled={!check || check.validRows === 0}
          pending={commit.isPending}
          done={(r) =>
            `${r.created} transaction${r.created === 1 ? '' : 's'} imported${r.duplicates ? `, ${r.duplicates} already recorded` : ''}: ${
              Object.entries(r.byVerification)
                .map(([k, n]) => `${n} ${FUEL_TRANSACTION_CHECK_LABELS[k as FuelTransactionCheck].toLowerCase()}`)
                .join(', ') || 'none new'
            }`
          }
          timeout={6000}
        >
          Import {check ? `${check.validRows} transaction${check.validRows === 1 ? '' : 's'}` : ''}
        </ImportActions>
      </Stack>
    </Drawer>
  );
}
