// The auth base's public file: other modules import from here only (imports inside the module stay direct).
// The base imports no module (`npm run deps`, rule auth-base-imports-no-module): signing up, signing in
// and password resets, which need users, organizations and HoS, are the accounts module's.
export { AuthCache } from './auth-cache.ts';
export { actorOf, heldPermissions, loadAuthContext, requireAuth, visiblePermissions } from './auth-context.ts';
export type { Actor, AuthContext } from './auth-context.ts';
export { burnPasswordCheck, hashPassword, randomToken, sha256, verifyPassword } from './crypto.ts';
export { INVITE_TOKEN_TTL_MS, createPasswordToken, sendPasswordResetEmail } from './password-tokens.ts';
export { scopeOf } from './scope.ts';
export type { ReadScope, Scope } from './scope.ts';
export { endedSessions, issueRefreshToken, issueSession, revokeAllSessions } from './sessions.ts';
export type { AccessTokens } from './jwt.ts';
export { OpenStreams } from './open-streams.ts';
export type { StreamAccessLoader } from './open-streams.ts';
export { streamTicketRoute } from './stream-tickets.routes.ts';
