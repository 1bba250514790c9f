import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { HOS_EVENT_TYPES } from '@fleet/api-contract/hos-codes';
import type { HosEvent } from '@fleet/api-contract';
import { formatOdometer, useUnits } from '../../../lib/units.ts';
import { clockSecondsIn, formatEngineHours, zoneAbbreviation } from '../logs/log-format.ts';
import { eventWords } from './event-words.ts';
import classes from './driver.module.css';

/**
 * The truck's engine power-ups and shut-downs of the day (ELD event type 6, decision 0155), with the
 * total miles and engine hours the engine reported: what the driver shows an officer who asks.
 */
export function EngineEvents({ events, timeZone }: { events: readonly HosEvent[]; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const units = useUnits();
  const engine = events.filter((e) => e.eventType === HOS_EVENT_TYPES.ENGINE_POWER && e.recordStatus === 'ACTIVE');
  if (engine.length === 0) return null;
  return (
    <Paper withBorder radius="md" p="md" className={classes.card} data-testid="driver-engine-events">
      <Title order={2} size="h4" mb="sm">
        {t('driver.engine.title')}
      </Title>
      <Stack gap={0} component="ol" aria-label={t('driver.engine.list')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {engine.map((e) => (
          <li key={e.id} style={{ padding: '6px 0', borderBottom: '1px solid var(--mantine-color-default-border)' }}>
            <Group gap="xs" wrap="wrap" align="baseline">
              <Text ff="monospace" fw={600} style={{ whiteSpace: 'nowrap' }}>
                {`${clockSecondsIn(e.at, timeZone, lng)} ${zoneAbbreviation(e.at, timeZone, lng)}`}
              </Text>
              <Text fw={600}>{eventWords(t, e)}</Text>
              <Text size="sm" c="dimmed">
                {[
                  e.vehicle ? t('common.truck', { unit: e.vehicle.unitNumber }) : null,
                  formatOdometer(e.odometerM === null ? null : e.odometerM / 1000, units, lng),
                  formatEngineHours(e.engineHours, lng),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </Group>
          </li>
        ))}
      </Stack>
    </Paper>
  );
}
