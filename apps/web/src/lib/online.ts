import { useSyncExternalStore } from 'react';

// Whether the browser has a network (issue 44): the driver's phone in a dead zone. The browser's own
// signal, which TanStack Query's online manager also follows, so screens and queries agree.

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export const isOnline = (): boolean => typeof navigator === 'undefined' || navigator.onLine !== false;

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}
