import { homeTerminalTime, utcOffsetHours, type EldEvent, type EldFile, type EldPosition, type EldUnidentifiedEvent } from '@fleet/eld';
import type { RulesetId } from '@fleet/hos';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS } from '@fleet/api-contract';
import { PASSENGER_CODE, WAITING_CODE } from './hos.periods.ts';
import { powerUpBefore, sincePowerUp, type PowerUp } from './engine-events/derive.ts';
import { monotonicTotals } from './engine-events/vehicle-totals.ts';

// hos_events rows -> the @fleet/eld file model (decision 0116). Pure: the service reads the rows, this
// decides every field, so the round trip (file -> parse -> same events) is tested without a server.

const M_PER_MILE = 1609.344;

/** A stored record as the mapping needs it (hos_events columns plus its vehicle's unit number and VIN). */
export interface EldSourceEvent {
  id: string;
  driverId: string | null;
  vehicleId: string | null;
  sequenceId: number;
  eventType: number;
  eventCode: number;
  recordStatus: number;
  recordOrigin: number;
  eventTime: Date;
  logDate: string;
  latitude: number | null;
  longitude: number | null;
  locationDescription: string | null;
  odometerM: number | null;
  engineHours: number | null;
  annotation: string | null;
  diagnosticCode: string | null;
  createdByUserId: string | null;
}

export interface EldPerson {
  firstName: string;
  lastName: string;
  username: string;
}

export interface EldSource {
  now: number;
  /** The driver's home terminal zone. */
  zone: string;
  /** The carrier's 24-hour period start, HH:MM. */
  periodStart: string;
  driver: EldPerson & { licenseState: string; licenseNumber: string; exempt: boolean; ruleset: RulesetId };
  coDriver: EldPerson | null;
  carrier: { usdotNumber: string | null; name: string };
  eld: { registrationId: string; identifier: string; authenticationValue: string };
  comment: string;
  /** The CMV the driver uses now (or last used in the period), its trailers and shipping documents. */
  current: {
    vehicleId: string | null;
    trailers: readonly string[];
    shippingDocuments: readonly string[];
    position: { latitude: number; longitude: number } | null;
    odometerM: number | null;
    /** The CMV's total engine hours now (ECM), null when its device reports none. */
    engineHours?: number | null;
  };
  vehicles: ReadonlyMap<string, { unitNumber: string; vin: string | null }>;
  /** The driver's records of the period: duty status, intermediate logs, special categories, certifications, logins (every status). */
  events: readonly EldSourceEvent[];
  /** The CMVs' own records of the period: unidentified driving (types 1-2) and malfunctions/diagnostics (type 7). */
  vehicleEvents: readonly EldSourceEvent[];
  /** Office users who requested edits in the period (support personnel, account type S). */
  officeUsers: ReadonlyMap<string, EldPerson>;
  /**
   * Engine power-up and shut-down records (type 6) of the period's CMVs, whoever was signed in, and
   * each CMV's last power-up before the period (`before`: only counted from, not listed). Decision 0155.
   */
  engineEvents?: ReadonlyArray<EldSourceEvent & { before?: boolean }>;
  /** The driver's trailers and shipping documents per log day (the engine records' fields). */
  days?: ReadonlyMap<string, { trailers: readonly string[]; shippingDocuments: readonly string[] }>;
  /**
   * The driver's own ELD's type-7 records (the data transfer codes 4 and S, decision 0185) up to the
   * period's end; those before it (`before`) only set the indicators, the period's are listed too.
   */
  ownEldEvents?: ReadonlyArray<EldSourceEvent & { before?: boolean }>;
}

/** 7 or 8, the multiday basis of a ruleset's cycle (Appendix A 7.25). */
export function multidayBasis(ruleset: RulesetId): 7 | 8 {
  switch (ruleset) {
    case 'US_PROPERTY_60_7':
    case 'US_PASSENGER_60_7':
    case 'TX_INTRASTATE':
    case 'CA_SOUTH_CYCLE_1':
    case 'FL_INTRASTATE_70_7':
    case 'AK_PROPERTY_70_7':
    case 'AK_PASSENGER_70_7':
    case 'MX_NOM_087':
      return 7;
    default:
      return 8;
  }
}

/** Text as the file holds it: a comma or a line break in a value becomes `;` (4.8.2.1), so the model equals the file read back. */
const safe = (text: string): string => text.replace(/\r\n|[,\r\n]/g, ';');
const miles = (m: number | null): number | null => (m === null ? null : Math.floor(m / M_PER_MILE));
const seq = (n: number) => n & 0xffff;
/** Total engine hours to the tenth (7.19), null when unknown. */
const hours = (h: number | null): number | null => (h === null ? null : Math.floor(Math.round(h * 100) / 10) / 10);
/** A VIN the file can hold (17 characters A-Z0-9), else empty. */
const vinOf = (vin: string | null) => (vin && /^[A-Z0-9]{17}$/i.test(vin) ? vin.toUpperCase() : '');

/** Trailer numbers without spaces, as many as fit the 32 characters of 7.42. */
export function trailerNumbers(units: readonly string[]): string[] {
  const out: string[] = [];
  let length = 0;
  for (const u of units) {
    const t = u.replace(/\s+/g, '-').slice(0, 10);
    if (!t) continue;
    const add = (out.length ? 1 : 0) + t.length;
    if (length + add > 32) break;
    out.push(t);
    length += add;
  }
  return out;
}

function position(e: EldSourceEvent, reduced: boolean): EldPosition {
  if (e.latitude !== null && e.longitude !== null) return { kind: 'fix', latitude: e.latitude, longitude: e.longitude, reduced };
  // No coordinates: a place the driver or office typed is a manual location (M), else no valid fix (X).
  return e.locationDescription && (e.recordOrigin === HOS_RECORD_ORIGINS.DRIVER || e.recordOrigin === HOS_RECORD_ORIGINS.OTHER)
    ? { kind: 'manual' }
    : { kind: 'none' };
}

/** Whether a malfunction (codes 1/2) or a data diagnostic (3/4) was in force at an instant, from sorted type-7 records. */
function inForceAt(list: readonly EldSourceEvent[], at: number): { malfunction: boolean; diagnostic: boolean } {
  const open = new Set<string>();
  for (const e of list) {
    if (e.eventTime.getTime() > at) break;
    const key = `${e.eventCode <= 2 ? 'M' : 'D'}${e.diagnosticCode}`;
    if (e.eventCode === 1 || e.eventCode === 3) open.add(key);
    else open.delete(key);
  }
  return { malfunction: [...open].some((k) => k.startsWith('M')), diagnostic: [...open].some((k) => k.startsWith('D')) };
}

const byTime = (a: EldSourceEvent, b: EldSourceEvent) => a.eventTime.getTime() - b.eventTime.getTime() || a.sequenceId - b.sequenceId;

/**
 * Whether a malfunction or a data diagnostic was in force at an instant on each vehicle, or on the
 * driver's own ELD (the data transfer codes, `own`): a record's indicators show either.
 */
function indicators(vehicleEvents: readonly EldSourceEvent[], own: readonly EldSourceEvent[] = []) {
  const byVehicle = new Map<string, EldSourceEvent[]>();
  for (const e of vehicleEvents) {
    if (e.eventType !== HOS_EVENT_TYPES.MALFUNCTION || !e.vehicleId) continue;
    const list = byVehicle.get(e.vehicleId);
    if (list) list.push(e);
    else byVehicle.set(e.vehicleId, [e]);
  }
  for (const list of byVehicle.values()) list.sort(byTime);
  const ownSorted = own.filter((e) => e.eventType === HOS_EVENT_TYPES.MALFUNCTION).sort(byTime);
  return (vehicleId: string | null, at: number, withOwn = true): { malfunction: boolean; diagnostic: boolean } => {
    const v = inForceAt((vehicleId && byVehicle.get(vehicleId)) || [], at);
    if (!withOwn || ownSorted.length === 0) return v;
    const o = inForceAt(ownSorted, at);
    return { malfunction: v.malfunction || o.malfunction, diagnostic: v.diagnostic || o.diagnostic };
  };
}

/** Personal conveyance in force (reduced precision, 4.7.3) at each of the driver's events. */
function personalUse(events: readonly EldSourceEvent[]): Set<string> {
  const active = events.filter(
    (e) => e.recordStatus === 1 && (e.eventType === HOS_EVENT_TYPES.DUTY_STATUS || e.eventType === HOS_EVENT_TYPES.SPECIAL_CATEGORY),
  );
  active.sort((a, b) => a.eventTime.getTime() - b.eventTime.getTime() || a.sequenceId - b.sequenceId);
  const out = new Set<string>();
  let status = 0;
  let pc = false;
  // The status and the category set at one instant belong together: judge them after both.
  for (let i = 0; i < active.length;) {
    const t = active[i]!.eventTime.getTime();
    let j = i;
    for (; j < active.length && active[j]!.eventTime.getTime() === t; j++) {
      const e = active[j]!;
      if (e.eventType === HOS_EVENT_TYPES.DUTY_STATUS) status = e.eventCode;
      else pc = e.eventCode === 1;
    }
    if (pc && status === 1) for (let k = i; k < j; k++) out.add(active[k]!.id);
    i = j;
  }
  return out;
}

/** Most recent first, the later record (higher sequence id) first at one instant: the order the file lists them in (4.8.2.1). */
function newestFirst<T extends { at: string; sequenceId: number }>(list: T[]): T[] {
  return list.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.sequenceId - a.sequenceId));
}

/**
 * The source with each vehicle's total miles and engine hours never going down across all its
 * records of the period (the driver's, the vehicle's own, the engine's; issue 46), so every
 * accumulated value of the file counts from a power-up that is not above it.
 */
function withMonotonicTotals(src: EldSource): EldSource {
  const engine = src.engineEvents ?? [];
  const all: EldSourceEvent[] = [...src.events, ...src.vehicleEvents, ...engine];
  const fixed = monotonicTotals(all);
  const of = new Map<EldSourceEvent, EldSourceEvent>(all.map((e, i) => [e, fixed[i]!]));
  const swap = <T extends EldSourceEvent>(list: readonly T[]): T[] => list.map((e) => of.get(e) as T);
  // The header's totals are the CMV's latest fix: not below what its records already carry.
  const top = (pick: (e: EldSourceEvent) => number | null) =>
    Math.max(-Infinity, ...fixed.filter((e) => e.vehicleId === src.current.vehicleId).map((e) => pick(e) ?? -Infinity));
  const atLeast = (v: number | null | undefined, floor: number) => (v === null || v === undefined || v >= floor ? (v ?? null) : floor);
  const current = src.current.vehicleId
    ? {
        ...src.current,
        odometerM: atLeast(
          src.current.odometerM,
          top((e) => e.odometerM),
        ),
        engineHours: atLeast(
          src.current.engineHours,
          top((e) => e.engineHours),
        ),
      }
    : src.current;
  return { ...src, current, events: swap(src.events), vehicleEvents: swap(src.vehicleEvents), ...(src.engineEvents ? { engineEvents: swap(engine) } : {}) };
}

/** The ELD output file model of a driver's period, each list in the file's order. */
export function eldFileOf(input: EldSource): EldFile {
  const src = withMonotonicTotals(input);
  const local = (d: Date | number) => homeTerminalTime(d, src.zone);
  // A team driver's passenger-seat marker and well-site waiting time (§395.1(d)(2)) have no ELD code
  // (Table 6): the file shows that time as the OFF duty status it is.
  const recorded = src.events.filter(
    (e) =>
      e.eventType <= HOS_EVENT_TYPES.SPECIAL_CATEGORY &&
      !(e.eventType === HOS_EVENT_TYPES.SPECIAL_CATEGORY && (e.eventCode === PASSENGER_CODE || e.eventCode === WAITING_CODE)),
  );
  const unidentified = src.vehicleEvents.filter((e) => e.eventType <= HOS_EVENT_TYPES.SPECIAL_CATEGORY);

  // CMV list: the current one first, then by the latest record on each (most recent first, 4.8.2.1.3).
  const lastUse = new Map<string, number>();
  for (const e of [...src.events, ...src.vehicleEvents]) {
    if (e.vehicleId && src.vehicles.has(e.vehicleId)) lastUse.set(e.vehicleId, Math.max(lastUse.get(e.vehicleId) ?? 0, e.eventTime.getTime()));
  }
  if (src.current.vehicleId && src.vehicles.has(src.current.vehicleId)) lastUse.set(src.current.vehicleId, Infinity);
  const cmvIds = [...lastUse.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([id]) => id)
    .slice(0, 99);
  const cmvOrder = (vehicleId: string | null) => {
    const i = vehicleId ? cmvIds.indexOf(vehicleId) : -1;
    return i < 0 ? null : i + 1;
  };

  // User list: the driver, the co-driver, office users who requested edits, the unidentified profile (4.8.2.1.2).
  const users: Array<{ accountType: 'D' | 'S'; lastName: string; firstName: string }> = [
    { accountType: 'D', lastName: src.driver.lastName, firstName: src.driver.firstName },
  ];
  if (src.coDriver) users.push({ accountType: 'D', lastName: src.coDriver.lastName, firstName: src.coDriver.firstName });
  const officeOrder = new Map<string, number>();
  for (const e of recorded) {
    if (e.recordOrigin !== HOS_RECORD_ORIGINS.OTHER || !e.createdByUserId || officeOrder.has(e.createdByUserId)) continue;
    const u = src.officeUsers.get(e.createdByUserId);
    if (!u || users.length >= 98) continue;
    users.push({ accountType: 'S', lastName: u.lastName, firstName: u.firstName });
    officeOrder.set(e.createdByUserId, users.length);
  }
  if (unidentified.length) users.push({ accountType: 'D', lastName: 'Unidentified', firstName: 'Driver' });

  const flags = indicators(src.vehicleEvents, src.ownEldEvents);
  // Miles and engine hours since each CMV's last power-up, derived from its type-6 records (decision 0155).
  const powerUps = new Map<string, Array<PowerUp & { code: number }>>();
  for (const e of src.engineEvents ?? []) {
    if (!e.vehicleId) continue;
    const list = powerUps.get(e.vehicleId) ?? [];
    list.push({ time: e.eventTime.getTime(), code: e.eventCode, odometerM: e.odometerM, engineHours: e.engineHours });
    powerUps.set(e.vehicleId, list);
  }
  for (const list of powerUps.values()) list.sort((a, b) => a.time - b.time);
  const accumulated = (e: EldSourceEvent) =>
    sincePowerUp(e.vehicleId ? powerUpBefore(powerUps.get(e.vehicleId) ?? [], e.eventTime.getTime()) : null, e.odometerM, e.engineHours);
  const reduced = personalUse(src.events);
  const originator = (e: EldSourceEvent): { order: number | null; username: string } => {
    if (e.recordOrigin === HOS_RECORD_ORIGINS.AUTOMATIC) return { order: null, username: src.driver.username };
    if (e.recordOrigin === HOS_RECORD_ORIGINS.OTHER && e.createdByUserId && officeOrder.has(e.createdByUserId)) {
      return { order: officeOrder.get(e.createdByUserId)!, username: src.officeUsers.get(e.createdByUserId)!.username };
    }
    return { order: 1, username: src.driver.username };
  };

  // The fields a driver's event and an unidentified event share, in the record's order.
  const eventFields = (e: EldSourceEvent, reducedPrecision: boolean) => ({
    sequenceId: seq(e.sequenceId),
    recordStatus: e.recordStatus as 1 | 2 | 3 | 4,
    recordOrigin: e.recordOrigin as 1 | 2 | 3 | 4,
    type: e.eventType as 1 | 2 | 3,
    code: e.eventCode,
    at: local(e.eventTime),
    // Null without engine data or a power-up seen (decision 0155).
    accumulatedVehicleMiles: accumulated(e).miles,
    elapsedEngineHours: accumulated(e).hours,
    position: position(e, reducedPrecision),
    distanceSinceLastValidCoordinates: 0,
    cmvOrder: cmvOrder(e.vehicleId),
  });

  const events: EldEvent[] = newestFirst(
    recorded.map((e) => {
      const who = originator(e);
      const f = flags(e.vehicleId, e.eventTime.getTime());
      const pc = reduced.has(e.id) || (e.eventType === HOS_EVENT_TYPES.INTERMEDIATE_LOG && e.eventCode === 2);
      return {
        ...eventFields(e, pc),
        userOrder: who.order,
        malfunction: f.malfunction,
        dataDiagnostic: f.diagnostic,
        annotation: e.annotation ? { username: who.username, comment: safe(e.annotation), locationDescription: safe(e.locationDescription ?? '') } : null,
      };
    }),
  );

  const unidentifiedEvents: EldUnidentifiedEvent[] = newestFirst(
    unidentified.map((e) => ({
      ...eventFields(e, false),
      // The unidentified profile's records: the vehicle's ELD only, not the driver's own.
      malfunction: flags(e.vehicleId, e.eventTime.getTime(), false).malfunction,
    })),
  );

  const current = src.current.vehicleId ? src.vehicles.get(src.current.vehicleId) : undefined;
  return {
    header: {
      driver: {
        lastName: src.driver.lastName,
        firstName: src.driver.firstName,
        username: src.driver.username,
        licenseState: src.driver.licenseState,
        licenseNumber: src.driver.licenseNumber,
      },
      coDriver: src.coDriver,
      cmv: { powerUnitNumber: current?.unitNumber ?? '', vin: vinOf(current?.vin ?? null), trailerNumbers: trailerNumbers(src.current.trailers) },
      // A carrier without a USDOT number on its account writes 0: the field takes digits only (7.5).
      carrier: { usdotNumber: /^\d{1,9}$/.test(src.carrier.usdotNumber ?? '') ? src.carrier.usdotNumber! : '0', name: safe(src.carrier.name) },
      multidayBasis: multidayBasis(src.driver.ruleset),
      periodStartTime: `${src.periodStart}:00`,
      timeZoneOffsetHours: utcOffsetHours(src.now, src.zone),
      shippingDocumentNumber: src.current.shippingDocuments.join(' '),
      exempt: src.driver.exempt,
      current: {
        at: local(src.now),
        position: src.current.position
          ? { kind: 'fix', latitude: src.current.position.latitude, longitude: src.current.position.longitude, reduced: false }
          : { kind: 'none' },
        totalVehicleMiles: miles(src.current.odometerM),
        totalEngineHours: hours(src.current.engineHours ?? null),
      },
      eld: src.eld,
      outputFileComment: src.comment,
    },
    users,
    cmvs: cmvIds.map((id) => ({ powerUnitNumber: src.vehicles.get(id)!.unitNumber, vin: vinOf(src.vehicles.get(id)!.vin) })),
    events,
    certifications: newestFirst(
      src.events
        .filter((e) => e.eventType === HOS_EVENT_TYPES.CERTIFICATION)
        .map((e) => ({
          sequenceId: seq(e.sequenceId),
          code: Math.min(Math.max(e.eventCode, 1), 9),
          at: local(e.eventTime),
          certifiedDate: e.logDate,
          cmvOrder: cmvOrder(e.vehicleId),
        })),
    ),
    malfunctions: newestFirst(
      [...src.vehicleEvents, ...(src.ownEldEvents ?? []).filter((e) => !e.before)]
        .filter((e) => e.eventType === HOS_EVENT_TYPES.MALFUNCTION && e.diagnosticCode)
        .map((e) => ({
          sequenceId: seq(e.sequenceId),
          code: e.eventCode as 1 | 2 | 3 | 4,
          diagnosticCode: e.diagnosticCode!,
          at: local(e.eventTime),
          totalVehicleMiles: miles(e.odometerM),
          totalEngineHours: hours(e.engineHours),
          cmvOrder: cmvOrder(e.vehicleId),
        })),
    ),
    loginLogouts: newestFirst(
      src.events
        .filter((e) => e.eventType === HOS_EVENT_TYPES.LOGIN_LOGOUT && (e.eventCode === 1 || e.eventCode === 2))
        .map((e) => ({
          sequenceId: seq(e.sequenceId),
          code: e.eventCode as 1 | 2,
          username: src.driver.username,
          at: local(e.eventTime),
          totalVehicleMiles: miles(e.odometerM),
          totalEngineHours: hours(e.engineHours),
        })),
    ),
    // Engine power-up and shut-down of the period's CMVs (decision 0155).
    enginePower: newestFirst(
      (src.engineEvents ?? [])
        .filter((e) => !e.before && e.vehicleId && src.vehicles.has(e.vehicleId) && e.eventCode >= 1 && e.eventCode <= 4)
        .map((e) => {
          const reducedPrecision = e.eventCode === 2 || e.eventCode === 4;
          const v = src.vehicles.get(e.vehicleId!)!;
          const day = src.days?.get(e.logDate);
          return {
            sequenceId: seq(e.sequenceId),
            code: e.eventCode as 1 | 2 | 3 | 4,
            at: local(e.eventTime),
            totalVehicleMiles: miles(e.odometerM),
            totalEngineHours: hours(e.engineHours),
            position: position(e, reducedPrecision),
            powerUnitNumber: v.unitNumber,
            vin: vinOf(v.vin),
            trailerNumbers: trailerNumbers(day?.trailers ?? []),
            shippingDocumentNumber: safe((day?.shippingDocuments ?? []).join(' ')).slice(0, 40),
          };
        }),
    ),
    unidentifiedEvents,
  };
}
