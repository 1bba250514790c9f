import type { ComponentType } from 'react';
import type { Permission } from '@fleet/api-contract';

/**
 * How the guard treats a route (spec section 2, navigation guard):
 * - `public`: sign-in pages; a signed-in user is sent home.
 * - `exempt`: under development and access denied; anyone may stay.
 * - `not-found`: the catch-all; signed-out users go to login.
 * - `private`: sign-in required, then the under-development mark, then the permission codes.
 */
export type RouteAccess = 'public' | 'exempt' | 'not-found' | 'private';

export type PageModule = { default: ComponentType };

export interface AppRoute {
  /** Absolute path in React Router syntax (`:id` for parameters). */
  path: string;
  title: string;
  access: RouteAccess;
  /** Every code is required (spec section 5). None: sign-in only, or allowed when any child is. */
  permissions?: readonly Permission[];
  underDevelopment?: boolean;
  /** The screen is the signed-in driver's own (decision 0115): only for an account linked to a driver record. */
  ownDriver?: boolean;
  /**
   * The screen edits the signed-in user's own organization profile. A super administrator has none (not
   * even while controlling an organization, where the guard otherwise grants every organization code).
   */
  ownProfile?: boolean;
  /** The screen speaks only the words loaded with the app (i18n/en.ts): it does not wait for the rest (issue 67). */
  firstWordsOnly?: boolean;
  /** Lazy screen from src/features/<domain>/<page>.tsx. Parents without one show their children. */
  page?: () => Promise<PageModule>;
  children?: readonly AppRoute[];
}

const ORG_SETTINGS = '/settings/organization-settings';

/** Every route of the product (spec section 2). This table drives the router, the guard and the menus. */
export const ROUTES: readonly AppRoute[] = [
  { path: '/', title: 'Log in', access: 'public', page: () => import('../features/auth/login-page.tsx') },
  { path: '/getting-started', title: 'Getting started', access: 'public', page: () => import('../features/auth/getting-started-page.tsx') },
  { path: '/learn-more', title: 'About Fleetline', access: 'public', page: () => import('../features/auth/learn-more-page.tsx') },
  { path: '/reset-password', title: 'Reset password', access: 'public', page: () => import('../features/auth/reset-password-page.tsx') },
  {
    path: '/create-new-password/:token',
    title: 'Create new password',
    access: 'public',
    page: () => import('../features/auth/create-new-password-page.tsx'),
  },
  // Exempt: the owner may still be signed in somewhere when the link arrives (decision 0227).
  {
    path: '/undo-email-change/:token',
    title: 'Undo the change of e-mail',
    access: 'exempt',
    page: () => import('../features/auth/undo-email-change-page.tsx'),
  },
  { path: '/under-development', title: 'Under development', access: 'exempt', page: () => import('../features/system/under-development-page.tsx') },
  { path: '/access-denied', title: 'Access denied', access: 'exempt', page: () => import('../features/system/access-denied-page.tsx') },
  {
    path: '/administration',
    title: 'Administration',
    access: 'private',
    permissions: ['SUPER_ADMIN'],
    children: [
      {
        path: '/administration/organizations',
        title: 'Organizations',
        access: 'private',
        permissions: ['SUPER_ADMIN'],
        page: () => import('../features/organizations/organizations-page.tsx'),
      },
      {
        path: '/administration/device-models',
        title: 'Device Models',
        access: 'private',
        permissions: ['SUPER_ADMIN'],
        page: () => import('../features/device-models/device-models-page.tsx'),
      },
      {
        path: '/administration/ifta-rates',
        title: 'IFTA Tax Rates',
        access: 'private',
        permissions: ['SUPER_ADMIN'],
        page: () => import('../features/ifta/ifta-rates-page.tsx'),
      },
      {
        path: '/administration/ingest-health',
        title: 'Ingest health',
        access: 'private',
        permissions: ['SUPER_ADMIN'],
        page: () => import('../features/organizations/ingest-health-page.tsx'),
      },
    ],
  },
  { path: '/dashboard', title: 'Dashboard', access: 'private', permissions: ['ORG_DASH_READ'], page: () => import('./dashboard-page.tsx') },
  {
    path: '/my-account',
    title: 'My account',
    access: 'private',
    permissions: ['USER_READ', 'ORG_READ'],
    ownProfile: true,
    page: () => import('../features/my-account/my-account-page.tsx'),
  },
  {
    path: '/driver',
    title: 'My day',
    access: 'private',
    permissions: ['HOS_SELF_READ'],
    ownDriver: true,
    firstWordsOnly: true,
    page: () => import('./driver-home-page.tsx'),
  },
  {
    path: '/driver/inspection',
    title: 'Roadside inspection',
    access: 'private',
    permissions: ['HOS_SELF_READ'],
    ownDriver: true,
    page: () => import('./driver-roadside-page.tsx'),
  },
  // Issue 44: the driver's conversation with dispatch, and the office's inbox.
  {
    path: '/driver/messages',
    title: 'Messages',
    access: 'private',
    permissions: ['MESSAGE_SEND'],
    ownDriver: true,
    page: () => import('../features/messages/driver-messages-page.tsx'),
  },
  // Issue 47: the driver's own safety events and score (acknowledge coaching, dispute an event).
  {
    path: '/driver/safety',
    title: 'My safety',
    access: 'private',
    permissions: ['HOS_SELF_READ'],
    ownDriver: true,
    page: () => import('../features/safety/driver-safety-page.tsx'),
  },
  // Issue 70: the driver's own pay statements (approved settlements), read with their loads' code.
  {
    path: '/driver/pay',
    title: 'Pay statements',
    access: 'private',
    permissions: ['LOAD_SELF_WRITE'],
    ownDriver: true,
    page: () => import('../features/settlements/driver-pay-page.tsx'),
  },
  { path: '/messages', title: 'Messages', access: 'private', permissions: ['MESSAGE_LIST'], page: () => import('../features/messages/messages-page.tsx') },
  // Issue 70: driver settlements and pay profiles (the office's).
  {
    path: '/settlements',
    title: 'Driver settlements',
    access: 'private',
    permissions: ['SETTLEMENT_LIST'],
    page: () => import('../features/settlements/settlements-page.tsx'),
    children: [
      {
        path: '/settlements/pay',
        title: 'Pay profiles',
        access: 'private',
        permissions: ['SETTLEMENT_LIST'],
        page: () => import('../features/settlements/pay-profiles-page.tsx'),
      },
      {
        path: '/settlements/:id',
        title: 'Settlement',
        access: 'private',
        permissions: ['SETTLEMENT_LIST'],
        page: () => import('../features/settlements/settlement-page.tsx'),
      },
    ],
  },
  { path: '/fleet', title: 'Fleet', access: 'private', page: () => import('../features/fleet/fleet-page.tsx') },
  { path: '/search', title: 'Search', access: 'private', page: () => import('../features/search/search-page.tsx') },
  { path: '/help', title: 'Help', access: 'private', page: () => import('../features/help/help-page.tsx') },
  {
    path: '/notifications',
    title: 'Notifications',
    access: 'private',
    page: () => import('../features/notifications/notifications-page.tsx'),
  },
  { path: '/ifta', title: 'Fuel costs (IFTA)', access: 'private', permissions: ['IFTA_LIST'], page: () => import('../features/ifta/ifta-page.tsx') },
  {
    path: '/fuel-transactions',
    title: 'Fuel transactions',
    access: 'private',
    permissions: ['IFTA_LIST'],
    page: () => import('../features/fuel-cards/fuel-transactions-page.tsx'),
  },
  {
    path: '/fuel-events',
    title: 'Fuel level',
    access: 'private',
    permissions: ['IFTA_LIST'],
    page: () => import('../features/fuel-cards/fuel-events-page.tsx'),
  },
  { path: '/map', title: 'Map', access: 'private', permissions: ['ASSET_LIST'], page: () => import('../features/map/map-page.tsx') },
  {
    path: '/map/history',
    title: 'History Route',
    access: 'private',
    permissions: ['HR_READ'],
    page: () => import('../features/history-routes/history-route-page.tsx'),
  },
  {
    path: '/settings',
    title: 'Settings',
    access: 'private',
    children: [
      {
        path: ORG_SETTINGS,
        title: 'Organization Settings',
        access: 'private',
        children: [
          {
            path: `${ORG_SETTINGS}/organization-account`,
            title: 'Organization account',
            access: 'private',
            permissions: ['ORG_READ', 'ORG_UPDATE'],
            page: () => import('./organization-account-route.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/user-and-roles`,
            title: 'Users & Roles',
            access: 'private',
            permissions: ['USER_LIST'],
            page: () => import('../features/users/users-and-roles-page.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/all-drivers`,
            title: 'All Drivers',
            access: 'private',
            permissions: ['DRIVER_LIST'],
            page: () => import('./drivers-route.tsx'),
          },
          // Spec: the add screens reuse their list screens (the list opens its add form).
          {
            path: `${ORG_SETTINGS}/driver-add`,
            title: 'Add driver',
            access: 'private',
            permissions: ['DRIVER_CREATE'],
            page: () => import('./drivers-route.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/trailers`,
            title: 'Trailers',
            access: 'private',
            permissions: ['ASSET_LIST'],
            page: () => import('./trailers-route.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/trailer-add`,
            title: 'Add trailer',
            access: 'private',
            permissions: ['ASSET_CREATE'],
            page: () => import('./trailers-route.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/vehicles`,
            title: 'Vehicles',
            access: 'private',
            permissions: ['ASSET_LIST'],
            page: () => import('./vehicles-route.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/vehicle-add`,
            title: 'Add vehicle',
            access: 'private',
            permissions: ['ASSET_CREATE'],
            page: () => import('./vehicles-route.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/devices`,
            title: 'Devices',
            access: 'private',
            permissions: ['GAT_LIST'],
            page: () => import('../features/gateways/devices-page.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/devices/:id`,
            title: 'Device',
            access: 'private',
            permissions: ['GAT_READ'],
            page: () => import('../features/gateways/device-page.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/device-add`,
            title: 'Add device',
            access: 'private',
            permissions: ['GAT_CREATE'],
            page: () => import('../features/gateways/devices-page.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/groups`,
            title: 'Groups',
            access: 'private',
            permissions: ['GROUP_LIST'],
            page: () => import('../features/groups/groups-page.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/groups/:id/members`,
            title: 'Group members',
            access: 'private',
            permissions: ['GROUP_READ'],
            page: () => import('../features/groups/group-members-page.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/groups/:id/assets`,
            title: 'Group assets',
            access: 'private',
            permissions: ['GROUP_READ'],
            page: () => import('../features/groups/group-assets-page.tsx'),
          },
          // Issue 46: the organization's home terminals; part of its account, so ORG_READ reads and ORG_UPDATE edits.
          // The screen is the office's: DRIVER_LIST too (a driver holds ORG_READ for their own profile).
          // Issue 48: integrations, under the organization account.
          {
            path: `${ORG_SETTINGS}/api-tokens`,
            title: 'API tokens',
            access: 'private',
            permissions: ['API_TOKEN_MANAGE'],
            page: () => import('../features/integrations/api-tokens-page.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/webhooks`,
            title: 'Webhooks',
            access: 'private',
            permissions: ['WEBHOOK_MANAGE'],
            page: () => import('../features/integrations/webhooks-page.tsx'),
          },
          {
            path: `${ORG_SETTINGS}/terminals`,
            title: 'Home terminals',
            access: 'private',
            permissions: ['ORG_READ', 'DRIVER_LIST'],
            page: () => import('../features/settings/terminals-page.tsx'),
          },
        ],
      },
      {
        path: '/settings/activity-log',
        title: 'Activity Log',
        access: 'private',
        permissions: ['ORG_READ', 'USER_LIST', 'ACTIVITY_LOG_LIST'],
        page: () => import('../features/activity-log/activity-log-page.tsx'),
      },
      {
        path: '/settings/data-retention',
        title: 'Data Retention',
        access: 'private',
        permissions: ['ORG_READ', 'RET_READ'],
        page: () => import('../features/data-retention/data-retention-page.tsx'),
      },
    ],
  },
  {
    path: '/hos',
    title: 'Hours of Service',
    access: 'private',
    children: [
      { path: '/hos/logs', title: 'HoS Logs', access: 'private', permissions: ['HOS_LIST'], page: () => import('../features/hos/hos-logs-page.tsx') },
      { path: '/hos/logs/:id', title: 'Driver log', access: 'private', permissions: ['HOS_READ'], page: () => import('./hos-driver-log-page.tsx') },
      {
        path: '/hos/violations',
        title: 'HoS Violations',
        access: 'private',
        permissions: ['VIO_LIST'],
        page: () => import('../features/hos/hos-violations-page.tsx'),
      },
      {
        path: '/hos/availability',
        title: 'HoS Availability',
        access: 'private',
        permissions: ['AVAILABILITY_LIST'],
        page: () => import('../features/hos/hos-availability-page.tsx'),
      },
      {
        path: '/hos/unidentified',
        title: 'Unidentified Driving',
        access: 'private',
        permissions: ['HOS_LIST'],
        page: () => import('../features/hos/hos-unidentified-page.tsx'),
      },
    ],
  },
  {
    // Issue 31: inspections and maintenance (the office's screens; notifications link to these paths).
    path: '/maintenance',
    title: 'Maintenance',
    access: 'private',
    page: () => import('../features/maintenance/office/maintenance-redirect.tsx'),
    children: [
      {
        path: '/maintenance/defects',
        title: 'Defects',
        access: 'private',
        permissions: ['DVIR_LIST'],
        page: () => import('../features/maintenance/office/defects-page.tsx'),
      },
      {
        path: '/maintenance/work-orders',
        title: 'Work Orders',
        access: 'private',
        permissions: ['WORK_ORDER_LIST'],
        page: () => import('../features/maintenance/office/work-orders-page.tsx'),
      },
      {
        path: '/maintenance/inspections',
        title: 'Inspections',
        access: 'private',
        permissions: ['DVIR_LIST'],
        page: () => import('../features/maintenance/office/inspections-page.tsx'),
      },
      {
        path: '/maintenance/inspections/:id',
        title: 'Inspection report',
        access: 'private',
        permissions: ['DVIR_LIST'],
        page: () => import('../features/maintenance/office/inspection-page.tsx'),
      },
      {
        path: '/maintenance/due',
        title: 'Service Due',
        access: 'private',
        permissions: ['MAINTENANCE_LIST'],
        page: () => import('../features/maintenance/office/due-page.tsx'),
      },
      {
        path: '/maintenance/schedules',
        title: 'Schedules',
        access: 'private',
        permissions: ['MAINTENANCE_LIST'],
        page: () => import('../features/maintenance/office/schedules-page.tsx'),
      },
      {
        path: '/maintenance/settings',
        title: 'Inspection Items',
        access: 'private',
        permissions: ['DVIR_LIST'],
        page: () => import('../features/maintenance/office/settings-page.tsx'),
      },
    ],
  },
  // Issue 47: driver safety, the office's inbox, scores and settings (reviewing and the settings' form need SAFETY_UPDATE).
  { path: '/safety', title: 'Safety inbox', access: 'private', permissions: ['SAFETY_LIST'], page: () => import('../features/safety/inbox-page.tsx') },
  {
    path: '/safety/events/:id',
    title: 'Safety event',
    access: 'private',
    permissions: ['SAFETY_LIST'],
    page: () => import('../features/safety/event-page.tsx'),
  },
  { path: '/safety/scores', title: 'Safety scores', access: 'private', permissions: ['SAFETY_LIST'], page: () => import('../features/safety/scores-page.tsx') },
  {
    path: '/safety/scores/drivers/:id',
    title: 'Driver safety score',
    access: 'private',
    permissions: ['SAFETY_LIST'],
    page: () => import('../features/safety/score-page.tsx'),
  },
  {
    path: '/safety/scores/vehicles/:id',
    title: 'Vehicle safety score',
    access: 'private',
    permissions: ['SAFETY_LIST'],
    page: () => import('../features/safety/score-page.tsx'),
  },
  {
    path: '/safety/settings',
    title: 'Safety settings',
    access: 'private',
    permissions: ['SAFETY_LIST'],
    page: () => import('../features/safety/settings-page.tsx'),
  },
  // Issue 71: the compliance calendar (drivers' qualification files, vehicles' and trailers' papers).
  {
    path: '/compliance',
    title: 'Compliance',
    access: 'private',
    permissions: ['COMPLIANCE_LIST'],
    page: () => import('../features/compliance/compliance-page.tsx'),
  },
  // Issue 32: places (geofences) and the trips, stops, visits and summary reports.
  { path: '/places', title: 'Places', access: 'private', permissions: ['PLACE_LIST'], page: () => import('../features/places/places-page.tsx') },
  { path: '/places/:id', title: 'Place', access: 'private', permissions: ['PLACE_LIST'], page: () => import('../features/places/place-page.tsx') },
  {
    path: '/reports',
    title: 'Reports',
    access: 'private',
    children: [
      {
        path: '/reports/trips',
        title: 'Trips',
        access: 'private',
        permissions: ['REPORT_LIST'],
        page: () => import('../features/reports/trips-report-page.tsx'),
      },
      {
        path: '/reports/stops',
        title: 'Stops',
        access: 'private',
        permissions: ['REPORT_LIST'],
        page: () => import('../features/reports/stops-report-page.tsx'),
      },
      {
        path: '/reports/visits',
        title: 'Place visits',
        access: 'private',
        permissions: ['REPORT_LIST'],
        page: () => import('../features/reports/visits-report-page.tsx'),
      },
      {
        path: '/reports/summary',
        title: 'Daily summary',
        access: 'private',
        permissions: ['REPORT_LIST'],
        page: () => import('../features/reports/summary-report-page.tsx'),
      },
      {
        path: '/reports/subscriptions',
        title: 'Scheduled reports',
        access: 'private',
        permissions: ['REPORT_LIST'],
        page: () => import('../features/reports/subscriptions-page.tsx'),
      },
    ],
  },
  // Issue 33: dispatch (loads, legal plans, candidates, live ETAs).
  {
    path: '/dispatch',
    title: 'Dispatch',
    access: 'private',
    permissions: ['LOAD_LIST'],
    page: () => import('../features/dispatch/dispatch-page.tsx'),
    children: [
      {
        path: '/dispatch/loads/new',
        title: 'New load',
        access: 'private',
        permissions: ['LOAD_LIST', 'LOAD_UPDATE'],
        page: () => import('../features/dispatch/load-form-page.tsx'),
      },
      { path: '/dispatch/loads/:id', title: 'Load', access: 'private', permissions: ['LOAD_LIST'], page: () => import('./dispatch-load-page.tsx') },
      {
        path: '/dispatch/loads/:id/edit',
        title: 'Edit load',
        access: 'private',
        permissions: ['LOAD_LIST', 'LOAD_UPDATE'],
        page: () => import('../features/dispatch/load-form-page.tsx'),
      },
      // Issue 70: the customers loads are for.
      {
        path: '/dispatch/customers',
        title: 'Customers',
        access: 'private',
        permissions: ['CUSTOMER_LIST'],
        page: () => import('../features/customers/customers-page.tsx'),
      },
    ],
  },
  // Issue 70: invoices of delivered loads, payments and aging.
  {
    path: '/invoices',
    title: 'Invoices',
    access: 'private',
    permissions: ['INVOICE_LIST'],
    page: () => import('../features/invoices/invoices-page.tsx'),
    children: [
      {
        path: '/invoices/new',
        title: 'New invoice',
        access: 'private',
        permissions: ['INVOICE_LIST', 'INVOICE_UPDATE'],
        page: () => import('../features/invoices/invoice-new-page.tsx'),
      },
      {
        path: '/invoices/aging',
        title: 'Aging report',
        access: 'private',
        permissions: ['INVOICE_LIST'],
        page: () => import('../features/invoices/aging-page.tsx'),
      },
      {
        path: '/invoices/:id',
        title: 'Invoice',
        access: 'private',
        permissions: ['INVOICE_LIST'],
        page: () => import('../features/invoices/invoice-page.tsx'),
      },
    ],
  },
  {
    path: '/analytics',
    title: 'Analytics',
    access: 'private',
    children: [
      {
        path: '/analytics/revenue',
        title: 'Revenue',
        access: 'private',
        permissions: ['ANALYTICS_REVENUE'],
        page: () => import('../features/analytics/revenue-page.tsx'),
      },
      {
        path: '/analytics/fleet-performance',
        title: 'Fleet Performance',
        access: 'private',
        permissions: ['ANALYTICS_FLEET_PERFORMANCE'],
        page: () => import('../features/analytics/fleet-performance-page.tsx'),
      },
    ],
  },
  { path: '*', title: 'Page not found', access: 'not-found', page: () => import('../features/system/not-found-page.tsx') },
];

/** Every route with its parent, depth first. */
export function flattenRoutes(routes: readonly AppRoute[] = ROUTES, parent: AppRoute | null = null): { route: AppRoute; parent: AppRoute | null }[] {
  return routes.flatMap((route) => [{ route, parent }, ...flattenRoutes(route.children ?? [], route)]);
}

function matches(pattern: string, pathname: string): boolean {
  const a = pattern.split('/').filter(Boolean);
  const b = pathname.split('?')[0]!.split('/').filter(Boolean);
  return a.length === b.length && a.every((seg, i) => seg.startsWith(':') || seg === b[i]);
}

/** The table entry for a concrete path (`/hos/logs/42` -> `/hos/logs/:id`), or undefined. */
export function findRoute(pathname: string, routes: readonly AppRoute[] = ROUTES): AppRoute | undefined {
  const all = flattenRoutes(routes)
    .map((x) => x.route)
    .filter((r) => r.path !== '*');
  // Static segments win over parameters (`/devices/add` before `/devices/:id`).
  return all.find((r) => r.path === pathname) ?? all.find((r) => matches(r.path, pathname));
}
