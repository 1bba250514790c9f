import { and, asc, eq, gte, isNull, lt, min, ne, sql } from 'drizzle-orm';
import type { HosDriverChoices, HosDriverStatus, HosLogDay } from '@fleet/api-contract';
import { assets, drivers, hosEvents, hosLogs } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { availabilityOf, engineInputOf, LOOKBACK_MS } from './hos-clocks.service.ts';
import { driverDiagnostics, vehicleDiagnostics } from './hos-diagnostics.service.ts';
import { getLogDay } from './hos-log-day.service.ts';
import { countPending } from './hos-proposals.service.ts';
import { countDriverUnidentified } from './hos-unidentified.service.ts';
import { driverVehicleOf } from './hos-vehicle.ts';
import { driverRecordsOf, ensureLogDays, fleetDriversOf, fleetStateOf } from './hos.repository.ts';
import { logDateOf, previousDate } from './hos.time.ts';
import type { ReadScope } from '../auth/index.ts';

/** How far back the driver's screen lists days waiting for certification. */
const UNCERTIFIED_DAYS = 14;

/**
 * What the driver's screen shows besides the log day (decision 0115): the driver and their vehicle,
 * whether it moves, the clocks now (the availability row of the office's screen, from the same
 * engine call), today's log id, the past days waiting for certification, and the counts of pending
 * proposals and of unidentified driving to claim, with the vehicle's diagnostics in force.
 */
export async function driverStatus({ db, orgId, now = Date.now() }: ReadScope, driverId: string): Promise<HosDriverStatus> {
  const state = await fleetStateOf(db, orgId);
  const [[fleetDriver], [row], truck] = await Promise.all([
    fleetDriversOf(db, orgId, state, { driverId }),
    db
      .select({
        personalConveyanceAllowed: drivers.personalConveyanceAllowed,
        yardMovesAllowed: drivers.yardMovesAllowed,
        licenseNumber: drivers.licenseNumber,
        licenseState: drivers.licenseState,
      })
      .from(drivers)
      .where(and(eq(drivers.id, driverId), eq(drivers.organizationId, orgId))),
    driverVehicleOf(db, orgId, driverId, now),
  ]);
  if (!fleetDriver || !row) throw notFound('Driver');
  const today = logDateOf(now, fleetDriver.homeTimeZone, state.periodStart);
  let from = today;
  for (let i = 0; i < UNCERTIFIED_DAYS; i++) from = previousDate(from);
  const [records, ids, [first], open, pendingProposals, unidentifiedSegments, diagnostics, ownDiagnostics] = await Promise.all([
    driverRecordsOf(db, orgId, [driverId], now - LOOKBACK_MS, now, state),
    ensureLogDays(db, orgId, [{ driverId, logDate: today }]),
    db
      .select({ day: min(hosEvents.logDate) })
      .from(hosEvents)
      .where(and(eq(hosEvents.driverId, driverId), eq(hosEvents.recordStatus, 1), sql`${hosEvents.eventType} in (1, 2, 3)`)),
    db
      .select({ id: hosLogs.id, date: hosLogs.logDate })
      .from(hosLogs)
      .where(
        and(
          eq(hosLogs.driverId, driverId),
          eq(hosLogs.organizationId, orgId),
          gte(hosLogs.logDate, from),
          lt(hosLogs.logDate, today),
          isNull(hosLogs.certifiedAt),
        ),
      )
      .orderBy(asc(hosLogs.logDate)),
    countPending(db, orgId, driverId),
    countDriverUnidentified(db, orgId, driverId, now),
    truck.vehicle ? vehicleDiagnostics(db, orgId, [truck.vehicle.id], now, now + 1) : Promise.resolve([]),
    // The driver's own ELD's (the data transfer codes, decision 0185).
    driverDiagnostics(db, orgId, [driverId], now, now + 1),
  ]);
  const periods = records.periodsOf(driverId, now);
  const clocks = availabilityOf(fleetDriver, periods, now, state.periodStart, records.factsOf(driverId));
  const engine = { at: now, ...engineInputOf(fleetDriver, periods, now, state.periodStart, records.factsOf(driverId)) };
  const since = first?.day ?? null;
  return {
    driver: {
      id: fleetDriver.id,
      firstName: fleetDriver.firstName,
      lastName: fleetDriver.lastName,
      homeTimeZone: fleetDriver.homeTimeZone,
      ruleset: fleetDriver.ruleset,
      personalConveyanceAllowed: row.personalConveyanceAllowed,
      yardMovesAllowed: row.yardMovesAllowed,
      licenseNumber: row.licenseNumber,
      licenseState: row.licenseState,
    },
    vehicle: truck.vehicle ? { id: truck.vehicle.id, unitNumber: truck.vehicle.unitNumber, type: truck.vehicle.type } : null,
    moving: truck.moving,
    vehiclePositionAt: truck.position ? new Date(truck.position.at).toISOString() : null,
    clocks,
    today: { id: ids.get(`${driverId}|${today}`)!, date: today },
    // Days from the driver's first record on: a row made for a neighbouring link before that is no record to certify.
    uncertifiedDays: since ? open.filter((d) => d.date >= since) : [],
    pendingProposals,
    unidentifiedSegments,
    diagnostics: [...diagnostics, ...ownDiagnostics].filter((d) => d.active),
    engine,
  };
}

/** One of the driver's log days (the driver's inspection view reads them without HOS_READ); 404 "Log" for another driver's. */
export async function driverLogDay({ db, orgId, now = Date.now() }: ReadScope, driverId: string, logId: string): Promise<HosLogDay> {
  const [log] = await db
    .select({ id: hosLogs.id })
    .from(hosLogs)
    .where(and(eq(hosLogs.id, logId), eq(hosLogs.driverId, driverId), eq(hosLogs.organizationId, orgId)));
  if (!log) throw notFound('Log');
  return getLogDay({ db, orgId, now }, log.id);
}

/** The organization's active trailers and the driver's possible co-drivers (other active drivers), by name. */
export async function driverChoices({ db, orgId }: ReadScope, driverId: string): Promise<HosDriverChoices> {
  const [trailers, coDrivers] = await Promise.all([
    db
      .select({ id: assets.id, unitNumber: assets.unitNumber, type: assets.type })
      .from(assets)
      .where(and(eq(assets.organizationId, orgId), eq(assets.type, 'TRAILER'), eq(assets.status, 'ACTIVE')))
      .orderBy(asc(assets.unitNumber)),
    db
      .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName })
      .from(drivers)
      .where(and(eq(drivers.organizationId, orgId), eq(drivers.status, 'ACTIVE'), ne(drivers.id, driverId)))
      .orderBy(sql`lower(${drivers.lastName})`, sql`lower(${drivers.firstName})`),
  ]);
  return { trailers, coDrivers };
}
