import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_TOKEN_PREFIX } from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import { forbidden, tooManyRequests, unauthorized } from '../../http/errors.ts';
import type { AuthCache, AuthContext } from '../auth/index.ts';
import { addressAllowed, hashApiToken, loadTokenContext, type TokenUse } from './api-tokens.service.ts';
import type { TokenRateLimiter } from './rate-limit.ts';

/** The one answer of a route closed to API tokens. */
export const TOKENS_REFUSED = 'API tokens cannot use this endpoint';

/**
 * `Authorization: Bearer fltk_…` (issue 48, decision 0197): the token's caller, as the auth plugin
 * then checks it like a user's (permissions, the organization in the path). Cached by hash in the
 * AuthCache, so a revocation (auth_change '*') reaches every instance before its next request.
 */
export class ApiTokenAuth {
  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    private readonly cache: AuthCache,
    private readonly limiter: TokenRateLimiter,
    private readonly use: TokenUse,
  ) {}

  recognises(bearer: string): boolean {
    return bearer.startsWith(API_TOKEN_PREFIX);
  }

  async authenticate(bearer: string, request: FastifyRequest, reply: FastifyReply): Promise<AuthContext> {
    const hash = hashApiToken(this.key, bearer);
    const ctx = await this.cache.context(`token:${hash}`, () => loadTokenContext(this.db, hash));
    const token = ctx?.token;
    if (!ctx?.orgId || !token) throw unauthorized('This API token is not valid: it may have been revoked', 'Unknown or revoked API token', 'tokens.invalid');
    if (token.expiresAt !== null && token.expiresAt <= Date.now())
      throw unauthorized('This API token has expired', `API token expired at ${new Date(token.expiresAt).toISOString()}`, 'tokens.expired');
    // A token acts for its organization, never as the person who made it: only the routes that say
    // they are open to tokens (config.tokens, decision 0226), never a person's profile, inbox or session.
    if (request.routeOptions.config.tokens !== true) {
      throw forbidden(TOKENS_REFUSED, `${request.method} ${request.routeOptions.url ?? request.url} is not open to API tokens`, 'tokens.endpoint_refused');
    }
    if (!addressAllowed(token.allowed, request.ip))
      throw forbidden(
        'This API token is not accepted from your address',
        `Client address ${request.ip} is not among the token's allowed addresses`,
        'tokens.address_refused',
      );
    const rate = this.limiter.take(token.id, ctx.orgId);
    void reply.headers(rate.headers);
    if (!rate.allowed) throw tooManyRequests('Too many requests for this API token, slow down and try again shortly', undefined, 'tokens.rate_limited');
    this.use.touch(ctx.orgId, token.id, request.ip);
    return ctx;
  }
}
