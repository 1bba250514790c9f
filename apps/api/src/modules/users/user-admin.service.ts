import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { inviteUserSchema, Page, User, userListQuerySchema } from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import { organizations, roles, users } from '../../db/schema/index.ts';
import { conflict, invalidField, notFound } from '../../http/errors.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { likePattern, orderBy, toPage } from '../../http/paging.ts';
import { type AuthContext, type ReadScope, revokeAllSessions, type Scope, sendPasswordResetEmail } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { sendInvitationEmail, type MailDeps } from './invitations.ts';
import { presentUser } from './users.presenter.ts';
import { accountRoleFor, assertAnotherActiveAdmin, assertMayGrant, assertMayManage, findRole, rolePermissions } from './users.policies.ts';
import { findUser, userPermissions } from './users.service.ts';

/** Where invitation and reset e-mails go out from. */
type Mail = Omit<MailDeps, 'db'>;

const USER_SORT = {
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  status: users.status,
  role: roles.name,
  roleName: roles.name,
  lastLoginAt: users.lastLoginAt,
  createdAt: users.createdAt,
};

/** Users of the organization: search by name or e-mail, filter by role and status. */
export async function listUsers({ db, orgId }: ReadScope, q: z.output<typeof userListQuerySchema>): Promise<Page<User>> {
  const conds: SQL[] = [eq(users.organizationId, orgId)];
  if (q.search) {
    const p = likePattern(q.search);
    conds.push(
      or(
        ilike(users.email, p),
        ilike(users.firstName, p),
        ilike(users.lastName, p),
        ilike(sql`coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')`, p),
      ) as SQL,
    );
  }
  if (q.roleId) conds.push(eq(users.roleId, q.roleId));
  if (q.status) conds.push(eq(users.status, q.status));
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    db
      .select({ user: users, roleName: roles.name })
      .from(users)
      .leftJoin(roles, eq(roles.id, users.roleId))
      .where(where)
      .orderBy(...orderBy(q.sort, USER_SORT, asc(sql`lower(coalesce(${users.lastName}, '') || ' ' || coalesce(${users.firstName}, ''))`), asc(users.id)))
      .limit(q.size)
      .offset(q.page * q.size),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return toPage(
    rows.map((r) => presentUser(r.user, r.roleName)),
    total[0]?.n ?? 0,
    q,
  );
}

async function organizationName(db: Db, orgId: string): Promise<string> {
  const rows = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, orgId));
  if (!rows[0]) throw notFound('Organization');
  return rows[0].name;
}

/**
 * Invites a user: the account is INVITED (cannot sign in) until the person chooses a password
 * through the e-mailed create-new-password link. The caller must hold every code of the role.
 */
export async function inviteUser({ db, orgId, actor }: Scope, ctx: AuthContext, mail: Mail, input: z.output<typeof inviteUserSchema>): Promise<User> {
  let created: { user: typeof users.$inferSelect; roleName: string };
  try {
    created = await db.transaction(async (tx) => {
      const role = await findRole(tx, orgId, input.roleId);
      if (!role) throw invalidField('roleId', 'Role is not valid.');
      assertMayGrant(ctx, rolePermissions(role));
      const [user] = await tx
        .insert(users)
        .values({
          organizationId: orgId,
          role: accountRoleFor(role),
          roleId: role.id,
          email: input.email,
          username: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          position: input.position ?? null,
          phone: input.phone ?? null,
          timeZone: input.timeZone ?? null,
          passwordHash: null,
          status: 'INVITED',
        })
        .returning();
      if (!user) throw new Error('user insert returned nothing');
      await recordActivity(tx, { orgId, actor, action: 'INVITE', entityType: 'USER', entityId: user.id, after: user });
      return { user, roleName: role.name };
    });
  } catch (err) {
    throw duplicateError(err) ?? err;
  }
  await sendInvitationEmail({ db, ...mail }, created.user, await organizationName(db, orgId));
  return presentUser(created.user, created.roleName);
}

/**
 * Deactivates a user: the auth cache drops the user on the users NOTIFY trigger and every
 * refresh token is revoked in the same transaction, so access ends with the next request.
 */
export async function deactivateUser({ db, orgId, actor }: Scope, ctx: AuthContext, userId: string): Promise<User> {
  if (userId === ctx.userId) throw conflict('You cannot deactivate your own account', 'Self deactivation');
  return db.transaction(async (tx) => {
    const before = await findUser(tx, orgId, userId);
    assertMayManage(ctx, { id: userId, permissions: await userPermissions(tx, before.user) });
    if (before.user.role === 'ADMIN' && before.user.status === 'ACTIVE') await assertAnotherActiveAdmin(tx, orgId, userId);
    const [after] = await tx.update(users).set({ status: 'INACTIVE', updatedAt: new Date() }).where(eq(users.id, userId)).returning();
    if (!after) throw notFound('User');
    await revokeAllSessions(tx, userId);
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'DEACTIVATE',
      entityType: 'USER',
      entityId: userId,
      before: { status: before.user.status },
      after: { status: 'INACTIVE' },
    });
    return presentUser(after, before.roleName);
  });
}

/** Reactivates a user: ACTIVE when a password was ever set, else back to INVITED. */
export async function activateUser({ db, orgId, actor }: Scope, ctx: AuthContext, userId: string): Promise<User> {
  return db.transaction(async (tx) => {
    const before = await findUser(tx, orgId, userId);
    assertMayManage(ctx, { id: userId, permissions: await userPermissions(tx, before.user) });
    if (before.user.status !== 'INACTIVE') return presentUser(before.user, before.roleName);
    const status = before.user.passwordHash ? 'ACTIVE' : 'INVITED';
    const [after] = await tx.update(users).set({ status, updatedAt: new Date() }).where(eq(users.id, userId)).returning();
    if (!after) throw notFound('User');
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'ACTIVATE',
      entityType: 'USER',
      entityId: userId,
      before: { status: before.user.status },
      after: { status },
    });
    return presentUser(after, before.roleName);
  });
}

/**
 * E-mails a password-reset link (or, for a user who never accepted, the invitation again).
 * Answers which one was sent so the screen can say so.
 */
export async function sendPasswordReset({ db, orgId, actor }: Scope, ctx: AuthContext, mail: Mail, userId: string): Promise<{ sent: 'RESET' | 'INVITATION' }> {
  const { user } = await findUser(db, orgId, userId);
  if (user.status === 'INACTIVE') throw conflict('This user is deactivated; reactivate the account first', 'User inactive');
  if (user.id !== ctx.userId) assertMayManage(ctx, { id: userId, permissions: await userPermissions(db, user) });
  const sent = user.status === 'INVITED' ? 'INVITATION' : 'RESET';
  await db.transaction(async (tx) => {
    await recordActivity(tx, {
      orgId,
      actor,
      action: sent === 'INVITATION' ? 'RESEND_INVITATION' : 'SEND_PASSWORD_RESET',
      entityType: 'USER',
      entityId: userId,
    });
  });
  if (sent === 'INVITATION') await sendInvitationEmail({ db, ...mail }, user, await organizationName(db, orgId));
  else await sendPasswordResetEmail({ db, ...mail }, user);
  return { sent };
}
