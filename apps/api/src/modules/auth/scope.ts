import type { FastifyRequest } from 'fastify';
import type { Db, DbOrTx } from '../../db/client.ts';
import { actorOf, type Actor } from './auth-context.ts';

/**
 * What every API service is called with, always first: `fn(scope, ...args)` (decision 0149).
 * Which organization, on which connection, who is acting (for the activity log) and, where a
 * test pins it, the clock. A service that checks the caller's own rights takes the AuthContext
 * as an ordinary argument after the scope.
 */
export interface Scope extends ReadScope {
  /** The database itself: a service that writes opens its own transaction. */
  db: Db;
  actor: Actor;
}

/**
 * The part of a Scope that reads need: no actor, and the connection may be a transaction a
 * writing service is already inside. Every Scope is a ReadScope.
 */
export interface ReadScope {
  db: DbOrTx;
  orgId: string;
  /** The clock in epoch ms (tests pin it); Date.now() when absent. */
  now?: number;
}

/** The scope of a request on `/organizations/:orgId/...`: the one way routes build it. */
export function scopeOf(request: FastifyRequest, orgId: string): Scope {
  return { db: request.server.db, orgId, actor: actorOf(request) };
}
