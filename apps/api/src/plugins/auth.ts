import fp from 'fastify-plugin';
import { eq } from 'drizzle-orm';
import { DRIVER_ROLE_PERMISSIONS, ORGANIZATION_PERMISSIONS, PERMISSIONS } from '@fleet/api-contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { organizations, roles, users } from '../db/schema/index.ts';
import type { Db } from '../db/client.ts';
import { redeemStreamTicket } from '../modules/auth/stream-tickets.service.ts';
import { forbidden, notFound, unauthorized } from '../lib/errors.ts';
import type { Actor, AuthContext } from './types.ts';

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

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || null : null;
}

/**
 * The user a stream ticket stands for. Never the access token in the URL: URLs are written to
 * access logs, proxies and browser histories. The ticket is spent here, on the first try.
 */
async function ticketUser(db: Db, request: FastifyRequest): Promise<string> {
  const raw = (request.query as Record<string, unknown> | undefined)?.ticket;
  if (typeof raw !== 'string' || raw === '') throw unauthorized('Authentication required', 'No bearer token or stream ticket');
  const ticket = await redeemStreamTicket(db, raw);
  if (!ticket) throw unauthorized('This live connection ticket has expired or was already used', 'Unknown, used or expired stream ticket');
  // A ticket opens the organization it was issued for and nothing else.
  const orgId = (request.params as Record<string, string | undefined> | undefined)?.orgId;
  if (orgId !== ticket.orgId) throw unauthorized('This live connection ticket is for another organization', 'Stream ticket issued for another organization');
  return ticket.userId;
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

/**
 * Authentication, permission and tenancy checks for every /api route, in preValidation so a
 * caller without the permission gets 403 (not 400) whatever the body holds.
 */
export const authPlugin = fp(async (app) => {
  app.decorateRequest('auth', null);

  app.addHook('preValidation', async (request: FastifyRequest, _reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (!request.routeOptions.url || config.public) return;
    const token = bearer(request);
    let userId: string;
    if (token) {
      try {
        userId = app.tokens.verify(token).sub;
      } catch (err) {
        throw unauthorized('Your session has expired, please sign in again', (err as Error).message);
      }
    } else if (config.streamTicket) {
      userId = await ticketUser(app.db, request);
    } else {
      throw unauthorized('Authentication required', 'No bearer token');
    }
    // Whichever credential: the user's current status, permissions and organization decide below.
    const ctx = await app.authCache.context(userId, () => loadAuthContext(app.db, userId));
    if (!ctx) throw unauthorized('Your session has expired, please sign in again', 'User inactive or removed');
    request.auth = ctx;

    // Tenancy: /organizations/{orgId}/... belongs to members of that organization. A super
    // administrator may act on any organization (take control). Others see a 404, not a 403,
    // so an organization's existence does not leak.
    const orgId = (request.params as Record<string, string | undefined> | undefined)?.orgId;
    if (orgId !== undefined && !ctx.isSuperAdmin && orgId !== ctx.orgId) throw notFound('Organization');

    const required = config.permissions ?? [];
    const missing = required.filter((code) => !ctx.permissions.has(code));
    if (missing.length > 0) throw forbidden('You do not have permission to do this', `Missing permission: ${missing.join(', ')}`);
    // An office code or the driver's own: which one the caller holds decides what it may reach (the service checks that).
    const any = config.anyPermissions ?? [];
    if (any.length > 0 && !any.some((code) => ctx.permissions.has(code))) {
      throw forbidden('You do not have permission to do this', `Missing permission: one of ${any.join(', ')}`);
    }
  });
});
