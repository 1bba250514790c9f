import { Alert, Anchor, Badge, Drawer, FileInput, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import type { ImportKind } from '@fleet/api-contract';
import { downloadImportTemplate, importRows, previewImport } from '../lib/import-api.ts';
import { useRegistryMutation } from '../lib/registry-api.ts';
import { RowErrorsTable } from './row-errors-table.tsx';
import { ErrorAlert } from './error-alert.tsx';
import { useFilePreview } from '../lib/file-preview.ts';
import { ImportActions } from './import-actions.tsx';

/**
 * CSV import of vehicles, trailers or drivers: template download, upload, a preview with the errors of
 * each row (nothing saved), then import of the valid rows in one transaction on confirm.
 */
export function ImportDrawer({ kind, opened, onClose }: { kind: ImportKind; opened: boolean; onClose: () => void }) {
  const { file, text: csv, preview, error, checking, reset, choose } = useFilePreview((text) => previewImport(kind, text));
  const commit = useRegistryMutation((text: string) => importRows(kind, text));

  const close = () => {
    reset();
    onClose();
  };

  return (
    <Drawer opened={opened} onClose={close} position="right" size="xl" title={`Import ${kind} from CSV`}>
      <Stack gap="md">
        <Text size="sm">
          Use the template&apos;s columns (one {kind.slice(0, -1)} per row). Rows with errors are listed and skipped; the valid rows are imported together when
          you confirm.{' '}
          <Anchor component="button" type="button" size="sm" onClick={() => void downloadImportTemplate(kind)}>
            Download the template
          </Anchor>
        </Text>
        <FileInput
          label="CSV file"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          value={file}
          onChange={(f) => void choose(f)}
          leftSection={<IconFileSpreadsheet size={16} />}
          clearable
        />
        {checking && <Text size="sm">Checking the file…</Text>}
        <ErrorAlert error={error} />
        {preview && (
          <Stack gap="sm">
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
            {preview.unknownColumns.length > 0 && (
              <Alert color="yellow" title="Columns ignored">
                {preview.unknownColumns.join(', ')}
              </Alert>
            )}
            <RowErrorsTable errors={preview.errors} maxHeight={260} />
            {preview.sample.length > 0 && (
              <ScrollArea type="auto">
                <Text size="sm" fw={600} mb={4}>
                  First valid rows
                </Text>
                <Table aria-label="Preview of valid rows" fz="xs" withTableBorder>
                  <Table.Thead>
                    <Table.Tr>
                      {preview.columns.map((c) => (
                        <Table.Th key={c}>{c}</Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {preview.sample.slice(0, 10).map((row, i) => (
                      <Table.Tr key={i}>
                        {preview.columns.map((c) => (
                          <Table.Td key={c}>{row[c] === null || row[c] === undefined ? '' : String(row[c])}</Table.Td>
                        ))}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea>
            )}
          </Stack>
        )}
        <ImportActions
          onClose={close}
          run={csv ? () => commit.mutateAsync(csv) : null}
          disabled={!preview || preview.validRows === 0}
          pending={commit.isPending}
          done={(r) => `${r.imported} ${kind} imported${r.invalidRows ? `, ${r.invalidRows} rows skipped` : ''}`}
          timeout={4000}
        >
          Import {preview ? `${preview.validRows} valid rows` : ''}
        </ImportActions>
      </Stack>
    </Drawer>
  );
}
