export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** Spec section 7: arrays go as repeated keys without brackets (`?id=1&id=2`); empty values are left out. */
export function toQueryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}
