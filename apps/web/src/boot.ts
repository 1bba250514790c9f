import { installPreloadErrorReload } from './lib/preload-error.ts';
import { hasStoredSession } from './lib/stored-session.ts';

// The page's entry (issue 67, decision 0270): a first visit to the sign-in page signed out loads the
// sign-in page's own bundle, about a third of the app's first load; anything else loads the app.
// A customer's tracking link (`/track/{token}`, issue 69) loads the tracking page's own bundle
// (decision 0286). A stale chunk after a deploy reloads the page once instead of breaking it.
installPreloadErrorReload();
if (window.location.pathname.startsWith('/track/')) void import('./track-main.tsx');
else if (window.location.pathname === '/' && !hasStoredSession()) void import('./sign-in-main.tsx');
else void import('./main.tsx');
