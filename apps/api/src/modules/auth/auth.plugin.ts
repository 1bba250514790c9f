import fp from 'fastify-plugin';
import type { Permission } from '@fleet/api-contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { forbidden, notFound, unauthorized } from '../../http/errors.ts';
import type { AccessTokens } from './jwt.ts';
import type { AuthCache } from './auth-cache.ts';
import { loadAuthContext, type AuthContext } from './auth-context.ts';
import { redeemStreamTicket } from './stream-tickets.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: AccessTokens;
    authCache: AuthCache;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** No sign-in needed (auth endpoints, health, ingest). */
    public?: boolean;
    /** Every code is required; checked before the body is validated. */
    permissions?: readonly Permission[];
    /** At least one of these codes is required (an office code or the driver's own; decision 0111). */
    anyPermissions?: readonly Permission[];
    /** Also accepts a single-use `?ticket=` (EventSource cannot send the Authorization header). */
    streamTicket?: boolean;
  }
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
