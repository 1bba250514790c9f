import { useCallback } from 'react';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the one place React Router's hook is wrapped
import { useSearchParams as useRouterSearchParams, type SetURLSearchParams } from 'react-router';

/**
 * `prev` with each key of `patch` set, or removed when its value is empty; the filters kept in the
 * URL are changed this way. `pageKey` names the page parameter to drop as well, since a new filter
 * starts on the first page.
 */
export function withParams(prev: URLSearchParams, patch: Record<string, string | null | undefined>, pageKey?: string): URLSearchParams {
  const next = new URLSearchParams(prev);
  if (pageKey) next.delete(pageKey);
  for (const [key, value] of Object.entries(patch)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}

/**
 * React Router's `useSearchParams`, except that a function given to the setter gets the address
 * bar's parameters of now. React Router hands it those of the last render, and a navigation renders
 * in a transition that a busy page or phone defers: two filters chosen in quick succession, the
 * second undid the first. The router writes the address bar as it navigates, before the next event.
 */
export function useSearchParams(): [URLSearchParams, SetURLSearchParams] {
  const [params, setRouterParams] = useRouterSearchParams();
  const setParams = useCallback<SetURLSearchParams>(
    (next, options) => setRouterParams(typeof next === 'function' ? next(new URLSearchParams(window.location.search)) : next, options),
    [setRouterParams],
  );
  return [params, setParams];
}
