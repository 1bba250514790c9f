import { and, asc, desc, eq, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { DEFAULT_ORGANIZATION_SETTINGS, type SettlementStatus, type UnitSystem } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { nextOrgNumbers } from '../../db/sql/org-counter.ts';
import {
  driverPayProfiles,
  drivers,
  loads,
  loadStops,
  organizations,
  payAdjustments,
  places,
  settlementLines,
  settlementLoads,
  settlements,
  users,
} from '../../db/schema/index.ts';
import { countAll } from '../../db/sql/count-all.ts';

// The SQL of driver settlements (issue 70, decision 0294): pay profiles, adjustments, settlements
// with their loads and lines, and the reads of drivers, loads and stops a draft is figured from.
// Every statement names the organization, so Citus routes it to the organization's shard.

export type ProfileRow = typeof driverPayProfiles.$inferSelect;
export type AdjustmentRow = typeof payAdjustments.$inferSelect;
export type SettlementRow = typeof settlements.$inferSelect;
export type SettlementLoadRow = typeof settlementLoads.$inferSelect;
export type SettlementLineRow = typeof settlementLines.$inferSelect;
export type NewLine = Omit<typeof settlementLines.$inferInsert, 'organizationId' | 'settlementId' | 'seq' | 'id'>;

// ----------------------------------------------------------------------------- who

export interface DriverFacts {
  id: string;
  firstName: string;
  lastName: string;
  homeTimeZone: string;
}

/** The organization's driver (locked until the transaction ends when asked: one settlement of a driver is made at a time). */
export async function driverOf(db: DbOrTx, orgId: string, driverId: string, lock = false): Promise<DriverFacts | undefined> {
  const q = db
    .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName, homeTimeZone: drivers.homeTimeZone })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.id, driverId)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/** The driver record of a sign-in account in the organization. */
export async function driverIdOfUser(db: DbOrTx, orgId: string, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: drivers.id })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.userId, userId)));
  return row?.id ?? null;
}

/** A person's name as a record keeps it ("Dana Whitfield", else the e-mail). */
export async function personName(db: DbOrTx, userId: string): Promise<string | null> {
  const [u] = await db.select({ first: users.firstName, last: users.lastName, email: users.email }).from(users).where(eq(users.id, userId));
  if (!u) return null;
  return `${u.first ?? ''} ${u.last ?? ''}`.trim() || u.email;
}

export async function organizationOf(db: DbOrTx, orgId: string) {
  const [o] = await db
    .select({
      name: organizations.name,
      addressLine1: organizations.addressLine1,
      city: organizations.city,
      state: organizations.state,
      postalCode: organizations.postalCode,
      phone: organizations.phone,
      settings: organizations.settings,
    })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  if (!o) return undefined;
  const units: UnitSystem = o.settings?.units ?? DEFAULT_ORGANIZATION_SETTINGS.units;
  return { ...o, units };
}

// ----------------------------------------------------------------------------- pay profiles

export async function profileOf(db: DbOrTx, orgId: string, driverId: string): Promise<ProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(driverPayProfiles)
    .where(and(eq(driverPayProfiles.organizationId, orgId), eq(driverPayProfiles.driverId, driverId)));
  return row;
}

/** Every saved profile of the organization's drivers, with the driver. */
export async function profilesWithDrivers(db: DbOrTx, orgId: string) {
  return db
    .select({ p: driverPayProfiles, d: { id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName, homeTimeZone: drivers.homeTimeZone } })
    .from(driverPayProfiles)
    .innerJoin(drivers, and(eq(drivers.organizationId, driverPayProfiles.organizationId), eq(drivers.id, driverPayProfiles.driverId)))
    .where(eq(driverPayProfiles.organizationId, orgId))
    .orderBy(asc(drivers.lastName), asc(drivers.firstName));
}

export async function saveProfile(db: DbOrTx, values: typeof driverPayProfiles.$inferInsert): Promise<ProfileRow> {
  const { organizationId: _org, driverId: _driver, ...set } = values;
  const [row] = await db
    .insert(driverPayProfiles)
    .values(values)
    .onConflictDoUpdate({ target: [driverPayProfiles.organizationId, driverPayProfiles.driverId], set })
    .returning();
  return row!;
}

// ----------------------------------------------------------------------------- adjustments

/** A driver's adjustments (the removed ones too when asked), newest first, with the settlements that took them. */
export async function adjustmentsOf(db: DbOrTx, orgId: string, driverId: string, withRemoved: boolean) {
  return db
    .select({
      a: payAdjustments,
      appliedNumber: settlements.number,
      times: sql<number>`(select count(*)::int from settlement_lines l join settlements s on s.organization_id = l.organization_id and s.id = l.settlement_id
        where l.organization_id = ${orgId} and l.adjustment_id = ${payAdjustments.id} and s.status <> 'VOID')`,
    })
    .from(payAdjustments)
    .leftJoin(settlements, and(eq(settlements.organizationId, payAdjustments.organizationId), eq(settlements.id, payAdjustments.appliedSettlementId)))
    .where(and(eq(payAdjustments.organizationId, orgId), eq(payAdjustments.driverId, driverId), withRemoved ? undefined : isNull(payAdjustments.removedAt)))
    .orderBy(desc(payAdjustments.createdAt), desc(payAdjustments.id));
}

export async function insertAdjustment(db: DbOrTx, values: typeof payAdjustments.$inferInsert): Promise<AdjustmentRow> {
  const [row] = await db.insert(payAdjustments).values(values).returning();
  return row!;
}

export async function adjustmentOf(db: DbOrTx, orgId: string, driverId: string, id: string, lock = false): Promise<AdjustmentRow | undefined> {
  const q = db
    .select()
    .from(payAdjustments)
    .where(and(eq(payAdjustments.organizationId, orgId), eq(payAdjustments.driverId, driverId), eq(payAdjustments.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function removeAdjustment(db: DbOrTx, orgId: string, id: string, at: Date): Promise<void> {
  await db
    .update(payAdjustments)
    .set({ removedAt: at })
    .where(and(eq(payAdjustments.organizationId, orgId), eq(payAdjustments.id, id)));
}

/**
 * The adjustments a settlement of the driver's days `from`..`to` takes, locked: in force on one of
 * those days, not removed; a one-time one only while no standing settlement has it.
 */
export async function adjustmentsDue(db: DbOrTx, orgId: string, driverId: string, from: string, to: string): Promise<AdjustmentRow[]> {
  return db
    .select()
    .from(payAdjustments)
    .where(
      and(
        eq(payAdjustments.organizationId, orgId),
        eq(payAdjustments.driverId, driverId),
        isNull(payAdjustments.removedAt),
        lte(payAdjustments.startsOn, to),
        or(eq(payAdjustments.recurrence, 'EACH_SETTLEMENT'), isNull(payAdjustments.appliedSettlementId)),
        or(isNull(payAdjustments.endsOn), sql`${payAdjustments.endsOn} >= ${from}`),
      ),
    )
    .orderBy(asc(payAdjustments.type), asc(payAdjustments.createdAt), asc(payAdjustments.id))
    .for('update');
}

/** One-time adjustments taken by a settlement (only those no other settlement took). */
export async function markApplied(db: DbOrTx, orgId: string, ids: string[], settlementId: string): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(payAdjustments)
    .set({ appliedSettlementId: settlementId })
    .where(and(eq(payAdjustments.organizationId, orgId), inArray(payAdjustments.id, ids), isNull(payAdjustments.appliedSettlementId)))
    .returning({ id: payAdjustments.id });
  return rows.length;
}

// ----------------------------------------------------------------------------- what a draft is made of

export type LoadRow = typeof loads.$inferSelect;
export type StopRow = typeof loadStops.$inferSelect & { placeName: string | null };

/** The driver's delivered loads (lead or second driver) delivered in [fromMs, toMs) that no standing settlement of theirs pays. */
export async function unsettledDeliveries(db: DbOrTx, orgId: string, driverId: string, fromMs: number, toMs: number): Promise<LoadRow[]> {
  return db
    .select()
    .from(loads)
    .where(
      and(
        eq(loads.organizationId, orgId),
        eq(loads.status, 'DELIVERED'),
        or(eq(loads.driverId, driverId), eq(loads.coDriverId, driverId)),
        sql`${loads.deliveredAt} >= ${new Date(fromMs)} and ${loads.deliveredAt} < ${new Date(toMs)}`,
        sql`not exists (select 1 from settlement_loads sl where sl.organization_id = ${orgId} and sl.driver_id = ${driverId}
          and sl.load_id = ${loads.id} and not sl.released)`,
      ),
    )
    .orderBy(asc(loads.deliveredAt), asc(loads.number));
}

/** The driver's last delivered load delivered at or before `atMs`, other than `loadId` (where an empty leg starts). */
export async function deliveryBefore(db: DbOrTx, orgId: string, driverId: string, atMs: number, loadId: string): Promise<LoadRow | undefined> {
  const [row] = await db
    .select()
    .from(loads)
    .where(
      and(
        eq(loads.organizationId, orgId),
        eq(loads.status, 'DELIVERED'),
        or(eq(loads.driverId, driverId), eq(loads.coDriverId, driverId)),
        lte(loads.deliveredAt, new Date(atMs)),
        ne(loads.id, loadId),
      ),
    )
    .orderBy(desc(loads.deliveredAt), desc(loads.id))
    .limit(1);
  return row;
}

/** The stops of these loads in driving order, by load, with their place's name. */
export async function stopsOf(db: DbOrTx, orgId: string, loadIds: string[]): Promise<Map<string, StopRow[]>> {
  const out = new Map<string, StopRow[]>();
  if (loadIds.length === 0) return out;
  const rows = await db
    .select({ stop: loadStops, placeName: places.name })
    .from(loadStops)
    .leftJoin(places, and(eq(places.organizationId, loadStops.organizationId), eq(places.id, loadStops.placeId)))
    .where(and(eq(loadStops.organizationId, orgId), inArray(loadStops.loadId, loadIds)))
    .orderBy(asc(loadStops.loadId), asc(loadStops.seq));
  for (const r of rows) out.set(r.stop.loadId, [...(out.get(r.stop.loadId) ?? []), { ...r.stop, placeName: r.placeName }]);
  return out;
}

/** Drivers' names by id (a team's other driver). */
export async function driverNames(db: DbOrTx, orgId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: drivers.id, first: drivers.firstName, last: drivers.lastName })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), inArray(drivers.id, ids)));
  return new Map(rows.map((r) => [r.id, `${r.first} ${r.last}`.trim()]));
}

// ----------------------------------------------------------------------------- settlements

/** A standing (not voided) settlement of the driver sharing a day with `from`..`to`. */
export async function overlapping(db: DbOrTx, orgId: string, driverId: string, from: string, to: string): Promise<SettlementRow | undefined> {
  const [row] = await db
    .select()
    .from(settlements)
    .where(
      and(
        eq(settlements.organizationId, orgId),
        eq(settlements.driverId, driverId),
        ne(settlements.status, 'VOID'),
        lte(settlements.periodFrom, to),
        sql`${settlements.periodTo} >= ${from}`,
      ),
    )
    .limit(1);
  return row;
}

/** The next settlement number of the organization (S-1001, …). */
export async function nextNumber(db: DbOrTx, orgId: string): Promise<string> {
  const [n] = await nextOrgNumbers(db, 'settlement_counters', orgId);
  return `S-${n}`;
}

export async function insertSettlement(db: DbOrTx, values: typeof settlements.$inferInsert): Promise<SettlementRow> {
  const [row] = await db.insert(settlements).values(values).returning();
  return row!;
}

export async function insertSettlementLoads(db: DbOrTx, rows: Array<typeof settlementLoads.$inferInsert>): Promise<void> {
  if (rows.length) await db.insert(settlementLoads).values(rows);
}

export async function insertLines(db: DbOrTx, orgId: string, settlementId: string, lines: NewLine[]): Promise<void> {
  if (lines.length) await db.insert(settlementLines).values(lines.map((l, seq) => ({ ...l, organizationId: orgId, settlementId, seq })));
}

export async function settlementOf(db: DbOrTx, orgId: string, id: string, lock = false): Promise<SettlementRow | undefined> {
  const q = db
    .select()
    .from(settlements)
    .where(and(eq(settlements.organizationId, orgId), eq(settlements.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function linesOf(db: DbOrTx, orgId: string, id: string): Promise<SettlementLineRow[]> {
  return db
    .select()
    .from(settlementLines)
    .where(and(eq(settlementLines.organizationId, orgId), eq(settlementLines.settlementId, id)))
    .orderBy(asc(settlementLines.seq));
}

export async function loadsOf(db: DbOrTx, orgId: string, id: string): Promise<SettlementLoadRow[]> {
  return db
    .select()
    .from(settlementLoads)
    .where(and(eq(settlementLoads.organizationId, orgId), eq(settlementLoads.settlementId, id)))
    .orderBy(asc(settlementLoads.deliveredAt), asc(settlementLoads.loadNumber));
}

export async function updateSettlement(db: DbOrTx, orgId: string, id: string, set: Partial<typeof settlements.$inferInsert>): Promise<SettlementRow> {
  const [row] = await db
    .update(settlements)
    .set(set)
    .where(and(eq(settlements.organizationId, orgId), eq(settlements.id, id)))
    .returning();
  return row!;
}

/** A voided settlement lets its loads and one-time adjustments go to the next one. */
export async function release(db: DbOrTx, orgId: string, id: string): Promise<void> {
  await db
    .update(settlementLoads)
    .set({ released: true })
    .where(and(eq(settlementLoads.organizationId, orgId), eq(settlementLoads.settlementId, id)));
  await db
    .update(payAdjustments)
    .set({ appliedSettlementId: null })
    .where(and(eq(payAdjustments.organizationId, orgId), eq(payAdjustments.appliedSettlementId, id)));
}

export interface SettlementFilter {
  driverId?: string | undefined;
  statuses?: SettlementStatus[] | undefined;
}

const SORTS = {
  number: sql`lpad(${settlements.number}, 24, '0')`,
  from: settlements.periodFrom,
  driver: sql`lower(${settlements.driverName})`,
  status: settlements.status,
  net: settlements.netCents,
  createdAt: settlements.createdAt,
};
export const SETTLEMENT_SORTS = SORTS;

/** A page of settlements, newest period first unless sorted, and how many match. */
export async function listSettlements(db: DbOrTx, orgId: string, f: SettlementFilter, order: SQL[], page: { page: number; size: number }) {
  const where = and(
    eq(settlements.organizationId, orgId),
    f.driverId ? eq(settlements.driverId, f.driverId) : undefined,
    f.statuses?.length ? inArray(settlements.status, f.statuses) : undefined,
  );
  const [total] = await db.select({ n: countAll }).from(settlements).where(where);
  const rows = await db
    .select()
    .from(settlements)
    .where(where)
    .orderBy(...order)
    .limit(page.size)
    .offset(page.page * page.size);
  return { rows, total: total?.n ?? 0 };
}

export const defaultOrder = (): SQL[] => [sql`${settlements.periodFrom} desc`, sql`${settlements.createdAt} desc`, sql`${settlements.id} asc`];
export const tieBreak = sql`${settlements.id} asc`;
