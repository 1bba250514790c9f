import { and, eq, sql } from 'drizzle-orm';
import { VEHICLE_FIX_FRESH_MS } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { vehicleOdometerAt } from '../assets/index.ts';
import { assets, latestPositions } from '../../db/schema/index.ts';
import { fixesOf } from './auto-duty/auto-duty.repository.ts';
import { MOVING_KMH } from './auto-duty/derive.ts';

/** A latest fix older than this says nothing about where the vehicle is now or whether it moves. */
export const FRESH_FIX_MS = VEHICLE_FIX_FRESH_MS;

export interface DriverVehicle {
  vehicle: { id: string; unitNumber: string; type: 'VEHICLE' | 'TRAILER'; vin: string | null } | null;
  /** The vehicle's latest fix when it is fresh (FRESH_FIX_MS), else null. */
  position: { latitude: number; longitude: number; odometerM: number | null; engineHours: number | null; at: number; speedKmh: number | null } | null;
  /** The latest fresh fix is at 5 mph or more: the ELD records Driving and the driver cannot change status (4.4.1). */
  moving: boolean;
}

/**
 * The vehicle's odometer at its fix (issue 66): the fix's own when it carries one (the same reading),
 * else the vehicle's one odometer then (assets' vehicleOdometerAt: an earlier reading, or the entered one).
 */
async function odometerAtFix(db: DbOrTx, orgId: string, vehicleId: string, fixOdometerM: number | null, at: Date): Promise<number | null> {
  return fixOdometerM ?? (await vehicleOdometerAt(db, orgId, vehicleId, at))?.metres ?? null;
}

/** The vehicle the driver is assigned to now, with its latest fix (one query). */
export async function driverVehicleOf(db: DbOrTx, orgId: string, driverId: string, now = Date.now()): Promise<DriverVehicle> {
  const [row] = await db
    .select({
      id: assets.id,
      unitNumber: assets.unitNumber,
      type: assets.type,
      vin: assets.vin,
      fixTime: latestPositions.fixTime,
      latitude: latestPositions.latitude,
      longitude: latestPositions.longitude,
      odometer: latestPositions.odometer,
      // The engine's total hours the device reported with that fix (ECM, decision 0155).
      engineHours: sql<
        number | null
      >`case when jsonb_typeof(${latestPositions.attributes}->'engineHours') = 'number' then (${latestPositions.attributes}->>'engineHours')::float8 end`,
      speed: latestPositions.speed,
    })
    .from(assets)
    .leftJoin(latestPositions, and(eq(latestPositions.assetId, assets.id), eq(latestPositions.organizationId, assets.organizationId)))
    .where(and(eq(assets.organizationId, orgId), eq(assets.currentDriverId, driverId), eq(assets.type, 'VEHICLE')))
    .limit(1);
  if (!row) return { vehicle: null, position: null, moving: false };
  const fresh = row.fixTime !== null && row.latitude !== null && row.longitude !== null && now - row.fixTime.getTime() <= FRESH_FIX_MS;
  const odometerM = fresh ? await odometerAtFix(db, orgId, row.id, row.odometer, row.fixTime!) : null;
  const position = fresh
    ? {
        latitude: row.latitude!,
        longitude: row.longitude!,
        odometerM,
        engineHours: row.engineHours === null ? null : Number(row.engineHours),
        at: row.fixTime!.getTime(),
        speedKmh: row.speed,
      }
    : null;
  return {
    vehicle: { id: row.id, unitNumber: row.unitNumber, type: row.type, vin: row.vin },
    position,
    moving: position !== null && (position.speedKmh ?? 0) >= MOVING_KMH,
  };
}

/**
 * The driver's vehicle as it was at `atMs` (a change a phone sent late, decision 0184): the vehicle
 * assigned now, with its last stored fix at or before `atMs` within FRESH_FIX_MS.
 */
export async function driverVehicleAt(db: DbOrTx, orgId: string, driverId: string, atMs: number): Promise<DriverVehicle> {
  const now = await driverVehicleOf(db, orgId, driverId, atMs);
  if (!now.vehicle) return now;
  const fix = (await fixesOf(db, orgId, now.vehicle.id, atMs - FRESH_FIX_MS, atMs)).at(-1);
  if (!fix) return { ...now, position: null, moving: false };
  const position = {
    latitude: fix.lat,
    longitude: fix.lon,
    odometerM: await odometerAtFix(db, orgId, now.vehicle.id, fix.odometerM, new Date(fix.time)),
    engineHours: fix.engineHours ?? null,
    at: fix.time,
    speedKmh: fix.speedKmh,
  };
  return { ...now, position, moving: (fix.speedKmh ?? 0) >= MOVING_KMH };
}
