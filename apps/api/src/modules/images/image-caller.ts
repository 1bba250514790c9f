import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../http/errors.ts';
import { loadAuthContext, type AuthContext } from '../auth/index.ts';

/**
 * The signed-in caller of a route the auth plugin leaves open (`/images/{id}` is public so a signed
 * link needs no token), checked as the plugin checks it: a token that is forged or expired, or a
 * user deactivated since, is a 401, never a silent anonymous request. Null without a bearer token.
 */
export async function bearerCaller(request: FastifyRequest): Promise<AuthContext | null> {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!token) return null;
  const app = request.server;
  let userId: string;
  try {
    userId = app.tokens.verify(token).sub;
  } catch (err) {
    throw unauthorized('Your session has expired, please sign in again', (err as Error).message);
  }
  const ctx = await app.authCache.context(userId, () => loadAuthContext(app.db, userId));
  if (!ctx) throw unauthorized('Your session has expired, please sign in again', 'User inactive or removed');
  // The request line names the caller, as on every signed-in request.
  request.auth = ctx;
  return ctx;
}
