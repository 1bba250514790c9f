import { and, asc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Defect, EngineFault, GroundingCodes, Page, engineFaultDefectInputSchema, engineFaultListQuery } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { assets, engineFaultSettings, engineFaults } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { likePattern, orderBy, toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { createEngineFaultDefect, getDefect, orgWording } from '../maintenance/index.ts';
import { describeFault } from './dtc-descriptions.ts';
import { grounds, groundingCodesOf } from './grounding.ts';

// A vehicle's engine faults (issue 46, decision 0191): the list the vehicle's page shows, a fault
// made a defect in one click, and the organization's grounding codes.

type ListQuery = z.output<typeof engineFaultListQuery>;
type DefectInput = z.output<typeof engineFaultDefectInputSchema>;
type Row = typeof engineFaults.$inferSelect;

/** An optional field of the contract: left out rather than null. */
const opt = <K extends string, V>(key: K, v: V | null): { [P in K]?: V } => (v === null ? {} : ({ [key]: v } as { [P in K]: V }));

export function presentEngineFault(r: Row, codes: ReadonlySet<string>): EngineFault {
  return {
    id: r.id,
    code: r.code,
    source: r.source,
    ...opt('spn', r.spn),
    ...opt('fmi', r.fmi),
    ...opt('occurrences', r.occurrences),
    ...opt('description', describeFault(r) ?? null),
    ...opt('lamps', r.lamps),
    firstSeenAt: r.firstSeenAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    ...opt('clearedAt', r.clearedAt?.toISOString() ?? null),
    grounding: grounds(codes, r),
    defectId: r.defectId,
  };
}

/** The vehicle of the organization (404 otherwise: another organization's vehicle is not there). */
async function vehicleOf(db: DbOrTx, orgId: string, assetId: string): Promise<{ unitNumber: string }> {
  const [v] = await db
    .select({ unitNumber: assets.unitNumber })
    .from(assets)
    .where(and(eq(assets.id, assetId), eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE')));
  if (!v) throw notFound('Vehicle');
  return v;
}

const SORTS = { lastSeenAt: engineFaults.lastSeenAt, firstSeenAt: engineFaults.firstSeenAt, clearedAt: engineFaults.clearedAt, code: engineFaults.code };

/** A page of a vehicle's faults, active or cleared (both when not said), the most recently seen first. */
export async function listEngineFaults({ db, orgId }: ReadScope, assetId: string, q: ListQuery): Promise<Page<EngineFault>> {
  await vehicleOf(db, orgId, assetId);
  const filters: Array<SQL | undefined> = [
    eq(engineFaults.organizationId, orgId),
    eq(engineFaults.assetId, assetId),
    q.status === 'ACTIVE' ? isNull(engineFaults.clearedAt) : q.status === 'CLEARED' ? isNotNull(engineFaults.clearedAt) : undefined,
    q.search ? sql`${engineFaults.code} ilike ${likePattern(q.search)}` : undefined,
  ];
  const where = and(...filters);
  const [total] = await db.select({ n: countAll }).from(engineFaults).where(where);
  const rows = await db
    .select()
    .from(engineFaults)
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, sql`${engineFaults.lastSeenAt} desc, ${engineFaults.code}`, asc(engineFaults.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  const codes = new Set(await groundingCodesOf(db, orgId));
  return toPage(
    rows.map((r) => presentEngineFault(r, codes)),
    total?.n ?? 0,
    q,
  );
}

/**
 * The fault as a defect of its vehicle, open until a mechanic certifies it like any other (and so
 * on a work order when one links it). It affects safe operation when the code grounds the vehicle,
 * unless `safety` says otherwise. A fault that is already a defect answers 409.
 */
export async function createDefectFromFault({ db, orgId, actor }: Scope, assetId: string, faultId: string, input: DefectInput): Promise<Defect> {
  const { unitNumber } = await vehicleOf(db, orgId, assetId);
  const { tz } = await orgWording(db, orgId);
  const codes = new Set(await groundingCodesOf(db, orgId));
  const defectId = await db.transaction(async (tx) => {
    const [f] = await tx
      .select()
      .from(engineFaults)
      .where(and(eq(engineFaults.organizationId, orgId), eq(engineFaults.assetId, assetId), eq(engineFaults.id, faultId)))
      .for('update');
    if (!f) throw notFound('Engine fault');
    if (f.defectId) throw conflict('This engine fault is already a defect', `engine fault ${faultId} has defect ${f.defectId}`);
    const description = describeFault(f);
    const seen = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(f.firstSeenAt);
    const id = await createEngineFaultDefect(tx, orgId, actor, {
      faultId,
      assetId,
      unitNumber,
      code: f.code,
      label: `Engine fault ${f.code}`,
      note: [description, `first seen ${seen}`].filter(Boolean).join('; '),
      safety: input.safety ?? grounds(codes, f),
      automatic: false,
    });
    await tx
      .update(engineFaults)
      .set({ defectId: id })
      .where(and(eq(engineFaults.organizationId, orgId), eq(engineFaults.id, faultId)));
    return id;
  });
  return getDefect({ db, orgId }, defectId);
}

export async function getGroundingCodes({ db, orgId }: ReadScope): Promise<GroundingCodes> {
  return { codes: await groundingCodesOf(db, orgId) };
}

/** Replaces the organization's grounding codes (normalized by the contract, each once, in the order given). */
export async function putGroundingCodes({ db, orgId, actor }: Scope, input: GroundingCodes): Promise<GroundingCodes> {
  const codes = [...new Set(input.codes)];
  await db.transaction(async (tx) => {
    const before = await groundingCodesOf(tx, orgId);
    await tx
      .insert(engineFaultSettings)
      .values({ organizationId: orgId, groundingCodes: codes })
      .onConflictDoUpdate({ target: engineFaultSettings.organizationId, set: { groundingCodes: codes, updatedAt: new Date() } });
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'UPDATE',
      entityType: 'ORGANIZATION',
      entityId: orgId,
      before: { groundingCodes: before.join(', ') || 'none' },
      after: { groundingCodes: codes.join(', ') || 'none' },
    });
  });
  return { codes };
}
