import { and, count, eq, ne } from 'drizzle-orm';
import { DRIVER_ROLE_PERMISSIONS, ORGANIZATION_PERMISSIONS } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { organizations, roles, users } from '../../db/schema/index.ts';
import { conflict, forbidden } from '../../http/errors.ts';
import type { AuthContext } from '../auth/index.ts';

type SystemRole = 'ADMIN' | 'DRIVER' | null;

/**
 * What a role really grants: the built-in Administrator every organization code, the built-in Driver
 * the driver's own codes (as the code defines them now, whatever was stored), a custom role its list.
 */
export function rolePermissions(role: { systemRole: SystemRole; permissions: readonly string[] } | null | undefined): readonly string[] {
  if (!role) return [];
  if (role.systemRole === 'ADMIN') return ORGANIZATION_PERMISSIONS;
  if (role.systemRole === 'DRIVER') return DRIVER_ROLE_PERMISSIONS;
  return role.permissions;
}

/** The users.role value that goes with a role: the built-in Administrator makes an ADMIN. */
export const accountRoleFor = (role: { systemRole: SystemRole }): 'ADMIN' | 'USER' => (role.systemRole === 'ADMIN' ? 'ADMIN' : 'USER');

/** The organization's built-in Driver role (decision 0111). */
export async function driverRoleOf(tx: DbOrTx, orgId: string) {
  const rows = await tx
    .select()
    .from(roles)
    .where(and(eq(roles.organizationId, orgId), eq(roles.systemRole, 'DRIVER')));
  return rows[0] ?? null;
}

/** Whether the user's role is the organization's built-in Driver role. */
export async function holdsDriverRole(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ systemRole: roles.systemRole }).from(users).innerJoin(roles, eq(roles.id, users.roleId)).where(eq(users.id, userId));
  return row?.systemRole === 'DRIVER';
}

/** No privilege escalation: a caller grants (to a role or, by assigning a role, to a user) only codes it holds. */
export function assertMayGrant(ctx: AuthContext, codes: readonly string[]): void {
  const lacking = codes.filter((c) => !ctx.permissions.has(c));
  if (lacking.length > 0) {
    throw forbidden('You cannot grant permissions you do not hold', `Not held by the caller: ${lacking.join(', ')}`);
  }
}

/**
 * A caller manages (re-roles, deactivates) only users whose permissions it holds itself, so a
 * user manager with a limited role cannot demote or lock out an administrator.
 */
export function assertMayManage(ctx: AuthContext, target: { id: string; permissions: readonly string[] }): void {
  const lacking = target.permissions.filter((c) => !ctx.permissions.has(c));
  if (lacking.length > 0) {
    throw forbidden('You cannot change a user who holds permissions you do not hold', `Target holds: ${lacking.join(', ')}`);
  }
}

/**
 * Last-admin protection. Locks the organization row first so two concurrent demotions of the
 * last two administrators cannot both pass; call inside the transaction making the change. NO KEY
 * UPDATE: FOR UPDATE held back every insert of the organization, its positions among them, whose
 * key checks lock the same row (decision 0220).
 */
export async function assertAnotherActiveAdmin(tx: DbOrTx, orgId: string, exceptUserId: string): Promise<void> {
  await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, orgId)).for('no key update');
  const rows = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.organizationId, orgId), eq(users.role, 'ADMIN'), eq(users.status, 'ACTIVE'), ne(users.id, exceptUserId)));
  if ((rows[0]?.n ?? 0) === 0) {
    throw conflict('The organization must keep at least one active administrator', 'Last active admin protection');
  }
}

export async function findRole(tx: DbOrTx, orgId: string, roleId: string) {
  const rows = await tx
    .select()
    .from(roles)
    .where(and(eq(roles.id, roleId), eq(roles.organizationId, orgId)));
  return rows[0] ?? null;
}
