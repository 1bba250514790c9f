import { Alert, Badge, Button, Drawer, FileInput, Group, Stack, Table, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { RowErrorsTable } from '../../components/row-errors-table.tsx';
import { useFilePreview } from '../../lib/file-preview.ts';
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
          A CSV with one row per stop: rows with the same reference make one load, its stops in the file&apos;s order. Columns: reference, customer, kind
          (PICKUP or DELIVERY), place (a place&apos;s name) or latitude and longitude, windowStart and windowEnd (with their offset, e.g.
          2026-06-01T06:00:00-05:00), and optionally serviceMinutes, address, bol, po, commodity, weight (kg), lineHaul and fuelSurcharge. The file is checked
          first; it is imported only when no row has an error.
        </Text>
        <FileInput
          label="CSV file"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          value={file}
          onChange={(f) => void choose(f)}
          leftSection={<IconFileImport size={16} />}
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the file' }}
        />
        {checking && <Text size="sm">Checking the file…</Text>}
        <ErrorAlert error={error ?? commit.error} />
        {preview && (
          <Stack gap="sm" data-testid="load-import-preview">
            <Group gap="xs">
              <Badge color="gray" variant="light">
                {preview.totalRows} rows
              </Badge>
              <Badge color="teal" variant="light">
                {loadsText(preview.totalLoads)}
              </Badge>
              <Badge color={preview.errors.length ? 'red' : 'gray'} variant="light">
                {preview.errors.length} {preview.errors.length === 1 ? 'error' : 'errors'}
              </Badge>
            </Group>
            <RowErrorsTable errors={preview.errors} maxHeight={260} />
            {preview.sample.length > 0 && (
              <Table fz="sm" aria-label="Loads to import">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Reference</Table.Th>
                    <Table.Th>Customer</Table.Th>
                    <Table.Th ta="right">Stops</Table.Th>
                    <Table.Th ta="right">Rate</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.sample.map((l) => (
                    <Table.Tr key={l.reference}>
                      <Table.Td>{l.reference}</Table.Td>
                      <Table.Td>{l.customer}</Table.Td>
                      <Table.Td ta="right">{l.stops}</Table.Td>
                      <Table.Td ta="right">{l.total.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            {preview.errors.length > 0 && (
              <Alert color="yellow" variant="light">
                Nothing is imported while a row has an error: fix the rows above and choose the file again.
              </Alert>
            )}
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            onClick={() => void run().catch(() => undefined)}
            disabled={!preview || preview.errors.length > 0 || preview.totalLoads === 0}
            loading={commit.isPending}
          >
            Import {preview ? loadsText(preview.totalLoads) : ''}
          </Button>
        </Group>
      </Stack>
    </Drawer>
  );
}
