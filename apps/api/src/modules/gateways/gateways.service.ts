import { asc, and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { DEVICE_OFFLINE_HOURS } from '@fleet/api-contract';
import type { Gateway, GatewayDetail, GatewayInput, Page, RemovalResult } from '@fleet/api-contract';
import type { gatewayInputSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { deviceModels, gatewayPairings, gateways, gatewaySearchDoc } from '../../db/schema/index.ts';
import { invalidField } from '../../http/errors.ts';
import { foreignKeyViolation } from '../../db/sql/pg-error.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { randomToken, type ReadScope, type Scope, sha256 } from '../auth/index.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { assetInGroup } from '../groups/index.ts';
import { getGatewayDetail, lockGateway, selectGateways } from './gateways.repository.ts';
import { unpairAssetInTx } from '../assets/index.ts';
import { dropDeviceIds, putDeviceIds } from './device-ids.ts';

type ParsedInput = z.output<typeof gatewayInputSchema>;
export type { GatewayInput };

const SORTS = {
  name: sql`lower(${gateways.name})`,
  uniqueId: gateways.uniqueId,
  status: gateways.status,
  lastSeenAt: gateways.lastSeenAt,
  firmware: gateways.firmware,
  createdAt: gateways.createdAt,
};

export interface GatewayFilter {
  status?: 'ACTIVE' | 'INACTIVE';
  group?: string;
  search?: string;
  paired?: boolean;
  /** Silent for DEVICE_OFFLINE_HOURS (having reported before), or not. */
  offline?: boolean;
}

export function gatewayConditions(orgId: string, f: GatewayFilter) {
  return and(
    f.status ? eq(gateways.status, f.status) : undefined,
    f.group ? assetInGroup(orgId, f.group, gateways.assetId) : undefined,
    f.search ? sql`${gatewaySearchDoc} like ${likeTerm(f.search)}` : undefined,
    f.paired === undefined ? undefined : f.paired ? isNotNull(gateways.assetId) : isNull(gateways.assetId),
    f.offline === undefined
      ? undefined
      : f.offline
        ? sql`${gateways.lastSeenAt} < now() - make_interval(hours => ${DEVICE_OFFLINE_HOURS})`
        : sql`${gateways.lastSeenAt} >= now() - make_interval(hours => ${DEVICE_OFFLINE_HOURS})`,
  );
}

export async function listGateways({ db, orgId }: ReadScope, q: GatewayFilter & { page: number; size: number; sort?: string }): Promise<Page<Gateway>> {
  const where = gatewayConditions(orgId, q);
  const order = orderBy(q.sort, SORTS, 'name', asc(gateways.id));
  const [totalRow] = await db
    .select({ n: countAll })
    .from(gateways)
    .where(and(eq(gateways.organizationId, orgId), where));
  const total = totalRow?.n ?? 0;
  const content = total === 0 ? [] : await selectGateways(db, orgId, where, { orderBy: order, limit: q.size, offset: q.page * q.size });
  return toPage(content, total, q);
}

async function assertModelExists(db: DbOrTx, id: string | null): Promise<void> {
  if (!id) return;
  const [m] = await db.select({ id: deviceModels.id }).from(deviceModels).where(eq(deviceModels.id, id));
  if (!m) throw invalidField('deviceModelId', 'Device model does not exist');
}

const values = (input: ParsedInput) => ({
  uniqueId: input.uniqueId,
  name: input.name,
  deviceModelId: input.deviceModelId,
  phone: input.phone,
  firmware: input.firmware,
  status: input.status,
  notes: input.notes,
  // Left out of the body: unchanged on an edit (the column's default, false, on an add).
  ...(input.useReceivedTime === undefined ? {} : { useReceivedTime: input.useReceivedTime }),
});

/** Creates a device with a fresh batch-ingest token, returned once; only its SHA-256 is stored. */
export async function createGateway({ db, orgId, actor }: Scope, input: ParsedInput): Promise<GatewayDetail & { ingestToken: string }> {
  await assertModelExists(db, input.deviceModelId);
  const ingestToken = randomToken(32);
  try {
    const id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(gateways)
        .values({ organizationId: orgId, ...values(input), ingestTokenHash: sha256(ingestToken) })
        .returning();
      if (!row) throw new Error('gateway insert returned nothing');
      await putDeviceIds(tx, [row]);
      await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'GATEWAY', entityId: row.id, after: { ...row, ingestTokenHash: undefined } });
      return row.id;
    });
    return { ...(await getGatewayDetail(db, orgId, id)), ingestToken };
  } catch (err) {
    // Unique ids are unique across all organizations; the answer does not say whose device it is.
    throw duplicateError(err, input) ?? err;
  }
}

/** Replaces the device's ingest token; the old one stops working at once. */
export async function regenerateIngestToken({ db, orgId, actor }: Scope, id: string): Promise<{ ingestToken: string }> {
  const ingestToken = randomToken(32);
  await db.transaction(async (tx) => {
    await lockGateway(tx, orgId, id);
    const [after] = await tx
      .update(gateways)
      .set({ ingestTokenHash: sha256(ingestToken), updatedAt: new Date() })
      .where(eq(gateways.id, id))
      .returning();
    if (after) await putDeviceIds(tx, [after]);
    await recordActivity(tx, { orgId, actor, action: 'REGENERATE_TOKEN', entityType: 'GATEWAY', entityId: id });
  });
  return { ingestToken };
}

export async function updateGateway({ db, orgId, actor }: Scope, id: string, input: ParsedInput): Promise<GatewayDetail> {
  await assertModelExists(db, input.deviceModelId);
  try {
    await db.transaction(async (tx) => {
      const before = await lockGateway(tx, orgId, id);
      const now = new Date();
      if (before.status === 'ACTIVE' && input.status === 'INACTIVE' && before.assetId) await unpairAssetInTx(tx, orgId, actor, before.assetId, now);
      const [after] = await tx
        .update(gateways)
        .set({ ...values(input), updatedAt: now })
        .where(eq(gateways.id, id))
        .returning();
      if (after && after.uniqueId !== before.uniqueId) await putDeviceIds(tx, [after]);
      await recordActivity(tx, {
        orgId,
        actor,
        action: 'UPDATE',
        entityType: 'GATEWAY',
        entityId: id,
        before: { ...before, ingestTokenHash: undefined },
        after: { ...after, ingestTokenHash: undefined },
      });
    });
  } catch (err) {
    // Unique ids are unique across all organizations; the answer does not say whose device it is.
    throw duplicateError(err, input) ?? err;
  }
  return getGatewayDetail(db, orgId, id);
}

/** Deletes a device never paired; one with pairing history (or positions) is deactivated. */
export async function removeGateway({ db, orgId, actor }: Scope, id: string): Promise<RemovalResult> {
  return db.transaction(async (tx) => {
    const before = await lockGateway(tx, orgId, id, 'update');
    const logged = { ...before, ingestTokenHash: undefined };
    const [history] = await tx.select({ n: countAll }).from(gatewayPairings).where(eq(gatewayPairings.gatewayId, id));
    if ((history?.n ?? 0) === 0) {
      try {
        await tx.transaction(async (sp) => {
          await sp.delete(gateways).where(eq(gateways.id, id));
          await dropDeviceIds(sp, [id]);
          await recordActivity(sp, { orgId, actor, action: 'DELETE', entityType: 'GATEWAY', entityId: id, before: logged });
        });
        return { result: 'DELETED' as const, message: `Device ${before.name} was deleted` };
      } catch (err) {
        if (!foreignKeyViolation(err)) throw err;
      }
    }
    const now = new Date();
    if (before.assetId) await unpairAssetInTx(tx, orgId, actor, before.assetId, now);
    await tx.update(gateways).set({ status: 'INACTIVE', updatedAt: now }).where(eq(gateways.id, id));
    await recordActivity(tx, { orgId, actor, action: 'DEACTIVATE', entityType: 'GATEWAY', entityId: id, before: logged, after: { status: 'INACTIVE' } });
    return { result: 'DEACTIVATED' as const, message: `Device ${before.name} has pairing history, so it was deactivated instead of deleted` };
  });
}

/** A device with its pairing, model and last position. */
export async function getGateway({ db, orgId }: ReadScope, id: string): Promise<GatewayDetail> {
  return getGatewayDetail(db, orgId, id);
}
