import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';
import { buildEntries, entryOrder, indexPage, type EntryOrder, type EntryRow, type IndexQuery, type ListEntries } from './list-index-page.ts';
import { PreparedCache } from '../db/sql/prepared-sql.ts';

// The registry lists' in-memory index (docs/decisions/0083). A page of 15 out of 10,000 vehicles
// cost PostgreSQL milliseconds of CPU to search and count exactly, and the API as much again to
// read, present and serialise its joined rows, every time. So each organization's list is kept
// here: its rows as the API presents them, their search texts (with trigram postings), filter
// codes, groups and sort orders, tagged with the list's version from the list_versions table
// (migration 0012, bumped by triggers in every writing transaction). Each page still asks the
// database one short question, the list's version now (and the live values a row shows that
// change without one: a device's last-seen time); when the version differs, the list is read
// again and the page chosen again. So a page is exactly what the SQL path would give.

/** What the index needs of one list. */
export interface IndexedList<Item> {
  name: 'assets' | 'drivers';
  /** Filter columns, in the order `entriesSql` returns them as f0, f1…. */
  filters: string[];
  /** Rows `id, text, f0…, groups (comma-separated group ids or null), version` of `org`, in id order. */
  entriesSql: SQL;
  /** Every list row of `org` (as the page statement reads them) with `listVersion`. */
  allRowsSql: SQL;
  /** The list's table, its id and organization columns: a sort order is read from them. */
  table: PgTable;
  id: AnyPgColumn;
  organizationId: AnyPgColumn;
  /** One row, `version` and `live` (or null), for `org` and the page's `ids` (a uuid array literal). */
  checkSql: SQL;
  /** The page's items with the live values of `checkSql` (new objects: the kept items are shared). */
  withLive?: (items: Item[], live: string | null) => Item[];
}

/** The list's version as text ('0' before its first change), for a select list. */
export const listVersionSql = (list: 'assets' | 'drivers') =>
  sql`coalesce((select version from list_versions where organization_id = ${sql.placeholder('org')} and list = ${sql.raw(`'${list}'`)}), 0)::text`;

interface Snapshot<Item> {
  version: string;
  entries: ListEntries;
  /** Entry i's row, presented. */
  items: Item[];
  /** Entry indices in each sort order, loaded the first time a sort is asked for. */
  orders: Map<string, EntryOrder>;
  byId?: Map<string, number>;
}

type CheckResult = { version: string; live: string | null };
/** A list's version check under way, and the batch of requests waiting for the next one. */
interface CheckState {
  inflight: boolean;
  next: { ids: Set<string>; promise: Promise<CheckResult>; resolve: (v: CheckResult) => void; reject: (err: unknown) => void } | null;
}

/** The index asked for something the database has changed since it was built. */
class Stale extends Error {}

const MAX_TRIES = 3;

// Statements by list (and sort): their text depends on nothing else, so every store shares them.
type EntryRowSql = { id: string; text: string | null; groups: string | null; version: string } & Record<`f${number}`, string | null>;
const entryStatements = new PreparedCache<EntryRowSql>('list_entries');
const orderStatements = new PreparedCache<{ ids: string | null; version: string }>('list_order');
const checkStatements = new PreparedCache<CheckResult>('list_check');

/** The list's ids of `org` in the given order, comma-separated, with the list's version. */
const orderSql = (list: Pick<IndexedList<unknown>, 'name' | 'table' | 'id' | 'organizationId'>, order: SQL[]) =>
  sql`select string_agg(${list.id}::text, ',' order by ${sql.join(order, sql`, `)}) as ids, ${listVersionSql(list.name)} as version
from ${list.table} where ${list.organizationId} = ${sql.placeholder('org')}`;

/** One database's indexes, least recently used dropped first beyond `maxRows` rows in all. */
export class ListIndexStore {
  private readonly snapshots = new Map<string, Snapshot<unknown>>();
  private readonly building = new Map<string, Promise<Snapshot<unknown> | null>>();
  private rows = 0;
  private readonly checks = new Map<string, CheckState>();
  /** Pages served from the index, lists read into it, and requests handed back to the SQL path. */
  readonly stats = { served: 0, built: 0, fellBack: 0 };

  /** Rows and lists held now (memory reports). */
  get held(): { rows: number; lists: number } {
    return { rows: this.rows, lists: this.snapshots.size };
  }

  constructor(readonly maxRows: number) {}

  /**
   * A page of presented items and the total. `load` reads and presents every row of the list (by
   * id), with the list's version they were read at. Null when this list is too large to keep in
   * memory or kept changing while it was read: the caller then takes the SQL path.
   */
  async page<Item>(
    db: DbOrTx,
    list: IndexedList<Item>,
    org: string,
    q: IndexQuery & { sortKey: string; order: SQL[]; offset: number; limit: number },
    load: () => Promise<{ byId: Map<string, Item>; version: string | undefined }>,
  ): Promise<{ items: Item[]; total: number } | null> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      let snap: Snapshot<Item> | null = null;
      try {
        snap = (await this.snapshot(db, list, org, load)) as Snapshot<Item> | null;
        if (!snap) break;
        const order = await this.order(db, list, org, snap, q.sortKey, q.order);
        const { entries, total } = indexPage(snap.entries, q, order, q.offset, q.limit);
        const check = await this.check(
          db,
          list,
          org,
          entries.map((i) => snap!.entries.ids[i] as string),
        );
        if (check.version === snap.version) {
          this.stats.served++;
          const items = entries.map((i) => snap!.items[i] as Item);
          return { items: list.withLive ? list.withLive(items, check.live) : items, total };
        }
      } catch (err) {
        if (!(err instanceof Stale)) throw err;
      }
      if (snap) this.drop(list, org, snap as Snapshot<unknown>);
    }
    this.stats.fellBack++;
    return null;
  }

  private key = (list: { name: string }, org: string) => `${list.name}:${org}`;

  /**
   * The list's version (and live values) for these ids, read after this call: in a batch sent
   * once the event loop has taken in the requests that arrived with this one (setImmediate), or,
   * while a check of the list is under way, when that check returns. A check already sent may
   * have read the database before this request arrived, so it is never shared; a batch sent later
   * reads it after every request in the batch arrived, so each answer is still as of a moment
   * after its request (decision 0083).
   */
  private check(db: DbOrTx, list: Pick<IndexedList<unknown>, 'name' | 'checkSql'>, org: string, ids: string[]): Promise<CheckResult> {
    const key = this.key(list, org);
    let state = this.checks.get(key);
    if (!state) {
      state = { inflight: false, next: null };
      this.checks.set(key, state);
    }
    const st = state;
    const send = () => {
      const batch = st.next;
      st.next = null;
      if (!batch) {
        this.checks.delete(key);
        return;
      }
      st.inflight = true;
      checkStatements
        .get(list.name, () => list.checkSql)
        .run(db, { org, ids: `{${[...batch.ids].join(',')}}` })
        .then(([r]) => batch.resolve(r ?? { version: '', live: null }), batch.reject)
        .finally(() => {
          st.inflight = false;
          send();
        });
    };
    if (!st.next) {
      let resolve!: (v: CheckResult) => void;
      let reject!: (err: unknown) => void;
      const promise = new Promise<CheckResult>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      st.next = { ids: new Set(), promise, resolve, reject };
      if (!st.inflight) setImmediate(send);
    }
    for (const id of ids) st.next.ids.add(id);
    return st.next.promise;
  }

  private snapshot<Item>(db: DbOrTx, list: IndexedList<Item>, org: string, load: () => Promise<{ byId: Map<string, Item>; version: string | undefined }>) {
    const key = this.key(list, org);
    const cached = this.snapshots.get(key);
    if (cached) {
      // Most recently used last: Map keeps insertion order.
      this.snapshots.delete(key);
      this.snapshots.set(key, cached);
      return Promise.resolve(cached);
    }
    let pending = this.building.get(key);
    if (!pending) {
      pending = this.build(db, list, org, load).finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    return pending;
  }

  private async build<Item>(
    db: DbOrTx,
    list: IndexedList<Item>,
    org: string,
    load: () => Promise<{ byId: Map<string, Item>; version: string | undefined }>,
  ): Promise<Snapshot<Item> | null> {
    const rows = await entryStatements.get(list.name, () => list.entriesSql).run(db, { org });
    if (rows.length > this.maxRows) return null;
    // An empty list has no row to carry its version: the check of an empty page reads it.
    const version = rows[0]?.version ?? (await checkStatements.get(list.name, () => list.checkSql).run(db, { org, ids: '{}' }))[0]?.version;
    const entryRows: EntryRow[] = rows.map((r) => ({
      id: r.id,
      text: r.text ?? '',
      filters: list.filters.map((_, f) => r[`f${f}`] ?? null),
      groups: r.groups ? r.groups.split(',') : [],
    }));
    const loaded = rows.length > 0 ? await load() : { byId: new Map<string, Item>(), version };
    // The rows come from a second statement: a write between the two shows as another version.
    if (version === undefined || loaded.version !== version) throw new Stale();
    const items = entryRows.map((r) => loaded.byId.get(r.id));
    if (items.some((item) => item === undefined)) throw new Stale();
    this.stats.built++;
    const snap: Snapshot<Item> = { version, entries: buildEntries(entryRows, list.filters), items: items as Item[], orders: new Map() };
    const key = this.key(list, org);
    this.snapshots.set(key, snap as Snapshot<unknown>);
    this.rows += rows.length;
    for (const [k, s] of this.snapshots) {
      if (this.rows <= this.maxRows || k === key) break;
      this.snapshots.delete(k);
      this.rows -= s.entries.ids.length;
    }
    return snap;
  }

  private drop(list: { name: string }, org: string, snap: Snapshot<unknown>): void {
    const key = this.key(list, org);
    if (this.snapshots.get(key) !== snap) return;
    this.snapshots.delete(key);
    this.rows -= snap.entries.ids.length;
  }

  private async order<Item>(db: DbOrTx, list: IndexedList<Item>, org: string, snap: Snapshot<Item>, sortKey: string, order: SQL[]): Promise<EntryOrder> {
    const known = snap.orders.get(sortKey);
    if (known) return known;
    const [r] = await orderStatements.get(`${list.name}|${sortKey}`, () => orderSql(list, order)).run(db, { org });
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
}

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
