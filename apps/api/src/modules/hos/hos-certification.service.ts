import { recordedTime } from '../../http/idempotency-key.ts';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { HOS_CERTIFICATION_STATEMENT, HOS_EVENT_TYPES, HOS_RECORD_ORIGINS, HOS_RECORD_STATUSES, type HosLogDay } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, hosEvents, hosLogs } from '../../db/schema/index.ts';
import { forbidden, invalidField, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import { emitWebhookEvent } from '../webhooks/index.ts';
import { getLogDay } from './hos-log-day.service.ts';
import type { LogRef } from './hos.types.ts';
import { ensureLogDays, nextSequenceId, periodStartOf } from './hos.repository.ts';
import { dayStartMs } from './hos.time.ts';
import type { Scope } from '../auth/index.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';

// Certification of a 24-hour period (Appendix A 4.3.2.3, decision 0112): only the driver certifies
// their own records, agreeing to the statement; each certification is a type-4 event whose code is
// its number for that day (1-9, 9 for the ninth and later) and whose log day is the day certified;
// hos_logs keeps the last one for the lists. An edit of a certified day clears `certified_at`, so
// the day asks for certification again (code n + 1).

/**
 * Clears the certification of the listed log days of a driver (an edit, an accepted proposal or a
 * claimed segment changed them), inside the writer's transaction. The count and the type-4 events
 * stay: the next certification is the day's next number.
 */
export async function clearCertification(tx: DbOrTx, driverId: string, logDates: readonly string[]): Promise<string[]> {
  const dates = [...new Set(logDates)];
  if (dates.length === 0) return [];
  const rows = await tx
    .update(hosLogs)
    .set({ certifiedAt: null, certifiedByUserId: null })
    .where(and(eq(hosLogs.driverId, driverId), inArray(hosLogs.logDate, dates), isNotNull(hosLogs.certifiedAt)))
    .returning({ date: hosLogs.logDate });
  return rows.map((r) => r.date).sort();
}

/**
 * The log days a change to the driver's records touched (an accepted proposal, a claimed segment):
 * each gets its log row if it had none, and asks for certification again.
 */
export async function reopenLogDays(tx: DbOrTx, orgId: string, driverId: string, logDates: readonly string[]): Promise<void> {
  await ensureLogDays(
    tx,
    orgId,
    logDates.map((logDate) => ({ driverId, logDate })),
  );
  await clearCertification(tx, driverId, logDates);
}

/**
 * The driver certifies a log day (today or an earlier one) with the rule's statement. A day already
 * certified (and not edited since) is answered as it stands: certifying twice writes nothing.
 */
export async function certifyDay(
  { db, actor, now = Date.now() }: Scope,
  r: LogRef,
  input: { recordedAt?: string | null } = {},
  clientId: string | null = null,
): Promise<HosLogDay> {
  const periodStart = await periodStartOf(db, r.orgId);
  await db.transaction(async (tx) => {
    // The driver row lock serializes writers of one driver's records (sequence ids, the certification number).
    const [d] = await tx
      .select({ id: drivers.id, userId: drivers.userId, firstName: drivers.firstName, lastName: drivers.lastName, homeTimeZone: drivers.homeTimeZone })
      .from(drivers)
      .where(and(eq(drivers.id, r.driverId), eq(drivers.organizationId, r.orgId)))
      .for('no key update');
    if (!d) throw notFound('Driver');
    // Only the driver certifies their own records (4.3.2.3): an office user never can, whatever its codes.
    if (!actor.userId || actor.userId !== d.userId)
      throw forbidden('Only the driver can certify their own records', 'Certification by another user than the driver');
    const [log] = await tx
      .select()
      .from(hosLogs)
      .where(and(eq(hosLogs.id, r.logId), eq(hosLogs.driverId, d.id), eq(hosLogs.organizationId, r.orgId)));
    if (!log) throw notFound('Log');
    // A certification a phone took offline and sent late (decision 0184): the time the driver signed.
    const atMs = recordedTime(input.recordedAt, now);
    if (clientId) {
      const [sent] = await tx
        .select({ id: hosEvents.id })
        .from(hosEvents)
        .where(
          and(
            eq(hosEvents.organizationId, r.orgId),
            eq(hosEvents.driverId, d.id),
            eq(hosEvents.eventType, HOS_EVENT_TYPES.CERTIFICATION),
            eq(hosEvents.clientId, clientId),
          ),
        );
      if (sent) return;
    }
    if (dayStartMs(log.logDate, d.homeTimeZone, periodStart) > atMs)
      throw invalidField('logId', `The log day ${log.logDate} has not begun yet`, 'hos.day_not_begun').withParams({ date: log.logDate });
    if (log.certifiedAt !== null) return;
    const n = log.certificationCount + 1;
    const at = new Date(atMs);
    const sequenceId = await nextSequenceId(tx, d.id);
    const [event] = await tx
      .insert(hosEvents)
      .values({
        organizationId: r.orgId,
        driverId: d.id,
        sequenceId,
        eventType: HOS_EVENT_TYPES.CERTIFICATION,
        eventCode: Math.min(n, 9),
        recordStatus: HOS_RECORD_STATUSES.ACTIVE,
        recordOrigin: HOS_RECORD_ORIGINS.DRIVER,
        eventTime: at,
        // A certification's log day is the day it certifies (the file's "date of the certified record").
        logDate: log.logDate,
        clientId,
        createdByUserId: actor.userId,
      })
      .returning({ id: hosEvents.id });
    await tx.update(hosLogs).set({ certifiedAt: at, certifiedByUserId: actor.userId, certificationCount: n }).where(eq(hosLogs.id, log.id));
    await notifyHosChange(tx, r.orgId);
    await recordActivity(tx, {
      orgId: r.orgId,
      actor,
      action: 'CERTIFY_HOS_LOG',
      entityType: 'DRIVER',
      entityId: d.id,
      after: { logDate: log.logDate, certification: n, eventId: event?.id, statement: HOS_CERTIFICATION_STATEMENT, driverName: `${d.firstName} ${d.lastName}` },
    });
    await emitWebhookEvent(tx, {
      orgId: r.orgId,
      type: 'hos.log_certified',
      at,
      data: { driverId: d.id, driverName: `${d.firstName} ${d.lastName}`, date: log.logDate, certifiedAt: at.toISOString() },
    });
  });
  return getLogDay({ db, orgId: r.orgId, now }, r.logId);
}
