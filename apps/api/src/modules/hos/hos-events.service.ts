import { and, asc, desc, eq, gt, inArray, lt, ne } from 'drizzle-orm';
import type { DutyStatus } from '@fleet/hos';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS, HOS_RECORD_STATUSES, type HosEventDetail, type HosEventEdit } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, hosEvents, hosLogs } from '../../db/schema/index.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import { clearCertification } from './hos-certification.service.ts';
import { emitDutyChanges } from './hos-webhooks.ts';
import { presentEvent } from './hos-log-day.service.ts';
import { createEditRequest } from './hos-proposals.repository.ts';
import { isAutomaticDriving, statusCode, statusOfCode } from './hos.periods.ts';
import { nextSequenceId, periodStartOf } from './hos.repository.ts';
import { logDateOf } from './hos.time.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';

interface EventRef {
  orgId: string;
  driverId: string;
  logId: string;
  eventId: string;
}

/** The event, checked to belong to the organization, the driver and the log day of the path. */
async function findEvent(db: DbOrTx, r: EventRef) {
  const [row] = await db
    .select({ e: hosEvents })
    .from(hosEvents)
    .innerJoin(
      hosLogs,
      and(
        eq(hosLogs.id, r.logId),
        eq(hosLogs.organizationId, hosEvents.organizationId),
        eq(hosLogs.driverId, hosEvents.driverId),
        eq(hosLogs.logDate, hosEvents.logDate),
      ),
    )
    .where(and(eq(hosEvents.id, r.eventId), eq(hosEvents.organizationId, r.orgId), eq(hosEvents.driverId, r.driverId)));
  if (!row) throw notFound('Event');
  return row.e;
}

/** An event with every earlier version it replaced, newest first. */
export async function getEvent({ db }: ReadScope, r: EventRef): Promise<HosEventDetail> {
  const e = await findEvent(db, r);
  const versions: Array<typeof e> = [];
  for (let id = e.replacesEventId; id && versions.length < 100;) {
    const [older] = await db
      .select()
      .from(hosEvents)
      .where(and(eq(hosEvents.id, id), eq(hosEvents.organizationId, r.orgId)));
    if (!older) break;
    versions.push(older);
    id = older.replacesEventId;
  }
  const vehicleIds = [e, ...versions].map((x) => x.vehicleId).filter((v): v is string => !!v);
  const vehicles = vehicleIds.length
    ? await db
        .select({ id: assets.id, unitNumber: assets.unitNumber, type: assets.type })
        .from(assets)
        .where(and(eq(assets.organizationId, r.orgId), inArray(assets.id, vehicleIds)))
    : [];
  const ref = (id: string | null) => vehicles.find((v) => v.id === id) ?? null;
  return { ...presentEvent(e, ref(e.vehicleId)), versions: versions.map((v) => presentEvent(v, ref(v.vehicleId))) };
}

/** The duty-status events just before and after `old` among the driver's active ones (excluding `old`). */
async function neighboursOf(tx: DbOrTx, driverId: string, old: { id: string; eventTime: Date }) {
  const active = and(
    eq(hosEvents.driverId, driverId),
    eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE),
    eq(hosEvents.eventType, HOS_EVENT_TYPES.DUTY_STATUS),
    ne(hosEvents.id, old.id),
  );
  const [[prev], [next]] = await Promise.all([
    tx
      .select()
      .from(hosEvents)
      .where(and(active, lt(hosEvents.eventTime, old.eventTime)))
      .orderBy(desc(hosEvents.eventTime))
      .limit(1),
    tx
      .select()
      .from(hosEvents)
      .where(and(active, gt(hosEvents.eventTime, old.eventTime)))
      .orderBy(asc(hosEvents.eventTime))
      .limit(1),
  ]);
  return { prev, next };
}

/**
 * Whether `old` (an active duty-status event) may become `status` at `atMs` against the driver's
 * records as they stand: it stays between its neighbours, and automatically recorded driving is never
 * shortened or turned into another status (Appendix A 4.3.2.8.2). Run when an edit is made or
 * proposed, and again when the driver accepts a proposal (the records may have moved meanwhile).
 */
export async function checkEdit(tx: DbOrTx, driverId: string, old: typeof hosEvents.$inferSelect, status: DutyStatus, atMs: number): Promise<void> {
  const oldMs = old.eventTime.getTime();
  const { prev, next } = await neighboursOf(tx, driverId, old);
  if (isAutomaticDriving(old) && (status !== 'D' || atMs > oldMs)) {
    throw invalidField('status', 'Automatically recorded driving cannot be shortened or changed to another status');
  }
  if (prev && isAutomaticDriving(prev) && atMs < oldMs) throw invalidField('at', 'Automatically recorded driving cannot be shortened');
  if ((prev && atMs <= prev.eventTime.getTime()) || (next && atMs >= next.eventTime.getTime())) {
    throw invalidField('at', 'Time must stay between the previous and the next duty status');
  }
}

/**
 * Edits a duty-status event. By the driver themself (their sign-in account) it takes effect at once:
 * a new active version with origin driver, the original kept inactive-changed (4.4.4.2.2), and a
 * certified day asks for certification again. By anyone else it is a proposal (4.4.4.2.5-6,
 * decision 0112): the new version is stored inactive-change-requested with origin other user and
 * the original stays active until the driver accepts it. Automatically recorded driving is never
 * shortened or turned into another status (Appendix A 4.3.2.8.2).
 */
export async function editEvent({ db, actor }: Scope, r: EventRef, input: HosEventEdit): Promise<HosEventDetail> {
  const periodStart = await periodStartOf(db, r.orgId);
  const newId = await db.transaction(async (tx) => {
    const [d] = await tx
      .select({ id: drivers.id, userId: drivers.userId, homeTimeZone: drivers.homeTimeZone, firstName: drivers.firstName, lastName: drivers.lastName })
      .from(drivers)
      .where(and(eq(drivers.id, r.driverId), eq(drivers.organizationId, r.orgId)))
      .for('no key update');
    if (!d) throw notFound('Driver');
    const old = await findEvent(tx, r);
    if (old.recordStatus !== HOS_RECORD_STATUSES.ACTIVE) throw invalidField('eventId', 'Only the active version of an event can be edited');
    if (old.eventType !== HOS_EVENT_TYPES.DUTY_STATUS) throw invalidField('eventId', 'Only duty-status events can be edited');
    const atMs = Date.parse(input.at);
    await checkEdit(tx, r.driverId, old, input.status, atMs);
    const byDriver = !!actor.userId && actor.userId === d.userId;
    const logDate = logDateOf(atMs, d.homeTimeZone, periodStart);
    const request = byDriver
      ? null
      : await createEditRequest(tx, { orgId: r.orgId, driverId: d.id, kind: 'EDIT', logDate, annotation: input.annotation, actor });
    const sequenceId = await nextSequenceId(tx, r.driverId);
    if (byDriver) await tx.update(hosEvents).set({ recordStatus: HOS_RECORD_STATUSES.INACTIVE_CHANGED }).where(eq(hosEvents.id, old.id));
    const [row] = await tx
      .insert(hosEvents)
      .values({
        organizationId: r.orgId,
        driverId: r.driverId,
        vehicleId: old.vehicleId,
        sequenceId,
        eventType: HOS_EVENT_TYPES.DUTY_STATUS,
        eventCode: statusCode(input.status),
        recordStatus: byDriver ? HOS_RECORD_STATUSES.ACTIVE : HOS_RECORD_STATUSES.INACTIVE_CHANGE_REQUESTED,
        recordOrigin: byDriver ? HOS_RECORD_ORIGINS.DRIVER : HOS_RECORD_ORIGINS.OTHER,
        eventTime: new Date(atMs),
        logDate,
        latitude: old.latitude,
        longitude: old.longitude,
        locationDescription: input.locationDescription ?? old.locationDescription,
        odometerM: old.odometerM,
        engineHours: old.engineHours,
        annotation: input.annotation,
        replacesEventId: old.id,
        editRequestId: request,
        createdByUserId: actor.userId,
      })
      .returning({ id: hosEvents.id, logDate: hosEvents.logDate });
    if (!row) throw new Error('event insert returned nothing');
    await tx.insert(hosLogs).values({ organizationId: r.orgId, driverId: r.driverId, logDate: row.logDate }).onConflictDoNothing();
    await notifyHosChange(tx, r.orgId);
    if (byDriver) await clearCertification(tx, d.id, [old.logDate, row.logDate]);
    // The driver's own edit is in force at once: receivers hear of it (an office edit waits for the driver's acceptance).
    if (byDriver)
      await emitDutyChanges(tx, r.orgId, [
        { eventId: row.id, driverId: d.id, code: statusCode(input.status), at: atMs, origin: HOS_RECORD_ORIGINS.DRIVER, assetId: old.vehicleId },
      ]);
    await recordActivity(tx, {
      orgId: r.orgId,
      actor,
      action: byDriver ? 'EDIT_HOS_EVENT' : 'PROPOSE_HOS_EDIT',
      entityType: 'DRIVER',
      entityId: r.driverId,
      before: { eventId: old.id, status: statusOfCode(old.eventCode), at: old.eventTime.toISOString() },
      after: {
        eventId: row.id,
        status: input.status,
        at: new Date(atMs).toISOString(),
        annotation: input.annotation,
        proposalId: request,
        driverName: `${d.firstName} ${d.lastName}`,
      },
    });
    return { id: row.id, logDate: row.logDate };
  });
  const [log] = await db
    .select({ id: hosLogs.id })
    .from(hosLogs)
    .where(and(eq(hosLogs.driverId, r.driverId), eq(hosLogs.logDate, newId.logDate)));
  return getEvent({ db, orgId: r.orgId }, { ...r, logId: log?.id ?? r.logId, eventId: newId.id });
}
