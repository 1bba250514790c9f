import { and, desc, eq, gte, inArray, lte, type SQL } from 'drizzle-orm';
import { describeLocation } from '@fleet/geo/places';
import { DVIR_ITEMS, type Dvir, type Page, type dvirInputSchema, type dvirListQuery, type dvirReviewInputSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { assets, dvirs, latestPositions, vehicleDefects, type DvirItemRow } from '../../db/schema/index.ts';
import { conflict, invalidField, notFound } from '../../http/errors.ts';
import { orderBy, toPage } from '../../http/paging.ts';
import { recordedTime } from '../../http/idempotency-key.ts';
import { recordActivity } from '../activity-log/index.ts';
import { vehicleOdometerAt } from '../assets/index.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';
import type { AuthContext, ReadScope, Scope } from '../auth/index.ts';
import { attachImages, imageLink, optionalImageLink, uploaderOf } from '../images/index.ts';
import { notify } from '../notifications/index.ts';
import { defectsOfReports } from './defects.service.ts';
import { assertDrives, callerDriver, readableVehicles, selfOnly } from './dvir-access.ts';
import { orgInspectionItems } from './inspection-items.service.ts';
import { orgWording, safetyDefectNotice } from './maintenance-notices.ts';

// Driver vehicle inspection reports (49 CFR 396.11, 396.13; issue 31, decision 0158). A report is
// signed by a driver and immutable once stored; its failed items become defects in the same
// transaction; the only later change is the next driver's signed review of the repair certifications.

type Input = z.output<typeof dvirInputSchema>;
type ListQuery = z.output<typeof dvirListQuery>;
type ReviewInput = z.output<typeof dvirReviewInputSchema>;
type DvirRow = typeof dvirs.$inferSelect;
type Unit = { id: string; unitNumber: string };
type OrgItems = Awaited<ReturnType<typeof orgInspectionItems>>;

const nowOf = (now: number | undefined) => now ?? Date.now();
/** A 396.11 item by its code or its label, in any case; anything else is one of the organization's own items. */
const ITEM_BY_NAME = new Map<string, (typeof DVIR_ITEMS)[number]>(
  DVIR_ITEMS.flatMap((i) => [[i.code.toLowerCase(), i] as const, [i.label.toLowerCase(), i] as const]),
);

// ---------------------------------------------------------------- reading

function present(r: DvirRow, unordered: Dvir['defects']): Dvir {
  const defectOf = new Map(unordered.map((d) => [`${d.asset.id}|${d.item}`, d.id]));
  // The report's defects in the order its items were reported (they share one creation instant).
  const position = new Map(r.items.map((i, n) => [`${i.assetId}|${i.item}`, n]));
  const at = (d: Dvir['defects'][number]) => position.get(`${d.asset.id}|${d.item}`) ?? Number.MAX_SAFE_INTEGER;
  const defects = [...unordered].sort((x, y) => at(x) - at(y));
  return {
    id: r.id,
    organizationId: r.organizationId,
    asset: { id: r.assetId, unitNumber: r.unitNumber },
    trailers: r.trailers,
    driver: r.driverId ? { id: r.driverId, name: r.driverName } : null,
    kind: r.kind,
    inspectedAt: r.inspectedAt.toISOString(),
    odometer: r.odometerM === null ? null : Math.round(r.odometerM / 100) / 10,
    latitude: r.latitude,
    longitude: r.longitude,
    location: r.location,
    items: r.items.map((i) => ({
      ...i,
      imageUrls: i.imageIds.map((id) => imageLink(id)),
      defectId: i.ok ? null : (defectOf.get(`${i.assetId}|${i.item}`) ?? null),
    })),
    defects,
    hasDefects: r.hasDefects,
    unsafe: defects.some((d) => d.safety && d.status === 'OPEN'),
    signature: { name: r.signatureName, imageId: r.signatureImageId, imageUrl: optionalImageLink(r.signatureImageId) },
    remarks: r.remarks,
    review:
      r.reviewedAt && r.reviewSignatureName
        ? {
            driver: { id: r.reviewedByDriverId ?? '', name: r.reviewerName ?? r.reviewSignatureName },
            signature: { name: r.reviewSignatureName, imageId: r.reviewSignatureImageId, imageUrl: optionalImageLink(r.reviewSignatureImageId) },
            reviewedAt: r.reviewedAt.toISOString(),
          }
        : null,
  };
}

async function presentAll(db: DbOrTx, orgId: string, rows: DvirRow[]): Promise<Dvir[]> {
  const defects = await defectsOfReports(
    db,
    orgId,
    rows.filter((r) => r.hasDefects).map((r) => r.id),
  );
  return rows.map((r) => present(r, defects.get(r.id) ?? []));
}

const SORTS = { inspectedAt: dvirs.inspectedAt, unitNumber: dvirs.unitNumber, driverName: dvirs.driverName };

/** Reports newest first: the whole organization for the office, the vehicles they drive for a driver. */
export async function listDvirs({ db, orgId, now }: ReadScope, ctx: AuthContext, q: ListQuery): Promise<Page<Dvir>> {
  const vehicles = await readableVehicles(db, orgId, ctx, nowOf(now));
  if (vehicles && vehicles.length === 0) return toPage([], 0, q);
  const filters: Array<SQL | undefined> = [
    eq(dvirs.organizationId, orgId),
    vehicles ? inArray(dvirs.assetId, vehicles) : undefined,
    q.assetId ? eq(dvirs.assetId, q.assetId) : undefined,
    q.driverId ? eq(dvirs.driverId, q.driverId) : undefined,
    q.from ? gte(dvirs.inspectedAt, new Date(q.from)) : undefined,
    q.to ? lte(dvirs.inspectedAt, new Date(q.to)) : undefined,
    q.hasDefects === undefined ? undefined : eq(dvirs.hasDefects, q.hasDefects),
  ];
  const where = and(...filters);
  const [total] = await db.select({ n: countAll }).from(dvirs).where(where);
  const rows = await db
    .select()
    .from(dvirs)
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, desc(dvirs.inspectedAt), desc(dvirs.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  return toPage(await presentAll(db, orgId, rows), total?.n ?? 0, q);
}

/** One report with its defects and review; 404 for another organization's, or a vehicle the driver does not drive. */
export async function getDvir({ db, orgId, now }: ReadScope, ctx: AuthContext, dvirId: string): Promise<Dvir> {
  const [row] = await db
    .select()
    .from(dvirs)
    .where(and(eq(dvirs.id, dvirId), eq(dvirs.organizationId, orgId)));
  if (!row) throw notFound('Inspection report');
  const vehicles = await readableVehicles(db, orgId, ctx, nowOf(now));
  if (vehicles && !vehicles.includes(row.assetId)) throw notFound('Inspection report');
  const [dvir] = await presentAll(db, orgId, [row]);
  if (!dvir) throw notFound('Inspection report');
  return dvir;
}

// ---------------------------------------------------------------- the driver's report

/** The units of the report: the vehicle and the trailers, each of its type in the organization (else 400). */
async function unitsOf(db: DbOrTx, orgId: string, input: Input): Promise<{ vehicle: Unit & { odometerM: number | null }; trailers: Unit[] }> {
  const trailerIds = [...new Set(input.trailerIds)];
  if (trailerIds.length !== input.trailerIds.length) throw invalidField('trailerIds', 'Trailers must not list a trailer twice');
  if (trailerIds.includes(input.assetId)) throw invalidField('trailerIds', 'Trailers must not include the vehicle');
  const ids = [input.assetId, ...trailerIds];
  const rows = await db
    .select({ id: assets.id, type: assets.type, unitNumber: assets.unitNumber, odometerM: assets.odometerM })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), inArray(assets.id, ids)));
  const vehicle = rows.find((r) => r.id === input.assetId && r.type === 'VEHICLE');
  if (!vehicle) throw invalidField('assetId', 'Vehicle must be a vehicle of this organization');
  const trailers = trailerIds.map((id) => rows.find((r) => r.id === id && r.type === 'TRAILER'));
  if (trailers.some((t) => !t)) throw invalidField('trailerIds', 'Trailers must be trailers of this organization');
  return { vehicle, trailers: trailers.flatMap((t) => (t ? [{ id: t.id, unitNumber: t.unitNumber }] : [])) };
}

/**
 * The items as stored: each on the vehicle or one of the trailers, each unit and item once, every
 * 396.11 item and organization item reported for the vehicle (and the trailer ones for each
 * trailer); else a 400 in words naming the missing ones.
 */
function itemsOf(input: Input, vehicle: Unit, trailers: Unit[], own: OrgItems): DvirItemRow[] {
  const units = new Map([vehicle, ...trailers].map((u) => [u.id, u]));
  // The organization's own items by name in any case, stored as the organization spells them.
  const ownByName = new Map(own.map((o) => [o.name.toLowerCase(), o.name]));
  const seen = new Set<string>();
  const rows = input.items.map((i, n): DvirItemRow => {
    const unitId = i.assetId ?? vehicle.id;
    const unit = units.get(unitId);
    if (!unit) throw invalidField(`items.${n}.assetId`, 'Unit must be the vehicle or one of the trailers inspected with it');
    const known = ITEM_BY_NAME.get(i.item.trim().toLowerCase());
    const item = known?.code ?? ownByName.get(i.item.trim().toLowerCase()) ?? i.item.trim();
    const label = known?.label ?? item;
    const key = `${unitId}|${item.toLowerCase()}`;
    if (seen.has(key)) throw invalidField(`items.${n}.item`, `Item "${label}" is reported twice for unit ${unit.unitNumber}`);
    seen.add(key);
    return { item, label, assetId: unitId, ok: i.ok, note: i.note ?? null, imageIds: i.imageIds, safety: i.ok ? false : i.safety };
  });
  const missing = [
    ...DVIR_ITEMS.filter((d) => !seen.has(`${vehicle.id}|${d.code.toLowerCase()}`)).map((d) => `${d.label} (vehicle ${vehicle.unitNumber})`),
    ...trailers.flatMap((t) =>
      DVIR_ITEMS.filter((d) => d.trailer && !seen.has(`${t.id}|${d.code.toLowerCase()}`)).map((d) => `${d.label} (trailer ${t.unitNumber})`),
    ),
    // The organization's own items (decision 0159): on the vehicle, and the trailer ones on each trailer.
    ...own.filter((o) => !seen.has(`${vehicle.id}|${o.name.toLowerCase()}`)).map((o) => `${o.name} (vehicle ${vehicle.unitNumber})`),
    ...trailers.flatMap((t) => own.filter((o) => o.trailer && !seen.has(`${t.id}|${o.name.toLowerCase()}`)).map((o) => `${o.name} (trailer ${t.unitNumber})`)),
  ];
  if (missing.length) throw invalidField('items', `Items missing from the inspection: ${missing.join('; ')}`);
  return rows;
}

/** Odometer (metres) and position: as the driver gave them, else the vehicle's odometer (issue 66) and latest fix. */
async function whereAndOdometer(db: DbOrTx, orgId: string, vehicle: Unit, input: Input) {
  const [fix] = await db
    .select({ latitude: latestPositions.latitude, longitude: latestPositions.longitude })
    .from(latestPositions)
    .where(eq(latestPositions.assetId, vehicle.id));
  const odometer = input.odometer != null ? null : await vehicleOdometerAt(db, orgId, vehicle.id);
  const odometerM = input.odometer != null ? input.odometer * 1000 : (odometer?.metres ?? null);
  const given = input.latitude != null && input.longitude != null;
  const latitude = given ? (input.latitude ?? null) : (fix?.latitude ?? null);
  const longitude = given ? (input.longitude ?? null) : (fix?.longitude ?? null);
  const location = input.location ?? (latitude !== null && longitude !== null ? describeLocation(latitude, longitude).text : null);
  return { odometerM, latitude, longitude, location };
}

/**
 * Stores a signed report. Only a driver signs one: the caller's driver record is the report's driver
 * (an office account without one gets 404 "Driver"); a driver without DVIR_LIST inspects only a
 * vehicle they drive (else 404 "Vehicle"). Failed items become open defects, in the same transaction.
 */
export async function createDvir({ db, orgId, actor, now }: Scope, ctx: AuthContext, input: Input, clientId: string | null = null): Promise<Dvir> {
  const serverNow = nowOf(now);
  // A report a phone signed offline and sent late (decision 0184) carries the time it was signed.
  const at = recordedTime(input.recordedAt, serverNow);
  const id = await db.transaction(async (tx) => {
    const driver = await callerDriver(tx, orgId, ctx);
    const sent = clientId ? await dvirOfKey(tx, orgId, driver.id, clientId) : null;
    if (sent) return sent;
    if (selfOnly(ctx)) await assertDrives(tx, orgId, driver.id, input.assetId, at);
    const { vehicle, trailers } = await unitsOf(tx, orgId, input);
    const items = itemsOf(input, vehicle, trailers, await orgInspectionItems(tx, orgId));
    const place = await whereAndOdometer(tx, orgId, vehicle, input);
    const failed = items.filter((i) => !i.ok);
    const [row] = await tx
      .insert(dvirs)
      .values({
        organizationId: orgId,
        assetId: vehicle.id,
        unitNumber: vehicle.unitNumber,
        trailers,
        driverId: driver.id,
        driverName: driver.name,
        kind: input.kind,
        inspectedAt: new Date(at),
        ...place,
        items,
        hasDefects: failed.length > 0,
        signatureName: input.signature.name,
        signatureImageId: input.signature.imageId ?? null,
        remarks: input.remarks ?? null,
        createdByUserId: actor.userId,
        clientId,
      })
      .onConflictDoNothing()
      .returning();
    // Nothing inserted: the same key's first send committed meanwhile; that report is the answer.
    if (!row && clientId) return (await dvirOfKey(tx, orgId, driver.id, clientId)) ?? Promise.reject(new Error('dvir key conflict without a report'));
    if (!row) throw new Error('dvir insert returned nothing');
    // The photos and the signature become the report's: the driver's own uploads, attached to nothing else (issue 66).
    const owner = { type: 'DVIR', id: row.id } as const;
    for (const [n, i] of input.items.entries()) await attachImages(tx, orgId, uploaderOf(actor), i.imageIds, owner, `items.${n}.imageIds`, 'Photos');
    await attachImages(tx, orgId, uploaderOf(actor), [input.signature.imageId], owner, 'signature.imageId', 'Drawn signature', true);
    const unitNumber = new Map([vehicle, ...trailers].map((u) => [u.id, u.unitNumber]));
    let defectRows: Array<typeof vehicleDefects.$inferSelect> = [];
    if (failed.length) {
      defectRows = await tx
        .insert(vehicleDefects)
        .values(
          failed.map((i) => ({
            organizationId: orgId,
            dvirId: row.id,
            assetId: i.assetId,
            unitNumber: unitNumber.get(i.assetId) ?? vehicle.unitNumber,
            item: i.item,
            label: i.label,
            note: i.note,
            imageIds: i.imageIds,
            safety: i.safety,
            createdAt: new Date(at),
          })),
        )
        .returning();
    }
    // The webhooks of the report and its defects (issue 48), in the report's transaction.
    await emitWebhookEvents(tx, [
      {
        orgId,
        type: 'dvir.submitted',
        at,
        data: {
          id: row.id,
          assetId: vehicle.id,
          unitNumber: vehicle.unitNumber,
          driverId: driver.id,
          kind: row.kind,
          inspectedAt: new Date(at).toISOString(),
          hasDefects: failed.length > 0,
          unsafe: failed.some((i) => i.safety),
        },
      },
      ...defectRows.map((d) => ({
        orgId,
        type: 'dvir.defect_opened' as const,
        at,
        data: {
          id: d.id,
          dvirId: row.id,
          engineFaultId: null,
          complianceItemId: null,
          assetId: d.assetId,
          unitNumber: d.unitNumber,
          item: d.item,
          label: d.label,
          note: d.note,
          safety: d.safety,
          reportedAt: new Date(at).toISOString(),
        },
      })),
    ]);
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'INSPECT',
      entityType: 'ASSET',
      entityId: vehicle.id,
      after: {
        dvirId: row.id,
        unitNumber: vehicle.unitNumber,
        kind: row.kind,
        driverId: driver.id,
        driverName: driver.name,
        trailers: trailers.map((t) => t.unitNumber),
        defects: failed.length,
        safetyDefects: failed.filter((i) => i.safety).length,
      },
    });
    // The office hears of a safety defect at once (decision 0159), in the report's transaction.
    const unsafe = [vehicle, ...trailers]
      .map((u) => ({ u, labels: failed.filter((i) => i.safety && i.assetId === u.id).map((i) => i.label) }))
      .filter((x) => x.labels.length);
    if (unsafe.length) {
      const { units } = await orgWording(tx, orgId);
      for (const { u, labels } of unsafe) {
        const unit = { id: u.id, unitNumber: u.unitNumber, trailer: u.id !== vehicle.id };
        await notify(tx, safetyDefectNotice(orgId, { dvirId: row.id, driver, unit, labels, odometerM: row.odometerM, location: row.location }, units));
      }
    }
    return row.id;
  });
  return getDvir({ db, orgId, now: serverNow }, ctx, id);
}

/** The report a driver's earlier send with this Idempotency-Key stored, or null. */
async function dvirOfKey(tx: DbOrTx, orgId: string, driverId: string, clientId: string): Promise<string | null> {
  const [row] = await tx
    .select({ id: dvirs.id })
    .from(dvirs)
    .where(and(eq(dvirs.organizationId, orgId), eq(dvirs.driverId, driverId), eq(dvirs.clientId, clientId)));
  return row?.id ?? null;
}

/**
 * The next driver's signed review of a report's repair certifications (396.13(c)): a driver of the
 * vehicle, once, and only when every defect of the report has been certified (409 otherwise).
 */
export async function reviewDvir({ db, orgId, actor, now }: Scope, ctx: AuthContext, dvirId: string, input: ReviewInput): Promise<Dvir> {
  const at = nowOf(now);
  await db.transaction(async (tx) => {
    const driver = await callerDriver(tx, orgId, ctx);
    const [row] = await tx
      .select()
      .from(dvirs)
      .where(and(eq(dvirs.id, dvirId), eq(dvirs.organizationId, orgId)))
      .for('update');
    if (!row) throw notFound('Inspection report');
    if (selfOnly(ctx)) {
      await assertDrives(tx, orgId, driver.id, row.assetId, at).catch(() => {
        throw notFound('Inspection report');
      });
    }
    await attachImages(tx, orgId, uploaderOf(actor), [input.signature.imageId], { type: 'DVIR', id: dvirId }, 'signature.imageId', 'Drawn signature', true);
    if (row.reviewedAt)
      throw conflict(`This report was already reviewed by ${row.reviewerName ?? row.reviewSignatureName ?? 'a driver'}`, 'dvir already reviewed');
    const defects = await tx
      .select({ label: vehicleDefects.label, unitNumber: vehicleDefects.unitNumber, status: vehicleDefects.status })
      .from(vehicleDefects)
      .where(eq(vehicleDefects.dvirId, dvirId));
    if (defects.length === 0) throw conflict('This report has no defect, so there is no repair certification to review', 'dvir has no defects');
    const open = defects.filter((d) => d.status === 'OPEN');
    if (open.length) {
      const list = open.map((d) => `${d.label} (${d.unitNumber})`).join('; ');
      throw conflict(`Defects of this report are not certified yet: ${list}. A mechanic certifies them first`, 'dvir has open defects');
    }
    await tx
      .update(dvirs)
      .set({
        reviewedByDriverId: driver.id,
        reviewerName: driver.name,
        reviewSignatureName: input.signature.name,
        reviewSignatureImageId: input.signature.imageId ?? null,
        reviewedAt: new Date(at),
      })
      .where(eq(dvirs.id, dvirId));
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'REVIEW_INSPECTION',
      entityType: 'ASSET',
      entityId: row.assetId,
      after: { dvirId, unitNumber: row.unitNumber, driverId: driver.id, driverName: driver.name, inspectedAt: row.inspectedAt.toISOString() },
    });
  });
  return getDvir({ db, orgId, now: at }, ctx, dvirId);
}
