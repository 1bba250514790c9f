/** Permission codes of spec section 6, plus the codes later issues add for actions the spec leaves unnamed. */
export const PERMISSIONS = [
  'SUPER_ADMIN',
  'ORG_DASH_READ',
  'USER_READ',
  'ORG_READ',
  'ORG_UPDATE',
  'USER_LIST',
  'USER_CREATE',
  'USER_UPDATE',
  'ROLE_LIST',
  'ROLE_UPDATE',
  'IFTA_LIST',
  'IFTA_UPDATE',
  'IFTA_FILE',
  'ASSET_LIST',
  'ASSET_CREATE',
  'ASSET_UPDATE',
  'ASSET_DELETE',
  'HR_READ',
  'DRIVER_LIST',
  'DRIVER_CREATE',
  'DRIVER_UPDATE',
  'DRIVER_DELETE',
  'GAT_LIST',
  'GAT_READ',
  'GAT_CREATE',
  'GAT_UPDATE',
  'GAT_DELETE',
  'GAT_PAIR',
  'GROUP_LIST',
  'GROUP_READ',
  'GROUP_UPDATE',
  'ACTIVITY_LOG_LIST',
  'RET_READ',
  'RET_UPDATE',
  'HOS_LIST',
  'HOS_READ',
  'VIO_LIST',
  'AVAILABILITY_LIST',
  'HOS_IMPORT',
  'HOS_EDIT',
  'HOS_SELF_READ',
  'HOS_SELF_WRITE',
  'ANALYTICS_REVENUE',
  'ANALYTICS_FLEET_PERFORMANCE',
  // Issue 31: inspections and maintenance.
  'DVIR_LIST',
  'DVIR_SELF_WRITE',
  'DEFECT_UPDATE',
  'WORK_ORDER_LIST',
  'WORK_ORDER_UPDATE',
  'MAINTENANCE_LIST',
  'MAINTENANCE_UPDATE',
  // Issue 32: places, trips, stops and reports.
  'PLACE_LIST',
  'PLACE_UPDATE',
  'REPORT_LIST',
  // Issue 33: dispatch.
  'LOAD_LIST',
  'LOAD_UPDATE',
  'LOAD_SELF_WRITE',
  // Issue 44: messages between drivers and dispatch.
  'MESSAGE_LIST',
  'MESSAGE_SEND',
  // Issue 47: driver safety.
  'SAFETY_LIST',
  'SAFETY_UPDATE',
  // Issue 48: integrations (API tokens, webhooks).
  'API_TOKEN_MANAGE',
  'WEBHOOK_MANAGE',
  // Issue 70: customers, invoices, driver settlements.
  'CUSTOMER_LIST',
  'CUSTOMER_UPDATE',
  'INVOICE_LIST',
  'INVOICE_UPDATE',
  'SETTLEMENT_LIST',
  'SETTLEMENT_UPDATE',
  // Issue 71: driver qualification files and vehicle paperwork.
  'COMPLIANCE_LIST',
  'COMPLIANCE_UPDATE',
  // Issue 73: text commands to devices (Teltonika codec 12).
  'GAT_COMMAND',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** Every code an organization's built-in ADMIN role holds: all of them except SUPER_ADMIN. */
export const ORGANIZATION_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((p) => p !== 'SUPER_ADMIN');

/**
 * The built-in Driver role (issue 16, decision 0111): the driver's own hours of service, and what the
 * shell's own-profile screen needs (spec: /my-account asks USER_READ and ORG_READ). No office code:
 * MESSAGE_SEND without MESSAGE_LIST reaches the driver's own conversation only (issue 44).
 */
export const DRIVER_ROLE_PERMISSIONS: readonly Permission[] = [
  'HOS_SELF_READ',
  'HOS_SELF_WRITE',
  'DVIR_SELF_WRITE',
  'LOAD_SELF_WRITE',
  'MESSAGE_SEND',
  'USER_READ',
  'ORG_READ',
];

export const ROLES = ['ADMIN', 'SUPER_ADMIN', 'USER'] as const;
export type Role = (typeof ROLES)[number];

/** The slice of the current user that access decisions read. */
export interface AccessSubject {
  role?: string | null;
  organization?: { id: string; name: string } | null;
  permissions: readonly string[];
}

export function isSuperAdmin(user: AccessSubject | null | undefined): boolean {
  return (user?.role ?? '').toUpperCase() === 'SUPER_ADMIN';
}

export function hasPermission(user: AccessSubject | null | undefined, code: string): boolean {
  return !!user && user.permissions.includes(code);
}

export function hasAll(user: AccessSubject | null | undefined, codes: readonly string[]): boolean {
  return codes.every((c) => hasPermission(user, c));
}

export function hasAny(user: AccessSubject | null | undefined, codes: readonly string[]): boolean {
  return codes.some((c) => hasPermission(user, c));
}

/** A node of a route table: its own permission codes and its children. */
export interface AccessRoute {
  permissions?: readonly string[];
  children?: readonly AccessRoute[];
}

/**
 * Spec section 5: a route is allowed only if the user holds all its required permissions and
 * (belongs to an organization, or the route requires nothing, or SUPER_ADMIN is among them).
 * Spec section 2: a route with no permissions of its own is allowed if any child is.
 */
export function canOpenRoute(user: AccessSubject | null | undefined, route: AccessRoute): boolean {
  if (!user) return false;
  const required = route.permissions ?? [];
  if (required.length === 0 && route.children && route.children.length > 0) {
    return route.children.some((child) => canOpenRoute(user, child));
  }
  if (!hasAll(user, required)) return false;
  return !!user.organization || required.length === 0 || required.includes('SUPER_ADMIN');
}
