import { and, asc, desc, eq, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { FuelImportMapping, FuelTransactionCheck, FuelVerificationDetails } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import {
  assets,
  drivers,
  fuelCardAssignments,
  fuelImportPresets,
  fuelTransactions,
  iftaFuelPurchases,
  organizations,
  type OrganizationSettings,
} from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import type { PositionProbe } from './fuel-verification.ts';
import { FUEL_LEVEL_PCT, STANDING_KMH } from './fuel-events.repository.ts';

// The SQL of fuel-card transactions (issue 68): every statement names the organization, joins
// included, so Citus routes it to the organization's shard (decision 0169).

export type TransactionRow = typeof fuelTransactions.$inferSelect;
export type NewTransactionRow = typeof fuelTransactions.$inferInsert;
export type NewPurchaseRow = typeof iftaFuelPurchases.$inferInsert;

export interface VehicleFacts {
  id: string;
  unitNumber: string;
  tankCapacityL: number | null;
  currentDriverId: string | null;
}

export async function organizationSettings(db: DbOrTx, orgId: string): Promise<OrganizationSettings | undefined> {
  const [o] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  return o?.settings;
}

export async function organizationVehicles(db: DbOrTx, orgId: string): Promise<VehicleFacts[]> {
  return db
    .select({ id: assets.id, unitNumber: assets.unitNumber, tankCapacityL: assets.tankCapacityL, currentDriverId: assets.currentDriverId })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE')));
}

export async function organizationDrivers(db: DbOrTx, orgId: string): Promise<Array<{ id: string; firstName: string; lastName: string }>> {
  return db.select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName }).from(drivers).where(eq(drivers.organizationId, orgId));
}

export async function cardAssignmentRows(db: DbOrTx, orgId: string) {
  return db.select().from(fuelCardAssignments).where(eq(fuelCardAssignments.organizationId, orgId)).orderBy(asc(fuelCardAssignments.cardLast4));
}

export async function putCardAssignment(
  db: DbOrTx,
  orgId: string,
  last4: string,
  holder: { vehicleId: string | null; driverId: string | null },
): Promise<void> {
  await db
    .insert(fuelCardAssignments)
    .values({ organizationId: orgId, cardLast4: last4, ...holder })
    .onConflictDoUpdate({ target: [fuelCardAssignments.organizationId, fuelCardAssignments.cardLast4], set: { ...holder, updatedAt: new Date() } });
}

export async function deleteCardAssignment(db: DbOrTx, orgId: string, last4: string): Promise<boolean> {
  const gone = await db
    .delete(fuelCardAssignments)
    .where(and(eq(fuelCardAssignments.organizationId, orgId), eq(fuelCardAssignments.cardLast4, last4)))
    .returning({ k: fuelCardAssignments.cardLast4 });
  return gone.length > 0;
}

/** Transactions already recorded under these ids. */
export async function recordedTransactions(
  db: DbOrTx,
  orgId: string,
  ids: readonly string[],
): Promise<Map<string, { id: string; verification: FuelTransactionCheck }>> {
  const out = new Map<string, { id: string; verification: FuelTransactionCheck }>();
  for (let i = 0; i < ids.length; i += 5000) {
    const rows = await db
      .select({ transactionId: fuelTransactions.transactionId, id: fuelTransactions.id, verification: fuelTransactions.verification })
      .from(fuelTransactions)
      .where(and(eq(fuelTransactions.organizationId, orgId), inArray(fuelTransactions.transactionId, ids.slice(i, i + 5000) as string[])));
    for (const r of rows) out.set(r.transactionId, { id: r.id, verification: r.verification });
  }
  return out;
}

/**
 * The vehicle each driver drove at each time: the vehicle of their fix nearest that time within 12
 * hours (positions carry the driver), else null (the caller falls back to the current assignment).
 */
export async function driverVehiclesAt(db: DbOrTx, orgId: string, probes: ReadonlyArray<{ driverId: string; t: number }>): Promise<Array<string | null>> {
  if (probes.length === 0) return [];
  const rows = rowsOf<{ i: number | string; b: string | null; bt: number | null; a: string | null; at: number | null }>(
    await db.execute(sql`
      select u.i, b.asset_id as b, extract(epoch from b.fix_time) * 1000 as bt, a.asset_id as a, extract(epoch from a.fix_time) * 1000 as at
      from unnest(${`{${probes.map((p) => p.driverId).join(',')}}`}::uuid[], ${`{${probes.map((p) => p.t).join(',')}}`}::float8[]) with ordinality as u(d, t, i)
      left join lateral (select asset_id, fix_time from positions where organization_id = ${orgId} and driver_id = u.d and asset_id is not null
        and fix_time <= to_timestamp(u.t / 1000) and fix_time >= to_timestamp(u.t / 1000) - interval '12 hours' order by fix_time desc limit 1) b on true
      left join lateral (select asset_id, fix_time from positions where organization_id = ${orgId} and driver_id = u.d and asset_id is not null
        and fix_time > to_timestamp(u.t / 1000) and fix_time <= to_timestamp(u.t / 1000) + interval '12 hours' order by fix_time limit 1) a on true
      order by u.i`),
  );
  return rows.map((r) => {
    const t = probes[Number(r.i) - 1]!.t;
    if (r.b && r.a) return Math.abs(t - Number(r.bt)) <= Math.abs(Number(r.at) - t) ? r.b : r.a;
    return r.b ?? r.a ?? null;
  });
}

/** What the positions say of one transaction, and what its truck's fuel level says (decision 0278). */
export interface TransactionProbe extends PositionProbe {
  /** The lowest fuel level the truck's standing fixes read within the window (percent of its tank); null: none carries one. */
  lowPct: number | null;
  /** How far the fuel-level follower worked the truck's fixes (ms; null: never, no level). */
  mark: number | null;
}

/**
 * For each (vehicle, time, station, tank): within ±window, the truck's fix closest to the station
 * (when its coordinates are known), its fix closest in time, and the lowest fuel level its standing
 * fixes read; with the truck's fuel-level mark. One statement for the whole batch; the laterals read
 * the (asset_id, fix_time) index range of the window only, the level riding on the closest-in-time's
 * scan as a window aggregate.
 */
export async function probePositions(
  db: DbOrTx,
  orgId: string,
  probes: ReadonlyArray<{ vehicleId: string; t: number; lat: number | null; lon: number | null; capacityL: number }>,
  windowMs: number,
): Promise<TransactionProbe[]> {
  if (probes.length === 0) return [];
  const num = (v: number | null) => (v === null ? 'NULL' : String(v));
  const rows = rowsOf<{
    i: number | string;
    nlat: number | null;
    nlon: number | null;
    nt: number | null;
    clat: number | null;
    clon: number | null;
    ct: number | null;
    low: number | null;
    mark: number | string | null;
  }>(
    await db.execute(sql`
      select u.i, n.latitude as nlat, n.longitude as nlon, extract(epoch from n.fix_time) * 1000 as nt,
             c.latitude as clat, c.longitude as clon, extract(epoch from c.fix_time) * 1000 as ct, c.low,
             extract(epoch from m.covered_until) * 1000 as mark
      from unnest(${`{${probes.map((p) => p.vehicleId).join(',')}}`}::uuid[], ${`{${probes.map((p) => p.t).join(',')}}`}::float8[],
                  ${`{${probes.map((p) => num(p.lat)).join(',')}}`}::float8[], ${`{${probes.map((p) => num(p.lon)).join(',')}}`}::float8[],
                  ${`{${probes.map((p) => p.capacityL).join(',')}}`}::float8[])
           with ordinality as u(v, t, lat, lon, cap, i)
      left join lateral (select p.latitude, p.longitude, p.fix_time,
          min(${FUEL_LEVEL_PCT}) filter (where p.speed <= ${STANDING_KMH} or p.ignition = false) over () as low
        from positions p where p.organization_id = ${orgId} and p.asset_id = u.v
        and p.fix_time between to_timestamp((u.t - ${windowMs}) / 1000) and to_timestamp((u.t + ${windowMs}) / 1000)
        order by abs(extract(epoch from p.fix_time) * 1000 - u.t) limit 1) c on true
      left join lateral (select latitude, longitude, fix_time from positions where u.lat is not null and organization_id = ${orgId} and asset_id = u.v
        and fix_time between to_timestamp((u.t - ${windowMs}) / 1000) and to_timestamp((u.t + ${windowMs}) / 1000)
        order by (latitude - u.lat) ^ 2 + ((longitude - u.lon) * cos(radians(u.lat))) ^ 2 limit 1) n on true
      left join fuel_level_marks m on m.organization_id = ${orgId} and m.asset_id = u.v
      order by u.i`),
  );
  const fix = (lat: number | null, lon: number | null, t: number | null) => (lat === null || lon === null || t === null ? null : { lat, lon, t: Number(t) });
  return rows.map((r) => ({
    nearest: fix(r.nlat, r.nlon, r.nt),
    closestInTime: fix(r.clat, r.clon, r.ct),
    lowPct: r.low === null ? null : Number(r.low),
    mark: r.mark === null ? null : Math.round(Number(r.mark)),
  }));
}

/**
 * Inserts the transactions; an id recorded meanwhile (a concurrent request) is skipped, not stored
 * twice. Answers the rows written.
 */
export async function insertTransactions(tx: DbOrTx, rows: NewTransactionRow[]): Promise<Array<{ id: string; transactionId: string }>> {
  const out: Array<{ id: string; transactionId: string }> = [];
  for (let i = 0; i < rows.length; i += 500) {
    out.push(
      ...(await tx
        .insert(fuelTransactions)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing()
        .returning({ id: fuelTransactions.id, transactionId: fuelTransactions.transactionId })),
    );
  }
  return out;
}

/** Inserts IFTA purchases; a receipt already recorded (typed in or imported before) is skipped and found by receipt. */
export async function insertPurchases(tx: DbOrTx, orgId: string, rows: NewPurchaseRow[]): Promise<Map<string, string>> {
  const byReceipt = new Map<string, string>();
  for (let i = 0; i < rows.length; i += 500) {
    const written = await tx
      .insert(iftaFuelPurchases)
      .values(rows.slice(i, i + 500))
      .onConflictDoNothing()
      .returning({ id: iftaFuelPurchases.id, receipt: iftaFuelPurchases.receiptNumber });
    for (const w of written) byReceipt.set(w.receipt.toLowerCase(), w.id);
  }
  const missing = rows.map((r) => r.receiptNumber).filter((r) => !byReceipt.has(r.toLowerCase()));
  for (let i = 0; i < missing.length; i += 5000) {
    const found = rowsOf<{ id: string; r: string }>(
      await tx.execute(sql`select id, lower(receipt_number) as r from ifta_fuel_purchases where organization_id = ${orgId}
        and lower(receipt_number) = any(${`{${missing
          .slice(i, i + 5000)
          .map((m) => `"${m.toLowerCase().replace(/(["\\])/g, '\\$1')}"`)
          .join(',')}}`}::text[])`),
    );
    for (const f of found) byReceipt.set(f.r, f.id);
  }
  return byReceipt;
}

/** Links transactions to their purchases, by transaction id (one statement per chunk). */
export async function linkPurchases(tx: DbOrTx, orgId: string, links: ReadonlyArray<{ id: string; purchaseId: string }>): Promise<void> {
  for (let i = 0; i < links.length; i += 2000) {
    const part = links.slice(i, i + 2000);
    await tx.execute(sql`update fuel_transactions t set purchase_id = u.p
      from unnest(${`{${part.map((l) => l.id).join(',')}}`}::uuid[], ${`{${part.map((l) => l.purchaseId).join(',')}}`}::uuid[]) as u(id, p)
      where t.organization_id = ${orgId} and t.id = u.id`);
  }
}

export interface VerificationUpdate {
  id: string;
  check: FuelTransactionCheck;
  details: FuelVerificationDetails;
}

/** Writes recomputed verifications (and the linked purchase's place check, which the IFTA review reads). */
export async function writeVerifications(tx: DbOrTx, orgId: string, updates: readonly VerificationUpdate[], at: Date): Promise<void> {
  for (let i = 0; i < updates.length; i += 1000) {
    const part = updates.slice(i, i + 1000);
    await tx.execute(sql`update fuel_transactions t set verification = u.c, verification_details = u.d, checked_at = ${at.toISOString()}::timestamptz
      from (select * from jsonb_to_recordset(${JSON.stringify(part.map((u) => ({ id: u.id, c: u.check, d: u.details })))}::jsonb) as x(id uuid, c text, d jsonb)) as u
      where t.organization_id = ${orgId} and t.id = u.id`);
    await tx.execute(sql`update ifta_fuel_purchases p set location_check = case
        when t.verification = 'VERIFIED' or t.verification_details->>'location' = 'VERIFIED' then 'OK'
        when t.verification = 'NO_POSITION' or t.verification_details->>'location' = 'NO_POSITION' then 'NO_POSITION'
        when t.verification_details->>'basis' = 'STATE' then 'OTHER_JURISDICTION'
        else 'FAR' end,
        location_distance_m = (t.verification_details->>'distanceM')::float8, updated_at = now()
      from fuel_transactions t
      where t.organization_id = ${orgId} and p.organization_id = t.organization_id and p.id = t.purchase_id and p.source = 'CARD'
        and t.id = any(${`{${part.map((u) => u.id).join(',')}}`}::uuid[])`);
  }
}

/**
 * Transactions whose check may have changed, not reviewed, with a truck: not verified by place, with
 * a fix of that truck in their window received after they were checked (late positions); or verified
 * by place with the fill still to be seen, now that the truck's level was worked `fillWaitMs` past them.
 */
export async function staleTransactions(
  db: DbOrTx,
  orgId: string,
  windowMs: number,
  fillWaitMs: number,
  range: { from?: Date; to?: Date },
): Promise<Array<TransactionRow & { tankCapacityL: number | null }>> {
  const rows = rowsOf<{ id: string }>(
    // The sub-queries name the organization as a value, not as t's column: Citus's router then
    // plans the statement on the organization's shard alone.
    await db.execute(sql`select t.id from fuel_transactions t
      where t.organization_id = ${orgId} and t.review_status is null and t.vehicle_id is not null
        ${range.from ? sql`and t.time >= ${range.from.toISOString()}::timestamptz` : sql``}
        ${range.to ? sql`and t.time < ${range.to.toISOString()}::timestamptz` : sql``}
        and ((t.verification in ('NO_POSITION', 'LOCATION_MISMATCH', 'OVER_TANK')
          and exists (select 1 from positions p where p.organization_id = ${orgId} and p.asset_id = t.vehicle_id
            and p.fix_time between t.time - ${`${windowMs} milliseconds`}::interval and t.time + ${`${windowMs} milliseconds`}::interval
            and p.server_time > t.checked_at))
        or (t.verification = 'VERIFIED' and t.verification_details->'fill'->>'status' = 'PENDING'
          and exists (select 1 from fuel_level_marks m where m.organization_id = ${orgId} and m.asset_id = t.vehicle_id
            and m.covered_until >= t.time + ${`${fillWaitMs} milliseconds`}::interval)))`),
  );
  return fullRows(
    db,
    orgId,
    rows.map((r) => r.id),
  );
}

/** Transactions with their truck's tank. */
async function fullRows(db: DbOrTx, orgId: string, ids: readonly string[]): Promise<Array<TransactionRow & { tankCapacityL: number | null }>> {
  if (ids.length === 0) return [];
  const full = await db
    .select({ t: fuelTransactions, tank: assets.tankCapacityL })
    .from(fuelTransactions)
    .leftJoin(assets, and(eq(assets.organizationId, fuelTransactions.organizationId), eq(assets.id, fuelTransactions.vehicleId)))
    .where(and(eq(fuelTransactions.organizationId, orgId), inArray(fuelTransactions.id, ids as string[])));
  return full.map((r) => ({ ...r.t, tankCapacityL: r.tank }));
}

/** Transactions of these trucks, not reviewed, within `windowMs` of each refuel's start and end (a refuel checks them again). */
export async function transactionsNear(
  db: DbOrTx,
  orgId: string,
  refuels: ReadonlyArray<{ assetId: string; startedAt: number; endedAt: number }>,
  windowMs: number,
): Promise<Array<TransactionRow & { tankCapacityL: number | null }>> {
  if (refuels.length === 0) return [];
  const keys = JSON.stringify(
    refuels.map((r) => ({ a: r.assetId, f: new Date(r.startedAt - windowMs).toISOString(), t: new Date(r.endedAt + windowMs).toISOString() })),
  );
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`select distinct t.id from fuel_transactions t join json_to_recordset(${keys}::json) as k(a uuid, f timestamptz, t timestamptz)
        on t.vehicle_id = k.a and t.time between k.f and k.t
      where t.organization_id = ${orgId} and t.review_status is null`),
  );
  return fullRows(
    db,
    orgId,
    rows.map((r) => r.id),
  );
}

/** Transactions without a truck that name this card. */
export async function unresolvedWithCard(db: DbOrTx, orgId: string, last4: string): Promise<TransactionRow[]> {
  return db
    .select()
    .from(fuelTransactions)
    .where(and(eq(fuelTransactions.organizationId, orgId), eq(fuelTransactions.cardLast4, last4), isNull(fuelTransactions.vehicleId)));
}

/** Gives a transaction the truck found later (a card assignment). */
export async function setResolved(
  tx: DbOrTx,
  orgId: string,
  id: string,
  v: { vehicleId: string; driverId: string | null; resolvedBy: string; purchaseId: string | null },
): Promise<void> {
  await tx
    .update(fuelTransactions)
    .set(v)
    .where(and(eq(fuelTransactions.organizationId, orgId), eq(fuelTransactions.id, id)));
}

export interface ListFilter {
  verification?: FuelTransactionCheck[];
  review?: 'PENDING' | 'ACCEPTED' | 'DISPUTED';
  from?: Date;
  to?: Date;
  vehicleId?: string;
  search?: string;
}

function conditions(orgId: string, f: ListFilter, withVerification: boolean): SQL {
  const where: SQL[] = [eq(fuelTransactions.organizationId, orgId)];
  if (withVerification && f.verification?.length) where.push(inArray(fuelTransactions.verification, f.verification));
  if (f.review === 'PENDING') where.push(isNull(fuelTransactions.reviewStatus));
  else if (f.review) where.push(eq(fuelTransactions.reviewStatus, f.review));
  if (f.from) where.push(gte(fuelTransactions.time, f.from));
  if (f.to) where.push(lt(fuelTransactions.time, f.to));
  if (f.vehicleId) where.push(eq(fuelTransactions.vehicleId, f.vehicleId));
  if (f.search)
    where.push(
      sql`lower(${fuelTransactions.transactionId} || ' ' || coalesce(${fuelTransactions.merchant}, '') || ' ' || coalesce(${fuelTransactions.city}, '') || ' ' || coalesce(${fuelTransactions.unitNumber}, '') || ' ' || coalesce(${assets.unitNumber}, '')) like ${f.search}`,
    );
  return and(...where)!;
}

export async function listTransactionRows(
  db: DbOrTx,
  orgId: string,
  f: ListFilter,
  page: { size: number; offset: number; order: SQL[] },
): Promise<{ rows: Array<{ t: TransactionRow; unit: string | null }>; total: number; counts: Array<{ v: FuelTransactionCheck; n: number }> }> {
  const join = and(eq(assets.organizationId, fuelTransactions.organizationId), eq(assets.id, fuelTransactions.vehicleId));
  const counts = await db
    .select({ v: fuelTransactions.verification, n: sql<number>`count(*)::int` })
    .from(fuelTransactions)
    .leftJoin(assets, join)
    .where(conditions(orgId, f, false))
    .groupBy(fuelTransactions.verification);
  const cond = conditions(orgId, f, true);
  const total = f.verification?.length ? counts.filter((c) => f.verification!.includes(c.v)).reduce((a, c) => a + c.n, 0) : counts.reduce((a, c) => a + c.n, 0);
  const rows = await db
    .select({ t: fuelTransactions, unit: assets.unitNumber })
    .from(fuelTransactions)
    .leftJoin(assets, join)
    .where(cond)
    .orderBy(...page.order)
    .limit(page.size)
    .offset(page.offset);
  return { rows, total, counts };
}

export const TRANSACTION_SORTS = {
  time: fuelTransactions.time,
  transactionId: fuelTransactions.transactionId,
  verification: fuelTransactions.verification,
  quantity: fuelTransactions.quantityMilli,
  total: fuelTransactions.totalCents,
  unitNumber: sql`lower(${assets.unitNumber})`,
};
export const DEFAULT_TRANSACTION_ORDER = [desc(fuelTransactions.time), asc(fuelTransactions.id)];

export async function transactionRow(db: DbOrTx, orgId: string, id: string): Promise<{ t: TransactionRow; unit: string | null } | undefined> {
  const [r] = await db
    .select({ t: fuelTransactions, unit: assets.unitNumber })
    .from(fuelTransactions)
    .leftJoin(assets, and(eq(assets.organizationId, fuelTransactions.organizationId), eq(assets.id, fuelTransactions.vehicleId)))
    .where(and(eq(fuelTransactions.organizationId, orgId), eq(fuelTransactions.id, id)));
  return r;
}

export async function writeReview(
  tx: DbOrTx,
  orgId: string,
  id: string,
  r: { reviewStatus: 'ACCEPTED' | 'DISPUTED'; reviewNote: string | null; reviewedBy: string | null; reviewedByEmail: string | null; reviewedAt: Date },
): Promise<TransactionRow | undefined> {
  const [row] = await tx
    .update(fuelTransactions)
    .set(r)
    .where(and(eq(fuelTransactions.organizationId, orgId), eq(fuelTransactions.id, id)))
    .returning();
  return row;
}

/** The quarter's card transactions for the IFTA return: how many, how many not verified (nor accepted by a reviewer), how many disputed. */
export async function cardTransactionCounts(
  db: DbOrTx,
  orgId: string,
  from: Date,
  to: Date,
  fuelType: string,
): Promise<{ total: number; unverified: number; disputed: number }> {
  const [r] = rowsOf<{ total: number; unverified: number; disputed: number }>(
    await db.execute(sql`select count(*)::int as total,
        count(*) filter (where verification <> 'VERIFIED' and review_status is distinct from 'ACCEPTED')::int as unverified,
        count(*) filter (where review_status = 'DISPUTED')::int as disputed
      from fuel_transactions where organization_id = ${orgId} and time >= ${from.toISOString()}::timestamptz and time < ${to.toISOString()}::timestamptz
        and fuel_type = ${fuelType} and purchase_id is not null`),
  );
  return r ?? { total: 0, unverified: 0, disputed: 0 };
}

// Saved import presets.

export async function presetRows(db: DbOrTx, orgId: string) {
  return db.select().from(fuelImportPresets).where(eq(fuelImportPresets.organizationId, orgId)).orderBy(asc(fuelImportPresets.name));
}

export async function putPreset(
  db: DbOrTx,
  orgId: string,
  name: string,
  p: { base: string; mapping: FuelImportMapping; dateFormat: 'MDY' | 'DMY' | 'YMD' | null; defaultUnit: 'GAL' | 'L' },
): Promise<void> {
  await db
    .insert(fuelImportPresets)
    .values({ organizationId: orgId, name, ...p })
    .onConflictDoUpdate({ target: [fuelImportPresets.organizationId, fuelImportPresets.name], set: { ...p, updatedAt: new Date() } });
}

export async function deletePreset(db: DbOrTx, orgId: string, name: string): Promise<boolean> {
  const gone = await db
    .delete(fuelImportPresets)
    .where(and(eq(fuelImportPresets.organizationId, orgId), eq(fuelImportPresets.name, name)))
    .returning({ n: fuelImportPresets.name });
  return gone.length > 0;
}
