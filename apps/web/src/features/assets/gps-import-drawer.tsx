import { Badge, Drawer, FileInput, Group, Stack, Text } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import type { PositionImportBody } from '@fleet/api-contract';
import { formatDateTime } from '../../lib/dates.ts';
import { RowErrorsTable } from '../../components/row-errors-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { useFilePreview } from '../../lib/file-preview.ts';
import { importPositions, useAssetMutation } from './assets-api.ts';
import { ImportActions } from '../../components/import-actions.tsx';

/**
 * A vehicle's GPS history from another system (CSV or GPX): upload, a preview with each bad row
 * (nothing saved), then the valid rows imported on confirm. The positions count in IFTA miles and
 * history, marked as imported.
 */
export function GpsImportDrawer({ vehicle, opened, onClose }: { vehicle: { id: string; unitNumber: string }; opened: boolean; onClose: () => void }) {
  const { file, text, preview, error, checking, reset, choose } = useFilePreview((t) =>
    importPositions(vehicle.id, { file: t, dryRun: true }, { toast: false }),
  );
  const commit = useAssetMutation((body: PositionImportBody) => importPositions(vehicle.id, body));

  const close = () => {
    reset();
    onClose();
  };

  return (
    <Drawer opened={opened} onClose={close} position="right" size="xl" title={`Import GPS history of ${vehicle.unitNumber}`}>
      <Stack gap="md">
        <Text size="sm">
          From the system this vehicle used before: a GPX file, or a CSV with <b>time</b>, <b>latitude</b> and <b>longitude</b> columns (optional: speed in
          km/h, or speed_mph; course; altitude; odometer in metres, or odometer_mi). Times without an offset are read in the organization&apos;s time zone. The
          positions count in IFTA miles and history, marked as imported; rows where this vehicle&apos;s device already reported are skipped.
        </Text>
        <FileInput
          label="CSV or GPX file"
          placeholder="Choose a .csv or .gpx file"
          accept=".csv,.gpx,text/csv,application/gpx+xml"
          value={file}
          onChange={(f) => void choose(f)}
          leftSection={<IconRoute size={16} />}
          clearable
        />
        {checking && <Text size="sm">Checking the file…</Text>}
        <ErrorAlert error={error} />
        {preview && (
          <Stack gap="sm">
            <Group gap="xs">
              <Badge color="gray" variant="light">
                {preview.format}
              </Badge>
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
            {preview.from && preview.to && (
              <Text size="sm">
                Valid positions from {formatDateTime(preview.from)} to {formatDateTime(preview.to)}.
              </Text>
            )}
            <RowErrorsTable errors={preview.errors} maxHeight={300} />
          </Stack>
        )}
        <ImportActions
          onClose={close}
          run={text ? () => commit.mutateAsync({ file: text }) : null}
          disabled={!preview || preview.validRows === 0}
          pending={commit.isPending}
          done={(r) =>
            `${r.imported} positions imported${r.duplicates ? `, ${r.duplicates} already there` : ''}${r.invalidRows ? `, ${r.invalidRows} rows skipped` : ''}`
          }
          timeout={5000}
        >
          Import {preview ? `${preview.validRows} positions` : ''}
        </ImportActions>
      </Stack>
    </Drawer>
  );
}
