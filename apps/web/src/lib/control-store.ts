import { isSuperAdmin, type CurrentUser } from '@fleet/api-contract';
import { createStore, useStore } from './create-store.ts';
import { local, STORAGE_KEYS } from './storage.ts';

export interface ControlledOrganization {
  id: string;
  name: string;
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
