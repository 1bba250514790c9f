import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import './global.css';
// The language of the screens (issue 44): its catalogue is loaded before the first render.
import { ready as languageReady } from './i18n/i18n.ts';
import { installServiceWorker } from './lib/app-update.ts';
import { App } from './app/app.tsx';

// The app (boot.ts loads it; it also installs the reload after a stale chunk).
// Installable and offline (issue 44): the service worker registers once the page has loaded.
if (document.readyState === 'complete') installServiceWorker();
else window.addEventListener('load', installServiceWorker, { once: true });

const root = document.getElementById('root');
// Spanish and French arrive in their own chunk: the first screen waits for it, so it opens translated.
void languageReady.then(() => {
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
