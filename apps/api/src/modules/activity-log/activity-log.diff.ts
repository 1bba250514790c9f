/** Bookkeeping columns that change on every update and say nothing to a reader. */
const NOISE = new Set(['updatedAt']);

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export interface FieldDiff {
  field: string;
  before: unknown;
  after: unknown;
}

/** Top-level fields whose values differ between before and after (a create or delete lists all). */
export function diff(before: unknown, after: unknown): FieldDiff[] {
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((f) => !NOISE.has(f));
  return fields
    .filter((f) => JSON.stringify(b[f] ?? null) !== JSON.stringify(a[f] ?? null))
    .map((f) => ({ field: f, before: b[f] ?? null, after: a[f] ?? null }));
}
