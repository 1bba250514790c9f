import {
  commodityDefaults,
  DEFAULT_EXCURSION_DELAY_MINUTES,
  type LoadTemperatures,
  type ReeferSettings,
  type ReeferSettingsInput,
  type SensorRole,
  temperatureSpanText,
  temperatureText,
  type TemperatureExcursion,
  type TrailerSensors,
  type TrailerTemperatures,
  type UnitSystem,
} from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { notifyMany, type NotifyInput } from '../notifications/index.ts';
import { readSettings } from '../organizations/index.ts';
import { findExcursions, sensorCounts } from './excursions.ts';
import { temperatureLogPdf } from './temperature-log.ts';
import * as repo from './temperatures.repository.ts';

// Reefer temperatures (issue 73, decisions 0320-0322): every way in (the JSON batch now, Teltonika's
// sensors next) hands its readings to `recordTemperatures`, which stores each once and finds the
// excursions of the loads the trailer carried; the office reads a load's or a trailer's record.

const MINUTE = 60_000;
/** Excursions confirmed longer ago than this make a record but no notification (history, a catch-up). */
const NOTIFY_WITHIN_MS = 24 * 3_600_000;

/** One reading as a way in hands it over. */
export interface TemperatureInput {
  organizationId: string;
  /** The gateway that read it: (gateway, sensor, time) names the reading. */
  gatewayId: string;
  /** The asset the gateway was attributed to at `at` (a trailer, or a tractor whose trailer is found); null: none. */
  assetId: string | null;
  at: Date;
  /** The sensor's name as the device reports it ("1", "ble1", "return"). */
  sensor: string;
  celsius: number;
  /** A defrost cycle runs: the reading counts toward no excursion. */
  defrost?: boolean;
}

export interface RecordResult {
  stored: number;
  duplicates: number;
  /** Excursions opened by this call (each notified and sent as `temperature.out_of_range` once). */
  opened: number;
}

/**
 * Stores readings (each once, by gateway, sensor and time: a resend stores nothing twice), then
 * recomputes the excursions of every load the readings' trailers carried. The recompute reads what
 * is stored, so a replay (a resend, a restart) finds the same excursions and writes nothing new.
 */
export async function recordTemperatures(db: Db, readings: readonly TemperatureInput[], now = Date.now()): Promise<RecordResult> {
  const result: RecordResult = { stored: 0, duplicates: 0, opened: 0 };
  const byOrg = new Map<string, TemperatureInput[]>();
  for (const r of readings) byOrg.set(r.organizationId, [...(byOrg.get(r.organizationId) ?? []), r]);
  for (const [orgId, list] of byOrg) {
    const rows = await trailersOf(db, orgId, list);
    const stored = await repo.insertReadings(db, rows);
    result.stored += stored;
    result.duplicates += rows.length - stored;
    const trailers = new Map<string, { from: number; to: number }>();
    for (const r of rows) {
      if (!r.assetId) continue;
      const t = r.at.getTime();
      const w = trailers.get(r.assetId);
      trailers.set(r.assetId, { from: Math.min(w?.from ?? t, t), to: Math.max(w?.to ?? t, t) });
    }
    for (const [trailerId, w] of trailers) result.opened += await evaluateTrailer(db, orgId, trailerId, w.from, w.to, now);
  }
  return result;
}

/** Each reading with the trailer it was read in: the asset itself when a trailer, else the trailer its tractor pulled then. */
async function trailersOf(db: DbOrTx, orgId: string, list: readonly TemperatureInput[]): Promise<repo.ReadingRow[]> {
  const assetIds = [...new Set(list.flatMap((r) => (r.assetId ? [r.assetId] : [])))];
  const kinds = await repo.assetKinds(db, orgId, assetIds);
  const vehicles = assetIds.filter((id) => kinds.get(id) === 'VEHICLE');
  const times = list.map((r) => r.at.getTime());
  const hitches = await repo.hitchesOf(db, orgId, vehicles, Math.min(...times), Math.max(...times));
  const trailerOf = (r: TemperatureInput): string | null => {
    if (!r.assetId) return null;
    if (kinds.get(r.assetId) === 'TRAILER') return r.assetId;
    const t = r.at.getTime();
    return hitches.find((h) => h.vehicleId === r.assetId && h.from <= t && (h.to === null || t <= h.to))?.trailerId ?? null;
  };
  return list.map((r) => ({
    organizationId: orgId,
    gatewayId: r.gatewayId,
    sensor: r.sensor.trim(),
    at: r.at,
    assetId: trailerOf(r),
    celsius: r.celsius,
    defrost: r.defrost === true,
  }));
}

/** The settings a load's excursions are found by: typed on the load, else its commodity's defaults. */
export function settingsOf(load: {
  commodity: string | null;
  setPointC: number | null;
  toleranceC: number | null;
  delayMinutes: number | null;
}): ReeferSettings {
  const delayMinutes = load.delayMinutes ?? DEFAULT_EXCURSION_DELAY_MINUTES;
  if (load.setPointC !== null && load.toleranceC !== null) return { setPointC: load.setPointC, toleranceC: load.toleranceC, delayMinutes, source: 'LOAD' };
  const d = commodityDefaults(load.commodity);
  return d ? { ...d, delayMinutes, source: 'COMMODITY' } : { setPointC: null, toleranceC: null, delayMinutes, source: 'NONE' };
}

/** Recomputes the excursions of the loads a trailer carried between the times; returns how many opened. */
async function evaluateTrailer(db: Db, orgId: string, trailerId: string, fromMs: number, toMs: number, now: number): Promise<number> {
  const carried = await repo.loadWindows(db, orgId, { trailerIds: [trailerId] }, fromMs, toMs);
  let opened = 0;
  for (const load of carried) {
    const s = settingsOf(load);
    if (s.setPointC === null || s.toleranceC === null) continue;
    const band = { setPointC: s.setPointC, toleranceC: s.toleranceC, delayMs: s.delayMinutes * MINUTE };
    const sensors = await repo.sensorsRead(db, orgId, trailerId, Math.max(fromMs, load.from), toMs);
    const hasRoles = (await repo.sensorsOf(db, orgId, trailerId)).length > 0;
    for (const { sensor, role } of sensors) {
      if (!sensorCounts(role, hasRoles)) continue;
      // Where the recompute starts: an open excursion's start, else the last one's end (in the band
      // from there), else the load's start. The same stored readings give the same rows.
      const last = await repo.lastExcursion(db, orgId, load.id, sensor);
      const start = last ? (last.endedAt ?? last.startedAt).getTime() : load.from;
      const stored = await repo.readingsOf(db, orgId, trailerId, Math.max(start, load.from), load.to, sensor);
      const found = findExcursions(
        stored.map((r) => ({ at: r.at.getTime(), celsius: r.celsius, defrost: r.defrost })),
        band,
      );
      if (found.length === 0) continue;
      const drafts: repo.ExcursionDraft[] = found.map((f) => ({
        organizationId: orgId,
        loadId: load.id,
        assetId: trailerId,
        sensor,
        startedAt: new Date(f.startedAt),
        endedAt: f.endedAt === null ? null : new Date(f.endedAt),
        direction: f.direction,
        peakC: f.peakC,
        setPointC: band.setPointC,
        toleranceC: band.toleranceC,
      }));
      const confirmedAt = new Map(found.map((f) => [f.startedAt, f.confirmedAt]));
      opened += await db.transaction(async (tx) => {
        const fresh = await repo.upsertExcursions(tx, drafts);
        const tell = fresh.filter((e) => now - (confirmedAt.get(e.startedAt.getTime()) ?? 0) <= NOTIFY_WITHIN_MS);
        if (tell.length) await notifyMany(tx, await notices(tx, orgId, load, trailerId, s.delayMinutes, tell));
        return fresh.length;
      });
    }
  }
  return opened;
}

/** The notification and webhook of each new excursion, in the organization's units; written with the excursion. */
async function notices(
  tx: DbOrTx,
  orgId: string,
  load: repo.LoadWindow,
  trailerId: string,
  delayMinutes: number,
  fresh: readonly repo.ExcursionRow[],
): Promise<NotifyInput[]> {
  const org = await repo.organizationOf(tx, orgId);
  const units: UnitSystem = readSettings(org?.settings).units;
  const trailer = await repo.findTrailer(tx, orgId, trailerId);
  const unit = trailer?.unitNumber ?? '?';
  return fresh.map((e) => ({
    organizationId: orgId,
    kind: 'TEMPERATURE_OUT_OF_RANGE' as const,
    factKey: `temperature:${e.id}`,
    // The title stays as written; the readings in the units of now are on the linked page.
    title: `Load ${load.number}, trailer ${unit}: temperature ${e.direction === 'HIGH' ? 'above' : 'below'} range`,
    body: `Sensor ${e.sensor} read ${temperatureText(e.peakC, units)} against a set point of ${temperatureText(e.setPointC, units)} ± ${temperatureSpanText(e.toleranceC, units)} for more than ${delayMinutes} minutes.`,
    link: `/dispatch/loads/${load.id}`,
    linkLabel: 'See the temperatures',
    occurredAt: e.startedAt,
    about: { assetId: trailerId, driverId: load.driverId },
    webhook: {
      orgId,
      type: 'temperature.out_of_range' as const,
      at: e.startedAt,
      data: {
        id: e.id,
        loadId: load.id,
        loadNumber: load.number,
        trailerId,
        trailerUnit: unit,
        sensor: e.sensor,
        startedAt: e.startedAt.toISOString(),
        direction: e.direction,
        peakC: e.peakC,
        setPointC: e.setPointC,
        toleranceC: e.toleranceC,
        delayMinutes,
      },
    },
  }));
}

const excursionOut = (e: repo.ExcursionRow): TemperatureExcursion => ({
  id: e.id,
  sensor: e.sensor,
  startedAt: e.startedAt.toISOString(),
  endedAt: e.endedAt?.toISOString() ?? null,
  direction: e.direction,
  peakC: e.peakC,
  setPointC: e.setPointC,
  toleranceC: e.toleranceC,
});

/** A load's record as the load page and the PDF show it: its trailer's readings while it carried the load. */
export async function loadTemperatures(scope: ReadScope, loadId: string): Promise<LoadTemperatures> {
  const load = await repo.findLoad(scope.db, scope.orgId, loadId);
  // Another organization's load is not found, never forbidden (tenancy).
  if (!load) throw notFound('Load');
  const settings = settingsOf(load);
  const [window] = await repo.loadWindows(scope.db, scope.orgId, { loadId }, -8.64e15, 8.64e15);
  const readings =
    load.trailerId && window ? await repo.readingsOf(scope.db, scope.orgId, load.trailerId, window.from, window.to ?? scope.now ?? Date.now()) : [];
  const excursions = await repo.excursionsOfLoad(scope.db, scope.orgId, loadId);
  return {
    loadId,
    trailerId: load.trailerId,
    trailerUnit: load.trailerUnit,
    settings,
    readings: readings.map((r) => ({ sensor: r.sensor, role: r.role, at: r.at.toISOString(), celsius: r.celsius, defrost: r.defrost })),
    excursions: excursions.map(excursionOut),
  };
}

/** Saves a load's set point, tolerance and delay (°C and minutes); the next readings are judged by them. */
export async function saveReeferSettings(scope: Scope, loadId: string, input: ReeferSettingsInput): Promise<LoadTemperatures> {
  const load = await repo.findLoad(scope.db, scope.orgId, loadId);
  if (!load) throw notFound('Load');
  await repo.writeLoadSettings(scope.db, scope.orgId, loadId, input);
  return loadTemperatures(scope, loadId);
}

const TRAILER_DAYS = 3;

/** A trailer's sensors and its last three days of readings and excursions (its page's chart). */
export async function trailerTemperatures(scope: ReadScope, trailerId: string): Promise<TrailerTemperatures> {
  const trailer = await repo.findTrailer(scope.db, scope.orgId, trailerId);
  if (!trailer) throw notFound('Trailer');
  const now = scope.now ?? Date.now();
  const from = now - TRAILER_DAYS * 86_400_000;
  const [sensors, readings, excursions] = [
    await repo.sensorsOf(scope.db, scope.orgId, trailerId),
    await repo.readingsOf(scope.db, scope.orgId, trailerId, from, now),
    await repo.excursionsOfTrailer(scope.db, scope.orgId, trailerId, from),
  ];
  return {
    trailerId,
    sensors,
    readings: readings.map((r) => ({ sensor: r.sensor, role: r.role, at: r.at.toISOString(), celsius: r.celsius, defrost: r.defrost })),
    excursions: excursions.map(excursionOut),
  };
}

/** Replaces which sensor of a trailer is return air, supply air or a zone. */
export async function saveTrailerSensors(scope: Scope, trailerId: string, input: TrailerSensors): Promise<TrailerTemperatures> {
  const trailer = await repo.findTrailer(scope.db, scope.orgId, trailerId);
  if (!trailer) throw notFound('Trailer');
  await scope.db.transaction((tx) => repo.replaceSensors(tx, scope.orgId, trailerId, input.sensors));
  return trailerTemperatures(scope, trailerId);
}

/** The load's temperature record as a PDF for the shipper and the receiver, signed with the carrier's name. */
export async function temperatureLog(scope: ReadScope, loadId: string, intervalMin: number): Promise<{ fileName: string; pdf: Buffer }> {
  const record = await loadTemperatures(scope, loadId);
  const load = (await repo.findLoad(scope.db, scope.orgId, loadId))!;
  const org = await repo.organizationOf(scope.db, scope.orgId);
  const pdf = await temperatureLogPdf(
    {
      carrierName: org?.name ?? '',
      loadNumber: load.number,
      customer: load.customer,
      commodity: load.commodity,
      trailerUnit: load.trailerUnit,
      driverName: load.driverName,
      timeZone: org?.timeZone ?? 'UTC',
      units: readSettings(org?.settings).units,
      intervalMin,
      generatedAt: scope.now ?? Date.now(),
      trailerHasRoles: record.trailerId ? (await repo.sensorsOf(scope.db, scope.orgId, record.trailerId)).length > 0 : false,
    },
    record,
  );
  return { fileName: `temperature-log-${load.number.replace(/[^A-Za-z0-9-]/g, '_')}.pdf`, pdf };
}

/** How far back the tracking link's small chart goes. */
export const PUBLIC_TEMPERATURE_HOURS = 6;
const ROLE_ORDER = ['RETURN_AIR', 'ZONE_1', 'ZONE_2', 'ZONE_3'];

/**
 * A load's temperature as its tracking link shows it (decision 0325): the one sensor that judges
 * the load (return air first, then the zones; with no role set, the sensor read last), its latest
 * reading of the last hours, the set point band, and that sensor's readings since. Null: no trailer,
 * or nothing read lately. The caller decides whether the link may show it.
 */
export async function publicLoadTemperature(
  db: Db,
  orgId: string,
  loadId: string,
  at: number,
): Promise<{ celsius: number; at: string; setPointC: number | null; toleranceC: number | null; readings: Array<{ at: string; celsius: number }> } | null> {
  const load = await repo.findLoad(db, orgId, loadId);
  if (!load?.trailerId) return null;
  const readings = await repo.readingsOf(db, orgId, load.trailerId, at - PUBLIC_TEMPERATURE_HOURS * 3_600_000, at);
  const hasRoles = (await repo.sensorsOf(db, orgId, load.trailerId)).length > 0;
  const judged = readings.filter((r) => sensorCounts(r.role, hasRoles));
  if (judged.length === 0) return null;
  const rank = (role: SensorRole | null) => (role ? ROLE_ORDER.indexOf(role) : ROLE_ORDER.length);
  const latest = (sensor: string) => Math.max(...judged.filter((r) => r.sensor === sensor).map((r) => r.at.getTime()));
  const sensor = [...new Set(judged.map((r) => r.sensor))].sort(
    (a, b) => rank(judged.find((r) => r.sensor === a)!.role) - rank(judged.find((r) => r.sensor === b)!.role) || latest(b) - latest(a),
  )[0]!;
  const mine = judged.filter((r) => r.sensor === sensor).sort((a, b) => a.at.getTime() - b.at.getTime());
  const last = mine.at(-1)!;
  const s = settingsOf(load);
  return {
    celsius: last.celsius,
    at: last.at.toISOString(),
    setPointC: s.setPointC,
    toleranceC: s.toleranceC,
    readings: mine.map((r) => ({ at: r.at.toISOString(), celsius: r.celsius })),
  };
}
