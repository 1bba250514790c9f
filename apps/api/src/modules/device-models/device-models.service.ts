import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { DeviceModel, Page } from '@fleet/api-contract';
import type { deviceModelInputSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { deviceModels, gateways } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import type { Actor } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { countAll } from '../../db/sql/count-all.ts';

type Input = z.output<typeof deviceModelInputSchema>;

const SORTS = {
  name: sql`lower(${deviceModels.name})`,
  manufacturer: sql`lower(${deviceModels.manufacturer})`,
  protocol: deviceModels.protocol,
  createdAt: deviceModels.createdAt,
};

/**
 * Devices of all organizations using each of these models (the catalogue is global), counted in a
 * statement of its own: on Citus device_models is a reference table and gateways is distributed,
 * and a sub-select correlated from the one into the other is refused.
 */
async function deviceCounts(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: gateways.deviceModelId, n: countAll })
    .from(gateways)
    .where(inArray(gateways.deviceModelId, ids))
    .groupBy(gateways.deviceModelId);
  return new Map(rows.map((r) => [r.id ?? '', r.n]));
}

function present(m: typeof deviceModels.$inferSelect, count: number): DeviceModel {
  return {
    id: m.id,
    name: m.name,
    manufacturer: m.manufacturer,
    protocol: m.protocol,
    notes: m.notes,
    ioMap: m.ioMap,
    deviceCount: count,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

export async function listDeviceModels(db: Db, q: { page: number; size: number; sort?: string; search?: string }): Promise<Page<DeviceModel>> {
  const where = q.search
    ? sql`lower(${deviceModels.name} || ' ' || coalesce(${deviceModels.manufacturer}, '') || ' ' || ${deviceModels.protocol}) like ${likeTerm(q.search)}`
    : undefined;
  const [total] = await db.select({ n: countAll }).from(deviceModels).where(where);
  const rows = await db
    .select()
    .from(deviceModels)
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, 'name', asc(deviceModels.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  const counts = await deviceCounts(
    db,
    rows.map((m) => m.id),
  );
  return toPage(
    rows.map((m) => present(m, counts.get(m.id) ?? 0)),
    total?.n ?? 0,
    q,
  );
}

async function getOne(db: Db, id: string): Promise<DeviceModel> {
  const [m] = await db.select().from(deviceModels).where(eq(deviceModels.id, id));
  if (!m) throw notFound('Device model');
  return present(m, (await deviceCounts(db, [id])).get(id) ?? 0);
}

export async function createDeviceModel(db: Db, actor: Actor, input: Input): Promise<DeviceModel> {
  try {
    const id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(deviceModels)
        .values({ ...input, ioMap: input.ioMap ?? {} })
        .returning();
      if (!row) throw new Error('device model insert returned nothing');
      await recordActivity(tx, { orgId: null, actor, action: 'CREATE', entityType: 'DEVICE_MODEL', entityId: row.id, after: row });
      return row.id;
    });
    return await getOne(db, id);
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
}

export async function updateDeviceModel(db: Db, actor: Actor, id: string, input: Input): Promise<DeviceModel> {
  try {
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(deviceModels).where(eq(deviceModels.id, id)).for('update');
      if (!before) throw notFound('Device model');
      const [after] = await tx
        .update(deviceModels)
        .set({ ...input, ioMap: input.ioMap ?? before.ioMap, updatedAt: new Date() })
        .where(eq(deviceModels.id, id))
        .returning();
      await recordActivity(tx, { orgId: null, actor, action: 'UPDATE', entityType: 'DEVICE_MODEL', entityId: id, before, after });
    });
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
  return getOne(db, id);
}

/** Deletes a model no device uses; one in use answers 409 with the count. */
export async function deleteDeviceModel(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    // On Citus the count below reads gateways' shards in parallel, after which the transaction may
    // not write device_models (a reference table) unless it runs one connection per node. On plain
    // PostgreSQL and PGlite this only sets an unused placeholder setting.
    await tx.execute(sql`select set_config('citus.multi_shard_modify_mode', 'sequential', true)`);
    const [before] = await tx.select().from(deviceModels).where(eq(deviceModels.id, id)).for('update');
    if (!before) throw notFound('Device model');
    const [used] = await tx.select({ n: countAll }).from(gateways).where(eq(gateways.deviceModelId, id));
    if ((used?.n ?? 0) > 0) throw conflict(`Device model ${before.name} is used by ${used?.n} device(s); change them first`);
    await tx.delete(deviceModels).where(eq(deviceModels.id, id));
    await recordActivity(tx, { orgId: null, actor, action: 'DELETE', entityType: 'DEVICE_MODEL', entityId: id, before });
  });
}
