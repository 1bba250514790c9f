import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ComplianceItemDefect, Defect, Page, defectCertificationSchema, defectListQuery } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { dvirs, vehicleDefects } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { orderBy, toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import { emitWebhookEvent } from '../webhooks/index.ts';
import { assertGroup, assetInGroup } from '../groups/index.ts';
import type { Actor, ReadScope, Scope } from '../auth/index.ts';
import { attachImages, imageLink, optionalImageLink, uploaderOf } from '../images/index.ts';

// Defects (issue 31, decision 0158): a failed item of a report, open until a mechanic certifies it
// repaired or that repair is unnecessary (49 CFR 396.11(a)(3)). Certifying is the only change a
// defect sees besides the work order it is put on.

type DefectRow = typeof vehicleDefects.$inferSelect;
type Reporter = { driverId: string | null; driverName: string | null };
type ListQuery = z.output<typeof defectListQuery>;
type Certification = z.output<typeof defectCertificationSchema>;

export function presentDefect(d: DefectRow, reporter: Reporter | null): Defect {
  return {
    id: d.id,
    dvirId: d.dvirId,
    engineFaultId: d.engineFaultId,
    complianceItemId: d.complianceItemId,
    asset: { id: d.assetId, unitNumber: d.unitNumber },
    item: d.item,
    label: d.label,
    note: d.note,
    imageIds: d.imageIds,
    imageUrls: d.imageIds.map((id) => imageLink(id)),
    safety: d.safety,
    status: d.status,
    reportedAt: d.createdAt.toISOString(),
    reportedBy: reporter?.driverId ? { id: reporter.driverId, name: reporter.driverName ?? '' } : null,
    workOrderId: d.workOrderId,
    certifiedAt: d.certifiedAt?.toISOString() ?? null,
    certifiedBy: d.certifiedByName ? { name: d.certifiedByName, imageId: d.certifiedByImageId, imageUrl: optionalImageLink(d.certifiedByImageId) } : null,
    certification: d.certification,
  };
}

const reporter = { driverId: dvirs.driverId, driverName: dvirs.driverName };

/** The defects of the given reports, by report, in the order the items were reported. */
export async function defectsOfReports(db: DbOrTx, orgId: string, dvirIds: string[]): Promise<Map<string, Defect[]>> {
  const out = new Map<string, Defect[]>();
  if (dvirIds.length === 0) return out;
  const rows = await db
    .select({ d: vehicleDefects, r: reporter })
    .from(vehicleDefects)
    .innerJoin(dvirs, and(eq(dvirs.id, vehicleDefects.dvirId), eq(dvirs.organizationId, vehicleDefects.organizationId)))
    .where(and(eq(vehicleDefects.organizationId, orgId), inArray(vehicleDefects.dvirId, dvirIds)))
    .orderBy(vehicleDefects.createdAt, vehicleDefects.id);
  for (const { d, r } of rows) out.set(d.dvirId!, [...(out.get(d.dvirId!) ?? []), presentDefect(d, r)]);
  return out;
}

const SORTS = { reportedAt: vehicleDefects.createdAt, unitNumber: vehicleDefects.unitNumber, status: vehicleDefects.status };

/** The organization's defects, newest first, by unit, status and whether they affect safe operation. */
export async function listDefects({ db, orgId }: ReadScope, q: ListQuery): Promise<Page<Defect>> {
  if (q.groupId) await assertGroup(db, orgId, q.groupId);
  const filters: Array<SQL | undefined> = [
    eq(vehicleDefects.organizationId, orgId),
    q.assetId ? eq(vehicleDefects.assetId, q.assetId) : undefined,
    q.status ? eq(vehicleDefects.status, q.status) : undefined,
    q.safety === undefined ? undefined : eq(vehicleDefects.safety, q.safety),
    q.groupId ? assetInGroup(orgId, q.groupId, vehicleDefects.assetId) : undefined,
  ];
  const where = and(...filters);
  const [total] = await db.select({ n: countAll }).from(vehicleDefects).where(where);
  const rows = await db
    .select({ d: vehicleDefects, r: reporter })
    .from(vehicleDefects)
    // A defect made of an engine fault has no report (decision 0191).
    .leftJoin(dvirs, and(eq(dvirs.id, vehicleDefects.dvirId), eq(dvirs.organizationId, vehicleDefects.organizationId)))
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, desc(vehicleDefects.createdAt), desc(vehicleDefects.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  return toPage(
    rows.map(({ d, r }) => presentDefect(d, r)),
    total?.n ?? 0,
    q,
  );
}

export async function getDefect({ db, orgId }: ReadScope, defectId: string): Promise<Defect> {
  const [row] = await db
    .select({ d: vehicleDefects, r: reporter })
    .from(vehicleDefects)
    .leftJoin(dvirs, and(eq(dvirs.id, vehicleDefects.dvirId), eq(dvirs.organizationId, vehicleDefects.organizationId)))
    .where(and(eq(vehicleDefects.id, defectId), eq(vehicleDefects.organizationId, orgId)));
  if (!row) throw notFound('Defect');
  return presentDefect(row.d, row.r);
}

/**
 * The mechanic's certification (396.11(a)(3)): the defect was repaired, or repair is unnecessary,
 * signed and dated now. Only an open defect can be certified; a second certification is a 409.
 */
export async function certifyDefect({ db, orgId, actor, now }: Scope, defectId: string, input: Certification): Promise<Defect> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(vehicleDefects)
      .where(and(eq(vehicleDefects.id, defectId), eq(vehicleDefects.organizationId, orgId)))
      .for('update');
    if (!before) throw notFound('Defect');
    await attachImages(tx, orgId, uploaderOf(actor), [input.signature.imageId], { type: 'DEFECT', id: defectId }, 'signature.imageId', 'Drawn signature', true);
    if (before.status !== 'OPEN') {
      const was = before.status === 'REPAIRED' ? 'repaired' : 'not needing repair';
      throw conflict(
        `This defect was already certified as ${was}${before.certifiedAt ? ` on ${before.certifiedAt.toISOString().slice(0, 10)}` : ''}`,
        `defect status is ${before.status}, not OPEN`,
      );
    }
    const [after] = await tx
      .update(vehicleDefects)
      .set({
        status: input.status,
        certification: input.certification ?? null,
        certifiedAt: new Date(now ?? Date.now()),
        certifiedByName: input.signature.name,
        certifiedByImageId: input.signature.imageId ?? null,
        certifiedByUserId: actor.userId,
      })
      .where(eq(vehicleDefects.id, defectId))
      .returning();
    if (!after) throw new Error('defect update returned nothing');
    await emitWebhookEvent(tx, {
      orgId,
      type: 'defect.repaired',
      at: after.certifiedAt!,
      data: {
        id: after.id,
        dvirId: after.dvirId,
        assetId: after.assetId,
        unitNumber: after.unitNumber,
        label: after.label,
        status: after.status,
        certifiedAt: after.certifiedAt!.toISOString(),
      },
    });
    const facts = (d: DefectRow) => ({ defectId, dvirId: d.dvirId, unitNumber: d.unitNumber, label: d.label, status: d.status });
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'CERTIFY_DEFECT',
      entityType: 'ASSET',
      entityId: before.assetId,
      before: facts(before),
      after: { ...facts(after), certifiedByName: after.certifiedByName, certification: after.certification },
    });
  });
  return getDefect({ db, orgId }, defectId);
}

/** Open defects of the organization (or one group's units): how many, and how many affect safe operation (the dashboard's counter). */
export async function countOpenDefects(db: DbOrTx, orgId: string, groupId?: string): Promise<{ open: number; safety: number }> {
  const [r] = await db
    .select({ open: countAll, safety: sql<number>`count(*) filter (where ${vehicleDefects.safety})::int` })
    .from(vehicleDefects)
    .where(
      and(
        eq(vehicleDefects.organizationId, orgId),
        eq(vehicleDefects.status, 'OPEN'),
        groupId ? assetInGroup(orgId, groupId, vehicleDefects.assetId) : undefined,
      ),
    );
  return { open: r?.open ?? 0, safety: Number(r?.safety ?? 0) };
}

/** The open safety defects of one unit, oldest first: it may not run until they are repaired (the driver's warning, other modules). */
export async function openSafetyDefectsOf(
  db: DbOrTx,
  orgId: string,
  assetId: string,
): Promise<Array<{ id: string; label: string; unitNumber: string; reportedAt: string }>> {
  const rows = await db
    .select({ id: vehicleDefects.id, label: vehicleDefects.label, unitNumber: vehicleDefects.unitNumber, at: vehicleDefects.createdAt })
    .from(vehicleDefects)
    .where(
      and(eq(vehicleDefects.organizationId, orgId), eq(vehicleDefects.assetId, assetId), eq(vehicleDefects.status, 'OPEN'), eq(vehicleDefects.safety, true)),
    )
    .orderBy(vehicleDefects.createdAt, vehicleDefects.id);
  return rows.map((r) => ({ id: r.id, label: r.label, unitNumber: r.unitNumber, reportedAt: r.at.toISOString() }));
}

/** What a defect made of an engine fault says (decision 0191). */
export interface EngineFaultDefect {
  faultId: string;
  assetId: string;
  unitNumber: string;
  /** "SPN 110 FMI 0" or "P0301". */
  code: string;
  /** "Engine fault SPN 110 FMI 0". */
  label: string;
  /** The standard's words for the code, and when it was first seen. */
  note: string | null;
  safety: boolean;
  /** True when the organization's grounding codes made it, not a person. */
  automatic: boolean;
}

/** A defect made of something other than a driver's report: the fault or the inspection paper it came of. */
interface SourcedDefect {
  engineFaultId: string | null;
  complianceItemId: string | null;
  assetId: string;
  unitNumber: string;
  item: string;
  label: string;
  note: string | null;
  safety: boolean;
}

/**
 * Inserts a defect without an inspection report and announces it (`dvir.defect_opened`), in the
 * caller's transaction. Null when its source's unique index already holds one (the caller's 409).
 */
async function insertSourcedDefect(tx: DbOrTx, orgId: string, d: SourcedDefect): Promise<string | null> {
  const [row] = await tx
    .insert(vehicleDefects)
    .values({ organizationId: orgId, dvirId: null, ...d })
    .onConflictDoNothing()
    .returning({ id: vehicleDefects.id, createdAt: vehicleDefects.createdAt });
  if (!row) return null;
  await emitWebhookEvent(tx, {
    orgId,
    type: 'dvir.defect_opened',
    at: row.createdAt,
    data: { id: row.id, dvirId: null, ...d, reportedAt: row.createdAt.toISOString() },
  });
  return row.id;
}

/**
 * A defect of an engine fault, in the caller's transaction (the fault module's, which marks the
 * fault): open until certified like any other, without an inspection report. One per fault (a
 * unique index): a second answers 409.
 */
export async function createEngineFaultDefect(tx: DbOrTx, orgId: string, actor: Actor, f: EngineFaultDefect): Promise<string> {
  const id = await insertSourcedDefect(tx, orgId, {
    engineFaultId: f.faultId,
    complianceItemId: null,
    assetId: f.assetId,
    unitNumber: f.unitNumber,
    item: 'engine_fault',
    label: f.label,
    note: f.note,
    safety: f.safety,
  });
  if (!id) throw conflict('A defect was already made of this engine fault', `engine fault ${f.faultId} already has a defect`);
  await recordActivity(tx, {
    orgId,
    actor,
    action: 'ENGINE_FAULT_DEFECT',
    entityType: 'ASSET',
    entityId: f.assetId,
    after: { defectId: id, engineFaultId: f.faultId, code: f.code, unitNumber: f.unitNumber, label: f.label, safety: f.safety, automatic: f.automatic },
  });
  return id;
}

/** What a defect made of a failed annual inspection item says (issue 71, decision 0305). */
export interface InspectionItemDefect {
  complianceItemId: string;
  assetId: string;
  unitNumber: string;
  /** The failed item as the inspection report words it ("Brakes: pushrod travel over limit"). */
  failedItem: string;
  /** Which inspection: its date and inspector. */
  note: string | null;
  safety: boolean;
}

/**
 * A defect of a failed item of an annual inspection (49 CFR 396.17), in the caller's transaction:
 * open until certified like any other, without a driver's report. One per failed item of a report
 * (a unique index): a second answers 409 compliance.defect_exists. Returns the defect's id.
 */
export async function createInspectionItemDefect(tx: DbOrTx, orgId: string, actor: Actor, f: InspectionItemDefect): Promise<string> {
  const id = await insertSourcedDefect(tx, orgId, {
    engineFaultId: null,
    complianceItemId: f.complianceItemId,
    assetId: f.assetId,
    unitNumber: f.unitNumber,
    item: 'annual_inspection',
    label: f.failedItem,
    note: f.note,
    safety: f.safety,
  });
  if (!id) throw conflict('This failed item is a defect already', `failedItem: ${f.failedItem} is a defect already`, 'compliance.defect_exists');
  await recordActivity(tx, {
    orgId,
    actor,
    action: 'INSPECTION_ITEM_DEFECT',
    entityType: 'ASSET',
    entityId: f.assetId,
    after: { defectId: id, complianceItemId: f.complianceItemId, unitNumber: f.unitNumber, label: f.failedItem, safety: f.safety },
  });
  return id;
}

/** The failed items of these annual inspections made defects, by inspection, in the order made. */
export async function defectsOfComplianceItems(db: DbOrTx, orgId: string, itemIds: readonly string[]): Promise<Map<string, ComplianceItemDefect[]>> {
  const out = new Map<string, ComplianceItemDefect[]>();
  if (itemIds.length === 0) return out;
  const rows = await db
    .select({ itemId: vehicleDefects.complianceItemId, label: vehicleDefects.label, id: vehicleDefects.id, status: vehicleDefects.status })
    .from(vehicleDefects)
    .where(and(eq(vehicleDefects.organizationId, orgId), inArray(vehicleDefects.complianceItemId, [...itemIds])))
    .orderBy(vehicleDefects.createdAt, vehicleDefects.id);
  for (const r of rows) out.set(r.itemId!, [...(out.get(r.itemId!) ?? []), { failedItem: r.label, defectId: r.id, status: r.status }]);
  return out;
}
