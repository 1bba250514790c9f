import { useMemo } from 'react';
import { Center, Checkbox, Drawer, Loader, NativeSelect, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import {
  DEFAULT_TANK_CAPACITY_L,
  FUEL_TYPES,
  STATE_OPTIONS,
  TRAILER_TYPES,
  roundTo,
  tankCapacityText,
  trailerInputSchema,
  vehicleInputSchema,
  volumeFromL,
  volumeToL,
  type Asset,
  type AssetDetail,
  type AssetType,
} from '@fleet/api-contract';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { field, useZodForm } from '../../lib/form.ts';
import { FormFooter } from '../../components/form-footer.tsx';
import { showServerError } from '../../lib/registry-api.ts';
import { notify } from '../../lib/notifications-store.ts';
import { saveAsset, useAssetMutation } from './assets-api.ts';
import { unitLabels, useLoadedUnits, type UnitSystem } from '../../lib/units.ts';
import { lengthField, odometerField, typedInUnits } from '../../lib/unit-fields.ts';

const STATE_DATA = [{ value: '', label: '—' }, ...STATE_OPTIONS.map((s) => ({ value: s.code, label: `${s.code} · ${s.name}` }))];
const STATUS_DATA = [
  { value: 'ACTIVE', label: 'Active' },
  { value: 'INACTIVE', label: 'Inactive' },
];
const FIELDS = [
  'unitNumber',
  'vin',
  'make',
  'model',
  'year',
  'plate',
  'plateState',
  'fuelType',
  'odometerKm',
  'tankCapacityL',
  'trailerType',
  'lengthM',
  'status',
  'notes',
];

/**
 * Number inputs: an empty box means "not set" (null). The text stays text for the unit fields,
 * whose schemas read it in the organization's units (typedInUnits).
 */
function numField<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues>, name: Path<T>) {
  return { ...field(form, name), ...form.register(name, { setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? null : v) }) };
}

/** The year box: a number for the contract, which takes JSON numbers only; other text stays for it to name the problem. */
function yearField<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues>, name: Path<T>) {
  const toYear = (v: unknown) => {
    const text = typeof v === 'string' ? v.trim() : v;
    if (text === '' || text === null || text === undefined) return null;
    return typeof text === 'string' && /^\d+$/.test(text) ? Number(text) : text;
  };
  return { ...field(form, name), ...form.register(name, { setValueAs: toYear }) };
}

const text = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));

export interface AssetFormProps {
  type: AssetType;
  /** The record to edit; null adds a new one. */
  asset: Asset | null;
  opened: boolean;
  onClose: () => void;
  onSaved?: (asset: AssetDetail) => void;
}

/** Add and edit form of a vehicle or trailer in a side drawer, validated by the api-contract schema. */
export function AssetFormDrawer(props: AssetFormProps) {
  const noun = props.type === 'VEHICLE' ? 'vehicle' : 'trailer';
  // Odometer and length are typed in the organization's units: the form waits until they are known.
  const units = useLoadedUnits();
  const form = !units ? (
    <Center py="xl">
      <Loader size="sm" aria-label="Loading the organization's units" />
    </Center>
  ) : props.type === 'VEHICLE' ? (
    <VehicleForm {...props} units={units} />
  ) : (
    <TrailerForm {...props} units={units} />
  );
  return (
    <Drawer
      opened={props.opened}
      onClose={props.onClose}
      position="right"
      size="lg"
      title={props.asset ? `Edit ${noun} ${props.asset.unitNumber}` : `Add ${noun}`}
    >
      {props.opened && form}
    </Drawer>
  );
}

type FormProps = AssetFormProps & { units: UnitSystem };

function useSave(props: AssetFormProps) {
  return useAssetMutation((body: unknown) => saveAsset(props.asset?.id, body));
}

function VehicleForm(props: FormProps) {
  const a = props.asset;
  // The odometer box holds the organization's unit (mi or km); the schema hands the API km.
  const odometer = useMemo(() => odometerField(vehicleInputSchema.shape.odometerKm, a?.odometerKm ?? null, props.units), [a?.odometerKm, props.units]);
  // The tank box holds gal or L (the organization's units); the API stores litres (issue 28).
  const tank = useMemo(() => {
    const l = a?.tankCapacityL ?? null;
    const shown = l === null ? '' : String(roundTo(volumeFromL(l, props.units), 1));
    return { shown, schema: typedInUnits(vehicleInputSchema.shape.tankCapacityL, shown, l, (v) => roundTo(volumeToL(v, props.units), 3)) };
  }, [a?.tankCapacityL, props.units]);
  const schema = useMemo(() => vehicleInputSchema.extend({ odometerKm: odometer.schema, tankCapacityL: tank.schema }), [odometer, tank]);
  const form = useZodForm(schema, {
    defaultValues: {
      type: 'VEHICLE',
      unitNumber: text(a?.unitNumber),
      vin: text(a?.vin),
      make: text(a?.make),
      model: text(a?.model),
      year: a?.year ?? null,
      plate: text(a?.plate),
      plateState: text(a?.plateState),
      fuelType: (a?.fuelType ?? 'DIESEL') as 'DIESEL',
      iftaQualified: a?.iftaQualified ?? true,
      odometerKm: odometer.shown,
      tankCapacityL: tank.shown,
      status: a?.status ?? 'ACTIVE',
      notes: text(a?.notes),
    },
  });
  const save = useSave(props);
  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      notify({ type: 'success', title: `Vehicle ${saved.unitNumber} saved`, timeout: 4000 });
      props.onSaved?.(saved);
      props.onClose();
    } catch (err) {
      if (!showServerError(form, err, FIELDS)) form.setError('root', { message: (err as Error).message });
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Vehicle form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label="Unit number" required {...field(form, 'unitNumber')} data-autofocus />
          <TextInput label="VIN" required maxLength={17} styles={{ input: { fontFamily: 'monospace', textTransform: 'uppercase' } }} {...field(form, 'vin')} />
          <TextInput label="Make" {...field(form, 'make')} />
          <TextInput label="Model" {...field(form, 'model')} />
          <TextInput label="Year" inputMode="numeric" {...yearField(form, 'year')} />
          <TextInput label={`Odometer (${unitLabels(props.units).distance})`} inputMode="decimal" {...numField(form, 'odometerKm')} />
          <TextInput
            label={`Fuel tank capacity (${unitLabels(props.units).volume})`}
            description={`Empty: ${tankCapacityText(null, props.units)}. A larger fuel purchase must be marked bulk or split.`}
            placeholder={String(roundTo(volumeFromL(DEFAULT_TANK_CAPACITY_L, props.units), 1))}
            inputMode="decimal"
            {...numField(form, 'tankCapacityL')}
          />
          <TextInput label="Licence plate" {...field(form, 'plate')} />
          <NativeSelect label="Plate state or province" data={STATE_DATA} {...field(form, 'plateState')} />
          <NativeSelect label="Fuel type (IFTA)" data={FUEL_TYPES.map(([value, label]) => ({ value, label }))} {...field(form, 'fuelType')} />
          <NativeSelect label="Status" data={STATUS_DATA} {...field(form, 'status')} />
        </SimpleGrid>
        <Checkbox label="IFTA-qualified motor vehicle (reported on the quarterly fuel tax return)" {...form.register('iftaQualified')} />
        <Textarea label="Notes" autosize minRows={2} maxRows={6} {...field(form, 'notes')} />
        <FormFooter form={form} busy={save.isPending} onCancel={props.onClose} />
      </Stack>
    </form>
  );
}

function TrailerForm(props: FormProps) {
  const a = props.asset;
  // The length box holds the organization's unit (ft or m); the schema hands the API metres.
  const length = useMemo(() => lengthField(trailerInputSchema.shape.lengthM, a?.lengthM ?? null, props.units), [a?.lengthM, props.units]);
  const schema = useMemo(() => trailerInputSchema.extend({ lengthM: length.schema }), [length]);
  const form = useZodForm(schema, {
    defaultValues: {
      type: 'TRAILER',
      unitNumber: text(a?.unitNumber),
      vin: text(a?.vin),
      make: text(a?.make),
      model: text(a?.model),
      year: a?.year ?? null,
      trailerType: (a?.trailerType ?? 'DRY_VAN') as 'DRY_VAN',
      lengthM: length.shown,
      plate: text(a?.plate),
      plateState: text(a?.plateState),
      status: a?.status ?? 'ACTIVE',
      notes: text(a?.notes),
    },
  });
  const save = useSave(props);
  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      notify({ type: 'success', title: `Trailer ${saved.unitNumber} saved`, timeout: 4000 });
      props.onSaved?.(saved);
      props.onClose();
    } catch (err) {
      if (!showServerError(form, err, FIELDS)) form.setError('root', { message: (err as Error).message });
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Trailer form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label="Unit number" required {...field(form, 'unitNumber')} data-autofocus />
          <TextInput label="VIN" maxLength={17} styles={{ input: { fontFamily: 'monospace', textTransform: 'uppercase' } }} {...field(form, 'vin')} />
          <NativeSelect label="Trailer type" data={TRAILER_TYPES.map(([value, label]) => ({ value, label }))} {...field(form, 'trailerType')} />
          <TextInput
            label={`Length (${unitLabels(props.units).length})`}
            inputMode="decimal"
            description={props.units === 'METRIC' ? 'A 53 ft trailer is 16.15 m' : undefined}
            {...numField(form, 'lengthM')}
          />
          <TextInput label="Make" {...field(form, 'make')} />
          <TextInput label="Year" inputMode="numeric" {...yearField(form, 'year')} />
          <TextInput label="Licence plate" {...field(form, 'plate')} />
          <NativeSelect label="Plate state or province" data={STATE_DATA} {...field(form, 'plateState')} />
          <NativeSelect label="Status" data={STATUS_DATA} {...field(form, 'status')} />
        </SimpleGrid>
        <Textarea label="Notes" autosize minRows={2} maxRows={6} {...field(form, 'notes')} />
        <FormFooter form={form} busy={save.isPending} onCancel={props.onClose} />
      </Stack>
    </form>
  );
}
