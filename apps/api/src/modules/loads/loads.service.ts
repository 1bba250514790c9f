import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Load, LoadInput, LoadListQuery, LoadStatus, Page, loadAssignmentSchema, loadStatusChangeSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { loadStops, loads } from '../../db/schema/index.ts';
import { nextOrgNumbers } from '../../db/sql/org-counter.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { conflict, conflictOn, notFound } from '../../http/errors.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import { customerForLoad } from '../customers/index.ts';
import type { Actor, AuthContext, Scope } from '../auth/index.ts';
import { inReach, reachable, reachOf } from './load-access.ts';
import { loadedMetres } from './load-distance.ts';
import { refuseNonCompliant } from './load-compliance.ts';
import { refuseOverlap } from './load-overlap.ts';
import { podMissing, podRequired, recordWaiver, waiverNote, type PodMissing } from './load-pod.ts';
import { findLoadRow, presentLoads, stopsOf, toCents, type LoadRow, type StopRow } from './load-present.ts';
import { checkLoadRefs, tractorOf } from './load-refs.ts';
import { recordStatus, settleStatus } from './load-settle.ts';
import { syncLoadStops } from './load-visits.ts';

// Loads (issue 33, decision 0166): CRUD, the list, assignment and the statuses people set. Every
// mutation writes its activity-log row and, when the status moves, a status-history row in the
// same transaction. Stops are numbered from 0 in driving order (screens show seq + 1).

type Assignment = z.output<typeof loadAssignmentSchema>;
type StatusChange = z.output<typeof loadStatusChangeSchema>;

const FINISHED: readonly LoadStatus[] = ['DELIVERED', 'CANCELLED'];
const RUNNING: readonly LoadStatus[] = ['EN_ROUTE', 'AT_STOP'];

/** The next load numbers of the organization (L-1001, L-1002, …). */
export async function nextNumbers(tx: DbOrTx, orgId: string, count = 1): Promise<string[]> {
  return (await nextOrgNumbers(tx, 'load_counters', orgId, count)).map((n) => `L-${n}`);
}

const SORTS = {
  number: sql`lpad(${loads.number}, 24, '0')`,
  customer: sql`lower(${loads.customer})`,
  status: loads.status,
  pickupAt: sql`(select s.window_start from load_stops s where s.organization_id = ${loads.organizationId} and s.load_id = ${loads.id} and s.seq = 0)`,
  deliveredAt: loads.deliveredAt,
  createdAt: loads.createdAt,
  updatedAt: loads.updatedAt,
};

function filters(orgId: string, q: LoadListQuery): SQL | undefined {
  const statuses = q.status ? (q.status.split(',') as LoadStatus[]) : null;
  // Names the organization: Citus routes the sub-select to the organization's shard only then.
  const firstWindow = (cond: SQL) =>
    sql`exists (select 1 from load_stops s where s.organization_id = ${orgId} and s.load_id = ${loads.id} and s.seq = 0 and ${cond})`;
  return and(
    eq(loads.organizationId, orgId),
    statuses ? inArray(loads.status, statuses) : undefined,
    q.driverId ? or(eq(loads.driverId, q.driverId), eq(loads.coDriverId, q.driverId)) : undefined,
    q.customer ? sql`lower(${loads.customer}) like ${likeTerm(q.customer)}` : undefined,
    q.customerId ? eq(loads.customerId, q.customerId) : undefined,
    q.from ? firstWindow(sql`s.window_start >= ${q.from}::timestamptz`) : undefined,
    q.to ? firstWindow(sql`s.window_start < ${q.to}::timestamptz`) : undefined,
    q.search
      ? sql`lower(concat_ws(' ', ${loads.number}, ${loads.customer}, ${loads.bolNumber}, ${loads.poNumber}, ${loads.commodity}, ${loads.notes})) like ${likeTerm(q.search)}`
      : undefined,
  );
}

/** A page of the loads in the caller's reach (a driver's own only). */
export async function listLoads(s: Scope, ctx: AuthContext, q: LoadListQuery): Promise<Page<Load>> {
  const reach = await reachOf(s.db, s.orgId, ctx, 'LOAD_LIST');
  const where = and(filters(s.orgId, q), reachable(reach));
  const [total] = await s.db.select({ n: countAll }).from(loads).where(where);
  const rows = await s.db
    .select()
    .from(loads)
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, desc(loads.createdAt), asc(loads.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  return toPage(await presentLoads(s.db, rows, false), total?.n ?? 0, q);
}

/** One load with its history and documents; 404 out of the caller's reach. */
export async function getLoad(s: Scope, ctx: AuthContext, loadId: string): Promise<Load> {
  const reach = await reachOf(s.db, s.orgId, ctx, 'LOAD_LIST');
  const row = await findLoadRow(s.db, s.orgId, loadId);
  if (!row || !inReach(reach, row)) throw notFound('Load');
  return (await presentLoads(s.db, [row], true))[0]!;
}

export async function fullLoad(db: DbOrTx, orgId: string, loadId: string): Promise<Load> {
  const row = await findLoadRow(db, orgId, loadId);
  if (!row) throw notFound('Load');
  return (await presentLoads(db, [row], true))[0]!;
}

/** The load's columns from an input (drivers, tractor and number aside); the customer as `customerForLoad` resolved it. */
function columnsOf(input: LoadInput, named: { customerId: string; customer: string }) {
  return {
    customer: named.customer,
    customerId: named.customerId,
    customerPlaceId: input.customerPlaceId ?? null,
    bolNumber: input.bolNumber ?? null,
    poNumber: input.poNumber ?? null,
    commodity: input.commodity ?? null,
    weightKg: input.weightKg ?? null,
    lineHaulCents: toCents(input.rate.lineHaul),
    fuelSurchargeCents: toCents(input.rate.fuelSurcharge),
    accessorials: input.rate.accessorials.map((a) => ({ kind: a.kind, amountCents: toCents(a.amount), note: a.note ?? null })),
    notes: input.notes ?? null,
  };
}

function stopColumns(st: LoadInput['stops'][number]) {
  return {
    kind: st.kind,
    placeId: st.placeId ?? null,
    latitude: st.latitude,
    longitude: st.longitude,
    address: st.address ?? null,
    windowStart: new Date(st.windowStart),
    windowEnd: new Date(st.windowEnd),
    serviceMinutes: st.serviceMinutes,
  };
}

const refsOf = (input: LoadInput) => ({
  driverIds: input.driverIds,
  assetId: input.assetId,
  trailerId: input.trailerId,
  customerPlaceId: input.customerPlaceId,
  stopPlaceIds: input.stops.map((st) => st.placeId),
});

/**
 * Inserts checked loads (the create route and the import): numbers, stops, the first status row
 * and an activity row each. `loadedM` is each load's road distance, computed before the transaction.
 */
export async function insertLoads(
  tx: Tx,
  orgId: string,
  actor: Actor,
  items: ReadonlyArray<{ input: LoadInput; loadedM: number }>,
  action = 'CREATE',
): Promise<LoadRow[]> {
  const numbers = await nextNumbers(tx, orgId, items.length);
  const out: LoadRow[] = [];
  for (const [i, { input, loadedM }] of items.entries()) {
    const lead = input.driverIds[0];
    const assetId = await tractorOf(tx, orgId, input.assetId, lead);
    const status: LoadStatus = lead ? 'ASSIGNED' : 'PLANNED';
    const named = await customerForLoad(tx, orgId, actor, input);
    const [row] = await tx
      .insert(loads)
      .values({
        organizationId: orgId,
        number: numbers[i]!,
        ...columnsOf(input, named),
        status,
        driverId: lead ?? null,
        coDriverId: input.driverIds[1] ?? null,
        assetId,
        trailerId: input.trailerId ?? null,
        loadedM,
      })
      .returning();
    const stops = await tx
      .insert(loadStops)
      .values(input.stops.map((st, seq) => ({ organizationId: orgId, loadId: row!.id, seq, ...stopColumns(st) })))
      .returning();
    await recordStatus(tx, orgId, row!.id, status, row!.createdAt, actor.userId);
    await recordActivity(tx, { orgId, actor, action, entityType: 'LOAD', entityId: row!.id, after: { ...row, stops } });
    out.push(row!);
  }
  return out;
}

export async function createLoad(s: Scope, input: LoadInput): Promise<Load> {
  const loadedM = loadedMetres(input.stops);
  const row = await s.db.transaction(async (tx) => {
    await checkLoadRefs(tx, s.orgId, refsOf(input));
    const made = (await insertLoads(tx, s.orgId, s.actor, [{ input, loadedM }]))[0]!;
    const stops = (await stopsOf(tx, [made.id])).get(made.id) ?? [];
    // Named at once, its drivers and units are checked as an assignment is: their papers (issue 71), then their time.
    await refuseNonCompliant(tx, s.orgId, stops, { driverIds: input.driverIds, assetId: made.assetId, trailerId: made.trailerId });
    if (!input.overlapAllowed)
      await refuseOverlap(tx, s.orgId, s.actor.userId, made, stops, {
        driverIds: input.driverIds,
        assetId: made.assetId,
      });
    return made;
  });
  // A truck already at the pick-up when the load is made.
  if (row.assetId) await syncLoadStops(s.db, s.orgId, row.id);
  return fullLoad(s.db, s.orgId, row.id);
}

const NEAR_DEG = 0.005; // about 500 m: a stop arrived at may be corrected, not moved elsewhere

/** 409 on `stops.{i}` when the new stops drop or move a stop the truck has already reached. */
function keepReached(old: readonly StopRow[], next: LoadInput['stops']): void {
  old.forEach((o, i) => {
    if (!o.arrivedAt) return;
    const n = next[i];
    const same =
      n &&
      n.kind === o.kind &&
      (n.placeId ?? null) === o.placeId &&
      Math.abs(n.latitude - o.latitude) < NEAR_DEG &&
      Math.abs(n.longitude - o.longitude) < NEAR_DEG;
    if (!same) throw conflictOn(`stops.${i}`, `Stop ${i + 1} has been reached: it stays in its place in the list, with its kind and location`);
  });
}

/** Replaces a load; stops already reached keep their arrival and departure. Delivered or cancelled loads are not edited. */
export async function updateLoad(s: Scope, loadId: string, input: LoadInput): Promise<Load> {
  const loadedM = loadedMetres(input.stops);
  await s.db.transaction(async (tx) => {
    const before = await findLoadRow(tx, s.orgId, loadId, true);
    if (!before) throw notFound('Load');
    if (FINISHED.includes(before.status))
      throw conflict(`Load ${before.number} is ${before.status === 'DELIVERED' ? 'delivered' : 'cancelled'} and can no longer be edited`);
    await checkLoadRefs(tx, s.orgId, refsOf(input));
    const lead = input.driverIds[0];
    if (!lead && RUNNING.includes(before.status)) throw conflictOn('driverIds', 'A load on the road keeps its driver');
    const old = (await stopsOf(tx, [loadId])).get(loadId) ?? [];
    keepReached(old, input.stops);
    const assetId = await tractorOf(tx, s.orgId, input.assetId, lead);
    const status: LoadStatus = before.status === 'PLANNED' && lead ? 'ASSIGNED' : before.status === 'ASSIGNED' && !lead ? 'PLANNED' : before.status;
    const added = input.driverIds.filter((d) => d !== before.driverId && d !== before.coDriverId);
    // As an assignment: the papers of who and what is newly named, by this load's new dates (issue 71).
    await refuseNonCompliant(
      tx,
      s.orgId,
      input.stops.map((st) => ({ windowStart: new Date(st.windowStart), windowEnd: new Date(st.windowEnd) })),
      {
        driverIds: added,
        assetId: assetId !== before.assetId ? assetId : null,
        trailerId: (input.trailerId ?? null) !== before.trailerId ? (input.trailerId ?? null) : null,
      },
    );
    if (!input.overlapAllowed) {
      // As an assignment: who is newly named, against this load's new times.
      const times = input.stops.map((st, i) => ({
        windowStart: new Date(st.windowStart),
        serviceMinutes: st.serviceMinutes,
        arrivedAt: old[i]?.arrivedAt ?? null,
        departedAt: old[i]?.departedAt ?? null,
        eta: null,
      }));
      await refuseOverlap(tx, s.orgId, s.actor.userId, before, times, { driverIds: added, assetId: assetId !== before.assetId ? assetId : null });
    }
    const named = await customerForLoad(tx, s.orgId, s.actor, input);
    const [updated] = await tx
      .update(loads)
      .set({
        ...columnsOf(input, named),
        status,
        driverId: lead ?? null,
        coDriverId: input.driverIds[1] ?? null,
        assetId,
        trailerId: input.trailerId ?? null,
        loadedM,
        updatedAt: new Date(),
      })
      .where(eq(loads.id, loadId))
      .returning();
    // In place by number, so stop ids (the driver's screen, documents) survive an edit.
    for (const [i, st] of input.stops.entries()) {
      const o = old[i];
      if (o)
        await tx
          .update(loadStops)
          .set({ ...stopColumns(st), eta: null, windowMet: null })
          .where(eq(loadStops.id, o.id));
      else await tx.insert(loadStops).values({ organizationId: s.orgId, loadId, seq: i, ...stopColumns(st) });
    }
    const dropped = old.slice(input.stops.length).map((o) => o.id);
    if (dropped.length) await tx.delete(loadStops).where(inArray(loadStops.id, dropped));
    if (status !== before.status) await recordStatus(tx, s.orgId, loadId, status, new Date(), s.actor.userId);
    const after = await settleStatus(tx, updated!, s.actor, new Date());
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'UPDATE',
      entityType: 'LOAD',
      entityId: loadId,
      before: { ...before, stops: old },
      after: { ...after, stops: input.stops },
    });
  });
  await syncLoadStops(s.db, s.orgId, loadId);
  return fullLoad(s.db, s.orgId, loadId);
}

/** Deletes a planned or cancelled load (a load that was on the road is cancelled, and kept). */
export async function deleteLoad(s: Scope, loadId: string): Promise<void> {
  await s.db.transaction(async (tx) => {
    const before = await findLoadRow(tx, s.orgId, loadId, true);
    if (!before) throw notFound('Load');
    if (before.status !== 'PLANNED' && before.status !== 'CANCELLED')
      throw conflict(
        `Only a planned or cancelled load can be deleted; load ${before.number} is ${before.status.toLowerCase().replace('_', ' ')} (cancel it first)`,
      );
    await tx.delete(loads).where(eq(loads.id, loadId));
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'DELETE', entityType: 'LOAD', entityId: loadId, before });
  });
}

/** Drivers, tractor (else the lead driver's current vehicle) and trailer; PLANNED ↔ ASSIGNED; 409 when a newly named driver or tractor is busy then (unless overlapAllowed). */
export async function assignLoad(s: Scope, loadId: string, a: Assignment): Promise<Load> {
  await s.db.transaction(async (tx) => {
    const before = await findLoadRow(tx, s.orgId, loadId, true);
    if (!before) throw notFound('Load');
    if (FINISHED.includes(before.status))
      throw conflict(`Load ${before.number} is ${before.status === 'DELIVERED' ? 'delivered' : 'cancelled'}: its assignment can no longer change`);
    const lead = a.driverIds[0];
    if (!lead && RUNNING.includes(before.status)) throw conflictOn('driverIds', 'A load on the road keeps its driver');
    if (new Set(a.driverIds).size !== a.driverIds.length) throw conflictOn('driverIds', 'A driver is named twice');
    await checkLoadRefs(tx, s.orgId, { driverIds: a.driverIds, assetId: a.assetId, trailerId: a.trailerId });
    const assetId = await tractorOf(tx, s.orgId, a.assetId, lead);
    // Only who is newly named is checked: a load keeps its own driver and tractor (a trailer changed).
    const added = a.driverIds.filter((d) => d !== before.driverId && d !== before.coDriverId);
    const stops = (await stopsOf(tx, [loadId])).get(loadId) ?? [];
    // Their papers first (issue 71): an expired licence, medical certificate, inspection or registration refuses, whatever overlapAllowed says.
    await refuseNonCompliant(tx, s.orgId, stops, {
      driverIds: added,
      assetId: assetId !== before.assetId ? assetId : null,
      trailerId: (a.trailerId ?? null) !== before.trailerId ? (a.trailerId ?? null) : null,
    });
    if (!a.overlapAllowed) {
      await refuseOverlap(tx, s.orgId, s.actor.userId, before, stops, { driverIds: added, assetId: assetId !== before.assetId ? assetId : null });
    }
    const status: LoadStatus = before.status === 'PLANNED' && lead ? 'ASSIGNED' : before.status === 'ASSIGNED' && !lead ? 'PLANNED' : before.status;
    const [after] = await tx
      .update(loads)
      .set({ driverId: lead ?? null, coDriverId: a.driverIds[1] ?? null, assetId, trailerId: a.trailerId ?? null, status, updatedAt: new Date() })
      .where(eq(loads.id, loadId))
      .returning();
    if (status !== before.status) await recordStatus(tx, s.orgId, loadId, status, new Date(), s.actor.userId);
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'ASSIGN_LOAD', entityType: 'LOAD', entityId: loadId, before, after });
  });
  // The new truck's visits may already say it is at the pick-up.
  await syncLoadStops(s.db, s.orgId, loadId);
  return fullLoad(s.db, s.orgId, loadId);
}

/** Cancel, back to planned (unassigned; only before any stop is reached), or delivered by hand. */
export async function changeStatus(s: Scope, loadId: string, change: StatusChange): Promise<Load> {
  await s.db.transaction(async (tx) => {
    const before = await findLoadRow(tx, s.orgId, loadId, true);
    if (!before) throw notFound('Load');
    const stops = (await stopsOf(tx, [loadId])).get(loadId) ?? [];
    const now = new Date();
    let set: Partial<LoadRow>;
    let missing: PodMissing | null = null;
    if (change.status === 'CANCELLED') {
      if (FINISHED.includes(before.status))
        throw conflictOn('status', `Load ${before.number} is already ${before.status === 'DELIVERED' ? 'delivered' : 'cancelled'}`);
      set = { status: 'CANCELLED' };
    } else if (change.status === 'PLANNED') {
      if (before.status === 'PLANNED' || before.status === 'DELIVERED' || stops.some((st) => st.arrivedAt)) {
        throw conflictOn(
          'status',
          before.status === 'PLANNED' ? `Load ${before.number} is already planned` : `Load ${before.number} has started: it cannot go back to planned`,
        );
      }
      set = { status: 'PLANNED', driverId: null, coDriverId: null, assetId: null, trailerId: null };
    } else {
      if (!(['ASSIGNED', 'EN_ROUTE', 'AT_STOP'] as LoadStatus[]).includes(before.status)) {
        throw conflictOn(
          'status',
          before.status === 'PLANNED' ? 'Assign a driver before marking the load delivered' : `Load ${before.number} is already ${before.status.toLowerCase()}`,
        );
      }
      const last = stops[stops.length - 1];
      set = { status: 'DELIVERED', deliveredAt: last?.departedAt ?? last?.arrivedAt ?? now };
      // Marked delivered by hand: every delivery of a customer who requires a proof of delivery has one, or the office lets it.
      missing = await podMissing(tx, before, stops, stops);
      if (missing && !change.podWaived) throw podRequired(missing, true);
    }
    const [after] = await tx
      .update(loads)
      .set({ ...set, updatedAt: now })
      .where(eq(loads.id, loadId))
      .returning();
    const note = [change.note, missing && waiverNote(missing)].filter(Boolean).join(' · ') || null;
    await recordStatus(tx, s.orgId, loadId, change.status, change.status === 'DELIVERED' ? after!.deliveredAt! : now, s.actor.userId, note);
    if (missing) await recordWaiver(tx, s, loadId, missing);
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'LOAD_STATUS', entityType: 'LOAD', entityId: loadId, before, after });
  });
  return fullLoad(s.db, s.orgId, loadId);
}
