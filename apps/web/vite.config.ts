import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * Mantine's AppShell takes two class names from react-remove-scroll; it gets them without the library
 * (src/lib/app-shell-scroll-class.ts says why). Every other importer, the dialogs, gets the library.
 */
function appShellScrollClassOnly(): Plugin {
  const names = fileURLToPath(new URL('./src/lib/app-shell-scroll-class.ts', import.meta.url));
  return {
    name: 'app-shell-scroll-class-only',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === 'react-remove-scroll' && importer && /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]AppShell[\\/]/.test(importer) ? names : null;
    },
  };
}

export default defineConfig({
  plugins: [
    appShellScrollClassOnly(),
    react(),
    // Installable, and the app shell and every screen's code load with no network after the first
    // visit (issue 44, decision 0182). The API is never cached by the worker: data offline comes from
    // the app's own stores. A new version waits for the next open (no skipWaiting) and says so.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png', 'logo.svg', 'logo-dark.svg', 'login-side.svg'],
      manifest: {
        name: 'Fleetline',
        short_name: 'Fleetline',
        description: 'Fleet tracking, driver hours of service and IFTA for trucking carriers.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#1d5fa8',
        background_color: '#ffffff',
        icons: [
          { src: '/pwa-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/pwa-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        // The map's library and the fonts are large; every screen's code must be there offline.
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/healthz/, /^\/readyz/],
        cleanupOutdatedCaches: true,
        // The first install takes the open page at once (offline from the first visit); a later
        // version still waits for the next open (no skipWaiting).
        clientsClaim: true,
      },
    }),
  ],
  // MAP_STYLE_URL is not baked in here: the server hands it to the app at run time (GET /api/v1/web-config).
  build: {
    outDir: 'dist',
    // No lists of each lazy chunk's imports beside its import (about 8 KB gzip over the driver's first
    // load, most in the route table): a screen's first visit fetches its imports after its own file
    // instead of with it. The service worker holds every file after the first visit, so that wait is
    // a cache's. The stylesheets of a chunk are still loaded with it (Vite keeps the CSS out of this).
    modulePreload: { resolveDependencies: () => [] },
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // React and its DOM are on every page, the sign-in page too: one file for them rather than
          // the handful of small ones automatic chunking makes (each answer also carries about 1 KB of
          // headers). The router is the app's only (the sign-in page's own bundle has none, decision
          // 0270). Everything else stays chunked by the screens that use it (issue 67).
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
