import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import './global.css';
import { installPreloadErrorReload } from './lib/preload-error.ts';
import { App } from './app/app.tsx';

// A stale chunk after a deploy reloads the page once instead of breaking navigation.
installPreloadErrorReload();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
