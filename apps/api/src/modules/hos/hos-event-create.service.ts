import { and, desc, eq, lte } from 'drizzle-orm';
import { describeLocation } from '@fleet/geo/places';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS, HOS_RECORD_STATUSES, type HosEventCreate, type HosEventDetail } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { drivers, hosEvents, hosLogs } from '../../db/schema/index.ts';
import { invalidField, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../plugins/types.ts';
import { recordActivity } from '../activity-log/activity-log.service.ts';
import { getEvent, isAutomaticDriving } from './hos-events.service.ts';
import { specialCode, specialOfCode, statusCode } from './hos.periods.ts';
import { ensureLogDays, nextSequenceId, periodStartOf } from './hos.repository.ts';
import { dayStartMs, nextDate } from './hos.time.ts';

export interface LogRef {
  orgId: string;
  driverId: string;
  logId: string;
}

/** The latest active event of a type at or before `at` (the status or special category in force then). */
async function inForceAt(tx: DbOrTx, driverId: string, eventType: number, at: Date) {
  const [row] = await tx
    .select()
    .from(hosEvents)
    .where(and(eq(hosEvents.driverId, driverId), eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE), eq(hosEvents.eventType, eventType), lte(hosEvents.eventTime, at)))
    .orderBy(desc(hosEvents.eventTime), desc(hosEvents.sequenceId))
    .limit(1);
  return row;
}

/**
 * Inserts a duty-status change into a driver's records (origin "other": an office user), lasting
 * until the next recorded status. It must fall in the log day of the path and not in the future,
 * and may not cut into automatically recorded driving. A special category writes its type-3 event
 * too; a status entered without one while PC or YM is in force clears it, so the new status is
 * never silently personal conveyance or a yard move.
 */
export async function createEvent({ db, actor, now = Date.now() }: { db: Db; actor: Actor; now?: number }, r: LogRef, input: HosEventCreate): Promise<HosEventDetail> {
  const periodStart = await periodStartOf(db, r.orgId);
  const created = await db.transaction(async (tx) => {
    // The driver row lock serializes writers of one driver's records (sequence ids, neighbours).
    const [d] = await tx
      .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName, homeTimeZone: drivers.homeTimeZone, pc: drivers.personalConveyanceAllowed, ym: drivers.yardMovesAllowed })
      .from(drivers)
      .where(and(eq(drivers.id, r.driverId), eq(drivers.organizationId, r.orgId)))
      .for('update');
    if (!d) throw notFound('Driver');
    const [log] = await tx.select({ logDate: hosLogs.logDate }).from(hosLogs).where(and(eq(hosLogs.id, r.logId), eq(hosLogs.driverId, d.id), eq(hosLogs.organizationId, r.orgId)));
    if (!log) throw notFound('Log');

    const atMs = Date.parse(input.at);
    const startMs = dayStartMs(log.logDate, d.homeTimeZone, periodStart);
    const endMs = dayStartMs(nextDate(log.logDate), d.homeTimeZone, periodStart);
    if (atMs < startMs || atMs >= endMs) throw invalidField('at', `Time must fall in the log day ${log.logDate} (${new Date(startMs).toISOString()} to ${new Date(endMs).toISOString()})`);
    if (atMs > now) throw invalidField('at', 'Time cannot be in the future');
    if (input.special === 'PC' && input.status !== 'OFF') throw invalidField('special', 'Personal conveyance goes only with status OFF');
    if (input.special === 'YM' && input.status !== 'ON') throw invalidField('special', 'Yard moves go only with status ON');
    if (input.special === 'PC' && !d.pc) throw invalidField('special', 'This driver is not allowed personal conveyance');
    if (input.special === 'YM' && !d.ym) throw invalidField('special', 'This driver is not allowed yard moves');
    if ((input.latitude === null) !== (input.longitude === null)) throw invalidField(input.latitude === null ? 'latitude' : 'longitude', 'Latitude and longitude go together');

    const at = new Date(atMs);
    const [running, special] = await Promise.all([inForceAt(tx, d.id, HOS_EVENT_TYPES.DUTY_STATUS, at), inForceAt(tx, d.id, HOS_EVENT_TYPES.SPECIAL_CATEGORY, at)]);
    if (running && running.eventTime.getTime() === atMs) throw invalidField('at', 'A duty status is already recorded at this time: edit it instead');
    if (running && isAutomaticDriving(running)) throw invalidField('at', 'Automatically recorded driving cannot be cut into');

    const reduced = input.special === 'PC';
    const round = (v: number | null) => (v === null ? null : reduced ? Math.round(v * 10) / 10 : v);
    const description = input.locationDescription ?? (input.latitude !== null && input.longitude !== null ? describeLocation(input.latitude, input.longitude, { reduced }).text : null);
    const inForce = special ? specialOfCode(special.eventCode) : null;
    const writeSpecial = input.special !== null || inForce !== null;
    const firstSeq = await nextSequenceId(tx, d.id);
    const base = {
      organizationId: r.orgId,
      driverId: d.id,
      recordStatus: HOS_RECORD_STATUSES.ACTIVE,
      recordOrigin: HOS_RECORD_ORIGINS.OTHER,
      eventTime: at,
      logDate: log.logDate,
      latitude: round(input.latitude),
      longitude: round(input.longitude),
      locationDescription: description,
      annotation: input.annotation,
      createdByUserId: actor.userId,
    };
    const [row] = await tx
      .insert(hosEvents)
      .values([
        { ...base, sequenceId: firstSeq, eventType: HOS_EVENT_TYPES.DUTY_STATUS, eventCode: statusCode(input.status) },
        ...(writeSpecial ? [{ ...base, sequenceId: firstSeq + 1, eventType: HOS_EVENT_TYPES.SPECIAL_CATEGORY, eventCode: specialCode(input.special) }] : []),
      ])
      .returning({ id: hosEvents.id });
    if (!row) throw new Error('event insert returned nothing');
    await ensureLogDays(tx, r.orgId, [{ driverId: d.id, logDate: log.logDate }]);
    await recordActivity(tx, {
      orgId: r.orgId,
      actor,
      action: 'ADD_HOS_EVENT',
      entityType: 'DRIVER',
      entityId: d.id,
      after: { eventId: row.id, status: input.status, special: input.special, at: at.toISOString(), annotation: input.annotation, driverName: `${d.firstName} ${d.lastName}` },
    });
    return row.id;
  });
  return getEvent(db, { ...r, eventId: created });
}
