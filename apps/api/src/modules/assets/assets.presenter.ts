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
