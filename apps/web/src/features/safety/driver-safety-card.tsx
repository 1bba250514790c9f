import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { IconSteeringWheel } from '@tabler/icons-react';
import { formatShortDateTime, useViewerZone } from '../../lib/dates.ts';
import { useUnits } from '../../lib/units.ts';
import { driverSafetyQuery } from './safety-api.ts';
import { eventFigures, formatScore, scoreClass } from './safety-words.tsx';

/** The driver's home (issue 47): their safety score, their latest events, coaching to acknowledge, and the way to their events. */
export function DriverSafetyCard({ orgId }: { orgId: string }) {
  const { t, i18n } = useTranslation();
  const zone = useViewerZone();
  const units = useUnits();
  const q = useQuery({ ...driverSafetyQuery(orgId), enabled: !!orgId });
  const d = q.data;
  // No card when the driver's safety cannot be read (an older server, or no record): the day goes on.
  if (!d) return null;
  const score = d.score.score;
  const recent = d.events.slice(0, 3);
  return (
    <Card withBorder radius="md" padding="sm" data-testid="driver-safety-card">
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Group gap="xs" wrap="nowrap">
          <IconSteeringWheel size={20} aria-hidden />
          <Text fw={600}>{t('safety.driver.card')}</Text>
          {d.toAcknowledge > 0 && (
            <Badge color="orange" data-testid="driver-safety-to-acknowledge">
              {t('safety.driver.toAcknowledge', { count: d.toAcknowledge })}
            </Badge>
          )}
        </Group>
        <Stack gap={0} align="flex-end">
          <Text
            fz={28}
            fw={700}
            lh={1}
            className={scoreClass(score)}
            data-testid="driver-safety-score"
            aria-label={t('safety.driver.scoreLabel', { score: formatScore(score) })}
          >
            {formatScore(score)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('safety.driver.weeks', { count: Math.max(1, Math.round((Date.parse(d.score.to) - Date.parse(d.score.from)) / (7 * 86_400_000))) })}
          </Text>
        </Stack>
      </Group>
      {score === null && (
        <Text size="sm" c="dimmed" mt={4}>
          {t('safety.driver.notYet')}
        </Text>
      )}
      {recent.length === 0 ? (
        <Text size="sm" c="dimmed" mt="xs">
          {t('safety.driver.noEvents')}
        </Text>
      ) : (
        <Stack gap={4} mt="xs">
          {recent.map((e) => (
            <Group key={e.id} justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" lineClamp={1}>
                {t(`safety.type.${e.type}`)}
                <Text span size="xs" c="dimmed">
                  {' · '}
                  {eventFigures(e, units, t, i18n.language)}
                </Text>
              </Text>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatShortDateTime(e.startedAt, zone, i18n.language)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      <Group justify="flex-end" mt="sm">
        <Button component={Link} to="/driver/safety" variant="light" size="sm">
          {t('safety.driver.open')}
        </Button>
      </Group>
    </Card>
  );
}
