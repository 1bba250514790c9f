import { useState } from 'react';
import { Alert, Anchor, Badge, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { PLAN_SEGMENT_KINDS, PLAN_SEGMENT_LABELS } from '@fleet/api-contract/loads';
import type { LoadPlan, LoadStop, PlanSegment } from '@fleet/api-contract';
import tones from '../../components/badge-tones.module.css';
import { formatShortDateTime, formatTime, useViewerZone } from '../../lib/dates.ts';
import { useUnits } from '../../lib/units.ts';
import { dayHeading, etaVersusWindow, formatMinutes, formatPlanMiles, SEGMENT_COLORS, stopName, stopNumber, timelineLayout } from './dispatch-format.ts';
import classes from './dispatch.module.css';
import { windowText } from './load-bits.tsx';

const colorVar = (c: string) => `var(--mantine-color-${c.replace('.', '-')})`;

function segmentWords(s: PlanSegment, units: ReturnType<typeof useUnits>, stops: readonly LoadStop[]): string {
  const stop = s.stopId ? stops.find((x) => x.id === s.stopId) : null;
  const what = s.kind === 'STOP' && stop ? `${PLAN_SEGMENT_LABELS.STOP} ${stopNumber(stops, stop)} (${stopName(stop)})` : PLAN_SEGMENT_LABELS[s.kind];
  const dist = s.miles > 0 ? `, ${formatPlanMiles(s.miles, units)}` : '';
  const minutes = Math.round((Date.parse(s.end) - Date.parse(s.start)) / 60_000);
  return `${what}: ${formatShortDateTime(s.start)} to ${formatTime(s.end)}, ${formatMinutes(minutes)}${dist}${s.note ? ` (${s.note})` : ''}`;
}

/** An ETA against its window: "On time", "Waits 1 h for the window", "2 h 30 min late". */
export function EtaBadge({ eta, stop }: { eta: string; stop: Pick<LoadStop, 'windowStart' | 'windowEnd'> }) {
  const v = etaVersusWindow(eta, stop.windowStart, stop.windowEnd);
  if (v.state === 'late')
    return (
      <Badge variant="outline" radius="sm" className={tones.danger} data-eta="late">
        {formatMinutes(v.minutes)} late
      </Badge>
    );
  return (
    <Badge variant="outline" radius="sm" className={tones.ok} data-eta={v.state}>
      {v.state === 'early' ? `Early by ${formatMinutes(v.minutes)}` : 'On time'}
    </Badge>
  );
}

/**
 * The legal plan as a timeline under the route: one coloured bar per segment (deadhead, drive, the
 * 30-minute break, the 10-hour rest, a 34-hour restart, time at a stop) along the plan's span with the
 * viewer's midnights marked; each bar says its times on hover or focus. Under it, each stop's ETA
 * against its appointment, and the segments as a table (the same facts for a screen reader).
 */
export function PlanTimeline({ plan, stops }: { plan: LoadPlan; stops: readonly LoadStop[] }) {
  const zone = useViewerZone();
  const units = useUnits();
  const layout = timelineLayout(plan.segments, zone);
  const [showTable, setShowTable] = useState(false);
  const kinds = PLAN_SEGMENT_KINDS.filter((k) => plan.segments.some((s) => s.kind === k));
  const totalMiles = plan.segments.reduce((a, s) => a + s.miles, 0);
  return (
    <Stack gap="sm" data-testid="plan-timeline">
      <Group gap="xs" wrap="wrap">
        {plan.feasible ? (
          <Badge variant="outline" radius="sm" className={tones.ok}>
            Legal and on time
          </Badge>
        ) : (
          <Badge variant="outline" radius="sm" className={tones.danger}>
            Not on time
          </Badge>
        )}
        <Text size="sm">
          {formatPlanMiles(totalMiles, units)} from {formatShortDateTime(plan.startsAt)}
          {plan.segments.length > 0 && ` to ${formatShortDateTime(plan.segments[plan.segments.length - 1]!.end)}`}
        </Text>
        {plan.routing === 'estimated' && (
          <Tooltip
            label="Distances and drive times come from the built-in road network, without traffic"
            multiline
            w={260}
            withArrow
            events={{ hover: true, focus: true, touch: true }}
          >
            <Badge variant="light" color="gray" tabIndex={0}>
              Estimated
            </Badge>
          </Tooltip>
        )}
      </Group>
      {plan.reason && (
        <Alert color={plan.feasible ? 'yellow' : 'red'} variant="light" py="xs">
          {plan.reason}
        </Alert>
      )}
      {layout && (
        <div>
          <div className={classes.dayLabels} aria-hidden>
            {layout.days.map((d) => (
              <span key={d.day} style={{ left: `${d.left}%` }}>
                {dayHeading(d.day, '')}
              </span>
            ))}
          </div>
          <div className={classes.track} role="list" aria-label="Plan timeline">
            {layout.days.map((d) => (
              <div key={d.day} className={classes.dayMark} style={{ left: `${d.left}%` }} />
            ))}
            {layout.bars.map((b, i) => {
              const words = segmentWords(b.segment, units, stops);
              return (
                <Tooltip key={i} label={words} multiline w={280} withArrow events={{ hover: true, focus: true, touch: true }}>
                  <button
                    type="button"
                    role="listitem"
                    className={classes.bar}
                    data-kind={b.segment.kind}
                    aria-label={words}
                    style={{ left: `${b.left}%`, width: `${b.width}%`, background: colorVar(SEGMENT_COLORS[b.segment.kind]) }}
                  />
                </Tooltip>
              );
            })}
          </div>
          <Group gap="md" mt={6} wrap="wrap">
            {kinds.map((k) => (
              <Text key={k} span size="xs">
                <span className={classes.swatch} style={{ background: colorVar(SEGMENT_COLORS[k]) }} aria-hidden />
                {PLAN_SEGMENT_LABELS[k]}
              </Text>
            ))}
            <Text span size="xs" c="dimmed">
              Times in {zone.replace(/_/g, ' ')}
            </Text>
          </Group>
        </div>
      )}
      <Table.ScrollContainer minWidth={520}>
        <Table fz="sm" verticalSpacing={6} aria-label="ETA at each stop">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Stop</Table.Th>
              <Table.Th>Appointment</Table.Th>
              <Table.Th>ETA</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {plan.stops.map((p) => {
              const s = stops.find((x) => x.id === p.stopId);
              if (!s) return null;
              return (
                <Table.Tr key={p.stopId}>
                  <Table.Td>
                    {stopNumber(stops, s)}. {stopName(s)}
                  </Table.Td>
                  <Table.Td>{windowText(s.windowStart, s.windowEnd)}</Table.Td>
                  <Table.Td>{formatShortDateTime(p.eta)}</Table.Td>
                  <Table.Td>
                    <EtaBadge eta={p.eta} stop={s} />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm">
        Clocks at delivery: {formatMinutes(plan.clocksAtDelivery.driveMinutes)} to drive, {formatMinutes(plan.clocksAtDelivery.windowMinutes)} of the 14-hour
        window, {formatMinutes(plan.clocksAtDelivery.cycleMinutes)} of the cycle.
      </Text>
      <div>
        <Anchor component="button" type="button" size="sm" onClick={() => setShowTable((v) => !v)} aria-expanded={showTable}>
          {showTable ? 'Hide the segments' : `Show the ${plan.segments.length} segments as a table`}
        </Anchor>
        {showTable && (
          <Table.ScrollContainer minWidth={560}>
            <Table fz="sm" verticalSpacing={4} aria-label="Plan segments" mt="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Segment</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>To</Table.Th>
                  <Table.Th ta="right">Length</Table.Th>
                  <Table.Th ta="right">Distance</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {plan.segments.map((s, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>
                      <span className={classes.swatch} style={{ background: colorVar(SEGMENT_COLORS[s.kind]) }} aria-hidden />
                      {PLAN_SEGMENT_LABELS[s.kind]}
                      {s.note ? ` (${s.note})` : ''}
                    </Table.Td>
                    <Table.Td>{formatShortDateTime(s.start)}</Table.Td>
                    <Table.Td>{formatShortDateTime(s.end)}</Table.Td>
                    <Table.Td ta="right">{formatMinutes((Date.parse(s.end) - Date.parse(s.start)) / 60_000)}</Table.Td>
                    <Table.Td ta="right">{s.miles > 0 ? formatPlanMiles(s.miles, units) : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </div>
    </Stack>
  );
}
