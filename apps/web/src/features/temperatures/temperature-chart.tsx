import '@mantine/charts/styles.css';
import { useMemo } from 'react';
import { LineChart } from '@mantine/charts';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ReferenceArea } from 'recharts';
import { temperatureFromC, temperatureUnit, type TemperatureExcursion, type TemperatureReading, type UnitSystem } from '@fleet/api-contract';
import { formatShortDateTime, useViewerZone, zoneLabel } from '../../lib/dates.ts';

const round1 = (v: number) => Math.round(v * 10) / 10;
const COLORS = ['blue.6', 'teal.6', 'grape.6', 'orange.6', 'cyan.7', 'lime.7'];

export interface TemperatureChartProps {
  readings: readonly TemperatureReading[];
  excursions: readonly TemperatureExcursion[];
  /** The band drawn behind the lines (°C); none when the load has no set point. */
  setPointC: number | null;
  toleranceC: number | null;
  units: UnitSystem;
  /** The chart's height in pixels (default 240). */
  height?: number;
}

/**
 * A trailer's readings, one line per sensor, in the organization's unit, with the set point's band
 * shaded green and each excursion's time shaded red (to now while it lasts).
 */
export function TemperatureChart({ readings, excursions, setPointC, toleranceC, units, height = 240 }: TemperatureChartProps) {
  const { t } = useTranslation();
  const zone = useViewerZone();
  const unit = temperatureUnit(units);
  const sensors = useMemo(() => [...new Set(readings.map((r) => r.sensor))].sort(), [readings]);
  const role = useMemo(() => new Map(readings.map((r) => [r.sensor, r.role])), [readings]);
  const data = useMemo(() => {
    const byTime = new Map<number, Record<string, number | null>>();
    for (const r of readings) {
      const at = Date.parse(r.at);
      const row = byTime.get(at) ?? { t: at };
      row[`s${sensors.indexOf(r.sensor)}`] = round1(temperatureFromC(r.celsius, units));
      byTime.set(at, row);
    }
    return [...byTime.values()].sort((a, b) => a.t! - b.t!);
  }, [readings, sensors, units]);
  // The defrost cycles: runs of readings flagged so, shaded grey (they count toward no excursion).
  const defrosts = useMemo(() => {
    const out: Array<[number, number]> = [];
    const times = [...new Set(readings.map((r) => Date.parse(r.at)))].sort((a, b) => a - b);
    const flagged = new Set(readings.filter((r) => r.defrost).map((r) => Date.parse(r.at)));
    let start: number | null = null;
    let prev: number | null = null;
    for (const at of times) {
      if (flagged.has(at)) start ??= at;
      else if (start !== null) {
        out.push([start, prev ?? start]);
        start = null;
      }
      prev = at;
    }
    if (start !== null) out.push([start, prev ?? start]);
    return out;
  }, [readings]);
  if (data.length < 2) {
    return (
      <Text size="sm" c="dimmed" data-testid="temperature-chart-empty">
        {t('temperatures.noReadings')}
      </Text>
    );
  }
  const last = data.at(-1)!.t!;
  const band =
    setPointC !== null && toleranceC !== null ? [temperatureFromC(setPointC - toleranceC, units), temperatureFromC(setPointC + toleranceC, units)] : null;
  const summary = t('temperatures.chartSummary', {
    sensors: sensors.length,
    from: formatShortDateTime(new Date(data[0]!.t!).toISOString(), zone),
    to: formatShortDateTime(new Date(last).toISOString(), zone),
    excursions: excursions.length,
  });
  return (
    <Stack gap={4}>
      <LineChart
        h={height}
        data={data}
        dataKey="t"
        role="img"
        aria-label={summary}
        data-testid="temperature-chart"
        xAxisProps={{
          type: 'number',
          scale: 'time',
          domain: ['dataMin', 'dataMax'],
          tickFormatter: (v: number) => formatShortDateTime(new Date(v).toISOString(), zone).replace(/ [A-Z+\-0-9]+$/, ''),
          minTickGap: 40,
        }}
        tooltipProps={{ labelFormatter: (v: unknown) => (typeof v === 'number' ? formatShortDateTime(new Date(v).toISOString(), zone) : '') }}
        unit={` ${unit}`}
        series={sensors.map((s, i) => {
          const r = role.get(s);
          return { name: `s${i}`, label: r ? `${s} (${t(`temperatures.roles.${r}`)})` : s, color: COLORS[i % COLORS.length]! };
        })}
        withLegend
        legendProps={{ verticalAlign: 'bottom' }}
        curveType="linear"
        connectNulls
        withDots={false}
        yAxisProps={{ domain: ['auto', 'auto'], width: 44 }}
      >
        {band && <ReferenceArea y1={band[0]} y2={band[1]} fill="var(--mantine-color-green-5)" fillOpacity={0.15} ifOverflow="extendDomain" />}
        {defrosts.map(([from, to]) => (
          <ReferenceArea key={`d${from}`} x1={from} x2={to} fill="var(--mantine-color-gray-5)" fillOpacity={0.25} ifOverflow="hidden" />
        ))}
        {excursions.map((e) => (
          <ReferenceArea
            key={e.id}
            x1={Date.parse(e.startedAt)}
            x2={e.endedAt ? Date.parse(e.endedAt) : last}
            fill="var(--mantine-color-red-6)"
            fillOpacity={0.18}
            ifOverflow="hidden"
          />
        ))}
      </LineChart>
      <Text size="xs" c="dimmed">
        {t(band ? 'temperatures.chartNote' : 'temperatures.chartNoteNoBand', { zone: zoneLabel(new Date(last).toISOString(), zone) })}
      </Text>
    </Stack>
  );
}
