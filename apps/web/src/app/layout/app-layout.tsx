import { lazy, Suspense, useCallback, useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { setSessionExpiredHandler } from '../../lib/api-client.ts';
import { currentUser, useCurrentUser } from '../../lib/auth-store.ts';
import { useDarkModeFlagSync, useEnforceDarkModeFlag } from '../../lib/color-scheme.ts';
import { loadChunk } from '../../lib/preload-error.ts';
import { logout } from '../../lib/session.ts';
import { notify } from '../../lib/notifications-store.ts';
import { takeSessionEnded } from '../../lib/session-ended.ts';
import { NotificationToasts } from '../../components/notification-toasts.tsx';
import { LOGIN_PATH } from '../guard.ts';
import { GlobalLoadingBar } from './global-loading-bar.tsx';
import { PublicShell } from './public-shell.tsx';

// The signed-in shell is a chunk of its own: the sign-in page does not download it (issue 67). It
// starts loading at once when a session is already stored, beside the first screen's own chunk, and
// otherwise on the first key or tap on a signed-out form.
const loadSignedInShell = () => loadChunk(() => import('./signed-in-shell.tsx'));
if (currentUser()) void loadSignedInShell();
const SignedInShell = lazy(loadSignedInShell);

/** The frame around every screen: the signed-in shell or the signed-out one, with the loading bar and toasts. */
export function AppLayout() {
  const user = useCurrentUser();
  const navigate = useNavigate();

  useDarkModeFlagSync();
  useEnforceDarkModeFlag();

  // A refresh that fails ends the session (spec section 4): there is none left to end on the server.
  // When the server ended it (a revoked stream, log out everywhere), the sign-in page says why.
  const endSession = useCallback(async () => {
    const ended = takeSessionEnded();
    await logout({ server: false });
    await navigate(LOGIN_PATH, { replace: true });
    if (ended) notify({ type: ended.type, title: ended.message, category: 'Signed out', isClosable: true });
  }, [navigate]);
  useEffect(() => {
    setSessionExpiredHandler(() => void endSession());
  }, [endSession]);

  return (
    <>
      <GlobalLoadingBar />
      {user ? (
        <Suspense fallback={null}>
          <SignedInShell user={user}>
            <Outlet />
          </SignedInShell>
        </Suspense>
      ) : (
        <PublicShell onFirstUse={() => void loadSignedInShell()}>
          <Outlet />
        </PublicShell>
      )}
      <NotificationToasts />
    </>
  );
}
