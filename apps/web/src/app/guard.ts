import type { CurrentUser } from '@fleet/api-contract';
import { canOpenRoute, isSuperAdmin } from '@fleet/api-contract/permissions';
import { homePath } from '../lib/auth-store.ts';
import { findRoute, type AppRoute } from './routes.ts';

export const LOGIN_PATH = '/';
export const UNDER_DEVELOPMENT_PATH = '/under-development';
export const ACCESS_DENIED_PATH = '/access-denied';
/** The office landing page: links, bookmarks and the logo lead here whoever is signed in. */
export const DASHBOARD_PATH = '/dashboard';

/**
 * Spec section 2, navigation guard: where a user opening `route` must go instead, or null to stay.
 * Order: sign-in, then the under-development mark, then permissions.
 */
export function guardRedirect(
  route: Pick<AppRoute, 'path' | 'access' | 'permissions' | 'children' | 'underDevelopment' | 'ownProfile' | 'ownDriver'>,
  user: CurrentUser | null,
): string | null {
  switch (route.access) {
    case 'public':
      return user ? homePath(user) : null;
    case 'exempt':
      return null;
    case 'not-found':
      return user ? null : LOGIN_PATH;
    case 'private':
      if (!user) return LOGIN_PATH;
      if (route.underDevelopment) return UNDER_DEVELOPMENT_PATH;
      if (!mayOpen(user, route)) {
        // Landing on the dashboard without it (a super administrator, a driver) is not a denied request: go home.
        const home = homePath(user);
        return route.path === DASHBOARD_PATH && home !== DASHBOARD_PATH ? home : ACCESS_DENIED_PATH;
      }
      return null;
  }
}

/** Whether the menus may show a link to `path` (spec: an entry is shown only if the user may open its path). */
export function canOpenPath(user: CurrentUser | null, path: string): boolean {
  const route = findRoute(path);
  if (!route || !user) return false;
  return route.access === 'private' ? mayOpen(user, route) : true;
}

function mayOpen(user: CurrentUser, route: Pick<AppRoute, 'permissions' | 'children' | 'ownProfile' | 'ownDriver'>): boolean {
  if (route.ownProfile && isSuperAdmin(user)) return false;
  // The driver screens need a driver record linked to the account, not only the codes (an administrator holds them too).
  if (route.ownDriver && !user.driverId) return false;
  return canOpenRoute(user, route);
}
