import { and, asc, count, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { withRequiredPermissions, type OrganizationRole, type Page, type roleInputSchema, type roleListQuerySchema } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { roles, users } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { likePattern, orderBy, toPage } from '../../http/paging.ts';
import type { AuthContext, ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { assertMayGrant, rolePermissions } from '../users/index.ts';

type RoleRow = typeof roles.$inferSelect;

function presentRole(r: RoleRow, userCount: number): OrganizationRole {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    permissions: [...rolePermissions(r)],
    builtIn: r.builtIn,
    systemRole: r.systemRole ?? null,
    userCount,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

// Qualified by hand: drizzle renders a lone column unqualified, which would bind to u.id here.
const userCount = sql<number>`(select count(*)::int from ${users} u where u.role_id = "roles"."id")`;
const ROLE_SORT = { name: roles.name, createdAt: roles.createdAt, updatedAt: roles.updatedAt };

/** Roles of the organization, the built-in Administrator first, with how many users hold each. */
export async function listRoles({ db, orgId }: ReadScope, q: z.output<typeof roleListQuerySchema>): Promise<Page<OrganizationRole>> {
  const conds: SQL[] = [eq(roles.organizationId, orgId)];
  if (q.search) conds.push(ilike(roles.name, likePattern(q.search)));
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    db
      .select({ role: roles, userCount })
      .from(roles)
      .where(where)
      .orderBy(sql`${roles.builtIn} desc`, ...orderBy(q.sort, ROLE_SORT, asc(sql`lower(${roles.name})`), asc(roles.id)))
      .limit(q.size)
      .offset(q.page * q.size),
    db.select({ n: count() }).from(roles).where(where),
  ]);
  return toPage(
    rows.map((r) => presentRole(r.role, Number(r.userCount))),
    total[0]?.n ?? 0,
    q,
  );
}

async function findRoleWithCount(db: DbOrTx, orgId: string, roleId: string) {
  const rows = await db
    .select({ role: roles, userCount })
    .from(roles)
    .where(and(eq(roles.id, roleId), eq(roles.organizationId, orgId)));
  const row = rows[0];
  if (!row) throw notFound('Role');
  return { role: row.role, userCount: Number(row.userCount) };
}

export async function getRole({ db, orgId }: ReadScope, roleId: string): Promise<OrganizationRole> {
  const r = await findRoleWithCount(db, orgId, roleId);
  return presentRole(r.role, r.userCount);
}

/** Creates a custom role; codes a chosen code requires are added, and the caller must hold all of them. */
export async function createRole({ db, orgId, actor }: Scope, ctx: AuthContext, input: z.output<typeof roleInputSchema>): Promise<OrganizationRole> {
  const permissions = withRequiredPermissions(input.permissions);
  assertMayGrant(ctx, permissions);
  try {
    return await db.transaction(async (tx) => {
      const [role] = await tx.insert(roles).values({ organizationId: orgId, name: input.name, description: input.description, permissions }).returning();
      if (!role) throw new Error('role insert returned nothing');
      await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'ROLE', entityId: role.id, after: role });
      return presentRole(role, 0);
    });
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
}

/**
 * Edits a custom role. The caller must hold every code the role has now and will have, so
 * nobody widens (or edits at all) a role more powerful than their own.
 */
export async function updateRole(
  { db, orgId, actor }: Scope,
  ctx: AuthContext,
  roleId: string,
  input: z.output<typeof roleInputSchema>,
): Promise<OrganizationRole> {
  const permissions = withRequiredPermissions(input.permissions);
  try {
    return await db.transaction(async (tx) => {
      const before = await findRoleWithCount(tx, orgId, roleId);
      if (before.role.builtIn) throw conflict(`The built-in ${before.role.name} role cannot be changed`, 'Built-in role');
      assertMayGrant(ctx, [...before.role.permissions, ...permissions]);
      const [after] = await tx
        .update(roles)
        .set({ name: input.name, description: input.description, permissions, updatedAt: new Date() })
        .where(and(eq(roles.id, roleId), eq(roles.organizationId, orgId)))
        .returning();
      if (!after) throw notFound('Role');
      await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'ROLE', entityId: roleId, before: before.role, after });
      return presentRole(after, before.userCount);
    });
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
}

/** Deletes a custom role nobody holds (any user, active or not: reassign them first). */
export async function deleteRole({ db, orgId, actor }: Scope, ctx: AuthContext, roleId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findRoleWithCount(tx, orgId, roleId);
    if (before.role.builtIn) throw conflict(`The built-in ${before.role.name} role cannot be deleted`, 'Built-in role');
    assertMayGrant(ctx, before.role.permissions);
    if (before.userCount > 0) {
      throw conflict(`This role is held by ${before.userCount} user${before.userCount === 1 ? '' : 's'}; give them another role first`, 'Role in use');
    }
    await tx.delete(roles).where(and(eq(roles.id, roleId), eq(roles.organizationId, orgId)));
    await recordActivity(tx, { orgId, actor, action: 'DELETE', entityType: 'ROLE', entityId: roleId, before: before.role });
  });
}
