import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { assets, groupAssets, iftaFuelPurchases, organizations } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { DEFAULT_TANK_CAPACITY_L } from '@fleet/api-contract';

// The quarter's return reads (decision 0122): the organization with its latest filing, the vehicles
// in scope, and the aggregates of the distance tables, fuel purchases, adjustments and review marks
// in one statement. ifta-report.service.ts turns them into the return.

/** The quarter's latest filing as the report reads it. */
export interface FilingRow {
  version: number;
  filedAt: string;
  filedBy: string | null;
  returns: unknown[];
}

/** Gallons bought per vehicle, jurisdiction, fuel type, tax status and unit (thousandths, as text: a sum of bigints). */
export interface PurchaseTotal {
  vehicleId: string;
  jurisdiction: string;
  fuelType: string;
  taxPaid: boolean;
  unit: 'GAL' | 'L';
  milli: string;
}

/** A purchase to review with the vehicle's tank (times as JSON gives them, then as dates). */
export interface SuspiciousRow<T> {
  id: string;
  vehicleId: string;
  purchasedAt: T;
  updatedAt: T;
  jurisdiction: string;
  receiptNumber: string;
  locationCheck: string;
  locationDistanceM: number | null;
  priceMismatch: boolean;
  pricePerUnitMilli: number | null;
  totalCents: number | null;
  quantityMilli: number;
  volumeUnit: 'GAL' | 'L';
  currency: 'USD' | 'CAD';
  bulk: boolean;
  tank: number | null;
  overTank: boolean;
}

export interface AdjustmentRow {
  vehicleId: string | null;
  kind: 'MISSING_TRIP' | 'CORRECTION' | 'OFF_HIGHWAY' | 'TRIP_PERMIT';
  jurisdiction: string;
  distanceM: number;
}

export interface MarkRow<T> {
  itemKey: string;
  reviewedAt: T;
  reviewedByEmail: string | null;
  note: string | null;
}

/** The organization and the quarter's latest filing, in one statement; undefined when there is no such organization. */
export async function readOrganizationAndFiling(
  db: DbOrTx,
  orgId: string,
  quarter: string,
): Promise<{ org: typeof organizations.$inferSelect; filing: FilingRow | null } | undefined> {
  const latestFiling = sql`select version, filed_at as "filedAt", filed_by as "filedBy", returns from ifta_filings
    where organization_id = ${orgId} and quarter = ${quarter} order by version desc limit 1`;
  const [head] = await db
    .select({ org: organizations, filing: sql<unknown>`(select row_to_json(f) from (${latestFiling}) f)` })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return head && { org: head.org, filing: jsonValue(head.filing) as FilingRow | null };
}

/** The organization's IFTA-qualified vehicles with their fuel type (diesel when unset), narrowed to one vehicle or a group's. */
export async function readQualifiedVehicles(
  db: DbOrTx,
  orgId: string,
  q: { assetId?: string; groupId?: string },
): Promise<Array<{ id: string; unitNumber: string; fuelType: string }>> {
  const conds = [eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE'), eq(assets.iftaQualified, true)];
  if (q.assetId) conds.push(eq(assets.id, q.assetId));
  if (q.groupId) conds.push(inArray(assets.id, db.select({ id: groupAssets.assetId }).from(groupAssets).where(eq(groupAssets.groupId, q.groupId))));
  return db
    .select({ id: assets.id, unitNumber: assets.unitNumber, fuelType: sql<string>`coalesce(${assets.fuelType}, 'DIESEL')` })
    .from(assets)
    .where(and(...conds));
}

/** Whether the organization has this asset (any type). */
export async function vehicleExists(db: DbOrTx, orgId: string, assetId: string): Promise<boolean> {
  const [v] = await db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.id, assetId), eq(assets.organizationId, orgId)));
  return !!v;
}

export interface QuarterRead {
  quarter: string;
  /** The quarter's first day and the next quarter's, as dates. */
  from: string;
  to: string;
  /** The same days' midnights in the base jurisdiction's zone (decision 0189): purchases are bounded by them. */
  fromAt: Date;
  toAt: Date;
  /** The vehicles to read, or null for every vehicle of the organization. */
  vehicleIds: readonly string[] | null;
  /** Rows of each flagged kind read at most (the report lists this many of each). */
  maxFlagsPerKind: number;
}

/** Distance rows as the statement gives them (numbers may come as text: sums of bigints). */
type Metres = number | string;

export interface QuarterParts {
  /** Metres per vehicle and jurisdiction (the month rollup). */
  distance: Array<{ vehicle_id: string; jurisdiction: string; m: Metres }>;
  /** Odometer travel per vehicle against the metres counted on the days with readings. */
  odometers: Array<{ vehicle_id: string; odo: Metres; m: Metres }>;
  /** Days with gaps or unknown places (a partial index holds just those). */
  reviewDays: Array<{ vehicle_id: string; day: string; jurisdiction: string; m: Metres; im: Metres }>;
  /** Impossible jumps per vehicle and day. */
  impossible: Array<{ vehicle_id: string; day: string; m: Metres; n: number }>;
  /** Each impossible jump, with its metres per jurisdiction when counted. */
  jumps: Array<{ vehicle_id: string; day: string; m: Metres; js: string[] | string; jm: Record<string, number> | string | null }>;
  purchases: PurchaseTotal[];
  suspicious: Array<SuspiciousRow<Date>>;
  adjustments: AdjustmentRow[];
  marks: Array<MarkRow<Date>>;
}

/**
 * True when a purchase's quantity is more than its vehicle's tank holds (300 US gal when unset), in
 * SQL over `ifta_fuel_purchases` joined with `assets`: a bulk entry above it is a review item.
 */
export const overTankSql = sql`(${iftaFuelPurchases.quantityMilli} / 1000.0 * (case when ${iftaFuelPurchases.volumeUnit} = 'GAL' then 3.785411784 else 1 end)
  > coalesce(${assets.tankCapacityL}, ${DEFAULT_TANK_CAPACITY_L}) + 0.001)`;

const uuidArray = (ids: Iterable<string>) => `{${[...ids].join(',')}}`;

/**
 * Everything the return needs in one statement, each part as a JSON array: one round trip and one
 * plan instead of nine, which on Citus is most of what the read costs (each statement is planned on
 * the coordinator and again on the worker, issue 49).
 */
export async function readQuarter(db: DbOrTx, orgId: string, q: QuarterRead): Promise<QuarterParts> {
  // Fleet-wide, every vehicle of the organization is read and the few out of scope dropped by the
  // caller: an `= any(500 ids)` filter cost more than the rows it saved.
  const inVehicles = q.vehicleIds === null ? sql`` : sql`and vehicle_id = any(${uuidArray(q.vehicleIds)}::uuid[])`;
  const rowsAsJson = (part: SQL) => sql`(select coalesce(json_agg(x), '[]'::json) from (${part}) x)`;
  const inQuarter = sql`${iftaFuelPurchases.organizationId} = ${orgId} and ${iftaFuelPurchases.purchasedAt} >= ${q.fromAt.toISOString()}::timestamptz and ${iftaFuelPurchases.purchasedAt} < ${q.toAt.toISOString()}::timestamptz`;
  const everything = await db.execute(sql`select
      ${rowsAsJson(sql`select vehicle_id, jurisdiction, sum(metres) as m from ifta_distance_months
        where organization_id = ${orgId} and month >= ${q.from} and month < ${q.to} ${inVehicles} group by vehicle_id, jurisdiction`)} as distance,
      ${rowsAsJson(sql`select vehicle_id, sum(odometer_travel_m) as odo, sum(odometer_metres) as m from ifta_vehicle_months
        where organization_id = ${orgId} and month >= ${q.from} and month < ${q.to} ${inVehicles} group by vehicle_id having sum(odometer_metres) > 0`)} as odometers,
      ${rowsAsJson(sql`select vehicle_id, day::text as day, jurisdiction, metres as m, interpolated_metres as im from ifta_distance_days
        where organization_id = ${orgId} and day >= ${q.from} and day < ${q.to} and (interpolated_metres > 0 or jurisdiction = 'unknown')
        order by day, vehicle_id limit ${4 * q.maxFlagsPerKind}`)} as review_days,
      ${rowsAsJson(sql`select vehicle_id, day::text as day, count(*)::int as n, sum(metres) as m from ifta_flagged_segments
        where organization_id = ${orgId} and day >= ${q.from} and day < ${q.to} ${inVehicles} and 'impossible-speed' = any(flags)
        group by vehicle_id, day order by day, vehicle_id limit ${q.maxFlagsPerKind + 1}`)} as impossible,
      ${rowsAsJson(sql`select vehicle_id, day::text as day, metres as m, jurisdictions as js, metres_by_jurisdiction as jm from ifta_flagged_segments
        where organization_id = ${orgId} and day >= ${q.from} and day < ${q.to} ${inVehicles} and 'impossible-speed' = any(flags)`)} as jumps,
      ${rowsAsJson(sql`select vehicle_id as "vehicleId", jurisdiction, fuel_type as "fuelType", tax_paid as "taxPaid", volume_unit as unit, sum(quantity_milli)::text as milli
        from ifta_fuel_purchases where ${inQuarter} group by vehicle_id, jurisdiction, fuel_type, tax_paid, volume_unit`)} as purchases,
      ${rowsAsJson(sql`select ${iftaFuelPurchases.id} as id, ${iftaFuelPurchases.vehicleId} as "vehicleId", ${iftaFuelPurchases.purchasedAt} as "purchasedAt",
          ${iftaFuelPurchases.updatedAt} as "updatedAt", ${iftaFuelPurchases.jurisdiction} as jurisdiction, ${iftaFuelPurchases.receiptNumber} as "receiptNumber",
          ${iftaFuelPurchases.locationCheck} as "locationCheck", ${iftaFuelPurchases.locationDistanceM} as "locationDistanceM", ${iftaFuelPurchases.priceMismatch} as "priceMismatch",
          ${iftaFuelPurchases.pricePerUnitMilli} as "pricePerUnitMilli", ${iftaFuelPurchases.totalCents} as "totalCents", ${iftaFuelPurchases.quantityMilli} as "quantityMilli",
          ${iftaFuelPurchases.volumeUnit} as "volumeUnit", ${iftaFuelPurchases.currency} as currency, ${iftaFuelPurchases.bulk} as bulk, ${assets.tankCapacityL} as tank, ${overTankSql} as "overTank"
        from ${iftaFuelPurchases} inner join ${assets} on ${assets.id} = ${iftaFuelPurchases.vehicleId} and ${assets.organizationId} = ${iftaFuelPurchases.organizationId}
        where ${inQuarter} and (${iftaFuelPurchases.locationCheck} in ('FAR', 'OTHER_JURISDICTION') or ${iftaFuelPurchases.priceMismatch} or (${iftaFuelPurchases.bulk} and ${overTankSql}))
        order by ${iftaFuelPurchases.purchasedAt} limit ${3 * q.maxFlagsPerKind + 1}`)} as suspicious,
      ${rowsAsJson(sql`select vehicle_id as "vehicleId", kind, jurisdiction, distance_m as "distanceM" from ifta_adjustments
        where organization_id = ${orgId} and day >= ${q.from} and day < ${q.to}`)} as adjustments,
      ${rowsAsJson(sql`select item_key as "itemKey", reviewed_at as "reviewedAt", reviewed_by_email as "reviewedByEmail", note from ifta_review_marks
        where organization_id = ${orgId} and quarter = ${q.quarter}`)} as marks`);
  const parts =
    rowsOf<Record<'distance' | 'odometers' | 'review_days' | 'impossible' | 'jumps' | 'purchases' | 'suspicious' | 'adjustments' | 'marks', unknown>>(
      everything,
    )[0]!;
  return {
    distance: jsonArray(parts.distance) as QuarterParts['distance'],
    odometers: jsonArray(parts.odometers) as QuarterParts['odometers'],
    reviewDays: jsonArray(parts.review_days) as QuarterParts['reviewDays'],
    impossible: jsonArray(parts.impossible) as QuarterParts['impossible'],
    jumps: jsonArray(parts.jumps) as QuarterParts['jumps'],
    purchases: jsonArray(parts.purchases) as PurchaseTotal[],
    suspicious: (jsonArray(parts.suspicious) as Array<SuspiciousRow<string>>).map((p) => ({
      ...p,
      purchasedAt: new Date(p.purchasedAt),
      updatedAt: new Date(p.updatedAt),
    })),
    adjustments: jsonArray(parts.adjustments) as AdjustmentRow[],
    marks: (jsonArray(parts.marks) as Array<MarkRow<string>>).map((m) => ({ ...m, reviewedAt: new Date(m.reviewedAt) })),
  };
}

/** A JSON value as the driver gives it: parsed already (node-postgres, PGlite), or its text. */
function jsonValue(v: unknown): unknown {
  return typeof v === 'string' ? JSON.parse(v) : v;
}

/** A JSON array column as the driver gives it: parsed already (node-postgres, PGlite), or its text. */
function jsonArray(v: unknown): unknown[] {
  const parsed: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return Array.isArray(parsed) ? parsed : [];
}
