import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { CANADA_PERSONAL_USE_KM_PER_DAY, dailyTotals } from '@fleet/hos';
import {
  HOS_EVENT_TYPES,
  HOS_RECORD_ORIGINS,
  HOS_RECORD_STATUSES,
  isCanadianRuleset,
  terminalAddress,
  type HosEvent,
  type HosLogDay,
  type HosRecordOrigin,
  type HosRecordStatus,
} from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, hosEvents, hosLogs, organizations, terminals } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { LOOKBACK_MS } from './hos-clocks.service.ts';
import { dayTotals } from './hos-day-totals.ts';
import { dayDistance } from './hos-distance.ts';
import { specialOfCode, statusOfCode } from './hos.periods.ts';
import { startsInVehicle, vehiclesAtDayStart } from './hos-day-start-vehicle.ts';
import { auditOf, optionsAt } from './hos-audit.ts';
import { driverDiagnostics, vehicleDiagnostics } from './hos-diagnostics.service.ts';
import { distanceSincePowerUp, powerUpBefore, type PowerUp } from './engine-events/derive.ts';
import { monotonicTotals, type TotalsRecord } from './engine-events/vehicle-totals.ts';
import { powerUpsBefore } from './engine-events/engine-events.repository.ts';
import { driverHosColumns, driverRecordsOf, engineOptions, ensureLogDays, fleetStateColumnsOf, fleetStateFrom } from './hos.repository.ts';
import { dayStartMs, logDateOf, nextDate, previousDate } from './hos.time.ts';
import type { ReadScope } from '../auth/index.ts';

export const nameOf = <T extends Record<string, number>>(codes: T, code: number): keyof T =>
  Object.entries(codes).find(([, v]) => v === code)?.[0] ?? Object.keys(codes)[0]!;
const iso = (ms: number) => new Date(ms).toISOString();

type EventRow = typeof hosEvents.$inferSelect;
type VehicleRef = { id: string; unitNumber: string; type: 'VEHICLE' | 'TRAILER' } | null;

/** An event as the API shows it: codes with their names, the vehicle as a reference. */
export function presentEvent(e: EventRow, vehicle: VehicleRef): HosEvent {
  return {
    id: e.id,
    sequenceId: e.sequenceId,
    eventType: e.eventType,
    eventCode: e.eventCode,
    status: e.eventType === HOS_EVENT_TYPES.DUTY_STATUS ? statusOfCode(e.eventCode) : null,
    special: e.eventType === HOS_EVENT_TYPES.SPECIAL_CATEGORY ? specialOfCode(e.eventCode) : null,
    recordStatus: nameOf(HOS_RECORD_STATUSES, e.recordStatus) as HosRecordStatus,
    recordOrigin: nameOf(HOS_RECORD_ORIGINS, e.recordOrigin) as HosRecordOrigin,
    at: e.eventTime.toISOString(),
    logDate: e.logDate,
    latitude: e.latitude,
    longitude: e.longitude,
    locationDescription: e.locationDescription,
    vehicle: vehicle?.id ? vehicle : null,
    odometerM: e.odometerM,
    engineHours: e.engineHours,
    annotation: e.annotation,
    replacesEventId: e.replacesEventId,
    editRequestId: e.editRequestId,
    createdAt: e.createdAt.toISOString(),
  };
}

type PowerUpList = Array<PowerUp & { code: number }>;

/**
 * The day's records and its vehicles' power-ups with totals that never go down per vehicle (issue
 * 46): the power-ups before the day come first in time, so the day's first records count on from
 * the last one; a power-up that is one of the day's records is read once, with its position.
 */
function withMonotonicTotals(dayEvents: EventRow[], powerUps: Map<string, PowerUpList>): { dayEvents: EventRow[]; powerUps: Map<string, PowerUpList> } {
  const isPowerUp = (e: EventRow) => e.eventType === HOS_EVENT_TYPES.ENGINE_POWER && (e.eventCode === 1 || e.eventCode === 2) && e.vehicleId !== null;
  const inDay = new Set(dayEvents.filter(isPowerUp).map((e) => `${e.vehicleId}|${e.eventTime.getTime()}`));
  const ups = [...powerUps]
    .flatMap(([vehicleId, list]) =>
      list.map((u) => ({
        vehicleId,
        eventTime: new Date(u.time),
        sequenceId: -1,
        latitude: null,
        longitude: null,
        odometerM: u.odometerM,
        engineHours: u.engineHours,
        code: u.code,
      })),
    )
    .filter((u) => !inDay.has(`${u.vehicleId}|${u.eventTime.getTime()}`));
  const fixed = monotonicTotals<TotalsRecord & { code?: number; eventType?: number; eventCode?: number }>([...ups, ...dayEvents]);
  const day = fixed.slice(ups.length) as EventRow[];
  const out = new Map<string, PowerUpList>();
  const add = (vehicleId: string, u: PowerUp & { code: number }) => {
    const list = out.get(vehicleId) ?? [];
    list.push(u);
    out.set(vehicleId, list);
  };
  for (const u of fixed.slice(0, ups.length))
    add(u.vehicleId!, { time: u.eventTime.getTime(), odometerM: u.odometerM, engineHours: u.engineHours, code: u.code! });
  for (const e of day.filter(isPowerUp))
    add(e.vehicleId!, { time: e.eventTime.getTime(), odometerM: e.odometerM, engineHours: e.engineHours, code: e.eventCode });
  for (const list of out.values()) list.sort((a, b) => a.time - b.time);
  return { dayEvents: day, powerUps: out };
}

/**
 * The log day's two statements, built once per database (a pool or the embedded database; a
 * transaction builds its own): one for everything but the events (the log row, driver, carrier, the
 * organization's HoS read state, the co-driver, the trailers and the neighbouring days' rows), one
 * for the day's events. Building a Drizzle query cost about as much CPU as PGlite spent running it.
 */
function buildLogDayQueries(db: DbOrTx) {
  const co = alias(drivers, 'co_driver');
  // Sub-selects name the organization as the parameter, not the outer row's: Citus keeps them on its shard.
  const neighbour = (days: number) =>
    sql<
      string | null
    >`(select n.id::text from hos_logs n where n.organization_id = ${sql.placeholder('orgId')}::uuid and n.driver_id = ${hosLogs.driverId} and n.log_date = ${hosLogs.logDate} + ${sql.raw(String(days))})`;
  const row = db
    .select({
      log: hosLogs,
      driver: driverHosColumns,
      org: {
        name: organizations.name,
        dotNumber: organizations.dotNumber,
        addressLine1: organizations.addressLine1,
        city: organizations.city,
        state: organizations.state,
      },
      // The driver's home terminal (issue 46): its address heads the log.
      terminal: {
        id: terminals.id,
        name: terminals.name,
        addressLine1: terminals.addressLine1,
        city: terminals.city,
        state: terminals.state,
        postalCode: terminals.postalCode,
      },
      ...fleetStateColumnsOf(sql`${sql.placeholder('orgId')}::uuid`),
      coDriver: { id: co.id, firstName: co.firstName, lastName: co.lastName },
      trailers: sql<Array<
        NonNullable<VehicleRef>
      > | null>`(select json_agg(json_build_object('id', t.id, 'unitNumber', t.unit_number, 'type', t.type) order by t.unit_number) from assets t where t.organization_id = ${sql.placeholder('orgId')}::uuid and t.id = any(${hosLogs.trailerIds}))`,
      previousId: neighbour(-1),
      nextId: neighbour(1),
    })
    .from(hosLogs)
    .innerJoin(drivers, and(eq(drivers.id, hosLogs.driverId), eq(drivers.organizationId, hosLogs.organizationId)))
    .innerJoin(organizations, eq(organizations.id, hosLogs.organizationId))
    .leftJoin(terminals, and(eq(terminals.organizationId, drivers.organizationId), eq(terminals.id, drivers.homeTerminalId)))
    .leftJoin(co, and(eq(co.id, hosLogs.coDriverId), eq(co.organizationId, hosLogs.organizationId)))
    .where(and(eq(hosLogs.id, sql.placeholder('id')), eq(hosLogs.organizationId, sql.placeholder('orgId'))))
    .prepare('hos_log_day_row');
  const events = db
    .select({ e: hosEvents, vehicle: { id: assets.id, unitNumber: assets.unitNumber, type: assets.type } })
    .from(hosEvents)
    .leftJoin(assets, and(eq(assets.id, hosEvents.vehicleId), eq(assets.organizationId, hosEvents.organizationId)))
    .where(
      and(
        eq(hosEvents.organizationId, sql.placeholder('orgId')),
        eq(hosEvents.driverId, sql.placeholder('driverId')),
        eq(hosEvents.logDate, sql.placeholder('logDate')),
      ),
    )
    .orderBy(asc(hosEvents.eventTime), asc(hosEvents.sequenceId))
    .prepare('hos_log_day_events');
  return { row, events };
}

const logDayStatements = new WeakMap<object, ReturnType<typeof buildLogDayQueries>>();
function logDayQueries(db: DbOrTx): ReturnType<typeof buildLogDayQueries> {
  const client = (db as { $client?: object }).$client;
  if (!client) return buildLogDayQueries(db);
  let q = logDayStatements.get(client);
  if (!q) logDayStatements.set(client, (q = buildLogDayQueries(db)));
  return q;
}

/**
 * One driver's log day: the §395.8 header, graph segments, totals per status, every event of the
 * day with its versions, the violations intersecting the day (audited over the 15 days before, so
 * cycle rules are right) and the certification.
 */
export async function getLogDay({ db, orgId, now = Date.now() }: ReadScope, id: string): Promise<HosLogDay> {
  const [row] = await logDayQueries(db).row.execute({ id, orgId });
  if (!row) throw notFound('Log');
  const { log, driver: d, org } = row;
  const state = fleetStateFrom(row);
  const { periodStart } = state;
  const startMs = dayStartMs(log.logDate, d.homeTimeZone, periodStart);
  const endMs = dayStartMs(nextDate(log.logDate), d.homeTimeZone, periodStart);
  const [records, events] = await Promise.all([
    driverRecordsOf(db, orgId, [d.id], startMs - LOOKBACK_MS, endMs, state),
    logDayQueries(db).events.execute({ orgId, driverId: d.id, logDate: log.logDate }),
  ]);
  const trailers = row.trailers ?? [];
  const coDriver = row.coDriver?.id ? [row.coDriver] : [];
  const dutyEvents = records.eventsOf(d.id);
  const periods = records.periodsOf(d.id, Math.min(endMs, Math.max(now, startMs)));
  // Neighbours: the day before once the driver has records before this day, the day after up to
  // today; their rows are created on first need (a write only when one is missing).
  const prevDate = previousDate(log.logDate);
  const followDate = nextDate(log.logDate);
  const neighbours = new Map<string, string>();
  if (row.previousId) neighbours.set(`${d.id}|${prevDate}`, row.previousId);
  if (row.nextId) neighbours.set(`${d.id}|${followDate}`, row.nextId);
  const missing = [
    ...(!row.previousId && dutyEvents.some((e) => e.at < startMs) ? [{ driverId: d.id, logDate: prevDate }] : []),
    ...(!row.nextId && endMs <= now ? [{ driverId: d.id, logDate: followDate }] : []),
  ];
  if (missing.length) for (const [k, v] of await ensureLogDays(db, orgId, missing)) neighbours.set(k, v);
  const refOf = (date: string) => {
    const id = neighbours.get(`${d.id}|${date}`);
    return id ? { id, date } : null;
  };
  const opts = engineOptions(d, periodStart, records.factsOf(d.id));
  const day = periods.length ? dailyTotals(periods, opts).find((t) => t.date === log.logDate) : undefined;
  const segments = periods
    .filter((p) => p.end > startMs && p.start < endMs)
    .map((p) => ({ status: p.status, special: p.special ?? null, start: iso(Math.max(p.start, startMs)), end: iso(Math.min(p.end, endMs)) }));
  const audit = auditOf(periods, d, periodStart, records.factsOf(d.id));
  const dayFindings = audit.dayFindings.filter((f) => f.day === log.logDate);
  const pc = audit.personalConveyance.find((p) => p.day === log.logDate);
  const violations = periods.length
    ? audit.violations
        .filter((v) => Date.parse(v.end) > startMs && Date.parse(v.start) < endMs)
        .map((v) => ({
          rule: v.rule,
          start: v.start,
          end: v.end,
          durationMs: Date.parse(v.end) - Date.parse(v.start),
          severity: v.severity,
          logDate: logDateOf(Date.parse(v.start), d.homeTimeZone, periodStart),
          // The ruleset in force where the violation is (the other side's after a border crossing).
          ruleset: records.factsOf(d.id)?.crossings ? optionsAt(Date.parse(v.start), d, periodStart, records.factsOf(d.id)).ruleset : d.ruleset,
        }))
    : [];
  // A drive or on-duty period carried over midnight used its vehicle this day too (4.8.1.3).
  const carried = startsInVehicle(dutyEvents, startMs) ? (await vehiclesAtDayStart(db, orgId, [{ driverId: d.id, startMs }])).get(d.id) : undefined;
  const vehicles = new Map([...(carried ? [carried] : []), ...events.flatMap((r) => (r.vehicle?.id ? [r.vehicle] : []))].map((v) => [v.id, v]));
  // Each record's distance and engine hours since its vehicle's last power-up (decision 0155), the
  // totals never going down per vehicle across its power-ups and the day's records (issue 46).
  const { dayEvents, powerUps } = withMonotonicTotals(
    events.map((r) => r.e),
    await powerUpsBefore(db, orgId, [...vehicles.keys()], endMs),
  );
  const distance = dayDistance(dayEvents);
  const presented = events.map(({ vehicle }, i) => {
    const e = dayEvents[i]!;
    const p = presentEvent(e, vehicle);
    const list = e.vehicleId ? powerUps.get(e.vehicleId) : undefined;
    if (list && e.eventType !== HOS_EVENT_TYPES.ENGINE_POWER)
      p.sincePowerUp = distanceSincePowerUp(powerUpBefore(list, e.eventTime.getTime()), e.odometerM, e.engineHours);
    return p;
  });
  const office = [org.addressLine1, [org.city, org.state].filter(Boolean).join(', ')].filter(Boolean).join(', ') || null;
  // The driver's terminal, named and addressed; a driver without one works from the main office.
  const terminal = row.terminal?.id ? `${row.terminal.name}, ${terminalAddress(row.terminal)}` : office;
  return {
    id: log.id,
    header: {
      date: log.logDate,
      carrier: { name: org.name, mainOffice: office, dotNumber: org.dotNumber },
      homeTerminal: terminal,
      driver: { id: d.id, firstName: d.firstName, lastName: d.lastName },
      coDriver: coDriver[0] ?? null,
      vehicles: [...vehicles.values()],
      trailers,
      shippingDocuments: log.shippingDocuments,
      totalDistanceM: distance.distanceM,
      startOdometerM: distance.startM,
      endOdometerM: distance.endM,
      timeZone: d.homeTimeZone,
      periodStart,
      ruleset: d.ruleset,
    },
    dayStart: iso(startMs),
    dayEnd: iso(endMs),
    segments,
    totals: dayTotals(
      day,
      startMs,
      endMs,
      now,
      dutyEvents.some((e) => e.at < endMs),
    ),
    events: presented,
    violations,
    dayFindings,
    personalConveyance: pc ? { km: pc.km, overKm: pc.overKm, limitKm: isCanadianRuleset(d.ruleset) ? CANADA_PERSONAL_USE_KM_PER_DAY : null } : null,
    certification: { certified: log.certifiedAt !== null, certifiedAt: log.certifiedAt?.toISOString() ?? null, count: log.certificationCount },
    deferral: { declared: log.deferralDeclaredAt !== null, declaredAt: log.deferralDeclaredAt?.toISOString() ?? null },
    // The day's vehicles' and the driver's own (the data transfer codes, decision 0185).
    diagnostics: (
      await Promise.all([vehicleDiagnostics(db, orgId, [...vehicles.keys()], startMs, endMs), driverDiagnostics(db, orgId, [d.id], startMs, endMs)])
    ).flat(),
    previous: refOf(prevDate),
    next: refOf(followDate),
  };
}
