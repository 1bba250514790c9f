import { and, eq } from 'drizzle-orm';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS, HOS_RECORD_STATUSES } from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import { drivers, hosEvents, users } from '../../db/schema/index.ts';
import { driverVehicleOf } from './hos-vehicle.ts';
import { ensureLogDays, nextSequenceId, periodStartOf } from './hos.repository.ts';
import { logDateOf } from './hos.time.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';

/**
 * Records a driver's login (code 1) or logout (code 2) as a type-5 event (Appendix A 4.5.1.5,
 * decision 0116) when the account signs in for a driver record; nothing for office accounts. The
 * vehicle and its odometer are the ones assigned at that moment (total vehicle miles of the record).
 */
export async function recordDriverLogin(db: Db, userId: string, code: 1 | 2, now = Date.now()): Promise<void> {
  const [d] = await db
    .select({ id: drivers.id, orgId: drivers.organizationId, zone: drivers.homeTimeZone })
    .from(drivers)
    .innerJoin(users, eq(users.id, drivers.userId))
    .where(and(eq(drivers.userId, userId), eq(drivers.organizationId, users.organizationId)))
    .limit(1);
  if (!d) return;
  const [periodStart, truck] = await Promise.all([periodStartOf(db, d.orgId), driverVehicleOf(db, d.orgId, d.id, now)]);
  const logDate = logDateOf(now, d.zone, periodStart);
  await db.transaction(async (tx) => {
    // The driver row lock serializes writers of the driver's records (sequence ids).
    // By the organization too: Citus takes a row lock on one shard only.
    await tx
      .select({ id: drivers.id })
      .from(drivers)
      .where(and(eq(drivers.organizationId, d.orgId), eq(drivers.id, d.id)))
      .for('no key update');
    await tx.insert(hosEvents).values({
      organizationId: d.orgId,
      driverId: d.id,
      vehicleId: truck.vehicle?.id ?? null,
      sequenceId: await nextSequenceId(tx, d.id),
      eventType: HOS_EVENT_TYPES.LOGIN_LOGOUT,
      eventCode: code,
      recordStatus: HOS_RECORD_STATUSES.ACTIVE,
      recordOrigin: HOS_RECORD_ORIGINS.DRIVER,
      eventTime: new Date(now),
      logDate,
      odometerM: truck.position?.odometerM ?? null,
      engineHours: truck.position?.engineHours ?? null,
      createdByUserId: userId,
    });
    await ensureLogDays(tx, d.orgId, [{ driverId: d.id, logDate }]);
    await notifyHosChange(tx, d.orgId);
  });
}
