import { and, asc, eq, inArray } from 'drizzle-orm';
import type { LoadDocumentType } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { customers, images, loadDocumentPages, loadDocuments, loadStops, users } from '../../db/schema/index.ts';

// The SQL of a load's papers (issue 70, decision 0287): documents, their pages in the order taken,
// and the page images' bytes for the PDF. Every statement names the organization, so Citus routes
// it to the organization's shard (decision 0169).

export type DocumentRow = typeof loadDocuments.$inferSelect;

/** A document with the name fields of the person who added it (null: an API token or a removed user). */
export interface DocumentWithAuthor {
  d: DocumentRow;
  u: { firstName: string | null; lastName: string | null; email: string } | null;
}

/** The documents of these loads, oldest first. */
export async function documentsOfLoads(db: DbOrTx, orgIds: readonly string[], loadIds: readonly string[]): Promise<DocumentWithAuthor[]> {
  if (loadIds.length === 0) return [];
  return db
    .select({ d: loadDocuments, u: { firstName: users.firstName, lastName: users.lastName, email: users.email } })
    .from(loadDocuments)
    .leftJoin(users, eq(users.id, loadDocuments.uploadedBy))
    .where(and(inArray(loadDocuments.organizationId, [...orgIds]), inArray(loadDocuments.loadId, [...loadIds])))
    .orderBy(asc(loadDocuments.createdAt), asc(loadDocuments.id));
}

export async function documentOfLoad(db: DbOrTx, orgId: string, loadId: string, documentId: string): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(loadDocuments)
    .where(and(eq(loadDocuments.organizationId, orgId), eq(loadDocuments.loadId, loadId), eq(loadDocuments.id, documentId)));
  return row;
}

/** The document an earlier send with this Idempotency-Key stored on the load. */
export async function documentOfKey(db: DbOrTx, orgId: string, loadId: string, clientId: string): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(loadDocuments)
    .where(and(eq(loadDocuments.organizationId, orgId), eq(loadDocuments.loadId, loadId), eq(loadDocuments.clientId, clientId)));
  return row;
}

export async function isStopOfLoad(db: DbOrTx, orgId: string, loadId: string, stopId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: loadStops.id })
    .from(loadStops)
    .where(and(eq(loadStops.organizationId, orgId), eq(loadStops.loadId, loadId), eq(loadStops.id, stopId)));
  return !!row;
}

/** The stored type of each of the organization's images named (the pages must be JPEG or PNG). */
export async function imageTypes(db: DbOrTx, orgId: string, imageIds: readonly string[]): Promise<Map<string, string>> {
  if (imageIds.length === 0) return new Map();
  const rows = await db
    .select({ id: images.id, contentType: images.contentType })
    .from(images)
    .where(and(eq(images.organizationId, orgId), inArray(images.id, [...imageIds])));
  return new Map(rows.map((r) => [r.id, r.contentType]));
}

/**
 * Inserts a document and its pages in order. With a key already stored on the load (the same
 * resend committed meanwhile) nothing is inserted: undefined.
 */
export async function insertDocument(
  db: DbOrTx,
  row: {
    orgId: string;
    loadId: string;
    stopId: string | null;
    type: LoadDocumentType;
    imageIds: readonly string[];
    uploadedBy: string | null;
    clientId: string | null;
  },
): Promise<DocumentRow | undefined> {
  const [doc] = await db
    .insert(loadDocuments)
    .values({
      organizationId: row.orgId,
      loadId: row.loadId,
      stopId: row.stopId,
      kind: row.type,
      imageId: row.imageIds[0]!,
      pageCount: row.imageIds.length,
      clientId: row.clientId,
      uploadedBy: row.uploadedBy,
    })
    .onConflictDoNothing()
    .returning();
  if (!doc) return undefined;
  await db.insert(loadDocumentPages).values(row.imageIds.map((imageId, seq) => ({ organizationId: row.orgId, documentId: doc.id, seq, imageId })));
  return doc;
}

/** Deletes a document (its pages go with it, by their key); its images stay the load's. */
export async function deleteDocumentRow(db: DbOrTx, orgId: string, documentId: string): Promise<void> {
  await db.delete(loadDocuments).where(and(eq(loadDocuments.organizationId, orgId), eq(loadDocuments.id, documentId)));
}

/** Which of these customers require a proof of delivery (the loads' answers say so to the driver). */
export async function customersRequiringPod(db: DbOrTx, orgIds: readonly string[], customerIds: readonly string[]): Promise<Set<string>> {
  if (customerIds.length === 0) return new Set();
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(inArray(customers.organizationId, [...orgIds]), inArray(customers.id, [...customerIds]), eq(customers.requiresPod, true)));
  return new Set(rows.map((r) => r.id));
}

/** Whether the stop has a document of this type (a delivery's proof of delivery). */
export async function stopHasDocument(db: DbOrTx, orgId: string, loadId: string, stopId: string, type: LoadDocumentType): Promise<boolean> {
  const [row] = await db
    .select({ id: loadDocuments.id })
    .from(loadDocuments)
    .where(and(eq(loadDocuments.organizationId, orgId), eq(loadDocuments.loadId, loadId), eq(loadDocuments.stopId, stopId), eq(loadDocuments.kind, type)))
    .limit(1);
  return !!row;
}

export interface PageRow {
  documentId: string;
  type: LoadDocumentType;
  stopId: string | null;
  seq: number;
  mime: string;
  bytes: Buffer;
}

/**
 * The pages of a load's documents with their images, documents oldest first and each one's pages in
 * the order taken; only `types` when given, only `documentId` when given. The images are read apart:
 * on Citus they stay on the coordinator (db:distribute), the documents on the organization's shard.
 */
export async function pageRows(
  db: DbOrTx,
  orgId: string,
  loadId: string,
  only: { types?: readonly LoadDocumentType[]; documentId?: string } = {},
): Promise<PageRow[]> {
  if (only.types && only.types.length === 0) return [];
  const pages = await db
    .select({
      documentId: loadDocuments.id,
      type: loadDocuments.kind,
      stopId: loadDocuments.stopId,
      seq: loadDocumentPages.seq,
      imageId: loadDocumentPages.imageId,
    })
    .from(loadDocuments)
    .innerJoin(loadDocumentPages, and(eq(loadDocumentPages.organizationId, loadDocuments.organizationId), eq(loadDocumentPages.documentId, loadDocuments.id)))
    .where(
      and(
        eq(loadDocuments.organizationId, orgId),
        eq(loadDocuments.loadId, loadId),
        only.types ? inArray(loadDocuments.kind, [...only.types]) : undefined,
        only.documentId ? eq(loadDocuments.id, only.documentId) : undefined,
      ),
    )
    .orderBy(asc(loadDocuments.createdAt), asc(loadDocuments.id), asc(loadDocumentPages.seq));
  if (pages.length === 0) return [];
  const data = await db
    .select({ id: images.id, mime: images.contentType, bytes: images.data })
    .from(images)
    .where(and(eq(images.organizationId, orgId), inArray(images.id, [...new Set(pages.map((p) => p.imageId))])));
  const byId = new Map(data.map((i) => [i.id, i]));
  return pages.flatMap(({ imageId, ...p }) => {
    const image = byId.get(imageId);
    return image ? [{ ...p, mime: image.mime, bytes: image.bytes }] : [];
  });
}
