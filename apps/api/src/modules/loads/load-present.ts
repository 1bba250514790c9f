import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Load, LoadStop } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, loadDocuments, loadStatusEvents, loadStops, loads, places, users } from '../../db/schema/index.ts';
import { imageLink } from '../images/index.ts';

// Loads as the API answers them (decision 0166): cents to decimal amounts, metres to km, the
// stops with their place's name, drivers and units by name. Several loads are read in a fixed
// number of statements whatever their number (a list page).

export type LoadRow = typeof loads.$inferSelect;
export type StopRow = typeof loadStops.$inferSelect;

export const fromCents = (c: number): number => Math.round(c) / 100;
export const toCents = (v: number): number => Math.round(v * 100);

/** The rate's total in cents: line haul, fuel surcharge and every accessorial. */
export const totalCents = (l: Pick<LoadRow, 'lineHaulCents' | 'fuelSurchargeCents' | 'accessorials'>): number =>
  l.lineHaulCents + l.fuelSurchargeCents + l.accessorials.reduce((sum, a) => sum + a.amountCents, 0);

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const personName = (u: { firstName: string | null; lastName: string | null; email: string }) => `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.email;

/** Every stop of these loads in driving order, by load. */
export async function stopsOf(db: DbOrTx, loadIds: readonly string[]): Promise<Map<string, Array<StopRow & { placeName: string | null }>>> {
  const out = new Map<string, Array<StopRow & { placeName: string | null }>>();
  if (loadIds.length === 0) return out;
  const rows = await db
    .select({ stop: loadStops, placeName: places.name })
    .from(loadStops)
    .leftJoin(places, and(eq(places.id, loadStops.placeId), eq(places.organizationId, loadStops.organizationId)))
    .where(inArray(loadStops.loadId, [...loadIds]))
    .orderBy(asc(loadStops.loadId), asc(loadStops.seq));
  for (const r of rows) {
    const list = out.get(r.stop.loadId) ?? [];
    list.push({ ...r.stop, placeName: r.placeName });
    out.set(r.stop.loadId, list);
  }
  return out;
}

function presentStop(s: StopRow & { placeName: string | null }): LoadStop {
  return {
    id: s.id,
    seq: s.seq,
    kind: s.kind,
    placeId: s.placeId,
    placeName: s.placeName,
    latitude: s.latitude,
    longitude: s.longitude,
    address: s.address,
    windowStart: s.windowStart.toISOString(),
    windowEnd: s.windowEnd.toISOString(),
    serviceMinutes: s.serviceMinutes,
    arrivedAt: iso(s.arrivedAt),
    departedAt: iso(s.departedAt),
    arrivalSource: s.arrivalSource,
    departureSource: s.departureSource,
    eta: iso(s.eta),
    windowMet: s.windowMet,
  };
}

/** The loads as the API shows them; `full` adds the status history and the documents (one load's page). */
export async function presentLoads(db: DbOrTx, rows: readonly LoadRow[], full: boolean): Promise<Load[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const driverIds = [...new Set(rows.flatMap((r) => [r.driverId, r.coDriverId].filter((id): id is string => !!id)))];
  const unitIds = [...new Set(rows.flatMap((r) => [r.assetId, r.trailerId].filter((id): id is string => !!id)))];
  // The organizations named: on Citus the reads go to their shards only (issue 49).
  const orgIds = [...new Set(rows.map((r) => r.organizationId))];
  const [stops, ds, units] = await Promise.all([
    stopsOf(db, ids),
    driverIds.length
      ? db
          .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName })
          .from(drivers)
          .where(and(inArray(drivers.organizationId, orgIds), inArray(drivers.id, driverIds)))
      : [],
    unitIds.length
      ? db
          .select({ id: assets.id, unitNumber: assets.unitNumber })
          .from(assets)
          .where(and(inArray(assets.organizationId, orgIds), inArray(assets.id, unitIds)))
      : [],
  ]);
  const driverName = new Map(ds.map((d) => [d.id, `${d.firstName} ${d.lastName}`.trim()]));
  const unit = new Map(units.map((u) => [u.id, u.unitNumber]));
  const history = new Map<string, Load['statusHistory']>();
  const documents = new Map<string, Load['documents']>();
  if (full) {
    const events = await db
      .select({ e: loadStatusEvents, u: { firstName: users.firstName, lastName: users.lastName, email: users.email } })
      .from(loadStatusEvents)
      .leftJoin(users, eq(users.id, loadStatusEvents.userId))
      .where(inArray(loadStatusEvents.loadId, ids))
      .orderBy(asc(loadStatusEvents.at), asc(loadStatusEvents.id));
    for (const { e, u } of events) {
      const list = history.get(e.loadId) ?? [];
      list.push({ status: e.status, at: e.at.toISOString(), by: u ? personName(u) : null, note: e.note });
      history.set(e.loadId, list);
    }
    const docs = await db
      .select({ d: loadDocuments, u: { firstName: users.firstName, lastName: users.lastName, email: users.email } })
      .from(loadDocuments)
      .leftJoin(users, eq(users.id, loadDocuments.uploadedBy))
      .where(inArray(loadDocuments.loadId, ids))
      .orderBy(asc(loadDocuments.createdAt), asc(loadDocuments.id));
    for (const { d, u } of docs) {
      const list = documents.get(d.loadId) ?? [];
      list.push({
        id: d.id,
        documentKind: d.kind,
        imageId: d.imageId,
        imageUrl: imageLink(d.imageId),
        stopId: d.stopId,
        uploadedBy: u ? personName(u) : null,
        createdAt: d.createdAt.toISOString(),
      });
      documents.set(d.loadId, list);
    }
  }
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    customer: r.customer,
    customerId: r.customerId,
    customerPlaceId: r.customerPlaceId,
    bolNumber: r.bolNumber,
    poNumber: r.poNumber,
    commodity: r.commodity,
    weightKg: r.weightKg,
    status: r.status,
    stops: (stops.get(r.id) ?? []).map(presentStop),
    rate: {
      lineHaul: fromCents(r.lineHaulCents),
      fuelSurcharge: fromCents(r.fuelSurchargeCents),
      accessorials: r.accessorials.map((a) => ({ kind: a.kind, amount: fromCents(a.amountCents), note: a.note })),
      total: fromCents(totalCents(r)),
    },
    currency: r.currency,
    drivers: [r.driverId, r.coDriverId].filter((id): id is string => !!id).map((id) => ({ id, name: driverName.get(id) ?? '' })),
    asset: r.assetId ? { id: r.assetId, unitNumber: unit.get(r.assetId) ?? '' } : null,
    trailer: r.trailerId ? { id: r.trailerId, unitNumber: unit.get(r.trailerId) ?? '' } : null,
    loadedKm: r.loadedM === null ? null : Math.round(r.loadedM) / 1000,
    atRisk: r.atRisk,
    riskReason: r.riskReason,
    etaUpdatedAt: iso(r.etaUpdatedAt),
    deliveredAt: iso(r.deliveredAt),
    notes: r.notes,
    statusHistory: history.get(r.id) ?? [],
    documents: documents.get(r.id) ?? [],
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/** One load of the organization (locked for update when asked), or undefined. */
export async function findLoadRow(db: DbOrTx, orgId: string, loadId: string, lock = false): Promise<LoadRow | undefined> {
  const q = db
    .select()
    .from(loads)
    .where(and(eq(loads.id, loadId), eq(loads.organizationId, orgId)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}
