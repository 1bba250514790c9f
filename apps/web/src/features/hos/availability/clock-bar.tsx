import { useTranslation } from 'react-i18next';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { Hint } from '../../../components/hint.tsx';
import classes from './clock-bar.module.css';
import { formatHoursMinutes } from './clock-format.ts';
import { LEVEL_COLORS, levelOf } from './live-clocks.ts';

export interface ClockBarProps {
  /** The clock's name, for the bar's accessible name ("Drive", "Window"…). */
  name: string;
  /** Time left, strict (completed sleeper pairs only); null where the ruleset has no such clock. */
  strictMs: number | null;
  /** Time left if the last qualifying rest is paired later; shown when it differs from strict. */
  provisionalMs: number | null;
  /** The clock's full length: the bar shows the share of it left. */
  fullMs: number;
}

/**
 * One HoS clock as a bar with its time left written beside it (H:MM): green, amber under 2 h, red
 * under 30 min; `data-level` carries the same (ok, low, critical) for tests and styles.
 */
export function ClockBar({ name, strictMs, provisionalMs, fullMs }: ClockBarProps) {
  const { t } = useTranslation();
  if (strictMs === null) {
    return (
      <Text size="xs" c="dimmed">
        {t('driver.clocks.noBreak')}
      </Text>
    );
  }
  const level = levelOf(strictMs);
  const left = formatHoursMinutes(strictMs);
  const differs = provisionalMs !== null && Math.floor(provisionalMs / 60_000) !== Math.floor(strictMs / 60_000);
  return (
    <Stack gap={3} miw={84} data-clock={name} data-level={level} className={`hos-clock hos-clock-${level}`}>
      <Group gap={6} justify="space-between" wrap="nowrap">
        <Text span size="sm" fw={600} ff="monospace" data-testid="clock-left">
          {left}
        </Text>
        {level !== 'ok' && (
          <Text span size="xs" fw={600} className={classes.word} data-level={level}>
            {level === 'critical' ? 'Critical' : 'Low'}
          </Text>
        )}
      </Group>
      <Progress
        value={Math.min(100, (strictMs / fullMs) * 100)}
        color={LEVEL_COLORS[level]}
        size="sm"
        radius="xl"
        aria-label={t('driver.clocks.left', { name, time: left })}
        transitionDuration={400}
      />
      {differs && (
        <Hint
          label="Provisional: the time left if the driver's last qualifying rest is paired with a later sleeper-berth period (split sleeper). Strict counts only completed pairs."
          multiline
          w={260}
          withArrow
        >
          <Text span size="xs" c="dimmed" tabIndex={0} style={{ cursor: 'help' }}>
            {formatHoursMinutes(provisionalMs)} if split
          </Text>
        </Hint>
      )}
    </Stack>
  );
}
