import { useEffect, useState } from 'react';
import { Badge, Button, Card, Group, NumberInput, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_LOG_INTERVAL_MINUTES,
  reeferSettingsInputSchema,
  temperatureFromC,
  temperatureSpanFromC,
  temperatureSpanToC,
  temperatureToC,
  temperatureUnit,
  type LoadTemperatures,
  type UnitSystem,
} from '@fleet/api-contract';
import { ApiError, toastApiError } from '../../lib/api-client.ts';
import { formatShortDateTime, useViewerZone } from '../../lib/dates.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useLoadedUnits } from '../../lib/units.ts';
import { TemperatureChart } from './temperature-chart.tsx';
import { downloadTemperatureLog, useLoadTemperatures, useSaveReeferSettings } from './temperatures-api.ts';

const round1 = (v: number) => Math.round(v * 10) / 10;
const INTERVALS = ['5', '10', '15', '30', '60'];

/**
 * The load's reefer temperatures (issue 73): the trailer's chart with the set point's band and the
 * excursions, the settings it is judged by (editable), and the temperature log as a PDF.
 * `loadNumber` names the downloaded file.
 */
export function LoadTemperaturesCard({ loadId, loadNumber }: { loadId: string; loadNumber: string }) {
  const { t } = useTranslation();
  const q = useLoadTemperatures(loadId);
  const units = useLoadedUnits();
  if (!q.data || !units) return null;
  const r = q.data;
  // A load with no trailer and no set point is not a reefer load: nothing to show.
  if (!r.trailerId && r.settings.source === 'NONE') return null;
  return (
    <Card withBorder radius="md" padding="md" data-testid="load-temperatures">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} fz="md">
          {t('temperatures.title')}
        </Title>
        {r.excursions.some((e) => e.endedAt === null) ? (
          <Badge color="red">{t('temperatures.outOfRange')}</Badge>
        ) : r.readings.length > 0 ? (
          <Badge color="green" variant="light">
            {t('temperatures.inRange')}
          </Badge>
        ) : null}
      </Group>
      <Stack gap="md">
        <TemperatureChart readings={r.readings} excursions={r.excursions} setPointC={r.settings.setPointC} toleranceC={r.settings.toleranceC} units={units} />
        <Excursions record={r} units={units} />
        <SettingsForm record={r} units={units} loadId={loadId} />
        <LogDownload loadId={loadId} loadNumber={loadNumber} />
      </Stack>
    </Card>
  );
}

function Excursions({ record, units }: { record: LoadTemperatures; units: UnitSystem }) {
  const { t } = useTranslation();
  const zone = useViewerZone();
  const unit = temperatureUnit(units);
  if (record.excursions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('temperatures.noExcursions')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table fz="sm" data-testid="excursions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('temperatures.sensor')}</Table.Th>
            <Table.Th>{t('temperatures.from')}</Table.Th>
            <Table.Th>{t('temperatures.to')}</Table.Th>
            <Table.Th ta="right">{t('temperatures.peak')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {record.excursions.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>
                {e.sensor} · {t(e.direction === 'HIGH' ? 'temperatures.above' : 'temperatures.below')}
              </Table.Td>
              <Table.Td>{formatShortDateTime(e.startedAt, zone)}</Table.Td>
              <Table.Td>{e.endedAt ? formatShortDateTime(e.endedAt, zone) : t('temperatures.ongoing')}</Table.Td>
              <Table.Td ta="right" c="red.7">
                {round1(temperatureFromC(e.peakC, units)).toFixed(1)} {unit}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

type Field = 'setPoint' | 'tolerance' | 'delay';

function SettingsForm({ record, units, loadId }: { record: LoadTemperatures; units: UnitSystem; loadId: string }) {
  const { t } = useTranslation();
  const save = useSaveReeferSettings(loadId);
  const unit = temperatureUnit(units);
  const s = record.settings;
  const initial = () => ({
    setPoint: s.setPointC === null ? '' : round1(temperatureFromC(s.setPointC, units)),
    tolerance: s.toleranceC === null ? '' : round1(temperatureSpanFromC(s.toleranceC, units)),
    delay: s.delayMinutes,
  });
  const [values, setValues] = useState<Record<Field, number | string>>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  // eslint-disable-next-line react-hooks/exhaustive-deps -- reset only when the saved settings change
  useEffect(() => setValues(initial()), [s.setPointC, s.toleranceC, s.delayMinutes, units]);
  const num = (v: number | string) => (typeof v === 'number' ? v : Number.NaN);
  const submit = () => {
    const body = {
      setPointC: Math.round(temperatureToC(num(values.setPoint), units) * 100) / 100,
      toleranceC: Math.round(temperatureSpanToC(num(values.tolerance), units) * 100) / 100,
      delayMinutes: num(values.delay),
    };
    const parsed = reeferSettingsInputSchema.safeParse(body);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]);
        if (key === 'setPointC')
          found.setPoint = t('temperatures.settings.setPointRange', {
            min: round1(temperatureFromC(-40, units)),
            max: round1(temperatureFromC(30, units)),
            unit,
          });
        if (key === 'toleranceC')
          found.tolerance = t('temperatures.settings.toleranceRange', {
            min: round1(temperatureSpanFromC(0.5, units)),
            max: round1(temperatureSpanFromC(10, units)),
            unit,
          });
        if (key === 'delayMinutes') found.delay = t('temperatures.settings.delayRange');
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, { onError: (err) => err instanceof ApiError && toastApiError(err) });
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="reefer-settings"
    >
      <Text size="sm" fw={600} mb={4}>
        {t('temperatures.settings.title')}
      </Text>
      <Text size="xs" c="dimmed" mb="xs">
        {t(`temperatures.settings.source.${s.source}`)}
      </Text>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <NumberInput
          label={t('temperatures.settings.setPoint', { unit })}
          value={values.setPoint}
          onChange={(v) => setValues((x) => ({ ...x, setPoint: v }))}
          error={errors.setPoint}
          decimalScale={1}
          w={150}
        />
        <NumberInput
          label={t('temperatures.settings.tolerance', { unit })}
          value={values.tolerance}
          onChange={(v) => setValues((x) => ({ ...x, tolerance: v }))}
          error={errors.tolerance}
          decimalScale={1}
          min={0}
          w={150}
        />
        <NumberInput
          label={t('temperatures.settings.delay')}
          value={values.delay}
          onChange={(v) => setValues((x) => ({ ...x, delay: v }))}
          error={errors.delay}
          allowDecimal={false}
          min={1}
          w={150}
        />
        <Button type="submit" mt={25} loading={save.isPending}>
          {t('temperatures.settings.save')}
        </Button>
      </Group>
    </form>
  );
}

function LogDownload({ loadId, loadNumber }: { loadId: string; loadNumber: string }) {
  const { t } = useTranslation();
  const orgId = useEffectiveOrganizationId();
  const [interval, setInterval] = useState(String(DEFAULT_LOG_INTERVAL_MINUTES));
  const [busy, setBusy] = useState(false);
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label={t('temperatures.log.interval')}
        data={INTERVALS.map((v) => ({ value: v, label: t('temperatures.log.minutes', { count: Number(v) }) }))}
        value={interval}
        onChange={(v) => v && setInterval(v)}
        allowDeselect={false}
        w={150}
      />
      <Button
        variant="light"
        leftSection={<IconDownload size={16} />}
        loading={busy}
        onClick={() => {
          setBusy(true);
          void downloadTemperatureLog(orgId ?? '', loadId, loadNumber, Number(interval)).finally(() => setBusy(false));
        }}
      >
        {t('temperatures.log.download')}
      </Button>
    </Group>
  );
}
