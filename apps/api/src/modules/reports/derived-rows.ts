// A recompute's trips or stops of a vehicle against the stored ones (decision 0238), pure. A row is
// known by its vehicle and start: found again, it keeps its id and is written only when a value
// changed; a finished row (ended) found different, or not found, is a correction (before and
// after), while the open stop going on is progress.

/** A stored row as `row_to_json(x)::text`. */
export interface DerivedRow {
  j: string;
}

export type ColumnKind = 'text' | 'time' | 'float8' | 'real' | 'int' | 'bool';

/** A row as the writer makes it: snake_case columns, times as ISO text. */
export interface NextRow {
  asset_id: string;
  started_at: string;
  ended_at: string | null;
  [column: string]: unknown;
}

export interface Reconciled<T extends NextRow> {
  deletes: string[];
  updates: Array<T & { id: string }>;
  inserts: T[];
  corrections: Array<{ before: Record<string, unknown> & { id: string }; after: (T & { id: string }) | null }>;
}

const timeOf = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).getTime());
const keyOf = (assetId: unknown, startedAt: unknown) => `${String(assetId)}|${timeOf(startedAt)}`;

function equal(kind: ColumnKind, a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  switch (kind) {
    case 'time':
      return timeOf(a) === timeOf(b);
    case 'float8':
    case 'real': {
      // A real keeps about 7 significant digits of the double the fold computed.
      const tolerance = kind === 'real' ? 1e-6 : 1e-9;
      const x = Number(a);
      const y = Number(b);
      return Math.abs(x - y) <= tolerance * Math.max(1, Math.abs(x), Math.abs(y));
    }
    default:
      return a === b;
  }
}

/** `columns`: the compared columns besides the key (asset and start), with their kinds. */
export function reconcileDerived<T extends NextRow>(
  stored: readonly DerivedRow[],
  next: readonly T[],
  columns: Readonly<Record<string, ColumnKind>>,
): Reconciled<T> {
  const byKey = new Map<string, Record<string, unknown> & { id: string }>();
  for (const r of stored) {
    const row = JSON.parse(r.j) as Record<string, unknown> & { id: string };
    byKey.set(keyOf(row.asset_id, row.started_at), row);
  }
  const out: Reconciled<T> = { deletes: [], updates: [], inserts: [], corrections: [] };
  for (const n of next) {
    const key = keyOf(n.asset_id, n.started_at);
    const s = byKey.get(key);
    if (!s) {
      out.inserts.push(n);
      continue;
    }
    byKey.delete(key);
    if (Object.entries(columns).every(([c, kind]) => equal(kind, s[c], n[c]))) continue;
    const after = { ...n, id: s.id };
    out.updates.push(after);
    if (s.ended_at !== null) out.corrections.push({ before: s, after });
  }
  for (const s of byKey.values()) {
    out.deletes.push(s.id);
    if (s.ended_at !== null) out.corrections.push({ before: s, after: null });
  }
  return out;
}
