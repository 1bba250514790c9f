import type { SignInResponse } from '@fleet/api-contract';
import { signIn } from './auth-store.ts';
import { clearControlledOrganization } from './control-store.ts';
import { STORAGE_KEYS } from './storage.ts';

/**
 * A sign-in on the sign-in page's own bundle (issue 67), as session.ts's startSession does it in the
 * app: nothing of a previous user stays (the query cache kept in sessionStorage, a controlled
 * organization), then the session is stored. The app that loads next starts from it.
 */
export function startSessionOnSignInPage(res: SignInResponse): void {
  window.sessionStorage.removeItem(STORAGE_KEYS.queryCache);
  clearControlledOrganization();
  signIn(res);
}
