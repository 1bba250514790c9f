import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useCan } from '../../lib/registry-api.ts';
import { safetySummaryQuery } from './safety-api.ts';
import { formatScore, scoreClass } from './safety-words.tsx';

function Count({ label, value, to, tone }: { label: string; value: number; to: string; tone?: string }) {
  return (
    <Anchor component={Link} to={to} underline="never" c="inherit">
      <Stack gap={0}>
        <Text fz={22} fw={700} lh={1.1} c={value > 0 ? tone : undefined}>
          {value}
        </Text>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Anchor>
  );
}

/**
 * The dashboard's safety card (issue 47): the fleet's score over the rolling window, events waiting for
 * review, coaching asked for and overdue, and the drivers most in need of coaching, each a link into Safety.
 * Shown to users with SAFETY_LIST only.
 */
export function DashboardSafetyCard({ groupId }: { groupId?: string }) {
  const { t } = useTranslation();
  const orgId = useEffectiveOrganizationId();
  const allowed = useCan('SAFETY_LIST');
  const q = useQuery({ ...safetySummaryQuery(orgId ?? '', { groupId }), enabled: allowed && !!orgId });
  if (!allowed || !q.data) return null;
  const d = q.data;
  const score = d.fleet.score;
  return (
    <Card withBorder padding="md" radius="md" data-testid="dashboard-safety">
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} fz="md">
          {t('safety.dashboard.title')}
        </Title>
        <Button component={Link} to="/safety" variant="subtle" size="compact-sm">
          {t('safety.dashboard.open')}
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Stack gap="sm">
          <Group gap="lg" align="flex-end" wrap="wrap">
            <Anchor component={Link} to="/safety/scores" underline="never" c="inherit">
              <Stack gap={0}>
                <Text
                  fz={36}
                  fw={700}
                  lh={1}
                  className={scoreClass(score)}
                  data-testid="dashboard-safety-score"
                  aria-label={t('safety.scores.fleetLabel', { score: formatScore(score) })}
                >
                  {formatScore(score)}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('safety.dashboard.fleetScore')}
                </Text>
              </Stack>
            </Anchor>
            <Count label={t('safety.dashboard.toReview')} value={d.newEvents} to="/safety" tone="orange.8" />
            <Count label={t('safety.dashboard.needsCoaching')} value={d.needsCoaching} to="/safety?status=NEEDS_COACHING" />
            <Count label={t('safety.dashboard.overdue')} value={d.overdueCoaching} to="/safety?status=NEEDS_COACHING" tone="red.8" />
          </Group>
          {score === null ? (
            <Text size="xs" c="dimmed">
              {t('safety.scores.notEnough')}
            </Text>
          ) : (
            <BarChart
              h={120}
              data={[...d.fleet.distribution].reverse().map((b) => ({ bucket: b.label === 'Under 60' ? t('safety.scores.under60') : b.label, count: b.count }))}
              dataKey="bucket"
              series={[{ name: 'count', label: t('safety.scores.drivers'), color: 'teal.6' }]}
              yAxisProps={{ allowDecimals: false, width: 28 }}
              gridAxis="none"
              role="img"
              aria-label={`${t('safety.scores.distribution')}: ${d.fleet.distribution.map((b) => `${b.label} ${b.count}`).join(', ')}`}
            />
          )}
        </Stack>
        <div>
          <Text size="sm" fw={600} mb={4}>
            {t('safety.dashboard.drivers')}
          </Text>
          {d.drivers.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('safety.dashboard.noDrivers')}
            </Text>
          ) : (
            <Table verticalSpacing={4} aria-label={t('safety.dashboard.drivers')}>
              <Table.Tbody>
                {d.drivers.map((x) => (
                  <Table.Tr key={x.driverId}>
                    <Table.Td>
                      <Anchor component={Link} to={`/safety/scores/drivers/${x.driverId}`} size="sm" fw={600}>
                        {x.driverName}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {t('safety.dashboard.driverFacts', { events: x.events, review: x.newEvents, coaching: x.openCoaching })}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">
                      <Text fw={700} className={scoreClass(x.score)}>
                        {formatScore(x.score)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </div>
      </SimpleGrid>
    </Card>
  );
}
