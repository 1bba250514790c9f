import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
// The screens' words come from the catalogues (jsdom's browser asks for English).
import './src/i18n/i18n.ts';

// Pure-logic files run in Node (`// @vitest-environment node`: no jsdom to start, about 1.5 CPU-s a
// file); the rest of this file is for the ones that render.
const browser = typeof window !== 'undefined';

// Mantine reads these browser APIs that jsdom lacks.
if (browser && !window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (browser && !('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

afterEach(() => {
  if (!browser) return;
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
