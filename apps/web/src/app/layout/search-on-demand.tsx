import { Suspense, useEffect, useState } from 'react';
import { lazyPart } from '../../components/on-first-use.ts';
import { loadChunk } from '../../lib/preload-error.ts';

// The search box (Mantine's spotlight and the search's results) loads on first use, the header's
// button or Ctrl/⌘+K, not with the shell (issue 67). Once mounted, the spotlight takes the shortcut itself.
const loadSearch = () => loadChunk(() => import('../../features/search/search-spotlight.tsx'));
const SearchSpotlight = lazyPart(() => loadSearch().then((m) => ({ default: m.SearchSpotlight })));

/** Elements where Ctrl+K is typing, not search (the spotlight's own hotkey ignores them too). */
const TYPING = ['INPUT', 'TEXTAREA', 'SELECT'];

let wanted = false;
const onWanted = new Set<() => void>();

/** Opens the search box, loading it first if needed. */
export function openSearch(): void {
  if (!wanted) {
    wanted = true;
    onWanted.forEach((f) => f());
  }
  void loadSearch().then((m) => m.searchSpotlight.open());
}

/** Mounts the search box once it was first asked for; until then listens for its shortcut. */
export function SearchOnDemand() {
  const [shown, setShown] = useState(wanted);
  useEffect(() => {
    if (shown) return;
    const show = () => setShown(true);
    const onKey = (e: KeyboardEvent) => {
      const typing = e.target instanceof HTMLElement && TYPING.includes(e.target.tagName);
      if (e.key.toLowerCase() !== 'k' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || typing) return;
      e.preventDefault();
      openSearch();
    };
    onWanted.add(show);
    window.addEventListener('keydown', onKey);
    return () => {
      onWanted.delete(show);
      window.removeEventListener('keydown', onKey);
    };
  }, [shown]);
  return shown ? (
    <Suspense fallback={null}>
      <SearchSpotlight />
    </Suspense>
  ) : null;
}
