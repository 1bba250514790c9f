import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { LoadContactRole, LoadNoticeKind, ShareLinkKind } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import {
  assets,
  latestPositions,
  loadContacts,
  loadDocuments,
  loadNotices,
  loads,
  loadStatusEvents,
  loadStops,
  organizations,
  places,
  shareLinks,
  users,
} from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// The SQL of customer tracking (issue 69, decision 0282): links, contacts, and the reads of a load,
// its stops and its truck the public answer is made of. Every statement but the public token's
// lookup names the organization, so Citus routes it to the organization's shard (decision 0169).

const iso = (ms: number) => new Date(ms).toISOString();

export type ShareLinkRow = typeof shareLinks.$inferSelect;
export type LoadContactRow = typeof loadContacts.$inferSelect;

// ------------------------------------------------------------------------------------------ links

export async function insertShareLink(
  db: DbOrTx,
  row: {
    orgId: string;
    id?: string;
    kind: ShareLinkKind;
    loadId: string | null;
    assetId: string | null;
    tokenHash: string;
    label: string | null;
    forNotices?: boolean;
    showTemperature?: boolean;
    expiresAt: Date;
    createdAt: Date;
    createdBy: string | null;
    createdByToken: string | null;
  },
): Promise<ShareLinkRow> {
  const [out] = await db
    .insert(shareLinks)
    .values({
      organizationId: row.orgId,
      ...(row.id ? { id: row.id } : {}),
      kind: row.kind,
      loadId: row.loadId,
      assetId: row.assetId,
      tokenHash: row.tokenHash,
      label: row.label,
      forNotices: row.forNotices ?? false,
      showTemperature: row.showTemperature ?? false,
      expiresAt: row.expiresAt,
      createdAt: row.createdAt,
      createdBy: row.createdBy,
      createdByToken: row.createdByToken,
    })
    .returning();
  return out!;
}

/** A load's or a vehicle's links, newest first, with the name of the person who made each. */
export async function shareLinksOf(db: DbOrTx, orgId: string, target: { loadId: string } | { assetId: string }) {
  return db
    .select({ link: shareLinks, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(shareLinks)
    .leftJoin(users, eq(users.id, shareLinks.createdBy))
    .where(
      and(
        eq(shareLinks.organizationId, orgId),
        'loadId' in target
          ? and(eq(shareLinks.kind, 'LOAD'), eq(shareLinks.loadId, target.loadId))
          : and(eq(shareLinks.kind, 'VEHICLE'), eq(shareLinks.assetId, target.assetId)),
      ),
    )
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
}

export async function linkOf(db: DbOrTx, orgId: string, linkId: string): Promise<ShareLinkRow | null> {
  const [row] = await db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.organizationId, orgId), eq(shareLinks.id, linkId)));
  return row ?? null;
}

/** Revokes a link (kept, listed as revoked); false when the organization has no such link (of that load, when named). */
export async function revokeShareLink(db: DbOrTx, orgId: string, linkId: string, now: number, loadId?: string): Promise<boolean> {
  const [found] = await db
    .select({ revokedAt: shareLinks.revokedAt })
    .from(shareLinks)
    .where(and(eq(shareLinks.organizationId, orgId), eq(shareLinks.id, linkId), loadId ? eq(shareLinks.loadId, loadId) : undefined));
  if (!found) return false;
  if (!found.revokedAt)
    await db
      .update(shareLinks)
      .set({ revokedAt: new Date(now) })
      .where(and(eq(shareLinks.organizationId, orgId), eq(shareLinks.id, linkId), isNull(shareLinks.revokedAt)));
  return true;
}

/**
 * The link a token's hash names, of any organization (the one statement without one: the token is
 * all the caller has; on Citus it asks every shard, by an index).
 */
export async function linkByTokenHash(db: DbOrTx, tokenHash: string): Promise<ShareLinkRow | null> {
  const [row] = await db.select().from(shareLinks).where(eq(shareLinks.tokenHash, tokenHash)).limit(1);
  return row ?? null;
}

export async function countView(db: DbOrTx, orgId: string, linkId: string, now: number): Promise<void> {
  await db
    .update(shareLinks)
    .set({ viewCount: sql`${shareLinks.viewCount} + 1`, lastViewedAt: new Date(now) })
    .where(and(eq(shareLinks.organizationId, orgId), eq(shareLinks.id, linkId)));
}

/** The load's link the notices send, still good at `until` and not revoked. */
export async function noticeLinkOf(db: DbOrTx, orgId: string, loadId: string, until: number): Promise<ShareLinkRow | null> {
  const [row] = await db
    .select()
    .from(shareLinks)
    .where(
      and(
        eq(shareLinks.organizationId, orgId),
        eq(shareLinks.loadId, loadId),
        eq(shareLinks.forNotices, true),
        isNull(shareLinks.revokedAt),
        sql`${shareLinks.expiresAt} > ${iso(until)}::timestamptz`,
      ),
    )
    .orderBy(desc(shareLinks.expiresAt))
    .limit(1);
  return row ?? null;
}

// ---------------------------------------------------------------------------- loads and vehicles

export async function loadOf(db: DbOrTx, orgId: string, loadId: string) {
  const [row] = await db
    .select()
    .from(loads)
    .where(and(eq(loads.organizationId, orgId), eq(loads.id, loadId)));
  return row ?? null;
}

export async function vehicleOf(db: DbOrTx, orgId: string, assetId: string) {
  const [row] = await db
    .select({ id: assets.id, unitNumber: assets.unitNumber, type: assets.type })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.id, assetId)));
  return row ?? null;
}

/** The load's tractor: its own, else its lead driver's current vehicle (as the live ETAs read it). */
export async function loadVehicleOf(db: DbOrTx, orgId: string, load: { assetId: string | null; driverId: string | null }) {
  if (load.assetId) return vehicleOf(db, orgId, load.assetId);
  if (!load.driverId) return null;
  const [row] = await db
    .select({ id: assets.id, unitNumber: assets.unitNumber, type: assets.type })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.currentDriverId, load.driverId), eq(assets.type, 'VEHICLE')))
    .orderBy(asc(assets.id))
    .limit(1);
  return row ?? null;
}

export async function stopsOf(db: DbOrTx, orgId: string, loadId: string) {
  return db
    .select({ stop: loadStops, placeName: places.name })
    .from(loadStops)
    .leftJoin(places, and(eq(places.id, loadStops.placeId), eq(places.organizationId, loadStops.organizationId)))
    .where(and(eq(loadStops.organizationId, orgId), eq(loadStops.loadId, loadId)))
    .orderBy(asc(loadStops.seq));
}

/** The load's proofs of delivery, oldest first (what a delivered load's link shows). */
export async function proofsOfDeliveryOf(db: DbOrTx, orgId: string, loadId: string) {
  return db
    .select({ id: loadDocuments.id, stopId: loadDocuments.stopId, pageCount: loadDocuments.pageCount, createdAt: loadDocuments.createdAt })
    .from(loadDocuments)
    .where(and(eq(loadDocuments.organizationId, orgId), eq(loadDocuments.loadId, loadId), eq(loadDocuments.kind, 'POD')))
    .orderBy(asc(loadDocuments.createdAt), asc(loadDocuments.id));
}

export async function statusHistoryOf(db: DbOrTx, orgId: string, loadId: string) {
  return db
    .select({ status: loadStatusEvents.status, at: loadStatusEvents.at })
    .from(loadStatusEvents)
    .where(and(eq(loadStatusEvents.organizationId, orgId), eq(loadStatusEvents.loadId, loadId)))
    .orderBy(asc(loadStatusEvents.at), asc(loadStatusEvents.id));
}

export async function organizationOf(db: DbOrTx, orgId: string) {
  const [row] = await db.select({ name: organizations.name, settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  return row ?? null;
}

export interface FixRow {
  latitude: number;
  longitude: number;
  fixTime: number;
  speed: number | null;
  course: number | null;
}

/** The vehicle's newest fix at or before `now`: its latest row, else its newest stored one (a bulk-loaded history writes no latest rows). */
export async function lastFixOf(db: DbOrTx, orgId: string, assetId: string, now: number): Promise<FixRow | null> {
  const [latest] = await db
    .select({
      latitude: latestPositions.latitude,
      longitude: latestPositions.longitude,
      fixTime: latestPositions.fixTime,
      speed: latestPositions.speed,
      course: latestPositions.course,
    })
    .from(latestPositions)
    .where(and(eq(latestPositions.organizationId, orgId), eq(latestPositions.assetId, assetId), sql`${latestPositions.fixTime} <= ${iso(now)}::timestamptz`));
  if (latest) return { ...latest, fixTime: latest.fixTime.getTime() };
  const [row] = rowsOf<{ latitude: number; longitude: number; t: string | number; speed: number | null; course: number | null }>(
    await db.execute(sql`select latitude, longitude, extract(epoch from fix_time) * 1000 as t, speed, course from positions
      where organization_id = ${orgId} and asset_id = ${assetId} and fix_time <= ${iso(now)}::timestamptz order by fix_time desc limit 1`),
  );
  return row
    ? { latitude: Number(row.latitude), longitude: Number(row.longitude), fixTime: Math.round(Number(row.t)), speed: row.speed, course: row.course }
    : null;
}

// ---------------------------------------------------------------------------------------- contacts

export async function contactsOf(db: DbOrTx, orgId: string, loadId: string): Promise<LoadContactRow[]> {
  return db
    .select()
    .from(loadContacts)
    .where(and(eq(loadContacts.organizationId, orgId), eq(loadContacts.loadId, loadId)))
    .orderBy(asc(loadContacts.position), asc(loadContacts.createdAt));
}

export async function sentNoticesOf(db: DbOrTx, orgId: string, contactIds: readonly string[]) {
  if (contactIds.length === 0) return [];
  return db
    .select({ contactId: loadNotices.contactId, kind: loadNotices.kind, stopSeq: loadNotices.stopSeq, sentAt: loadNotices.sentAt })
    .from(loadNotices)
    .where(and(eq(loadNotices.organizationId, orgId), inArray(loadNotices.contactId, [...contactIds]), eq(loadNotices.status, 'SENT')))
    .orderBy(desc(loadNotices.sentAt));
}

export async function deleteContacts(db: DbOrTx, orgId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(loadContacts).where(and(eq(loadContacts.organizationId, orgId), inArray(loadContacts.id, [...ids])));
}

export async function updateContact(
  db: DbOrTx,
  orgId: string,
  id: string,
  values: { position: number; role: LoadContactRole; name: string; email: string; notices: LoadNoticeKind[] },
): Promise<void> {
  await db
    .update(loadContacts)
    .set(values)
    .where(and(eq(loadContacts.organizationId, orgId), eq(loadContacts.id, id)));
}

export async function insertContact(
  db: DbOrTx,
  row: {
    orgId: string;
    id: string;
    loadId: string;
    position: number;
    role: LoadContactRole;
    name: string;
    email: string;
    notices: LoadNoticeKind[];
    unsubscribeHash: string;
  },
): Promise<void> {
  await db.insert(loadContacts).values({
    organizationId: row.orgId,
    id: row.id,
    loadId: row.loadId,
    position: row.position,
    role: row.role,
    name: row.name,
    email: row.email,
    notices: row.notices,
    unsubscribeHash: row.unsubscribeHash,
  });
}

/** The contact an unsubscribe token's hash names, of any organization (as the link's lookup). */
export async function contactByUnsubscribeHash(db: DbOrTx, hash: string): Promise<LoadContactRow | null> {
  const [row] = await db.select().from(loadContacts).where(eq(loadContacts.unsubscribeHash, hash)).limit(1);
  return row ?? null;
}

export async function markUnsubscribed(db: DbOrTx, orgId: string, id: string, now: number): Promise<void> {
  await db
    .update(loadContacts)
    .set({ unsubscribedAt: new Date(now) })
    .where(and(eq(loadContacts.organizationId, orgId), eq(loadContacts.id, id), isNull(loadContacts.unsubscribedAt)));
}
