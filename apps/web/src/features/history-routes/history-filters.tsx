import { Button, Group, Paper, SegmentedControl, Select } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { fromZoneInput, toZoneInput, zoneLabel } from '../../lib/dates.ts';
import type { HistorySubject } from './history-routes-api.ts';
import { startOfToday, type useHistoryQuery } from './use-history-query.ts';

const SUBJECTS: { value: HistorySubject; label: string }[] = [
  { value: 'assets', label: 'Vehicle' },
  { value: 'drivers', label: 'Driver' },
  { value: 'gateways', label: 'Device' },
];

/** The pickers show and take wall-clock times of the viewer's zone ("2026-06-01 06:19:00"). */
const pickerValue = (d: Date) => `${toZoneInput(d.toISOString()).replace('T', ' ')}:00`;
const fromPicker = (v: string | null) => {
  const iso = v ? fromZoneInput(v.slice(0, 16).replace(' ', 'T')) : null;
  return iso ? new Date(iso) : null;
};

/** Whose history (vehicle, driver or device, and which one) and the range, with a shortcut to today. */
export function HistoryFilters({ query }: { query: ReturnType<typeof useHistoryQuery> }) {
  const { subject, subjectId, setSubject, options, range } = query;
  return (
    <Paper withBorder p="sm">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <SegmentedControl aria-label="Show the history of" value={subject} onChange={(v) => setSubject(v as HistorySubject, null)} data={SUBJECTS} />
        <Select
          label={SUBJECTS.find((s) => s.value === subject)!.label}
          placeholder={options.isLoading ? 'Loading…' : 'Pick one'}
          searchable
          data={options.data ?? []}
          value={subjectId}
          onChange={(v) => setSubject(subject, v)}
          w={240}
          nothingFoundMessage="Nothing found"
        />
        <DateTimePicker
          label={`From (${zoneLabel(range.from)})`}
          value={pickerValue(range.from)}
          onChange={(v) => {
            const d = fromPicker(v);
            if (d) range.setFrom(d);
          }}
          w={190}
          maxDate={pickerValue(new Date())}
          valueFormat="MM/DD/YY hh:mm A"
        />
        <DateTimePicker
          label={`To (${zoneLabel(range.to)})`}
          value={pickerValue(range.to)}
          onChange={(v) => {
            const d = fromPicker(v);
            if (d) range.setTo(d);
          }}
          w={190}
          error={range.error}
          valueFormat="MM/DD/YY hh:mm A"
        />
        <Button
          variant="default"
          onClick={() => {
            range.setFrom(startOfToday());
            range.setTo(new Date());
          }}
        >
          Today
        </Button>
      </Group>
    </Paper>
  );
}
