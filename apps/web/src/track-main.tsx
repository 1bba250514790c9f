import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider, type MantineColorSchemeManager } from '@mantine/core';
import '@mantine/core/styles.css';
import './global.css';
import { TrackPage } from './features/tracking/track-page.tsx';
import { browserLanguage } from './i18n/language.ts';
import { cssVariablesResolver, theme } from './lib/theme.ts';

// The public tracking page's own bundle (issue 69, decision 0286): `/track/{token}` loads React,
// Mantine's pieces of the page and its words, not the app (no router, no API client, no session).
// The viewer is a customer: their browser's language and colour scheme, nothing stored.

/** Follows the browser's light or dark preference live and stores nothing (the app's stored choice is the app user's). */
const followBrowser: MantineColorSchemeManager = {
  get: () => 'auto',
  set: () => undefined,
  subscribe: () => undefined,
  unsubscribe: () => undefined,
  clear: () => undefined,
};

const lng = browserLanguage();
document.documentElement.lang = lng;
// The url holds the link's token: no request from this page (map tiles, fonts) sends it on as a referrer.
const referrer = document.createElement('meta');
referrer.name = 'referrer';
referrer.content = 'no-referrer';
const robots = document.createElement('meta');
robots.name = 'robots';
robots.content = 'noindex, nofollow';
document.head.append(referrer, robots);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={followBrowser} defaultColorScheme="auto">
        <TrackPage lng={lng} />
      </MantineProvider>
    </StrictMode>,
  );
}
