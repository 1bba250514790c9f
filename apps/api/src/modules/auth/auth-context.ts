import type { BlockList } from 'node:net';
import { eq, inArray, type SQL } from 'drizzle-orm';
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
  /** users.session_epoch: a credential issued in an older epoch (before "log out everywhere") is refused. */
  sessionEpoch: number;
  /**
   * Set when the caller is an API token (issue 48, decision 0197): userId is then the token's creator
   * (whose name stays on what it writes), permissions are the token's own, and the activity log names it.
   */
  token?: ApiTokenCaller | null;
}

/** The API token behind a request: what the auth plugin checks on every request it makes. */
export interface ApiTokenCaller {
  id: string;
  name: string;
  /** Epoch ms; null: never. */
  expiresAt: number | null;
  /** Client addresses it is accepted from; null: any. */
  allowed: BlockList | null;
}

/** What services need to attribute a change: the caller and where the request came from. */
export interface Actor {
  userId: string | null;
  email: string | null;
  role: string | null;
  ip: string | null;
  /** The API token the request came with (issue 48): the activity log names it; userId is its creator. */
  token?: { id: string; name: string } | null;
}

const ALL = new Set<string>(PERMISSIONS);
const ADMIN = new Set<string>(ORGANIZATION_PERMISSIONS);
const DRIVER = new Set<string>(DRIVER_ROLE_PERMISSIONS);

/** Loads the caller's current role and permissions; null when the user is gone or may not sign in. */
export async function loadAuthContext(db: Db, userId: string): Promise<AuthContext | null> {
  const [row] = await authRows(db, eq(users.id, userId));
  return row ? contextOf(row) : null;
}

/**
 * loadAuthContext for many users in one query (open streams re-checked after a role or
 * organization changed): the users that may still sign in, by id; the others are absent.
 */
export async function loadAuthContexts(db: Db, userIds: readonly string[]): Promise<Map<string, AuthContext>> {
  const found = new Map<string, AuthContext>();
  if (userIds.length === 0) return found;
  for (const row of await authRows(db, inArray(users.id, [...userIds]))) {
    const ctx = contextOf(row);
    if (ctx) found.set(ctx.userId, ctx);
  }
  return found;
}

type AuthRow = Awaited<ReturnType<typeof authRows>>[number];

function authRows(db: Db, where: SQL) {
  return db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      status: users.status,
      orgId: users.organizationId,
      orgStatus: organizations.status,
      rolePermissions: roles.permissions,
      systemRole: roles.systemRole,
      sessionEpoch: users.sessionEpoch,
    })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(where);
}

/**
 * The codes a user's account role and assigned role give, whatever the user's status: what a user
 * holds when signed in, and what bounds the API tokens they made (decision 0226).
 */
export function heldPermissions(u: { role: string; systemRole: string | null; rolePermissions: readonly string[] | null }): ReadonlySet<string> {
  return u.role === 'SUPER_ADMIN' ? ALL : u.role === 'ADMIN' ? ADMIN : u.systemRole === 'DRIVER' ? DRIVER : new Set(u.rolePermissions ?? []);
}

function contextOf(u: AuthRow): AuthContext | null {
  // A deactivated user or organization loses access at once, whatever tokens it holds.
  if (u.status !== 'ACTIVE' || (u.orgId && u.orgStatus !== 'ACTIVE')) return null;
  const isSuperAdmin = u.role === 'SUPER_ADMIN';
  const permissions = heldPermissions(u);
  return { userId: u.id, email: u.email, role: u.role, orgId: u.orgId, permissions, isSuperAdmin, sessionEpoch: u.sessionEpoch };
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
    token: request.auth?.token ? { id: request.auth.token.id, name: request.auth.token.name } : null,
  };
}

/** The signed-in caller; routes that are not public can rely on it. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
