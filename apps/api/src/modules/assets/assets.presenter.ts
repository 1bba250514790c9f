import type { Asset } from '@fleet/api-contract';
import type { assets } from '../../db/schema/index.ts';

type AssetRow = typeof assets.$inferSelect;

export interface AssetLinks {
  driver: { id: string; firstName: string; lastName: string } | null;
  device: { id: string; uniqueId: string; name: string; lastSeenAt: Date | null } | null;
  attachedTo: { id: string; unitNumber: string } | null;
  trailers: Array<{ id: string; unitNumber: string }>;
  groups: Array<{ id: string; name: string }>;
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** A vehicle or trailer as the API shows it: metric numbers, links by id and label. */
export function presentAsset(a: AssetRow, links: AssetLinks): Asset {
  return {
    id: a.id,
    organizationId: a.organizationId,
    type: a.type,
    unitNumber: a.unitNumber,
    vin: a.vin,
    make: a.make,
    model: a.model,
    year: a.year,
    plate: a.plate,
    plateState: a.plateState,
    fuelType: a.fuelType,
    iftaQualified: a.iftaQualified,
    odometerKm: a.odometerM === null ? null : round(a.odometerM / 1000, 1),
    tankCapacityL: a.tankCapacityL === null ? null : round(a.tankCapacityL, 3),
    trailerType: a.trailerType,
    lengthM: a.lengthM === null ? null : round(a.lengthM, 2),
    status: a.status,
    notes: a.notes,
    currentDriver: links.driver,
    device: links.device ? { ...links.device, lastSeenAt: links.device.lastSeenAt?.toISOString() ?? null } : null,
    trailers: links.trailers.map((t) => ({ ...t, type: 'TRAILER' as const })),
    attachedTo: links.attachedTo ? { ...links.attachedTo, type: 'VEHICLE' as const } : null,
    groups: links.groups,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

/** A row of the list statement (assets.list-query.ts): asset columns, links flattened, times as ISO text. */
export interface AssetListRow {
  id: string;
  organizationId: string;
  type: 'VEHICLE' | 'TRAILER';
  unitNumber: string;
  vin: string | null;
  make: string | null;
  model: string | null;
  year: number | null;
  plate: string | null;
  plateState: string | null;
  fuelType: string | null;
  iftaQualified: boolean;
  odometerM: number | null;
  tankCapacityL: number | null;
  trailerType: string | null;
  lengthM: number | null;
  status: 'ACTIVE' | 'INACTIVE';
  notes: string | null;
  createdAt: string;
  updatedAt: string;
  driverId: string | null;
  driverFirstName: string | null;
  driverLastName: string | null;
  deviceId: string | null;
  deviceUniqueId: string | null;
  deviceName: string | null;
  deviceLastSeenAt: string | null;
  towingId: string | null;
  towingUnit: string | null;
  trailers: Array<{ id: string; unitNumber: string; type: 'TRAILER' }>;
  groups: Array<{ id: string; name: string }>;
}

/** The same presentation as presentAsset, from a list row (one object literal, no intermediate links). */
export function presentAssetListRow(r: AssetListRow): Asset {
  return {
    id: r.id,
    organizationId: r.organizationId,
    type: r.type,
    unitNumber: r.unitNumber,
    vin: r.vin,
    make: r.make,
    model: r.model,
    year: r.year,
    plate: r.plate,
    plateState: r.plateState,
    fuelType: r.fuelType,
    iftaQualified: r.iftaQualified,
    odometerKm: r.odometerM === null ? null : round(r.odometerM / 1000, 1),
    tankCapacityL: r.tankCapacityL === null ? null : round(r.tankCapacityL, 3),
    trailerType: r.trailerType,
    lengthM: r.lengthM === null ? null : round(r.lengthM, 2),
    status: r.status,
    notes: r.notes,
    currentDriver: r.driverId ? { id: r.driverId, firstName: r.driverFirstName ?? '', lastName: r.driverLastName ?? '' } : null,
    device: r.deviceId ? { id: r.deviceId, uniqueId: r.deviceUniqueId ?? '', name: r.deviceName ?? '', lastSeenAt: r.deviceLastSeenAt } : null,
    trailers: r.trailers,
    attachedTo: r.towingId ? { id: r.towingId, unitNumber: r.towingUnit ?? '', type: 'VEHICLE' } : null,
    groups: r.groups,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
