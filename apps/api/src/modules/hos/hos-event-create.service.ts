import { and, eq, isNotNull, max } from 'drizzle-orm';
import { describeLocation } from '@fleet/geo/places';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS, HOS_RECORD_STATUSES, type HosEventCreate, type HosEventDetail } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, hosEvents, hosLogs } from '../../db/schema/index.ts';
import { recordedTime } from '../../http/idempotency-key.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import { clearCertification } from './hos-certification.service.ts';
import { getEvent } from './hos-events.service.ts';
import { createEditRequest } from './hos-proposals.repository.ts';
import { driverVehicleAt, driverVehicleOf } from './hos-vehicle.ts';
import { isAutomaticDriving, specialCode, specialOfCode, statusCode } from './hos.periods.ts';
import { emitDutyChanges } from './hos-webhooks.ts';
import { ensureLogDays, inForceAt, nextSequenceId, periodStartOf } from './hos.repository.ts';
import { dayStartMs, logDateOf, nextDate } from './hos.time.ts';
import type { LogRef } from './hos.types.ts';
import type { Scope } from '../auth/index.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';

/** A driver's entry more than this before now is an entry in the past (a missing record, 4.4.4.2.3): it needs an annotation. */
const LIVE_SLACK_MS = 60_000;
/** Shortest manual location description (Appendix A 7.9: 5-60 characters). */
const MANUAL_LOCATION_MIN = 5;

/** "10:03 on 2026-11-27 (America/Chicago)": an instant as the driver's log shows it. */
function logTime(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(ms);
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? '';
  return `${p('hour')}:${p('minute')} on ${p('year')}-${p('month')}-${p('day')} (${timeZone})`;
}

/** The driver's last certified log day, or null. */
async function lastCertifiedDay(tx: DbOrTx, orgId: string, driverId: string): Promise<string | null> {
  const [row] = await tx
    .select({ day: max(hosLogs.logDate) })
    .from(hosLogs)
    .where(and(eq(hosLogs.organizationId, orgId), eq(hosLogs.driverId, driverId), isNotNull(hosLogs.certifiedAt)));
  return row?.day ?? null;
}

/** The record a driver's earlier send with this Idempotency-Key made (decision 0184), or null. */
async function recordOfKey(tx: DbOrTx, orgId: string, driverId: string, eventType: number, clientId: string) {
  const [row] = await tx
    .select({ id: hosEvents.id, logDate: hosEvents.logDate })
    .from(hosEvents)
    .where(and(eq(hosEvents.organizationId, orgId), eq(hosEvents.driverId, driverId), eq(hosEvents.eventType, eventType), eq(hosEvents.clientId, clientId)));
  return row ?? null;
}

/**
 * Whether a duty status may be inserted at `atMs` against the driver's records as they stand: not at
 * the time of a recorded status (edit that one) and not inside automatically recorded driving, unless
 * `endsDriving` (the driver answering the stopped vehicle's prompt, 4.4.1.2). Run when the record is
 * entered or proposed, and again when the driver accepts a proposal.
 */
export async function checkInsert(tx: DbOrTx, driverId: string, atMs: number, endsDriving = false): Promise<void> {
  const running = await inForceAt(tx, driverId, HOS_EVENT_TYPES.DUTY_STATUS, new Date(atMs));
  if (running && running.eventTime.getTime() === atMs) throw invalidField('at', 'A duty status is already recorded at this time: edit it instead');
  if (running && isAutomaticDriving(running) && !endsDriving) throw invalidField('at', 'Automatically recorded driving cannot be cut into');
}

/**
 * Enters a duty-status change into a driver's records; it lasts until the next recorded status.
 *
 * - By the driver themself (their sign-in account, decision 0112): at once, origin driver. Without
 *   `at` it is a change now, located at the vehicle's latest fix; Driving cannot be chosen (the
 *   vehicle's motion sets it) and a moving vehicle's driver cannot leave Driving. With `at` earlier
 *   than now it enters a missing record and needs an annotation. A certified day asks for
 *   certification again.
 * - By an office user: a proposal (origin other user, inactive-change-requested) the driver accepts
 *   or rejects; `at` and an annotation are required.
 *
 * It must fall in the log day of the path (a change now goes to today) and not in the future, and may
 * not cut into automatically recorded driving. A special category writes its type-3 event too; a
 * status entered without one while PC or YM is in force clears it, so the new status is never
 * silently personal conveyance or a yard move.
 */
export async function createEvent(
  { db, actor, now = Date.now() }: Scope,
  r: LogRef,
  input: HosEventCreate,
  clientId: string | null = null,
): Promise<HosEventDetail> {
  const periodStart = await periodStartOf(db, r.orgId);
  const created = await db.transaction(async (tx) => {
    // The driver row lock serializes writers of one driver's records (sequence ids, neighbours).
    const [d] = await tx
      .select({
        id: drivers.id,
        userId: drivers.userId,
        firstName: drivers.firstName,
        lastName: drivers.lastName,
        homeTimeZone: drivers.homeTimeZone,
        pc: drivers.personalConveyanceAllowed,
        ym: drivers.yardMovesAllowed,
        oilfield: drivers.oilfield,
      })
      .from(drivers)
      .where(and(eq(drivers.id, r.driverId), eq(drivers.organizationId, r.orgId)))
      .for('no key update');
    if (!d) throw notFound('Driver');
    const [log] = await tx
      .select({ logDate: hosLogs.logDate })
      .from(hosLogs)
      .where(and(eq(hosLogs.id, r.logId), eq(hosLogs.driverId, d.id), eq(hosLogs.organizationId, r.orgId)));
    if (!log) throw notFound('Log');
    const byDriver = !!actor.userId && actor.userId === d.userId;
    const live = byDriver && input.at === null;
    // A resend of a record the phone sent before (its answer lost): the first one, unchanged.
    const sent = clientId ? await recordOfKey(tx, r.orgId, d.id, HOS_EVENT_TYPES.DUTY_STATUS, clientId) : null;
    if (sent)
      return { id: sent.id, logId: (await ensureLogDays(tx, r.orgId, [{ driverId: d.id, logDate: sent.logDate }])).get(`${d.id}|${sent.logDate}`) ?? r.logId };

    if (byDriver && input.status === 'D')
      throw invalidField('status', "Driving is recorded from the vehicle's motion and cannot be chosen", 'hos.driving_automatic');
    if (!byDriver && input.at === null) throw invalidField('at', 'Time is a required field');
    if (!live && input.annotation === null) throw invalidField('annotation', 'Annotation is a required field');
    // A change the phone took offline is stored when the driver made it (decision 0184).
    const late = live && input.recordedAt !== null;
    const atMs = live ? recordedTime(input.recordedAt, now) : Date.parse(input.at!);
    if (late) {
      const certified = await lastCertifiedDay(tx, r.orgId, d.id);
      const day = logDateOf(atMs, d.homeTimeZone, periodStart);
      if (certified !== null && day < certified) {
        throw invalidField(
          'recordedAt',
          `This change, made at ${logTime(atMs, d.homeTimeZone)}, falls before your last certified day (${certified}), so it was not recorded`,
        );
      }
    }
    // A change now belongs in today's log: posted to another day's log it would silently land today.
    if (live && !late && log.logDate !== logDateOf(now, d.homeTimeZone, periodStart))
      throw invalidField('at', `Time is a required field for an entry in the log of ${log.logDate}: a change without it happens now, in today's log`);
    if (!live) {
      const startMs = dayStartMs(log.logDate, d.homeTimeZone, periodStart);
      const endMs = dayStartMs(nextDate(log.logDate), d.homeTimeZone, periodStart);
      if (atMs < startMs || atMs >= endMs)
        throw invalidField('at', `Time must fall in the log day ${log.logDate} (${new Date(startMs).toISOString()} to ${new Date(endMs).toISOString()})`);
      if (atMs > now) throw invalidField('at', 'Time cannot be in the future', 'hos.time_in_future');
      if (byDriver && atMs > now - LIVE_SLACK_MS) throw invalidField('at', 'Leave the time out to change your status now');
    }
    if (input.special === 'PC' && input.status !== 'OFF') throw invalidField('special', 'Personal conveyance goes only with status OFF');
    if (input.special === 'YM' && input.status !== 'ON') throw invalidField('special', 'Yard moves go only with status ON');
    if (input.special === 'PASSENGER' && input.status !== 'OFF') throw invalidField('special', 'Passenger-seat time goes only with status OFF');
    if (input.special === 'WAITING' && input.status !== 'OFF') throw invalidField('special', 'Well-site waiting time goes only with status OFF');
    // §395.1(d)(2) is the oilfield exemption's: another driver's waiting is plain off duty, so it is refused, not recorded.
    if (input.special === 'WAITING' && !d.oilfield)
      throw invalidField('special', 'This driver has no oilfield exemption for well-site waiting time', 'hos.waiting_time_not_allowed');
    if (input.special === 'PC' && !d.pc) throw invalidField('special', 'This driver is not allowed personal conveyance', 'hos.personal_conveyance_not_allowed');
    if (input.special === 'YM' && !d.ym) throw invalidField('special', 'This driver is not allowed yard moves', 'hos.yard_moves_not_allowed');
    if ((input.latitude === null) !== (input.longitude === null))
      throw invalidField(input.latitude === null ? 'latitude' : 'longitude', 'Latitude and longitude go together');

    // A change now is located where the driver's vehicle is (the ELD's own position, 4.5.1.1).
    // A change sent late is located, and checked for motion, by the fix at its time.
    // A change the phone sends as it is made (its time within a minute of ours) is located by the
    // vehicle's latest fix, however the two clocks differ by seconds (issue 46).
    const truck = live ? await (late && now - atMs > LIVE_SLACK_MS ? driverVehicleAt(tx, r.orgId, d.id, atMs) : driverVehicleOf(tx, r.orgId, d.id, now)) : null;
    if (live) {
      const running = await inForceAt(tx, d.id, HOS_EVENT_TYPES.DUTY_STATUS, new Date(atMs));
      if (running && isAutomaticDriving(running) && truck?.moving) {
        // The engine's Driving stands (ELD 4.4.1): the driver is told what became of their change.
        if (late)
          throw invalidField(
            'recordedAt',
            `The truck was moving at ${logTime(atMs, d.homeTimeZone)}: the Driving the ELD recorded stands, so this change was not recorded`,
            'hos.moved_since',
          ).withParams({
            time: logTime(atMs, d.homeTimeZone),
          });
        throw invalidField('status', 'The vehicle is moving: Driving is recorded until it stops', 'hos.vehicle_moving');
      }
    }
    await checkInsert(tx, d.id, atMs, live);
    const at = new Date(atMs);
    const special = await inForceAt(tx, d.id, HOS_EVENT_TYPES.SPECIAL_CATEGORY, at);

    const reduced = input.special === 'PC';
    const round = (v: number | null) => (v === null ? null : reduced ? Math.round(v * 10) / 10 : v);
    // The vehicle's own fix first (the ELD's position), then the coordinates the driver's device sent.
    const fix = truck?.position ?? (input.latitude !== null && input.longitude !== null ? { latitude: input.latitude, longitude: input.longitude } : null);
    const latitude = fix?.latitude ?? null;
    const longitude = fix?.longitude ?? null;
    // ELD 4.3.2.7 / 4.5.1.1: every duty-status change has a location; without a position the driver types one (5-60 characters).
    if (live && (latitude === null || longitude === null) && (input.locationDescription?.length ?? 0) < MANUAL_LOCATION_MIN) {
      throw invalidField(
        'locationDescription',
        `Your position is not known: type where you are (at least ${MANUAL_LOCATION_MIN} characters, e.g. "2 mi ESE Darien, IL")`,
        'hos.position_unknown',
      );
    }
    const description = input.locationDescription ?? (latitude !== null && longitude !== null ? describeLocation(latitude, longitude, { reduced }).text : null);
    const inForce = special ? specialOfCode(special.eventCode) : null;
    const writeSpecial = input.special !== null || inForce !== null;
    const logDate = live ? logDateOf(atMs, d.homeTimeZone, periodStart) : log.logDate;
    const request = byDriver
      ? null
      : await createEditRequest(tx, { orgId: r.orgId, driverId: d.id, kind: 'INSERT', logDate, annotation: input.annotation, actor });
    const firstSeq = await nextSequenceId(tx, d.id);
    const base = {
      organizationId: r.orgId,
      driverId: d.id,
      vehicleId: truck?.vehicle?.id ?? null,
      recordStatus: byDriver ? HOS_RECORD_STATUSES.ACTIVE : HOS_RECORD_STATUSES.INACTIVE_CHANGE_REQUESTED,
      recordOrigin: byDriver ? HOS_RECORD_ORIGINS.DRIVER : HOS_RECORD_ORIGINS.OTHER,
      eventTime: at,
      logDate,
      latitude: round(latitude),
      longitude: round(longitude),
      locationDescription: description,
      odometerM: truck?.position?.odometerM ?? null,
      engineHours: truck?.position?.engineHours ?? null,
      annotation: input.annotation,
      editRequestId: request,
      clientId: byDriver ? clientId : null,
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
    // A proposal is not a change until the driver accepts it: only the driver's own record is told (issue 48).
    if (byDriver)
      await emitDutyChanges(tx, r.orgId, [
        { eventId: row.id, driverId: d.id, code: statusCode(input.status), at, origin: HOS_RECORD_ORIGINS.DRIVER, assetId: base.vehicleId ?? null },
      ]);
    const ids = await ensureLogDays(tx, r.orgId, [{ driverId: d.id, logDate }]);
    await notifyHosChange(tx, r.orgId);
    if (byDriver) await clearCertification(tx, d.id, [logDate]);
    await recordActivity(tx, {
      orgId: r.orgId,
      actor,
      action: byDriver ? 'ADD_HOS_EVENT' : 'PROPOSE_HOS_EVENT',
      entityType: 'DRIVER',
      entityId: d.id,
      after: {
        eventId: row.id,
        status: input.status,
        special: input.special,
        at: at.toISOString(),
        annotation: input.annotation,
        proposalId: request,
        driverName: `${d.firstName} ${d.lastName}`,
      },
    });
    return { id: row.id, logId: ids.get(`${d.id}|${logDate}`) ?? r.logId };
  });
  return getEvent({ db, orgId: r.orgId }, { ...r, logId: created.logId, eventId: created.id });
}
