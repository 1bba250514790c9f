import { Card, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Load } from '@fleet/api-contract';
import { formatShortDateTime } from '../../lib/dates.ts';
import { laneText, nextStop } from './dispatch-format.ts';
import classes from './dispatch.module.css';
import { AtRiskBadge, LoadStatusBadge, WindowText } from './load-bits.tsx';

/** One load on the board: number, customer, lane, windows, driver, the next ETA and whether it is at risk. */
export function LoadCard({ load }: { load: Load }) {
  const first = load.stops[0];
  const last = load.stops[load.stops.length - 1];
  const next = nextStop(load);
  const drivers = load.drivers.map((d) => d.name).join(' & ');
  return (
    <Card withBorder radius="md" padding="sm" component={Link} to={`/dispatch/loads/${load.id}`} className={classes.card} data-testid="load-card">
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text fw={700} size="sm">
            {load.number}
          </Text>
          <Group gap={4} wrap="nowrap">
            {load.atRisk && <AtRiskBadge reason={load.riskReason} focusable={false} />}
            <LoadStatusBadge status={load.status} />
          </Group>
        </Group>
        <Text size="sm" fw={600} lineClamp={1}>
          {load.customer}
        </Text>
        <Text size="sm" lineClamp={1}>
          {laneText(load)}
        </Text>
        {first && <WindowText label="Pick-up" start={first.windowStart} end={first.windowEnd} />}
        {last && last !== first && <WindowText label="Delivery" start={last.windowStart} end={last.windowEnd} />}
        <Group justify="space-between" gap="xs">
          <Text size="xs" c={drivers ? undefined : 'dimmed'}>
            {drivers || 'No driver'}
            {load.asset ? ` · ${load.asset.unitNumber}` : ''}
          </Text>
          {next?.eta && (
            <Text size="xs" fw={600} className={next.windowMet === false ? classes.danger : undefined}>
              ETA {formatShortDateTime(next.eta)}
            </Text>
          )}
        </Group>
        {load.atRisk && load.riskReason && (
          <Text size="xs" className={classes.danger} lineClamp={2}>
            {load.riskReason}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
