import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { Controller, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import type { OrganizationAccountInput } from '@fleet/api-contract';
import { field } from '../../lib/form.ts';
import { TIME_ZONES } from '../../lib/time-zones.ts';

/** Blank form values of the account fields (the zod schema turns '' into null). */
export const EMPTY_ACCOUNT: OrganizationAccountInput = {
  name: '',
  dotNumber: '',
  mcNumber: '',
  phone: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  postalCode: '',
  country: 'US',
  timeZone: 'America/Chicago',
};

/**
 * Legal name, carrier numbers, address, phone and time zone: shared by the organization account
 * screen and the super administrator's create and edit forms (one zod schema behind all three).
 */
export function AccountFields<T extends OrganizationAccountInput>({ form }: { form: UseFormReturn<T, unknown, FieldValues> }) {
  const f = (name: keyof OrganizationAccountInput) => field(form, name as Path<T>);
  const select = (name: 'timeZone' | 'country', label: string, data: { value: string; label: string }[]) => (
    <Controller
      control={form.control}
      name={name as Path<T>}
      render={({ field: c, fieldState }) => (
        <Select
          label={label}
          withAsterisk
          searchable={name === 'timeZone'}
          allowDeselect={false}
          data={data}
          value={(c.value as string | undefined) || null}
          onChange={(v) => c.onChange(v ?? '')}
          onBlur={c.onBlur}
          error={fieldState.error?.message}
          nothingFoundMessage="No match"
        />
      )}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextInput label="Legal name" withAsterisk autoComplete="organization" {...f('name')} />
      <TextInput label="Phone" type="tel" autoComplete="tel" placeholder="+1 555 010 0000" {...f('phone')} />
      <TextInput label="USDOT number" inputMode="numeric" placeholder="1234567" description="1 to 8 digits" {...f('dotNumber')} />
      <TextInput label="MC number" placeholder="MC-123456" description="Operating authority, with or without MC-" {...f('mcNumber')} />
      <TextInput label="Address" autoComplete="address-line1" {...f('addressLine1')} />
      <TextInput label="Address line 2" autoComplete="address-line2" {...f('addressLine2')} />
      <TextInput label="City" autoComplete="address-level2" {...f('city')} />
      <SimpleGrid cols={2} spacing="md">
        <TextInput label="State / province" placeholder="TX" maxLength={2} autoComplete="address-level1" {...f('state')} />
        <TextInput label="Postal code" autoComplete="postal-code" {...f('postalCode')} />
      </SimpleGrid>
      {select('country', 'Country', [
        { value: 'US', label: 'United States' },
        { value: 'CA', label: 'Canada' },
      ])}
      {select('timeZone', 'Home-terminal time zone', TIME_ZONES)}
    </SimpleGrid>
  );
}

/** The organization's stored values as form values (null becomes ''). */
export function accountValues(o: { [K in keyof OrganizationAccountInput]?: string | null }): OrganizationAccountInput {
  const out = { ...EMPTY_ACCOUNT };
  for (const k of Object.keys(EMPTY_ACCOUNT) as (keyof OrganizationAccountInput)[]) {
    const v = o[k];
    if (v !== undefined && v !== null) (out as Record<string, string>)[k] = v;
  }
  return out;
}
