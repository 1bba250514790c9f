import { Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SafetyGroupBy, UnitSystem } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { Fact } from '../../components/fact.tsx';
import { VsMedianText } from '../../components/vs-median.tsx';
import { economyVsMedian, formatHoursMinutes, idleVsMedian, useFuelEconomy, type VsMedian } from '../../lib/fuel-economy.ts';
import { formatDistance, formatFuelEconomyLPer100Km, formatFuelVolume } from '../../lib/units.ts';
import type { SafetyPeriod } from './safety-common.tsx';

// The scorecard's fuel economy and idling (issue 68, decision 0280): the driver's (or vehicle's)
// figures over the scorecard's days against the fleet's median. Read with fleet performance's
// permission: the page shows the card only to those who have it.

export function ScoreFuelCard({ groupBy, id, period, units }: { groupBy: SafetyGroupBy; id: string; period: SafetyPeriod; units: UnitSystem }) {
  const { t } = useTranslation();
  const q = useFuelEconomy({
    from: period.fromDay,
    to: period.toDay,
    groupBy,
    ...(groupBy === 'driver' ? { driverId: id } : { assetId: id }),
  });
  const f = q.data;
  const r = f?.rows[0];
  const e = r?.economy ?? null;
  const vs = (what: string) => (v: VsMedian) => t(`safety.fuel.vs${v.better === null ? 'Same' : v.better ? 'Better' : 'Worse'}`, { diff: v.text, what });
  return (
    <Paper withBorder p="md" radius="md" data-testid="score-fuel">
      <Title order={2} fz="md" mb="sm">
        {t('safety.fuel.title')}
      </Title>
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={!!f && (!r || (!e && r.idleEvents === 0))}
        emptyTitle={t('safety.fuel.empty')}
        emptyDescription={t('safety.fuel.emptyBody')}
      >
        {f && r && (
          <>
            <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
              <Fact label={t('safety.fuel.economy')}>
                {e ? (
                  <Group gap={6} component="span" wrap="wrap">
                    <Text span fw={700}>
                      {formatFuelEconomyLPer100Km(e.lPer100Km, units)}
                    </Text>
                    <VsMedianText v={economyVsMedian(e.lPer100Km, f.median.lPer100Km, units)} describe={vs(t('safety.fuel.vsEconomy'))} />
                  </Group>
                ) : (
                  t('safety.fuel.empty')
                )}
              </Fact>
              <Fact label={t('safety.fuel.median')}>{formatFuelEconomyLPer100Km(f.median.lPer100Km, units)}</Fact>
              <Fact label={t('safety.fuel.fuelUsed')}>
                {e ? t('safety.fuel.fuelOver', { fuel: formatFuelVolume(e.fuelL, units), distance: formatDistance(e.distanceM, units) }) : null}
              </Fact>
              <Fact label={t('safety.fuel.idle')}>{t('safety.fuel.idleTime', { time: formatHoursMinutes(r.idleMs), count: r.idleEvents })}</Fact>
              <Fact label={t('safety.fuel.idleShare')}>
                {r.idleSharePct === null ? null : (
                  <Group gap={6} component="span" wrap="wrap">
                    <span>
                      {t('safety.fuel.idleShareValue', {
                        share: r.idleSharePct.toFixed(1),
                        median: f.median.idleSharePct === null ? '—' : `${f.median.idleSharePct.toFixed(1)} %`,
                      })}
                    </span>
                    <VsMedianText v={idleVsMedian(r.idleSharePct, f.median.idleSharePct)} describe={vs(t('safety.fuel.vsIdle'))} />
                  </Group>
                )}
              </Fact>
              <Fact label={t('safety.fuel.idleFuel')}>{r.idleFuelL === null ? null : formatFuelVolume(r.idleFuelL, units)}</Fact>
            </SimpleGrid>
            {e && (
              <Text size="xs" c="dimmed" mt="xs">
                {t(`safety.fuel.basis${e.basis}`)}
              </Text>
            )}
          </>
        )}
      </DataState>
    </Paper>
  );
}
