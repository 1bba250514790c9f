import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useComputedColorScheme } from '@mantine/core';
import type { StyleSpecification } from 'maplibre-gl';
import { useWebConfig } from '../web-config.ts';
import { isBaseMapTileError, offlineStyle, prepareRemoteStyle, type BaseMapId, type OfflineData } from './base-styles.ts';
import { labelFontFaces } from './map-fonts.ts';
import { loadOfflineData } from './offline-data.ts';
import { setupMaplibreWorker } from './maplibre-worker.ts';

setupMaplibreWorker();

/** How long the online style may take to load before we fall back (no network often means a hang, not an error). */
const STYLE_TIMEOUT_MS = 8000;

export interface BaseMap {
  choice: BaseMapId;
  setChoice: (id: BaseMapId) => void;
  /** Null while the chosen style is not ready yet (offline outlines or the online style loading). */
  style: StyleSpecification | null;
  scheme: 'light' | 'dark';
  /** Set when the online base map failed and we switched to the offline one. */
  failure: string | null;
  dismissFailure: () => void;
  /** Wire to the map's `error` event. */
  onMapError: (e: { error?: { message?: string; status?: number }; sourceId?: string }) => void;
  /** Wire to the map's `load` / `styledata` events: the online style arrived. */
  onStyleLoaded: () => void;
}

/** Fetches the online style JSON (we adapt it before MapLibre sees it). */
async function fetchStyle(url: string, signal: AbortSignal): Promise<StyleSpecification> {
  const res = await fetch(url, { signal });
  if (!res.ok) throw new Error(`the style answered ${res.status}`);
  const style = (await res.json()) as StyleSpecification;
  if (style?.version !== 8 || typeof style.sources !== 'object') throw new Error('the answer is not a MapLibre style');
  return style;
}

/**
 * The base-map choice shared by the live map and history: the online style (MAP_STYLE_URL, from
 * the server) when it loads, else the bundled outlines in the current colour scheme, with a
 * visible notice saying why. Dark mode starts on the offline dark style: the online one is light.
 * Both styles declare the bundled label font, so cluster counts draw on either.
 */
export function useBaseMap(ownSources: readonly string[]): BaseMap {
  const scheme = useComputedColorScheme('light');
  const webConfig = useWebConfig();
  const styleUrl = webConfig.data?.mapStyleUrl ?? null;
  const [data, setData] = useState<OfflineData | null>(null);
  const [remote, setRemote] = useState<{ url: string; style: StyleSpecification } | null>(null);
  const [choice, setChoiceState] = useState<BaseMapId>(scheme === 'dark' ? 'offline' : 'streets');
  const [failure, setFailure] = useState<string | null>(null);
  const loadedRef = useRef(false);
  /** True once the user picked a base map or the online one failed. */
  const chosenRef = useRef(false);
  const fontFaces = useMemo(() => labelFontFaces(window.location.origin), []);

  useEffect(() => {
    let alive = true;
    void loadOfflineData().then((d) => alive && setData(d));
    return () => {
      alive = false;
    };
  }, []);

  const fail = useCallback((why: string) => {
    // The fallback sticks: the scheme must not switch back to a base map that just failed.
    chosenRef.current = true;
    setFailure(why);
    setChoiceState('offline');
  }, []);

  const setChoice = useCallback((id: BaseMapId) => {
    chosenRef.current = true;
    loadedRef.current = false;
    setFailure(null);
    setChoiceState(id);
  }, []);

  // The scheme is often known only after mount (the dark-mode flag comes from the server): follow
  // it until the user picks a base map.
  useEffect(() => {
    if (!chosenRef.current) setChoiceState(scheme === 'dark' ? 'offline' : 'streets');
  }, [scheme]);

  // The server could not tell us the style: nothing online to show.
  useEffect(() => {
    if (choice === 'streets' && webConfig.isError) fail('The map settings could not be loaded from the server.');
  }, [choice, webConfig.isError, fail]);

  // Fetch the online style once per URL; a hang counts as a failure after the timeout.
  useEffect(() => {
    if (choice !== 'streets' || !styleUrl || remote?.url === styleUrl) return;
    const ac = new AbortController();
    const t = setTimeout(() => ac.abort(new DOMException('timeout', 'TimeoutError')), STYLE_TIMEOUT_MS);
    fetchStyle(styleUrl, ac.signal)
      .then((style) => setRemote({ url: styleUrl, style: prepareRemoteStyle(style, styleUrl, fontFaces) }))
      .catch((e: unknown) => {
        if (ac.signal.reason instanceof DOMException && ac.signal.reason.name === 'TimeoutError') fail('The street map did not load in time.');
        else if (!ac.signal.aborted) fail(`The street map style could not be loaded${e instanceof Error ? ` (${e.message})` : ''}.`);
      })
      .finally(() => clearTimeout(t));
    return () => {
      clearTimeout(t);
      ac.abort();
    };
  }, [choice, styleUrl, remote?.url, fontFaces, fail]);

  // Tiles can still hang after the style arrived.
  useEffect(() => {
    if (choice !== 'streets' || !remote) return;
    loadedRef.current = false;
    const t = setTimeout(() => {
      if (!loadedRef.current) fail('The street map did not load in time.');
    }, STYLE_TIMEOUT_MS);
    return () => clearTimeout(t);
  }, [choice, remote, fail]);

  const onMapError = useCallback<BaseMap['onMapError']>(
    (e) => {
      if (choice !== 'streets') return;
      // Style fetch failures carry no source id; tile failures carry the remote source's id.
      if (!e.sourceId || isBaseMapTileError(e, ownSources)) fail(`Street map tiles could not be loaded${e.error?.message ? ` (${e.error.message})` : ''}.`);
    },
    [choice, fail, ownSources],
  );

  const offline = useMemo(() => (data ? offlineStyle(data, scheme, fontFaces) : null), [data, scheme, fontFaces]);
  const style = choice === 'streets' ? (remote && remote.url === styleUrl ? remote.style : null) : offline;
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
