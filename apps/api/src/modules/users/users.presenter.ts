import type { CurrentUser, User } from '@fleet/api-contract';
import type { users } from '../../db/schema/index.ts';
import { type AuthContext, visiblePermissions } from '../auth/index.ts';
import { optionalImageLink } from '../images/index.ts';

type UserRow = typeof users.$inferSelect;

/** An avatar or logo as a signed link: an <img src> sends no token, and images are never public (issue 43). */
export const imageUrl = (imageId: string | null) => optionalImageLink(imageId);

/** The user as others see it: never the password hash. */
export function presentUser(u: UserRow, roleName: string | null): User {
  return {
    id: u.id,
    organizationId: u.organizationId,
    firstName: u.firstName,
    lastName: u.lastName,
    username: u.username,
    email: u.email,
    position: u.position,
    phone: u.phone,
    timeZone: u.timeZone,
    profilePicture: imageUrl(u.profileImageId),
    role: u.role,
    roleId: u.roleId,
    roleName,
    status: u.status,
    lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
    createdAt: u.createdAt.toISOString(),
  };
}

export function presentCurrentUser(
  u: UserRow,
  ctx: AuthContext,
  organization: { id: string; name: string; timeZone?: string } | null,
  roleName: string | null,
  driverId: string | null = null,
): CurrentUser {
  return {
    id: u.id,
    role: u.role,
    roleId: u.roleId,
    roleName,
    organization,
    permissions: visiblePermissions(ctx),
    firstName: u.firstName,
    lastName: u.lastName,
    username: u.username,
    email: u.email,
    profilePicture: imageUrl(u.profileImageId),
    position: u.position,
    phone: u.phone,
    timeZone: u.timeZone,
    driverId,
  };
}
