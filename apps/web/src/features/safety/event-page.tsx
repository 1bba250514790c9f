import type { ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Grid, Group, Paper, Stack, Text, Timeline, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { IconArrowLeft, IconMessageReport } from '@tabler/icons-react';
import type { SafetyEventDetail, UnitSystem } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatDateTime, useViewerZone } from '../../lib/dates.ts';
import { useCan } from '../../lib/registry-api.ts';
import { formatFuelVolume, formatSpeed, useUnits } from '../../lib/units.ts';
import { EventActions } from './event-actions.tsx';
import { EventMap } from './event-map.tsx';
import { SafetyTabs } from './safety-common.tsx';
import { useSafetyEvent } from './safety-api.ts';
import { formatSeconds, formatStrength, SeverityBadge, StatusBadge } from './safety-words.tsx';
import { SpeedTrace } from './speed-trace.tsx';

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right" component="div">
        {children}
      </Text>
    </Group>
  );
}

/** `/safety/events/:id`: one event with its place, its speed trace, the people involved, its source, history and the reviewer's actions. */
export default function SafetyEventPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const location = useLocation();
  const back = (location.state as { back?: string } | null)?.back ?? '/safety';
  const q = useSafetyEvent(id);
  const e = q.data;
  const title = e ? `${t(`safety.type.${e.type}`)} · ${e.assetName}` : t('safety.event.title');
  return (
    <>
      <PageHeader
        title={title}
        breadcrumbs={[
          { label: t('safety.title'), to: '/safety' },
          { label: t('safety.tabs.inbox'), to: back },
          { label: e ? t(`safety.type.${e.type}`) : t('safety.event.title') },
        ]}
        actions={
          <Button component={Link} to={back} variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
            {t('safety.event.back')}
          </Button>
        }
      />
      <SafetyTabs />
      <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
        {e && <EventDetail e={e} />}
      </DataState>
    </>
  );
}

function EventDetail({ e }: { e: SafetyEventDetail }) {
  const { t, i18n } = useTranslation();
  const units: UnitSystem = useUnits();
  const zone = useViewerZone();
  const canUpdate = useCan('SAFETY_UPDATE');
  const speeding = e.type === 'SPEEDING' || e.type === 'MAX_SPEED';
  const harsh = e.type === 'HARSH_ACCELERATION' || e.type === 'HARSH_BRAKING' || e.type === 'HARSH_CORNERING';
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack gap="md">
          <EventMap event={e} />
          <Paper withBorder p="md" radius="md">
            <Title order={2} fz="md" mb="xs">
              {t('safety.event.traceTitle')}
            </Title>
            <SpeedTrace event={e} units={units} />
          </Paper>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="md">
          <Paper withBorder p="md" radius="md" data-testid="safety-event-facts">
            <Group justify="space-between" mb="sm" gap="xs">
              <Group gap="xs">
                <SeverityBadge severity={e.severity} />
                <StatusBadge status={e.status} />
              </Group>
              <Badge variant="light" color={e.countsInScore ? 'orange' : 'gray'} data-testid="counts-in-score">
                {e.countsInScore ? t('safety.event.counts') : t('safety.event.notCounted')}
              </Badge>
            </Group>
            <Stack gap={6}>
              <Fact label={t('safety.col.driver')}>
                {e.driverId ? (
                  <Anchor component={Link} to={`/safety/scores/drivers/${e.driverId}`} size="sm">
                    {e.driverName}
                  </Anchor>
                ) : (
                  t('safety.noDriver')
                )}
              </Fact>
              <Fact label={t('safety.col.vehicle')}>
                <Anchor component={Link} to={`/safety/scores/vehicles/${e.assetId}`} size="sm">
                  {e.assetName}
                </Anchor>
              </Fact>
              <Fact label={t('safety.event.when')}>{formatDateTime(e.startedAt, zone)}</Fact>
              {e.durationS > 0 && <Fact label={t('safety.event.duration')}>{formatSeconds(e.durationS)}</Fact>}
              {e.place && <Fact label={t('safety.event.where')}>{e.place}</Fact>}
              {harsh && <Fact label={t('safety.event.strength')}>{formatStrength(e.strengthMps2, units, i18n.language)}</Fact>}
              {(e.speedBeforeKph !== null || e.speedAfterKph !== null) && (
                <Fact label={speeding ? t('safety.event.speedStartEnd') : t('safety.event.speedBeforeAfter')}>
                  {formatSpeed(e.speedBeforeKph, units)} → {formatSpeed(e.speedAfterKph, units)}
                </Fact>
              )}
              {e.maxSpeedKph !== null && <Fact label={t('safety.event.maxSpeed')}>{formatSpeed(e.maxSpeedKph, units)}</Fact>}
              {e.limitKph !== null && (
                <Fact label={e.type === 'MAX_SPEED' ? t('safety.event.fleetMax') : t('safety.event.limit')} testId="safety-event-limit">
                  {formatSpeed(e.limitKph, units)}
                  {e.limitSource && (
                    <Text size="xs" c="dimmed">
                      {e.limitSource}
                    </Text>
                  )}
                </Fact>
              )}
              {e.band && <Fact label={t('safety.event.band')}>{t(`safety.band.${e.band}`)}</Fact>}
              {e.fuelBurnedL !== null && <Fact label={t('safety.event.fuel')}>{formatFuelVolume(e.fuelBurnedL, units)}</Fact>}
              <Fact label={t('safety.col.source')} testId="safety-event-source">
                {t(`safety.source.${e.source}`)}
              </Fact>
              {e.coachName && (
                <Fact label={t('safety.event.coach')}>
                  {e.coachName}
                  {e.dueAt && e.status === 'NEEDS_COACHING' && (
                    <Text size="xs" c="dimmed">
                      {t('safety.event.dueBy', { date: formatDateTime(e.dueAt, zone) })}
                    </Text>
                  )}
                </Fact>
              )}
            </Stack>
          </Paper>
          {e.disputedAt && (
            <Alert
              color="yellow"
              variant="light"
              icon={<IconMessageReport size={18} />}
              title={t('safety.event.disputed', { date: formatDateTime(e.disputedAt, zone) })}
              data-testid="safety-event-dispute"
            >
              {e.disputeNote}
            </Alert>
          )}
          {canUpdate && (
            <Paper withBorder p="md" radius="md">
              <Title order={2} fz="md" mb="xs">
                {t('safety.actions.title')}
              </Title>
              <EventActions event={e} />
            </Paper>
          )}
          <Paper withBorder p="md" radius="md">
            <Title order={2} fz="md" mb="sm">
              {t('safety.event.history')}
            </Title>
            <Timeline bulletSize={14} lineWidth={2} active={e.history.length}>
              <Timeline.Item title={t('safety.event.detected')}>
                <Text size="xs" c="dimmed">
                  {formatDateTime(e.createdAt, zone)} · {t(`safety.source.${e.source}`)}
                </Text>
              </Timeline.Item>
              {e.history.map((h, i) => (
                <Timeline.Item
                  key={`${h.at}-${i}`}
                  title={
                    h.action === 'REVIEW' ? t(`safety.status.${h.status}`) : t(`safety.event.${h.action === 'ACKNOWLEDGED' ? 'acknowledged' : 'disputedShort'}`)
                  }
                >
                  <Text size="xs" c="dimmed">
                    {formatDateTime(h.at, zone)}
                    {h.userName ? ` · ${h.userName}` : ''}
                  </Text>
                  {h.note && <Text size="sm">{h.note}</Text>}
                </Timeline.Item>
              ))}
            </Timeline>
          </Paper>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
