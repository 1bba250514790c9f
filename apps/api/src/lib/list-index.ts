import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { buildEntries, entryOrder, indexPage, type EntryOrder, type EntryRow, type IndexQuery, type ListEntries } from './list-index-page.ts';
import { PreparedCache, preparedSql, type PreparedSql } from './prepared-sql.ts';

// The registry lists' in-memory index (docs/decisions/0083). A page of 15 out of 10,000 vehicles
// costs PostgreSQL milliseconds of CPU to search and count exactly, every time; the same search
// over the list's texts held in memory costs a fraction of one. So each organization's list is
// kept here as flat arrays (search texts, filter codes, groups, sort orders), tagged with the
// list's version from the list_versions table (migration 0012, bumped by triggers in every
// writing transaction). The page's rows are still read from the database, and the statement that
// reads them also returns the list's current version: when it differs from the index's, the
// index is rebuilt and the page chosen again. So a page is exactly what the SQL path would give.

/** What the index needs of one list: its name in list_versions and how to read its entries. */
export interface IndexedList {
  name: 'assets' | 'drivers';
  /** Filter columns, in the order `entriesSql` returns them as f0, f1…. */
  filters: string[];
  /** Rows `id, text, f0…, groups (comma-separated group ids or null), version` of `org`, in id order. */
  entriesSql: SQL;
  /** `string_agg(id::text, ',' order by …)` of `org` in the given order, with `version`. */
  orderSql: (order: SQL[]) => SQL;
}

/** The list's version as text ('0' before its first change), for a select list. */
export const listVersionSql = (list: IndexedList['name']) =>
  sql`coalesce((select version from list_versions where organization_id = ${sql.placeholder('org')} and list = ${sql.raw(`'${list}'`)}), 0)::text`;

interface Snapshot {
  version: string;
  entries: ListEntries;
  /** Entry indices in each sort order, loaded the first time a sort is asked for. */
  orders: Map<string, EntryOrder>;
  byId?: Map<string, number>;
}

/** The index asked for something the database has changed since it was built. */
class Stale extends Error {}

const MAX_TRIES = 3;

// Statements by list (and sort): their text depends on nothing else, so every store shares them.
const entryStatements = new Map<string, PreparedSql<EntryRowSql>>();
const orderStatements = new Map<string, PreparedCache<{ ids: string | null; version: string }>>();
const versionStatements = new Map<string, PreparedSql<{ version: string }>>();

/** One database's indexes, least recently used dropped first beyond `maxRows` entries in all. */
export class ListIndexStore {
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly building = new Map<string, Promise<Snapshot | null>>();
  private rows = 0;
  /** Pages served from the index, indexes built, and requests handed back to the SQL path. */
  readonly stats = { served: 0, built: 0, fellBack: 0 };

  constructor(readonly maxRows: number) {}

  /**
   * A page of ids and the total from the index, with the page's rows as `fetchRows` reads them
   * (rows carrying the list's version in `listVersion`). Null when this list is too large to
   * keep in memory or kept changing while it was read: the caller then takes the SQL path.
   */
  async page<Row extends { listVersion: string }>(
    db: DbOrTx,
    list: IndexedList,
    org: string,
    q: IndexQuery & { sortKey: string; order: SQL[]; offset: number; limit: number },
    fetchRows: (ids: string[]) => Promise<Row[]>,
  ): Promise<{ rows: Row[]; total: number } | null> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const snap = await this.snapshot(db, list, org);
      if (!snap) break;
      try {
        const order = await this.order(db, list, org, snap, q.sortKey, q.order);
        const { ids, total } = indexPage(snap.entries, q, order, q.offset, q.limit);
        const rows = ids.length > 0 ? await fetchRows(ids) : [];
        const version = rows[0]?.listVersion ?? (await this.version(db, list, org));
        // Rows of a page the index chose must all still exist in the organization.
        if (version === snap.version && rows.length === ids.length) {
          this.stats.served++;
          return { rows, total };
        }
      } catch (err) {
        if (!(err instanceof Stale)) throw err;
      }
      this.drop(list, org, snap);
    }
    this.stats.fellBack++;
    return null;
  }

  private key = (list: IndexedList, org: string) => `${list.name}:${org}`;

  private async snapshot(db: DbOrTx, list: IndexedList, org: string): Promise<Snapshot | null> {
    const key = this.key(list, org);
    const cached = this.snapshots.get(key);
    if (cached) {
      // Most recently used last: Map keeps insertion order.
      this.snapshots.delete(key);
      this.snapshots.set(key, cached);
      return cached;
    }
    let pending = this.building.get(key);
    if (!pending) {
      pending = this.build(db, list, org).finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    return pending;
  }

  private async build(db: DbOrTx, list: IndexedList, org: string): Promise<Snapshot | null> {
    let stmt = entryStatements.get(list.name);
    if (!stmt) {
      stmt = preparedSql<EntryRowSql>(`${list.name}_index`, list.entriesSql);
      entryStatements.set(list.name, stmt);
    }
    const rows = await stmt.run(db, { org });
    if (rows.length > this.maxRows) return null;
    this.stats.built++;
    const entryRows: EntryRow[] = rows.map((r) => ({
      id: r.id,
      text: r.text ?? '',
      filters: list.filters.map((_, f) => r[`f${f}`] ?? null),
      groups: r.groups ? r.groups.split(',') : [],
    }));
    // An empty list has no row to carry its version.
    const version = rows[0]?.version ?? (await this.version(db, list, org));
    const snap: Snapshot = { version, entries: buildEntries(entryRows, list.filters), orders: new Map() };
    const key = this.key(list, org);
    this.snapshots.set(key, snap);
    this.rows += rows.length;
    for (const [k, s] of this.snapshots) {
      if (this.rows <= this.maxRows || k === key) break;
      this.snapshots.delete(k);
      this.rows -= s.entries.ids.length;
    }
    return snap;
  }

  private drop(list: IndexedList, org: string, snap: Snapshot): void {
    const key = this.key(list, org);
    if (this.snapshots.get(key) !== snap) return;
    this.snapshots.delete(key);
    this.rows -= snap.entries.ids.length;
  }

  private async order(db: DbOrTx, list: IndexedList, org: string, snap: Snapshot, sortKey: string, order: SQL[]): Promise<EntryOrder> {
    const known = snap.orders.get(sortKey);
    if (known) return known;
    let cache = orderStatements.get(list.name);
    if (!cache) {
      cache = new PreparedCache(`${list.name}_order`);
      orderStatements.set(list.name, cache);
    }
    const [r] = await cache.get(sortKey, () => list.orderSql(order)).run(db, { org });
    if (!r || r.version !== snap.version) throw new Stale();
    const ids = r.ids ? r.ids.split(',') : [];
    if (ids.length !== snap.entries.ids.length) throw new Stale();
    snap.byId ??= new Map(snap.entries.ids.map((id, i) => [id, i]));
    const out = new Int32Array(ids.length);
    for (let k = 0; k < ids.length; k++) {
      const i = snap.byId.get(ids[k] as string);
      if (i === undefined) throw new Stale();
      out[k] = i;
    }
    const sorted = entryOrder(out);
    snap.orders.set(sortKey, sorted);
    return sorted;
  }

  private async version(db: DbOrTx, list: IndexedList, org: string): Promise<string> {
    let stmt = versionStatements.get(list.name);
    if (!stmt) {
      stmt = preparedSql<{ version: string }>(`${list.name}_version`, sql`select ${listVersionSql(list.name)} as version`);
      versionStatements.set(list.name, stmt);
    }
    const [r] = await stmt.run(db, { org });
    return r?.version ?? '0';
  }
}

type EntryRowSql = { id: string; text: string | null; groups: string | null; version: string } & Record<`f${number}`, string | null>;

// Keyed by the database handle the app serves requests on. A transaction is another object, so it
// never finds an index: a list read inside a transaction may see that transaction's own writes.
const stores = new WeakMap<object, ListIndexStore>();

/** Keeps registry lists indexed in memory for requests on `db` (0 rows: never). */
export function enableListIndex(db: object, maxRows: number): void {
  if (maxRows > 0) stores.set(db, new ListIndexStore(maxRows));
  else stores.delete(db);
}

/** The index for `db`, if the app enabled one for it. */
export const listIndexOf = (db: DbOrTx): ListIndexStore | undefined => stores.get(db);
