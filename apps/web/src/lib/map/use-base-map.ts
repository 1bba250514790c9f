import { useCallback, useEffect, useRef, useState } from 'react';
import { useComputedColorScheme } from '@mantine/core';
import type { StyleSpecification } from 'maplibre-gl';
import { DEFAULT_STYLE_URL, isBaseMapTileError, offlineStyle, type BaseMapId, type OfflineData } from './base-styles.ts';
import { loadOfflineData } from './offline-data.ts';
import { setupMaplibreWorker } from './maplibre-worker.ts';

setupMaplibreWorker();

/** MAP_STYLE_URL reaches the browser as VITE_MAP_STYLE_URL at build time. */
export const MAP_STYLE_URL: string = (import.meta.env.VITE_MAP_STYLE_URL as string | undefined) || DEFAULT_STYLE_URL;

/** How long the online style may take to load before we fall back (no network often means a hang, not an error). */
const STYLE_TIMEOUT_MS = 8000;

export interface BaseMap {
  choice: BaseMapId;
  setChoice: (id: BaseMapId) => void;
  /** Null until the offline outlines are loaded (the offline style needs them). */
  style: StyleSpecification | string | null;
  scheme: 'light' | 'dark';
  /** Set when the online base map failed and we switched to the offline one. */
  failure: string | null;
  dismissFailure: () => void;
  /** Wire to the map's `error` event. */
  onMapError: (e: { error?: { message?: string; status?: number }; sourceId?: string }) => void;
  /** Wire to the map's `load` / `styledata` events: the online style arrived. */
  onStyleLoaded: () => void;
}

/**
 * The base-map choice shared by the live map and history: the online style (MAP_STYLE_URL) when it
 * loads, else the bundled outlines in the current colour scheme, with a visible notice saying why.
 * Dark mode always uses the offline dark style: the online one has no dark variant.
 */
export function useBaseMap(ownSources: readonly string[]): BaseMap {
  const scheme = useComputedColorScheme('light');
  const [data, setData] = useState<OfflineData | null>(null);
  const [choice, setChoiceState] = useState<BaseMapId>(scheme === 'dark' ? 'offline' : 'streets');
  const [failure, setFailure] = useState<string | null>(null);
  const loadedRef = useRef(false);

  useEffect(() => {
    let alive = true;
    void loadOfflineData().then((d) => alive && setData(d));
    return () => {
      alive = false;
    };
  }, []);

  const fail = useCallback((why: string) => {
    setFailure(why);
    setChoiceState('offline');
  }, []);

  const setChoice = useCallback((id: BaseMapId) => {
    loadedRef.current = false;
    setFailure(null);
    setChoiceState(id);
  }, []);

  useEffect(() => {
    if (choice !== 'streets') return;
    loadedRef.current = false;
    const t = setTimeout(() => {
      if (!loadedRef.current) fail('The street map did not load in time.');
    }, STYLE_TIMEOUT_MS);
    return () => clearTimeout(t);
  }, [choice, fail]);

  const onMapError = useCallback<BaseMap['onMapError']>(
    (e) => {
      if (choice !== 'streets') return;
      // Style fetch failures carry no source id; tile failures carry the remote source's id.
      if (!e.sourceId || isBaseMapTileError(e, ownSources)) fail(`Street map tiles could not be loaded${e.error?.message ? ` (${e.error.message})` : ''}.`);
    },
    [choice, fail, ownSources],
  );

  const style = choice === 'streets' ? MAP_STYLE_URL : data ? offlineStyle(data, scheme) : null;
  return {
    choice,
    setChoice,
    style,
    scheme,
    failure,
    dismissFailure: () => setFailure(null),
    onMapError,
    onStyleLoaded: () => {
      loadedRef.current = true;
    },
  };
}
