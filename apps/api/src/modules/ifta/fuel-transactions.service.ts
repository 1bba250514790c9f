import type { z } from 'zod';
import type { fuelTransactionListQuery, fuelTransactionReviewSchema } from '@fleet/api-contract';
import {
  DEFAULT_FUEL_MATCH,
  DEFAULT_TANK_CAPACITY_L,
  FUEL_JURISDICTION_CODES,
  FUEL_TRANSACTION_CHECKS,
  priceMismatch,
  type FuelResolvedBy,
  type FuelTransaction,
  type FuelTransactionBatchResult,
  type FuelTransactionCheck,
  type FuelTransactionPage,
  type UnitSystem,
  type fuelTransactionInputSchema,
} from '@fleet/api-contract';
import { locateJurisdiction } from '@fleet/geo/jurisdictions';
import type { DbOrTx } from '../../db/client.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { readSettings } from '../organizations/index.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';
import { refuelsBetween } from './fuel-events.repository.ts';
import { organizationFacts } from './fuel-purchases.service.ts';
import {
  DEFAULT_TRANSACTION_ORDER,
  TRANSACTION_SORTS,
  cardAssignmentRows,
  driverVehiclesAt,
  insertPurchases,
  insertTransactions,
  linkPurchases,
  listTransactionRows,
  organizationDrivers,
  organizationSettings,
  organizationVehicles,
  probePositions,
  recordedTransactions,
  setResolved,
  staleTransactions,
  transactionRow,
  transactionsNear,
  writeReview,
  writeVerifications,
  type NewPurchaseRow,
  type NewTransactionRow,
  type TransactionRow,
  type VehicleFacts,
} from './fuel-transactions.repository.ts';
import { fillWaitMs, verificationReason, verify, type LevelProbe, type Match, type Verification } from './fuel-verification.ts';

// Fuel-card transactions (issue 68, decisions 0274-0276): each one recorded once by its transaction
// id, resolved to a truck, counted as an IFTA purchase and checked against the truck's positions,
// tank and fuel level. The check is redone at read time for transactions whose window got positions
// later, and when the fuel-level follower records a refuel near one. A result other than VERIFIED
// sends `fuel.purchase_flagged` when the transaction first gets it.

type Input = z.output<typeof fuelTransactionInputSchema>;
type ListQuery = z.output<typeof fuelTransactionListQuery>;
type ReviewInput = z.output<typeof fuelTransactionReviewSchema>;

/** The organization's station radius and time window (settings `fuelCards`). */
export async function matchSettings(db: DbOrTx, orgId: string): Promise<Match & { units: UnitSystem }> {
  const s = readSettings(await organizationSettings(db, orgId));
  const f = s.fuelCards ?? DEFAULT_FUEL_MATCH;
  return { radiusM: f.radiusM, windowMinutes: f.windowMinutes, units: s.units };
}

/** Everything needed to find a truck: vehicles by id and unit number, cards, drivers by name. */
interface Directory {
  byId: Map<string, VehicleFacts>;
  byUnit: Map<string, VehicleFacts>;
  cards: Map<string, { vehicleId: string | null; driverId: string | null }>;
  driversByName: Map<string, string | null>;
  vehicleOfDriver: Map<string, string>;
}

const nameKey = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

async function directory(db: DbOrTx, orgId: string): Promise<Directory> {
  // One after another: inside a transaction they share one connection.
  const vehicles = await organizationVehicles(db, orgId);
  const cards = await cardAssignmentRows(db, orgId);
  const drivers = await organizationDrivers(db, orgId);
  const driversByName = new Map<string, string | null>();
  const add = (k: string, id: string) => driversByName.set(k, driversByName.has(k) && driversByName.get(k) !== id ? null : id); // two drivers of one name: neither
  for (const d of drivers) {
    add(nameKey(`${d.firstName} ${d.lastName}`), d.id);
    add(nameKey(`${d.lastName} ${d.firstName}`), d.id);
  }
  return {
    byId: new Map(vehicles.map((v) => [v.id, v])),
    byUnit: new Map(vehicles.map((v) => [v.unitNumber.toLowerCase(), v])),
    cards: new Map(cards.map((c) => [c.cardLast4, { vehicleId: c.vehicleId, driverId: c.driverId }])),
    driversByName,
    vehicleOfDriver: new Map(vehicles.filter((v) => v.currentDriverId).map((v) => [v.currentDriverId!, v.id])),
  };
}

interface Resolution {
  vehicleId: string | null;
  driverId: string | null;
  resolvedBy: FuelResolvedBy | null;
}

/**
 * The truck of each transaction: its vehicle id, else its unit number, else its card's vehicle, else
 * its driver (by the card, else by name) and the vehicle that driver drove at that time.
 */
async function resolveTrucks(db: DbOrTx, orgId: string, dir: Directory, items: readonly Input[]): Promise<Resolution[]> {
  const out: Resolution[] = [];
  const needDriver: Array<{ i: number; driverId: string; t: number }> = [];
  items.forEach((t, i) => {
    const card = t.cardNumberLast4 ? dir.cards.get(t.cardNumberLast4) : undefined;
    const driverId = card?.driverId ?? (t.driverName ? (dir.driversByName.get(nameKey(t.driverName)) ?? null) : null);
    if (t.vehicleId) out.push({ vehicleId: t.vehicleId, driverId, resolvedBy: 'VEHICLE_ID' });
    else if (t.unitNumber && dir.byUnit.has(t.unitNumber.toLowerCase()))
      out.push({ vehicleId: dir.byUnit.get(t.unitNumber.toLowerCase())!.id, driverId, resolvedBy: 'UNIT_NUMBER' });
    else if (card?.vehicleId) out.push({ vehicleId: card.vehicleId, driverId, resolvedBy: 'CARD' });
    else {
      out.push({ vehicleId: null, driverId, resolvedBy: null });
      if (driverId) needDriver.push({ i, driverId, t: Date.parse(t.time) });
    }
  });
  const driven = await driverVehiclesAt(db, orgId, needDriver);
  needDriver.forEach((d, k) => {
    const vehicleId = driven[k] ?? dir.vehicleOfDriver.get(d.driverId) ?? null;
    if (vehicleId && dir.byId.has(vehicleId)) out[d.i] = { vehicleId, driverId: d.driverId, resolvedBy: 'DRIVER' };
  });
  return out;
}

/** One transaction to check: its time, station, quantity and truck. */
interface CheckItem {
  time: number;
  stationLat: number | null;
  stationLon: number | null;
  state: string | null;
  quantityMilli: number;
  unit: 'GAL' | 'L';
  vehicleId: string;
  tankCapacityL: number | null;
}

/**
 * Checks transactions against their trucks: the fixes of the window (place), the tank, and the fuel
 * level (its lowest reading in the window, the refuel matched to the time, whether the level was read
 * long enough after). Two statements for the batch, whatever its size.
 */
async function checkAll(db: DbOrTx, orgId: string, items: readonly CheckItem[], match: Match): Promise<Verification[]> {
  if (items.length === 0) return [];
  const windowMs = match.windowMinutes * 60_000;
  const probes = await probePositions(
    db,
    orgId,
    items.map((i) => ({ vehicleId: i.vehicleId, t: i.time, lat: i.stationLat, lon: i.stationLon, capacityL: i.tankCapacityL ?? DEFAULT_TANK_CAPACITY_L })),
    windowMs,
  );
  let first = Infinity;
  let last = -Infinity;
  for (const i of items) {
    first = Math.min(first, i.time);
    last = Math.max(last, i.time);
  }
  const refuels = await refuelsBetween(db, orgId, [...new Set(items.map((i) => i.vehicleId))], new Date(first - windowMs), new Date(last + windowMs + 1));
  const byVehicle = new Map<string, typeof refuels>();
  for (const r of refuels) {
    const list = byVehicle.get(r.assetId);
    if (list) list.push(r);
    else byVehicle.set(r.assetId, [r]);
  }
  return items.map((item, k) => {
    // The truck's refuel whose start and end, widened by the window, hold the time: the closest to it.
    const refuel =
      (byVehicle.get(item.vehicleId) ?? [])
        .filter((r) => r.startedAt.getTime() - windowMs <= item.time && item.time <= r.endedAt.getTime() + windowMs)
        .sort((a, b) => Math.abs(a.endedAt.getTime() - item.time) - Math.abs(b.endedAt.getTime() - item.time))[0] ?? null;
    const l = probes[k]!;
    const level: LevelProbe | null =
      l.lowPct === null && !refuel
        ? null
        : {
            lowPct: l.lowPct,
            refuel: refuel && { id: refuel.id, levelBeforeL: refuel.levelBeforeL, quantityL: refuel.quantityL },
            decided: l.mark !== null && l.mark >= item.time + fillWaitMs(match.windowMinutes),
          };
    return verify({ ...item, level }, probes[k]!, match);
  });
}

const checkItemOf = (r: TransactionRow, tankCapacityL: number | null): CheckItem => ({
  time: r.time.getTime(),
  stationLat: r.latitude,
  stationLon: r.longitude,
  state: r.state,
  quantityMilli: r.quantityMilli,
  unit: r.unit,
  vehicleId: r.vehicleId!,
  tankCapacityL,
});

/** A transaction's result as `fuel.purchase_flagged` tells it (any result but VERIFIED). */
interface Flagged {
  id: string;
  row: Pick<TransactionRow, 'transactionId' | 'time' | 'quantityMilli' | 'unit'> & {
    vehicleId?: string | null;
    driverId?: string | null;
    merchant?: string | null;
    state?: string | null;
  };
  check: FuelTransactionCheck;
  details: NewTransactionRow['verificationDetails'];
  previous: FuelTransactionCheck | null;
}

/** `fuel.purchase_flagged` for each transaction that just got a result other than VERIFIED (recorded, or checked again). */
async function emitFlagged(tx: DbOrTx, orgId: string, flagged: readonly Flagged[]): Promise<void> {
  const fresh = flagged.filter((f) => f.check !== 'VERIFIED' && f.check !== f.previous);
  if (fresh.length === 0) return;
  const { units } = await organizationFacts(tx, orgId);
  const vehicles = new Map((await organizationVehicles(tx, orgId)).map((v) => [v.id, v.unitNumber]));
  await emitWebhookEvents(
    tx,
    fresh.map((f) => ({
      orgId,
      type: 'fuel.purchase_flagged' as const,
      at: f.row.time,
      data: {
        id: f.id,
        transactionId: f.row.transactionId,
        assetId: f.row.vehicleId ?? null,
        unitNumber: f.row.vehicleId ? (vehicles.get(f.row.vehicleId) ?? null) : null,
        driverId: f.row.driverId ?? null,
        time: f.row.time.toISOString(),
        merchant: f.row.merchant ?? null,
        state: f.row.state ?? null,
        quantity: f.row.quantityMilli / 1000,
        unit: f.row.unit,
        verification: f.check,
        previousVerification: f.previous,
        reason: verificationReason(f.check, f.details ?? {}, units, f.row.state ?? null),
      },
    })),
  );
}

/** The jurisdiction an IFTA purchase is booked in: the state given, else where the station's coordinates are. */
function jurisdictionOf(t: Input): string | null {
  if (t.state) return t.state;
  if (t.latitude == null || t.longitude == null) return null;
  const code = locateJurisdiction(t.latitude, t.longitude)?.jurisdiction.code ?? null;
  return code && FUEL_JURISDICTION_CODES.has(code) ? code : null;
}

export interface RecordOptions {
  source: 'API' | 'FILE' | 'DEMO';
  /** Field path of item i, for a 400 (the API's `transactions.3.vehicleId`; the file names its line). */
  field?: (i: number, name: string) => string;
}

/**
 * Records a batch of transactions in one database transaction: duplicates (recorded before, or
 * repeated in the batch) are counted and answered with the recorded id; the others are resolved to
 * a truck, become IFTA purchases (tax paid) and are verified. Bad input is a 400 that writes nothing.
 */
export async function recordTransactions({ db, orgId, actor }: Scope, items: readonly Input[], o: RecordOptions): Promise<FuelTransactionBatchResult> {
  const field = o.field ?? ((i: number, name: string) => `transactions.${i}.${name}`);
  const now = Date.now();
  items.forEach((t, i) => {
    if (Date.parse(t.time) > now + 10 * 60_000) throw invalidField(field(i, 'time'), 'Time is in the future');
    if (!jurisdictionOf(t)) throw invalidField(field(i, 'state'), 'The station coordinates are in no IFTA jurisdiction: give the state or province');
  });
  return db.transaction(async (tx) => {
    const dir = await directory(tx, orgId);
    items.forEach((t, i) => {
      if (t.vehicleId && !dir.byId.has(t.vehicleId)) throw invalidField(field(i, 'vehicleId'), 'Vehicle is not a vehicle of this organization');
    });
    const recorded = await recordedTransactions(
      tx,
      orgId,
      items.map((t) => t.transactionId),
    );
    // The first of each id in the batch is the one stored; a repeat is a duplicate like one recorded before.
    const fresh: Array<{ i: number; t: Input }> = [];
    const seen = new Set<string>();
    items.forEach((t, i) => {
      if (recorded.has(t.transactionId) || seen.has(t.transactionId)) return;
      seen.add(t.transactionId);
      fresh.push({ i, t });
    });
    const match = await matchSettings(tx, orgId);
    const trucks = await resolveTrucks(
      tx,
      orgId,
      dir,
      fresh.map((f) => f.t),
    );
    const withTruck = fresh.map((f, k) => ({ ...f, r: trucks[k]! })).filter((f) => f.r.vehicleId !== null);
    const checked = await checkAll(
      tx,
      orgId,
      withTruck.map((f) => ({
        time: Date.parse(f.t.time),
        stationLat: f.t.latitude ?? null,
        stationLon: f.t.longitude ?? null,
        state: f.t.state ?? jurisdictionOf(f.t),
        quantityMilli: Math.round(f.t.quantity * 1000),
        unit: f.t.unit,
        vehicleId: f.r.vehicleId!,
        tankCapacityL: dir.byId.get(f.r.vehicleId!)!.tankCapacityL,
      })),
      match,
    );
    const checkedAt = new Date();
    const verdicts = new Map(withTruck.map((f, k) => [f.i, checked[k]!]));
    const rows: NewTransactionRow[] = fresh.map((f, k) => {
      const r = trucks[k]!;
      const v = verdicts.get(f.i);
      return {
        organizationId: orgId,
        transactionId: f.t.transactionId,
        cardLast4: f.t.cardNumberLast4 ?? null,
        unitNumber: f.t.unitNumber || null,
        driverName: f.t.driverName || null,
        vehicleId: r.vehicleId,
        driverId: r.driverId,
        resolvedBy: r.resolvedBy,
        time: new Date(f.t.time),
        latitude: f.t.latitude ?? null,
        longitude: f.t.longitude ?? null,
        merchant: f.t.merchant || null,
        city: f.t.city || null,
        state: f.t.state ?? jurisdictionOf(f.t),
        fuelType: f.t.fuelType,
        quantityMilli: Math.round(f.t.quantity * 1000),
        unit: f.t.unit,
        unitPriceMilli: f.t.unitPrice == null ? null : Math.round(f.t.unitPrice * 1000),
        totalCents: f.t.total == null ? null : Math.round(f.t.total * 100),
        odometer: f.t.odometer ?? null,
        source: o.source,
        verification: v?.check ?? 'NO_VEHICLE',
        verificationDetails: v?.details ?? {},
        checkedAt,
      };
    });
    const written = await insertTransactions(tx, rows);
    const writtenIds = new Map(written.map((w) => [w.transactionId, w.id]));
    // Every transaction with a truck is an IFTA purchase, tax paid, under its transaction id as receipt.
    const purchases: NewPurchaseRow[] = rows.filter((r) => r.vehicleId && writtenIds.has(r.transactionId)).map((r) => purchaseRow(orgId, r));
    const byReceipt = await insertPurchases(tx, orgId, purchases);
    await linkPurchases(
      tx,
      orgId,
      purchases.map((p) => ({ id: writtenIds.get(p.receiptNumber)!, purchaseId: byReceipt.get(p.receiptNumber.toLowerCase())! })).filter((l) => l.purchaseId),
    );
    await emitFlagged(
      tx,
      orgId,
      rows
        .filter((r) => writtenIds.has(r.transactionId))
        .map((r) => ({ id: writtenIds.get(r.transactionId)!, row: r, check: r.verification, details: r.verificationDetails, previous: null })),
    );
    const counts: Partial<Record<FuelTransactionCheck, number>> = {};
    for (const r of rows) if (writtenIds.has(r.transactionId)) counts[r.verification] = (counts[r.verification] ?? 0) + 1;
    if (written.length > 0)
      await recordActivity(tx, {
        orgId,
        actor,
        action: 'IMPORT',
        entityType: 'FUEL_TRANSACTION',
        entityId: written[0]!.id,
        after: { source: o.source, created: written.length, verification: counts },
      });
    // A concurrent request may have stored an id between the read and the insert: it is a duplicate too.
    const again = await recordedTransactions(
      tx,
      orgId,
      items.filter((t) => !writtenIds.has(t.transactionId) && !recorded.has(t.transactionId)).map((t) => t.transactionId),
    );
    const stored = new Map([...recorded, ...again]);
    const firstIndex = new Map<string, number>();
    items.forEach((t, i) => {
      if (!firstIndex.has(t.transactionId)) firstIndex.set(t.transactionId, i);
    });
    const verificationOf = new Map(rows.map((r) => [r.transactionId, r.verification]));
    const results = items.map((t, i) => {
      const own = writtenIds.get(t.transactionId);
      const isNew = own !== undefined && firstIndex.get(t.transactionId) === i;
      const id = own ?? stored.get(t.transactionId)?.id ?? '';
      const verification = isNew
        ? verificationOf.get(t.transactionId)!
        : (stored.get(t.transactionId)?.verification ?? verificationOf.get(t.transactionId) ?? 'NO_VEHICLE');
      return { transactionId: t.transactionId, id, duplicate: !isNew, verification };
    });
    return { received: items.length, created: written.length, duplicates: items.length - written.length, results };
  });
}

function purchaseRow(orgId: string, r: NewTransactionRow): NewPurchaseRow {
  const d = r.verificationDetails ?? {};
  const place = r.verification === 'OVER_TANK' ? d.location : r.verification;
  const quantity = r.quantityMilli / 1000;
  return {
    organizationId: orgId,
    vehicleId: r.vehicleId!,
    purchasedAt: r.time,
    jurisdiction: r.state!,
    fuelType: r.fuelType,
    quantityMilli: r.quantityMilli,
    volumeUnit: r.unit,
    pricePerUnitMilli: r.unitPriceMilli ?? null,
    totalCents: r.totalCents ?? null,
    currency: 'USD',
    vendor: r.merchant ?? null,
    city: r.city ?? null,
    receiptNumber: r.transactionId,
    taxPaid: true,
    stationLat: r.latitude ?? null,
    stationLon: r.longitude ?? null,
    notes: r.cardLast4 ? `Fuel card …${r.cardLast4}` : null,
    source: 'CARD',
    locationCheck: place === 'VERIFIED' ? 'OK' : place === 'LOCATION_MISMATCH' ? (d.basis === 'STATE' ? 'OTHER_JURISDICTION' : 'FAR') : 'NO_POSITION',
    locationDistanceM: d.distanceM ?? null,
    bulk: false,
    priceMismatch: priceMismatch(quantity, r.unitPriceMilli == null ? null : r.unitPriceMilli / 1000, r.totalCents == null ? null : r.totalCents / 100),
  };
}

export function presentTransaction(r: TransactionRow, unit: string | null, units: UnitSystem): FuelTransaction {
  const d = r.verificationDetails ?? {};
  return {
    id: r.id,
    transactionId: r.transactionId,
    cardNumberLast4: r.cardLast4,
    unitNumber: r.unitNumber,
    driverName: r.driverName,
    vehicleId: r.vehicleId,
    vehicleUnitNumber: unit,
    driverId: r.driverId,
    resolvedBy: r.resolvedBy as FuelResolvedBy | null,
    time: r.time.toISOString(),
    latitude: r.latitude,
    longitude: r.longitude,
    merchant: r.merchant,
    city: r.city,
    state: r.state,
    fuelType: r.fuelType,
    quantity: r.quantityMilli / 1000,
    unit: r.unit,
    unitPrice: r.unitPriceMilli === null ? null : r.unitPriceMilli / 1000,
    total: r.totalCents === null ? null : r.totalCents / 100,
    odometer: r.odometer,
    source: r.source,
    purchaseId: r.purchaseId,
    verification: r.verification,
    reason: verificationReason(r.verification, d, units, r.state),
    distanceM: d.distanceM ?? null,
    truckPosition: d.truck ? { lat: d.truck.lat, lon: d.truck.lon, at: d.truck.at, place: d.truck.place } : null,
    checkedAt: r.checkedAt.toISOString(),
    review: r.reviewStatus ? { decision: r.reviewStatus, note: r.reviewNote, by: r.reviewedByEmail, at: (r.reviewedAt ?? r.checkedAt).toISOString() } : null,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * Redoes the place check of the transactions (in the range) whose window received positions after
 * they were checked (decision 0275): a truck's late fixes turn NO_POSITION into a result.
 */
export async function refreshLateChecks(db: DbOrTx, orgId: string, range: { from?: Date; to?: Date } = {}): Promise<number> {
  const match = await matchSettings(db, orgId);
  const stale = await staleTransactions(db, orgId, match.windowMinutes * 60_000, fillWaitMs(match.windowMinutes), range);
  if (stale.length === 0) return 0;
  await db.transaction((tx) => recheck(tx, orgId, stale, match));
  return stale.length;
}

/** Checks recorded transactions again and writes the results (with the webhooks of the newly flagged). */
async function recheck(tx: DbOrTx, orgId: string, rows: ReadonlyArray<TransactionRow & { tankCapacityL: number | null }>, match: Match): Promise<number> {
  const checked = await checkAll(
    tx,
    orgId,
    rows.map((r) => checkItemOf(r, r.tankCapacityL)),
    match,
  );
  const updates = rows.map((r, k) => ({ id: r.id, check: checked[k]!.check, details: checked[k]!.details, r }));
  await writeVerifications(tx, orgId, updates, new Date());
  await emitFlagged(
    tx,
    orgId,
    updates.map((u) => ({ id: u.id, row: u.r, check: u.check, details: u.details, previous: u.r.verification })),
  );
  return updates.length;
}

/**
 * The fuel-level follower recorded (or corrected) refuels: the transactions of those trucks near
 * them, not reviewed, are checked again in the follower's transaction (a refuel verifies a purchase).
 */
export async function reverifyAroundRefuels(
  tx: DbOrTx,
  orgId: string,
  refuels: ReadonlyArray<{ assetId: string; startedAt: number; endedAt: number }>,
): Promise<number> {
  const match = await matchSettings(tx, orgId);
  const near = await transactionsNear(tx, orgId, refuels, match.windowMinutes * 60_000);
  return near.length ? recheck(tx, orgId, near, match) : 0;
}

export async function listTransactions({ db, orgId }: ReadScope, q: ListQuery): Promise<FuelTransactionPage> {
  const from = q.from ? new Date(q.from) : undefined;
  const to = q.to ? new Date(q.to) : undefined;
  if (from && to && from >= to) throw invalidField('to', 'To must be after From');
  await refreshLateChecks(db, orgId, { from, to });
  const { units } = await organizationFacts(db, orgId);
  const { rows, total, counts } = await listTransactionRows(
    db,
    orgId,
    { verification: q.verification, review: q.review, from, to, vehicleId: q.vehicleId, search: q.search ? likeTerm(q.search) : undefined },
    { size: q.size, offset: q.page * q.size, order: orderBy(q.sort, TRANSACTION_SORTS, DEFAULT_TRANSACTION_ORDER[0]!, DEFAULT_TRANSACTION_ORDER[1]!) },
  );
  const byCheck = Object.fromEntries(FUEL_TRANSACTION_CHECKS.map((c) => [c, 0])) as Record<FuelTransactionCheck, number>;
  for (const c of counts) byCheck[c.v] = c.n;
  return {
    ...toPage(
      rows.map((r) => presentTransaction(r.t, r.unit, units)),
      total,
      q,
    ),
    counts: byCheck,
  };
}

export async function getTransaction({ db, orgId }: ReadScope, id: string): Promise<FuelTransaction> {
  const r = await transactionRow(db, orgId, id);
  if (!r) throw notFound('Fuel transaction');
  const { units } = await organizationFacts(db, orgId);
  return presentTransaction(r.t, r.unit, units);
}

/** A reviewer accepts or disputes a transaction, with a note; a later review replaces it (the log keeps both). */
export async function reviewTransaction({ db, orgId, actor }: Scope, id: string, input: ReviewInput): Promise<FuelTransaction> {
  await db.transaction(async (tx) => {
    const before = await transactionRow(tx, orgId, id);
    if (!before) throw notFound('Fuel transaction');
    const after = await writeReview(tx, orgId, id, {
      reviewStatus: input.decision,
      reviewNote: input.note || null,
      // An API token acts for the organization, not as the person who made it.
      reviewedBy: actor.token ? null : (actor.userId ?? null),
      reviewedByEmail: actor.token ? `API token ${actor.token.name}` : (actor.email ?? null),
      reviewedAt: new Date(),
    });
    await recordActivity(tx, {
      orgId,
      actor,
      action: input.decision === 'ACCEPTED' ? 'ACCEPT' : 'DISPUTE',
      entityType: 'FUEL_TRANSACTION',
      entityId: id,
      before: before.t,
      after,
    });
  });
  return getTransaction({ db, orgId }, id);
}

/**
 * Transactions recorded without a truck that now find one (a card given since): they get it, become
 * IFTA purchases and are verified, in the caller's transaction.
 */
export async function resolveLater(tx: DbOrTx, orgId: string, rows: readonly TransactionRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const dir = await directory(tx, orgId);
  const asInput = rows.map((r): Input => ({
    transactionId: r.transactionId,
    cardNumberLast4: r.cardLast4,
    unitNumber: r.unitNumber,
    driverName: r.driverName,
    vehicleId: null,
    time: r.time.toISOString(),
    latitude: r.latitude,
    longitude: r.longitude,
    state: r.state,
    fuelType: r.fuelType as Input['fuelType'],
    quantity: r.quantityMilli / 1000,
    unit: r.unit,
  }));
  const trucks = await resolveTrucks(tx, orgId, dir, asInput);
  const found = rows.map((r, k) => ({ r, truck: trucks[k]! })).filter((f) => f.truck.vehicleId !== null);
  if (found.length === 0) return 0;
  const match = await matchSettings(tx, orgId);
  const checked = await checkAll(
    tx,
    orgId,
    found.map((f) => checkItemOf({ ...f.r, vehicleId: f.truck.vehicleId }, dir.byId.get(f.truck.vehicleId!)?.tankCapacityL ?? null)),
    match,
  );
  const resolved = found.map((f, k) => ({ ...f, v: checked[k]! }));
  const purchases = resolved.map((f) =>
    purchaseRow(orgId, { ...f.r, vehicleId: f.truck.vehicleId, verification: f.v.check, verificationDetails: f.v.details }),
  );
  const byReceipt = await insertPurchases(tx, orgId, purchases);
  for (const f of resolved)
    await setResolved(tx, orgId, f.r.id, {
      vehicleId: f.truck.vehicleId!,
      driverId: f.truck.driverId,
      resolvedBy: f.truck.resolvedBy!,
      purchaseId: byReceipt.get(f.r.transactionId.toLowerCase()) ?? null,
    });
  await writeVerifications(
    tx,
    orgId,
    resolved.map((f) => ({ id: f.r.id, check: f.v.check, details: f.v.details })),
    new Date(),
  );
  await emitFlagged(
    tx,
    orgId,
    resolved.map((f) => ({
      id: f.r.id,
      row: { ...f.r, vehicleId: f.truck.vehicleId, driverId: f.truck.driverId },
      check: f.v.check,
      details: f.v.details,
      previous: f.r.verification,
    })),
  );
  return resolved.length;
}
