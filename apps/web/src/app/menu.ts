import type { ComponentType } from 'react';
import type { CurrentUser } from '@fleet/api-contract';
import {
  IconBuildingSkyscraper,
  IconChartBar,
  IconHeartbeat,
  IconClockHour4,
  IconCpu,
  IconDashboard,
  IconFileAnalytics,
  IconFileInvoice,
  IconMap2,
  IconMapPin,
  IconMessage,
  IconMessages,
  IconReceiptTax,
  IconReportMoney,
  IconRoute,
  IconSettings,
  IconShieldCheck,
  IconShieldHalf,
  IconShieldLock,
  IconSteeringWheel,
  IconTool,
  IconTruckDelivery,
} from '@tabler/icons-react';
import { canOpenPath } from './guard.ts';

type Icon = ComponentType<{ size?: number | string; stroke?: number }>;

/** Spec section 3, menu item: title, path, icon, label and sub-items. */
export interface MenuItem {
  title: string;
  path: string;
  icon?: Icon;
  label?: string;
  /** The catalogue key of the title where it is translated (the driver's items, issue 44); `title` is the English. */
  titleKey?: string;
  subSectionItems?: MenuItem[];
  /** Other screens this item stands for, marked as it (a tab of the same screen at its own path). */
  alsoActiveOn?: string[];
}

const ORG = '/settings/organization-settings';

/** Side menu groups of spec section 2, and the driver's own group (decision 0115). */
export const SIDE_MENU: MenuItem[] = [
  {
    title: 'Driver',
    titleKey: 'nav.driver',
    path: '/driver',
    icon: IconSteeringWheel,
    subSectionItems: [
      { title: 'My day', titleKey: 'nav.myDay', path: '/driver' },
      { title: 'Roadside inspection', titleKey: 'nav.roadside', path: '/driver/inspection' },
      { title: 'Messages', titleKey: 'nav.messages', path: '/driver/messages' },
      { title: 'My safety', titleKey: 'nav.mySafety', path: '/driver/safety' },
      { title: 'Pay statements', titleKey: 'nav.pay', path: '/driver/pay' },
    ],
  },
  {
    title: 'Administration',
    path: '/administration',
    icon: IconShieldLock,
    subSectionItems: [
      { title: 'Organizations', path: '/administration/organizations', icon: IconBuildingSkyscraper },
      { title: 'Device Models', path: '/administration/device-models', icon: IconCpu },
      { title: 'IFTA Tax Rates', path: '/administration/ifta-rates', icon: IconReceiptTax },
      { title: 'Ingest health', path: '/administration/ingest-health', icon: IconHeartbeat },
    ],
  },
  {
    title: 'Settings',
    titleKey: 'nav.settings',
    path: '/settings',
    icon: IconSettings,
    subSectionItems: [
      { title: 'Profile Settings', titleKey: 'nav.profileSettings', path: '/my-account' },
      {
        title: 'Organization Settings',
        path: ORG,
        subSectionItems: [
          { title: 'Users & Roles', path: `${ORG}/user-and-roles` },
          { title: 'All Drivers', path: `${ORG}/all-drivers` },
          { title: 'Vehicles', path: `${ORG}/vehicles` },
          { title: 'Trailers', path: `${ORG}/trailers` },
          { title: 'Devices', path: `${ORG}/devices` },
          { title: 'Groups', path: `${ORG}/groups` },
          { title: 'Home terminals', path: `${ORG}/terminals` },
          { title: 'API tokens', path: `${ORG}/api-tokens` },
          { title: 'Webhooks', path: `${ORG}/webhooks` },
        ],
      },
      { title: 'Activity Log', path: '/settings/activity-log' },
      { title: 'Data Retention', path: '/settings/data-retention' },
    ],
  },
  {
    title: 'Hours of Service',
    path: '/hos',
    icon: IconClockHour4,
    subSectionItems: [
      { title: 'HoS Logs', path: '/hos/logs' },
      { title: 'HoS Violations', path: '/hos/violations' },
      { title: 'HoS Availability', path: '/hos/availability' },
      { title: 'Unidentified Driving', path: '/hos/unidentified' },
    ],
  },
  {
    title: 'Maintenance',
    path: '/maintenance',
    icon: IconTool,
    subSectionItems: [
      { title: 'Defects', path: '/maintenance/defects' },
      { title: 'Work Orders', path: '/maintenance/work-orders' },
      { title: 'Inspections', path: '/maintenance/inspections' },
      { title: 'Service Due', path: '/maintenance/due' },
      { title: 'Schedules', path: '/maintenance/schedules' },
      { title: 'Inspection Items', path: '/maintenance/settings' },
    ],
  },
  {
    title: 'Dispatch',
    path: '/dispatch',
    icon: IconTruckDelivery,
    subSectionItems: [
      { title: 'Loads board', path: '/dispatch' },
      { title: 'New load', path: '/dispatch/loads/new' },
      { title: 'Customers', path: '/dispatch/customers' },
    ],
  },
  {
    title: 'Billing',
    path: '/invoices',
    icon: IconFileInvoice,
    subSectionItems: [
      { title: 'Invoices', path: '/invoices' },
      { title: 'New invoice', path: '/invoices/new' },
      { title: 'Aging report', path: '/invoices/aging' },
    ],
  },
  { title: 'Messages', path: '/messages', icon: IconMessages },
  {
    title: 'Driver pay',
    path: '/settlements',
    icon: IconReportMoney,
    subSectionItems: [
      { title: 'Settlements', path: '/settlements' },
      { title: 'Pay profiles', path: '/settlements/pay' },
    ],
  },
  {
    title: 'Safety',
    titleKey: 'nav.safety',
    path: '/safety',
    icon: IconShieldHalf,
    subSectionItems: [
      { title: 'Safety inbox', titleKey: 'nav.safetyInbox', path: '/safety' },
      { title: 'Scores', titleKey: 'nav.safetyScores', path: '/safety/scores' },
      { title: 'Safety settings', titleKey: 'nav.safetySettings', path: '/safety/settings' },
    ],
  },
  // Issue 71: the papers of drivers, vehicles and trailers, beside Safety.
  { title: 'Compliance', path: '/compliance', icon: IconShieldCheck },
  { title: 'Places', path: '/places', icon: IconMapPin },
  {
    title: 'Reports',
    path: '/reports',
    icon: IconFileAnalytics,
    subSectionItems: [
      { title: 'Trips', path: '/reports/trips' },
      { title: 'Stops', path: '/reports/stops' },
      { title: 'Place visits', path: '/reports/visits' },
      { title: 'Daily summary', path: '/reports/summary' },
      { title: 'Scheduled reports', path: '/reports/subscriptions' },
    ],
  },
  {
    title: 'Analytics',
    path: '/analytics',
    icon: IconChartBar,
    subSectionItems: [
      { title: 'Revenue', path: '/analytics/revenue' },
      { title: 'Fleet Performance', path: '/analytics/fleet-performance' },
      { title: 'Fuel costs (IFTA)', path: '/ifta' },
      { title: 'Fuel transactions', path: '/fuel-transactions', alsoActiveOn: ['/fuel-events'] },
    ],
  },
];

/** Default header navigation list (spec section 2), also the mobile bottom navigation. */
export const HEADER_NAV: MenuItem[] = [
  // A driver's own screens (shown only to accounts linked to a driver record).
  { title: 'My day', titleKey: 'nav.myDay', path: '/driver', icon: IconSteeringWheel },
  { title: 'Inspection', titleKey: 'nav.inspection', path: '/driver/inspection', icon: IconShieldCheck },
  { title: 'Messages', titleKey: 'nav.messages', path: '/driver/messages', icon: IconMessage },
  { title: 'History Route', path: '/map/history', icon: IconRoute },
  { title: 'Map', path: '/map', icon: IconMap2 },
  { title: 'Dashboard', path: '/dashboard', icon: IconDashboard },
];

/** The items with their titles in the user's language where a catalogue key is given. */
export function translateMenu(items: readonly MenuItem[], t: (key: string) => string): MenuItem[] {
  return items.map((i) => ({ ...i, title: i.titleKey ? t(i.titleKey) : i.title, subSectionItems: i.subSectionItems && translateMenu(i.subSectionItems, t) }));
}

/** The items with `label` set on the one at `path` (a count shown beside it: unread messages); unchanged without one. */
export function withLabel(items: readonly MenuItem[], path: string, label: string | undefined): MenuItem[] {
  return items.map((i) => (i.path === path ? { ...i, label } : i.subSectionItems ? { ...i, subSectionItems: withLabel(i.subSectionItems, path, label) } : i));
}

/**
 * Keeps only what the user may open: a leaf needs its path allowed; a group needs at least one
 * permitted sub-item (it is hidden otherwise) and keeps only those.
 */
export function filterMenu(items: readonly MenuItem[], user: CurrentUser | null, canOpen = canOpenPath): MenuItem[] {
  const out: MenuItem[] = [];
  for (const item of items) {
    if (item.subSectionItems?.length) {
      const subSectionItems = filterMenu(item.subSectionItems, user, canOpen);
      if (subSectionItems.length) out.push({ ...item, subSectionItems });
    } else if (canOpen(user, item.path)) {
      out.push(item);
    }
  }
  return out;
}
