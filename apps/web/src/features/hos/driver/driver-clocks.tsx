import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Availability } from '@fleet/api-contract';
import { ClockBar } from '../availability/clock-bar.tsx';
import { formatHoursMinutes } from '../availability/clock-format.ts';
import { fullLengths, liveClocks } from '../availability/live-clocks.ts';
import classes from './driver.module.css';

export interface DriverClocksProps {
  clocks: Availability;
  /** The instant the clocks were computed at. */
  at: number;
  /** Now, renewed every few seconds: driving and on-duty clocks count down from `at` (decision 0097). */
  now: number;
}

const NAMES = [
  ['driveMs', 'drive'],
  ['windowMs', 'window'],
  ['breakMs', 'break'],
  ['cycleMs', 'cycle'],
] as const;

/** The four clocks of the driver, large, counting down live like the office's availability screen. */
export function DriverClocks({ clocks, at, now }: DriverClocksProps) {
  const { t } = useTranslation();
  const live = liveClocks(clocks, at, now);
  const full = fullLengths(clocks.ruleset);
  return (
    <Paper withBorder radius="md" p="md" className={classes.card}>
      <Group justify="space-between" align="baseline" mb="sm">
        <Title order={2} size="h4">
          {t('driver.clocks.title')}
        </Title>
        <Text size="sm" data-testid="available-drive">
          {t('driver.clocks.canDrive')}
          <Text span fw={700} ff="monospace" size="lg">
            {formatHoursMinutes(live.availableDriveMs)}
          </Text>
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        {NAMES.map(([key, word]) => (
          <Stack key={key} gap={4} className={classes.clock}>
            <Text size="sm" fw={600}>
              {t(`driver.clocks.${word}`)}
            </Text>
            <ClockBar name={t(`driver.clocks.${word}`)} strictMs={live.strict[key]} provisionalMs={live.provisional[key]} fullMs={full[key]} />
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
