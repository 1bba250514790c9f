import { Badge, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconCheck, IconChecks } from '@tabler/icons-react';
import { useState } from 'react';
import {
  KM_PER_MILE,
  UNIT_LABELS,
  farThresholdText,
  type FuelType,
  type IftaFlag,
  type IftaFlagKind,
  type IftaReport,
  type UnitSystem,
} from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { useCan } from '../../lib/registry-api.ts';
import tones from '../../components/badge-tones.module.css';
import { dateTime, day } from './ifta-format.ts';
import { markReviewed, useIftaMutation } from './ifta-api.ts';

// Distances and speeds that are not IFTA units read in the organization's units (the return's miles stay miles).
const kinds = (units: UnitSystem): Record<IftaFlagKind, { label: string; color: string; tone?: string; help: string }> => ({
  UNKNOWN_PLACE: {
    label: 'Unknown place',
    color: 'red',
    tone: tones.danger,
    help: 'Miles in no state or province (lakes, sea, abroad): assign them with an adjustment.',
  },
  INTERPOLATED: {
    label: 'Gap in positions',
    color: 'blue',
    help: 'Distance allocated along the straight line between two fixes far apart (device offline, tunnel).',
  },
  ODOMETER_MISMATCH: { label: 'Odometer mismatch', color: 'red', tone: tones.danger, help: 'Odometer travel and recorded miles more than 10 % apart.' },
  SUSPICIOUS_PURCHASE: {
    label: 'Suspicious purchase',
    color: 'grape',
    tone: tones.severe,
    help: `The vehicle was elsewhere when the fuel was bought (more than ${farThresholdText(units)} from the station, or in another state or province).`,
  },
  PRICE_MISMATCH: {
    label: 'Price and total apart',
    color: 'red',
    tone: tones.danger,
    help: 'Price per unit × quantity is more than 1 % from the receipt total: one of them was typed wrong.',
  },
  BULK_PURCHASE: {
    label: 'Bulk entry',
    color: 'orange',
    tone: tones.warn,
    help: 'More fuel than the vehicle’s tank holds, entered as a bulk or split entry: check it is shared out right.',
  },
  IMPOSSIBLE_SPEED: {
    label: 'Impossible jump',
    color: 'pink',
    help: `Consecutive fixes faster than ${units === 'IMPERIAL' ? '90 mph' : `${Math.round(90 * KM_PER_MILE)} ${UNIT_LABELS.METRIC.speed}`} apart.`,
  },
  NO_PURCHASES: { label: 'No fuel', color: 'red', tone: tones.danger, help: 'Without purchases there is no fleet MPG and nothing is taxable.' },
  RATES_FALLBACK: { label: 'Rates', color: 'gray', tone: tones.muted, help: 'The quarter’s tax rates are not imported yet.' },
  UNQUALIFIED_FUEL: { label: 'Other fuel type', color: 'gray', tone: tones.muted, help: 'Fuel bought for a vehicle registered with another fuel type.' },
});

/**
 * The items an auditor would ask about, grouped by kind, each with the vehicle and day concerned and
 * whether someone checked it (who and when). Marking needs IFTA_UPDATE.
 */
export function ReviewTab({ report }: { report: IftaReport }) {
  const [kind, setKind] = useState<string>('all');
  const [show, setShow] = useState<'open' | 'all'>('open');
  const canEdit = useCan('IFTA_UPDATE');
  const mark = useIftaMutation(markReviewed);
  const KIND = kinds(report.units);
  const counts = new Map<IftaFlagKind, number>();
  for (const f of report.flags) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  const ofKind = kind === 'all' ? report.flags : report.flags.filter((f) => f.kind === kind);
  const shown = show === 'open' ? ofKind.filter((f) => f.reviewed === null) : ofKind;
  const open = shown.filter((f) => f.reviewed === null);
  const run = (keys: string[], reviewed: boolean) =>
    mark.mutate(
      { quarter: report.quarter, fuelType: report.fuelType as FuelType, keys, reviewed },
      {
        onSuccess: (r) =>
          notify({
            type: 'success',
            title: reviewed ? `${r.changed} item${r.changed === 1 ? '' : 's'} marked reviewed` : 'Marked not reviewed',
            timeout: 4000,
          }),
      },
    );
  return (
    <DataState
      isEmpty={report.flags.length === 0}
      emptyTitle="Nothing to review"
      emptyDescription="No unknown places, gaps, odometer mismatches or suspicious purchases this quarter."
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm" aria-live="polite">
            {report.review.unreviewed === 0
              ? `All ${report.review.items} items reviewed.`
              : `${report.review.unreviewed} of ${report.review.items} items not reviewed yet.`}
          </Text>
          <Group gap="xs" wrap="wrap">
            <SegmentedControl
              aria-label="Which items"
              size="xs"
              value={show}
              onChange={(v) => setShow(v as 'open' | 'all')}
              data={[
                { value: 'open', label: `Not reviewed (${report.review.unreviewed})` },
                { value: 'all', label: `All (${report.flags.length})` },
              ]}
            />
            {canEdit && open.length > 0 && (
              <Button
                size="xs"
                variant="default"
                leftSection={<IconChecks size={14} />}
                loading={mark.isPending}
                onClick={async () => {
                  if (
                    await confirmAction({
                      title: `Mark ${open.length} item${open.length === 1 ? '' : 's'} reviewed?`,
                      message: 'Your name and the time are kept with each item. An item that changes later comes back unreviewed.',
                    })
                  ) {
                    run(
                      open.map((f) => f.key),
                      true,
                    );
                  }
                }}
              >
                Mark {open.length} shown reviewed
              </Button>
            )}
          </Group>
        </Group>
        {counts.size > 1 && (
          <SegmentedControl
            aria-label="Kind of item"
            value={kind}
            onChange={setKind}
            data={[
              { value: 'all', label: `All kinds (${report.flags.length})` },
              ...[...counts].map(([k, n]) => ({ value: k, label: `${KIND[k].label} (${n})` })),
            ]}
            style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
          />
        )}
        {shown.length === 0 ? (
          <Text size="sm" c="dimmed">
            Every item shown here has been reviewed.
          </Text>
        ) : (
          <Stack gap="xs" role="list" aria-label="Items to review">
            {shown.map((f) => (
              <FlagItem key={f.key} f={f} k={KIND[f.kind]} canEdit={canEdit} busy={mark.isPending} onMark={(reviewed) => run([f.key], reviewed)} />
            ))}
          </Stack>
        )}
      </Stack>
    </DataState>
  );
}

function FlagItem({
  f,
  k,
  canEdit,
  busy,
  onMark,
}: {
  f: IftaFlag;
  k: { label: string; color: string; tone?: string; help: string };
  canEdit: boolean;
  busy: boolean;
  onMark: (reviewed: boolean) => void;
}) {
  return (
    <Paper withBorder p="sm" role="listitem" data-reviewed={f.reviewed ? 'true' : 'false'}>
      <Group gap="xs" mb={4} wrap="wrap" justify="space-between">
        <Group gap="xs" wrap="wrap">
          <Badge color={k.color} variant="light" radius="sm" className={k.tone} title={k.help}>
            {k.label}
          </Badge>
          {f.unitNumber && (
            <Text fw={600} size="sm">
              Unit {f.unitNumber}
            </Text>
          )}
          {f.day && (
            <Text size="sm" c="dimmed">
              {day(f.day)}
            </Text>
          )}
          {f.jurisdiction && (
            <Text size="sm" ff="monospace">
              {f.jurisdiction}
            </Text>
          )}
        </Group>
        {f.reviewed ? (
          <Group gap="xs" wrap="wrap">
            <Badge variant="light" color="green" radius="sm" className={tones.ok} leftSection={<IconCheck size={12} />}>
              Reviewed
            </Badge>
            {canEdit && (
              <Button
                size="compact-xs"
                variant="subtle"
                leftSection={<IconArrowBackUp size={14} />}
                disabled={busy}
                onClick={() => onMark(false)}
                aria-label={`Mark not reviewed: ${f.message}`}
              >
                Undo
              </Button>
            )}
          </Group>
        ) : (
          canEdit && (
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconCheck size={14} />}
              disabled={busy}
              onClick={() => onMark(true)}
              aria-label={`Mark reviewed: ${f.message}`}
            >
              Mark reviewed
            </Button>
          )
        )}
      </Group>
      <Text size="sm">{f.message}</Text>
      {f.reviewed && (
        <Text size="xs" c="dimmed" mt={4}>
          Reviewed {dateTime(f.reviewed.at)}
          {f.reviewed.by ? ` by ${f.reviewed.by}` : ''}
          {f.reviewed.note ? `: ${f.reviewed.note}` : ''}
        </Text>
      )}
    </Paper>
  );
}
