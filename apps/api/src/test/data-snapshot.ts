import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteExtensions } from '../db/pglite-open.ts';

// A stopped server's embedded database read table by table (restart tests): each row as JSON text
// under its primary key, to compare what was recorded before and after a restart.

export type TableSnapshot = Map<string, Record<string, unknown>>;
export type DataSnapshot = Map<string, TableSnapshot>;

/** Every row of these tables in a server's DATA_DIR (no server may have it open). */
export async function snapshotData(dataDir: string, tables: readonly string[]): Promise<DataSnapshot> {
  const db = new PGlite(path.join(dataDir, 'pgdata'), { extensions: pgliteExtensions });
  try {
    const out: DataSnapshot = new Map();
    for (const table of tables) {
      const keys = (
        await db.query<{ c: string }>(
          // The primary key, else the first unique index (per-day totals have one).
          `select a.attname as c from (select * from pg_index where indrelid = $1::regclass and indisunique order by indisprimary desc, indexrelid limit 1) i
           join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey) order by array_position(i.indkey, a.attnum)`,
          [table],
        )
      ).rows.map((r) => r.c);
      const rows = (await db.query<{ j: string }>(`select row_to_json(x)::text as j from "${table}" x`)).rows.map(
        (r) => JSON.parse(r.j) as Record<string, unknown>,
      );
      out.set(table, new Map(rows.map((r) => [keys.length ? keys.map((k) => String(r[k])).join('|') : JSON.stringify(r), r])));
    }
    return out;
  } finally {
    await db.close();
  }
}

export interface RowChange {
  table: string;
  key: string;
  /** null: the row is gone. */
  after: Record<string, unknown> | null;
  before: Record<string, unknown>;
}

/**
 * The rows of `before` that are gone or changed in `after`. `mayGoOn(table, before, after)` says
 * whether a change is a recorded fact going on (an open visit departing, today's totals growing)
 * rather than a rewrite; `after` null: the row is gone (a total of today summed again, in a table
 * without a key).
 */
export function rewrites(
  before: DataSnapshot,
  after: DataSnapshot,
  mayGoOn: (table: string, b: Record<string, unknown>, a: Record<string, unknown> | null) => boolean,
): RowChange[] {
  const out: RowChange[] = [];
  for (const [table, rows] of before) {
    const now = after.get(table) ?? new Map();
    for (const [key, b] of rows) {
      const a = now.get(key) ?? null;
      if (a === null ? !mayGoOn(table, b, null) : JSON.stringify(a) !== JSON.stringify(b) && !mayGoOn(table, b, a))
        out.push({ table, key, before: b, after: a });
    }
  }
  return out;
}

/** A row's values without its identity and bookkeeping: what makes two rows the same fact. */
const factOf = (row: Record<string, unknown>) =>
  JSON.stringify(Object.fromEntries(Object.entries(row).filter(([c]) => c !== 'id' && c !== 'created_at' && c !== 'updated_at')));

/**
 * The rows new in `after` that repeat a row of `before` under another id in these tables: a
 * recompute that recorded a fact again instead of keeping it (issue 66: a restart's visits and loads
 * seeded again beside the first ones).
 */
export function copies(before: DataSnapshot, after: DataSnapshot, tables: readonly string[]): RowChange[] {
  const out: RowChange[] = [];
  for (const table of tables) {
    const was = before.get(table) ?? new Map<string, Record<string, unknown>>();
    const facts = new Map([...was.values()].map((r) => [factOf(r), r]));
    for (const [key, a] of after.get(table) ?? []) {
      if (was.has(key)) continue;
      const same = facts.get(factOf(a));
      if (same) out.push({ table, key, before: same, after: a });
    }
  }
  return out;
}
