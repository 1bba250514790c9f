import type { CurrentUser } from '@fleet/api-contract';
import { isSuperAdmin, ORGANIZATION_PERMISSIONS } from '@fleet/api-contract/permissions';
import { createStore, useStore } from './create-store.ts';
import { local, STORAGE_KEYS } from './storage.ts';
import { sessionStore } from './auth-store.ts';

export interface ControlledOrganization {
  id: string;
  name: string;
  /** The organization's zone: the controlling super administrator's screens show it (decision 0140). */
  timeZone?: string;
}

/**
 * Super-administrator control mode (spec section 4: organization selected or none). The organization
 * administration screens call setControlledOrganization; the banner's close calls clearControlledOrganization.
 */
export const controlStore = createStore<ControlledOrganization | null>(
  typeof window === 'undefined' ? null : local.getJson<ControlledOrganization>(STORAGE_KEYS.controlledOrganization),
);

export function setControlledOrganization(org: ControlledOrganization): void {
  local.setJson(STORAGE_KEYS.controlledOrganization, org);
  controlStore.set(org);
}

export function clearControlledOrganization(): void {
  local.remove(STORAGE_KEYS.controlledOrganization);
  controlStore.set(null);
}

export function useControlledOrganization(): ControlledOrganization | null {
  return useStore(controlStore);
}

/** The organization the screens act on: the user's own, or the one a super administrator controls. */
export function effectiveOrganizationId(user: CurrentUser | null, controlled: ControlledOrganization | null): string | null {
  if (!user) return null;
  if (isSuperAdmin(user)) return controlled?.id ?? null;
  return user.organization?.id ?? null;
}

/**
 * The user as the guard and the menus see it: a super administrator controlling an organization works
 * as a member of it holding every organization permission (the API grants a super administrator every
 * code on any organization), so every screen opens on that organization. Otherwise the user unchanged.
 */
export function accessUser(user: CurrentUser | null, controlled: ControlledOrganization | null): CurrentUser | null {
  if (!user || !controlled || !isSuperAdmin(user)) return user;
  return { ...user, organization: { id: controlled.id, name: controlled.name }, permissions: ['SUPER_ADMIN', ...ORGANIZATION_PERMISSIONS] };
}

export function useAccessUser(): CurrentUser | null {
  return accessUser(useStore(sessionStore).user, useControlledOrganization());
}
