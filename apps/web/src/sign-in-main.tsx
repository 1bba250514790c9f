import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import './global.css';
import { PublicShellFrame } from './app/layout/public-shell-frame.tsx';
import { ThemeProvider } from './app/layout/theme-provider.tsx';
import { plainLink } from './components/render-link.tsx';
import { LoginForm } from './features/auth/login-form.tsx';
import { initSignInWords } from './i18n/sign-in-i18n.ts';
import { homePath } from './lib/auth-store.ts';
import { useEnforceDarkModeFlag } from './lib/color-scheme-base.ts';
import { startSessionOnSignInPage } from './lib/sign-in-page-session.ts';

// The sign-in page's own bundle (issue 67, decision 0270): a first visit to `/` signed out loads
// React, Mantine's pieces of the form and the sign-in words, not the app (router, API client, zod,
// query cache). It shows the app's own form and frame; a sign-in stores the session and loads the
// app at the user's home screen. Links go to the app's screens by a page load.

function SignInPage() {
  useEnforceDarkModeFlag();
  return (
    <PublicShellFrame pathname="/" link={plainLink}>
      <LoginForm
        link={plainLink}
        onSignedIn={async (res) => {
          startSessionOnSignInPage(res);
          window.location.replace(homePath(res.user));
          // The page is going: the button keeps its loading state until it has.
          await new Promise<never>(() => undefined);
        }}
      />
    </PublicShellFrame>
  );
}

void initSignInWords().then(() => {
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <ThemeProvider>
        <SignInPage />
      </ThemeProvider>
    </StrictMode>,
  );
});
