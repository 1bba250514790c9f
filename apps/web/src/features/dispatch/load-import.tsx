import { Alert, Badge, Button, Drawer, FileInput, Group, Stack, Table, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { RowErrorsTable } from '../../components/row-errors-table.tsx';
import { useFilePreview } from '../../lib/file-preview.ts';
import { formatShortDateTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { importLoads, useLoadMutation } from './dispatch-api.ts';

const loadsText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'load' : 'loads'}`;

/**
 * Loads from a CSV (one row per stop, rows of one load sharing its reference, as the API documents):
 * a dry run first counts the valid loads and lists each refused row's problem; nothing is saved until
 * "Import".
 */
export function LoadImportDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const check = useLoadMutation(importLoads);
  const commit = useLoadMutation(importLoads);
  const { file, text, preview, error, checking, reset, choose } = useFilePreview((content) => check.mutateAsync({ content, dryRun: true }));
  const close = () => {
    reset();
    onClose();
  };
  const run = async () => {
    if (text === null) return;
    const r = await commit.mutateAsync({ content: text, dryRun: false });
    notify({ type: 'success', title: `${loadsText(r.imported)} imported`, timeout: 5000 });
    close();
  };
  return (
    <Drawer opened={opened} onClose={close} position="right" size="xl" title="Import loads" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="md">
        <Text size="sm">
          A CSV with the load&apos;s columns (customer, references, rate) and its stops (kind, latitude, longitude or a place, the appointment window and the loading
          time). The file is checked first; rows with errors are listed and skipped.
        </Text>
        <FileInput label="CSV file" placeholder="Choose a .csv file" accept=".csv,text/csv" value={file} onChange={(f) => void choose(f)} leftSection={<IconFileImport size={16} />} clearable clearButtonProps={{ 'aria-label': 'Clear the file' }} />
        {checking && <Text size="sm">Checking the file…</Text>}
        <ErrorAlert error={error ?? commit.error} />
        {preview && (
          <Stack gap="sm" data-testid="load-import-preview">
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
              <Table fz="sm" aria-label="Loads to import">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Line</Table.Th>
                    <Table.Th>Customer</Table.Th>
                    <Table.Th>Stops</Table.Th>
                    <Table.Th>First pick-up</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.sample.map((l) => (
                    <Table.Tr key={l.line}>
                      <Table.Td>{l.line}</Table.Td>
                      <Table.Td>{l.customer}</Table.Td>
                      <Table.Td>{l.stops ?? '—'}</Table.Td>
                      <Table.Td>{l.firstPickup ? formatShortDateTime(l.firstPickup) : '—'}</Table.Td>
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
          <Button onClick={() => void run().catch(() => undefined)} disabled={!preview || preview.validRows === 0} loading={commit.isPending}>
            Import {preview ? loadsText(preview.validRows) : ''}
          </Button>
        </Group>
      </Stack>
    </Drawer>
  );
}
