// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { filterMenu, HEADER_NAV, SIDE_MENU, type MenuItem } from './menu.ts';
import { adminUser, dispatcherUser, superAdminUser } from '../test/fixtures.ts';
import { accessUser } from '../lib/control-store.ts';

const titles = (items: MenuItem[]): unknown => items.map((i) => (i.subSectionItems ? { [i.title]: titles(i.subSectionItems) } : i.title));

describe('side menu filtering', () => {
  it('shows an organization administrator every organization group but not Administration', () => {
    expect(titles(filterMenu(SIDE_MENU, adminUser()))).toEqual([
      {
        Settings: [
          'Profile Settings',
          {
            'Organization Settings': ['Users & Roles', 'All Drivers', 'Vehicles', 'Trailers', 'Devices', 'Groups', 'Home terminals', 'API tokens', 'Webhooks'],
          },
          'Activity Log',
          'Data Retention',
        ],
      },
      { 'Hours of Service': ['HoS Logs', 'HoS Violations', 'HoS Availability', 'Unidentified Driving'] },
      { Maintenance: ['Defects', 'Work Orders', 'Inspections', 'Service Due', 'Schedules', 'Inspection Items'] },
      { Dispatch: ['Loads board', 'New load', 'Customers'] },
      { Billing: ['Invoices', 'New invoice', 'Aging report'] },
      'Messages',
      { 'Driver pay': ['Settlements', 'Pay profiles'] },
      { Safety: ['Safety inbox', 'Scores', 'Safety settings'] },
      'Compliance',
      'Places',
      { Reports: ['Trips', 'Stops', 'Place visits', 'Daily summary', 'Scheduled reports'] },
      { Analytics: ['Revenue', 'Fleet Performance', 'Fuel costs (IFTA)', 'Fuel transactions'] },
    ]);
  });

  it('shows the dispatcher only what its role opens, and drops settings administration', () => {
    expect(titles(filterMenu(SIDE_MENU, dispatcherUser()))).toEqual([
      { Settings: ['Profile Settings', { 'Organization Settings': ['All Drivers', 'Vehicles', 'Trailers', 'Devices', 'Groups', 'Home terminals'] }] },
      { 'Hours of Service': ['HoS Logs', 'HoS Violations', 'HoS Availability', 'Unidentified Driving'] },
      { Maintenance: ['Defects', 'Work Orders', 'Inspections', 'Service Due', 'Schedules', 'Inspection Items'] },
      { Dispatch: ['Loads board', 'New load', 'Customers'] },
      'Messages',
      { Safety: ['Safety inbox', 'Scores', 'Safety settings'] },
      'Places',
      { Analytics: ['Fuel costs (IFTA)', 'Fuel transactions'] },
    ]);
  });

  it('shows a super administrator only the Administration group', () => {
    expect(titles(filterMenu(SIDE_MENU, superAdminUser()))).toEqual([
      { Administration: ['Organizations', 'Device Models', 'IFTA Tax Rates', 'Ingest health'] },
    ]);
  });

  it('shows a super administrator controlling an organization its settings, without Profile Settings', () => {
    const controlling = accessUser(superAdminUser(), { id: 'org-1', name: 'Controlled Co' });
    const settings = filterMenu(SIDE_MENU, controlling).find((i) => i.title === 'Settings');
    expect(settings?.subSectionItems?.map((i) => i.title)).toEqual(['Organization Settings', 'Activity Log', 'Data Retention']);
  });

  it('shows Places and the Reports group by their own codes (issue 32)', () => {
    const reportsOnly = { ...dispatcherUser(), permissions: ['REPORT_LIST'] };
    expect(titles(filterMenu(SIDE_MENU, reportsOnly))).toEqual([{ Reports: ['Trips', 'Stops', 'Place visits', 'Daily summary', 'Scheduled reports'] }]);
    expect(titles(filterMenu(SIDE_MENU, { ...dispatcherUser(), permissions: ['PLACE_LIST'] }))).toEqual(['Places']);
  });

  it('shows the Dispatch group by the loads codes, creating a load only with LOAD_UPDATE (issue 33)', () => {
    expect(titles(filterMenu(SIDE_MENU, { ...dispatcherUser(), permissions: ['LOAD_LIST'] }))).toEqual([{ Dispatch: ['Loads board'] }]);
    expect(titles(filterMenu(SIDE_MENU, { ...dispatcherUser(), permissions: ['ANALYTICS_REVENUE'] }))).toEqual([{ Analytics: ['Revenue'] }]);
  });

  it('shows the Safety group by SAFETY_LIST, its settings readable by it too (issue 47)', () => {
    expect(titles(filterMenu(SIDE_MENU, { ...dispatcherUser(), permissions: ['SAFETY_LIST'] }))).toEqual([
      { Safety: ['Safety inbox', 'Scores', 'Safety settings'] },
    ]);
    expect(filterMenu(SIDE_MENU, { ...dispatcherUser(), permissions: ['HOS_LIST'] }).some((i) => i.title === 'Safety')).toBe(false);
  });

  it('hides a group whose sub-items are all forbidden', () => {
    const onlyHos = { ...dispatcherUser(), permissions: ['HOS_LIST'] };
    expect(titles(filterMenu(SIDE_MENU, onlyHos))).toEqual([{ 'Hours of Service': ['HoS Logs', 'Unidentified Driving'] }]);
    expect(filterMenu(SIDE_MENU, null)).toEqual([]);
  });

  it('shows a driver only their own group, and an administrator without a driver record not that group (decision 0115)', () => {
    const driver = { ...dispatcherUser(), driverId: 'driver-1', permissions: ['HOS_SELF_READ', 'HOS_SELF_WRITE', 'MESSAGE_SEND', 'USER_READ', 'ORG_READ'] };
    expect(titles(filterMenu(SIDE_MENU, driver))).toEqual([
      { Driver: ['My day', 'Roadside inspection', 'Messages', 'My safety'] },
      { Settings: ['Profile Settings'] },
    ]);
    expect(filterMenu(HEADER_NAV, driver).map((i) => i.title)).toEqual(['My day', 'Inspection', 'Messages']);
    expect(filterMenu(SIDE_MENU, adminUser()).some((i) => i.title === 'Driver')).toBe(false);
    expect(titles(filterMenu(SIDE_MENU, { ...adminUser(), driverId: 'owner-operator' }))).toContainEqual({
      Driver: ['My day', 'Roadside inspection', 'Messages', 'My safety', 'Pay statements'],
    });
    // Issue 70: the driver's own pay statements go with their loads' code.
    expect(titles(filterMenu(SIDE_MENU, { ...driver, permissions: [...driver.permissions, 'LOAD_SELF_WRITE'] }))).toContainEqual({
      Driver: ['My day', 'Roadside inspection', 'Messages', 'My safety', 'Pay statements'],
    });
  });

  it('filters the header navigation (History Route, Map, Dashboard) the same way', () => {
    expect(filterMenu(HEADER_NAV, adminUser()).map((i) => i.title)).toEqual(['History Route', 'Map', 'Dashboard']);
    expect(filterMenu(HEADER_NAV, { ...dispatcherUser(), permissions: ['ORG_DASH_READ'] }).map((i) => i.title)).toEqual(['Dashboard']);
    expect(filterMenu(HEADER_NAV, superAdminUser())).toEqual([]);
  });
});
