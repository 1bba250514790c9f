import { Badge, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { IftaFlag, IftaFlagKind, IftaReport } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { day } from './ifta-format.ts';

const KIND: Record<IftaFlagKind, { label: string; color: string; help: string }> = {
  UNKNOWN_PLACE: { label: 'Unknown place', color: 'red', help: 'Miles in no state or province (lakes, sea, abroad): assign them with an adjustment.' },
  INTERPOLATED: { label: 'Gap in positions', color: 'blue', help: 'Distance allocated along the straight line between two fixes far apart (device offline, tunnel).' },
  ODOMETER_MISMATCH: { label: 'Odometer mismatch', color: 'red', help: 'Odometer travel and recorded miles more than 10 % apart.' },
  SUSPICIOUS_PURCHASE: { label: 'Suspicious purchase', color: 'grape', help: 'The vehicle was elsewhere when the fuel was bought.' },
  IMPOSSIBLE_SPEED: { label: 'Impossible jump', color: 'pink', help: 'Consecutive fixes faster than 90 mph apart.' },
  NO_PURCHASES: { label: 'No fuel', color: 'red', help: 'Without purchases there is no fleet MPG and nothing is taxable.' },
  RATES_FALLBACK: { label: 'Rates', color: 'gray', help: 'The quarter’s tax rates are not imported yet.' },
  UNQUALIFIED_FUEL: { label: 'Other fuel type', color: 'gray', help: 'Fuel bought for a vehicle registered with another fuel type.' },
};

/** The items an auditor would ask about, grouped by kind, each with the vehicle and day concerned. */
export function ReviewTab({ report }: { report: IftaReport }) {
  const [kind, setKind] = useState<string>('all');
  const counts = new Map<IftaFlagKind, number>();
  for (const f of report.flags) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  const shown = kind === 'all' ? report.flags : report.flags.filter((f) => f.kind === kind);
  return (
    <DataState isEmpty={report.flags.length === 0} emptyTitle="Nothing to review" emptyDescription="No unknown places, gaps, odometer mismatches or suspicious purchases this quarter.">
      <Stack gap="sm">
        {counts.size > 1 && (
          <SegmentedControl
            aria-label="Kind of item"
            value={kind}
            onChange={setKind}
            data={[{ value: 'all', label: `All (${report.flags.length})` }, ...[...counts].map(([k, n]) => ({ value: k, label: `${KIND[k].label} (${n})` }))]}
            style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
          />
        )}
        <Stack gap="xs" role="list" aria-label="Items to review">
          {shown.map((f, i) => (
            <FlagItem key={`${f.kind}-${f.assetId}-${f.day}-${i}`} f={f} />
          ))}
        </Stack>
      </Stack>
    </DataState>
  );
}

function FlagItem({ f }: { f: IftaFlag }) {
  const k = KIND[f.kind];
  return (
    <Paper withBorder p="sm" role="listitem">
      <Group gap="xs" mb={4} wrap="wrap">
        <Badge color={k.color} variant="light" radius="sm" title={k.help}>
          {k.label}
        </Badge>
        {f.unitNumber && <Text fw={600} size="sm">Unit {f.unitNumber}</Text>}
        {f.day && <Text size="sm" c="dimmed">{day(f.day)}</Text>}
        {f.jurisdiction && (
          <Text size="sm" ff="monospace">
            {f.jurisdiction}
          </Text>
        )}
      </Group>
      <Text size="sm">{f.message}</Text>
    </Paper>
  );
}
