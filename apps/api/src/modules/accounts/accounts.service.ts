import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { CurrentUser, SignInResponse, Tokens } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { drivers, loginFailures, organizations, passwordResetTokens, refreshTokens, roles, users } from '../../db/schema/index.ts';
import { badRequest, notFound, tooManyRequests, unauthorized } from '../../http/errors.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { notifyAuthChange } from '../../db/sql/notify.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { recordActivity } from '../activity-log/index.ts';
import { createOrganizationWithAdmin } from '../organizations/index.ts';
import { presentCurrentUser } from '../users/index.ts';
import { recordDriverLogin } from '../hos/index.ts';
import {
  burnPasswordCheck,
  hashPassword,
  issueRefreshToken,
  issueSession,
  loadAuthContext,
  revokeAllSessions,
  sendPasswordResetEmail,
  sha256,
  verifyPassword,
  type AccessTokens,
  type Actor,
  type AuthContext,
} from '../auth/index.ts';

export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** One generic answer for unknown e-mail and wrong password alike: no account enumeration. */
const BAD_CREDENTIALS = 'Invalid email or password';

interface AuthDeps {
  db: Db;
  tokens: AccessTokens;
}

/** The current user object of spec section 3 for a signed-in caller. */
export async function getCurrentUser(db: DbOrTx, ctx: AuthContext): Promise<CurrentUser> {
  const rows = await db
    .select({
      user: users,
      orgName: organizations.name,
      orgTimeZone: organizations.timeZone,
      roleName: roles.name,
    })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, ctx.userId));
  const row = rows[0];
  if (!row) throw notFound('User');
  // The driver record this account signs in for, in its own organization (decision 0111): read
  // apart, by the organization (on Citus a subquery correlated from users, a reference table, into
  // drivers is refused).
  const orgId = row.user.organizationId;
  const [driver] = orgId
    ? await db
        .select({ id: drivers.id })
        .from(drivers)
        .where(and(eq(drivers.organizationId, orgId), eq(drivers.userId, row.user.id)))
        .limit(1)
    : [];
  const org = orgId && row.orgName ? { id: orgId, name: row.orgName, timeZone: row.orgTimeZone ?? undefined } : null;
  return presentCurrentUser(row.user, ctx, org, row.roleName, driver?.id ?? null);
}

async function signIn(deps: AuthDeps, userId: string): Promise<SignInResponse> {
  const ctx = await loadAuthContext(deps.db, userId);
  if (!ctx) throw unauthorized('This account is deactivated. Contact your administrator.', 'Account or organization inactive', 'auth.account_inactive');
  const tokens = await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, userId));
    return issueSession(tx, deps.tokens, ctx);
  });
  const user = await getCurrentUser(deps.db, ctx);
  return { user, ...tokens };
}

/**
 * 429 once an address has failed LOGIN_FAILURE_LIMIT times for an e-mail in the window, until the
 * window ends: Retry-After and the message say when (issue 66); a completed password reset lifts it.
 */
async function checkLoginBudget(db: Db, key: string, now = Date.now()): Promise<void> {
  const rows = await db.select().from(loginFailures).where(eq(loginFailures.key, key));
  const row = rows[0];
  const left = row ? row.windowStartedAt.getTime() + LOGIN_FAILURE_WINDOW_MS - now : 0;
  if (row && row.failures >= LOGIN_FAILURE_LIMIT && left > 0) {
    const seconds = Math.ceil(left / 1000);
    const minutes = Math.ceil(seconds / 60);
    throw tooManyRequests(
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'} or reset your password.`,
      seconds,
      'auth.too_many_sign_ins',
    ).withParams({
      minutes,
    });
  }
}

/** The lockout keys of an e-mail from every address (`ip|email`: an address has no '|'). */
const lockoutsOf = (email: string) => sql`substr(${loginFailures.key}, strpos(${loginFailures.key}, '|') + 1) = lower(${email})`;

async function recordLoginFailure(db: Db, key: string): Promise<void> {
  const windowStart = new Date(Date.now() - LOGIN_FAILURE_WINDOW_MS);
  // One statement, so concurrent failures from several instances all count.
  await db
    .insert(loginFailures)
    .values({ key, failures: 1, windowStartedAt: new Date() })
    .onConflictDoUpdate({
      target: loginFailures.key,
      set: {
        failures: sql`CASE WHEN ${loginFailures.windowStartedAt} < ${windowStart.toISOString()}::timestamptz THEN 1 ELSE ${loginFailures.failures} + 1 END`,
        windowStartedAt: sql`CASE WHEN ${loginFailures.windowStartedAt} < ${windowStart.toISOString()}::timestamptz THEN now() ELSE ${loginFailures.windowStartedAt} END`,
      },
    });
}

export async function authenticate(deps: AuthDeps, input: { email: string; password: string }, ip: string): Promise<SignInResponse> {
  const key = `${ip}|${input.email}`;
  await checkLoginBudget(deps.db, key);
  const rows = await deps.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${input.email}`);
  const user = rows[0];
  if (!user) {
    await burnPasswordCheck(input.password);
    await recordLoginFailure(deps.db, key);
    throw unauthorized(BAD_CREDENTIALS, 'Bad credentials', 'auth.invalid_credentials');
  }
  const ok = await verifyPassword(user.passwordHash, input.password);
  if (!ok) {
    await recordLoginFailure(deps.db, key);
    throw unauthorized(BAD_CREDENTIALS, 'Bad credentials', 'auth.invalid_credentials');
  }
  await deps.db.delete(loginFailures).where(eq(loginFailures.key, key));
  const session = await signIn(deps, user.id);
  // A driver's sign-in is an ELD login record of theirs (type 5; decision 0116).
  if (session.user.driverId) await recordDriverLogin(deps.db, user.id, 1);
  return session;
}

export async function register(
  deps: AuthDeps,
  input: { firstname: string; lastname: string; organizationName: string; email: string; password: string },
  ip: string,
): Promise<SignInResponse> {
  const passwordHash = await hashPassword(input.password);
  let adminId: string;
  try {
    // The payload's role and id are never trusted: registration always makes a new organization's ADMIN.
    adminId = await deps.db.transaction(async (tx) => {
      const { admin } = await createOrganizationWithAdmin(
        tx,
        {
          name: input.organizationName,
          admin: { email: input.email, firstName: input.firstname, lastName: input.lastname, passwordHash },
        },
        { userId: null, email: input.email, role: null, ip },
      );
      return admin.id;
    });
  } catch (err) {
    throw duplicateError(err) ?? err;
  }
  return signIn(deps, adminId);
}

export async function refresh(deps: AuthDeps, rawToken: string | null): Promise<Tokens> {
  if (!rawToken) throw unauthorized('Refresh token required', 'No bearer token');
  const hash = sha256(rawToken);
  const rows = await deps.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hash));
  const row = rows[0];
  if (!row) throw unauthorized('Your session has expired, please sign in again', 'Unknown refresh token', 'auth.session_expired');
  const revokeFamily = () =>
    deps.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
  if (row.revokedAt) throw unauthorized('Your session has expired, please sign in again', 'Refresh token revoked', 'auth.session_expired');
  if (row.expiresAt.getTime() <= Date.now())
    throw unauthorized('Your session has expired, please sign in again', 'Refresh token expired', 'auth.session_expired');
  // Rotation: mark used only if nobody did first. A used token presented again means it was
  // copied (theft), so the whole family (the session) is revoked.
  const claimed = await deps.db
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  if (claimed.length === 0) {
    await revokeFamily();
    // A stolen session: the streams it opened end too.
    await notifyAuthChange(deps.db, [row.userId]);
    throw unauthorized('Your session has expired, please sign in again', 'Refresh token reuse detected; session revoked', 'auth.session_expired');
  }
  const ctx = await loadAuthContext(deps.db, row.userId);
  if (!ctx) {
    await revokeFamily();
    throw unauthorized('Your session has expired, please sign in again', 'User inactive', 'auth.session_expired');
  }
  const refreshToken = await issueRefreshToken(deps.db, row.userId, row.familyId);
  return { accessToken: deps.tokens.sign({ sub: row.userId, org: ctx.orgId, gen: ctx.sessionEpoch, sid: row.familyId }), refreshToken };
}

/** Revokes the session (token family) the refresh token belongs to, if it is the caller's. */
export async function logout(db: Db, ctx: AuthContext, rawToken: string | undefined): Promise<void> {
  if (!rawToken) return;
  const rows = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tokenHash, sha256(rawToken)), eq(refreshTokens.userId, ctx.userId)));
  const familyId = rows[0]?.familyId;
  if (!familyId) return;
  const revoked = await db.transaction(async (tx) => {
    const rows = await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    // The streams this session opened end on every instance (OpenStreams checks the user's sessions).
    await notifyAuthChange(tx, [ctx.userId]);
    return rows;
  });
  // Ending a live session of a driver is their ELD logout record (type 5; decision 0116).
  if (revoked.length) await recordDriverLogin(db, ctx.userId, 2);
}

/**
 * Logs the caller out on every device, this one included: every refresh token revoked, and the
 * session epoch raised so access tokens, stream tickets and open streams (on every instance) end too.
 */
export async function logoutEverywhere(db: Db, ctx: AuthContext, actor: Actor): Promise<void> {
  const { revoked } = await db.transaction(async (tx) => {
    const ended = await revokeAllSessions(tx, ctx.userId);
    await recordActivity(tx, { orgId: ctx.orgId, actor, action: 'LOGOUT_EVERYWHERE', entityType: 'USER', entityId: ctx.userId });
    return ended;
  });
  // As a logout: ending a driver's live sessions is their ELD logout record (type 5; decision 0116).
  if (revoked) await recordDriverLogin(db, ctx.userId, 2);
}

/** Always resolves (202): whether the e-mail exists is never revealed. */
export async function requestPasswordReset(deps: { db: Db; mailer: Mailer; publicUrl: string }, email: string): Promise<void> {
  const rows = await deps.db
    .select({ id: users.id, email: users.email, firstName: users.firstName, status: users.status })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  const user = rows[0];
  if (!user || user.status === 'INACTIVE') return;
  await sendPasswordResetEmail(deps, user);
}

export async function createNewPassword(db: Db, input: { token: string; password: string }, actor: Actor): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const claimed = await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.tokenHash, sha256(input.token)), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, new Date())))
      .returning({ userId: passwordResetTokens.userId, purpose: passwordResetTokens.purpose });
    const token = claimed[0];
    if (!token) throw badRequest('This link is invalid or has expired. Ask for a new one.', 'Unknown, used or expired token');
    const [user] = await tx
      .update(users)
      .set({ passwordHash, status: sql`CASE WHEN ${users.status} = 'INVITED' THEN 'ACTIVE' ELSE ${users.status} END`, updatedAt: new Date() })
      .where(eq(users.id, token.userId))
      .returning({ id: users.id, email: users.email, orgId: users.organizationId, role: users.role });
    if (!user) throw badRequest('This link is invalid or has expired. Ask for a new one.');
    await revokeAllSessions(tx, user.id);
    // Whoever completed the reset holds the mailbox: the failed sign-ins against the old password no longer lock the account.
    await tx.delete(loginFailures).where(lockoutsOf(user.email));
    await recordActivity(tx, {
      orgId: user.orgId,
      actor: { ...actor, userId: user.id, email: user.email, role: user.role },
      action: token.purpose === 'INVITE' ? 'ACCEPT_INVITATION' : 'RESET_PASSWORD',
      entityType: 'USER',
      entityId: user.id,
    });
  });
}
