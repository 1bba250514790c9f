import fp from 'fastify-plugin';
import type { Permission } from '@fleet/api-contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { unauthorized } from '../../http/errors.ts';
import type { AccessTokens } from './jwt.ts';
import type { AuthCache } from './auth-cache.ts';
import type { OpenStreams } from './open-streams.ts';
import { loadAuthContext, type AuthContext } from './auth-context.ts';
import { redeemStreamTicket } from './stream-tickets.service.ts';
import { assertRouteAccess } from './route-access.ts';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: AccessTokens;
    authCache: AuthCache;
    /** This instance's open event streams, ended when their users' access ends. */
    openStreams: OpenStreams;
    /** API tokens (issue 48): recognised by their prefix and resolved to their caller. */
    apiTokenAuth: BearerTokenAuth;
    /** The key API tokens are hashed under. */
    apiTokenKey: Buffer;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** The credential the caller signed in with; null on public routes. */
    credential: Credential | null;
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
    /**
     * Open to API tokens (decision 0226). A token acts for its organization, never as the person who
     * made it: every route is closed to tokens unless it says so here, and a token calling a closed
     * one gets 403 "API tokens cannot use this endpoint". The API document lists the routes open to
     * tokens under the `apiToken` security scheme.
     */
    tokens?: boolean;
  }
}

/** Another kind of bearer credential than a session's access token (API tokens, modules/api-tokens). */
export interface BearerTokenAuth {
  recognises(bearer: string): boolean;
  /** The caller, or throws the 401, 403 or 429 the request gets. */
  authenticate(bearer: string, request: FastifyRequest, reply: FastifyReply): Promise<AuthContext>;
}

/** What the auth plugin knows of the credential behind a request. */
export interface Credential {
  /** The session epoch it was issued in (an access token's `gen`, a stream ticket's). */
  epoch: number;
  /** The session (refresh-token family) it belongs to, when it names one: signing it out ends its streams. */
  session: string | null;
  /** The API token it is, when it is one: revoking the token ends its streams. */
  tokenId: string | null;
  /**
   * AuthCache.changes before the credential was checked: a stream opened by this request is checked
   * again at once when an auth change arrived since (OpenStreams), since its check may predate it.
   */
  seenChanges: number;
}

/** The `/auth/*` routes (issue 66): closed to API tokens, the public ones too. */
const ACCOUNT_ROUTES = /^\/api\/v\d+\/auth\//;

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || null : null;
}

/**
 * The user a stream ticket stands for. Never the access token in the URL: URLs are written to
 * access logs, proxies and browser histories. The ticket is spent here, on the first try.
 */
async function ticketUser(db: Db, request: FastifyRequest): Promise<{ userId: string; epoch: number; session: string | null }> {
  const raw = (request.query as Record<string, unknown> | undefined)?.ticket;
  if (typeof raw !== 'string' || raw === '') throw unauthorized('Authentication required', 'No bearer token or stream ticket');
  const ticket = await redeemStreamTicket(db, raw);
  if (!ticket) throw unauthorized('This live connection ticket has expired or was already used', 'Unknown, used or expired stream ticket');
  // A ticket opens the organization it was issued for and nothing else.
  const orgId = (request.params as Record<string, string | undefined> | undefined)?.orgId;
  if (orgId !== ticket.orgId) throw unauthorized('This live connection ticket is for another organization', 'Stream ticket issued for another organization');
  // ...and the one stream it was asked for: a live map ticket does not open a person's inbox.
  if (ticket.stream !== request.routeOptions.url)
    throw unauthorized('This live connection ticket is for another stream', `Stream ticket issued for ${ticket.stream || 'another stream'}`);
  return { userId: ticket.userId, epoch: ticket.sessionEpoch, session: ticket.sessionId };
}

/**
 * Authentication, permission and tenancy checks for every /api route, in preValidation so a
 * caller without the permission gets 403 (not 400) whatever the body holds.
 */
export const authPlugin = fp(async (app) => {
  app.decorateRequest('auth', null);
  app.decorateRequest('credential', null);

  // The API document says which credentials each route takes: none (public), a session, or also an API token.
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.schema.security) return;
    route.schema = { ...route.schema, security: route.config?.public ? [] : route.config?.tokens ? [{ bearer: [] }, { apiToken: [] }] : [{ bearer: [] }] };
  });

  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (!request.routeOptions.url) return;
    const token = bearer(request);
    const apiToken = token !== null && app.apiTokenAuth.recognises(token);
    // The account routes are a person's even where they need no credential (sign-in, refresh, reset,
    // undo): a request presenting an API token there is refused as on any route closed to tokens.
    if (config.public && !(apiToken && ACCOUNT_ROUTES.test(request.routeOptions.url))) return;
    if (token && apiToken) {
      const seen = app.authCache.changes;
      const ctx = await app.apiTokenAuth.authenticate(token, request, reply);
      request.auth = ctx;
      request.credential = { epoch: 0, session: null, tokenId: ctx.token?.id ?? null, seenChanges: seen };
      const orgId = (request.params as Record<string, string | undefined> | undefined)?.orgId;
      assertRouteAccess(ctx, { orgId, permissions: config.permissions, anyPermissions: config.anyPermissions });
      return;
    }
    // Counted before anything is read: a change arriving from here on may not be seen below.
    const seenChanges = app.authCache.changes;
    let userId: string;
    let epoch: number;
    let session: string | null;
    if (token) {
      try {
        const claims = app.tokens.verify(token);
        ({ sub: userId, gen: epoch } = claims);
        session = claims.sid ?? null;
      } catch (err) {
        throw unauthorized('Your session has expired, please sign in again', (err as Error).message, 'auth.session_expired');
      }
    } else if (config.streamTicket) {
      ({ userId, epoch, session } = await ticketUser(app.db, request));
    } else {
      throw unauthorized('Authentication required', 'No bearer token');
    }
    // Whichever credential: the user's current status, permissions and organization decide below.
    const ctx = await app.authCache.context(userId, () => loadAuthContext(app.db, userId));
    if (!ctx) throw unauthorized('Your session has expired, please sign in again', 'User inactive or removed', 'auth.session_expired');
    // Logged out everywhere (or the password changed) since this credential was issued: an access
    // token cannot be taken back, so its epoch is what ends it.
    if (epoch < ctx.sessionEpoch)
      throw unauthorized('Your session has ended, please sign in again', 'Credential issued before the sessions were ended', 'auth.session_expired');
    request.auth = ctx;
    request.credential = { epoch, session, tokenId: null, seenChanges };

    const orgId = (request.params as Record<string, string | undefined> | undefined)?.orgId;
    assertRouteAccess(ctx, { orgId, permissions: config.permissions, anyPermissions: config.anyPermissions });
  });
});
