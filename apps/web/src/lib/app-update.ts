import { registerSW } from 'virtual:pwa-register';
import { i18next } from '../i18n/i18n.ts';
import { notify } from './notifications-store.ts';

// The service worker (issue 44, decision 0182): registered once the page has loaded, so it never
// competes with the first screen. A new version installs in the background and takes over at the
// next open (every tab closed), never in the middle of an action; the user is told. "Ready
// offline" is said once, on the first install.

export function installServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  registerSW({
    immediate: true,
    onNeedRefresh() {
      notify({ id: 'app-update', type: 'viewed', title: i18next.t('offline.newVersion') });
    },
    onOfflineReady() {
      notify({ id: 'offline-ready', type: 'success', title: i18next.t('offline.ready'), timeout: 6000, showOnce: true });
    },
  });
}
