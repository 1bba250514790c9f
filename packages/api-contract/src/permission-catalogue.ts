import { z } from 'zod';
import { ORGANIZATION_PERMISSIONS, type Permission } from './permissions.ts';

/** One checkbox of the role editor. */
export interface PermissionInfo {
  code: Permission;
  label: string;
  description: string;
  /** Codes this one cannot work without (a create or update code brings its list code). */
  requires: readonly Permission[];
}

export interface PermissionArea {
  area: string;
  label: string;
  permissions: readonly PermissionInfo[];
}

const p = (code: Permission, label: string, description: string, requires: Permission[] = []): PermissionInfo => ({
  code,
  label,
  description,
  requires,
});

/**
 * The role editor's checklist, grouped by area. Every organization permission appears exactly
 * once (a test holds this); SUPER_ADMIN is never grantable to an organization role.
 */
export const PERMISSION_AREAS: readonly PermissionArea[] = [
  {
    area: 'organization',
    label: 'Organization',
    permissions: [
      p('ORG_READ', 'View organization', 'See the organization account and settings'),
      p('ORG_UPDATE', 'Edit organization', 'Change the account, logo, units, HoS defaults and feature flags', ['ORG_READ']),
      p('ORG_DASH_READ', 'Dashboard', 'Open the dashboard and its charts'),
    ],
  },
  {
    area: 'users',
    label: 'Users and roles',
    permissions: [
      p('USER_LIST', 'List users', 'See the users of the organization'),
      p('USER_READ', 'View user details', 'Open any user profile'),
      p('USER_CREATE', 'Invite users', 'Invite new users by e-mail', ['USER_LIST', 'USER_READ', 'ROLE_LIST']),
      p('USER_UPDATE', 'Edit users', 'Edit, deactivate and reactivate users, send password resets', ['USER_LIST', 'USER_READ', 'ROLE_LIST']),
      p('ROLE_LIST', 'List roles', 'See roles and their permissions'),
      p('ROLE_UPDATE', 'Manage roles', 'Create, edit and delete custom roles', ['ROLE_LIST']),
    ],
  },
  {
    area: 'drivers',
    label: 'Drivers',
    permissions: [
      p('DRIVER_LIST', 'List drivers', 'See the drivers of the organization'),
      p('DRIVER_CREATE', 'Add drivers', 'Add new drivers', ['DRIVER_LIST']),
      p('DRIVER_UPDATE', 'Edit drivers', 'Edit drivers and their HoS settings', ['DRIVER_LIST']),
      p('DRIVER_DELETE', 'Remove drivers', 'Deactivate or remove drivers', ['DRIVER_LIST']),
    ],
  },
  {
    area: 'assets',
    label: 'Vehicles and trailers',
    permissions: [
      p('ASSET_LIST', 'List vehicles and trailers', 'See vehicles, trailers and the live map'),
      p('ASSET_CREATE', 'Add vehicles and trailers', 'Add new vehicles and trailers', ['ASSET_LIST']),
      p('ASSET_UPDATE', 'Edit vehicles and trailers', 'Edit, assign drivers, attach and detach trailers', ['ASSET_LIST']),
      p('ASSET_DELETE', 'Remove vehicles and trailers', 'Remove vehicles and trailers', ['ASSET_LIST']),
      p('HR_READ', 'Route history', 'Replay the route history of vehicles, drivers and devices', ['ASSET_LIST']),
    ],
  },
  {
    area: 'devices',
    label: 'Devices',
    permissions: [
      p('GAT_LIST', 'List devices', 'See the GPS and ELD devices'),
      p('GAT_READ', 'View device details', 'Open a device', ['GAT_LIST']),
      p('GAT_CREATE', 'Add devices', 'Register new devices', ['GAT_LIST']),
      p('GAT_UPDATE', 'Edit devices', 'Edit devices', ['GAT_LIST', 'GAT_READ']),
      p('GAT_DELETE', 'Remove devices', 'Remove devices', ['GAT_LIST']),
      p('GAT_PAIR', 'Pair devices', 'Pair and unpair devices with vehicles', ['GAT_LIST', 'ASSET_LIST']),
      p('GAT_COMMAND', 'Send device commands', 'Send text commands to devices (getinfo, setdigout…) and read their answers', ['GAT_LIST', 'GAT_READ']),
    ],
  },
  {
    area: 'groups',
    label: 'Groups',
    permissions: [
      p('GROUP_LIST', 'List groups', 'See groups and filter lists by group'),
      p('GROUP_READ', 'View group members', 'Open the members and assets of a group', ['GROUP_LIST']),
      p('GROUP_UPDATE', 'Manage groups', 'Create, rename and delete groups, add and remove members and assets', ['GROUP_LIST', 'GROUP_READ']),
    ],
  },
  {
    area: 'hos',
    label: 'Hours of service',
    permissions: [
      p('HOS_LIST', 'HoS logs', 'See the hours-of-service logs'),
      p('HOS_READ', 'HoS log details', 'Open a driver log', ['HOS_LIST']),
      p('VIO_LIST', 'Violations', 'See HoS violations'),
      p('AVAILABILITY_LIST', 'Availability', 'See the hours each driver has left'),
      p('HOS_IMPORT', 'Import HoS logs', 'Import duty-status periods from another ELD or system into a driver log', ['HOS_LIST', 'HOS_READ']),
      p(
        'HOS_EDIT',
        'Edit HoS logs',
        "Propose corrections to drivers' logs (the driver accepts or rejects them), assign or annotate unidentified driving, send a driver's ELD output file to FMCSA",
        ['HOS_LIST', 'HOS_READ'],
      ),
      p('HOS_SELF_READ', 'Own HoS log (driver)', 'A driver opens their own log, clocks, edit proposals and roadside inspection view'),
      p(
        'HOS_SELF_WRITE',
        'Record own duty status (driver)',
        'A driver changes duty status, certifies days, accepts or rejects edits, claims unidentified driving and sends their ELD output file to FMCSA',
        ['HOS_SELF_READ'],
      ),
    ],
  },
  {
    area: 'maintenance',
    label: 'Inspections and maintenance',
    permissions: [
      p('DVIR_LIST', 'Inspection reports', "See drivers' vehicle inspection reports and their defects"),
      p('DVIR_SELF_WRITE', 'Own inspections (driver)', 'A driver inspects the vehicles they drive, reads their last reports and reviews repair certifications'),
      p('DEFECT_UPDATE', 'Certify repairs', 'Certify that a defect was repaired, or that repair is unnecessary', ['DVIR_LIST']),
      p('WORK_ORDER_LIST', 'Work orders', 'See work orders'),
      p('WORK_ORDER_UPDATE', 'Manage work orders', 'Create work orders from defects, assign, cost and close them', ['WORK_ORDER_LIST', 'DVIR_LIST']),
      p('MAINTENANCE_LIST', 'Preventive maintenance', 'See maintenance schedules and the service due and overdue'),
      p('MAINTENANCE_UPDATE', 'Manage maintenance schedules', 'Create, change and delete maintenance schedules', ['MAINTENANCE_LIST']),
    ],
  },
  {
    area: 'places',
    label: 'Places',
    permissions: [
      p('PLACE_LIST', 'Places', 'See places (customers, terminals, yards, restricted areas) and the vehicles at them'),
      p('PLACE_UPDATE', 'Manage places', 'Draw, import, change and delete places', ['PLACE_LIST']),
    ],
  },
  {
    area: 'dispatch',
    label: 'Dispatch',
    permissions: [
      p('LOAD_LIST', 'Loads', 'See loads, their legal trip plans, live ETAs and the drivers who can take them'),
      p('LOAD_UPDATE', 'Manage loads', 'Create, import, change, assign and cancel loads, and mark stops arrived or departed', ['LOAD_LIST']),
      p(
        'LOAD_SELF_WRITE',
        'Own loads (driver)',
        'A driver sees the loads assigned to them, marks stops arrived and departed, and photographs bills of lading and proofs of delivery',
      ),
      p('CUSTOMER_LIST', 'Customers', 'See the customers loads are for: billing addresses, payment terms and detention rules'),
      p('CUSTOMER_UPDATE', 'Manage customers', 'Add, change and delete customers', ['CUSTOMER_LIST']),
      p('MESSAGE_LIST', 'Messages', "Read every driver's conversation with dispatch and mark it read"),
      p('MESSAGE_SEND', 'Send messages', 'Write to drivers, with photos, from the inbox, a load or a driver log', ['MESSAGE_LIST']),
    ],
  },
  // Issue 70 (decision 0291): billing the customers for delivered loads.
  {
    area: 'billing',
    label: 'Billing',
    permissions: [
      p('INVOICE_LIST', 'Invoices', 'See invoices, their PDFs with the proofs of delivery, payments, the aging report and the accounting export'),
      p('INVOICE_UPDATE', 'Manage invoices', 'Invoice delivered loads, edit drafts, e-mail invoices to customers, record payments and void invoices', [
        'INVOICE_LIST',
      ]),
    ],
  },
  {
    area: 'safety',
    label: 'Driver safety',
    permissions: [
      p(
        'SAFETY_LIST',
        'Safety events and scores',
        "See harsh driving, speeding, idling and crash events, drivers' and vehicles' safety scores, and the coaching under way",
      ),
      p(
        'SAFETY_UPDATE',
        'Review and coach',
        'Dismiss events, ask for coaching and assign a coach, record coaching and recognition, change the safety settings',
        ['SAFETY_LIST', 'USER_LIST'],
      ),
    ],
  },
  // Issue 71 (decision 0300): driver qualification files and vehicle paperwork.
  {
    area: 'qualification',
    label: 'Compliance files',
    permissions: [
      p(
        'COMPLIANCE_LIST',
        'Compliance files',
        "See drivers' qualification files and vehicles' and trailers' papers, the compliance calendar, and print qualification files",
      ),
      p('COMPLIANCE_UPDATE', 'Manage compliance files', "Add, change and delete papers, and approve or reject drivers' renewals", ['COMPLIANCE_LIST']),
    ],
  },
  {
    area: 'reports',
    label: 'Reports',
    permissions: [
      p('REPORT_LIST', 'Trip and visit reports', 'Open trips, stops, place visits and daily summaries, and subscribe to them by e-mail'),
      p('IFTA_LIST', 'IFTA', 'Open fuel-tax (IFTA) reports'),
      p('IFTA_UPDATE', 'Edit IFTA records', 'Enter and import fuel purchases, add and remove mileage adjustments', ['IFTA_LIST']),
      p('IFTA_FILE', 'File IFTA returns', 'Close a quarter, keeping its filed figures, and file amendments', ['IFTA_LIST']),
      p('ANALYTICS_REVENUE', 'Revenue analytics', 'Open revenue analytics'),
      p('ANALYTICS_FLEET_PERFORMANCE', 'Fleet performance', 'Open fleet performance analytics'),
    ],
  },
  {
    area: 'compliance',
    label: 'Activity and retention',
    permissions: [
      p('ACTIVITY_LOG_LIST', 'Activity log', 'Read the activity log (read-only for everyone)'),
      p('RET_READ', 'View data retention', 'See the retention periods and the purge job'),
      p('RET_UPDATE', 'Edit data retention', 'Change retention periods (never below the legal minimum)', ['RET_READ']),
    ],
  },
  // Issue 70 (decision 0294): paying drivers from their loads and logs.
  {
    area: 'settlements',
    label: 'Driver pay',
    permissions: [
      p('SETTLEMENT_LIST', 'Driver settlements', "See drivers' pay profiles, deductions and settlements, and print their statements", ['DRIVER_LIST']),
      p('SETTLEMENT_UPDATE', 'Manage driver pay', 'Set pay profiles, deductions and reimbursements, make settlements, approve them and mark them paid', [
        'SETTLEMENT_LIST',
      ]),
    ],
  },
  // Issue 48 (decisions 0197, 0198): other systems reaching the API and hearing of events.
  {
    area: 'integrations',
    label: 'Integrations',
    permissions: [
      p('API_TOKEN_MANAGE', 'API tokens', 'Create and revoke API tokens that let other systems (a TMS, accounting, payroll) call the API'),
      p(
        'WEBHOOK_MANAGE',
        'Webhooks',
        'Subscribe other systems to events (load status, duty status, inspections…) sent as signed webhooks, and see their deliveries',
      ),
    ],
  },
];

const BY_CODE = new Map<string, PermissionInfo>(PERMISSION_AREAS.flatMap((a) => a.permissions.map((x) => [x.code, x] as const)));

/** The codes plus everything they require, transitively, in catalogue order. */
export function withRequiredPermissions(codes: readonly string[]): Permission[] {
  const out = new Set<string>();
  const visit = (code: string) => {
    if (out.has(code)) return;
    out.add(code);
    for (const r of BY_CODE.get(code)?.requires ?? []) visit(r);
  };
  codes.forEach(visit);
  return ORGANIZATION_PERMISSIONS.filter((c) => out.has(c));
}

/** Codes required by `codes` that are missing from it (what the checklist would tick for you). */
export function missingRequiredPermissions(codes: readonly string[]): Permission[] {
  const have = new Set(codes);
  return withRequiredPermissions(codes).filter((c) => !have.has(c));
}

export const permissionInfoSchema = z.object({
  code: z.string(),
  label: z.string(),
  description: z.string(),
  requires: z.array(z.string()),
});
export const permissionAreaSchema = z.object({ area: z.string(), label: z.string(), permissions: z.array(permissionInfoSchema) });
export const permissionCatalogueSchema = z.object({ areas: z.array(permissionAreaSchema) });
export type PermissionCatalogue = z.infer<typeof permissionCatalogueSchema>;
