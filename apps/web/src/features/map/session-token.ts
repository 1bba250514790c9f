import { sessionStore } from '../../lib/auth-store.ts';
import { useStore } from '../../lib/create-store.ts';

/** The current access token; EventSource cannot send headers, so the stream URL carries it. */
export function useSessionAccessToken(): string | null {
  return useStore(sessionStore).accessToken;
}
