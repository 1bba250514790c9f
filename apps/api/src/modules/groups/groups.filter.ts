import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { groupAssets, groupMembers, groups } from '../../db/schema/index.ts';

// Group filters shared by every list and the live map: a condition to put in a WHERE clause, so
// a group narrows a query without loading ids first. Each also checks the organization, so a
// group id of another organization matches nothing.

/** True when the asset in `assetIdColumn` (assets.id, gateways.asset_id, positions.asset_id…) is in the group. */
export function assetInGroup(orgId: string, groupId: string, assetIdColumn: AnyPgColumn | SQL): SQL {
  return sql`exists (select 1 from ${groupAssets} where ${groupAssets.assetId} = ${assetIdColumn} and ${groupAssets.groupId} = ${groupId} and ${groupAssets.organizationId} = ${orgId})`;
}

/** True when the driver in `driverIdColumn` is a member of the group. */
export function driverInGroup(orgId: string, groupId: string, driverIdColumn: AnyPgColumn | SQL): SQL {
  return sql`exists (select 1 from ${groupMembers} where ${groupMembers.memberType} = 'DRIVER' and ${groupMembers.memberId} = ${driverIdColumn} and ${groupMembers.groupId} = ${groupId} and ${groupMembers.organizationId} = ${orgId})`;
}

/** The ids of the group's assets (vehicles and trailers); empty for an unknown or foreign group. */
export async function assetIdsInGroup(db: DbOrTx, orgId: string, groupId: string): Promise<string[]> {
  const rows = await db
    .select({ id: groupAssets.assetId })
    .from(groupAssets)
    .where(and(eq(groupAssets.organizationId, orgId), eq(groupAssets.groupId, groupId)));
  return rows.map((r) => r.id);
}

/** Groups of each asset, for list and detail answers. */
export async function groupsOfAssets(db: DbOrTx, orgId: string, assetIds: string[]): Promise<Map<string, Array<{ id: string; name: string }>>> {
  const out = new Map<string, Array<{ id: string; name: string }>>();
  if (assetIds.length === 0) return out;
  const rows = await db
    .select({ assetId: groupAssets.assetId, id: groups.id, name: groups.name })
    .from(groupAssets)
    .innerJoin(groups, and(eq(groups.id, groupAssets.groupId), eq(groups.organizationId, groupAssets.organizationId)))
    .where(and(eq(groupAssets.organizationId, orgId), inArray(groupAssets.assetId, assetIds)))
    .orderBy(groups.name);
  for (const r of rows) out.set(r.assetId, [...(out.get(r.assetId) ?? []), { id: r.id, name: r.name }]);
  return out;
}

/** Groups of each member (drivers or users), for list and detail answers. */
export async function groupsOfMembers(
  db: DbOrTx,
  orgId: string,
  memberType: 'USER' | 'DRIVER',
  memberIds: string[],
): Promise<Map<string, Array<{ id: string; name: string }>>> {
  const out = new Map<string, Array<{ id: string; name: string }>>();
  if (memberIds.length === 0) return out;
  const rows = await db
    .select({ memberId: groupMembers.memberId, id: groups.id, name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, and(eq(groups.id, groupMembers.groupId), eq(groups.organizationId, groupMembers.organizationId)))
    .where(and(eq(groupMembers.organizationId, orgId), eq(groupMembers.memberType, memberType), inArray(groupMembers.memberId, memberIds)))
    .orderBy(groups.name);
  for (const r of rows) out.set(r.memberId, [...(out.get(r.memberId) ?? []), { id: r.id, name: r.name }]);
  return out;
}
