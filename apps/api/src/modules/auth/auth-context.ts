import { eq } from 'drizzle-orm';
import { DRIVER_ROLE_PERMISSIONS, ORGANIZATION_PERMISSIONS, PERMISSIONS } from '@fleet/api-contract';
import type { FastifyRequest } from 'fastify';
import { organizations, roles, users } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { unauthorized } from '../../http/errors.ts';

/** Who is calling: resolved from the access token and the users table on every request. */
export interface AuthContext {
  userId: string;
  email: string;
  role: 'ADMIN' | 'USER' | 'SUPER_ADMIN';
  /** Null for a super administrator. */
  orgId: string | null;
  permissions: ReadonlySet<string>;
  isSuperAdmin: boolean;
}

/** What services need to attribute a change: the caller and where the request came from. */
export interface Actor {
  userId: string | null;
  email: string | null;
  role: string | null;
  ip: string | null;
}

const ALL = new Set<string>(PERMISSIONS);
const ADMIN = new Set<string>(ORGANIZATION_PERMISSIONS);
const DRIVER = new Set<string>(DRIVER_ROLE_PERMISSIONS);

/** Loads the caller's current role and permissions; null when the user is gone or may not sign in. */
export async function loadAuthContext(db: Db, userId: string): Promise<AuthContext | null> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      status: users.status,
      orgId: users.organizationId,
      orgStatus: organizations.status,
      rolePermissions: roles.permissions,
      systemRole: roles.systemRole,
    })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, userId));
  const u = rows[0];
  // A deactivated user or organization loses access at once, whatever tokens it holds.
  if (!u || u.status !== 'ACTIVE' || (u.orgId && u.orgStatus !== 'ACTIVE')) return null;
  const isSuperAdmin = u.role === 'SUPER_ADMIN';
  const permissions = isSuperAdmin ? ALL : u.role === 'ADMIN' ? ADMIN : u.systemRole === 'DRIVER' ? DRIVER : new Set(u.rolePermissions ?? []);
  return { userId: u.id, email: u.email, role: u.role, orgId: u.orgId, permissions, isSuperAdmin };
}

/** The permission codes the current user object shows: SUPER_ADMIN shows only its own code. */
export function visiblePermissions(ctx: AuthContext): string[] {
  return ctx.isSuperAdmin ? ['SUPER_ADMIN'] : [...ctx.permissions].sort();
}

export function actorOf(request: FastifyRequest): Actor {
  return {
    userId: request.auth?.userId ?? null,
    email: request.auth?.email ?? null,
    role: request.auth?.role ?? null,
    ip: request.ip ?? null,
  };
}

/** The signed-in caller; routes that are not public can rely on it. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
