import { Badge, Button, Table, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { HOS_EVENT_TYPES, type HosEvent } from '@fleet/api-contract';
import { formatOdometer, type UnitSystem } from '../../../lib/units.ts';
import { withVersions } from './event-order.ts';
import { clockSecondsIn, eventName, formatEngineHours, ORIGIN_NAMES, zoneAbbreviation } from './log-format.ts';
import tones from '../../../components/badge-tones.module.css';
import classes from './log-page.module.css';
import { ScrollBox } from './scroll-box.tsx';

export interface LogEventsProps {
  /** Each active event followed by the versions it replaced (the API's order). */
  events: HosEvent[];
  timeZone: string;
  units: UnitSystem;
  /** Shows an Edit button on active duty-status events (the user holds HOS_EDIT). */
  onEdit?: (e: HosEvent) => void;
  /** `?at=`: the event in force at this instant is highlighted. */
  at?: number;
}

/** The event in force at `at`: the last active duty-status event at or before it. */
function eventAt(events: HosEvent[], at: number | undefined): string | undefined {
  if (at === undefined) return undefined;
  let found: HosEvent | undefined;
  for (const e of events) {
    if (
      e.recordStatus === 'ACTIVE' &&
      e.eventType === HOS_EVENT_TYPES.DUTY_STATUS &&
      Date.parse(e.at) <= at &&
      (!found || Date.parse(e.at) >= Date.parse(found.at))
    )
      found = e;
  }
  return found?.id;
}

/** The day's ELD events: time in the home zone, what, origin, where, vehicle, odometer, engine hours, annotation; edits show the original struck through under them. */
export function LogEvents({ events, timeZone, units, onEdit, at }: LogEventsProps) {
  if (events.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No events recorded on this day.
      </Text>
    );
  }
  const current = eventAt(events, at);
  const rows = withVersions(events);
  return (
    <ScrollBox label="Events" minWidth={860}>
      <Table aria-label="Events" verticalSpacing={6} className={classes.table}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{`Time (${zoneAbbreviation(events[0]!.at, timeZone)})`}</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th>Origin</Table.Th>
            <Table.Th>Location</Table.Th>
            <Table.Th>Vehicle</Table.Th>
            <Table.Th ta="right">Odometer</Table.Th>
            <Table.Th ta="right">Engine hours</Table.Th>
            <Table.Th>Annotation</Table.Th>
            {onEdit && (
              <Table.Th className={classes.noPrint}>
                <span className={classes.srOnly}>Actions</span>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((e) => {
            const replaced = e.recordStatus !== 'ACTIVE';
            const proposal = e.recordStatus === 'INACTIVE_CHANGE_REQUESTED' || e.recordStatus === 'INACTIVE_CHANGE_REJECTED';
            const editable = !replaced && e.eventType === HOS_EVENT_TYPES.DUTY_STATUS;
            return (
              <Table.Tr
                key={e.id}
                className={classes.row}
                data-replaced={(replaced && !proposal) || undefined}
                data-proposal={proposal ? (e.recordStatus === 'INACTIVE_CHANGE_REQUESTED' ? 'pending' : 'rejected') : e.editRequestId ? 'accepted' : undefined}
                data-highlight={e.id === current || undefined}
                data-event-id={e.id}
              >
                <Table.Td className={classes.num} style={{ whiteSpace: 'nowrap' }}>
                  {replaced && <span className={classes.srOnly}>Replaced version: </span>}
                  <span className={classes.strike}>{clockSecondsIn(e.at, timeZone)}</span>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <span className={classes.strike}>{eventName(e)}</span>
                  {replaced && !proposal && (
                    <Badge ml={6} size="xs" variant="outline" color="gray" className={tones.muted}>
                      Original
                    </Badge>
                  )}
                  {/* Proposals of the office (decision 0112): waiting for the driver, rejected, or accepted. */}
                  {e.recordStatus === 'INACTIVE_CHANGE_REQUESTED' && (
                    <Badge
                      ml={6}
                      size="xs"
                      variant="light"
                      color="yellow"
                      className={tones.warn}
                      title="Proposed by the office, waiting for the driver to accept or reject it"
                    >
                      Proposed
                      <span className={classes.srOnly}>, waiting for the driver</span>
                    </Badge>
                  )}
                  {e.recordStatus === 'INACTIVE_CHANGE_REJECTED' && (
                    <Badge ml={6} size="xs" variant="outline" color="gray" className={tones.muted}>
                      Rejected
                      <span className={classes.srOnly}> by the driver</span>
                    </Badge>
                  )}
                  {e.recordStatus === 'ACTIVE' && e.editRequestId && (
                    <Badge ml={6} size="xs" variant="light" color="green" className={tones.ok}>
                      Accepted
                      <span className={classes.srOnly}> by the driver</span>
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <span className={classes.strike}>{ORIGIN_NAMES[e.recordOrigin]}</span>
                </Table.Td>
                <Table.Td>
                  <span className={classes.strike}>{e.locationDescription ?? '—'}</span>
                </Table.Td>
                <Table.Td>
                  <span className={classes.strike}>{e.vehicle?.unitNumber ?? '—'}</span>
                </Table.Td>
                <Table.Td ta="right" className={classes.num} style={{ whiteSpace: 'nowrap' }}>
                  <span className={classes.strike}>{formatOdometer(e.odometerM === null ? null : e.odometerM / 1000, units)}</span>
                </Table.Td>
                <Table.Td ta="right" className={classes.num} style={{ whiteSpace: 'nowrap' }}>
                  <span className={classes.strike}>{formatEngineHours(e.engineHours)}</span>
                </Table.Td>
                <Table.Td>
                  <span className={classes.strike}>{e.annotation ?? '—'}</span>
                </Table.Td>
                {onEdit && (
                  <Table.Td className={classes.noPrint} ta="right">
                    {editable && (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        leftSection={<IconPencil size={14} aria-hidden />}
                        aria-label={`Edit ${eventName(e)} at ${clockSecondsIn(e.at, timeZone)}`}
                        onClick={() => onEdit(e)}
                      >
                        Edit
                      </Button>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollBox>
  );
}
