import { and, eq, ne, sql } from 'drizzle-orm';
import { ORGANIZATION_PERMISSIONS, type Tokens, type User, type UserProfileInput } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { bumpListVersion } from '../../list-index/list-versions.ts';
import { roles, users } from '../../db/schema/index.ts';
import {
  type AccessTokens,
  type AuthContext,
  hashPassword,
  issueSession,
  type ReadScope,
  revokeAllSessions,
  type Scope,
  verifyPassword,
} from '../auth/index.ts';
import { forbidden, invalidField, notFound } from '../../http/errors.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { recordActivity } from '../activity-log/index.ts';
import { deleteImage, storeImage, uploaderOf } from '../images/index.ts';
import { assertCurrentPassword, noticeEmailChange, sameAddress } from './email-change.ts';
import type { MailDeps } from './invitations.ts';
import { imageUrl, presentUser } from './users.presenter.ts';
import { accountRoleFor, assertAnotherActiveAdmin, assertMayGrant, assertMayManage, findRole, holdsDriverRole, rolePermissions } from './users.policies.ts';

/** Policy: a user manages their own profile; anyone else's needs USER_UPDATE. */
function assertMayEdit(ctx: AuthContext, userId: string): void {
  if (ctx.userId !== userId && !ctx.permissions.has('USER_UPDATE')) {
    throw forbidden('You may only edit your own profile', 'Missing permission: USER_UPDATE');
  }
}

export async function findUser(db: DbOrTx, orgId: string, userId: string) {
  const rows = await db
    .select({ user: users, roleName: roles.name })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.id, userId), eq(users.organizationId, orgId)));
  const row = rows[0];
  if (!row) throw notFound('User');
  return row;
}

export async function getUser({ db, orgId }: ReadScope, ctx: AuthContext, userId: string): Promise<User> {
  if (ctx.userId !== userId && !ctx.permissions.has('USER_READ')) throw forbidden();
  // The built-in Driver role holds USER_READ for its own profile screen only: to a driver another user is not found.
  if (ctx.userId !== userId && (await holdsDriverRole(db, ctx.userId))) throw notFound('User');
  const row = await findUser(db, orgId, userId);
  return presentUser(row.user, row.roleName);
}

/**
 * Edits a profile: a user's own, or anyone's with USER_UPDATE. Changing `roleId` needs
 * USER_UPDATE, holding every code of both the old and the new role, and keeps one active admin.
 */
export async function updateProfile(
  { db, orgId, actor }: Scope,
  ctx: AuthContext,
  mail: Omit<MailDeps, 'db'>,
  userId: string,
  input: UserProfileInput & { email: string; roleId?: string; currentPassword?: string },
): Promise<User> {
  assertMayEdit(ctx, userId);
  const before = await findUser(db, orgId, userId);
  // Your own new e-mail (where password resets go) is as strong as your password (decision 0227).
  const ownEmailChange = ctx.userId === userId && !sameAddress(input.email, before.user.email);
  if (ownEmailChange) await assertCurrentPassword(before.user.passwordHash, input.currentPassword);
  const roleChange = input.roleId !== undefined && input.roleId !== before.user.roleId;
  if (roleChange && !ctx.permissions.has('USER_UPDATE')) throw forbidden('You cannot change your own role', 'Missing permission: USER_UPDATE');
  // Editing someone else (e-mail included, which leads to their password reset) needs every code they hold.
  if (ctx.userId !== userId) assertMayManage(ctx, { id: userId, permissions: await userPermissions(db, before.user) });
  try {
    return await db.transaction(async (tx) => {
      let role: { roleId: string; role: 'ADMIN' | 'USER'; name: string } | null = null;
      if (roleChange && input.roleId) {
        const next = await findRole(tx, orgId, input.roleId);
        if (!next) throw invalidField('roleId', 'Role is not valid.');
        assertMayGrant(ctx, rolePermissions(next));
        if (before.user.role === 'ADMIN' && next.systemRole !== 'ADMIN' && before.user.status === 'ACTIVE') await assertAnotherActiveAdmin(tx, orgId, userId);
        role = { roleId: next.id, role: accountRoleFor(next), name: next.name };
      }
      const [after] = await tx
        .update(users)
        .set({
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email,
          // The username follows the e-mail while it was the e-mail.
          username: before.user.username === before.user.email ? input.email : before.user.username,
          position: input.position ?? null,
          phone: input.phone ?? null,
          timeZone: input.timeZone ?? null,
          ...(role ? { roleId: role.roleId, role: role.role } : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(users.id, userId), eq(users.organizationId, orgId)))
        .returning();
      if (!after) throw notFound('User');
      // A driver row shows its account's e-mail (migration 0037: the API, not a trigger, moves the list).
      if (after.email !== before.user.email) await bumpListVersion(tx, orgId, 'drivers');
      await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'USER', entityId: userId, before: before.user, after });
      // Last, and before the commit: a change whose notice cannot be sent does not happen.
      if (ownEmailChange) await noticeEmailChange(tx, mail, after, before.user.email, after.email);
      return presentUser(after, role ? role.name : before.roleName);
    });
  } catch (err) {
    throw duplicateError(err) ?? err;
  }
}

/** Every code a user holds through its account role and assigned role. */
export async function userPermissions(tx: DbOrTx, user: { role: string; roleId: string | null; organizationId: string | null }): Promise<readonly string[]> {
  if (user.role === 'ADMIN') return ORGANIZATION_PERMISSIONS;
  if (!user.roleId || !user.organizationId) return [];
  return rolePermissions(await findRole(tx, user.organizationId, user.roleId));
}

export async function setProfileImage({ db, orgId, actor }: Scope, ctx: AuthContext, userId: string, data: Buffer | null): Promise<string | null> {
  assertMayEdit(ctx, userId);
  const before = await findUser(db, orgId, userId);
  return db.transaction(async (tx) => {
    const imageId = data ? await storeImage(tx, orgId, data, null, { uploader: uploaderOf(actor), owner: { type: 'USER', id: userId } }) : null;
    await tx.update(users).set({ profileImageId: imageId, updatedAt: new Date() }).where(eq(users.id, userId));
    if (before.user.profileImageId) await deleteImage(tx, before.user.profileImageId);
    await recordActivity(tx, {
      orgId,
      actor,
      action: data ? 'UPDATE_IMAGE' : 'DELETE_IMAGE',
      entityType: 'USER',
      entityId: userId,
      before: { profileImageId: before.user.profileImageId },
      after: { profileImageId: imageId },
    });
    return imageUrl(imageId);
  });
}

/**
 * Own password only; the current one must be right. Every session of the user ends (their access
 * tokens and open streams too, on every instance); the one asking goes on with the new session answered.
 */
export async function changePassword(
  { db, orgId, actor }: Scope,
  ctx: AuthContext,
  tokens: AccessTokens,
  userId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<Tokens> {
  if (ctx.userId !== userId) throw forbidden('You may only change your own password');
  const { user } = await findUser(db, orgId, userId);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw invalidField('currentPassword', 'Current password is not correct', 'users.current_password_wrong');
  }
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
    const { sessionEpoch } = await revokeAllSessions(tx, userId);
    await recordActivity(tx, { orgId, actor, action: 'CHANGE_PASSWORD', entityType: 'USER', entityId: userId });
    return issueSession(tx, tokens, { userId, orgId: ctx.orgId, sessionEpoch });
  });
}

/** True when another account already uses this e-mail. */
export async function emailTaken(db: Db, email: string, exceptUserId?: string): Promise<boolean> {
  const cond = sql`lower(${users.email}) = ${email.toLowerCase()}`;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(exceptUserId ? and(cond, ne(users.id, exceptUserId)) : cond);
  return rows.length > 0;
}
