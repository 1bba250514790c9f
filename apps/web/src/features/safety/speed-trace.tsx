import '@mantine/charts/styles.css';
import { useMemo } from 'react';
import { LineChart } from '@mantine/charts';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ReferenceArea } from 'recharts';
import type { SafetyEventDetail, UnitSystem } from '@fleet/api-contract';
import { formatTime, useViewerZone, zoneLabel } from '../../lib/dates.ts';
import { speedIn, unitLabels } from '../../lib/units.ts';

const round1 = (v: number) => Math.round(v * 10) / 10;

/** Ticks on whole minutes (every 1, 2, 5, 10... so at most 7), or none to let the chart choose for a long trace. */
export function minuteTicks(times: readonly number[]): number[] | undefined {
  if (times.length < 2) return undefined;
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  const minutes = (hi - lo) / 60_000;
  const step = [1, 2, 5, 10, 15, 30].find((m) => minutes / m <= 7);
  if (!step) return undefined;
  const stepMs = step * 60_000;
  const out: number[] = [];
  for (let t = Math.ceil(lo / stepMs) * stepMs; t <= hi; t += stepMs) out.push(t);
  return out.length >= 2 ? out : undefined;
}

/**
 * The speed trace around an event: the vehicle's speed and the limit there (posted or default, where
 * the dataset has one), in the organization's units, with the event's own time shaded.
 */
export function SpeedTrace({ event, units }: { event: Pick<SafetyEventDetail, 'trace' | 'startedAt' | 'endedAt' | 'limitKph' | 'type'>; units: UnitSystem }) {
  const { t } = useTranslation();
  const zone = useViewerZone();
  const unit = unitLabels(units).speed;
  // MAX_SPEED is judged against the fleet's maximum, not the posted limit: draw that line instead.
  const fleetMax = event.type === 'MAX_SPEED' ? event.limitKph : null;
  const data = useMemo(() => {
    const from = Date.parse(event.startedAt);
    const to = Date.parse(event.endedAt);
    return event.trace.map((p) => {
      const t = Date.parse(p.at);
      // During a speeding event the limit is the one it was judged against, where the trace has none.
      const limitKph = fleetMax ?? p.limitKph ?? (event.type === 'SPEEDING' && t >= from && t <= to ? event.limitKph : null);
      return { t, speed: p.speedKph === null ? null : round1(speedIn(p.speedKph, units)), limit: limitKph === null ? null : round1(speedIn(limitKph, units)) };
    });
  }, [event.trace, event.startedAt, event.endedAt, event.type, event.limitKph, units, fleetMax]);
  const ticks = useMemo(() => minuteTicks(data.map((d) => d.t)), [data]);
  if (data.length < 2) {
    return (
      <Text size="sm" c="dimmed" data-testid="speed-trace-empty">
        {t('safety.event.noTrace')}
      </Text>
    );
  }
  const start = Date.parse(event.startedAt);
  const end = Math.max(Date.parse(event.endedAt), start + 1000);
  const speeds = data.flatMap((d) => (d.speed === null ? [] : [d.speed]));
  const limits = data.flatMap((d) => (d.limit === null ? [] : [d.limit]));
  const summary = t('safety.event.traceSummary', {
    from: formatTime(event.trace[0]!.at, zone),
    to: formatTime(event.trace.at(-1)!.at, zone),
    max: `${Math.round(Math.max(...speeds, 0))} ${unit}`,
    limit: limits.length ? `${Math.round(Math.max(...limits))} ${unit}` : '—',
  });
  return (
    <Stack gap={4}>
      <LineChart
        h={200}
        data={data}
        dataKey="t"
        role="img"
        aria-label={summary}
        data-testid="speed-trace"
        xAxisProps={{
          type: 'number',
          scale: 'time',
          domain: ['dataMin', 'dataMax'],
          ticks,
          tickFormatter: (v: number) => formatTime(new Date(v).toISOString(), zone).replace(/ [A-Z+\-0-9]+$/, ''),
          minTickGap: 24,
        }}
        tooltipProps={{ labelFormatter: (v: unknown) => (typeof v === 'number' ? formatTime(new Date(v).toISOString(), zone) : '') }}
        unit={` ${unit}`}
        series={[
          { name: 'speed', label: `${t('safety.event.speed')} (${unit})`, color: 'blue.6' },
          {
            name: 'limit',
            label: `${fleetMax !== null ? t('safety.event.fleetMax') : t('safety.event.limit')} (${unit})`,
            color: 'red.7',
            strokeDasharray: '6 4',
          },
        ]}
        withLegend
        legendProps={{ verticalAlign: 'bottom' }}
        curveType="linear"
        connectNulls={false}
        withDots={false}
        yAxisProps={{ domain: [0, 'auto'], unit: '', width: 36 }}
      >
        <ReferenceArea x1={start} x2={end} fill="var(--mantine-color-orange-5)" fillOpacity={0.18} ifOverflow="extendDomain" />
      </LineChart>
      <Text size="xs" c="dimmed">
        {t('safety.event.traceNote', { zone: zoneLabel(event.startedAt, zone) })}
      </Text>
    </Stack>
  );
}
