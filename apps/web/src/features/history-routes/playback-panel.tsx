import { useMemo } from 'react';
import { Box, Button, Group, Paper, Select, Slider, Text } from '@mantine/core';
import { LineChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import type { HistoryRoute } from '@fleet/api-contract';
import { formatDateTime, formatTime } from '../../lib/dates.ts';
import { formatOdometer, formatSpeed, speedIn, unitLabels, type UnitSystem } from '../../lib/units.ts';
import { speedSeries, timeTicks } from './playback.ts';
import type { usePlayback } from './use-playback.ts';

type Track = HistoryRoute['track'];
const SPEEDS = [1, 2, 4, 8, 16];

/**
 * The engine data the fix at the playback position carries (issue 46): ignition, the odometer (the
 * engine's when it reports one) in the organization's units, engine hours and rpm; "Not reported"
 * where the device sent none.
 */
function PointDetail({ point, units }: { point: Track[number]; units: UnitSystem }) {
  const none = 'Not reported';
  const items: Array<[string, string]> = [
    ['Ignition', point.ignition === null ? none : point.ignition ? 'On' : 'Off'],
    [
      point.odometerSource === 'ECM' ? 'Odometer (engine)' : point.odometerSource === 'GPS' ? 'Odometer (GPS)' : 'Odometer',
      point.odometer === null ? none : formatOdometer(point.odometer / 1000, units),
    ],
    ['Engine hours', point.engineHours === null ? none : `${point.engineHours.toLocaleString('en-US', { maximumFractionDigits: 1 })} h`],
    ['Engine speed', point.rpm === null ? none : `${Math.round(point.rpm).toLocaleString('en-US')} rpm`],
  ];
  return (
    <Box
      component="dl"
      data-testid="point-detail"
      aria-label="Engine data at this point"
      style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))', gap: 6, margin: '6px 0 0' }}
    >
      {items.map(([label, value]) => (
        <Box key={label}>
          <Text component="dt" size="xs" c="dimmed">
            {label}
          </Text>
          <Text component="dd" size="sm" fw={600} m={0} c={value === none ? 'dimmed' : undefined}>
            {value}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

/** The speed over time (issue 46): x is the fix time (a linear axis), so a stretch of the chart is a stretch of time and a silence is a gap. */
function SpeedChart({ track, current, units }: { track: Track; current: Track[number] | undefined; units: UnitSystem }) {
  const chart = useMemo(() => speedSeries(track, (kmh) => speedIn(kmh, units)), [track, units]);
  const ticks = useMemo(() => (chart.length ? timeTicks(chart[0]!.t, chart[chart.length - 1]!.t) : []), [chart]);
  return (
    <LineChart
      mt="sm"
      h={140}
      data={chart}
      dataKey="t"
      xAxisProps={{
        type: 'number',
        scale: 'time',
        domain: ['dataMin', 'dataMax'],
        ticks,
        tickFormatter: (v: number) => formatTime(new Date(v).toISOString()),
        minTickGap: 16,
      }}
      tooltipProps={{ labelFormatter: (v: unknown) => (typeof v === 'number' ? formatTime(new Date(v).toISOString()) : '') }}
      series={[{ name: 'speed', label: `Speed (${unitLabels(units).speed})`, color: 'blue.6' }]}
      curveType="linear"
      connectNulls={false}
      withDots={false}
      referenceLines={current ? [{ x: Date.parse(current.time), color: 'red.6', label: '' }] : []}
      data-testid="speed-chart"
    />
  );
}

/** Play and pause, the position slider, the speed, what the fix at the position says, and the speed chart. */
export function PlaybackPanel({ track, playback, start, units }: { track: Track; playback: ReturnType<typeof usePlayback>; start: number; units: UnitSystem }) {
  const { playing, current: cur } = playback;
  return (
    <Paper withBorder p="sm">
      <Group gap="sm" wrap="nowrap">
        <Button
          onClick={() => playback.toggle(start)}
          leftSection={playing ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
          aria-label={playing ? 'Pause' : 'Play'}
          data-testid="play-button"
        >
          {playing ? 'Pause' : 'Play'}
        </Button>
        <Slider
          style={{ flex: 1 }}
          min={0}
          max={Math.max(0, track.length - 1)}
          step={1}
          value={playback.index}
          onChange={(v) => playback.seek(v)}
          label={(v) => (track[v] ? formatDateTime(track[v].time) : '')}
          aria-label="Playback position"
          thumbLabel="Playback position"
          data-testid="playback-slider"
        />
        <Select
          aria-label="Playback speed"
          w={80}
          data={SPEEDS.map((s) => ({ value: String(s), label: `${s}x` }))}
          value={String(playback.rate)}
          onChange={(v) => v && playback.setRate(Number(v))}
          allowDeselect={false}
        />
      </Group>
      {cur && (
        <Text size="sm" mt={6} data-testid="playback-readout">
          {formatDateTime(cur.time)} · {formatSpeed(cur.speed, units)}
        </Text>
      )}
      {cur && <PointDetail point={cur} units={units} />}
      <SpeedChart track={track} current={cur} units={units} />
    </Paper>
  );
}
