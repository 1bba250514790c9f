import type { CurrentUser, StreamRevoked } from '@fleet/api-contract';
import { readStreamRevoked } from '@fleet/api-contract/answer-readers';
import { api } from './api-client.ts';
import { setCurrentUser } from './auth-store.ts';
import { notify } from './notifications-store.ts';
import { noteSessionEnded } from './session-ended.ts';

// A live stream's last event when the server withdrew the user's access to it (`event: revoked`):
// deactivated, logged out everywhere, the password changed, the organization suspended (`session`),
// or a permission taken away (`forbidden`). The stream does not reconnect as after a network error.

/** The event's `data`; an unreadable one counts as the end of the session. */
export function parseStreamRevoked(data: string): StreamRevoked {
  try {
    const revoked = readStreamRevoked(JSON.parse(data));
    if (revoked) return revoked;
  } catch {
    // Not JSON: as below.
  }
  return { reason: 'session', message: 'Your session has ended. Sign in again to continue.' };
}

/**
 * What the app does when a stream is revoked; the stream then makes one new connection, whose ticket
 * request decides the rest. `forbidden`: the user is told, and the current user is read again so
 * menus and route guards follow the new permissions (the ticket then answers 403 and the stream
 * stops). `session`: unless this tab holds a newer session (its own password change), the ticket
 * request's 401 and failed refresh sign the user out, and the sign-out says why (session-ended.ts).
 */
export function onStreamRevoked(revoked: StreamRevoked): void {
  if (revoked.reason === 'forbidden') {
    notify({ type: 'alert', title: revoked.message, category: 'Your access changed', isClosable: true, timeout: 10_000 });
    void api<CurrentUser>('/auth/me', { toast: false }).then(setCurrentUser, () => undefined);
    return;
  }
  noteSessionEnded(revoked.message);
}
