import { ActionIcon, Autocomplete, Button, Checkbox, Group, NumberInput, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus, IconRestore, IconTrash } from '@tabler/icons-react';
import {
  ENGINE_ATTRIBUTES,
  ENGINE_ATTRIBUTE_NAMES,
  FAULT_ATTRIBUTES,
  FAULT_ATTRIBUTE_NAMES,
  FUEL_LEVEL_ATTRIBUTES,
  FUEL_LEVEL_ATTRIBUTE_NAMES,
  IO_MEANINGS,
  TELTONIKA_DEFAULT_IO_MAP,
  type IoMap,
  type IoMapEntry,
  type IoMeaning,
} from '@fleet/api-contract';

// A device model's IO map as rows (decision 0154): numbered IO element, the attribute it becomes
// (one of the engine attributes, or a custom name kept with the position), the factor (negative or
// fractional), whether the raw value is signed and what it measures (decision 0323). The unit and the
// raw values meaning "no reading" are kept as the map had them.

export interface IoRow {
  key: number;
  id: string;
  attribute: string;
  multiplier: number | '';
  signed: boolean;
  meaning: IoMeaning | null;
  /** Kept from the map as it was (not edited here). */
  rest: Pick<IoMapEntry, 'unit' | 'noReading'>;
}

const MEANING_LABELS: Record<IoMeaning, string> = {
  temperature: 'Temperature',
  humidity: 'Humidity',
  battery: 'Sensor battery',
  fuelLevel: 'Fuel level',
  driverCard: 'Driver card',
  magnet: 'Magnet (door)',
};

let next = 0;
const emptyRow = (): IoRow => ({ key: ++next, id: '', attribute: '', multiplier: '', signed: false, meaning: null, rest: {} });
export const rowsOf = (map: IoMap): IoRow[] =>
  Object.entries(map)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([id, e]) => ({
      key: ++next,
      id,
      attribute: e.attribute,
      multiplier: e.multiplier ?? '',
      signed: e.signed ?? false,
      meaning: e.meaning ?? null,
      rest: { ...(e.unit ? { unit: e.unit } : {}), ...(e.noReading ? { noReading: e.noReading } : {}) },
    }));

/** Rows to the map the API takes; the first problem found, by row, when a row is not valid. */
export function mapOf(rows: readonly IoRow[]): { map: IoMap } | { error: string } {
  const map: IoMap = {};
  for (const [i, r] of rows.entries()) {
    const n = i + 1;
    if (!/^\d{1,5}$/.test(r.id.trim())) return { error: `Row ${n}: the IO id must be a number` };
    if (!/^[a-zA-Z][a-zA-Z0-9]{0,39}$/.test(r.attribute.trim())) return { error: `Row ${n}: the attribute must be a name of letters and digits` };
    if (r.multiplier === 0) return { error: `Row ${n}: the multiplier must not be 0` };
    if (map[r.id.trim()]) return { error: `Row ${n}: IO id ${r.id.trim()} is mapped twice` };
    map[r.id.trim()] = {
      attribute: r.attribute.trim(),
      ...(r.multiplier === '' || r.multiplier === 1 ? {} : { multiplier: r.multiplier }),
      ...(r.signed ? { signed: true } : {}),
      ...(r.meaning ? { meaning: r.meaning } : {}),
      ...r.rest,
    };
  }
  return { map };
}

// The unit is what the multiplier must produce from the raw value (stored SI, shown per organization).
// The engine fault attributes (decision 0191) too: which elements carry fault codes; and the fuel level (0276).
const ATTRIBUTE_CHOICES = [
  ...ENGINE_ATTRIBUTE_NAMES.map((n) => {
    const { label, unit } = ENGINE_ATTRIBUTES[n];
    return { value: n, label: `${n}: ${label}${unit ? ` (${unit})` : ''}` };
  }),
  ...FAULT_ATTRIBUTE_NAMES.map((n) => ({ value: n, label: `${n}: ${FAULT_ATTRIBUTES[n].label}` })),
  ...FUEL_LEVEL_ATTRIBUTE_NAMES.map((n) => ({ value: n, label: `${n}: ${FUEL_LEVEL_ATTRIBUTES[n].label} (${FUEL_LEVEL_ATTRIBUTES[n].unit})` })),
];

export function IoMapEditor({ rows, onChange, error, teltonika }: { rows: IoRow[]; onChange: (rows: IoRow[]) => void; error?: string; teltonika: boolean }) {
  const set = (key: number, patch: Partial<IoRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end">
        <div>
          <Text fw={500} size="sm">
            IO map
          </Text>
          <Text size="xs" c="dimmed">
            {teltonika && rows.length === 0
              ? 'Empty: the Teltonika default map is used.'
              : 'Numbered IO elements the device reports, and the attribute each becomes (raw value × multiplier; signed: read as a negative number when its top bit is set).'}
          </Text>
        </div>
        <Button size="xs" variant="default" leftSection={<IconRestore size={14} />} onClick={() => onChange(rowsOf(TELTONIKA_DEFAULT_IO_MAP))}>
          Reset to the Teltonika default
        </Button>
      </Group>
      {rows.length > 0 && (
        <Table aria-label="IO map" verticalSpacing={4} horizontalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={90}>IO id</Table.Th>
              <Table.Th>Attribute</Table.Th>
              <Table.Th w={120}>Multiplier</Table.Th>
              <Table.Th w={64}>Signed</Table.Th>
              <Table.Th w={150}>Measures</Table.Th>
              <Table.Th w={36} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r, i) => (
              <Table.Tr key={r.key}>
                <Table.Td>
                  <TextInput
                    aria-label={`IO id, row ${i + 1}`}
                    value={r.id}
                    onChange={(e) => set(r.key, { id: e.currentTarget.value })}
                    inputMode="numeric"
                    size="xs"
                  />
                </Table.Td>
                <Table.Td>
                  <Autocomplete
                    aria-label={`Attribute, row ${i + 1}`}
                    data={ATTRIBUTE_CHOICES}
                    value={r.attribute}
                    onChange={(v) => set(r.key, { attribute: v })}
                    size="xs"
                  />
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label={`Multiplier, row ${i + 1}`}
                    value={r.multiplier}
                    onChange={(v) => set(r.key, { multiplier: typeof v === 'number' ? v : '' })}
                    placeholder="1"
                    decimalScale={8}
                    size="xs"
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox aria-label={`Signed, row ${i + 1}`} checked={r.signed} onChange={(e) => set(r.key, { signed: e.currentTarget.checked })} />
                </Table.Td>
                <Table.Td>
                  <Select
                    aria-label={`Measures, row ${i + 1}`}
                    data={IO_MEANINGS.map((m) => ({ value: m, label: MEANING_LABELS[m] }))}
                    value={r.meaning}
                    onChange={(v) => set(r.key, { meaning: (v as IoMeaning | null) ?? null })}
                    placeholder="–"
                    clearable
                    size="xs"
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon variant="subtle" color="red" aria-label={`Remove row ${i + 1}`} onClick={() => onChange(rows.filter((x) => x.key !== r.key))}>
                    <IconTrash size={14} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
      <Group>
        <Button size="xs" variant="subtle" leftSection={<IconPlus size={14} />} onClick={() => onChange([...rows, emptyRow()])}>
          Add IO element
        </Button>
      </Group>
    </Stack>
  );
}
