import { lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { loadChunk } from '../lib/preload-error.ts';
import { loadMoreWords } from '../i18n/i18n.ts';

// Parts of a screen that only a tap opens (a dialog, a form, another tab) load on first use, not
// with the screen (issue 67): their code and their inputs' stay off the first load. The service
// worker precaches every chunk, so they open offline too; a chunk gone after a deploy reloads the
// page once (loadChunk), as a screen's does. A part brings the words of the screens other than the
// driver's home with it (i18n.ts, loadMoreWords): the home screen's first load has only its own.

/** A component whose code loads the first time it renders (render it inside a Suspense). */
// `any` as in React's own lazy(): a component of any props (a narrower bound refuses class components' statics).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyPart<C extends ComponentType<any>>(load: () => Promise<{ default: C }>): LazyExoticComponent<C> {
  return lazy(() => Promise.all([loadChunk(load), loadMoreWords()]).then(([m]) => m));
}

/** True from the first render where `when` is true on: a dialog loaded on first use then stays mounted, and closes with its transition. */
export function useOnceTrue(when: boolean): boolean {
  const [was, setWas] = useState(when);
  if (when && !was) setWas(true);
  return was || when;
}
