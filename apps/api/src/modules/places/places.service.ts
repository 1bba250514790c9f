import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Page, Place, PlaceGeometry, placeExportQuery, placeInputSchema, placeListQuery } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { groupMembers, places } from '../../db/schema/index.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { Scope } from '../auth/index.ts';
import { assertGroup } from '../groups/index.ts';
import { placesChanged } from './place-changes.ts';
import { bboxOf, centerOf, polygonProblem } from './place-geometry.ts';

// Places (issue 32, decision 0162): CRUD, the list with its map-area filter, and the shapes'
// checks. A place with a group is seen by that group's users (and by users in no group, who see the
// whole organization), as notifications are told; a foreign organization's place is a 404.

export type PlaceInputValues = z.output<typeof placeInputSchema>;
type ListQuery = z.output<typeof placeListQuery>;
type ExportQuery = z.output<typeof placeExportQuery>;
export type PlaceRow = typeof places.$inferSelect;

export function presentPlace(p: PlaceRow): Place {
  return {
    id: p.id,
    organizationId: p.organizationId,
    name: p.name,
    category: p.category,
    geometry: p.geometry as PlaceGeometry,
    radiusMeters: p.radiusM,
    arrivalDwellSeconds: p.arrivalDwellS,
    departureDwellSeconds: p.departureDwellS,
    groupId: p.groupId,
    address: p.address,
    notes: p.notes,
    center: centerOf(p.geometry as PlaceGeometry, p),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/**
 * True for places the user sees: no group, or a group of theirs, or the user is in no group. The
 * memberships are read in the organization (`orgId`): on Citus a sub-select that does not name it
 * runs on every shard, or is refused beside the places.
 */
export function placeVisibleTo(userId: string | null, orgId: string): SQL {
  if (!userId) return sql`true`;
  const mine = sql`${groupMembers.organizationId} = ${orgId} and ${groupMembers.memberType} = 'USER' and ${groupMembers.memberId} = ${userId}`;
  return sql`(${places.groupId} is null
    or not exists (select 1 from ${groupMembers} where ${mine})
    or exists (select 1 from ${groupMembers} where ${mine} and ${groupMembers.groupId} = ${places.groupId}))`;
}

/** The columns of a checked input: the shape as given (a polygon's ring closed), its box, and no radius for a polygon. */
export function columnsOf(input: PlaceInputValues, field = ''): Omit<typeof places.$inferInsert, 'organizationId'> {
  const problem = polygonProblem(input.geometry);
  if (problem) throw invalidField(`${field}geometry.coordinates`, problem);
  const radiusM = input.geometry.type === 'Point' ? (input.radiusMeters ?? null) : null;
  const box = bboxOf(input.geometry, radiusM);
  return {
    name: input.name,
    category: input.category,
    geometry: input.geometry,
    radiusM,
    arrivalDwellS: input.arrivalDwellSeconds,
    departureDwellS: input.departureDwellSeconds,
    groupId: input.groupId ?? null,
    address: input.address ?? null,
    notes: input.notes ?? null,
    ...box,
  };
}

/** 400 naming the field unless the group is one of the organization's. */
export async function checkGroup(db: DbOrTx, orgId: string, groupId: string | null | undefined, field = 'groupId'): Promise<void> {
  if (!groupId) return;
  try {
    await assertGroup(db, orgId, groupId);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw invalidField(field, 'Group is not a group of this organization');
    throw err;
  }
}

async function findPlace(db: DbOrTx, s: Pick<Scope, 'orgId' | 'actor'>, placeId: string, lock = false): Promise<PlaceRow> {
  const q = db
    .select()
    .from(places)
    .where(and(eq(places.id, placeId), eq(places.organizationId, s.orgId), placeVisibleTo(s.actor.userId, s.orgId)));
  const [p] = lock ? await q.for('update') : await q;
  if (!p) throw notFound('Place');
  return p;
}

const SORTS = { name: sql`lower(${places.name})`, category: places.category, createdAt: places.createdAt, updatedAt: places.updatedAt };

function filters(s: Scope, q: Pick<ListQuery, 'search' | 'category' | 'groupId' | 'bbox'>): SQL | undefined {
  const bbox = q.bbox;
  return and(
    eq(places.organizationId, s.orgId),
    placeVisibleTo(s.actor.userId, s.orgId),
    q.search ? sql`(lower(${places.name}) like ${likeTerm(q.search)} or lower(coalesce(${places.address}, '')) like ${likeTerm(q.search)})` : undefined,
    q.category ? eq(places.category, q.category) : undefined,
    q.groupId ? eq(places.groupId, q.groupId) : undefined,
    // The shape's box meets the area (west, south, east, north).
    bbox
      ? sql`${places.minLon} <= ${bbox[2]} and ${places.maxLon} >= ${bbox[0]} and ${places.minLat} <= ${bbox[3]} and ${places.maxLat} >= ${bbox[1]}`
      : undefined,
  );
}

export async function listPlaces(s: Scope, q: ListQuery): Promise<Page<Place>> {
  const where = filters(s, q);
  const [total] = await s.db.select({ n: countAll }).from(places).where(where);
  const rows = await s.db
    .select()
    .from(places)
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, 'name', asc(places.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  return toPage(rows.map(presentPlace), total?.n ?? 0, q);
}

/** Every place the filters select, for the export (names in order). */
export async function allPlaces(s: Scope, q: ExportQuery): Promise<Place[]> {
  const rows = await s.db
    .select()
    .from(places)
    .where(filters(s, q))
    .orderBy(sql`lower(${places.name})`, asc(places.id));
  return rows.map(presentPlace);
}

export async function getPlace(s: Scope, placeId: string): Promise<Place> {
  return presentPlace(await findPlace(s.db, s, placeId));
}

export async function createPlace(s: Scope, input: PlaceInputValues): Promise<Place> {
  const columns = columnsOf(input);
  const row = await s.db.transaction(async (tx) => {
    await checkGroup(tx, s.orgId, input.groupId);
    const [p] = await tx
      .insert(places)
      .values({ organizationId: s.orgId, ...columns })
      .returning();
    if (!p) throw new Error('place insert returned nothing');
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'CREATE', entityType: 'PLACE', entityId: p.id, after: p });
    return p;
  });
  placesChanged(s.orgId);
  return presentPlace(row);
}

/** Replaces a place; its visits stay (events from now on follow the new shape and dwell times). */
export async function updatePlace(s: Scope, placeId: string, input: PlaceInputValues): Promise<Place> {
  const columns = columnsOf(input);
  const row = await s.db.transaction(async (tx) => {
    const before = await findPlace(tx, s, placeId, true);
    await checkGroup(tx, s.orgId, input.groupId);
    const [after] = await tx
      .update(places)
      .set({ ...columns, updatedAt: new Date() })
      .where(eq(places.id, placeId))
      .returning();
    if (!after) throw notFound('Place');
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'UPDATE', entityType: 'PLACE', entityId: placeId, before, after });
    return after;
  });
  placesChanged(s.orgId);
  return presentPlace(row);
}

/** Deletes a place and its visits (trips and stops keep their rows without the place). */
export async function deletePlace(s: Scope, placeId: string): Promise<void> {
  await s.db.transaction(async (tx) => {
    const before = await findPlace(tx, s, placeId, true);
    await tx.delete(places).where(eq(places.id, placeId));
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'DELETE', entityType: 'PLACE', entityId: placeId, before });
  });
  placesChanged(s.orgId);
}
