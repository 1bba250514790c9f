import { and, asc, desc, eq, gt, inArray, lt, ne } from 'drizzle-orm';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS, HOS_RECORD_STATUSES, type HosEventDetail, type HosEventEdit } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { assets, drivers, hosEvents, hosLogs } from '../../db/schema/index.ts';
import { invalidField, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../plugins/types.ts';
import { recordActivity } from '../activity-log/activity-log.service.ts';
import { presentEvent } from './hos-log-day.service.ts';
import { statusCode, statusOfCode } from './hos.periods.ts';
import { nextSequenceId, periodStartOf } from './hos.repository.ts';
import { logDateOf } from './hos.time.ts';

interface EventRef {
  orgId: string;
  driverId: string;
  logId: string;
  eventId: string;
}

const DRIVING = statusCode('D');
export const isAutomaticDriving = (e: { eventType: number; eventCode: number; recordOrigin: number }) =>
  e.eventType === HOS_EVENT_TYPES.DUTY_STATUS && e.eventCode === DRIVING && e.recordOrigin === HOS_RECORD_ORIGINS.AUTOMATIC;

/** The event, checked to belong to the organization, the driver and the log day of the path. */
async function findEvent(db: DbOrTx, r: EventRef) {
  const [row] = await db
    .select({ e: hosEvents })
    .from(hosEvents)
    .innerJoin(hosLogs, and(eq(hosLogs.id, r.logId), eq(hosLogs.driverId, hosEvents.driverId), eq(hosLogs.logDate, hosEvents.logDate)))
    .where(and(eq(hosEvents.id, r.eventId), eq(hosEvents.organizationId, r.orgId), eq(hosEvents.driverId, r.driverId)));
  if (!row) throw notFound('Event');
  return row.e;
}

/** An event with every earlier version it replaced, newest first. */
export async function getEvent(db: DbOrTx, r: EventRef): Promise<HosEventDetail> {
  const e = await findEvent(db, r);
  const versions: Array<typeof e> = [];
  for (let id = e.replacesEventId; id && versions.length < 100; ) {
    const [older] = await db.select().from(hosEvents).where(and(eq(hosEvents.id, id), eq(hosEvents.organizationId, r.orgId)));
    if (!older) break;
    versions.push(older);
    id = older.replacesEventId;
  }
  const vehicleIds = [e, ...versions].map((x) => x.vehicleId).filter((v): v is string => !!v);
  const vehicles = vehicleIds.length ? await db.select({ id: assets.id, unitNumber: assets.unitNumber, type: assets.type }).from(assets).where(and(eq(assets.organizationId, r.orgId), inArray(assets.id, vehicleIds))) : [];
  const ref = (id: string | null) => vehicles.find((v) => v.id === id) ?? null;
  return { ...presentEvent(e, ref(e.vehicleId)), versions: versions.map((v) => presentEvent(v, ref(v.vehicleId))) };
}

/**
 * Edits a duty-status event: a new active version (origin driver when the driver edits their own
 * log, else other user) replacing the original, which is kept inactive-changed. Automatically
 * recorded driving is never shortened or turned into another status (Appendix A 4.3.2.8.2).
 */
export async function editEvent({ db, actor }: { db: Db; actor: Actor }, r: EventRef, input: HosEventEdit): Promise<HosEventDetail> {
  const periodStart = await periodStartOf(db, r.orgId);
  const newId = await db.transaction(async (tx) => {
    const [d] = await tx.select({ id: drivers.id, userId: drivers.userId, homeTimeZone: drivers.homeTimeZone }).from(drivers).where(and(eq(drivers.id, r.driverId), eq(drivers.organizationId, r.orgId))).for('update');
    if (!d) throw notFound('Driver');
    const old = await findEvent(tx, r);
    if (old.recordStatus !== HOS_RECORD_STATUSES.ACTIVE) throw invalidField('eventId', 'Only the active version of an event can be edited');
    if (old.eventType !== HOS_EVENT_TYPES.DUTY_STATUS) throw invalidField('eventId', 'Only duty-status events can be edited');
    const atMs = Date.parse(input.at);
    const oldMs = old.eventTime.getTime();
    const active = and(eq(hosEvents.driverId, r.driverId), eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE), eq(hosEvents.eventType, HOS_EVENT_TYPES.DUTY_STATUS), ne(hosEvents.id, old.id));
    const [[prev], [next]] = await Promise.all([
      tx.select().from(hosEvents).where(and(active, lt(hosEvents.eventTime, old.eventTime))).orderBy(desc(hosEvents.eventTime)).limit(1),
      tx.select().from(hosEvents).where(and(active, gt(hosEvents.eventTime, old.eventTime))).orderBy(asc(hosEvents.eventTime)).limit(1),
    ]);
    if (isAutomaticDriving(old) && (input.status !== 'D' || atMs > oldMs)) {
      throw invalidField('status', 'Automatically recorded driving cannot be shortened or changed to another status');
    }
    if (prev && isAutomaticDriving(prev) && atMs < oldMs) throw invalidField('at', 'Automatically recorded driving cannot be shortened');
    if ((prev && atMs <= prev.eventTime.getTime()) || (next && atMs >= next.eventTime.getTime())) {
      throw invalidField('at', 'Time must stay between the previous and the next duty status');
    }
    const sequenceId = await nextSequenceId(tx, r.driverId);
    await tx.update(hosEvents).set({ recordStatus: HOS_RECORD_STATUSES.INACTIVE_CHANGED }).where(eq(hosEvents.id, old.id));
    const [row] = await tx
      .insert(hosEvents)
      .values({
        organizationId: r.orgId,
        driverId: r.driverId,
        vehicleId: old.vehicleId,
        sequenceId,
        eventType: HOS_EVENT_TYPES.DUTY_STATUS,
        eventCode: statusCode(input.status),
        recordStatus: HOS_RECORD_STATUSES.ACTIVE,
        recordOrigin: actor.userId && actor.userId === d.userId ? HOS_RECORD_ORIGINS.DRIVER : HOS_RECORD_ORIGINS.OTHER,
        eventTime: new Date(atMs),
        logDate: logDateOf(atMs, d.homeTimeZone, periodStart),
        latitude: old.latitude,
        longitude: old.longitude,
        locationDescription: input.locationDescription ?? old.locationDescription,
        odometerM: old.odometerM,
        engineHours: old.engineHours,
        annotation: input.annotation,
        replacesEventId: old.id,
        createdByUserId: actor.userId,
      })
      .returning({ id: hosEvents.id, logDate: hosEvents.logDate });
    if (!row) throw new Error('event insert returned nothing');
    await tx.insert(hosLogs).values({ organizationId: r.orgId, driverId: r.driverId, logDate: row.logDate }).onConflictDoNothing();
    await recordActivity(tx, {
      orgId: r.orgId,
      actor,
      action: 'EDIT_HOS_EVENT',
      entityType: 'DRIVER',
      entityId: r.driverId,
      before: { eventId: old.id, status: statusOfCode(old.eventCode), at: old.eventTime.toISOString() },
      after: { eventId: row.id, status: input.status, at: new Date(atMs).toISOString(), annotation: input.annotation },
    });
    return { id: row.id, logDate: row.logDate };
  });
  const [log] = await db.select({ id: hosLogs.id }).from(hosLogs).where(and(eq(hosLogs.driverId, r.driverId), eq(hosLogs.logDate, newId.logDate)));
  return getEvent(db, { ...r, logId: log?.id ?? r.logId, eventId: newId.id });
}
