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
