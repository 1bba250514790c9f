// Border crossings of a driver (issue 72, decision 0313): detected from the positions the driver's
// trucks reported, listed with the ruleset in force on each side, and corrected by the driver or the
// office with an annotation (a correction keeps the row it replaces, removed, with the reason).
import { and, asc, desc, eq, gte, isNull, lt, lte } from 'drizzle-orm';
import type { RulesetId } from '@fleet/hos';
import type { BorderCountry, BorderCrossing, BorderCrossingList } from '@fleet/api-contract';
import type { z } from 'zod';
import type { crossingCreateSchema, crossingMoveSchema, crossingRemoveSchema, crossingsQuery } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, hosBorderCrossings, positions } from '../../db/schema/index.ts';
import { conflictOn, invalidField, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';
import { crossingsOfTrack, rulesetIn } from './hos-crossings.ts';
import { DAY_MS } from './hos.time.ts';

/** The longest range one list reads (and detects positions over). */
export const CROSSINGS_MAX_RANGE_DAYS = 31;

type Row = typeof hosBorderCrossings.$inferSelect;

async function driverOf(db: DbOrTx, orgId: string, driverId: string, lock = false) {
  const q = db
    .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName, ruleset: drivers.ruleset })
    .from(drivers)
    .where(and(eq(drivers.id, driverId), eq(drivers.organizationId, orgId)));
  const [d] = lock ? await q.for('no key update') : await q;
  if (!d) throw notFound('Driver');
  return { ...d, ruleset: d.ruleset as RulesetId };
}

/**
 * Stores the crossings of the driver's positions in [fromMs, toMs) not stored yet (a crossing
 * removed by a correction stays removed: its row holds the same instant). Returns how many were new.
 */
export async function detectCrossings(db: DbOrTx, orgId: string, driverId: string, fromMs: number, toMs: number): Promise<number> {
  const fixes = await db
    .select({ t: positions.fixTime, lat: positions.latitude, lon: positions.longitude, speed: positions.speed, vehicleId: positions.assetId })
    .from(positions)
    .where(
      and(
        eq(positions.organizationId, orgId),
        eq(positions.driverId, driverId),
        gte(positions.fixTime, new Date(fromMs)),
        lt(positions.fixTime, new Date(toMs)),
      ),
    )
    .orderBy(asc(positions.fixTime));
  const found = crossingsOfTrack(fixes.map((f) => ({ time: f.t.getTime(), lat: f.lat, lon: f.lon, speedKmh: f.speed ?? 0, vehicleId: f.vehicleId })));
  if (found.length === 0) return 0;
  const inserted = await db
    .insert(hosBorderCrossings)
    .values(
      found.map((c) => ({
        organizationId: orgId,
        driverId,
        vehicleId: c.vehicleId,
        at: new Date(c.atMs),
        fromCountry: c.from,
        toCountry: c.to,
        source: 'POSITIONS' as const,
        latitude: c.lat,
        longitude: c.lon,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: hosBorderCrossings.id });
  if (inserted.length) await notifyHosChange(db, orgId);
  return inserted.length;
}

const view = (r: Row, ruleset: RulesetId): BorderCrossing => ({
  id: r.id,
  at: r.at.toISOString(),
  from: r.fromCountry,
  to: r.toCountry,
  source: r.source,
  vehicleId: r.vehicleId,
  latitude: r.latitude,
  longitude: r.longitude,
  annotation: r.annotation,
  rulesetBefore: rulesetIn(ruleset, r.fromCountry),
  rulesetAfter: rulesetIn(ruleset, r.toCountry),
});

const active = (orgId: string, driverId: string) =>
  and(eq(hosBorderCrossings.organizationId, orgId), eq(hosBorderCrossings.driverId, driverId), isNull(hosBorderCrossings.removedAt));

/**
 * The driver's crossings from `from` to `to` (default the 7 days to now), after storing those the
 * positions of the range show, with the ruleset in force at `from` and on each side of each crossing.
 */
export async function listCrossings({ db, orgId, now }: ReadScope, driverId: string, q: z.output<typeof crossingsQuery>): Promise<BorderCrossingList> {
  const d = await driverOf(db, orgId, driverId);
  const toMs = q.to ? Date.parse(q.to) : (now ?? Date.now());
  const fromMs = q.from ? Date.parse(q.from) : toMs - 7 * DAY_MS;
  if (fromMs >= toMs) throw invalidField('to', 'To must be after From');
  if (toMs - fromMs > CROSSINGS_MAX_RANGE_DAYS * DAY_MS) throw invalidField('to', `The range may cover at most ${CROSSINGS_MAX_RANGE_DAYS} days`);
  await detectCrossings(db, orgId, d.id, fromMs, toMs);
  const [before] = await db
    .select({ to: hosBorderCrossings.toCountry })
    .from(hosBorderCrossings)
    .where(and(active(orgId, d.id), lt(hosBorderCrossings.at, new Date(fromMs))))
    .orderBy(desc(hosBorderCrossings.at), desc(hosBorderCrossings.createdAt))
    .limit(1);
  const rows = await db
    .select()
    .from(hosBorderCrossings)
    .where(and(active(orgId, d.id), gte(hosBorderCrossings.at, new Date(fromMs)), lte(hosBorderCrossings.at, new Date(toMs))))
    .orderBy(asc(hosBorderCrossings.at), asc(hosBorderCrossings.createdAt));
  const startCountry: BorderCountry = before?.to ?? rows[0]?.fromCountry ?? (d.ruleset.startsWith('CA_SOUTH') ? 'CA' : 'US');
  return { rulesetAtStart: rulesetIn(d.ruleset, startCountry), items: rows.map((r) => view(r, d.ruleset)) };
}

/** The country the driver is in just before `atMs` by the crossings stored (their own side when none). */
async function countryBefore(tx: DbOrTx, orgId: string, d: { id: string; ruleset: RulesetId }, atMs: number, except?: string): Promise<BorderCountry> {
  const rows = await tx
    .select({ id: hosBorderCrossings.id, to: hosBorderCrossings.toCountry, from: hosBorderCrossings.fromCountry, at: hosBorderCrossings.at })
    .from(hosBorderCrossings)
    .where(active(orgId, d.id))
    .orderBy(asc(hosBorderCrossings.at), asc(hosBorderCrossings.createdAt));
  const others = rows.filter((r) => r.id !== except);
  const last = [...others].reverse().find((r) => r.at.getTime() < atMs);
  if (last) return last.to;
  const next = others.find((r) => r.at.getTime() >= atMs);
  if (next) return next.from;
  return d.ruleset.startsWith('CA_SOUTH') ? 'CA' : 'US';
}

async function activeRow(tx: DbOrTx, orgId: string, driverId: string, crossingId: string): Promise<Row> {
  const [row] = await tx
    .select()
    .from(hosBorderCrossings)
    .where(and(active(orgId, driverId), eq(hosBorderCrossings.id, crossingId)));
  if (!row) throw notFound('Crossing');
  return row;
}

const countryWords: Record<BorderCountry, string> = { US: 'the US', CA: 'Canada' };

/** Keeps a crossing, removed, with the annotation that removed it (a correction never deletes one). */
async function markRemoved(tx: DbOrTx, { orgId, actor }: Scope, row: Row, annotation: string): Promise<void> {
  await tx
    .update(hosBorderCrossings)
    .set({ removedAt: new Date(), removedBy: actor.userId, removedAnnotation: annotation })
    .where(and(eq(hosBorderCrossings.organizationId, orgId), eq(hosBorderCrossings.id, row.id)));
}

type DriverOf = Awaited<ReturnType<typeof driverOf>>;

/**
 * Writes a crossing the driver or the office entered (an addition, or a moved crossing's new row),
 * tells the HoS followers and records the correction; a crossing already at that time is a 409.
 */
async function enterCrossing(
  tx: DbOrTx,
  { orgId, actor }: Scope,
  d: DriverOf,
  values: { at: Date; fromCountry: BorderCountry; toCountry: BorderCountry; vehicleId?: string | null; annotation: string },
  before?: Row,
): Promise<BorderCrossing> {
  const [row] = await tx
    .insert(hosBorderCrossings)
    .values({ organizationId: orgId, driverId: d.id, source: 'DRIVER', createdBy: actor.userId, ...values })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflictOn('at', 'A crossing is already entered at that time');
  await notifyHosChange(tx, orgId);
  await recordActivity(tx, {
    orgId,
    actor,
    action: 'CORRECT_HOS_CROSSING',
    entityType: 'DRIVER',
    entityId: d.id,
    ...(before ? { before: { at: before.at.toISOString(), to: before.toCountry } } : {}),
    after: { at: row.at.toISOString(), to: row.toCountry, annotation: values.annotation, driverName: `${d.firstName} ${d.lastName}` },
  });
  return view(row, d.ruleset);
}

/** Enters a crossing the positions missed: into `to` at `at`, from the country the driver was in. */
export async function addCrossing(scope: Scope, driverId: string, input: z.output<typeof crossingCreateSchema>): Promise<BorderCrossing> {
  const { db, orgId } = scope;
  return db.transaction(async (tx) => {
    const d = await driverOf(tx, orgId, driverId, true);
    const atMs = Date.parse(input.at);
    const from = await countryBefore(tx, orgId, d, atMs);
    if (from === input.to) throw invalidField('to', `The driver is already in ${countryWords[from]} at that time`);
    return enterCrossing(tx, scope, d, { at: new Date(atMs), fromCountry: from, toCountry: input.to, annotation: input.annotation });
  });
}

/** Moves a crossing to the right time: the row is kept removed with the annotation, a DRIVER row takes its place. */
export async function moveCrossing(scope: Scope, driverId: string, crossingId: string, input: z.output<typeof crossingMoveSchema>): Promise<BorderCrossing> {
  const { db, orgId } = scope;
  return db.transaction(async (tx) => {
    const d = await driverOf(tx, orgId, driverId, true);
    const old = await activeRow(tx, orgId, d.id, crossingId);
    const atMs = Date.parse(input.at);
    const from = await countryBefore(tx, orgId, d, atMs, old.id);
    if (from === old.toCountry) throw invalidField('at', `The driver is already in ${countryWords[from]} at that time`);
    await markRemoved(tx, scope, old, input.annotation);
    const values = { at: new Date(atMs), fromCountry: old.fromCountry, toCountry: old.toCountry, vehicleId: old.vehicleId, annotation: input.annotation };
    return enterCrossing(tx, scope, d, values, old);
  });
}

/** Removes a crossing that did not happen (kept, removed, with the annotation: detection does not add it again). */
export async function removeCrossing(scope: Scope, driverId: string, crossingId: string, input: z.output<typeof crossingRemoveSchema>): Promise<void> {
  const { db, orgId, actor } = scope;
  await db.transaction(async (tx) => {
    const d = await driverOf(tx, orgId, driverId, true);
    const old = await activeRow(tx, orgId, d.id, crossingId);
    await markRemoved(tx, scope, old, input.annotation);
    await notifyHosChange(tx, orgId);
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'CORRECT_HOS_CROSSING',
      entityType: 'DRIVER',
      entityId: d.id,
      before: { at: old.at.toISOString(), to: old.toCountry },
      after: { annotation: input.annotation, driverName: `${d.firstName} ${d.lastName}` },
    });
  });
}
