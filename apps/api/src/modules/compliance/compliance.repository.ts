import { and, asc, desc, eq, inArray, isNotNull, max, sql, type SQL } from 'drizzle-orm';
import type { ComplianceKind } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, complianceItemPages, complianceItems, drivers, images, organizations, users, type OrganizationSettings } from '../../db/schema/index.ts';

// The SQL of compliance (issue 71, decision 0300): papers, their pages, and the names of the drivers
// and units they belong to, read here with its own statements (compliance stands on the domain
// floor beside drivers and assets, and imports neither). Every statement names the organization,
// so Citus routes it to the organization's shard (decision 0169).

export type ItemRow = typeof complianceItems.$inferSelect;
export type NewItem = typeof complianceItems.$inferInsert;

/** A driver or a unit as a compliance subject: its name in words and whether it is active. */
export interface SubjectRow {
  id: string;
  type: 'DRIVER' | 'VEHICLE' | 'TRAILER';
  name: string;
  active: boolean;
}

/** An item with its subject's name and the names of who submitted and who decided it. */
export interface ItemWithNames {
  item: ItemRow;
  subject: SubjectRow;
  submittedByName: string | null;
  decidedByName: string | null;
}

const driverName = sql<string>`${drivers.firstName} || ' ' || ${drivers.lastName}`;

/** The organization's time zone and saved settings (today's date and the expiring window). */
export async function organizationFacts(db: DbOrTx, orgId: string): Promise<{ name: string; timeZone: string; settings: OrganizationSettings } | undefined> {
  const [row] = await db
    .select({ name: organizations.name, timeZone: organizations.timeZone, settings: organizations.settings })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return row;
}

export async function driverSubject(db: DbOrTx, orgId: string, driverId: string): Promise<SubjectRow | undefined> {
  const [row] = await db
    .select({ id: drivers.id, name: driverName, status: drivers.status })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.id, driverId)));
  return row && { id: row.id, type: 'DRIVER', name: row.name, active: row.status === 'ACTIVE' };
}

export async function assetSubject(db: DbOrTx, orgId: string, assetId: string): Promise<SubjectRow | undefined> {
  const [row] = await db
    .select({ id: assets.id, name: assets.unitNumber, type: assets.type, status: assets.status })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.id, assetId)));
  return row && { id: row.id, type: row.type, name: row.name, active: row.status === 'ACTIVE' };
}

/** Drivers and units of the organization by id, active or not (dispatch asks for them by id): two statements whatever the count. */
export async function subjectsByIds(db: DbOrTx, orgId: string, driverIds: readonly string[], assetIds: readonly string[]): Promise<SubjectRow[]> {
  const out: SubjectRow[] = [];
  if (driverIds.length) {
    const rows = await db
      .select({ id: drivers.id, name: driverName, status: drivers.status })
      .from(drivers)
      .where(and(eq(drivers.organizationId, orgId), inArray(drivers.id, [...driverIds])));
    out.push(...rows.map((r) => ({ id: r.id, type: 'DRIVER' as const, name: r.name, active: r.status === 'ACTIVE' })));
  }
  if (assetIds.length) {
    const rows = await db
      .select({ id: assets.id, name: assets.unitNumber, type: assets.type, status: assets.status })
      .from(assets)
      .where(and(eq(assets.organizationId, orgId), inArray(assets.id, [...assetIds])));
    out.push(...rows.map((r) => ({ id: r.id, type: r.type, name: r.name, active: r.status === 'ACTIVE' })));
  }
  return out;
}

/** The driver record of a user (the driver app's caller); undefined for one who drives nothing. */
export async function driverIdOfUser(db: DbOrTx, orgId: string, userId: string | null): Promise<string | undefined> {
  if (!userId) return undefined;
  const [row] = await db
    .select({ id: drivers.id })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.userId, userId)));
  return row?.id;
}

/** The user of a driver record (the driver told of their own papers); null when it has none. */
export async function userOfDriver(db: DbOrTx, orgId: string, driverId: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: drivers.userId })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.id, driverId)));
  return row?.userId ?? null;
}

/** Every active driver and unit of the organization, or those named (`q`: in the name). */
export async function activeSubjects(
  db: DbOrTx,
  orgId: string,
  filter: { driverIds?: readonly string[]; assetIds?: readonly string[]; drivers?: boolean; assets?: boolean } = {},
): Promise<SubjectRow[]> {
  const out: SubjectRow[] = [];
  if (filter.drivers !== false && (filter.driverIds === undefined || filter.driverIds.length > 0)) {
    const rows = await db
      .select({ id: drivers.id, name: driverName })
      .from(drivers)
      .where(and(eq(drivers.organizationId, orgId), eq(drivers.status, 'ACTIVE'), filter.driverIds ? inArray(drivers.id, [...filter.driverIds]) : undefined))
      .orderBy(asc(drivers.lastName), asc(drivers.firstName), asc(drivers.id));
    out.push(...rows.map((r) => ({ id: r.id, type: 'DRIVER' as const, name: r.name, active: true })));
  }
  if (filter.assets !== false && (filter.assetIds === undefined || filter.assetIds.length > 0)) {
    const rows = await db
      .select({ id: assets.id, name: assets.unitNumber, type: assets.type })
      .from(assets)
      .where(and(eq(assets.organizationId, orgId), eq(assets.status, 'ACTIVE'), filter.assetIds ? inArray(assets.id, [...filter.assetIds]) : undefined))
      .orderBy(asc(assets.unitNumber), asc(assets.id));
    out.push(...rows.map((r) => ({ id: r.id, type: r.type, name: r.name, active: true })));
  }
  return out;
}

/** The items of these subjects (all approvals, or those given), newest first. */
export async function itemsOfSubjects(
  db: DbOrTx,
  orgId: string,
  subjects: { driverIds?: readonly string[]; assetIds?: readonly string[] },
  opts: { approvedOnly?: boolean; kinds?: readonly ComplianceKind[] } = {},
): Promise<ItemRow[]> {
  const ofSubject: SQL[] = [];
  if (subjects.driverIds?.length) ofSubject.push(inArray(complianceItems.driverId, [...subjects.driverIds]));
  if (subjects.assetIds?.length) ofSubject.push(inArray(complianceItems.assetId, [...subjects.assetIds]));
  if (ofSubject.length === 0) return [];
  return db
    .select()
    .from(complianceItems)
    .where(
      and(
        eq(complianceItems.organizationId, orgId),
        ofSubject.length === 1 ? ofSubject[0] : sql`(${ofSubject[0]} or ${ofSubject[1]})`,
        opts.approvedOnly ? eq(complianceItems.approval, 'APPROVED') : undefined,
        opts.kinds ? inArray(complianceItems.kind, [...opts.kinds]) : undefined,
      ),
    )
    .orderBy(desc(complianceItems.issuedOn), desc(complianceItems.createdAt));
}

/** Names of users by id (who submitted and decided items). */
export async function userNames(db: DbOrTx, ids: ReadonlyArray<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((i): i is string => !!i))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email]));
}

/** All approved items of the organization's active drivers and units (the calendar and the summary). */
export async function approvedItemsOfActive(db: DbOrTx, orgId: string): Promise<ItemRow[]> {
  return db
    .select()
    .from(complianceItems)
    .where(
      and(
        eq(complianceItems.organizationId, orgId),
        eq(complianceItems.approval, 'APPROVED'),
        sql`(${complianceItems.driverId} in (select ${drivers.id} from ${drivers} where ${drivers.organizationId} = ${orgId} and ${drivers.status} = 'ACTIVE')
          or ${complianceItems.assetId} in (select ${assets.id} from ${assets} where ${assets.organizationId} = ${orgId} and ${assets.status} = 'ACTIVE'))`,
      ),
    );
}

/** Drivers' submissions waiting for the office. */
export async function pendingCount(db: DbOrTx, orgId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(complianceItems)
    .where(and(eq(complianceItems.organizationId, orgId), eq(complianceItems.approval, 'PENDING')));
  return row?.n ?? 0;
}

export async function findItem(db: DbOrTx, orgId: string, itemId: string, lock = false): Promise<ItemRow | undefined> {
  const q = db
    .select()
    .from(complianceItems)
    .where(and(eq(complianceItems.organizationId, orgId), eq(complianceItems.id, itemId)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/** The item an earlier send with this Idempotency-Key stored. */
export async function itemOfKey(db: DbOrTx, orgId: string, clientId: string): Promise<ItemRow | undefined> {
  const [row] = await db
    .select()
    .from(complianceItems)
    .where(and(eq(complianceItems.organizationId, orgId), eq(complianceItems.clientId, clientId)));
  return row;
}

export async function insertItem(db: DbOrTx, values: NewItem): Promise<ItemRow> {
  const [row] = await db.insert(complianceItems).values(values).returning();
  if (!row) throw new Error('compliance item insert returned nothing');
  return row;
}

export async function updateItem(db: DbOrTx, orgId: string, itemId: string, patch: Partial<NewItem>): Promise<ItemRow> {
  const [row] = await db
    .update(complianceItems)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(complianceItems.organizationId, orgId), eq(complianceItems.id, itemId)))
    .returning();
  if (!row) throw new Error('compliance item update returned nothing');
  return row;
}

export async function deleteItem(db: DbOrTx, orgId: string, itemId: string): Promise<void> {
  await db.delete(complianceItems).where(and(eq(complianceItems.organizationId, orgId), eq(complianceItems.id, itemId)));
}

/** The images of an item's pages (deleted with the item: they are its alone). */
export async function pageImageIds(db: DbOrTx, orgId: string, itemId: string): Promise<string[]> {
  const rows = await db
    .select({ imageId: complianceItemPages.imageId })
    .from(complianceItemPages)
    .where(and(eq(complianceItemPages.organizationId, orgId), eq(complianceItemPages.itemId, itemId), isNotNull(complianceItemPages.imageId)));
  return rows.map((r) => r.imageId!);
}

export async function deleteImages(db: DbOrTx, orgId: string, imageIds: readonly string[]): Promise<void> {
  if (imageIds.length === 0) return;
  await db.delete(images).where(and(eq(images.organizationId, orgId), inArray(images.id, [...imageIds])));
}

/** The stored type of each of the organization's images named (a page must be JPEG or PNG). */
export async function imageTypes(db: DbOrTx, orgId: string, imageIds: readonly string[]): Promise<Map<string, string>> {
  if (imageIds.length === 0) return new Map();
  const rows = await db
    .select({ id: images.id, contentType: images.contentType })
    .from(images)
    .where(and(eq(images.organizationId, orgId), inArray(images.id, [...imageIds])));
  return new Map(rows.map((r) => [r.id, r.contentType]));
}

/** The next page number of an item (0 for its first page). */
export async function nextPageSeq(db: DbOrTx, orgId: string, itemId: string): Promise<number> {
  const [row] = await db
    .select({ last: max(complianceItemPages.seq) })
    .from(complianceItemPages)
    .where(and(eq(complianceItemPages.organizationId, orgId), eq(complianceItemPages.itemId, itemId)));
  return row?.last == null ? 0 : row.last + 1;
}

export async function insertPages(
  db: DbOrTx,
  orgId: string,
  itemId: string,
  pages: ReadonlyArray<{ seq: number; imageId?: string; pdf?: Buffer; pdfPages?: number }>,
): Promise<void> {
  if (pages.length === 0) return;
  await db
    .insert(complianceItemPages)
    .values(pages.map((p) => ({ organizationId: orgId, itemId, seq: p.seq, imageId: p.imageId ?? null, pdf: p.pdf ?? null, pdfPages: p.pdfPages ?? null })));
}

/** One page of a document as stored: an image's bytes and type, or a PDF file with its page count. */
export interface StoredPage {
  itemId: string;
  seq: number;
  image: { bytes: Buffer; mime: string } | null;
  pdf: { bytes: Buffer; pages: number } | null;
}

/** The pages of these items with their bytes, each item's in order. */
export async function pagesOfItems(db: DbOrTx, orgId: string, itemIds: readonly string[]): Promise<StoredPage[]> {
  if (itemIds.length === 0) return [];
  const rows = await db
    .select({
      itemId: complianceItemPages.itemId,
      seq: complianceItemPages.seq,
      pdf: complianceItemPages.pdf,
      pdfPages: complianceItemPages.pdfPages,
      bytes: images.data,
      mime: images.contentType,
    })
    .from(complianceItemPages)
    .leftJoin(images, eq(images.id, complianceItemPages.imageId))
    .where(and(eq(complianceItemPages.organizationId, orgId), inArray(complianceItemPages.itemId, [...itemIds])))
    .orderBy(asc(complianceItemPages.itemId), asc(complianceItemPages.seq));
  return rows
    .filter((r) => r.pdf !== null || r.bytes !== null)
    .map((r) => ({
      itemId: r.itemId,
      seq: r.seq,
      image: r.bytes && r.mime ? { bytes: r.bytes, mime: r.mime } : null,
      pdf: r.pdf ? { bytes: r.pdf, pages: r.pdfPages ?? 1 } : null,
    }));
}

/** Sets an item's page count from its pages (a stored PDF counts its own pages). */
export async function recountPages(db: DbOrTx, orgId: string, itemId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(coalesce(${complianceItemPages.pdfPages}, 1)), 0)::int` })
    .from(complianceItemPages)
    .where(and(eq(complianceItemPages.organizationId, orgId), eq(complianceItemPages.itemId, itemId)));
  const n = row?.n ?? 0;
  await db
    .update(complianceItems)
    .set({ pageCount: n })
    .where(and(eq(complianceItems.organizationId, orgId), eq(complianceItems.id, itemId)));
  return n;
}

/** The driver's licence columns (one fact with the approved CDL item, decision 0300). */
export async function writeDriverLicence(
  db: DbOrTx,
  orgId: string,
  driverId: string,
  licence: { number: string | null; state: string | null; class: string | null; expiry: string | null },
): Promise<void> {
  await db
    .update(drivers)
    .set({ licenseNumber: licence.number, licenseState: licence.state, licenseClass: licence.class, licenseExpiry: licence.expiry, updatedAt: new Date() })
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.id, driverId)));
}

/** The driver's licence columns as stored. */
export async function driverLicence(db: DbOrTx, orgId: string, driverId: string) {
  const [row] = await db
    .select({ number: drivers.licenseNumber, state: drivers.licenseState, class: drivers.licenseClass, expiry: drivers.licenseExpiry })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.id, driverId)));
  return row;
}
