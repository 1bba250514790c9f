import {
  COMPLIANCE_EXPIRING_DAYS,
  COMPLIANCE_KIND_LABELS,
  DRIVER_RENEWABLE_KINDS,
  LICENSE_CLASSES,
  calendarDayIn,
  complianceChecklist,
  complianceFieldProblems,
  complianceStatus,
  driverWarnings,
  kindsOfSubject,
  type AssetCompliance,
  type ComplianceChecklistRow,
  type ComplianceItem,
  type ComplianceItemDefect,
  type Defect,
  type ComplianceItemCreate,
  type ComplianceItemUpdate,
  type DriverQualification,
} from '@fleet/api-contract';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { conflict, invalidField, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { Actor, AuthContext, ReadScope, Scope } from '../auth/index.ts';
import type { DriverLicence } from '../drivers/index.ts';
import { attachImages, storeImage, uploaderOf } from '../images/index.ts';
import { createInspectionItemDefect, defectsOfComplianceItems, getDefect } from '../maintenance/index.ts';
import { documentPdf, pdfPagesOf, type DocumentPart } from './compliance-pdf.ts';
import * as repo from './compliance.repository.ts';
import type { ItemRow, SubjectRow } from './compliance.repository.ts';

// Drivers' qualification files and units' papers (issue 71, decision 0300). The office
// (COMPLIANCE_UPDATE) records papers that count at once; a driver renews their own medical
// certificate or licence from the phone (their driver permission HOS_SELF_WRITE), which waits for
// the office to approve or reject it. The approved CDL and the driver's licence columns are one
// fact: writing the one writes the other in the same transaction. Every change is in the activity log.

/** What a status is computed against: the organization's today and its expiring window. */
export interface ComplianceClock {
  today: string;
  expiringDays: number;
  organizationName: string;
}

/** Today in the organization's zone and its `complianceExpiringDays` (404 for an unknown organization). */
export async function clockOf(db: DbOrTx, orgId: string, now: number = Date.now()): Promise<ComplianceClock> {
  const facts = await repo.organizationFacts(db, orgId);
  if (!facts) throw notFound('Organization');
  const days = facts.settings.complianceExpiringDays;
  return {
    today: calendarDayIn(now, facts.timeZone),
    expiringDays: typeof days === 'number' && days >= COMPLIANCE_EXPIRING_DAYS.min ? days : COMPLIANCE_EXPIRING_DAYS.default,
    organizationName: facts.name,
  };
}

const day = (d: string | null) => d;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An item as the contract reads it, with its status on the clock's today. */
export function presentItem(
  row: ItemRow,
  subject: SubjectRow,
  names: ReadonlyMap<string, string>,
  clock: ComplianceClock,
  defects: readonly ComplianceItemDefect[] = [],
): ComplianceItem {
  const st = complianceStatus({ kind: row.kind, issuedOn: row.issuedOn, expiresOn: row.expiresOn, result: row.result }, clock.today, clock.expiringDays);
  return {
    id: row.id,
    subject: { type: subject.type, id: subject.id, name: subject.name },
    kind: row.kind,
    approval: row.approval,
    number: row.number,
    state: row.state,
    class: row.class,
    endorsements: row.endorsements,
    restrictions: row.restrictions,
    title: row.title,
    issuer: row.issuer,
    examinerRegistryNumber: row.examinerRegistryNumber,
    inspector: row.inspector,
    result: row.result,
    failedItems: row.failedItems,
    defects: [...defects],
    issuedOn: day(row.issuedOn),
    expiresOn: day(row.expiresOn),
    notes: row.notes,
    submittedBy: row.submittedBy,
    submittedByName: row.submittedBy ? (names.get(row.submittedBy) ?? null) : null,
    decidedBy: row.decidedBy,
    decidedByName: row.decidedBy ? (names.get(row.decidedBy) ?? null) : null,
    decidedAt: iso(row.decidedAt),
    rejectReason: row.rejectReason,
    status: st.status,
    dueDate: st.dueDate,
    daysLeft: st.daysLeft,
    pageCount: row.pageCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A subject's items (all of them, newest first) and checklist on the clock's today. */
async function fileOf(db: DbOrTx, orgId: string, subject: SubjectRow, clock: ComplianceClock) {
  const rows = await repo.itemsOfSubjects(db, orgId, subject.type === 'DRIVER' ? { driverIds: [subject.id] } : { assetIds: [subject.id] });
  const names = await repo.userNames(
    db,
    rows.flatMap((r) => [r.submittedBy, r.decidedBy]),
  );
  const defects = await defectsOf(db, orgId, rows);
  const items = rows.map((r) => presentItem(r, subject, names, clock, defects.get(r.id)));
  const checklist: ComplianceChecklistRow[] = complianceChecklist(subject.type, items, clock.today, clock.expiringDays);
  return { items, checklist };
}

/** Whether the caller is the office (COMPLIANCE_LIST) or only a driver reading their own file. */
async function ownDriverId(s: ReadScope, caller: AuthContext): Promise<string | undefined> {
  return repo.driverIdOfUser(s.db, s.orgId, caller.token ? null : caller.userId);
}

/** The driver the caller may read: any with COMPLIANCE_LIST, else only their own (404 otherwise, never 403). */
async function driverInReach(s: ReadScope, caller: AuthContext, driverId: string): Promise<SubjectRow> {
  const subject = await repo.driverSubject(s.db, s.orgId, driverId);
  if (!subject) throw notFound('Driver');
  if (caller.permissions.has('COMPLIANCE_LIST')) return subject;
  // A driver reaches their own file only: another driver's is as absent as another organization's.
  if ((await ownDriverId(s, caller)) !== driverId) throw notFound('Driver');
  return subject;
}

/** GET `drivers/{driverId}/qualification`: every paper of the driver and the checklist. */
export async function driverQualification(s: ReadScope, caller: AuthContext, driverId: string): Promise<DriverQualification> {
  const subject = await driverInReach(s, caller, driverId);
  const clock = await clockOf(s.db, s.orgId, s.now);
  const { items, checklist } = await fileOf(s.db, s.orgId, subject, clock);
  return {
    driverId,
    driverName: subject.name,
    today: clock.today,
    expiringDays: clock.expiringDays,
    items,
    checklist,
    warnings: driverWarnings(checklist),
  };
}

async function assetOf(s: ReadScope, assetId: string): Promise<SubjectRow> {
  const subject = await repo.assetSubject(s.db, s.orgId, assetId);
  if (!subject) throw notFound('Vehicle or trailer');
  return subject;
}

/** GET `assets/{assetId}/compliance`. */
export async function assetCompliance(s: ReadScope, assetId: string): Promise<AssetCompliance> {
  const subject = await assetOf(s, assetId);
  const clock = await clockOf(s.db, s.orgId, s.now);
  const { items, checklist } = await fileOf(s.db, s.orgId, subject, clock);
  return {
    assetId,
    assetName: subject.name,
    assetType: subject.type as 'VEHICLE' | 'TRAILER',
    today: clock.today,
    expiringDays: clock.expiringDays,
    items,
    checklist,
  };
}

/** One item presented (after a write). */
async function presentOne(db: DbOrTx, orgId: string, row: ItemRow, now?: number): Promise<ComplianceItem> {
  const subject = row.driverId ? await repo.driverSubject(db, orgId, row.driverId) : await repo.assetSubject(db, orgId, row.assetId!);
  if (!subject) throw notFound('Compliance item');
  const names = await repo.userNames(db, [row.submittedBy, row.decidedBy]);
  const defects = await defectsOf(db, orgId, [row]);
  return presentItem(row, subject, names, await clockOf(db, orgId, now), defects.get(row.id));
}

/** The failed items of these papers' annual inspections made defects (none asked for other papers). */
function defectsOf(db: DbOrTx, orgId: string, rows: readonly ItemRow[]): Promise<Map<string, ComplianceItemDefect[]>> {
  const inspections = rows.filter((r) => r.kind === 'ANNUAL_INSPECTION' && r.failedItems.length > 0).map((r) => r.id);
  return defectsOfComplianceItems(db, orgId, inspections);
}

/**
 * POST `compliance/items/{itemId}/defects`: a failed item of a unit's annual inspection made a defect
 * of the unit (decision 0305), open until a mechanic certifies it, on the maintenance pages like a
 * driver's. 400 compliance.not_failed_item for a paper that is not a failed annual inspection or an
 * item it does not list; 409 compliance.defect_exists the second time.
 */
export async function defectOfFailedItem(s: Scope, itemId: string, body: { failedItem: string; safety: boolean }): Promise<Defect> {
  const defectId = await s.db.transaction(async (tx) => {
    const row = await repo.findItem(tx, s.orgId, itemId, true);
    if (!row) throw notFound('Compliance item');
    if (row.kind !== 'ANNUAL_INSPECTION' || !row.assetId || row.result !== 'FAIL')
      throw invalidField('failedItem', 'Only a failed annual inspection has items to make defects of', 'compliance.not_failed_item');
    if (!row.failedItems.includes(body.failedItem))
      throw invalidField('failedItem', `The inspection lists no failed item "${body.failedItem}"`, 'compliance.not_failed_item');
    const unit = await repo.assetSubject(tx, s.orgId, row.assetId);
    if (!unit) throw notFound('Vehicle or trailer');
    const when = [row.issuedOn && `of ${row.issuedOn}`, row.inspector && `by ${row.inspector}`].filter(Boolean).join(' ');
    return createInspectionItemDefect(tx, s.orgId, s.actor, {
      complianceItemId: row.id,
      assetId: row.assetId,
      unitNumber: unit.name,
      failedItem: body.failedItem,
      note: `Failed at the annual inspection${when ? ` ${when}` : ''} (49 CFR 396.17)`,
      safety: body.safety,
    });
  });
  return getDefect(s, defectId);
}

/**
 * The driver's licence columns from their current approved CDL (the newest by issue date), in the
 * caller's transaction: the two are one fact (decision 0300). Without an approved CDL the columns
 * stay as the driver form left them.
 */
async function syncLicence(tx: Tx, orgId: string, driverId: string): Promise<void> {
  const [cdl] = await repo.itemsOfSubjects(tx, orgId, { driverIds: [driverId] }, { approvedOnly: true, kinds: ['CDL'] });
  if (!cdl) return;
  const stored = await repo.driverLicence(tx, orgId, driverId);
  const cls = cdl.class?.toUpperCase() ?? null;
  await repo.writeDriverLicence(tx, orgId, driverId, {
    number: cdl.number ?? stored?.number ?? null,
    state: cdl.state ?? stored?.state ?? null,
    class: cls && (LICENSE_CLASSES as readonly string[]).includes(cls) ? cls : (stored?.class ?? null),
    expiry: cdl.expiresOn ?? stored?.expiry ?? null,
  });
}

/**
 * The other way (the driver form wrote a licence, in the driver's transaction): the current approved
 * CDL takes the form's number, state, class and expiry (what the form leaves empty, the paper keeps);
 * without one, a form with a number, a state and an expiry records the CDL paper, as the office's.
 * The licence columns are not written back: they are what the form just wrote.
 */
export async function cdlFollowsLicence(tx: DbOrTx, s: { orgId: string; actor: Actor }, driverId: string, l: DriverLicence): Promise<void> {
  const [cdl] = await repo.itemsOfSubjects(tx, s.orgId, { driverIds: [driverId] }, { approvedOnly: true, kinds: ['CDL'] });
  if (cdl) {
    const was = { number: cdl.number, state: cdl.state, class: cdl.class, expiresOn: cdl.expiresOn };
    const now = { number: l.number ?? was.number, state: l.state ?? was.state, class: l.class ?? was.class, expiresOn: l.expiry ?? was.expiresOn };
    if (JSON.stringify(now) === JSON.stringify(was)) return;
    await repo.updateItem(tx, s.orgId, cdl.id, now);
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'UPDATE',
      entityType: 'COMPLIANCE_ITEM',
      entityId: cdl.id,
      before: { kind: 'CDL', ...was },
      after: { kind: 'CDL', ...now },
    });
    return;
  }
  if (!l.number || !l.state || !l.expiry) return;
  const row = await repo.insertItem(tx, {
    organizationId: s.orgId,
    driverId,
    kind: 'CDL',
    approval: 'APPROVED',
    number: l.number,
    state: l.state,
    class: l.class,
    expiresOn: l.expiry,
    submittedBy: s.actor.userId,
    decidedBy: s.actor.userId,
    decidedAt: new Date(),
  });
  await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'CREATE', entityType: 'COMPLIANCE_ITEM', entityId: row.id, after: row });
}

/** A transaction whose licence write may clash with another driver's licence (409 drivers.license_taken). */
async function withLicence<T>(s: Scope, fn: (tx: Tx) => Promise<T>, values: () => Record<string, unknown>): Promise<T> {
  try {
    return await s.db.transaction(fn);
  } catch (err) {
    throw duplicateError(err, values()) ?? err;
  }
}

const JPEG_OR_PNG = (mime: string) => mime === 'image/jpeg' || mime === 'image/png';

/** Attaches uploaded images as the next pages of an item (refused whole when one is not JPEG or PNG). */
async function attachPages(tx: Tx, s: Scope, itemId: string, imageIds: readonly string[]): Promise<void> {
  if (imageIds.length === 0) return;
  await attachImages(tx, s.orgId, uploaderOf(s.actor), imageIds, { type: 'COMPLIANCE_ITEM', id: itemId }, (i) => `imageIds.${i}`, 'Pages');
  const types = await repo.imageTypes(tx, s.orgId, imageIds);
  const bad = imageIds.findIndex((id) => !JPEG_OR_PNG(types.get(id) ?? ''));
  if (bad >= 0) throw invalidField(`imageIds.${bad}`, `Page ${bad + 1} must be a JPEG or PNG photo`, 'compliance.bad_document');
  const seq = await repo.nextPageSeq(tx, s.orgId, itemId);
  await repo.insertPages(
    tx,
    s.orgId,
    itemId,
    imageIds.map((imageId, i) => ({ seq: seq + i, imageId })),
  );
  await repo.recountPages(tx, s.orgId, itemId);
}

const fieldsOf = (b: ComplianceItemCreate | ComplianceItemUpdate) => ({
  number: b.number,
  state: b.state,
  class: b.class,
  endorsements: b.endorsements,
  restrictions: b.restrictions,
  title: b.title,
  issuer: b.issuer,
  examinerRegistryNumber: b.examinerRegistryNumber,
  inspector: b.inspector,
  result: b.result,
  failedItems: b.failedItems,
  issuedOn: b.issuedOn,
  expiresOn: b.expiresOn,
  notes: b.notes,
});

const kindWords = (kind: ItemRow['kind']) => COMPLIANCE_KIND_LABELS[kind].toLowerCase();

/**
 * POST `drivers/{driverId}/qualification/items` and `assets/{assetId}/compliance/items`. The office
 * (COMPLIANCE_UPDATE) records an APPROVED paper; a driver without it submits a renewal of their own
 * medical certificate or licence, PENDING until the office decides. With the phone's
 * Idempotency-Key a resend answers the first submission.
 */
export async function createItem(
  s: Scope,
  caller: AuthContext,
  subjectRef: { driverId: string } | { assetId: string },
  body: ComplianceItemCreate,
  clientId: string | null = null,
): Promise<ComplianceItem> {
  const office = caller.permissions.has('COMPLIANCE_UPDATE');
  let subject: SubjectRow;
  if ('driverId' in subjectRef) {
    subject = office
      ? ((await repo.driverSubject(s.db, s.orgId, subjectRef.driverId)) ?? notFoundOf('Driver'))
      : await driverInReach(s, caller, subjectRef.driverId);
    if (!office && !DRIVER_RENEWABLE_KINDS.some((k) => k === body.kind))
      throw invalidField('kind', 'A driver renews their medical certificate or licence; the office records the other papers', 'compliance.kind_not_renewable');
  } else {
    subject = await assetOf(s, subjectRef.assetId);
  }
  if (!kindsOfSubject(subject.type).includes(body.kind)) {
    const of = subject.type === 'DRIVER' ? 'vehicles and trailers, not of drivers' : "drivers' files, not of vehicles and trailers";
    throw invalidField('kind', `A ${kindWords(body.kind)} is a paper of ${of}`, 'compliance.kind_not_for_subject');
  }
  const approval = office ? 'APPROVED' : 'PENDING';
  const id = await withLicence(
    s,
    async (tx) => {
      if (clientId) {
        const sent = await repo.itemOfKey(tx, s.orgId, clientId);
        if (sent && sent.submittedBy === s.actor.userId) return sent.id;
        if (sent) throw conflict('This upload key was used by someone else: send the paper again with a new key', 'Idempotency-Key of another sender');
      }
      const row = await repo.insertItem(tx, {
        organizationId: s.orgId,
        driverId: subject.type === 'DRIVER' ? subject.id : null,
        assetId: subject.type === 'DRIVER' ? null : subject.id,
        kind: body.kind,
        approval,
        ...fieldsOf(body),
        clientId,
        submittedBy: s.actor.userId,
        decidedBy: office ? s.actor.userId : null,
        decidedAt: office ? new Date(s.now ?? Date.now()) : null,
      });
      await attachPages(tx, s, row.id, body.imageIds);
      if (row.kind === 'CDL' && approval === 'APPROVED') await syncLicence(tx, s.orgId, subject.id);
      await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'CREATE', entityType: 'COMPLIANCE_ITEM', entityId: row.id, after: row });
      return row.id;
    },
    () => ({ licenseNumber: body.number, licenseState: body.state }),
  );
  return presentOne(s.db, s.orgId, (await repo.findItem(s.db, s.orgId, id))!, s.now);
}

function notFoundOf(what: string): never {
  throw notFound(what);
}

/** PATCH `compliance/items/{itemId}`: the fields sent change; the kind's required fields are checked on the result. */
export async function updateItem(s: Scope, itemId: string, patch: ComplianceItemUpdate): Promise<ComplianceItem> {
  const row = await withLicence(
    s,
    async (tx) => {
      const before = await repo.findItem(tx, s.orgId, itemId, true);
      if (!before) throw notFound('Compliance item');
      const changes = Object.fromEntries(Object.entries(fieldsOf(patch)).filter(([, v]) => v !== undefined));
      const merged = { ...before, ...changes };
      const [problem] = complianceFieldProblems(merged);
      if (problem) throw invalidField(problem.path, problem.message);
      const after = await repo.updateItem(tx, s.orgId, itemId, changes);
      if (after.kind === 'CDL' && after.driverId) await syncLicence(tx, s.orgId, after.driverId);
      await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'UPDATE', entityType: 'COMPLIANCE_ITEM', entityId: itemId, before, after });
      return after;
    },
    () => ({ licenseNumber: patch.number, licenseState: patch.state }),
  );
  return presentOne(s.db, s.orgId, row, s.now);
}

/** DELETE `compliance/items/{itemId}`: the paper and its pages' images. */
export async function deleteItem(s: Scope, itemId: string): Promise<void> {
  await withLicence(
    s,
    async (tx) => {
      const before = await repo.findItem(tx, s.orgId, itemId, true);
      if (!before) throw notFound('Compliance item');
      const imageIds = await repo.pageImageIds(tx, s.orgId, itemId);
      await repo.deleteItem(tx, s.orgId, itemId);
      await repo.deleteImages(tx, s.orgId, imageIds);
      if (before.kind === 'CDL' && before.driverId && before.approval === 'APPROVED') await syncLicence(tx, s.orgId, before.driverId);
      await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'DELETE', entityType: 'COMPLIANCE_ITEM', entityId: itemId, before });
    },
    () => ({}),
  );
}

/** POST `compliance/items/{itemId}/approve` and `/reject`: the office decides a driver's pending renewal (409 when it is not pending). */
export async function decideItem(s: Scope, itemId: string, decision: { approve: true } | { approve: false; reason: string }): Promise<ComplianceItem> {
  const row = await withLicence(
    s,
    async (tx) => {
      const before = await repo.findItem(tx, s.orgId, itemId, true);
      if (!before) throw notFound('Compliance item');
      if (before.approval !== 'PENDING')
        throw conflict(
          `This ${kindWords(before.kind)} is not waiting for approval: it was ${before.approval.toLowerCase()} already`,
          undefined,
          'compliance.not_pending',
        );
      const after = await repo.updateItem(tx, s.orgId, itemId, {
        approval: decision.approve ? 'APPROVED' : 'REJECTED',
        decidedBy: s.actor.userId,
        decidedAt: new Date(s.now ?? Date.now()),
        rejectReason: decision.approve ? null : decision.reason,
      });
      if (after.kind === 'CDL' && after.driverId && decision.approve) await syncLicence(tx, s.orgId, after.driverId);
      await recordActivity(tx, {
        orgId: s.orgId,
        actor: s.actor,
        action: decision.approve ? 'APPROVE_COMPLIANCE_ITEM' : 'REJECT_COMPLIANCE_ITEM',
        entityType: 'COMPLIANCE_ITEM',
        entityId: itemId,
        before: { kind: before.kind, approval: before.approval },
        after: { kind: after.kind, approval: after.approval, rejectReason: after.rejectReason },
      });
      return after;
    },
    () => ({}),
  );
  return presentOne(s.db, s.orgId, row, s.now);
}

/** The item the caller may read: any with COMPLIANCE_LIST, else only one of their own driver record (404 otherwise). */
async function itemInReach(s: ReadScope, caller: AuthContext, itemId: string): Promise<ItemRow> {
  const row = await repo.findItem(s.db, s.orgId, itemId);
  if (!row) throw notFound('Compliance item');
  if (caller.permissions.has('COMPLIANCE_LIST')) return row;
  if (!row.driverId || (await ownDriverId(s, caller)) !== row.driverId) throw notFound('Compliance item');
  return row;
}

/** Whether the caller may read an item (who reads its page images by id, decision 0235). */
export async function complianceItemInReach(db: DbOrTx, orgId: string, caller: AuthContext, itemId: string): Promise<boolean> {
  try {
    await itemInReach({ db, orgId }, caller, itemId);
    return true;
  } catch {
    return false;
  }
}

/** Pages sent to an item: uploaded images by id, or the files themselves (images, or one PDF). */
export type NewPages = { imageIds: string[] } | { files: Buffer[] };

/**
 * POST `compliance/items/{itemId}/pages`: the office adds pages to any paper, a driver to their own
 * pending renewal. Files are JPEG or PNG photos, or one PDF file alone (400 `compliance.bad_document`).
 */
export async function addPages(s: Scope, caller: AuthContext, itemId: string, pages: NewPages): Promise<ComplianceItem> {
  const row = await itemInReach(s, caller, itemId);
  if (!caller.permissions.has('COMPLIANCE_UPDATE') && row.approval !== 'PENDING')
    throw conflict('This paper was decided by the office already: send a new renewal instead', undefined, 'compliance.not_pending');
  let pdf: { bytes: Buffer; pages: number } | null = null;
  if ('files' in pages) {
    if (pages.files.length === 0) throw invalidField('pages', 'Send at least one page', 'compliance.bad_document');
    const isPdf = pages.files.map((f) => f.subarray(0, 5).toString('latin1') === '%PDF-');
    if (isPdf.some(Boolean)) {
      if (pages.files.length > 1) throw invalidField('pages', 'Send one PDF file alone, or photos', 'compliance.bad_document');
      const n = await pdfPagesOf(pages.files[0]!);
      if (n === null) throw invalidField('pages.0', 'The PDF file cannot be read', 'compliance.bad_document');
      pdf = { bytes: pages.files[0]!, pages: n };
    }
  }
  await s.db.transaction(async (tx) => {
    const locked = await repo.findItem(tx, s.orgId, itemId, true);
    if (!locked) throw notFound('Compliance item');
    if (pdf) {
      await repo.insertPages(tx, s.orgId, itemId, [{ seq: await repo.nextPageSeq(tx, s.orgId, itemId), pdf: pdf.bytes, pdfPages: pdf.pages }]);
      await repo.recountPages(tx, s.orgId, itemId);
    } else if ('files' in pages) {
      const ids: string[] = [];
      for (const [i, f] of pages.files.entries()) {
        if (!(f[0] === 0xff && f[1] === 0xd8 && f[2] === 0xff) && !f.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
          throw invalidField(`pages.${i}`, `Page ${i + 1} must be a JPEG or PNG photo, or a PDF file`, 'compliance.bad_document');
        ids.push(await storeImage(tx, s.orgId, f, null, { uploader: uploaderOf(s.actor), owner: { type: 'COMPLIANCE_ITEM', id: itemId } }));
      }
      const seq = await repo.nextPageSeq(tx, s.orgId, itemId);
      await repo.insertPages(
        tx,
        s.orgId,
        itemId,
        ids.map((imageId, i) => ({ seq: seq + i, imageId })),
      );
      await repo.recountPages(tx, s.orgId, itemId);
    } else {
      await attachPages(tx, s, itemId, pages.imageIds);
    }
    const after = await repo.updateItem(tx, s.orgId, itemId, {});
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'UPDATE',
      entityType: 'COMPLIANCE_ITEM',
      entityId: itemId,
      before: { kind: locked.kind, pageCount: locked.pageCount },
      after: { kind: after.kind, pageCount: after.pageCount },
    });
  });
  return presentOne(s.db, s.orgId, (await repo.findItem(s.db, s.orgId, itemId))!, s.now);
}

/** The parts of items' documents, by item, in page order. */
export async function documentParts(db: DbOrTx, orgId: string, itemIds: readonly string[]): Promise<Map<string, DocumentPart[]>> {
  const out = new Map<string, DocumentPart[]>();
  for (const p of await repo.pagesOfItems(db, orgId, itemIds)) {
    const list = out.get(p.itemId) ?? [];
    list.push(p.pdf ? { pdf: p.pdf } : { image: p.image! });
    out.set(p.itemId, list);
  }
  return out;
}

const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'paper';

/** GET `compliance/items/{itemId}/pdf`: the paper's document (the office, or the driver's own). */
export async function itemPdf(s: ReadScope, caller: AuthContext, itemId: string): Promise<{ fileName: string; pdf: Buffer }> {
  const row = await itemInReach(s, caller, itemId);
  const parts = (await documentParts(s.db, s.orgId, [itemId])).get(itemId) ?? [];
  const title = COMPLIANCE_KIND_LABELS[row.kind] + (row.title ? `: ${row.title}` : '');
  return { fileName: `${fileSafe(title)}.pdf`, pdf: await documentPdf(title, parts) };
}
