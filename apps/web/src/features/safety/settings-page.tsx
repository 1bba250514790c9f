import { useMemo, useState } from 'react';
import { ActionIcon, Alert, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  DEFAULT_SAFETY_SETTINGS,
  SAFETY_BEHAVIOURS,
  SAFETY_VEHICLE_CLASSES,
  safetyBehaviourBasis,
  safetySettingsInputSchema,
  type Asset,
  type SafetySettings,
  type SafetyVehicleClass,
  type UnitSystem,
} from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { notify } from '../../lib/notifications-store.ts';
import { fieldMessages, useCan, usePagedList } from '../../lib/registry-api.ts';
import { kmhFromSpeed, speedIn, unitLabels, useLoadedUnits } from '../../lib/units.ts';
import { SafetyTabs } from './safety-common.tsx';
import { saveSafetySettings, useSafetyMutation, useSafetySettings } from './safety-api.ts';
import { accelFromMps2, accelToMps2, accelUnit } from './safety-words.tsx';

// The safety settings (issue 47): harsh-event thresholds per vehicle class, the speeding tolerance and
// bands, the fleet's maximum speed, idling, the score's weights and window. Speeds and accelerations
// are typed in the organization's units; a field left as it was shown goes back exactly as it came.

type Kind = 'speed' | 'accel' | 'plain';
interface NumberField {
  path: string;
  kind: Kind;
  /** Whole numbers only. */
  integer?: boolean;
}

const THRESHOLD_FIELDS = SAFETY_VEHICLE_CLASSES.flatMap((c) => [
  `thresholds.${c}.accelerometer.acceleration`,
  `thresholds.${c}.accelerometer.braking`,
  `thresholds.${c}.accelerometer.cornering`,
  `thresholds.${c}.gps.acceleration`,
  `thresholds.${c}.gps.braking`,
]);
const THRESHOLD_COLUMNS = [
  ['accelerometer.acceleration', 'accelAcc'],
  ['accelerometer.braking', 'accelBrake'],
  ['accelerometer.cornering', 'accelCorner'],
  ['gps.acceleration', 'gpsAcc'],
  ['gps.braking', 'gpsBrake'],
] as const;
const FIELDS: NumberField[] = [
  { path: 'windowWeeks', kind: 'plain', integer: true },
  { path: 'speeding.toleranceKph', kind: 'speed' },
  { path: 'speeding.minSeconds', kind: 'plain', integer: true },
  { path: 'speeding.bands.MODERATE', kind: 'speed' },
  { path: 'speeding.bands.HEAVY', kind: 'speed' },
  { path: 'speeding.bands.SEVERE', kind: 'speed' },
  { path: 'fleetMaxSpeedKph', kind: 'speed' },
  { path: 'idlingMinutes', kind: 'plain', integer: true },
  ...THRESHOLD_FIELDS.map((path) => ({ path, kind: 'accel' as const })),
  ...SAFETY_BEHAVIOURS.map((b) => ({ path: `weights.${b}`, kind: 'plain' as const })),
];

const get = (o: unknown, path: string): unknown => path.split('.').reduce<unknown>((acc, k) => (acc as Record<string, unknown> | undefined)?.[k], o);
function set(o: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur = o;
  for (const k of keys.slice(0, -1)) cur = (cur[k] ??= {}) as Record<string, unknown>;
  cur[keys.at(-1)!] = value;
}

const shown = (metric: number, kind: Kind, units: UnitSystem): string => {
  if (kind === 'speed') return String(Math.round(speedIn(metric, units) * 10) / 10);
  if (kind === 'accel') return String(Math.round(accelFromMps2(metric, units) * 100) / 100);
  return String(metric);
};
const toMetric = (v: number, kind: Kind, units: UnitSystem): number =>
  kind === 'speed' ? Math.round(kmhFromSpeed(v, units) * 1000) / 1000 : kind === 'accel' ? Math.round(accelToMps2(v, units) * 1000) / 1000 : v;

/** What the form's boxes say, read back: the settings (metric) to save, or the message under each bad field. */
export function readSettingsForm({
  values,
  shown,
  initial,
  units,
  t,
  extra,
}: {
  /** The text of each number field by its path. */
  values: Record<string, string>;
  /** The text each field was first shown with: a field left so goes back exactly as it came. */
  shown: Record<string, string>;
  initial: SafetySettings;
  units: UnitSystem;
  t: TFunction;
  extra: Pick<SafetySettings, 'excludeYards' | 'defaultVehicleClass' | 'vehicleClasses'>;
}): { body: SafetySettings | null; errors: Record<string, string>; formError: string | null } {
  const errors: Record<string, string> = {};
  let formError: string | null = null;
  const body: Record<string, unknown> = structuredClone(initial) as unknown as Record<string, unknown>;
  for (const f of FIELDS) {
    const text = (values[f.path] ?? '').trim();
    const original = get(initial, f.path) as number;
    if (text === shown[f.path]) {
      set(body, f.path, original);
      continue;
    }
    const n = Number(text);
    if (text === '' || !Number.isFinite(n)) errors[f.path] = t('safety.settings.number');
    else if (n < 0) errors[f.path] = t('safety.settings.positive');
    else if (f.integer && !Number.isInteger(n)) errors[f.path] = t('safety.settings.whole');
    else set(body, f.path, toMetric(n, f.kind, units));
  }
  Object.assign(body, extra);
  const parsed = safetySettingsInputSchema.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.');
      // The bands' order is one rule over four fields: shown under the severe band.
      if (path === 'speeding.bands') errors['speeding.bands.SEVERE'] ??= t('safety.settings.bandsIncrease');
      else if (FIELDS.some((f) => f.path === path)) errors[path] ??= issue.message;
      else formError ??= issue.message;
    }
  }
  return { body: parsed.success && Object.keys(errors).length === 0 ? parsed.data : null, errors, formError };
}

/** The text of every number field for these settings, in the organization's units. */
export const settingsFormText = (s: SafetySettings, units: UnitSystem): Record<string, string> =>
  Object.fromEntries(FIELDS.map((f) => [f.path, shown(get(s, f.path) as number, f.kind, units)]));

/** `/safety/settings`: what makes an event and what a score weighs (SAFETY_UPDATE edits; SAFETY_LIST reads). */
export default function SafetySettingsPage() {
  const { t } = useTranslation();
  const q = useSafetySettings();
  const units = useLoadedUnits();
  return (
    <>
      <PageHeader title={t('safety.title')} description={t('safety.settings.description')} />
      <SafetyTabs />
      <DataState isLoading={q.isLoading || !units} error={q.error} onRetry={() => void q.refetch()}>
        {q.data && units && <SettingsForm key={JSON.stringify(q.data)} initial={q.data} units={units} />}
      </DataState>
    </>
  );
}

const NO_ASSETS: Asset[] = [];

function SettingsForm({ initial, units }: { initial: SafetySettings; units: UnitSystem }) {
  const { t } = useTranslation();
  const canEdit = useCan('SAFETY_UPDATE');
  const save = useSafetyMutation(saveSafetySettings);
  const vehicles = usePagedList<Asset>('assets', { type: 'VEHICLE', size: 500, sort: 'unitNumber,asc' }).data?.content ?? NO_ASSETS;
  const first = useMemo(() => settingsFormText(initial, units), [initial, units]);
  const [values, setValues] = useState<Record<string, string>>(first);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [excludeYards, setExcludeYards] = useState(initial.excludeYards);
  const [defaultClass, setDefaultClass] = useState<SafetyVehicleClass>(initial.defaultVehicleClass);
  const [classes, setClasses] = useState(initial.vehicleClasses);
  const [adding, setAdding] = useState<{ assetId: string; vehicleClass: SafetyVehicleClass }>({ assetId: '', vehicleClass: 'LIGHT' });
  const [formError, setFormError] = useState<string | null>(null);
  const speedUnit = unitLabels(units).speed;
  const aUnit = accelUnit(units);
  const mobile = useMediaQuery('(max-width: 48em)') ?? false;

  const field = (path: string, label: string, unit?: string, extra: { description?: string; w?: number | string; ariaLabel?: string } = {}) => (
    <TextInput
      label={label || undefined}
      aria-label={extra.ariaLabel}
      description={extra.description}
      inputMode="decimal"
      value={values[path] ?? ''}
      onChange={(e) => {
        const v = e.currentTarget.value;
        setValues((prev) => ({ ...prev, [path]: v }));
        setErrors(({ [path]: _drop, ...rest }) => rest);
      }}
      error={errors[path]}
      rightSection={
        unit ? (
          <Text size="xs" c="dimmed">
            {unit}
          </Text>
        ) : undefined
      }
      rightSectionWidth={unit ? Math.max(36, unit.length * 8 + 12) : undefined}
      disabled={!canEdit}
      w={extra.w}
      data-path={path}
    />
  );

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const {
      body,
      errors: next,
      formError: other,
    } = readSettingsForm({ values, shown: first, initial, units, t, extra: { excludeYards, defaultVehicleClass: defaultClass, vehicleClasses: classes } });
    if (other) setFormError(other);
    setErrors(next);
    if (!body) {
      const firstBad = Object.keys(next)[0];
      if (firstBad) document.querySelector<HTMLInputElement>(`[data-path="${firstBad}"]`)?.focus();
      return;
    }
    try {
      await save.mutateAsync(body);
      notify({ type: 'success', title: t('safety.settings.saved'), timeout: 4000 });
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.body) {
        const server: Record<string, string> = {};
        for (const { path, message } of fieldMessages(err.body.technicalMessage ?? '')) if (FIELDS.some((f) => f.path === path)) server[path] = message;
        setErrors(server);
        if (Object.keys(server).length === 0) setFormError(err.body.message);
      } else {
        setFormError(err instanceof ApiError ? (err.body?.message ?? err.message) : (err as Error).message);
      }
    }
  };

  const reset = () => {
    const d = DEFAULT_SAFETY_SETTINGS;
    setValues(settingsFormText(d, units));
    setErrors({});
    setExcludeYards(d.excludeYards);
    setDefaultClass(d.defaultVehicleClass);
  };

  const unitName = (id: string) => vehicles.find((v) => v.id === id)?.unitNumber ?? id.slice(0, 8);
  const classOptions = SAFETY_VEHICLE_CLASSES.map((c) => ({ value: c, label: t(`safety.vehicleClass.${c}`) }));

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('safety.settings.formLabel')}>
      <Stack gap="md">
        {!canEdit && (
          <Alert color="blue" variant="light">
            {t('safety.settings.readOnly')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Paper withBorder p="md" radius="md">
            <Title order={2} fz="md" mb={4}>
              {t('safety.settings.speeding')}
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              {t('safety.settings.speedingHint')}
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              {field('speeding.toleranceKph', t('safety.settings.tolerance'), speedUnit)}
              {field('speeding.minSeconds', t('safety.settings.minSeconds'), 's')}
              {field('speeding.bands.MODERATE', t('safety.settings.band', { band: t('safety.band.MODERATE') }), speedUnit)}
              {field('speeding.bands.HEAVY', t('safety.settings.band', { band: t('safety.band.HEAVY') }), speedUnit)}
              {field('speeding.bands.SEVERE', t('safety.settings.band', { band: t('safety.band.SEVERE') }), speedUnit)}
              {field('fleetMaxSpeedKph', t('safety.settings.fleetMax'), speedUnit)}
            </SimpleGrid>
          </Paper>
          <Paper withBorder p="md" radius="md">
            <Title order={2} fz="md" mb={4}>
              {t('safety.settings.idlingAndScore')}
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              {t('safety.settings.idlingHint')}
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              {field('idlingMinutes', t('safety.settings.idlingMinutes'), 'min')}
              {field('windowWeeks', t('safety.settings.windowWeeks'), t('safety.settings.weeks'))}
            </SimpleGrid>
            <Switch
              mt="md"
              label={t('safety.settings.excludeYards')}
              checked={excludeYards}
              onChange={(e) => setExcludeYards(e.currentTarget.checked)}
              disabled={!canEdit}
            />
          </Paper>
        </SimpleGrid>

        <Paper withBorder p="md" radius="md">
          <Title order={2} fz="md" mb={4}>
            {t('safety.settings.thresholds')}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t('safety.settings.thresholdsHint', { unit: aUnit })}
          </Text>
          {mobile ? (
            // On a phone each class is a block of labelled fields: a five-column table would scroll sideways.
            <Stack gap="md">
              {SAFETY_VEHICLE_CLASSES.map((c) => (
                <div key={c}>
                  <Text size="sm" fw={600} mb={4}>
                    {t(`safety.vehicleClass.${c}`)}
                  </Text>
                  <SimpleGrid cols={2} spacing="xs">
                    {THRESHOLD_COLUMNS.map(([k, word]) => (
                      <div key={k}>{field(`thresholds.${c}.${k}`, t(`safety.settings.${word}`), aUnit)}</div>
                    ))}
                  </SimpleGrid>
                </div>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table verticalSpacing={6} aria-label={t('safety.settings.thresholds')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('safety.settings.class')}</Table.Th>
                    {THRESHOLD_COLUMNS.map(([k, word]) => (
                      <Table.Th key={k}>{t(`safety.settings.${word}`)}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {SAFETY_VEHICLE_CLASSES.map((c) => (
                    <Table.Tr key={c}>
                      <Table.Td>
                        <Text size="sm" fw={600}>
                          {t(`safety.vehicleClass.${c}`)}
                        </Text>
                      </Table.Td>
                      {THRESHOLD_COLUMNS.map(([k, word]) => (
                        <Table.Td key={k}>
                          {field(`thresholds.${c}.${k}`, '', aUnit, { w: 120, ariaLabel: `${t(`safety.vehicleClass.${c}`)}: ${t(`safety.settings.${word}`)}` })}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group mt="sm" gap="sm" align="flex-end" wrap="wrap">
            <NativeSelect
              label={t('safety.settings.defaultClass')}
              value={defaultClass}
              onChange={(e) => setDefaultClass(e.currentTarget.value as SafetyVehicleClass)}
              data={classOptions}
              disabled={!canEdit}
            />
          </Group>
          <Text size="sm" fw={600} mt="md" mb={4}>
            {t('safety.settings.vehicleClasses')}
          </Text>
          {classes.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('safety.settings.noOverrides')}
            </Text>
          ) : (
            <Stack gap={4}>
              {classes.map((c) => (
                <Group key={c.assetId} gap="xs">
                  <Text size="sm" miw={80}>
                    {unitName(c.assetId)}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {t(`safety.vehicleClass.${c.vehicleClass}`)}
                  </Text>
                  {canEdit && (
                    <ActionIcon
                      variant="subtle"
                      color="red.8"
                      aria-label={t('safety.settings.removeClass', { unit: unitName(c.assetId) })}
                      onClick={() => setClasses((prev) => prev.filter((x) => x.assetId !== c.assetId))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  )}
                </Group>
              ))}
            </Stack>
          )}
          {canEdit && (
            <Group gap="xs" mt="xs" align="flex-end" wrap="wrap">
              <NativeSelect
                aria-label={t('safety.col.vehicle')}
                value={adding.assetId}
                onChange={(e) => setAdding((a) => ({ ...a, assetId: e.currentTarget.value }))}
                data={[
                  { value: '', label: t('safety.settings.pickVehicle') },
                  ...vehicles.filter((v) => !classes.some((c) => c.assetId === v.id)).map((v) => ({ value: v.id, label: v.unitNumber })),
                ]}
              />
              <NativeSelect
                aria-label={t('safety.settings.class')}
                value={adding.vehicleClass}
                onChange={(e) => setAdding((a) => ({ ...a, vehicleClass: e.currentTarget.value as SafetyVehicleClass }))}
                data={classOptions}
              />
              <Button
                variant="light"
                leftSection={<IconPlus size={16} aria-hidden />}
                disabled={!adding.assetId}
                onClick={() => {
                  setClasses((prev) => [...prev, { assetId: adding.assetId, vehicleClass: adding.vehicleClass }]);
                  setAdding((a) => ({ ...a, assetId: '' }));
                }}
              >
                {t('safety.settings.addClass')}
              </Button>
            </Group>
          )}
        </Paper>

        <Paper withBorder p="md" radius="md">
          <Title order={2} fz="md" mb={4}>
            {t('safety.settings.weights')}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t('safety.settings.weightsHint')}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
            {SAFETY_BEHAVIOURS.map((b) => (
              <div key={b}>
                {field(`weights.${b}`, t(`safety.behaviour.${b}`), undefined, {
                  description: safetyBehaviourBasis(b) === 'PER_1000_MI' ? t('safety.settings.perEvents') : t('safety.settings.perTime'),
                })}
              </div>
            ))}
          </SimpleGrid>
        </Paper>

        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        {canEdit && (
          <Group justify="flex-end">
            <Button variant="default" onClick={reset}>
              {t('safety.settings.defaults')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
