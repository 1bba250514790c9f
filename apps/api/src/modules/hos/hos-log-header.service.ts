import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { RulesetId } from '@fleet/hos';
import type { HosDeferral, HosLogDay, HosLogHeader } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, hosLogs } from '../../db/schema/index.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import { getLogDay } from './hos-log-day.service.ts';
import type { LogRef } from './hos.types.ts';
import { isCanadian } from './hos.repository.ts';
import { nextDate, previousDate } from './hos.time.ts';
import type { Scope } from '../auth/index.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';

/** The driver (locked: writers of one driver's records go one at a time) and the log row of the path. */
async function lockedLog(tx: DbOrTx, r: LogRef) {
  const [d] = await tx
    .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName, ruleset: drivers.ruleset })
    .from(drivers)
    .where(and(eq(drivers.id, r.driverId), eq(drivers.organizationId, r.orgId)))
    .for('no key update');
  if (!d) throw notFound('Driver');
  const [log] = await tx
    .select()
    .from(hosLogs)
    .where(and(eq(hosLogs.id, r.logId), eq(hosLogs.driverId, d.id), eq(hosLogs.organizationId, r.orgId)));
  if (!log) throw notFound('Log');
  return { d, log };
}

/**
 * Declares (or withdraws) a log day as "day 1" of a Canadian off-duty deferral (C6, SOR/2005-313
 * s. 16); the next day is its day 2, so neither neighbour may be a declared day 1 too. The engine
 * reads the declarations from the log rows (`deferrals`).
 */
export async function setDeferral({ db, actor }: Scope, r: LogRef, input: HosDeferral): Promise<HosLogDay> {
  await db.transaction(async (tx) => {
    const { d, log } = await lockedLog(tx, r);
    if (!isCanadian(d.ruleset as RulesetId)) throw invalidField('declared', 'Off-duty deferral applies only to the Canadian rulesets');
    const was = log.deferralDeclaredAt !== null;
    if (was === input.declared) return;
    if (input.declared) {
      const declared = await tx
        .select({ logDate: hosLogs.logDate })
        .from(hosLogs)
        .where(
          and(eq(hosLogs.driverId, d.id), inArray(hosLogs.logDate, [previousDate(log.logDate), nextDate(log.logDate)]), isNotNull(hosLogs.deferralDeclaredAt)),
        );
      for (const n of declared) {
        if (n.logDate < log.logDate)
          throw invalidField('declared', `${log.logDate} is day 2 of the deferral declared on ${n.logDate}; it cannot be a day 1 too`);
        throw invalidField('declared', `The next day ${n.logDate} is declared day 1 of a deferral, so ${log.logDate} cannot make it its day 2`);
      }
    }
    await tx
      .update(hosLogs)
      .set({ deferralDeclaredAt: input.declared ? new Date() : null })
      .where(eq(hosLogs.id, log.id));
    await notifyHosChange(tx, r.orgId);
    await recordActivity(tx, {
      orgId: r.orgId,
      actor,
      action: 'SET_HOS_DEFERRAL',
      entityType: 'DRIVER',
      entityId: d.id,
      before: { logDate: log.logDate, declared: was },
      after: { logDate: log.logDate, declared: input.declared, driverName: `${d.firstName} ${d.lastName}` },
    });
  });
  return getLogDay({ db, orgId: r.orgId }, r.logId);
}

/**
 * Sets the header facts of a log day a person enters: shipping documents, trailers (the
 * organization's active TRAILER assets) and co-driver (another active driver of the organization).
 */
export async function updateLogHeader({ db, actor }: Scope, r: LogRef, input: HosLogHeader): Promise<HosLogDay> {
  await db.transaction(async (tx) => {
    const { d, log } = await lockedLog(tx, r);
    const trailerIds = [...new Set(input.trailerIds)];
    if (trailerIds.length) {
      const found = await tx
        .select({ id: assets.id })
        .from(assets)
        .where(and(eq(assets.organizationId, r.orgId), eq(assets.type, 'TRAILER'), eq(assets.status, 'ACTIVE'), inArray(assets.id, trailerIds)));
      const known = new Set(found.map((a) => a.id));
      const bad = input.trailerIds.findIndex((id) => !known.has(id));
      if (bad >= 0) throw invalidField(`trailerIds.${bad}`, 'Trailer must be an active trailer of the organization', 'hos.trailer_unknown');
    }
    if (input.coDriverId !== null) {
      if (input.coDriverId === d.id) throw invalidField('coDriverId', 'The co-driver must be another driver', 'hos.co_driver_self');
      const [co] = await tx
        .select({ id: drivers.id })
        .from(drivers)
        .where(and(eq(drivers.id, input.coDriverId), eq(drivers.organizationId, r.orgId), eq(drivers.status, 'ACTIVE')));
      if (!co) throw invalidField('coDriverId', 'Co-driver must be an active driver of the organization', 'hos.co_driver_unknown');
    }
    const after = { shippingDocuments: input.shippingDocuments, trailerIds, coDriverId: input.coDriverId };
    await tx.update(hosLogs).set(after).where(eq(hosLogs.id, log.id));
    await notifyHosChange(tx, r.orgId);
    await recordActivity(tx, {
      orgId: r.orgId,
      actor,
      action: 'UPDATE_HOS_LOG',
      entityType: 'DRIVER',
      entityId: d.id,
      before: { logDate: log.logDate, shippingDocuments: log.shippingDocuments, trailerIds: log.trailerIds, coDriverId: log.coDriverId },
      after: { logDate: log.logDate, ...after, driverName: `${d.firstName} ${d.lastName}` },
    });
  });
  return getLogDay({ db, orgId: r.orgId }, r.logId);
}
