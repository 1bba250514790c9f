import { LOAD_DOCUMENT_LABELS, type LoadDocument, type LoadDocumentType } from '@fleet/api-contract';
import type { Tx } from '../../db/client.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import { attachImages, storeImage, uploaderOf } from '../images/index.ts';
import type { AuthContext, Scope } from '../auth/index.ts';
import { inReach, lockedInReach, reachOf } from './load-access.ts';
import { PDF_IMAGE_TYPES } from '../../lib/pdf-image-pages.ts';
import { pagesPdf } from './document-pdf.ts';
import * as repo from './load-documents.repository.ts';
import { findLoadRow, presentDocument } from './load-present.ts';

// A load's papers (issue 33; pages and types since issue 70, decision 0287): the driver of the load
// (LOAD_SELF_WRITE) or the office (LOAD_UPDATE) adds a bill of lading, proof of delivery, lumper
// receipt, scale ticket or other paper of one page or several, photographed in order; each reads
// back as one PDF. The photos are the load's (issue 66): the caller's own uploads, or files sent
// with the document and stored for it. A resend with the phone's Idempotency-Key answers the first.

/** The pages of a new document: images uploaded before (by id, in order), or the files themselves. */
export type NewPages = { imageIds: string[]; field: 'imageIds' | 'imageId' } | { files: Buffer[] };

export interface NewDocument {
  type: LoadDocumentType;
  stopId: string | null;
  pages: NewPages;
}

const JPEG_OR_PNG = (b: Buffer) =>
  (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) || b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

/** The pages' images, attached to the load (refused whole when one is not JPEG or PNG: a PDF page holds those). */
async function pageImages(tx: Tx, s: Scope, loadId: string, pages: NewPages): Promise<string[]> {
  const owner = { type: 'LOAD', id: loadId } as const;
  if ('files' in pages) {
    const bad = pages.files.findIndex((f) => !JPEG_OR_PNG(f));
    if (bad >= 0) throw invalidField(`pages.${bad}`, `Page ${bad + 1} must be a JPEG or PNG photo`);
    const ids: string[] = [];
    for (const f of pages.files) ids.push(await storeImage(tx, s.orgId, f, null, { uploader: uploaderOf(s.actor), owner }));
    return ids;
  }
  const { imageIds, field } = pages;
  const one = field === 'imageId';
  await attachImages(tx, s.orgId, uploaderOf(s.actor), imageIds, owner, one ? 'imageId' : (i) => `imageIds.${i}`, one ? 'Photo' : 'Pages', one);
  const types = await repo.imageTypes(tx, s.orgId, imageIds);
  const bad = imageIds.findIndex((id) => !PDF_IMAGE_TYPES.includes(types.get(id) ?? ''));
  if (bad >= 0)
    throw invalidField(one ? 'imageId' : `imageIds.${bad}`, one ? 'Photo must be a JPEG or PNG photo' : `Page ${bad + 1} must be a JPEG or PNG photo`);
  return imageIds;
}

export async function addDocument(s: Scope, ctx: AuthContext, loadId: string, input: NewDocument, clientId: string | null = null): Promise<LoadDocument> {
  const reach = await reachOf(s.db, s.orgId, ctx, 'LOAD_UPDATE');
  const id = await s.db.transaction(async (tx) => {
    await lockedInReach(tx, s, reach, loadId);
    // The phone's resend (the answer was lost): the document the first send stored, nothing more.
    const sent = clientId ? await repo.documentOfKey(tx, s.orgId, loadId, clientId) : undefined;
    if (sent) return sent.id;
    if (input.stopId && !(await repo.isStopOfLoad(tx, s.orgId, loadId, input.stopId))) throw invalidField('stopId', 'Stop must be a stop of this load');
    const imageIds = await pageImages(tx, s, loadId, input.pages);
    const doc = await repo.insertDocument(tx, {
      orgId: s.orgId,
      loadId,
      stopId: input.stopId,
      type: input.type,
      imageIds,
      // An API token adds it for the organization, never as the person who made the token.
      uploadedBy: s.actor.token ? null : s.actor.userId,
      clientId,
    });
    if (!doc) {
      // The same key's first send committed meanwhile (the load's lock makes this rare).
      const first = clientId ? await repo.documentOfKey(tx, s.orgId, loadId, clientId) : undefined;
      if (!first) throw new Error('load document insert returned nothing');
      return first.id;
    }
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'ADD_LOAD_DOCUMENT',
      entityType: 'LOAD',
      entityId: loadId,
      after: { kind: doc.kind, stopId: doc.stopId, pageCount: doc.pageCount, imageIds },
    });
    return doc.id;
  });
  return (await listDocuments(s, ctx, loadId)).find((d) => d.id === id)!;
}

/** The load, when the caller may read it (the office's LOAD_LIST, or a driver of it); 404 otherwise. */
async function readable(s: Scope, ctx: AuthContext, loadId: string) {
  const reach = await reachOf(s.db, s.orgId, ctx, 'LOAD_LIST');
  const load = await findLoadRow(s.db, s.orgId, loadId);
  if (!load || !inReach(reach, load)) throw notFound('Load');
  return load;
}

export async function listDocuments(s: Scope, ctx: AuthContext, loadId: string): Promise<LoadDocument[]> {
  await readable(s, ctx, loadId);
  return (await repo.documentsOfLoads(s.db, [s.orgId], [loadId])).map(presentDocument);
}

/** A document's PDF: its pages in the order taken, each on a Letter sheet. */
export async function documentPdf(s: Scope, ctx: AuthContext, loadId: string, documentId: string): Promise<{ fileName: string; pdf: Buffer }> {
  const load = await readable(s, ctx, loadId);
  const doc = await repo.documentOfLoad(s.db, s.orgId, loadId, documentId);
  if (!doc) throw notFound('Document');
  return loadDocumentPdf(s.db, s.orgId, load.number, doc);
}

/** The PDF of one of the load's documents (the tracking link's proof of delivery reads it too). */
export async function loadDocumentPdf(
  db: Scope['db'],
  orgId: string,
  loadNumber: string,
  doc: Pick<repo.DocumentRow, 'id' | 'loadId' | 'kind'>,
): Promise<{ fileName: string; pdf: Buffer }> {
  const pages = await repo.pageRows(db, orgId, doc.loadId, { documentId: doc.id });
  const title = `${LOAD_DOCUMENT_LABELS[doc.kind]}, load ${loadNumber}`;
  return { fileName: `${loadNumber}-${doc.kind}-${doc.id.slice(0, 8)}.pdf`, pdf: await pagesPdf(title, pages) };
}

/** The office removes any document; a driver only those they added to their own load. */
export async function deleteDocument(s: Scope, ctx: AuthContext, loadId: string, documentId: string): Promise<void> {
  const reach = await reachOf(s.db, s.orgId, ctx, 'LOAD_UPDATE');
  await s.db.transaction(async (tx) => {
    await lockedInReach(tx, s, reach, loadId);
    const doc = await repo.documentOfLoad(tx, s.orgId, loadId, documentId);
    if (!doc || (!reach.all && doc.uploadedBy !== s.actor.userId)) throw notFound('Document');
    await repo.deleteDocumentRow(tx, s.orgId, documentId);
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'DELETE_LOAD_DOCUMENT', entityType: 'LOAD', entityId: loadId, before: doc });
  });
}
