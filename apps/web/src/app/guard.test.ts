import { describe, expect, it } from 'vitest';
import { canOpenPath, guardRedirect } from './guard.ts';
import { findRoute, ROUTES, flattenRoutes, type AppRoute } from './routes.ts';
import { adminUser, dispatcherUser, superAdminUser } from '../test/fixtures.ts';
import { accessUser } from '../lib/control-store.ts';

const route = (path: string): AppRoute => {
  const r = path === '*' ? ROUTES.find((x) => x.path === '*') : findRoute(path);
  if (!r) throw new Error(`no route ${path}`);
  return r;
};

describe('navigation guard', () => {
  it('sends a signed-out visitor of a private route to login', () => {
    expect(guardRedirect(route('/dashboard'), null)).toBe('/');
    expect(guardRedirect(route('/hos/logs/abc'), null)).toBe('/');
  });

  it('sends a signed-out visitor of an unknown path to login, and lets a signed-in user see not found', () => {
    expect(guardRedirect(route('*'), null)).toBe('/');
    expect(guardRedirect(route('*'), adminUser())).toBeNull();
  });

  it('checks sign-in before the under-development mark', () => {
    const marked = { path: '/analytics/someday', access: 'private' as const, underDevelopment: true };
    expect(guardRedirect(marked, null)).toBe('/');
    expect(guardRedirect(marked, adminUser())).toBe('/under-development');
  });

  it('marks no route under development any more (issue 18 built help, notifications and fleet performance; issue 33 revenue)', () => {
    const marked = flattenRoutes()
      .filter((x) => x.route.underDevelopment)
      .map((x) => x.route.path);
    expect(marked).toEqual([]);
    for (const p of ['/help', '/notifications', '/analytics/fleet-performance', '/analytics/revenue']) expect(guardRedirect(route(p), adminUser())).toBeNull();
    // The login footer's "Learn more" page is public: signed out it shows, signed in it sends home.
    expect(guardRedirect(route('/learn-more'), null)).toBeNull();
  });

  it('lets a driver open only their own screens, lands them on /driver, and refuses the office screens (decision 0115)', () => {
    const driver = { ...dispatcherUser(), driverId: 'driver-1', permissions: ['HOS_SELF_READ', 'HOS_SELF_WRITE', 'USER_READ', 'ORG_READ'] };
    expect(guardRedirect(route('/driver'), driver)).toBeNull();
    expect(guardRedirect(route('/driver/inspection'), driver)).toBeNull();
    expect(guardRedirect(route('/my-account'), driver)).toBeNull();
    expect(guardRedirect(route('/dashboard'), driver)).toBe('/driver');
    for (const p of ['/hos/logs', '/hos/availability', '/hos/unidentified', '/map', '/settings/organization-settings/all-drivers'])
      expect(guardRedirect(route(p), driver), p).toBe('/access-denied');
    expect(guardRedirect(route('/'), driver)).toBe('/driver');
    // The codes without a driver record (an administrator): no driver screen, the dashboard as home.
    expect(guardRedirect(route('/driver'), adminUser())).toBe('/access-denied');
    expect(guardRedirect(route('/'), adminUser())).toBe('/dashboard');
  });

  it('sends a user without the permission codes to access denied', () => {
    expect(guardRedirect(route('/settings/organization-settings/user-and-roles'), dispatcherUser())).toBe('/access-denied');
    expect(guardRedirect(route('/settings/organization-settings/user-and-roles'), adminUser())).toBeNull();
    expect(guardRedirect(route('/administration/organizations'), adminUser())).toBe('/access-denied');
  });

  it('requires every listed code (my account needs USER_READ and ORG_READ)', () => {
    const partial = { ...dispatcherUser(), permissions: ['USER_READ'] };
    expect(guardRedirect(route('/my-account'), partial)).toBe('/access-denied');
    expect(guardRedirect(route('/my-account'), dispatcherUser())).toBeNull();
  });

  it('lets a super administrator (no organization) open only SUPER_ADMIN or sign-in-only routes', () => {
    const sa = superAdminUser();
    expect(guardRedirect(route('/administration/organizations'), sa)).toBeNull();
    expect(guardRedirect(route('/fleet'), sa)).toBeNull();
    expect(guardRedirect(route('/hos/logs'), sa)).toBe('/access-denied');
  });

  it('sends a super administrator landing on the dashboard to the organizations list, not access denied', () => {
    expect(guardRedirect(route('/dashboard'), superAdminUser())).toBe('/administration/organizations');
    expect(guardRedirect(route('/dashboard'), { ...superAdminUser(), permissions: ['SUPER_ADMIN', 'ORG_DASH_READ'] })).toBe('/administration/organizations');
    // Controlling an organization it opens that organization's dashboard.
    expect(guardRedirect(route('/dashboard'), accessUser(superAdminUser(), { id: 'org-1', name: 'Controlled Co' }))).toBeNull();
  });

  it('keeps a super administrator controlling an organization out of my account (it has no profile there)', () => {
    const controlling = accessUser(superAdminUser(), { id: 'org-1', name: 'Controlled Co' });
    expect(guardRedirect(route('/settings/organization-settings/vehicles'), controlling)).toBeNull();
    expect(guardRedirect(route('/my-account'), controlling)).toBe('/access-denied');
    expect(canOpenPath(controlling, '/my-account')).toBe(false);
  });

  it('allows a parent without permissions of its own when any child is allowed', () => {
    expect(guardRedirect(route('/settings'), dispatcherUser())).toBeNull();
    expect(guardRedirect(route('/analytics'), dispatcherUser())).toBe('/access-denied');
    expect(guardRedirect(route('/analytics'), adminUser())).toBeNull();
    expect(guardRedirect(route('/settings'), superAdminUser())).toBe('/access-denied');
  });

  it('sends a signed-in user away from the public pages: super administrators to organizations, others to the dashboard', () => {
    for (const p of ['/', '/getting-started', '/reset-password', '/create-new-password/tok']) {
      expect(guardRedirect(route(p), null)).toBeNull();
      expect(guardRedirect(route(p), adminUser())).toBe('/dashboard');
      expect(guardRedirect(route(p), superAdminUser())).toBe('/administration/organizations');
    }
  });

  it('leaves the under-development and access-denied pages open to everyone', () => {
    for (const p of ['/under-development', '/access-denied']) {
      expect(guardRedirect(route(p), null)).toBeNull();
      expect(guardRedirect(route(p), adminUser())).toBeNull();
    }
  });

  it('matches parameter routes and prefers static segments', () => {
    expect(findRoute('/settings/organization-settings/devices/42')?.path).toBe('/settings/organization-settings/devices/:id');
    expect(findRoute('/settings/organization-settings/device-add')?.title).toBe('Add device');
    expect(findRoute('/nope')).toBeUndefined();
  });

  it('answers canOpenPath for menu links', () => {
    expect(canOpenPath(dispatcherUser(), '/hos/logs')).toBe(true);
    expect(canOpenPath(dispatcherUser(), '/settings/data-retention')).toBe(false);
    expect(canOpenPath(null, '/hos/logs')).toBe(false);
  });
});
