import { useEffect } from 'react';
import { Alert, Button, Group, NativeSelect, NumberInput, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconCircle, IconClick, IconPolygon, IconTrash } from '@tabler/icons-react';
import { Controller } from 'react-hook-form';
import { PLACE_CATEGORIES, PLACE_CATEGORY_LABELS, PLACE_DEFAULTS, PLACE_RADIUS_LIMITS, placeInputSchema } from '@fleet/api-contract/places';
import type { Group as FleetGroup, Place, PlaceGeometry, PlaceInput } from '@fleet/api-contract';
import { lengthForDisplay, lengthMFromInput } from '@fleet/api-contract/units';
import { ApiError } from '../../lib/api-client.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { showServerError } from '../../lib/registry-api.ts';
import { unitLabels, useUnits, type UnitSystem } from '../../lib/units.ts';
import type { DrawMode, EditShape } from './place-draw.ts';
import { savePlace, usePlaceMutation } from './places-api.ts';

export type EditorMode = DrawMode | 'point';

/** A place's stored geometry as the editor's shape. */
export function shapeOfPlace(p: Pick<Place, 'geometry' | 'radiusMeters'>): EditShape {
  return p.geometry.type === 'Point'
    ? { kind: 'circle', center: p.geometry.coordinates, radiusM: p.radiusMeters ?? PLACE_RADIUS_LIMITS.min }
    : { kind: 'polygon', ring: p.geometry.coordinates[0]! };
}

/** The editor's shape as the API's `geometry` and `radiusMeters`. */
export function geometryOfShape(s: EditShape): { geometry: PlaceGeometry; radiusMeters: number | null } {
  return s.kind === 'circle'
    ? { geometry: { type: 'Point', coordinates: s.center }, radiusMeters: s.radiusM }
    : { geometry: { type: 'Polygon', coordinates: [s.ring] }, radiusMeters: null };
}

/** The radius limits as the organization reads them ("33 to 164,042 ft"). */
const radiusLimitsText = (units: UnitSystem) =>
  `${Math.ceil(lengthForDisplay(PLACE_RADIUS_LIMITS.min, units)).toLocaleString('en-US')} to ${Math.floor(lengthForDisplay(PLACE_RADIUS_LIMITS.max, units)).toLocaleString('en-US')} ${unitLabels(units).length}`;

const FIELDS = ['name', 'category', 'geometry', 'radiusMeters', 'arrivalDwellSeconds', 'departureDwellSeconds', 'groupId', 'address', 'notes'] as const;

export interface PlaceFormProps {
  place: Place | null;
  shape: EditShape | null;
  onShape: (s: EditShape | null) => void;
  mode: EditorMode;
  onMode: (m: EditorMode) => void;
  groups: FleetGroup[];
  onClose: (saved?: Place) => void;
  onDelete?: () => void;
}

/**
 * A place's form beside the map: the shape tools (draw a polygon or circle, or click a point), the
 * circle's centre and radius as numbers (typing them is the keyboard's way to place a circle), and
 * the place's details. Checked with the contract's schema; the server's field messages land under
 * their fields.
 */
export function PlaceForm({ place, shape, onShape, mode, onMode, groups, onClose, onDelete }: PlaceFormProps) {
  const units = useUnits();
  const len = unitLabels(units).length;
  const save = usePlaceMutation(savePlace);
  const form = useZodForm(placeInputSchema, {
    defaultValues: {
      name: place?.name ?? '',
      category: place?.category ?? 'CUSTOMER',
      ...(shape ? geometryOfShape(shape) : {}),
      arrivalDwellSeconds: place?.arrivalDwellSeconds ?? PLACE_DEFAULTS.arrivalDwellSeconds,
      departureDwellSeconds: place?.departureDwellSeconds ?? PLACE_DEFAULTS.departureDwellSeconds,
      groupId: place?.groupId ?? null,
      address: place?.address ?? '',
      notes: place?.notes ?? '',
    },
  });

  // The map's shape is the form's geometry.
  useEffect(() => {
    if (shape) {
      const g = geometryOfShape(shape);
      form.setValue('geometry', g.geometry, { shouldValidate: form.formState.isSubmitted });
      form.setValue('radiusMeters', g.radiusMeters, { shouldValidate: form.formState.isSubmitted });
    } else {
      form.resetField('geometry', { defaultValue: undefined as unknown as PlaceGeometry });
    }
  }, [shape, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({ id: place?.id, body: values as PlaceInput });
      notify({ type: 'success', title: `Place ${saved.name ?? values.name} saved`, timeout: 4000 });
      onClose(saved);
    } catch (err) {
      if (!showServerError(form, err, FIELDS))
        form.setError('root', { message: err instanceof ApiError ? (err.body?.message ?? err.message) : (err as Error).message });
    }
  });

  const errors = form.formState.errors;
  const shapeError = errors.geometry
    ? shape
      ? (errors.geometry.message ?? 'The shape is not valid')
      : 'Draw the place on the map, or click a point for a circle'
    : undefined;
  const radiusError = errors.radiusMeters ? (units === 'IMPERIAL' ? `Radius must be ${radiusLimitsText(units)}` : errors.radiusMeters.message) : undefined;
  const circle = shape?.kind === 'circle' ? shape : null;
  const tool = (m: EditorMode, label: string, icon: React.ReactNode) => (
    <Button
      size="xs"
      variant={mode === m ? 'filled' : 'default'}
      aria-pressed={mode === m}
      leftSection={icon}
      onClick={() => onMode(mode === m ? 'select' : m)}
    >
      {label}
    </Button>
  );
  const hint =
    mode === 'polygon'
      ? 'Click each corner on the map; click the first corner again to close the shape.'
      : mode === 'circle'
        ? 'Click the centre on the map, move out to the radius and click again.'
        : mode === 'point'
          ? 'Click the map where the place is: a circle of the radius below goes there.'
          : shape
            ? 'Drag the shape or its corners on the map to change it.'
            : 'Choose how to draw the place.';

  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Place form">
        <Stack gap="sm">
          <Title order={2} fz="lg">
            {place ? `Edit ${place.name}` : 'New place'}
          </Title>
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              Shape
            </Text>
            <Group gap="xs" role="group" aria-label="Drawing tools">
              {tool('polygon', 'Draw polygon', <IconPolygon size={14} />)}
              {tool('circle', 'Draw circle', <IconCircle size={14} />)}
              {tool('point', 'Click a point', <IconClick size={14} />)}
            </Group>
            <Text size="xs" c="dimmed" aria-live="polite" data-testid="draw-hint">
              {hint}
            </Text>
            {shape?.kind === 'polygon' && (
              <Text size="sm" data-testid="shape-summary">
                Polygon with {shape.ring.length - 1} corners
              </Text>
            )}
            {(circle || mode === 'point') && (
              <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
                <NumberInput
                  label="Latitude"
                  decimalScale={6}
                  min={-90}
                  max={90}
                  value={circle?.center[1] ?? ''}
                  onChange={(v) => typeof v === 'number' && onShape({ kind: 'circle', center: [circle?.center[0] ?? 0, v], radiusM: circle?.radiusM ?? 150 })}
                />
                <NumberInput
                  label="Longitude"
                  decimalScale={6}
                  min={-180}
                  max={180}
                  value={circle?.center[0] ?? ''}
                  onChange={(v) => typeof v === 'number' && onShape({ kind: 'circle', center: [v, circle?.center[1] ?? 0], radiusM: circle?.radiusM ?? 150 })}
                />
                <NumberInput
                  label={`Radius (${len})`}
                  allowDecimal={false}
                  min={1}
                  value={circle ? Math.round(lengthForDisplay(circle.radiusM, units)) : ''}
                  onChange={(v) => circle && typeof v === 'number' && onShape({ ...circle, radiusM: lengthMFromInput(v, units) })}
                  error={radiusError}
                  description={`${radiusLimitsText(units)}`}
                />
              </SimpleGrid>
            )}
            {shapeError && (
              <Text size="sm" c="red.8" role="alert">
                {shapeError}
              </Text>
            )}
          </Stack>
          <TextInput label="Name" required maxLength={120} {...field(form, 'name')} data-autofocus />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <NativeSelect
              label="Category"
              required
              {...field(form, 'category')}
              data={PLACE_CATEGORIES.map((c) => ({ value: c, label: PLACE_CATEGORY_LABELS[c] }))}
            />
            <Controller
              control={form.control}
              name="groupId"
              render={({ field: f, fieldState }) => (
                <NativeSelect
                  label="Group"
                  description="Only this group sees the place and its events"
                  value={f.value ?? ''}
                  onChange={(e) => f.onChange(e.currentTarget.value || null)}
                  onBlur={f.onBlur}
                  error={fieldState.error?.message}
                  data={[{ value: '', label: 'Whole organization' }, ...groups.map((g) => ({ value: g.id, label: g.name }))]}
                />
              )}
            />
            {(['arrivalDwellSeconds', 'departureDwellSeconds'] as const).map((name) => (
              <Controller
                key={name}
                control={form.control}
                name={name}
                render={({ field: f, fieldState }) => (
                  <NumberInput
                    label={name === 'arrivalDwellSeconds' ? 'Arrival dwell (minutes)' : 'Departure dwell (minutes)'}
                    description={name === 'arrivalDwellSeconds' ? 'Inside this long before an arrival counts' : 'Outside this long before a departure counts'}
                    min={0}
                    max={1440}
                    decimalScale={1}
                    value={typeof f.value === 'number' ? f.value / 60 : ''}
                    onChange={(v) => f.onChange(typeof v === 'number' ? Math.round(v * 60) : null)}
                    onBlur={f.onBlur}
                    error={fieldState.error?.message}
                  />
                )}
              />
            ))}
          </SimpleGrid>
          <TextInput label="Address" maxLength={300} {...field(form, 'address')} />
          <Textarea label="Notes" maxLength={2000} autosize minRows={2} {...field(form, 'notes')} />
          {errors.root?.message && (
            <Alert color="red" variant="light" role="alert" py="xs">
              {errors.root.message}
            </Alert>
          )}
          <Group justify="space-between" mt="xs">
            {onDelete ? (
              <Button variant="subtle" color="red.8" leftSection={<IconTrash size={16} />} onClick={onDelete}>
                Delete
              </Button>
            ) : (
              <span />
            )}
            <Group gap="xs">
              <Button variant="default" onClick={() => onClose()}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                Save place
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
