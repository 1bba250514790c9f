import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Fact } from '../../components/fact.tsx';
import { DataState } from '../../components/data-state.tsx';
import { VsMedianText, describeVsMedian } from '../../components/vs-median.tsx';
import { addDays, formatDate, todayIn } from '../../lib/dates.ts';
import { FUEL_BASIS_WORDS, economyVsMedian, formatHoursMinutes, idleVsMedian, useFuelEconomy } from '../../lib/fuel-economy.ts';
import { formatDistance, formatFuelEconomyLPer100Km, formatFuelVolume, useUnits } from '../../lib/units.ts';

// A vehicle's fuel economy and idling on its page (issue 68, decision 0280): the last 30 days
// against the fleet's median, with what its fuel was counted from.

const DAYS = 30;

export function AssetFuelEconomy({ assetId }: { assetId: string }) {
  const units = useUnits();
  const to = todayIn();
  const from = addDays(to, -(DAYS - 1));
  const q = useFuelEconomy({ from, to, groupBy: 'vehicle', assetId });
  const f = q.data;
  const r = f?.rows[0];
  const e = r?.economy ?? null;
  return (
    <DataState
      isLoading={q.isLoading}
      error={q.error}
      onRetry={() => void q.refetch()}
      isEmpty={!!f && (!r || (!e && r.idleEvents === 0))}
      emptyTitle="No fuel data"
      emptyDescription={`Nothing in the last ${DAYS} days: economy needs the engine fuel counter or two fuel purchases, idling an engine running while standing.`}
    >
      {f && r && (
        <Stack gap="xs" data-testid="asset-fuel-economy">
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
            <Fact label="Economy">
              {e ? (
                <Group gap={6} component="span" wrap="wrap">
                  <Text span fw={700}>
                    {formatFuelEconomyLPer100Km(e.lPer100Km, units)}
                  </Text>
                  <VsMedianText v={economyVsMedian(e.lPer100Km, f.median.lPer100Km, units)} describe={describeVsMedian('economy')} />
                </Group>
              ) : (
                'No fuel data'
              )}
            </Fact>
            <Fact label="Fleet median">{formatFuelEconomyLPer100Km(f.median.lPer100Km, units)}</Fact>
            <Fact label="Fuel used">{e ? `${formatFuelVolume(e.fuelL, units)} over ${formatDistance(e.distanceM, units)}` : null}</Fact>
            <Fact label="Idle">{`${formatHoursMinutes(r.idleMs)} · ${r.idleEvents} idling${r.idleEvents === 1 ? '' : 's'}`}</Fact>
            <Fact label="Idle share">
              {r.idleSharePct === null ? null : (
                <Group gap={6} component="span" wrap="wrap">
                  <span>
                    {r.idleSharePct.toFixed(1)} % (median {f.median.idleSharePct === null ? '—' : `${f.median.idleSharePct.toFixed(1)} %`})
                  </span>
                  <VsMedianText v={idleVsMedian(r.idleSharePct, f.median.idleSharePct)} describe={describeVsMedian('idle share')} />
                </Group>
              )}
            </Fact>
            <Fact label="Idle fuel">{r.idleFuelL === null ? null : formatFuelVolume(r.idleFuelL, units)}</Fact>
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {formatDate(from)} – {formatDate(to)}
            {e ? ` · ${FUEL_BASIS_WORDS[e.basis]}${e.fills ? ` (${e.fills} fills)` : ''}` : ''} · {formatDistance(r.distanceM, units)} driven
          </Text>
        </Stack>
      )}
    </DataState>
  );
}
