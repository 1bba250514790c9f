import '@mantine/spotlight/styles.css';
import { useEffect, useEffectEvent, useRef, useState, type KeyboardEvent } from 'react';
import { Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createSpotlight, Spotlight } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { HitRow } from './search-hit.tsx';
import { useSearch } from './search-api.ts';
import classes from './search-spotlight.module.css';

/** The search box's own store, so the results' selection can be set when they arrive; `searchSpotlight.open()` opens it. */
const [searchStore, searchSpotlight] = createSpotlight();
export { searchSpotlight };

/**
 * Ctrl+K / ⌘K from any screen (Mantine spotlight): one box over the organization's records, arrow
 * keys move through the results, Enter opens the first result (or the one the arrows chose), even
 * when pressed before the results have arrived. Each result says why it matched. "See every result"
 * opens /search with the text.
 */
export function SearchSpotlight() {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, 150);
  const navigate = useNavigate();
  const results = useSearch({ q: debounced, limit: 5 });
  const groups = debounced.trim() ? (results.data?.groups ?? []) : [];
  const list = useRef<HTMLDivElement>(null);
  // The arrows picked a result since the text last changed: Enter opens that one (Mantine's own Enter).
  const [arrowed, setArrowed] = useState(false);
  // Enter came before the results for the text: open the first one when they arrive.
  const [pendingEnter, setPendingEnter] = useState(false);
  const current = !!query.trim() && debounced === query && !results.isFetching && results.data?.q === query.trim();
  const first = current ? groups[0]?.hits[0] : undefined;

  const open = (link: string) => {
    searchSpotlight.close();
    void navigate(link);
  };
  const openFirst = () => open(first ? first.link : `/search?q=${encodeURIComponent(query.trim())}`);

  // The results for the text arrived: an effect event, so the Enter and arrow state are read as they
  // are then without making their changes re-run it.
  const onResultsArrived = useEffectEvent(() => {
    if (pendingEnter) {
      setPendingEnter(false);
      openFirst();
      return;
    }
    // Mantine marks the first action when the text changes, before the new results exist: mark the first result now.
    if (arrowed || !list.current) return;
    list.current.querySelector('[data-selected]')?.removeAttribute('data-selected');
    list.current.querySelector('[data-action]')?.setAttribute('data-selected', 'true');
    searchStore.updateState((state) => ({ ...state, selected: 0 }));
  });
  useEffect(() => {
    if (current) onResultsArrived();
  }, [current, results.data]);

  // Runs before Mantine's key handler (capture): Enter without an arrow choice is ours.
  const onKeyDownCapture = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') setArrowed(true);
    if (e.key !== 'Enter' || e.nativeEvent.isComposing || !query.trim() || (arrowed && current)) return;
    e.preventDefault();
    e.stopPropagation();
    if (current) openFirst();
    else setPendingEnter(true);
  };

  return (
    <Spotlight.Root
      store={searchStore}
      query={query}
      onQueryChange={(q) => {
        setQuery(q);
        setArrowed(false);
      }}
      onSpotlightClose={() => setPendingEnter(false)}
      shortcut={['mod + K']}
      scrollable
      maxHeight={460}
      classNames={{ action: classes.action }}
    >
      <Spotlight.Search
        placeholder="Search vehicles, VINs, drivers, devices, users, groups, logs…"
        leftSection={<IconSearch size={18} />}
        aria-label="Search everything"
        onKeyDownCapture={onKeyDownCapture}
      />
      <Spotlight.ActionsList ref={list}>
        {groups.map((g) => (
          <Spotlight.ActionsGroup key={g.tag} label={`${g.label} (${g.total})`}>
            {g.hits.map((h) => (
              <Spotlight.Action key={`${h.tag}-${h.id}`} onClick={() => open(h.link)} data-testid="spotlight-hit">
                <HitRow
                  hit={h}
                  query={results.data?.q ?? ''}
                  badgeSize="xs"
                  w="100%"
                  title={
                    <Text size="sm" fw={600} truncate>
                      {h.title}
                    </Text>
                  }
                />
              </Spotlight.Action>
            ))}
          </Spotlight.ActionsGroup>
        ))}
        {debounced.trim() && results.isFetched && groups.length === 0 && <Spotlight.Empty>Nothing found for “{debounced}”.</Spotlight.Empty>}
        {!debounced.trim() && <Spotlight.Empty>Type a unit number, part of a VIN, a name, a device id or a date.</Spotlight.Empty>}
        {debounced.trim() && (
          <Spotlight.Action onClick={() => open(`/search?q=${encodeURIComponent(debounced)}`)}>
            <Text size="sm" c="blue">
              See every result for “{debounced}”
            </Text>
          </Spotlight.Action>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
