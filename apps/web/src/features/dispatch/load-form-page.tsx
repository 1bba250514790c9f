import { useMemo, useState } from 'react';
import { ActionIcon, Alert, Button, Card, Group, NativeSelect, Radio, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconMapPin, IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useForm, useWatch, type Path } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { ACCESSORIAL_KINDS, ACCESSORIAL_LABELS, LOAD_LIMITS, STOP_KINDS, STOP_KIND_LABELS } from '@fleet/api-contract/loads';
import type { Load } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useViewerZone, zoneLabel } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { fieldMessages } from '../../lib/registry-api.ts';
import { useLoadedUnits, type UnitSystem } from '../../lib/units.ts';
import { isOverlapRefusal, saveLoad, useAssetOptions, useDriverOptions, useLoad, useLoadMutation, usePlaceOptions } from './dispatch-api.ts';
import { weightUnit } from './dispatch-format.ts';
import { emptyStop, formPathOf, formValuesOf, inputOf, judge, type LoadFormValues } from './load-form-model.ts';
import { LoadMap } from './load-map.tsx';
import { CustomerField } from './customer-field.tsx';

/** `/dispatch/loads/new` and `/dispatch/loads/:id/edit`: the load form (waits for the units, which the weight is typed in). */
export default function LoadFormPage() {
  const { id } = useParams();
  const q = useLoad(id ?? null);
  const units = useLoadedUnits();
  return (
    <DataState isLoading={(!!id && q.isLoading) || !units} error={q.error} onRetry={() => void q.refetch()}>
      {units && (!id || q.data) && <LoadForm key={q.data?.id ?? 'new'} load={q.data ?? null} units={units} />}
    </DataState>
  );
}

type Err = { message?: string } | undefined;
const errorAt = (errors: unknown, path: string): string | undefined =>
  (path.split('.').reduce<unknown>((acc, k) => (acc as Record<string, unknown> | undefined)?.[k], errors) as Err)?.message;

function centreOf(g: { type: 'Point'; coordinates: number[] } | { type: 'Polygon'; coordinates: number[][][] }): [number, number] {
  if (g.type === 'Point') return [g.coordinates[0]!, g.coordinates[1]!];
  const ring = g.coordinates[0]!.slice(0, -1);
  return [ring.reduce((a, p) => a + p[0]!, 0) / ring.length, ring.reduce((a, p) => a + p[1]!, 0) / ring.length];
}

/**
 * A load's form: customer and references, weight in the organization's units, the stops in driving
 * order (a place from the list, a click on the map or typed coordinates; the appointment on the
 * viewer's wall clock, its zone named), the rate and who hauls it. The contract's schema judges it
 * before sending and the server's field messages land under their fields.
 */
function LoadForm({ load, units }: { load: Load | null; units: UnitSystem }) {
  const zone = useViewerZone();
  const navigate = useNavigate();
  const save = useLoadMutation(saveLoad);
  const form = useForm<LoadFormValues>({ defaultValues: formValuesOf(load, units, zone) });
  const { register, control, formState, setValue, setError, clearErrors } = form;
  const stops = useFieldArray({ control, name: 'stops' });
  const accessorials = useFieldArray({ control, name: 'accessorials' });
  const drivers = useDriverOptions();
  const vehicles = useAssetOptions('VEHICLE');
  const trailers = useAssetOptions('TRAILER');
  const places = usePlaceOptions();
  const [active, setActive] = useState(0);
  const watched = useWatch({ control, name: 'stops' });
  const pickedCustomerId = useWatch({ control, name: 'customerId' });
  const tz = zoneLabel(null, zone);
  const e = (path: string) => errorAt(formState.errors, path);

  const driverData = (drivers.data?.content ?? []).map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` }));
  const placeData = (places.data?.content ?? []).map((p) => ({ value: p.id, label: p.name }));
  const mapStops = useMemo(
    () =>
      (watched ?? []).flatMap((s, i) => {
        const lat = Number(s.latitude);
        const lon = Number(s.longitude);
        return s.latitude !== '' && s.longitude !== '' && Number.isFinite(lat) && Number.isFinite(lon)
          ? [{ key: String(i), latitude: lat, longitude: lon, kind: s.kind, title: `${STOP_KIND_LABELS[s.kind]} ${i + 1}` }]
          : [];
      }),
    [watched],
  );

  const pickPlace = (i: number, placeId: string | null) => {
    setValue(`stops.${i}.placeId`, placeId);
    const p = places.data?.content.find((x) => x.id === placeId);
    if (!p) return;
    const [lon, lat] = centreOf(p.geometry);
    setValue(`stops.${i}.latitude`, String(Math.round(lat * 1e6) / 1e6));
    setValue(`stops.${i}.longitude`, String(Math.round(lon * 1e6) / 1e6));
    if (p.address) setValue(`stops.${i}.address`, p.address);
    clearErrors([`stops.${i}.latitude`, `stops.${i}.longitude`]);
  };

  const showErrors = (errors: Array<{ path: string; message: string }>) => {
    let first = true;
    for (const { path, message } of errors) {
      setError(path as Path<LoadFormValues>, { type: 'server', message }, { shouldFocus: first });
      first = false;
    }
  };

  const submit = form.handleSubmit(async (values) => {
    clearErrors();
    const judged = judge(inputOf(values, units, zone, load));
    if (!judged.ok) {
      showErrors(judged.errors);
      return;
    }
    try {
      let saved: Load;
      try {
        saved = await save.mutateAsync({ id: load?.id, body: judged.input });
      } catch (err) {
        // A named driver or the tractor is on a load at these times: asked, as the candidates list asks.
        if (!isOverlapRefusal(err)) throw err;
        const anyway = await confirmAction({
          title: 'Save with this assignment anyway?',
          message: err.body.message,
          confirmLabel: 'Save anyway',
          cancelLabel: 'Change it',
          danger: false,
        });
        if (!anyway) return;
        saved = await save.mutateAsync({ id: load?.id, body: { ...judged.input, overlapAllowed: true } });
      }
      notify({ type: 'success', title: `Load ${saved.number} saved`, timeout: 4000 });
      navigate(`/dispatch/loads/${saved.id}`);
    } catch (err) {
      const fields =
        err instanceof ApiError && (err.status === 400 || err.status === 409)
          ? fieldMessages(err.body?.technicalMessage ?? '').map((m) => ({ path: formPathOf(m.path), message: m.message }))
          : [];
      if (fields.length) showErrors(fields);
      else setError('root', { message: err instanceof ApiError ? (err.body?.message ?? err.message) : (err as Error).message });
    }
  });

  return (
    <>
      <PageHeader
        title={load ? `Edit load ${load.number}` : 'New load'}
        breadcrumbs={[
          { label: 'Dispatch', to: '/dispatch' },
          ...(load ? [{ label: load.number, to: `/dispatch/loads/${load.id}` }] : []),
          { label: load ? 'Edit' : 'New load' },
        ]}
      />
      <form onSubmit={(ev) => void submit(ev)} noValidate aria-label="Load form">
        <Stack gap="md">
          <Card withBorder radius="md" padding="md">
            <Title order={2} fz="md" mb="sm">
              Customer and freight
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
              <Controller
                control={control}
                name="customer"
                render={({ field: f }) => (
                  <CustomerField
                    value={f.value}
                    customerId={pickedCustomerId}
                    onChange={(text, customerId) => {
                      f.onChange(text);
                      setValue('customerId', customerId);
                    }}
                    error={e('customer') ?? e('customerId')}
                  />
                )}
              />
              <TextInput label="BOL number" maxLength={60} {...register('bolNumber')} error={e('bolNumber')} />
              <TextInput label="PO number" maxLength={60} {...register('poNumber')} error={e('poNumber')} />
              <TextInput label="Commodity" maxLength={120} {...register('commodity')} error={e('commodity')} />
              <TextInput label={`Weight (${weightUnit(units)})`} inputMode="decimal" {...register('weight')} error={e('weight')} />
            </SimpleGrid>
          </Card>

          <Card withBorder radius="md" padding="md">
            <Group justify="space-between" mb="xs">
              <Title order={2} fz="md">
                Stops
              </Title>
              <Text size="xs" c="dimmed">
                Appointments in {zone.replace(/_/g, ' ')} ({tz})
              </Text>
            </Group>
            {e('stops.root') && (
              <Alert color="red" variant="light" py="xs" mb="sm" role="alert">
                {e('stops.root')}
              </Alert>
            )}
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
              <Stack gap="sm">
                {stops.fields.map((f, i) => (
                  <Card
                    key={f.id}
                    withBorder
                    radius="md"
                    padding="sm"
                    data-testid="stop-form"
                    style={active === i ? { borderColor: 'var(--mantine-color-blue-filled)' } : undefined}
                  >
                    <Group justify="space-between" mb="xs" gap="xs">
                      <Group gap="xs" wrap="nowrap">
                        <Text fw={700} size="sm">
                          Stop {i + 1}
                        </Text>
                        <NativeSelect
                          aria-label={`Stop ${i + 1} kind`}
                          size="xs"
                          {...register(`stops.${i}.kind`)}
                          data={STOP_KINDS.map((k) => ({ value: k, label: STOP_KIND_LABELS[k] }))}
                        />
                      </Group>
                      <Group gap={2} wrap="nowrap">
                        <Radio
                          size="xs"
                          label="Pick on map"
                          styles={{ label: { whiteSpace: 'nowrap' } }}
                          mr={4}
                          checked={active === i}
                          onChange={() => setActive(i)}
                          aria-label={`Pick stop ${i + 1} on the map`}
                        />
                        <ActionIcon variant="subtle" aria-label={`Move stop ${i + 1} up`} disabled={i === 0} onClick={() => stops.move(i, i - 1)}>
                          <IconArrowUp size={16} />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Move stop ${i + 1} down`}
                          disabled={i === stops.fields.length - 1}
                          onClick={() => stops.move(i, i + 1)}
                        >
                          <IconArrowDown size={16} />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          color="red.8"
                          aria-label={`Remove stop ${i + 1}`}
                          disabled={stops.fields.length <= 2}
                          onClick={() => stops.remove(i)}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Group>
                    </Group>
                    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
                      <Controller
                        control={control}
                        name={`stops.${i}.placeId`}
                        render={({ field }) => (
                          <Select
                            label="Place"
                            placeholder={placeData.length ? 'Choose a place' : 'No places yet'}
                            clearable
                            searchable
                            data={placeData}
                            value={field.value}
                            onChange={(v) => pickPlace(i, v)}
                            leftSection={<IconMapPin size={14} />}
                          />
                        )}
                      />
                      <TextInput label="Address" maxLength={300} {...register(`stops.${i}.address`)} error={e(`stops.${i}.address`)} />
                      <TextInput
                        label="Latitude"
                        inputMode="decimal"
                        {...register(`stops.${i}.latitude`)}
                        error={e(`stops.${i}.latitude`)}
                        onFocus={() => setActive(i)}
                      />
                      <TextInput
                        label="Longitude"
                        inputMode="decimal"
                        {...register(`stops.${i}.longitude`)}
                        error={e(`stops.${i}.longitude`)}
                        onFocus={() => setActive(i)}
                      />
                      <TextInput
                        type="datetime-local"
                        label={`Appointment from (${tz})`}
                        {...register(`stops.${i}.windowStart`)}
                        error={e(`stops.${i}.windowStart`)}
                      />
                      <TextInput
                        type="datetime-local"
                        label={`Appointment until (${tz})`}
                        {...register(`stops.${i}.windowEnd`)}
                        error={e(`stops.${i}.windowEnd`)}
                      />
                      <TextInput
                        label="Loading or unloading time (minutes)"
                        inputMode="numeric"
                        {...register(`stops.${i}.serviceMinutes`)}
                        error={e(`stops.${i}.serviceMinutes`)}
                      />
                    </SimpleGrid>
                  </Card>
                ))}
                <Group>
                  <Button
                    variant="default"
                    leftSection={<IconPlus size={16} />}
                    disabled={stops.fields.length >= LOAD_LIMITS.stops}
                    onClick={() => {
                      stops.append(emptyStop('DELIVERY'));
                      setActive(stops.fields.length);
                    }}
                  >
                    Add stop
                  </Button>
                </Group>
              </Stack>
              <Stack gap={4}>
                <LoadMap
                  stops={mapStops}
                  label="Stops map: click to place the chosen stop"
                  onPick={({ latitude, longitude }) => {
                    setValue(`stops.${active}.latitude`, String(latitude));
                    setValue(`stops.${active}.longitude`, String(longitude));
                    setValue(`stops.${active}.placeId`, null);
                    clearErrors([`stops.${active}.latitude`, `stops.${active}.longitude`]);
                  }}
                  height={{ base: 260, sm: 420 }}
                />
                <Text size="xs" c="dimmed">
                  Click the map to place stop {active + 1}, or choose a place, or type its coordinates.
                </Text>
              </Stack>
            </SimpleGrid>
          </Card>

          <Card withBorder radius="md" padding="md">
            <Title order={2} fz="md" mb="sm">
              Rate
            </Title>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
              <TextInput label="Line haul" required inputMode="decimal" {...register('lineHaul')} error={e('lineHaul')} />
              <TextInput label="Fuel surcharge" inputMode="decimal" {...register('fuelSurcharge')} error={e('fuelSurcharge')} />
            </SimpleGrid>
            <Stack gap="xs" mt="sm">
              {accessorials.fields.map((f, i) => (
                <Group key={f.id} gap="xs" align="flex-start" wrap="wrap">
                  <NativeSelect
                    label={`Accessorial ${i + 1}`}
                    {...register(`accessorials.${i}.kind`)}
                    data={ACCESSORIAL_KINDS.map((k) => ({ value: k, label: ACCESSORIAL_LABELS[k] }))}
                    w={160}
                  />
                  <TextInput label="Amount" inputMode="decimal" {...register(`accessorials.${i}.amount`)} error={e(`accessorials.${i}.amount`)} w={130} />
                  <TextInput label="Note" maxLength={200} {...register(`accessorials.${i}.note`)} style={{ flex: 1, minWidth: 160 }} />
                  <ActionIcon variant="subtle" color="red.8" mt={26} aria-label={`Remove accessorial ${i + 1}`} onClick={() => accessorials.remove(i)}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              ))}
              <Group>
                <Button
                  variant="subtle"
                  size="xs"
                  leftSection={<IconPlus size={14} />}
                  onClick={() => accessorials.append({ kind: 'DETENTION', amount: '', note: '' })}
                  disabled={accessorials.fields.length >= LOAD_LIMITS.accessorials}
                >
                  Add accessorial (detention, lumper…)
                </Button>
              </Group>
            </Stack>
          </Card>

          <Card withBorder radius="md" padding="md">
            <Title order={2} fz="md" mb={4}>
              Driver and equipment
            </Title>
            <Text size="xs" c="dimmed" mb="sm">
              Optional: leave empty and pick a driver from the load’s candidates, who are ranked by their hours of service.
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
              {(['leadDriverId', 'coDriverId'] as const).map((name) => (
                <Controller
                  key={name}
                  control={control}
                  name={name}
                  render={({ field }) => (
                    <Select
                      label={name === 'leadDriverId' ? 'Driver' : 'Team driver'}
                      placeholder="None"
                      clearable
                      searchable
                      data={driverData}
                      value={field.value}
                      onChange={field.onChange}
                      error={e(name)}
                    />
                  )}
                />
              ))}
              <Controller
                control={control}
                name="assetId"
                render={({ field }) => (
                  <Select
                    label="Tractor"
                    placeholder="None"
                    clearable
                    searchable
                    data={(vehicles.data?.content ?? []).map((a) => ({ value: a.id, label: a.unitNumber }))}
                    value={field.value}
                    onChange={field.onChange}
                    error={e('assetId')}
                  />
                )}
              />
              <Controller
                control={control}
                name="trailerId"
                render={({ field }) => (
                  <Select
                    label="Trailer"
                    placeholder="None"
                    clearable
                    searchable
                    data={(trailers.data?.content ?? []).map((a) => ({ value: a.id, label: a.unitNumber }))}
                    value={field.value}
                    onChange={field.onChange}
                    error={e('trailerId')}
                  />
                )}
              />
            </SimpleGrid>
            <Textarea label="Notes" mt="sm" maxLength={2000} autosize minRows={2} {...register('notes')} error={e('notes')} />
          </Card>
          {formState.errors.root?.message && (
            <Alert color="red" variant="light" role="alert">
              {formState.errors.root.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate(load ? `/dispatch/loads/${load.id}` : '/dispatch')}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save load
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
