import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { fuelPurchaseInputSchema, fuelPurchaseListQuery } from '@fleet/api-contract';
import {
  FAR_FROM_STATION_M,
  distanceText,
  exceedsTank,
  isValidTimeZone,
  priceMismatch,
  quarterDays,
  tankCapacityMessage,
  type UnitSystem,
  type FuelCsvImportBody,
  type FuelCsvPreview,
  type FuelCsvResult,
  type FuelPurchase,
  type LocationCheck,
  type Page,
  fuelCsvImportBodySchema,
} from '@fleet/api-contract';
import { distanceM } from '@fleet/geo';
import { locateJurisdiction } from '@fleet/geo/jurisdictions';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, iftaFuelPurchases, organizations } from '../../db/schema/index.ts';
import { conflict, invalidField, notFound } from '../../http/errors.ts';
import { uniqueViolation } from '../../db/sql/pg-error.ts';
import { overTankSql } from './ifta-report.repository.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { recordActivity, recordActivityBatch } from '../activity-log/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { readSettings } from '../organizations/index.ts';
import { zonedToUtc } from '../hos/index.ts';
import { MappingError, parseFuelCsv, type FuelCsvRow } from './fuel-csv.ts';
import { milliGallons } from './return-math.ts';
import { notify } from '../notifications/index.ts';

// Fuel purchases: entry, list, CSV import with a column mapping (decision 0124). Quantities and
// money are kept exactly as the receipt has them (integers of thousandths and cents); every
// purchase is compared with where its vehicle was at that time.

type Input = z.output<typeof fuelPurchaseInputSchema>;
type ListQuery = z.output<typeof fuelPurchaseListQuery>;
type Row = typeof iftaFuelPurchases.$inferSelect;

/** A purchase more than this far from its vehicle's position at that time is flagged (decisions 0124, 0137). */
export const FAR_M = FAR_FROM_STATION_M;
/** The vehicle's position is looked for this far either side of the purchase time. */
const WINDOW_MS = 60 * 60_000;

export function presentPurchase(r: Row, unitNumber: string): FuelPurchase {
  return {
    id: r.id,
    purchasedAt: r.purchasedAt.toISOString(),
    assetId: r.vehicleId,
    unitNumber,
    jurisdiction: r.jurisdiction,
    fuelType: r.fuelType,
    quantity: r.quantityMilli / 1000,
    volumeUnit: r.volumeUnit,
    gallons: milliGallons(r.quantityMilli, r.volumeUnit) / 1000,
    pricePerUnit: r.pricePerUnitMilli === null ? null : r.pricePerUnitMilli / 1000,
    totalAmount: r.totalCents === null ? null : r.totalCents / 100,
    currency: r.currency,
    vendor: r.vendor,
    city: r.city,
    receiptNumber: r.receiptNumber,
    taxPaid: r.taxPaid,
    stationLat: r.stationLat,
    stationLon: r.stationLon,
    notes: r.notes,
    source: r.source,
    locationCheck: r.locationCheck as LocationCheck,
    locationDistanceM: r.locationDistanceM,
    bulk: r.bulk,
    priceMismatch: r.priceMismatch,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export interface LocationProbe {
  vehicleId: string;
  time: number;
  jurisdiction: string;
  stationLat: number | null;
  stationLon: number | null;
}

/**
 * Where each vehicle was at each purchase time (one statement for all: the fixes just before and
 * after within an hour, interpolated), compared with the station: more than 2 km from the station's
 * coordinates is FAR; without coordinates, a vehicle in another jurisdiction is OTHER_JURISDICTION;
 * no fix within an hour is NO_POSITION. The positions are the organization's (a parameter): Citus
 * then routes the statement, laterals with LIMIT over the unnest included, to one shard.
 */
export async function checkLocations(
  db: DbOrTx,
  orgId: string,
  probes: readonly LocationProbe[],
): Promise<Array<{ check: LocationCheck; distanceM: number | null }>> {
  if (probes.length === 0) return [];
  const rows = rowsOf<{
    i: number | string;
    bt: number | null;
    blat: number | null;
    blon: number | null;
    at: number | null;
    alat: number | null;
    alon: number | null;
  }>(
    await db.execute(sql`
      select u.i, extract(epoch from b.fix_time) * 1000 as bt, b.latitude as blat, b.longitude as blon,
             extract(epoch from a.fix_time) * 1000 as at, a.latitude as alat, a.longitude as alon
      from unnest(${`{${probes.map((p) => p.vehicleId).join(',')}}`}::uuid[], ${`{${probes.map((p) => p.time).join(',')}}`}::float8[]) with ordinality as u(v, t, i)
      left join lateral (select fix_time, latitude, longitude from positions where organization_id = ${orgId} and asset_id = u.v and fix_time <= to_timestamp(u.t / 1000)
        and fix_time >= to_timestamp((u.t - ${WINDOW_MS}) / 1000) order by fix_time desc limit 1) b on true
      left join lateral (select fix_time, latitude, longitude from positions where organization_id = ${orgId} and asset_id = u.v and fix_time > to_timestamp(u.t / 1000)
        and fix_time <= to_timestamp((u.t + ${WINDOW_MS}) / 1000) order by fix_time limit 1) a on true
      order by u.i`),
  );
  return rows.map((r) => {
    const p = probes[Number(r.i) - 1]!;
    let at: { lat: number; lon: number } | null = null;
    if (r.blat !== null && r.alat !== null && r.bt !== null && r.at !== null) {
      const f = (p.time - Number(r.bt)) / Math.max(1, Number(r.at) - Number(r.bt));
      at = { lat: r.blat + (r.alat - r.blat) * f, lon: r.blon! + (r.alon! - r.blon!) * f };
    } else if (r.blat !== null) at = { lat: r.blat, lon: r.blon! };
    else if (r.alat !== null) at = { lat: r.alat, lon: r.alon! };
    if (!at) return { check: 'NO_POSITION' as const, distanceM: null };
    if (p.stationLat !== null && p.stationLon !== null) {
      const d = distanceM(at, { lat: p.stationLat, lon: p.stationLon });
      return { check: d > FAR_M ? ('FAR' as const) : ('OK' as const), distanceM: Math.round(d) };
    }
    const where = locateJurisdiction(at.lat, at.lon);
    if (where && where.jurisdiction.code !== p.jurisdiction) return { check: 'OTHER_JURISDICTION' as const, distanceM: null };
    return { check: 'OK' as const, distanceM: null };
  });
}

/** The organization's unit system (settings `units`) and time zone. */
export async function organizationFacts(db: DbOrTx, orgId: string): Promise<{ units: UnitSystem; zone: string }> {
  const [o] = await db.select({ zone: organizations.timeZone, settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  return { units: readSettings(o?.settings).units, zone: o?.zone ?? 'America/Chicago' };
}

interface Vehicle {
  id: string;
  unitNumber: string;
  fuelType: string | null;
  tankCapacityL: number | null;
}

async function vehicleOf(db: DbOrTx, orgId: string, vehicleId: string): Promise<Vehicle> {
  const [v] = await db
    .select({ id: assets.id, unitNumber: assets.unitNumber, fuelType: assets.fuelType, tankCapacityL: assets.tankCapacityL })
    .from(assets)
    .where(and(eq(assets.id, vehicleId), eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE')));
  if (!v) throw invalidField('assetId', 'Vehicle is not a vehicle of this organization');
  return v;
}

function values(orgId: string, input: Input) {
  return {
    organizationId: orgId,
    vehicleId: input.assetId,
    purchasedAt: new Date(input.purchasedAt),
    jurisdiction: input.jurisdiction,
    fuelType: input.fuelType,
    quantityMilli: Math.round(input.quantity * 1000),
    volumeUnit: input.volumeUnit,
    pricePerUnitMilli: input.pricePerUnit == null ? null : Math.round(input.pricePerUnit * 1000),
    totalCents: input.totalAmount == null ? null : Math.round(input.totalAmount * 100),
    currency: input.currency,
    vendor: input.vendor || null,
    city: input.city || null,
    receiptNumber: input.receiptNumber,
    taxPaid: input.taxPaid,
    stationLat: input.stationLat ?? null,
    stationLon: input.stationLon ?? null,
    notes: input.notes || null,
    bulk: input.bulk,
    priceMismatch: priceMismatch(input.quantity, input.pricePerUnit, input.totalAmount),
  };
}

/** The columns an edit writes: the values less the organization. */
function changes(orgId: string, input: Input) {
  const { organizationId: _org, ...rest } = values(orgId, input);
  return rest;
}

/** A quantity above the vehicle's tank is refused unless the purchase says it is a bulk or split entry. */
async function checkQuantity(db: DbOrTx, orgId: string, input: Input, v: Vehicle): Promise<void> {
  if (input.bulk || !exceedsTank(input.quantity, input.volumeUnit, v.tankCapacityL)) return;
  const { units } = await organizationFacts(db, orgId);
  throw invalidField('quantity', tankCapacityMessage(v.unitNumber, v.tankCapacityL, units));
}

function checkStation(input: Input): void {
  if ((input.stationLat == null) !== (input.stationLon == null))
    throw invalidField(input.stationLat == null ? 'stationLat' : 'stationLon', 'Give both the station latitude and longitude, or neither');
  if (Date.parse(input.purchasedAt) > Date.now() + 10 * 60_000) throw invalidField('purchasedAt', 'Purchase time is in the future');
}

const receiptClash = (err: unknown, input: { receiptNumber: string }) => duplicateError(err, input);

export async function getPurchase({ db, orgId }: ReadScope, id: string): Promise<FuelPurchase> {
  const [r] = await db
    .select({ p: iftaFuelPurchases, unit: assets.unitNumber })
    .from(iftaFuelPurchases)
    .innerJoin(assets, and(eq(assets.id, iftaFuelPurchases.vehicleId), eq(assets.organizationId, iftaFuelPurchases.organizationId)))
    .where(and(eq(iftaFuelPurchases.id, id), eq(iftaFuelPurchases.organizationId, orgId)));
  if (!r) throw notFound('Fuel purchase');
  return presentPurchase(r.p, r.unit);
}

/** Records a purchase; a receipt number already recorded in the organization is a 409 naming it. */
export async function createPurchase({ db, orgId, actor }: Scope, input: Input): Promise<FuelPurchase> {
  checkStation(input);
  try {
    const id = await db.transaction(async (tx) => {
      await checkQuantity(tx, orgId, input, await vehicleOf(tx, orgId, input.assetId));
      const [check] = await checkLocations(tx, orgId, [
        {
          vehicleId: input.assetId,
          time: Date.parse(input.purchasedAt),
          jurisdiction: input.jurisdiction,
          stationLat: input.stationLat ?? null,
          stationLon: input.stationLon ?? null,
        },
      ]);
      const [row] = await tx
        .insert(iftaFuelPurchases)
        .values({ ...values(orgId, input), source: 'MANUAL', locationCheck: check!.check, locationDistanceM: check!.distanceM })
        .returning();
      await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'IFTA_FUEL_PURCHASE', entityId: row!.id, after: row });
      return row!.id;
    });
    return await getPurchase({ db, orgId }, id);
  } catch (err) {
    throw receiptClash(err, input) ?? err;
  }
}

export async function updatePurchase({ db, orgId, actor }: Scope, id: string, input: Input): Promise<FuelPurchase> {
  checkStation(input);
  try {
    await db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(iftaFuelPurchases)
        .where(and(eq(iftaFuelPurchases.id, id), eq(iftaFuelPurchases.organizationId, orgId)))
        .for('update');
      if (!before) throw notFound('Fuel purchase');
      await checkQuantity(tx, orgId, input, await vehicleOf(tx, orgId, input.assetId));
      const [check] = await checkLocations(tx, orgId, [
        {
          vehicleId: input.assetId,
          time: Date.parse(input.purchasedAt),
          jurisdiction: input.jurisdiction,
          stationLat: input.stationLat ?? null,
          stationLon: input.stationLon ?? null,
        },
      ]);
      const [after] = await tx
        .update(iftaFuelPurchases)
        // Not organization_id: Citus refuses any write of the distribution column, even the same value.
        .set({ ...changes(orgId, input), locationCheck: check!.check, locationDistanceM: check!.distanceM, updatedAt: new Date() })
        .where(and(eq(iftaFuelPurchases.id, id), eq(iftaFuelPurchases.organizationId, orgId)))
        .returning();
      await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'IFTA_FUEL_PURCHASE', entityId: id, before, after });
    });
  } catch (err) {
    throw receiptClash(err, input) ?? err;
  }
  return getPurchase({ db, orgId }, id);
}

export async function deletePurchase({ db, orgId, actor }: Scope, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(iftaFuelPurchases)
      .where(and(eq(iftaFuelPurchases.id, id), eq(iftaFuelPurchases.organizationId, orgId)))
      .for('update');
    if (!before) throw notFound('Fuel purchase');
    await tx.delete(iftaFuelPurchases).where(eq(iftaFuelPurchases.id, id));
    await recordActivity(tx, { orgId, actor, action: 'DELETE', entityType: 'IFTA_FUEL_PURCHASE', entityId: id, before });
  });
}

const SORTS = {
  purchasedAt: iftaFuelPurchases.purchasedAt,
  jurisdiction: iftaFuelPurchases.jurisdiction,
  unitNumber: sql`lower(${assets.unitNumber})`,
  quantity: iftaFuelPurchases.quantityMilli,
  totalAmount: iftaFuelPurchases.totalCents,
  receiptNumber: sql`lower(${iftaFuelPurchases.receiptNumber})`,
  vendor: sql`lower(${iftaFuelPurchases.vendor})`,
};

export async function listPurchases({ db, orgId }: ReadScope, q: ListQuery): Promise<Page<FuelPurchase>> {
  const where: SQL[] = [eq(iftaFuelPurchases.organizationId, orgId)];
  if (q.quarter) {
    const { from, to } = quarterDays(q.quarter);
    where.push(gte(iftaFuelPurchases.purchasedAt, new Date(`${from}T00:00:00Z`)), lt(iftaFuelPurchases.purchasedAt, new Date(`${to}T00:00:00Z`)));
  }
  if (q.assetId) where.push(eq(iftaFuelPurchases.vehicleId, q.assetId));
  if (q.jurisdiction) where.push(eq(iftaFuelPurchases.jurisdiction, q.jurisdiction));
  if (q.fuelType) where.push(eq(iftaFuelPurchases.fuelType, q.fuelType));
  // The same purchases the report lists under To review (an unverified place alone is not one).
  const toReview = or(
    inArray(iftaFuelPurchases.locationCheck, ['FAR', 'OTHER_JURISDICTION']),
    eq(iftaFuelPurchases.priceMismatch, true),
    and(eq(iftaFuelPurchases.bulk, true), overTankSql),
  )!;
  if (q.flagged === 'true') where.push(toReview);
  if (q.flagged === 'false') where.push(sql`not ${toReview}`);
  if (q.search) {
    where.push(
      sql`lower(${iftaFuelPurchases.receiptNumber} || ' ' || coalesce(${iftaFuelPurchases.vendor}, '') || ' ' || coalesce(${iftaFuelPurchases.city}, '') || ' ' || ${assets.unitNumber}) like ${likeTerm(q.search)}`,
    );
  }
  const cond = and(...where);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(iftaFuelPurchases)
    .innerJoin(assets, and(eq(assets.id, iftaFuelPurchases.vehicleId), eq(assets.organizationId, iftaFuelPurchases.organizationId)))
    .where(cond);
  const rows = await db
    .select({ p: iftaFuelPurchases, unit: assets.unitNumber })
    .from(iftaFuelPurchases)
    .innerJoin(assets, and(eq(assets.id, iftaFuelPurchases.vehicleId), eq(assets.organizationId, iftaFuelPurchases.organizationId)))
    .where(cond)
    .orderBy(...orderBy(q.sort, SORTS, desc(iftaFuelPurchases.purchasedAt), asc(iftaFuelPurchases.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  return toPage(
    rows.map((r) => presentPurchase(r.p, r.unit)),
    total?.n ?? 0,
    q,
  );
}

// ---------------------------------------------------------------------------------------------
// CSV import

type ImportBody = z.output<typeof fuelCsvImportBodySchema>;

interface Analysis extends FuelCsvPreview {
  valid: Array<{ row: FuelCsvRow; vehicleId: string; check: LocationCheck; distanceM: number | null; priceMismatch: boolean }>;
}

/** Reads the whole file through the mapping and checks each row (vehicle, duplicates, place), writing nothing. */
async function analyse(db: DbOrTx, orgId: string, body: ImportBody): Promise<Analysis> {
  if (body.timeZone && !isValidTimeZone(body.timeZone)) throw invalidField('timeZone', `${body.timeZone} is not a time zone`);
  const org = await organizationFacts(db, orgId);
  const zone = body.timeZone ?? org.zone;
  let parsed;
  try {
    parsed = parseFuelCsv(body.csv, {
      preset: body.preset,
      mapping: body.mapping,
      defaultUnit: body.defaultUnit,
      dateFormat: body.dateFormat,
      toUtc: (ms) => zonedToUtc(ms, zone),
    });
  } catch (err) {
    if (err instanceof MappingError) throw invalidField('mapping', err.message);
    throw err;
  }
  const errors = [...parsed.errors];
  const bad = new Set(parsed.badLines);
  const fail = (line: number, field: string, message: string) => {
    bad.add(line);
    if (errors.length < 1000) errors.push({ line, field, message });
  };
  const vehicles = new Map(
    (
      await db
        .select({ id: assets.id, unitNumber: assets.unitNumber, fuelType: assets.fuelType, tankCapacityL: assets.tankCapacityL })
        .from(assets)
        .where(and(eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE')))
    ).map((v) => [v.unitNumber.toLowerCase(), v]),
  );
  const quantityField = parsed.mapping.gallons ? 'gallons' : parsed.mapping.litres ? 'litres' : 'quantity';
  const taken = new Set(
    (
      await db
        .select({ r: sql<string>`lower(${iftaFuelPurchases.receiptNumber})` })
        .from(iftaFuelPurchases)
        .where(eq(iftaFuelPurchases.organizationId, orgId))
    ).map((r) => r.r),
  );
  const seen = new Map<string, number>();
  const col = (f: keyof typeof parsed.mapping) => parsed.mapping[f] ?? f;
  const candidates: Array<{ row: FuelCsvRow; vehicleId: string }> = [];
  for (const row of parsed.rows) {
    const vehicle = vehicles.get(row.unitNumber.toLowerCase());
    if (!vehicle) {
      fail(row.line, col('unitNumber'), `No vehicle with unit number ${row.unitNumber} in this organization`);
      continue;
    }
    const vehicleId = vehicle.id;
    // The same rule as a purchase entered by hand: more than a tank holds only as a bulk or split entry.
    if (!row.bulk && exceedsTank(row.quantityMilli / 1000, row.volumeUnit, vehicle.tankCapacityL)) {
      fail(row.line, col(quantityField), tankCapacityMessage(vehicle.unitNumber, vehicle.tankCapacityL, org.units));
      continue;
    }
    if (row.purchasedAt > Date.now() + 10 * 60_000) {
      fail(row.line, col(parsed.mapping.dateTime ? 'dateTime' : 'date'), 'The purchase time is in the future');
      continue;
    }
    const key = row.receiptNumber.toLowerCase();
    if (taken.has(key)) {
      fail(row.line, col('receiptNumber'), `Receipt ${row.receiptNumber} is already recorded`);
      continue;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      fail(row.line, col('receiptNumber'), `Receipt ${row.receiptNumber} repeats line ${first}`);
      continue;
    }
    seen.set(key, row.line);
    candidates.push({ row, vehicleId });
  }
  const checks = await checkLocations(
    db,
    orgId,
    candidates.map((c) => ({
      vehicleId: c.vehicleId,
      time: c.row.purchasedAt,
      jurisdiction: c.row.jurisdiction,
      stationLat: c.row.stationLat,
      stationLon: c.row.stationLon,
    })),
  );
  const valid = candidates.map((c, i) => ({
    ...c,
    check: checks[i]!.check,
    distanceM: checks[i]!.distanceM,
    priceMismatch: priceMismatch(
      c.row.quantityMilli / 1000,
      c.row.pricePerUnitMilli === null ? null : c.row.pricePerUnitMilli / 1000,
      c.row.totalCents === null ? null : c.row.totalCents / 100,
    ),
  }));
  const tankOf = (v: (typeof valid)[number]) => vehicles.get(v.row.unitNumber.toLowerCase())?.tankCapacityL ?? null;
  const reasons = (v: (typeof valid)[number]): string[] => [
    ...(v.check === 'FAR' ? [`bought ${distanceText(v.distanceM ?? 0, org.units)} from where the vehicle was`] : []),
    ...(v.check === 'OTHER_JURISDICTION' ? [`the vehicle was not in ${v.row.jurisdiction} at that time`] : []),
    ...(v.priceMismatch ? ['price × quantity differs from the total by more than 1 %'] : []),
    ...(v.row.bulk && exceedsTank(v.row.quantityMilli / 1000, v.row.volumeUnit, tankOf(v))
      ? ['more than the tank holds, entered as a bulk or split entry']
      : []),
  ];
  errors.sort((a, b) => a.line - b.line);
  return {
    totalRows: parsed.totalRows,
    validRows: valid.length,
    invalidRows: bad.size,
    skippedRows: parsed.skipped.length,
    errors,
    skipped: parsed.skipped,
    flagged: valid
      .map((v) => ({ v, why: reasons(v) }))
      .filter(({ why }) => why.length > 0)
      .map(({ v, why }) => ({
        line: v.row.line,
        receiptNumber: v.row.receiptNumber,
        check: v.check,
        distanceM: v.distanceM,
        priceMismatch: v.priceMismatch,
        reason: why.join('; '),
      })),
    mapping: parsed.mapping as Record<string, string>,
    headers: parsed.headers,
    unmappedColumns: parsed.unmappedColumns,
    sample: valid.slice(0, 20).map((v) => ({
      line: v.row.line,
      purchasedAt: new Date(v.row.purchasedAt).toISOString(),
      unitNumber: v.row.unitNumber,
      jurisdiction: v.row.jurisdiction,
      gallons: milliGallons(v.row.quantityMilli, v.row.volumeUnit) / 1000,
      quantity: v.row.quantityMilli / 1000,
      volumeUnit: v.row.volumeUnit,
      totalAmount: v.row.totalCents === null ? null : v.row.totalCents / 100,
      receiptNumber: v.row.receiptNumber,
      vendor: v.row.vendor,
      check: v.check,
    })),
    valid,
  };
}

export async function previewFuelImport({ db, orgId }: ReadScope, body: FuelCsvImportBody): Promise<FuelCsvPreview> {
  const { valid: _valid, ...preview } = await analyse(db, orgId, fuelCsvImportBodySchema.parse(body));
  return preview;
}

/** Imports the valid rows in one transaction (rows with errors and skipped product lines are reported, not imported). */
export async function commitFuelImport({ db, orgId, actor }: Scope, body: FuelCsvImportBody): Promise<FuelCsvResult> {
  const parsedBody = fuelCsvImportBodySchema.parse(body);
  try {
    return await db.transaction(async (tx) => {
      const { valid, ...preview } = await analyse(tx, orgId, parsedBody);
      const inserted: Row[] = [];
      for (let i = 0; i < valid.length; i += 500) {
        const chunk = valid.slice(i, i + 500).map((v) => ({
          organizationId: orgId,
          vehicleId: v.vehicleId,
          purchasedAt: new Date(v.row.purchasedAt),
          jurisdiction: v.row.jurisdiction,
          fuelType: parsedBody.fuelType,
          quantityMilli: v.row.quantityMilli,
          volumeUnit: v.row.volumeUnit,
          pricePerUnitMilli: v.row.pricePerUnitMilli,
          totalCents: v.row.totalCents,
          currency: v.row.currency,
          vendor: v.row.vendor,
          city: v.row.city,
          receiptNumber: v.row.receiptNumber,
          taxPaid: v.row.taxPaid,
          stationLat: v.row.stationLat,
          stationLon: v.row.stationLon,
          notes: v.row.productCode ? `Product ${v.row.productCode}${v.row.cardNumber ? `, card ${v.row.cardNumber}` : ''}` : null,
          source: 'CSV' as const,
          locationCheck: v.check,
          locationDistanceM: v.distanceM,
          bulk: v.row.bulk,
          priceMismatch: v.priceMismatch,
        }));
        if (chunk.length) inserted.push(...(await tx.insert(iftaFuelPurchases).values(chunk).returning()));
      }
      await recordActivityBatch(
        tx,
        inserted.map((r) => ({ orgId, actor, action: 'IMPORT', entityType: 'IFTA_FUEL_PURCHASE', entityId: r.id, after: { ...r, source: 'CSV import' } })),
      );
      // The importer hears of it (bell, e-mail) as they chose, committed with the rows (decision 0130).
      if (actor.userId && inserted.length > 0) {
        const flagged = preview.flagged.length;
        await notify(tx, {
          organizationId: orgId,
          kind: 'IMPORT_FINISHED',
          factKey: `import:fuel:${randomUUID()}`,
          title: `Import finished: ${inserted.length} fuel purchase${inserted.length === 1 ? '' : 's'} added`,
          body: [
            preview.invalidRows > 0 ? `${preview.invalidRows} rows of the file had errors and were not imported.` : 'Every valid row of the file was imported.',
            flagged > 0 ? `${flagged} to review (bought away from the vehicle, price and total apart, or a bulk entry): see the To review tab.` : '',
          ]
            .filter(Boolean)
            .join(' '),
          link: '/ifta?tab=fuel',
          linkLabel: 'Open fuel purchases',
          userIds: [actor.userId],
        });
      }
      return { ...preview, imported: inserted.length };
    });
  } catch (err) {
    if (uniqueViolation(err))
      throw conflict('Some receipts were recorded since the preview; preview the file again', 'receiptNumber: a receipt number is already recorded');
    throw err;
  }
}
