import { and, eq, inArray, isNull } from 'drizzle-orm';
import {
  HOS_EVENT_TYPES,
  HOS_RECORD_ORIGINS,
  HOS_RECORD_STATUSES,
  type HosUnidentifiedSegment,
  type Page,
  type hosUnidentifiedQuery,
} from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, hosEvents, hosUnidentifiedAnnotations } from '../../db/schema/index.ts';
import { conflict, forbidden, invalidField, notFound } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { lockVehicles } from './auto-duty/auto-duty.repository.ts';
import { emitDutyChanges } from './hos-webhooks.ts';
import { reopenLogDays } from './hos-certification.service.ts';
import { createEditRequest } from './hos-proposals.repository.ts';
import { checkAssign, readSegments, segmentDistance, segmentOf, segmentRecords, vehiclesOfDriver, type Segment } from './hos-unidentified.repository.ts';
import { ensureLogDays, nextSequenceId, periodStartOf } from './hos.repository.ts';
import { DAY_MS, logDateOf } from './hos.time.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';

type Query = z.output<typeof hosUnidentifiedQuery>;
/** The default and longest look-back of the lists: the roadside period, today and the 7 days before. */
const WINDOW_MS = 8 * DAY_MS;
const ASSIGNED_NOTE = 'Assumed from unidentified driving';

const place = (p: Segment['startPlace'] | null) => (p ? { latitude: p.latitude, longitude: p.longitude, description: p.description } : null);

async function present(db: DbOrTx, s: Segment, now: number): Promise<HosUnidentifiedSegment> {
  return {
    id: s.id,
    vehicle: s.vehicle,
    start: new Date(s.start).toISOString(),
    end: s.end === null ? null : new Date(s.end).toISOString(),
    durationMs: (s.end ?? now) - s.start,
    distanceM: await segmentDistance(db, s),
    startLocation: place(s.startPlace)!,
    endLocation: place(s.endPlace),
    state: s.state,
    annotation: s.annotation,
    driver: s.driver,
    proposalId: s.proposalId,
  };
}

function range(q: Pick<Query, 'from' | 'to'>, now: number): { fromMs: number; toMs: number } {
  const toMs = q.to ? Date.parse(q.to) : now;
  const fromMs = q.from ? Date.parse(q.from) : toMs - WINDOW_MS;
  if (fromMs >= toMs) throw invalidField('to', 'To must be after From');
  if (toMs - fromMs > 31 * DAY_MS) throw invalidField('to', 'The range may cover at most 31 days');
  return { fromMs, toMs };
}

async function page(db: DbOrTx, list: Segment[], q: Query, now: number): Promise<Page<HosUnidentifiedSegment>> {
  const filtered = q.state ? list.filter((s) => s.state === q.state) : list;
  const rows = filtered.slice(q.page * q.size, (q.page + 1) * q.size);
  return toPage(await Promise.all(rows.map((s) => present(db, s, now))), filtered.length, q);
}

/** `GET hos_log/unidentified`: the organization's unidentified driving segments starting in the range (default the last 8 days), newest first. */
export async function listUnidentified({ db, orgId, now = Date.now() }: ReadScope, q: Query): Promise<Page<HosUnidentifiedSegment>> {
  const { fromMs, toMs } = range(q, now);
  return page(db, await readSegments(db, orgId, { fromMs, toMs, vehicleIds: q.assetId ? [q.assetId] : undefined }), q, now);
}

/** The unassigned segments on the driver's vehicles (assigned now or driven in the last 8 days) that the driver may claim. */
export async function listDriverUnidentified({ db, orgId, now = Date.now() }: ReadScope, driverId: string, q: Query): Promise<Page<HosUnidentifiedSegment>> {
  const { fromMs, toMs } = range(q, now);
  const vehicles = await vehiclesOfDriver(db, orgId, driverId, now - WINDOW_MS);
  const list = (await readSegments(db, orgId, { fromMs, toMs, vehicleIds: vehicles })).filter((s) => s.state === 'UNASSIGNED' && s.end !== null);
  return page(db, list, { ...q, state: undefined }, now);
}

/** The driver's copies of a segment's records: same time, place and vehicle, a driver's sequence ids. */
function copiesFor(
  records: Array<typeof hosEvents.$inferSelect>,
  d: { id: string; homeTimeZone: string },
  o: { status: number; requestId: string | null; annotation: string | null; firstSeq: number; periodStart: string; userId: string | null },
): Array<typeof hosEvents.$inferInsert> {
  return records.map((e, i) => ({
    organizationId: e.organizationId,
    driverId: d.id,
    vehicleId: e.vehicleId,
    sequenceId: o.firstSeq + i,
    eventType: e.eventType,
    eventCode: e.eventCode,
    recordStatus: o.status,
    // 7.22: records a driver takes over from the unidentified driver profile (4.4.4.2.4).
    recordOrigin: HOS_RECORD_ORIGINS.UNIDENTIFIED,
    eventTime: e.eventTime,
    logDate: logDateOf(e.eventTime.getTime(), d.homeTimeZone, o.periodStart),
    latitude: e.latitude,
    longitude: e.longitude,
    locationDescription: e.locationDescription,
    odometerM: e.odometerM,
    engineHours: e.engineHours,
    annotation: i === 0 ? o.annotation : null,
    replacesEventId: e.id,
    editRequestId: o.requestId,
    createdByUserId: o.userId,
  }));
}

async function lockDriver(tx: DbOrTx, orgId: string, driverId: string, field: string) {
  const [d] = await tx
    .select({
      id: drivers.id,
      userId: drivers.userId,
      homeTimeZone: drivers.homeTimeZone,
      firstName: drivers.firstName,
      lastName: drivers.lastName,
      status: drivers.status,
    })
    .from(drivers)
    .where(and(eq(drivers.id, driverId), eq(drivers.organizationId, orgId)))
    .for('no key update');
  if (!d) throw field === 'driverId' ? invalidField('driverId', 'Driver must be an active driver of the organization') : notFound('Driver');
  return d;
}

/**
 * The driver's row, locked once the segment's vehicle is: the derivation (automatic duty status,
 * engine records) locks a vehicle and then its drivers' rows, so taking the driver first closed a
 * cycle with it (each waiting on the other's lock).
 */
async function lockVehicleThenDriver(tx: DbOrTx, orgId: string, segmentId: string, driverId: string, field: string) {
  const [e] = await tx
    .select({ vehicleId: hosEvents.vehicleId })
    .from(hosEvents)
    .where(and(eq(hosEvents.organizationId, orgId), eq(hosEvents.id, segmentId), isNull(hosEvents.driverId)));
  if (e?.vehicleId) await lockVehicles(tx, [e.vehicleId]);
  return lockDriver(tx, orgId, driverId, field);
}

/** A segment ready to be given to a driver: ended, neither assigned nor proposed, its records in hand. */
async function takeable(tx: DbOrTx, orgId: string, segmentId: string) {
  const s = await segmentOf(tx, orgId, segmentId);
  await lockVehicles(tx, [s.vehicleId]);
  if (s.end === null) throw invalidField('segmentId', 'The vehicle is still driving: this driving can be assigned once it stops', 'hos.segment_driving');
  if (s.state === 'ASSIGNED') throw conflict('This driving is already assigned to a driver', 'segmentId: already assigned', 'hos.segment_assigned');
  if (s.state === 'PROPOSED')
    throw conflict('This driving is proposed to a driver: they accept or reject it first', 'segmentId: proposal pending', 'hos.segment_proposed');
  const records = await segmentRecords(tx, orgId, s);
  if (records.length === 0) throw conflict('This driving is already assigned to a driver', 'segmentId: no active records', 'hos.segment_assigned');
  return { s, records };
}

/**
 * The driver claims an unidentified segment on their vehicle (4.4.4.2.4): its records become
 * inactive-changed and the driver gets active copies with origin "assumed from unidentified driver
 * profile". Refused when it collides with the driver's own records.
 */
export async function claimSegment(
  { db, orgId, actor }: Scope,
  driverId: string,
  segmentId: string,
  input: { annotation: string | null },
): Promise<HosUnidentifiedSegment> {
  const periodStart = await periodStartOf(db, orgId);
  await db.transaction(async (tx) => {
    const d = await lockVehicleThenDriver(tx, orgId, segmentId, driverId, 'driver');
    // Only the driver takes over unidentified records as their own (4.4.4.2.4); the office proposes instead.
    if (!actor.userId || actor.userId !== d.userId)
      throw forbidden('Only the driver can claim unidentified driving; propose it to them instead', 'Claim by another user than the driver');
    const vehicles = await vehiclesOfDriver(tx, orgId, d.id, Date.now() - WINDOW_MS);
    const seen = await segmentOf(tx, orgId, segmentId);
    // A driver sees only unidentified driving of their own vehicles.
    if (!vehicles.includes(seen.vehicleId)) throw notFound('Segment');
    const { s, records } = await takeable(tx, orgId, segmentId);
    await checkAssign(tx, d.id, s, 'segmentId');
    const firstSeq = await nextSequenceId(tx, d.id);
    const copies = copiesFor(records, d, {
      status: HOS_RECORD_STATUSES.ACTIVE,
      requestId: null,
      annotation: input.annotation ?? ASSIGNED_NOTE,
      firstSeq,
      periodStart,
      userId: actor.userId,
    });
    await tx
      .update(hosEvents)
      .set({ recordStatus: HOS_RECORD_STATUSES.INACTIVE_CHANGED })
      .where(
        inArray(
          hosEvents.id,
          records.map((e) => e.id),
        ),
      );
    const added = await tx.insert(hosEvents).values(copies).returning({
      id: hosEvents.id,
      eventType: hosEvents.eventType,
      eventCode: hosEvents.eventCode,
      eventTime: hosEvents.eventTime,
      vehicleId: hosEvents.vehicleId,
    });
    // The claimed driving is the driver's record now: receivers hear of each duty status taken over.
    await emitDutyChanges(
      tx,
      orgId,
      added
        .filter((e) => e.eventType === HOS_EVENT_TYPES.DUTY_STATUS)
        .map((e) => ({ eventId: e.id, driverId: d.id, code: e.eventCode, at: e.eventTime, origin: HOS_RECORD_ORIGINS.UNIDENTIFIED, assetId: e.vehicleId })),
    );
    const days = [...new Set(copies.map((c) => c.logDate))];
    await reopenLogDays(tx, orgId, d.id, days);
    await notifyHosChange(tx, orgId);
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'CLAIM_UNIDENTIFIED',
      entityType: 'DRIVER',
      entityId: d.id,
      after: {
        segmentId,
        vehicleId: s.vehicleId,
        start: new Date(s.start).toISOString(),
        end: new Date(s.end!).toISOString(),
        records: records.length,
        driverName: `${d.firstName} ${d.lastName}`,
      },
    });
  });
  return present(db, await segmentOf(db, orgId, segmentId), Date.now());
}

/**
 * The office proposes a segment to a driver (a carrier edit request, 4.4.4.2.6): the driver's copies
 * are stored inactive-change-requested; the unidentified records stay active until the driver accepts.
 */
export async function proposeSegment(
  { db, orgId, actor }: Scope,
  segmentId: string,
  input: { driverId: string; annotation: string | null },
): Promise<HosUnidentifiedSegment> {
  const periodStart = await periodStartOf(db, orgId);
  await db.transaction(async (tx) => {
    const d = await lockVehicleThenDriver(tx, orgId, segmentId, input.driverId, 'driverId');
    if (d.status !== 'ACTIVE') throw invalidField('driverId', 'Driver must be an active driver of the organization');
    const { s, records } = await takeable(tx, orgId, segmentId);
    try {
      await checkAssign(tx, d.id, s, 'driverId');
    } catch (err) {
      // The office picked a driver whose records collide: a 400 on the field it chose.
      throw invalidField('driverId', (err as Error).message);
    }
    const annotation = input.annotation ?? ASSIGNED_NOTE;
    const requestId = await createEditRequest(tx, {
      orgId,
      driverId: d.id,
      kind: 'ASSIGN_UNIDENTIFIED',
      logDate: logDateOf(s.start, d.homeTimeZone, periodStart),
      annotation,
      actor,
    });
    const firstSeq = await nextSequenceId(tx, d.id);
    const copies = copiesFor(records, d, {
      status: HOS_RECORD_STATUSES.INACTIVE_CHANGE_REQUESTED,
      requestId,
      annotation,
      firstSeq,
      periodStart,
      userId: actor.userId,
    });
    await tx.insert(hosEvents).values(copies);
    await ensureLogDays(
      tx,
      orgId,
      [...new Set(copies.map((c) => c.logDate))].map((logDate) => ({ driverId: d.id, logDate })),
    );
    await notifyHosChange(tx, orgId);
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'PROPOSE_UNIDENTIFIED',
      entityType: 'DRIVER',
      entityId: d.id,
      after: {
        segmentId,
        proposalId: requestId,
        vehicleId: s.vehicleId,
        start: new Date(s.start).toISOString(),
        end: new Date(s.end!).toISOString(),
        driverName: `${d.firstName} ${d.lastName}`,
      },
    });
  });
  return present(db, await segmentOf(db, orgId, segmentId), Date.now());
}

/** The office notes that a segment is nobody's driving time (4-60 characters); the records themselves stay as they are. */
export async function annotateSegment({ db, orgId, actor }: Scope, segmentId: string, input: { reason: string }): Promise<HosUnidentifiedSegment> {
  await db.transaction(async (tx) => {
    const s = await segmentOf(tx, orgId, segmentId);
    if (s.state === 'ASSIGNED')
      throw conflict('This driving is assigned to a driver: it is their driving time', 'segmentId: already assigned', 'hos.segment_assigned');
    const before = s.annotation;
    await tx
      .insert(hosUnidentifiedAnnotations)
      .values({ segmentEventId: s.id, organizationId: orgId, reason: input.reason, annotatedByUserId: actor.userId })
      .onConflictDoUpdate({
        target: [hosUnidentifiedAnnotations.segmentEventId, hosUnidentifiedAnnotations.organizationId],
        set: { reason: input.reason, annotatedByUserId: actor.userId, annotatedAt: new Date() },
      });
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'ANNOTATE_UNIDENTIFIED',
      entityType: 'ASSET',
      entityId: s.vehicleId,
      before: before ? { reason: before.reason } : undefined,
      after: { segmentId, reason: input.reason, start: new Date(s.start).toISOString() },
    });
  });
  return present(db, await segmentOf(db, orgId, segmentId), Date.now());
}

/** How many unassigned, ended segments the driver's vehicles hold in the last 8 days (the driver screen's badge). */
export async function countDriverUnidentified(db: DbOrTx, orgId: string, driverId: string, now = Date.now()): Promise<number> {
  const vehicles = await vehiclesOfDriver(db, orgId, driverId, now - WINDOW_MS);
  return (await readSegments(db, orgId, { fromMs: now - WINDOW_MS, toMs: now, vehicleIds: vehicles })).filter((s) => s.state === 'UNASSIGNED' && s.end !== null)
    .length;
}
