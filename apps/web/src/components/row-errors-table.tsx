import { ScrollArea, Table } from '@mantine/core';

/** One refused row of an import preview: its line in the file, the column and what is wrong. */
export interface RowError {
  line: number;
  field: string;
  message: string;
}

/** The import previews' table of refused rows (registry, fuel, GPS history): the first 500, scrollable from the keyboard. */
export function RowErrorsTable({ errors, maxHeight }: { errors: readonly RowError[]; maxHeight: number }) {
  if (errors.length === 0) return null;
  return (
    <ScrollArea.Autosize mah={maxHeight} tabIndex={0} aria-label="Row errors, scrollable">
      <Table striped aria-label="Row errors" fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Line</Table.Th>
            <Table.Th>Column</Table.Th>
            <Table.Th>Problem</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {errors.slice(0, 500).map((e, i) => (
            <Table.Tr key={i}>
              <Table.Td>{e.line}</Table.Td>
              <Table.Td>{e.field}</Table.Td>
              <Table.Td>{e.message}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
