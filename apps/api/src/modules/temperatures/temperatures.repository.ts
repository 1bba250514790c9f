import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { SensorRole } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import {
  assets,
  drivers,
  loads,
  organizations,
  temperatureExcursions,
  temperatureReadings,
  trailerAttachments,
  trailerSensors,
} from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// The SQL of reefer temperatures (issue 73): readings stored once by their key, a trailer's sensors,
// the loads a trailer carried, and the excursions written by their key. Every statement names the
// organization, so Citus routes it to the organization's shard (decision 0169).

const iso = (ms: number) => new Date(ms).toISOString();

export interface ReadingRow {
  organizationId: string;
  gatewayId: string;
  sensor: string;
  at: Date;
  assetId: string | null;
  celsius: number;
  defrost: boolean;
}

/** Stores readings not stored yet; returns how many were new (a resend stores nothing twice). */
export async function insertReadings(db: DbOrTx, rows: readonly ReadingRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const fresh = await db
    .insert(temperatureReadings)
    .values([...rows])
    .onConflictDoNothing()
    .returning({ sensor: temperatureReadings.sensor });
  return fresh.length;
}

/** The assets' kinds (a trailer reads its own sensors; a tractor's gateway reads its trailer's). */
export async function assetKinds(db: DbOrTx, orgId: string, ids: readonly string[]): Promise<Map<string, 'VEHICLE' | 'TRAILER'>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: assets.id, type: assets.type })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), inArray(assets.id, [...ids])));
  return new Map(rows.map((r) => [r.id, r.type]));
}

export interface Hitch {
  vehicleId: string;
  trailerId: string;
  from: number;
  to: number | null;
}

/** The trailers these vehicles pulled between `fromMs` and `toMs`: their attachments, and their loads' trailers. */
export async function hitchesOf(db: DbOrTx, orgId: string, vehicleIds: readonly string[], fromMs: number, toMs: number): Promise<Hitch[]> {
  if (vehicleIds.length === 0) return [];
  const attached = await db
    .select({
      vehicleId: trailerAttachments.vehicleId,
      trailerId: trailerAttachments.trailerId,
      from: trailerAttachments.attachedAt,
      to: trailerAttachments.detachedAt,
    })
    .from(trailerAttachments)
    .where(
      and(
        eq(trailerAttachments.organizationId, orgId),
        inArray(trailerAttachments.vehicleId, [...vehicleIds]),
        lte(trailerAttachments.attachedAt, new Date(toMs)),
        sql`(${trailerAttachments.detachedAt} is null or ${trailerAttachments.detachedAt} >= ${iso(fromMs)}::timestamptz)`,
      ),
    );
  const carried = await loadWindows(db, orgId, { vehicleIds }, fromMs, toMs);
  return [
    ...attached.map((a) => ({ vehicleId: a.vehicleId, trailerId: a.trailerId, from: a.from.getTime(), to: a.to?.getTime() ?? null })),
    ...carried.filter((l) => l.vehicleId && l.trailerId).map((l) => ({ vehicleId: l.vehicleId!, trailerId: l.trailerId!, from: l.from, to: l.to })),
  ];
}

export interface LoadWindow {
  id: string;
  number: string;
  commodity: string | null;
  vehicleId: string | null;
  trailerId: string | null;
  driverId: string | null;
  setPointC: number | null;
  toleranceC: number | null;
  delayMinutes: number | null;
  /** The first stop's arrival (or its window's start). */
  from: number;
  /** Delivered (or the last stop's departure); null while under way. */
  to: number | null;
}

/**
 * The loads whose time on the road meets [fromMs, toMs], by trailer or by tractor: from the first
 * stop's arrival (its window's start before) to delivery (the last stop's departure); cancelled ones left out.
 */
export async function loadWindows(
  db: DbOrTx,
  orgId: string,
  by: { trailerIds?: readonly string[]; vehicleIds?: readonly string[]; loadId?: string },
  fromMs: number,
  toMs: number,
): Promise<LoadWindow[]> {
  const who = by.loadId
    ? sql`l.id = ${by.loadId}`
    : by.trailerIds
      ? sql`l.trailer_id in (${sql.join(
          by.trailerIds.map((t) => sql`${t}`),
          sql`, `,
        )})`
      : sql`l.asset_id in (${sql.join(
          (by.vehicleIds ?? []).map((t) => sql`${t}`),
          sql`, `,
        )})`;
  const rows = rowsOf<{
    id: string;
    number: string;
    commodity: string | null;
    vehicle_id: string | null;
    trailer_id: string | null;
    driver_id: string | null;
    sp: number | null;
    tol: number | null;
    delay: number | null;
    from_ms: number | string | null;
    to_ms: number | string | null;
  }>(
    await db.execute(sql`select * from (
        select l.id, l.number, l.commodity, l.asset_id as vehicle_id, l.trailer_id, l.driver_id,
          l.reefer_set_point_c as sp, l.reefer_tolerance_c as tol, l.reefer_delay_minutes as delay,
          extract(epoch from (select coalesce(s.arrived_at, s.window_start) from load_stops s
            where s.organization_id = l.organization_id and s.load_id = l.id order by s.seq limit 1))::float8 * 1000 as from_ms,
          extract(epoch from coalesce(l.delivered_at, case when l.status = 'DELIVERED' then (select s.departed_at from load_stops s
            where s.organization_id = l.organization_id and s.load_id = l.id order by s.seq desc limit 1) end))::float8 * 1000 as to_ms
        from loads l where l.organization_id = ${orgId} and l.status <> 'CANCELLED' and ${who}) w
      where w.from_ms is not null and w.from_ms <= ${toMs} and (w.to_ms is null or w.to_ms >= ${fromMs})`),
  );
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    commodity: r.commodity,
    vehicleId: r.vehicle_id,
    trailerId: r.trailer_id,
    driverId: r.driver_id,
    setPointC: r.sp === null ? null : Number(r.sp),
    toleranceC: r.tol === null ? null : Number(r.tol),
    delayMinutes: r.delay === null ? null : Number(r.delay),
    from: Math.round(Number(r.from_ms)),
    to: r.to_ms === null ? null : Math.round(Number(r.to_ms)),
  }));
}

export interface StoredReading {
  sensor: string;
  role: SensorRole | null;
  at: Date;
  celsius: number;
  defrost: boolean;
}

/** A trailer's readings from `fromMs` to `toMs` (null: no end), in time order, with each sensor's role. */
export async function readingsOf(db: DbOrTx, orgId: string, trailerId: string, fromMs: number, toMs: number | null, sensor?: string): Promise<StoredReading[]> {
  return db
    .select({
      sensor: temperatureReadings.sensor,
      role: trailerSensors.role,
      at: temperatureReadings.at,
      celsius: temperatureReadings.celsius,
      defrost: temperatureReadings.defrost,
    })
    .from(temperatureReadings)
    .leftJoin(
      trailerSensors,
      and(
        eq(trailerSensors.organizationId, temperatureReadings.organizationId),
        eq(trailerSensors.assetId, temperatureReadings.assetId),
        eq(trailerSensors.sensor, temperatureReadings.sensor),
      ),
    )
    .where(
      and(
        eq(temperatureReadings.organizationId, orgId),
        eq(temperatureReadings.assetId, trailerId),
        gte(temperatureReadings.at, new Date(fromMs)),
        toMs === null ? undefined : lte(temperatureReadings.at, new Date(toMs)),
        sensor === undefined ? undefined : eq(temperatureReadings.sensor, sensor),
      ),
    )
    .orderBy(asc(temperatureReadings.at), asc(temperatureReadings.sensor));
}

/** The sensors with readings on a trailer between the times, and their roles. */
export async function sensorsRead(
  db: DbOrTx,
  orgId: string,
  trailerId: string,
  fromMs: number,
  toMs: number,
): Promise<Array<{ sensor: string; role: SensorRole | null }>> {
  const rows = rowsOf<{ sensor: string; role: SensorRole | null }>(
    await db.execute(sql`select distinct r.sensor, s.role from temperature_readings r
      left join trailer_sensors s on s.organization_id = r.organization_id and s.asset_id = r.asset_id and s.sensor = r.sensor
      where r.organization_id = ${orgId} and r.asset_id = ${trailerId} and r.at >= ${iso(fromMs)}::timestamptz and r.at <= ${iso(toMs)}::timestamptz`),
  );
  return rows;
}

export type ExcursionRow = typeof temperatureExcursions.$inferSelect;

/** The latest excursion of a load's sensor (where a recompute starts). */
export async function lastExcursion(db: DbOrTx, orgId: string, loadId: string, sensor: string): Promise<ExcursionRow | undefined> {
  const [row] = await db
    .select()
    .from(temperatureExcursions)
    .where(and(eq(temperatureExcursions.organizationId, orgId), eq(temperatureExcursions.loadId, loadId), eq(temperatureExcursions.sensor, sensor)))
    .orderBy(desc(temperatureExcursions.startedAt))
    .limit(1);
  return row;
}

export type ExcursionDraft = Omit<ExcursionRow, 'id'>;

/**
 * Writes excursions by their key (load, sensor, start): a new one is inserted; a known one changes
 * only when its end or peak moved (a replay of the same readings writes nothing). Returns the rows
 * first inserted by this call.
 */
export async function upsertExcursions(db: DbOrTx, drafts: readonly ExcursionDraft[]): Promise<ExcursionRow[]> {
  if (drafts.length === 0) return [];
  const rows = await db
    .insert(temperatureExcursions)
    .values([...drafts])
    .onConflictDoUpdate({
      target: [temperatureExcursions.organizationId, temperatureExcursions.loadId, temperatureExcursions.sensor, temperatureExcursions.startedAt],
      set: { endedAt: sql`excluded.ended_at`, peakC: sql`excluded.peak_c` },
      setWhere: sql`(${temperatureExcursions.endedAt}, ${temperatureExcursions.peakC}) is distinct from (excluded.ended_at, excluded.peak_c)`,
    })
    .returning({
      organizationId: temperatureExcursions.organizationId,
      id: temperatureExcursions.id,
      loadId: temperatureExcursions.loadId,
      assetId: temperatureExcursions.assetId,
      sensor: temperatureExcursions.sensor,
      startedAt: temperatureExcursions.startedAt,
      endedAt: temperatureExcursions.endedAt,
      direction: temperatureExcursions.direction,
      peakC: temperatureExcursions.peakC,
      setPointC: temperatureExcursions.setPointC,
      toleranceC: temperatureExcursions.toleranceC,
      inserted: sql<boolean | string>`(xmax = 0)`,
    });
  return rows.filter((r) => r.inserted === true || String(r.inserted) === 'true').map(({ inserted: _, ...row }) => row);
}

/** A load's excursions in time order. */
export async function excursionsOfLoad(db: DbOrTx, orgId: string, loadId: string): Promise<ExcursionRow[]> {
  return db
    .select()
    .from(temperatureExcursions)
    .where(and(eq(temperatureExcursions.organizationId, orgId), eq(temperatureExcursions.loadId, loadId)))
    .orderBy(asc(temperatureExcursions.startedAt));
}

/** A trailer's excursions since `fromMs`. */
export async function excursionsOfTrailer(db: DbOrTx, orgId: string, trailerId: string, fromMs: number): Promise<ExcursionRow[]> {
  return db
    .select()
    .from(temperatureExcursions)
    .where(
      and(
        eq(temperatureExcursions.organizationId, orgId),
        eq(temperatureExcursions.assetId, trailerId),
        gte(temperatureExcursions.startedAt, new Date(fromMs)),
      ),
    )
    .orderBy(asc(temperatureExcursions.startedAt));
}

/** A trailer's sensors and their roles. */
export async function sensorsOf(db: DbOrTx, orgId: string, trailerId: string): Promise<Array<{ sensor: string; role: SensorRole }>> {
  return db
    .select({ sensor: trailerSensors.sensor, role: trailerSensors.role })
    .from(trailerSensors)
    .where(and(eq(trailerSensors.organizationId, orgId), eq(trailerSensors.assetId, trailerId)))
    .orderBy(asc(trailerSensors.sensor));
}

/** Replaces a trailer's sensors. */
export async function replaceSensors(
  db: DbOrTx,
  orgId: string,
  trailerId: string,
  sensors: ReadonlyArray<{ sensor: string; role: SensorRole }>,
): Promise<void> {
  await db.delete(trailerSensors).where(and(eq(trailerSensors.organizationId, orgId), eq(trailerSensors.assetId, trailerId)));
  if (sensors.length)
    await db.insert(trailerSensors).values(sensors.map((s) => ({ organizationId: orgId, assetId: trailerId, sensor: s.sensor, role: s.role })));
}

/** A trailer of the organization (null: none, or a vehicle). */
export async function findTrailer(db: DbOrTx, orgId: string, trailerId: string): Promise<{ id: string; unitNumber: string } | undefined> {
  const [row] = await db
    .select({ id: assets.id, unitNumber: assets.unitNumber })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.id, trailerId), eq(assets.type, 'TRAILER')));
  return row;
}

/** A load's facts the temperature record needs (undefined: no such load in the organization). */
export async function findLoad(db: DbOrTx, orgId: string, loadId: string) {
  const [row] = await db
    .select({
      id: loads.id,
      number: loads.number,
      customer: loads.customer,
      commodity: loads.commodity,
      trailerId: loads.trailerId,
      trailerUnit: assets.unitNumber,
      driverId: loads.driverId,
      coDriverId: loads.coDriverId,
      driverName: sql<string | null>`${drivers.firstName} || ' ' || ${drivers.lastName}`,
      setPointC: loads.reeferSetPointC,
      toleranceC: loads.reeferToleranceC,
      delayMinutes: loads.reeferDelayMinutes,
    })
    .from(loads)
    .leftJoin(assets, and(eq(assets.organizationId, loads.organizationId), eq(assets.id, loads.trailerId)))
    .leftJoin(drivers, and(eq(drivers.organizationId, loads.organizationId), eq(drivers.id, loads.driverId)))
    .where(and(eq(loads.organizationId, orgId), eq(loads.id, loadId)));
  return row;
}

/** Saves a load's reefer settings. */
export async function writeLoadSettings(
  db: DbOrTx,
  orgId: string,
  loadId: string,
  s: { setPointC: number; toleranceC: number; delayMinutes: number },
): Promise<void> {
  await db
    .update(loads)
    .set({ reeferSetPointC: s.setPointC, reeferToleranceC: s.toleranceC, reeferDelayMinutes: s.delayMinutes, updatedAt: new Date() })
    .where(and(eq(loads.organizationId, orgId), eq(loads.id, loadId)));
}

/** The organization's name, time zone and saved settings. */
export async function organizationOf(db: DbOrTx, orgId: string) {
  const [row] = await db
    .select({ name: organizations.name, timeZone: organizations.timeZone, settings: organizations.settings })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return row;
}
