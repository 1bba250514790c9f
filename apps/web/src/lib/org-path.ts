import { currentUser } from './auth-store.ts';
import { controlStore, effectiveOrganizationId, useControlledOrganization } from './control-store.ts';
import { useCurrentUser } from './auth-store.ts';

/** Thrown when a screen needs an organization and there is none (a super administrator not in control mode). */
export class NoOrganizationError extends Error {
  constructor() {
    super('Select an organization to work on first');
    this.name = 'NoOrganizationError';
  }
}

/** `orgPathFor('abc', '/assets')` -> `/organizations/abc/assets`. */
export function orgPathFor(orgId: string, path = ''): string {
  return `/organizations/${encodeURIComponent(orgId)}${path && !path.startsWith('/') ? '/' : ''}${path}`;
}

/**
 * Path under the effective organization: the user's own, or the one a super administrator controls.
 * Outside React (query functions); throws NoOrganizationError when there is none.
 */
export function orgPath(path = ''): string {
  const id = effectiveOrganizationId(currentUser(), controlStore.get());
  if (!id) throw new NoOrganizationError();
  return orgPathFor(id, path);
}

/** The effective organization id for hooks: part of every organization-scoped query key. */
export function useEffectiveOrganizationId(): string | null {
  return effectiveOrganizationId(useCurrentUser(), useControlledOrganization());
}
