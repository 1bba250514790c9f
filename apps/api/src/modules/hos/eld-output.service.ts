import { createHmac } from 'node:crypto';
import { and, desc, eq, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { EldInputError, writeEldFile, type WriteEldFileOptions } from '@fleet/eld';
import type { RulesetId } from '@fleet/hos';
import { ELD_OUTPUT_MAX_DAYS, HOS_EVENT_TYPES, type EldOutputEmail, type EldOutputQuery, type EldOutputSent } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, hosEvents, hosLogs, organizations, users } from '../../db/schema/index.ts';
import { conflict, invalidField, notFound } from '../../http/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { EldIdentity } from '../../config.ts';
import { recordActivity } from '../activity-log/index.ts';
import { eldFileOf, type EldPerson, type EldSourceEvent } from './eld-output.mapping.ts';
import { driverVehicleOf } from './hos-vehicle.ts';
import { periodStartOf } from './hos.repository.ts';
import { DAY_MS, dayStartMs, logDateOf, nextDate } from './hos.time.ts';
import type { ReadScope, Scope } from '../auth/index.ts';

// The ELD output file of a driver (49 CFR 395 Appendix A 4.8.2, decision 0116): the records of the
// period read from the database, mapped by eld-output.mapping.ts and written by @fleet/eld.

export interface EldOutput {
  fileName: string;
  text: string;
  from: string;
  to: string;
}

const eventColumns = {
  id: hosEvents.id,
  driverId: hosEvents.driverId,
  vehicleId: hosEvents.vehicleId,
  sequenceId: hosEvents.sequenceId,
  eventType: hosEvents.eventType,
  eventCode: hosEvents.eventCode,
  recordStatus: hosEvents.recordStatus,
  recordOrigin: hosEvents.recordOrigin,
  eventTime: hosEvents.eventTime,
  logDate: hosEvents.logDate,
  latitude: hosEvents.latitude,
  longitude: hosEvents.longitude,
  locationDescription: hosEvents.locationDescription,
  odometerM: hosEvents.odometerM,
  engineHours: hosEvents.engineHours,
  annotation: hosEvents.annotation,
  diagnosticCode: hosEvents.diagnosticCode,
  createdByUserId: hosEvents.createdByUserId,
};

/** An account's ELD username (7.18, 4-60 characters): its username or e-mail; a driver without an account gets a stable one from the record. */
const usernameOf = (u: { username: string | null; email: string | null } | null, fallback: string) => (u?.username || u?.email || fallback).slice(0, 60);

function range(q: Pick<EldOutputQuery, 'from' | 'to'>, today: string): { from: string; to: string } {
  const to = q.to ?? today;
  let from = q.from;
  if (!from) {
    from = to;
    for (let i = 0; i < 7; i++) from = new Date(Date.parse(`${from}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
  }
  if (from > to) throw invalidField('to', 'To must not be before From');
  if ((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1 > ELD_OUTPUT_MAX_DAYS)
    throw invalidField('to', `The file may cover at most ${ELD_OUTPUT_MAX_DAYS} days`);
  return { from, to };
}

/**
 * The ELD output file of a driver for log days `from`..`to` (default: today and the 7 days before, the
 * roadside period), with the officer's comment. Answers the 25-character file name (4.8.2.2) and the text.
 * Lines end with CR LF (the download's), or a bare CR (`lineEnding: '\r'`, what FMCSA's validator wants).
 */
export async function eldOutputFile(
  { db, orgId, now = Date.now() }: ReadScope,
  eld: EldIdentity,
  driverId: string,
  q: EldOutputQuery,
  options: Pick<WriteEldFileOptions, 'lineEnding'> = {},
): Promise<EldOutput> {
  const [[row], periodStart, truck] = await Promise.all([
    db
      .select({
        d: drivers,
        username: users.username,
        email: users.email,
        org: { name: organizations.name, dotNumber: organizations.dotNumber },
      })
      .from(drivers)
      .innerJoin(organizations, eq(organizations.id, drivers.organizationId))
      .leftJoin(users, eq(users.id, drivers.userId))
      .where(and(eq(drivers.id, driverId), eq(drivers.organizationId, orgId))),
    periodStartOf(db, orgId),
    driverVehicleOf(db, orgId, driverId, now),
  ]);
  if (!row) throw notFound('Driver');
  const d = row.d;
  const zone = d.homeTimeZone;
  const { from, to } = range(q, logDateOf(now, zone, periodStart));
  const startMs = dayStartMs(from, zone, periodStart);
  const endMs = dayStartMs(nextDate(to), zone, periodStart);

  const [events, logs] = await Promise.all([
    db
      .select(eventColumns)
      .from(hosEvents)
      .where(
        and(
          eq(hosEvents.organizationId, orgId),
          eq(hosEvents.driverId, d.id),
          gte(hosEvents.logDate, from),
          lte(hosEvents.logDate, to),
          sql`${hosEvents.eventType} <= 5`,
        ),
      ),
    db
      .select()
      .from(hosLogs)
      .where(and(eq(hosLogs.driverId, d.id), gte(hosLogs.logDate, from), lte(hosLogs.logDate, to)))
      .orderBy(desc(hosLogs.logDate)),
  ]);
  const vehicleIds = [...new Set([...events.map((e) => e.vehicleId), truck.vehicle?.id ?? null].filter((v): v is string => !!v))];
  const trailerIds = [...new Set(logs.flatMap((l) => l.trailerIds))];
  const coLog = logs.find((l) => l.coDriverId);
  const officeIds = [...new Set(events.filter((e) => e.recordOrigin === 3 && e.createdByUserId).map((e) => e.createdByUserId!))];
  const [vehicleEvents, assetRows, coRows, officeRows, engineEvents, ownEldEvents] = await Promise.all([
    vehicleIds.length
      ? db
          .select(eventColumns)
          .from(hosEvents)
          .where(
            and(
              eq(hosEvents.organizationId, orgId),
              isNull(hosEvents.driverId),
              inArray(hosEvents.vehicleId, vehicleIds),
              gte(hosEvents.eventTime, new Date(startMs)),
              lt(hosEvents.eventTime, new Date(endMs)),
              sql`${hosEvents.eventType} in (1, 2, 7)`,
            ),
          )
      : Promise.resolve([]),
    vehicleIds.length || trailerIds.length
      ? db
          .select({ id: assets.id, unitNumber: assets.unitNumber, vin: assets.vin })
          .from(assets)
          .where(and(eq(assets.organizationId, orgId), inArray(assets.id, [...vehicleIds, ...trailerIds])))
      : Promise.resolve([]),
    coLog?.coDriverId
      ? db
          .select({ firstName: drivers.firstName, lastName: drivers.lastName, username: users.username, email: users.email, id: drivers.id })
          .from(drivers)
          .leftJoin(users, eq(users.id, drivers.userId))
          .where(and(eq(drivers.id, coLog.coDriverId), eq(drivers.organizationId, orgId)))
      : Promise.resolve([]),
    officeIds.length
      ? db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username, email: users.email })
          .from(users)
          .where(inArray(users.id, officeIds))
      : Promise.resolve([]),
    engineEventsOf(db, orgId, vehicleIds, startMs, endMs),
    // The driver's own ELD's malfunctions and diagnostics (the data transfer codes, decision 0185):
    // those before the period set the first records' indicators.
    db
      .select(eventColumns)
      .from(hosEvents)
      .where(
        and(
          eq(hosEvents.organizationId, orgId),
          eq(hosEvents.driverId, d.id),
          isNull(hosEvents.vehicleId),
          eq(hosEvents.eventType, HOS_EVENT_TYPES.MALFUNCTION),
          lt(hosEvents.eventTime, new Date(endMs)),
        ),
      ),
  ]);
  const byId = new Map(assetRows.map((a) => [a.id, a]));
  // The vehicle in use now, else the one of the driver's latest record in the period.
  const latestVehicle = [...events].filter((e) => e.vehicleId).sort((a, b) => b.eventTime.getTime() - a.eventTime.getTime())[0]?.vehicleId ?? null;
  const currentVehicle = truck.vehicle?.id ?? latestVehicle;
  const currentLog = logs[0];
  const co = coRows[0];
  const driverUsername = usernameOf(row.username || row.email ? { username: row.username, email: row.email } : null, `driver-${d.id.slice(0, 8)}`);
  const nowIso = new Date(now).toISOString();
  const authenticationValue = createHmac('sha256', eld.authKey)
    .update(`${eld.registrationId}|${eld.identifier}|${d.id}|${nowIso}`)
    .digest('base64url')
    .slice(0, 32);
  const file = eldFileOf({
    now,
    zone,
    periodStart,
    driver: {
      firstName: d.firstName,
      lastName: d.lastName,
      username: driverUsername,
      licenseState: d.licenseState ?? '',
      licenseNumber: d.licenseNumber ?? '',
      exempt: d.eldExempt,
      ruleset: d.ruleset as RulesetId,
    },
    coDriver: co
      ? { firstName: co.firstName, lastName: co.lastName, username: usernameOf(co.username || co.email ? co : null, `driver-${co.id.slice(0, 8)}`) }
      : null,
    carrier: { usdotNumber: row.org.dotNumber, name: row.org.name },
    eld: { registrationId: eld.registrationId, identifier: eld.identifier, authenticationValue },
    comment: q.comment ?? '',
    current: {
      vehicleId: currentVehicle,
      trailers: (currentLog?.trailerIds ?? []).map((t) => byId.get(t)?.unitNumber).filter((u): u is string => !!u),
      shippingDocuments: currentLog?.shippingDocuments ?? [],
      position: truck.position ? { latitude: truck.position.latitude, longitude: truck.position.longitude } : null,
      odometerM: truck.position?.odometerM ?? null,
      engineHours: truck.position?.engineHours ?? null,
    },
    vehicles: new Map(vehicleIds.filter((v) => byId.has(v)).map((v) => [v, { unitNumber: byId.get(v)!.unitNumber, vin: byId.get(v)!.vin }])),
    events: events as EldSourceEvent[],
    engineEvents,
    days: new Map(
      logs.map((l) => [
        l.logDate,
        { trailers: l.trailerIds.map((t) => byId.get(t)?.unitNumber).filter((u): u is string => !!u), shippingDocuments: l.shippingDocuments },
      ]),
    ),
    vehicleEvents: vehicleEvents as EldSourceEvent[],
    ownEldEvents: (ownEldEvents as EldSourceEvent[]).map((e) => (e.eventTime.getTime() < startMs ? { ...e, before: true } : e)),
    officeUsers: new Map<string, EldPerson>(
      officeRows.map((u) => [
        u.id,
        { firstName: u.firstName ?? '', lastName: u.lastName ?? u.email ?? '', username: usernameOf(u, `user-${u.id.slice(0, 8)}`) },
      ]),
    ),
  });
  try {
    const out = writeEldFile(file, options);
    return { fileName: out.fileName, text: out.text, from, to };
  } catch (err) {
    // A stored value the file cannot hold (a unit number longer than 10 characters…): say which.
    if (err instanceof EldInputError)
      throw conflict(`The ELD output file cannot hold a stored value: ${err.reason} (${err.path})`, `eld: ${err.path}: ${err.reason}`);
    throw err;
  }
}

/**
 * The type-6 records of the CMVs in [startMs, endMs), whoever was signed in, and each CMV's last
 * power-up before the period (marked `before`: what its first records count their miles from).
 */
async function engineEventsOf(
  db: DbOrTx,
  orgId: string,
  vehicleIds: readonly string[],
  startMs: number,
  endMs: number,
): Promise<Array<EldSourceEvent & { before?: boolean }>> {
  if (vehicleIds.length === 0) return [];
  const inPeriod = db
    .select(eventColumns)
    .from(hosEvents)
    .where(
      and(
        eq(hosEvents.organizationId, orgId),
        inArray(hosEvents.vehicleId, [...vehicleIds]),
        eq(hosEvents.eventType, HOS_EVENT_TYPES.ENGINE_POWER),
        gte(hosEvents.eventTime, new Date(startMs)),
        lt(hosEvents.eventTime, new Date(endMs)),
      ),
    );
  const before = Promise.all(
    vehicleIds.map((v) =>
      db
        .select(eventColumns)
        .from(hosEvents)
        .where(
          and(
            eq(hosEvents.organizationId, orgId),
            eq(hosEvents.vehicleId, v),
            eq(hosEvents.eventType, HOS_EVENT_TYPES.ENGINE_POWER),
            inArray(hosEvents.eventCode, [1, 2]),
            lt(hosEvents.eventTime, new Date(startMs)),
          ),
        )
        .orderBy(desc(hosEvents.eventTime))
        .limit(1),
    ),
  );
  const [rows, prior] = await Promise.all([inPeriod, before]);
  return [...(rows as EldSourceEvent[]), ...prior.flat().map((e) => ({ ...(e as EldSourceEvent), before: true }))];
}

/** Sends a driver's ELD output file by e-mail (to an officer's address) as an attachment, and logs who sent it where. */
export async function sendEldOutput(
  { db, orgId, actor, now = Date.now() }: Scope,
  { eld, mailer }: { eld: EldIdentity; mailer: Mailer },
  driverId: string,
  input: EldOutputEmail,
): Promise<EldOutputSent> {
  const file = await eldOutputFile({ db, orgId, now }, eld, driverId, input);
  const [d] = await db.select({ firstName: drivers.firstName, lastName: drivers.lastName }).from(drivers).where(eq(drivers.id, driverId));
  const who = d ? `${d.firstName} ${d.lastName}` : 'a driver';
  await mailer.send({
    to: input.email,
    subject: `ELD output file ${file.fileName} (${who}, ${file.from} to ${file.to})`,
    text: `The ELD output file of ${who} for the log days ${file.from} to ${file.to} is attached (${file.fileName}.csv, 49 CFR 395 Appendix A 4.8.2).${input.comment ? `\nOutput file comment: ${input.comment}` : ''}\n`,
    attachments: [{ filename: `${file.fileName}.csv`, content: file.text, contentType: 'text/csv' }],
  });
  await recordActivity(db, {
    orgId,
    actor,
    action: 'SEND_ELD_OUTPUT',
    entityType: 'DRIVER',
    entityId: driverId,
    after: { email: input.email, fileName: file.fileName, from: file.from, to: file.to, comment: input.comment ?? null, driverName: who },
  });
  return { sentTo: input.email, fileName: file.fileName, from: file.from, to: file.to };
}
