import { forbidden, notFound } from '../../http/errors.ts';
import type { AuthContext } from './auth-context.ts';

/** What a route asks of its caller: its permission codes and the organization in its path. */
export interface RouteNeeds {
  /** The `{orgId}` of the path, if it has one. */
  orgId?: string;
  /** Every code is required. */
  permissions?: readonly string[];
  /** At least one of these codes is required. */
  anyPermissions?: readonly string[];
}

/**
 * Tenancy and permissions, as the auth plugin checks them on every request and open streams are
 * checked again whenever their user's access changes (OpenStreams): throws the 404 or 403 the
 * request would get.
 */
export function assertRouteAccess(ctx: AuthContext, need: RouteNeeds): void {
  // Tenancy: /organizations/{orgId}/... belongs to members of that organization. A super
  // administrator may act on any organization (take control). Others see a 404, not a 403,
  // so an organization's existence does not leak.
  if (need.orgId !== undefined && !ctx.isSuperAdmin && need.orgId !== ctx.orgId) throw notFound('Organization');

  const missing = (need.permissions ?? []).filter((code) => !ctx.permissions.has(code));
  if (missing.length > 0) throw forbidden('You do not have permission to do this', `Missing permission: ${missing.join(', ')}`);
  // An office code or the driver's own: which one the caller holds decides what it may reach (the service checks that).
  const any = need.anyPermissions ?? [];
  if (any.length > 0 && !any.some((code) => ctx.permissions.has(code))) {
    throw forbidden('You do not have permission to do this', `Missing permission: one of ${any.join(', ')}`);
  }
}
