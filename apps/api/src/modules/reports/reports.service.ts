import {
  DEFAULT_DETENTION_FREE_MINUTES,
  DEFAULT_ORGANIZATION_SETTINGS,
  type ReportFilters,
  type StopRow,
  type SummaryRow,
  type TripRow,
  type UnitSystem,
  type VisitRow,
} from '@fleet/api-contract';
import { invalidField, notFound } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import type { ReadScope } from '../auth/index.ts';
import { assertGroup } from '../groups/index.ts';
import {
  belongsToOrganization,
  readDetention,
  readOrganization,
  readStops,
  readSummary,
  readTrips,
  readUserTimeZone,
  readVisits,
  type Paging,
} from './reports.repository.ts';
import { tripsInProgress } from './trip-in-progress.ts';

// The four reports and the detention totals (issue 32, decision 0163), read from the rows the
// followers keep behind ingest: place visits (the places follower), trips and stops (ours). Days
// and the zone named are the reader's (decision 0140); distances leave as km, speeds as km/h. The
// statements are in reports.repository.ts (decision 0255).

/** What every report is read with: whose zone, which units, the detention free time, the clock. */
export interface ReportContext {
  orgId: string;
  orgName: string;
  timeZone: string;
  units: UnitSystem;
  freeMinutes: number;
  now: number;
}

/** Exports and e-mails carry at most this many rows (a note says when more were left out). */
export const EXPORT_MAX_ROWS = 10_000;

/** The report context of a reader: their profile zone (else the organization's), or `timeZone` when given (a subscription's). */
export async function reportContext(scope: ReadScope, userId: string | null, timeZone?: string): Promise<ReportContext> {
  const o = await readOrganization(scope.db, scope.orgId);
  if (!o) throw notFound('Organization');
  let tz = timeZone ?? null;
  if (!tz && userId) {
    tz = (await readUserTimeZone(scope.db, userId)) || null;
  }
  const free = (o.settings as { detention?: { freeMinutes?: unknown } }).detention?.freeMinutes;
  return {
    orgId: scope.orgId,
    orgName: o.name,
    timeZone: tz || o.tz,
    units: o.settings.units ?? DEFAULT_ORGANIZATION_SETTINGS.units,
    freeMinutes: typeof free === 'number' && free >= 0 ? Math.round(free) : DEFAULT_DETENTION_FREE_MINUTES,
    now: scope.now ?? Date.now(),
  };
}

/** Each id of the filters must be the organization's (another organization's answers 404, as everywhere), and `to` after `from`. */
export async function checkFilters(scope: ReadScope, f: ReportFilters): Promise<void> {
  if (f.from && f.to && Date.parse(f.to) <= Date.parse(f.from)) throw invalidField('to', 'to must be after from');
  const one = async (table: 'assets' | 'drivers' | 'places', id: string | undefined, what: string) => {
    if (!id) return;
    if (!(await belongsToOrganization(scope.db, scope.orgId, table, id))) throw notFound(what);
  };
  await one('assets', f.assetId, 'Vehicle');
  await one('drivers', f.driverId, 'Driver');
  await one('places', f.placeId, 'Place');
  if (f.groupId) await assertGroup(scope.db, scope.orgId, f.groupId);
}

const ts = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

// ---------------------------------------------------------------- visits

/** Place visits, newest arrival first: dwell up to now for a vehicle still there, detention beyond the free time at customers only. */
export async function queryVisits(scope: ReadScope, ctx: ReportContext, f: ReportFilters, p: Paging): Promise<{ rows: VisitRow[]; total: number }> {
  const rows = await readVisits(scope.db, scope.orgId, new Date(ctx.now).toISOString(), ctx.freeMinutes, f, p);
  return {
    total: Number(rows[0]?.total ?? 0),
    rows: rows.map((r) => ({
      id: r.id,
      placeId: r.place_id,
      placeName: r.place_name,
      category: r.category,
      assetId: r.asset_id,
      unitNumber: r.unit_number ?? '',
      driverId: r.driver_id,
      driverName: r.driver_name,
      arrivedAt: ts(r.arrived_at)!,
      departedAt: ts(r.departed_at),
      dwellSeconds: Number(r.dwell_s),
      detentionSeconds: Number(r.detention_s),
    })),
  };
}

// ---------------------------------------------------------------- trips

const round1 = (v: number) => Math.round(v * 10) / 10;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const seconds = (a: string | Date, b: string | Date) => Math.max(0, Math.round((new Date(b).getTime() - new Date(a).getTime()) / 1000));

/**
 * Trips, newest first, a trip under way among them (`inProgress`, ending at its latest fix);
 * `placeId`: trips that began or ended at the place. Start and end places from the visits covering those times.
 */
export async function queryTrips(scope: ReadScope, f: ReportFilters, p: Paging): Promise<{ rows: TripRow[]; total: number }> {
  const current = await tripsInProgress(scope, f);
  const rows = await readTrips(scope.db, scope.orgId, f, p, current);
  const ref = (id: string | null, name: string | null) => (id ? { id, name: name ?? '' } : null);
  return {
    total: Number(rows[0]?.total ?? 0),
    rows: rows.map((r) => ({
      id: r.id,
      asset: { id: r.asset_id, unitNumber: r.unit_number ?? '' },
      driver: ref(r.driver_id, r.driver_name),
      startedAt: ts(r.started_at)!,
      endedAt: ts(r.ended_at)!,
      start: { latitude: r.start_lat, longitude: r.start_lon, place: ref(r.start_place_id, r.start_place_name), address: r.start_address },
      end: { latitude: r.end_lat, longitude: r.end_lon, place: ref(r.end_place_id, r.end_place_name), address: r.end_address },
      distanceKm: round3(r.distance_m / 1000),
      durationSeconds: seconds(r.started_at, r.ended_at),
      maxSpeedKmh: round1(Number(r.max_speed_kmh)),
      avgSpeedKmh: round1(Number(r.avg_speed_kmh)),
      inProgress: r.in_progress === true,
    })),
  };
}

// ---------------------------------------------------------------- stops

/** Stops, newest first; an ongoing stop lasts until now. `placeId`: stops at the place. */
export async function queryStops(scope: ReadScope, ctx: ReportContext, f: ReportFilters, p: Paging): Promise<{ rows: StopRow[]; total: number }> {
  const now = new Date(ctx.now).toISOString();
  const rows = await readStops(scope.db, scope.orgId, now, f, p);
  return {
    total: Number(rows[0]?.total ?? 0),
    rows: rows.map((r) => ({
      id: r.id,
      asset: { id: r.asset_id, unitNumber: r.unit_number ?? '' },
      driver: r.driver_id ? { id: r.driver_id, name: r.driver_name ?? '' } : null,
      startedAt: ts(r.started_at)!,
      endedAt: ts(r.ended_at),
      durationSeconds: seconds(r.started_at, r.ended_at ?? now),
      where: { latitude: r.lat, longitude: r.lon, place: r.place_id ? { id: r.place_id, name: r.place_name ?? '' } : null, address: r.address },
      idleSeconds: Number(r.idle_s),
      engineOn: r.engine_on,
    })),
  };
}

// ---------------------------------------------------------------- daily summary

/**
 * The daily summary in the reader's zone: per vehicle and day (or per driver with `by=driver` or a
 * driver filter), the sums of the trips and stops that began that day: distance and driving time of
 * the trips, idle time and number of the stops, the first trip's start and the last trip's end.
 * A trip under way counts on the day it began, up to the vehicle's latest fix (`inProgress`).
 */
export async function querySummary(
  scope: ReadScope,
  ctx: ReportContext,
  f: ReportFilters & { by?: 'vehicle' | 'driver' },
  p: Paging,
): Promise<{ rows: SummaryRow[]; total: number }> {
  const byDriver = f.by === 'driver' || (f.by === undefined && f.driverId !== undefined);
  const current = await tripsInProgress(scope, f);
  const rows = await readSummary(scope.db, scope.orgId, ctx.timeZone, byDriver, f, p, current);
  return {
    total: Number(rows[0]?.total ?? 0),
    rows: rows.map((r) => ({
      day: r.day.slice(0, 10),
      asset: byDriver || !r.k ? null : { id: r.k, unitNumber: r.unit_number ?? '' },
      driver: byDriver && r.k ? { id: r.k, name: r.driver_name ?? '' } : null,
      distanceKm: round3(Number(r.distance_m) / 1000),
      drivingSeconds: Math.round(Number(r.driving_s)),
      idleSeconds: Math.round(Number(r.idle_s)),
      stops: Number(r.stops),
      firstMovementAt: ts(r.first_at),
      lastMovementAt: ts(r.last_at),
      inProgress: r.in_progress === true,
    })),
  };
}

// ---------------------------------------------------------------- detention

/** Detention per customer place over the visits that arrived within the filters. */
export async function detentionTotals(scope: ReadScope, ctx: ReportContext, f: ReportFilters) {
  const rows = await readDetention(scope.db, scope.orgId, new Date(ctx.now).toISOString(), ctx.freeMinutes, f);
  return {
    freeMinutes: ctx.freeMinutes,
    timeZone: ctx.timeZone,
    content: rows.map((r) => ({
      placeId: r.place_id,
      placeName: r.place_name,
      visits: Number(r.visits),
      dwellSeconds: Number(r.dwell_s),
      detentionSeconds: Number(r.detention_s),
      visitsWithDetention: Number(r.with_detention),
    })),
  };
}

// ---------------------------------------------------------------- pages

export type ReportQuery = ReportFilters & Paging & { page: number; size: number };

/** One page of a report for the signed-in reader, in their zone. */
export async function reportPage<R>(
  scope: ReadScope,
  userId: string,
  q: ReportQuery,
  read: (ctx: ReportContext) => Promise<{ rows: R[]; total: number }>,
): Promise<{ content: R[]; page: number; size: number; totalElements: number; totalPages: number; timeZone: string }> {
  await checkFilters(scope, q);
  const ctx = await reportContext(scope, userId);
  const { rows, total } = await read(ctx);
  return { ...toPage(rows, total, q), timeZone: ctx.timeZone };
}
