import { useEffect, useState } from 'react';
import { Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconTemperature } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SENSOR_ROLES, trailerSensorsSchema, type SensorRole, type TrailerSensor } from '@fleet/api-contract';
import { ApiError, toastApiError } from '../../lib/api-client.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useLoadedUnits } from '../../lib/units.ts';
import { TemperatureChart } from './temperature-chart.tsx';
import { useSaveTrailerSensors, useTrailerTemperatures } from './temperatures-api.ts';

/**
 * A trailer's reefer section (issue 73): which sensor is return air, supply air or a zone (the
 * sensors it has reported, and any typed in), and its last three days of readings on a chart.
 */
export function TrailerTemperaturesSection({ assetId }: { assetId: string }) {
  const { t } = useTranslation();
  const q = useTrailerTemperatures(assetId);
  const units = useLoadedUnits();
  const canUpdate = useCan('ASSET_UPDATE');
  const save = useSaveTrailerSensors(assetId);
  const [rows, setRows] = useState<TrailerSensor[]>([]);
  const [error, setError] = useState<string | null>(null);
  const data = q.data;
  useEffect(() => {
    if (!data) return;
    const known = new Map(data.sensors.map((s) => [s.sensor, s.role]));
    const reported = [...new Set(data.readings.map((r) => r.sensor))].filter((s) => !known.has(s));
    setRows([...data.sensors, ...reported.map((sensor) => ({ sensor, role: '' as SensorRole }))]);
  }, [data]);
  if (!data || !units) return null;
  const submit = () => {
    const parsed = trailerSensorsSchema.safeParse({ sensors: rows.filter((r) => r.sensor.trim() && r.role) });
    if (!parsed.success) {
      setError(t('temperatures.sensors.invalid'));
      return;
    }
    setError(null);
    save.mutate(parsed.data, { onError: (err) => err instanceof ApiError && toastApiError(err) });
  };
  return (
    <Stack gap="sm" data-testid="trailer-temperatures">
      <Group gap={6}>
        <IconTemperature size={18} />
        <Title order={3} fz="sm">
          {t('temperatures.title')}
        </Title>
      </Group>
      <TemperatureChart readings={data.readings} excursions={data.excursions} setPointC={null} toleranceC={null} units={units} height={200} />
      <Text size="sm" fw={600}>
        {t('temperatures.sensors.title')}
      </Text>
      <Text size="xs" c="dimmed" data-testid="sensor-counts-hint">
        {t(data.sensors.length > 0 ? 'temperatures.sensors.countsWithRoles' : 'temperatures.sensors.countsWithoutRoles')}
      </Text>
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('temperatures.sensors.none')}
        </Text>
      )}
      {rows.map((r, i) => (
        <Group key={i} gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            label={i === 0 ? t('temperatures.sensor') : undefined}
            aria-label={t('temperatures.sensor')}
            value={r.sensor}
            disabled={!canUpdate}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setRows((x) => x.map((y, k) => (k === i ? { ...y, sensor: v } : y)));
            }}
            style={{ flex: 1 }}
          />
          <Select
            label={i === 0 ? t('temperatures.sensors.role') : undefined}
            aria-label={`${t('temperatures.sensors.role')} ${r.sensor}`}
            data={SENSOR_ROLES.map((role) => ({ value: role, label: t(`temperatures.roles.${role}`) }))}
            value={r.role || null}
            disabled={!canUpdate}
            placeholder={t('temperatures.sensors.unassigned')}
            onChange={(v) => setRows((x) => x.map((y, k) => (k === i ? { ...y, role: (v ?? '') as SensorRole } : y)))}
            style={{ flex: 1 }}
          />
        </Group>
      ))}
      {error && (
        <Text size="sm" c="red.7">
          {error}
        </Text>
      )}
      {canUpdate && (
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => setRows((x) => [...x, { sensor: '', role: 'RETURN_AIR' }])}>
            {t('temperatures.sensors.add')}
          </Button>
          <Button size="xs" onClick={submit} loading={save.isPending}>
            {t('temperatures.sensors.save')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
