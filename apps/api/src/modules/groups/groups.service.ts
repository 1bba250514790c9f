import { asc, and, eq, inArray, sql } from 'drizzle-orm';
import type { Group, GroupDetail, GroupMember, Page } from '@fleet/api-contract';
import type { groupInputSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, groupAssets, groupMembers, groups, users } from '../../db/schema/index.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { findGroup } from './groups.repository.ts';

type Input = z.output<typeof groupInputSchema>;

// The organization is named as the parameter (Citus keeps such a sub-select on the organization's
// shard, decision 0169); written out because Drizzle leaves a join-less select's columns unqualified.
const memberCount = (orgId: string) =>
  sql<number>`(select count(*)::int from group_members gm where gm.group_id = "groups"."id" and gm.organization_id = ${orgId})`;
const assetCount = (orgId: string) =>
  sql<number>`(select count(*)::int from group_assets ga where ga.group_id = "groups"."id" and ga.organization_id = ${orgId})`;
const SORTS = { name: sql`lower(${groups.name})`, createdAt: groups.createdAt };

function present(g: typeof groups.$inferSelect, members: number, assetsN: number): Group {
  return {
    id: g.id,
    organizationId: g.organizationId,
    name: g.name,
    description: g.description,
    memberCount: members,
    assetCount: assetsN,
    createdAt: g.createdAt.toISOString(),
    updatedAt: g.updatedAt.toISOString(),
  };
}

export async function listGroups({ db, orgId }: ReadScope, q: { page: number; size: number; sort?: string; search?: string }): Promise<Page<Group>> {
  const where = and(eq(groups.organizationId, orgId), q.search ? sql`lower(${groups.name}) like ${likeTerm(q.search)}` : undefined);
  const [total] = await db.select({ n: countAll }).from(groups).where(where);
  const rows = await db
    .select({ g: groups, m: memberCount(orgId), a: assetCount(orgId) })
    .from(groups)
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, 'name', asc(groups.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  return toPage(
    rows.map((r) => present(r.g, r.m, r.a)),
    total?.n ?? 0,
    q,
  );
}

export async function groupMembersOf(db: DbOrTx, orgId: string, groupId: string): Promise<GroupMember[]> {
  const [u, d] = await Promise.all([
    db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(groupMembers)
      .innerJoin(users, eq(users.id, groupMembers.memberId))
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.organizationId, orgId), eq(groupMembers.memberType, 'USER'))),
    db
      .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName, email: drivers.email })
      .from(groupMembers)
      .innerJoin(drivers, and(eq(drivers.id, groupMembers.memberId), eq(drivers.organizationId, groupMembers.organizationId)))
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.organizationId, orgId), eq(groupMembers.memberType, 'DRIVER'))),
  ]);
  const name = (r: { firstName: string | null; lastName: string | null; email: string | null }) =>
    [r.firstName, r.lastName].filter(Boolean).join(' ') || r.email || '';
  return [
    ...u.map((r) => ({ type: 'USER' as const, id: r.id, name: name(r), email: r.email })),
    ...d.map((r) => ({ type: 'DRIVER' as const, id: r.id, name: name(r), email: r.email })),
  ].sort((a, b) => a.name.localeCompare(b.name));
}

export async function getGroup({ db, orgId }: ReadScope, groupId: string): Promise<GroupDetail> {
  const g = await findGroup(db, orgId, groupId);
  const [members, groupAssetRows] = await Promise.all([
    groupMembersOf(db, orgId, groupId),
    db
      .select({ id: assets.id, unitNumber: assets.unitNumber, type: assets.type })
      .from(groupAssets)
      .innerJoin(assets, and(eq(assets.id, groupAssets.assetId), eq(assets.organizationId, groupAssets.organizationId)))
      .where(and(eq(groupAssets.groupId, groupId), eq(groupAssets.organizationId, orgId)))
      .orderBy(assets.type, sql`lower(${assets.unitNumber})`),
  ]);
  return { ...present(g, members.length, groupAssetRows.length), members, assets: groupAssetRows };
}

export async function createGroup({ db, orgId, actor }: Scope, input: Input): Promise<GroupDetail> {
  try {
    const id = await db.transaction(async (tx) => {
      const [row] = await tx.insert(groups).values({ organizationId: orgId, name: input.name, description: input.description }).returning();
      if (!row) throw new Error('group insert returned nothing');
      await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'GROUP', entityId: row.id, after: row });
      return row.id;
    });
    return await getGroup({ db, orgId }, id);
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
}

export async function renameGroup({ db, orgId, actor }: Scope, groupId: string, input: Input): Promise<GroupDetail> {
  try {
    await db.transaction(async (tx) => {
      const before = await findGroup(tx, orgId, groupId, true);
      const [after] = await tx
        .update(groups)
        .set({ name: input.name, description: input.description, updatedAt: new Date() })
        .where(eq(groups.id, groupId))
        .returning();
      await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'GROUP', entityId: groupId, before, after });
    });
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
  return getGroup({ db, orgId }, groupId);
}

/** Deletes a group; its members and assets are untouched (only the memberships go). */
export async function deleteGroup({ db, orgId, actor }: Scope, groupId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findGroup(tx, orgId, groupId, true);
    await tx.delete(groups).where(eq(groups.id, groupId));
    await recordActivity(tx, { orgId, actor, action: 'DELETE', entityType: 'GROUP', entityId: groupId, before });
  });
}

/** Adds users and drivers of the organization; ones already in the group are skipped. */
export async function addMembers({ db, orgId, actor }: Scope, groupId: string, members: Array<{ type: 'USER' | 'DRIVER'; id: string }>): Promise<GroupDetail> {
  await db.transaction(async (tx) => {
    await findGroup(tx, orgId, groupId, true);
    const userIds = [...new Set(members.filter((m) => m.type === 'USER').map((m) => m.id))];
    const driverIds = [...new Set(members.filter((m) => m.type === 'DRIVER').map((m) => m.id))];
    const foundUsers = userIds.length
      ? await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.organizationId, orgId), inArray(users.id, userIds)))
      : [];
    const foundDrivers = driverIds.length
      ? await tx
          .select({ id: drivers.id })
          .from(drivers)
          .where(and(eq(drivers.organizationId, orgId), inArray(drivers.id, driverIds)))
      : [];
    const missing = [
      ...userIds.filter((id) => !foundUsers.some((u) => u.id === id)).map((id) => `user ${id}`),
      ...driverIds.filter((id) => !foundDrivers.some((d) => d.id === id)).map((id) => `driver ${id}`),
    ];
    if (missing.length) throw invalidField('members', `Members not in this organization: ${missing.join(', ')}`);
    const rows = [
      ...userIds.map((id) => ({ memberType: 'USER' as const, memberId: id })),
      ...driverIds.map((id) => ({ memberType: 'DRIVER' as const, memberId: id })),
    ];
    const added = await tx
      .insert(groupMembers)
      .values(rows.map((r) => ({ ...r, groupId, organizationId: orgId })))
      .onConflictDoNothing()
      .returning({ memberType: groupMembers.memberType, memberId: groupMembers.memberId });
    await recordActivity(tx, { orgId, actor, action: 'ADD_MEMBERS', entityType: 'GROUP', entityId: groupId, after: { added } });
  });
  return getGroup({ db, orgId }, groupId);
}

export async function removeMember({ db, orgId, actor }: Scope, groupId: string, memberId: string): Promise<GroupDetail> {
  await db.transaction(async (tx) => {
    await findGroup(tx, orgId, groupId, true);
    const removed = await tx
      .delete(groupMembers)
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.memberId, memberId)))
      .returning({ memberType: groupMembers.memberType, memberId: groupMembers.memberId });
    if (removed.length === 0) throw notFound('Group member');
    await recordActivity(tx, { orgId, actor, action: 'REMOVE_MEMBER', entityType: 'GROUP', entityId: groupId, before: { removed } });
  });
  return getGroup({ db, orgId }, groupId);
}

/** Adds vehicles and trailers of the organization; ones already in the group are skipped. */
export async function addAssets({ db, orgId, actor }: Scope, groupId: string, assetIds: string[]): Promise<GroupDetail> {
  await db.transaction(async (tx) => {
    await findGroup(tx, orgId, groupId, true);
    const ids = [...new Set(assetIds)];
    const found = await tx
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.organizationId, orgId), inArray(assets.id, ids)));
    const missing = ids.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw invalidField('assetIds', `Vehicles and trailers not in this organization: ${missing.join(', ')}`);
    const added = await tx
      .insert(groupAssets)
      .values(ids.map((assetId) => ({ groupId, organizationId: orgId, assetId })))
      .onConflictDoNothing()
      .returning({ assetId: groupAssets.assetId });
    await recordActivity(tx, { orgId, actor, action: 'ADD_ASSETS', entityType: 'GROUP', entityId: groupId, after: { added: added.map((a) => a.assetId) } });
  });
  return getGroup({ db, orgId }, groupId);
}

export async function removeAsset({ db, orgId, actor }: Scope, groupId: string, assetId: string): Promise<GroupDetail> {
  await db.transaction(async (tx) => {
    await findGroup(tx, orgId, groupId, true);
    const removed = await tx
      .delete(groupAssets)
      .where(and(eq(groupAssets.groupId, groupId), eq(groupAssets.assetId, assetId)))
      .returning({ assetId: groupAssets.assetId });
    if (removed.length === 0) throw notFound('Group asset');
    await recordActivity(tx, { orgId, actor, action: 'REMOVE_ASSET', entityType: 'GROUP', entityId: groupId, before: { assetId } });
  });
  return getGroup({ db, orgId }, groupId);
}
