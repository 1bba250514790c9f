import { Group, NativeSelect, SimpleGrid } from '@mantine/core';
import type { DateFormat, VolumeUnit } from '@fleet/api-contract';

interface ColumnMappingFieldsProps<F extends string> {
  fields: readonly F[];
  labels: Record<F, string>;
  required: (field: F) => boolean;
  headers: readonly string[];
  mapping: Partial<Record<F, string>>;
  onColumn: (field: F, header: string) => void;
  unit: VolumeUnit;
  onUnit: (unit: VolumeUnit) => void;
  dateFormat: DateFormat;
  onDateFormat: (format: DateFormat) => void;
}

/** A CSV import's column for each field, the unit of a plain quantity column and how dates are written. */
export function ColumnMappingFields<F extends string>(p: ColumnMappingFieldsProps<F>) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" role="group" aria-label="Column mapping">
        {p.fields.map((f) => (
          <NativeSelect
            key={f}
            size="xs"
            label={p.labels[f]}
            withAsterisk={p.required(f)}
            value={p.mapping[f] ?? ''}
            onChange={(e) => p.onColumn(f, e.currentTarget.value)}
            data={[{ value: '', label: '(not in the file)' }, ...p.headers.map((h) => ({ value: h, label: h }))]}
          />
        ))}
      </SimpleGrid>
      <Group gap="md" wrap="wrap" align="flex-end">
        <NativeSelect
          label="A Quantity column is in"
          value={p.unit}
          onChange={(e) => p.onUnit(e.currentTarget.value as VolumeUnit)}
          data={[
            { value: 'GAL', label: 'US gallons' },
            { value: 'L', label: 'Litres' },
          ]}
        />
        <NativeSelect
          label="Dates are written"
          value={p.dateFormat}
          onChange={(e) => p.onDateFormat(e.currentTarget.value as DateFormat)}
          data={[
            { value: 'MDY', label: 'MM/DD/YYYY' },
            { value: 'DMY', label: 'DD/MM/YYYY' },
            { value: 'YMD', label: 'YYYY-MM-DD' },
          ]}
        />
      </Group>
    </>
  );
}
