import { Select } from '@mantine/core';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { TIME_ZONES } from '../lib/time-zones.ts';

/** A form's optional time-zone field (a user's own zone): searchable, clearable, '' when cleared. */
export function TimeZoneSelect<T extends FieldValues>({ control, name, label = 'Time zone' }: { control: Control<T>; name: Path<T>; label?: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: f, fieldState }) => (
        <Select
          label={label}
          searchable
          clearable
          data={TIME_ZONES}
          value={(f.value as string | null | undefined) || null}
          onChange={(v) => f.onChange(v ?? '')}
          onBlur={f.onBlur}
          error={fieldState.error?.message}
          nothingFoundMessage="No matching time zone"
        />
      )}
    />
  );
}
